"""Banners above the window's tabs: a coloured line that stays until its cause goes.

Why a banner and not a message box: a read-only file, a hand changed at another desk or
a record with unknown fields is a *state* the referee works in, not an event to click
away; the banner says so for as long as it is true. Each banner has a ``kind`` (one
banner per kind) and optional buttons.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

#: kind -> (background, border): warning amber, danger red, info blue
_STYLE = {"warning": ("#fff4ce", "#e0b000"), "danger": ("#fde7e9", "#c50f1f"),
          "info": ("#e6f2fb", "#2b88d8")}


class Banner(QFrame):
    """One line of text with buttons; ``buttons`` are (label, callback)."""

    def __init__(self, kind: str, text: str, level: str = "warning",
                 buttons: Sequence[tuple[str, Callable[[], object]]] = (),
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = kind
        self.setObjectName(f"banner_{kind}")
        bg, border = _STYLE.get(level, _STYLE["warning"])
        self.setStyleSheet(f"#banner_{kind} {{ background: {bg}; border: 1px solid {border};"
                           " border-radius: 3px; } QLabel { color: #1b1b1b; }")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        self.label = QLabel(text)
        self.label.setObjectName(f"banner_{kind}_text")
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        lay.addWidget(self.label, 1)
        self.buttons: list[QPushButton] = []
        for label, callback in buttons:
            b = QPushButton(label)
            b.clicked.connect(lambda _c=False, cb=callback: cb())
            lay.addWidget(b)
            self.buttons.append(b)

    def text(self) -> str:
        return self.label.text()


class BannerArea(QWidget):
    """The stack of banners (hidden while empty)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner_area")
        self._lay = QVBoxLayout(self)
        self._lay.setContentsMargins(4, 2, 4, 2)
        self._lay.setSpacing(2)
        self._banners: dict[str, Banner] = {}
        self.setVisible(False)

    def show_banner(self, kind: str, text: str, level: str = "warning",
                    buttons: Sequence[tuple[str, Callable[[], object]]] = ()) -> Banner:
        """Show (or replace) the banner of ``kind``."""
        self.clear(kind)
        b = Banner(kind, text, level, buttons, self)
        self._banners[kind] = b
        self._lay.addWidget(b)
        self.setVisible(True)
        return b

    def clear(self, kind: str) -> None:
        b = self._banners.pop(kind, None)
        if b is not None:
            self._lay.removeWidget(b)
            b.hide()
            b.deleteLater()
        self.setVisible(bool(self._banners))

    def banner(self, kind: str) -> Banner | None:
        return self._banners.get(kind)

    def texts(self) -> dict[str, str]:
        """kind -> text of every banner shown (tests and the screenshot read them)."""
        return {k: b.text() for k, b in self._banners.items()}
