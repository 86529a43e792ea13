"""The desk's style: the platform's, with group box titles measured by what they draw.

Fusion measures a group box title by its glyphs' ink (``QFontMetrics.boundingRect``) and
clips the title there. Chinese drawn in the bundled fallback font reaches past that
measure, so a title ending in full-width punctuation lost it ("（用于争议；不保存）" lost
its "）", issue 25). Here the title's box is at least as wide as the text's advance.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import (
    QApplication,
    QProxyStyle,
    QStyle,
    QStyleOptionComplex,
    QStyleOptionGroupBox,
    QWidget,
)

from .keyboard import plain


class DeskStyle(QProxyStyle):
    """The application's style with whole group box titles."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        #: (title, font) -> the title's advance: a seat panel is repainted on each keystroke
        self._advance: dict[tuple[str, str], int] = {}

    def subControlRect(self, cc: QStyle.ComplexControl, opt: QStyleOptionComplex,
                       sc: QStyle.SubControl, widget: QWidget | None = None) -> Any:
        r = super().subControlRect(cc, opt, sc, widget)
        if sc == QStyle.SubControl.SC_GroupBoxLabel and cc == QStyle.ComplexControl.CC_GroupBox \
                and isinstance(opt, QStyleOptionGroupBox) and opt.text:
            key = (opt.text, widget.font().key() if widget is not None else "")
            need = self._advance.get(key)
            if need is None:
                need = self._advance[key] = \
                    opt.fontMetrics.horizontalAdvance(plain(opt.text)) + 2
            if r.width() < need:
                r.setWidth(need)
        return r


def use_desk_style() -> None:
    """Make the running application's style a :class:`DeskStyle` (once)."""
    app = QApplication.instance()
    if isinstance(app, QApplication) and not isinstance(app.style(), DeskStyle):
        app.setStyle(DeskStyle(app.style().name()))
