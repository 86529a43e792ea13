"""Colours of the desk as ready-made brushes.

Passing a QColor or Qt.GlobalColor where Qt wants a QBrush makes PySide convert it on
every call; under heavy repainting that conversion has crashed PySide 6.12 (a refcount
error), so widgets take these explicit, cached brushes instead.
"""

from __future__ import annotations

from functools import cache

from PySide6.QtGui import QBrush, QColor

GREEN = "#1b7a3a"
RED = "#b3261e"
GREY = "#444444"
LIGHT_GREY = "#888888"
WARN_BG = "#fff1a8"


@cache
def brush(hex_colour: str) -> QBrush:
    """A shared brush of one colour (``"transparent"`` for none)."""
    if hex_colour == "transparent":
        return QBrush()
    return QBrush(QColor(hex_colour))


def chips_brush(value: int, positive: str = GREEN, negative: str = RED,
                zero: str = GREY) -> QBrush:
    """Green for a gain, red for a loss."""
    return brush(positive if value > 0 else negative if value < 0 else zero)
