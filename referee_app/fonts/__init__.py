"""The bundled CJK font, and helpers that register it with Qt and reportlab.

``WenQuanYiMicroHei-Subset.ttf`` is a TrueType (``glyf``) subset of WenQuanYi
Micro Hei (Apache-2.0): ASCII, Latin-1, general and CJK punctuation, fullwidth
forms, all of GB 2312 and the Big5 level-1 hanzi. See ``README.md`` beside this
file for its origin and ``tools/subset_font.py`` for how it is made.

This module imports neither Qt nor reportlab at import time; each helper imports
what it needs when called.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "CJK_FONT_FAMILY",
    "CJK_FONT_PATH",
    "REPORTLAB_FONT_NAME",
    "register_qt_font",
    "register_reportlab_font",
]

CJK_FONT_PATH: Path = Path(__file__).resolve().parent / "WenQuanYiMicroHei-Subset.ttf"
#: Family name stored in the font file (what Qt reports after registering it).
CJK_FONT_FAMILY = "WenQuanYi Micro Hei"
#: Default name under which :func:`register_reportlab_font` registers the font.
REPORTLAB_FONT_NAME = "RefereeCJK"

# Chinese families that widgets, style sheets or templates may ask for by name;
# Qt uses the bundled font instead when the machine has no such font. Generic
# names ("Sans Serif") are deliberately not substituted: that would make Qt draw
# Latin text in this font too, instead of the platform's UI font.
_SUBSTITUTED_FAMILIES = (
    "SimSun",
    "SimHei",
    "Microsoft YaHei",
    "PingFang SC",
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
)

_qt_family: str | None = None


def register_qt_font() -> str:
    """Add the bundled font to Qt's font database and make it a fallback.

    Needs a ``QGuiApplication`` (or ``QApplication``) to exist. Returns the
    font's family name. Safe to call any number of times: the file is added to
    the database once, and each call (re)applies the fallback to the current
    application's default font, so it also works after the application object
    is replaced.

    The fallback works at two levels:

    * the application's default font gets the bundled family appended to its
      family list (``QFont.setFamilies``), after the family the platform
      resolved the default to, so widgets that inherit the default font draw
      Latin text in the platform font and CJK text in this one;
    * ``QFont.insertSubstitution`` adds it as a substitute for common Chinese
      family names (SimSun, Microsoft YaHei, ...), for widgets that name one.
    """
    global _qt_family

    from PySide6.QtGui import QFont, QFontDatabase, QFontInfo, QGuiApplication

    app = QGuiApplication.instance()
    if app is None:
        raise RuntimeError("register_qt_font() needs a QGuiApplication to exist first")

    if _qt_family is None or _qt_family not in QFontDatabase.families():
        font_id = QFontDatabase.addApplicationFont(str(CJK_FONT_PATH))
        if font_id < 0:
            raise RuntimeError(f"Qt could not load the font file {CJK_FONT_PATH}")
        families = QFontDatabase.applicationFontFamilies(font_id)
        if not families:
            raise RuntimeError(f"Qt found no font family in {CJK_FONT_PATH}")
        _qt_family = CJK_FONT_FAMILY if CJK_FONT_FAMILY in families else families[0]
    family = _qt_family

    for name in _SUBSTITUTED_FAMILIES:
        if family.lower() not in (f.lower() for f in QFont.substitutes(name)):
            QFont.insertSubstitution(name, family)

    app_font = QGuiApplication.font()
    current = list(app_font.families()) or [app_font.family()]
    if family not in current:
        # Put the family the platform actually resolved first: the default is often an
        # alias ("Sans Serif") that Qt's family-list matching would skip, which would
        # make the CJK font the primary font for Latin text too.
        resolved = QFontInfo(app_font).family()
        families = list(dict.fromkeys([resolved, *current, family]))
        app_font.setFamilies(families)
        QGuiApplication.setFont(app_font)
    return family


def register_reportlab_font(name: str = REPORTLAB_FONT_NAME) -> str:
    """Register the bundled font with reportlab as ``name`` and return ``name``.

    Idempotent. The font is embedded (subset) in every PDF that uses it, so the
    PDF shows Chinese on any viewer. The font has a single (regular) face; it is
    also registered as a font family whose bold and italic members are that same
    face, so ``<b>``/``<i>`` markup in Paragraphs does not fail.
    """
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    if name in pdfmetrics.getRegisteredFontNames():
        filename = getattr(getattr(pdfmetrics.getFont(name), "face", None), "filename", None)
        if not filename or Path(filename).resolve() != CJK_FONT_PATH:
            raise ValueError(f"a different reportlab font is already registered as {name!r}")
        return name

    pdfmetrics.registerFont(TTFont(name, str(CJK_FONT_PATH)))
    pdfmetrics.registerFontFamily(name, normal=name, bold=name, italic=name, boldItalic=name)
    return name
