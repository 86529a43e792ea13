"""Tiles drawn as tiles: a rounded ivory face with the rank and the suit character.

Painted with QPainter so the app ships no images; suit colours follow the usual sets
(万 red, 筒 blue, 条 green). Exposed melds (pongs, kongs) are drawn on a darker face
after a gap, so the referee sees at a glance what was concealed and what was shown.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QSizePolicy, QWidget

from referee_app.core import Tile

SUIT_COLOURS = {"m": QColor("#b3261e"), "p": QColor("#1d4f91"), "s": QColor("#1b7a3a")}
SUIT_CHARS = {"m": "万", "p": "筒", "s": "条"}
FACE = QColor("#fbf7ea")
FACE_EXPOSED = QColor("#e4dcc2")
EDGE = QColor("#8a7f62")
# explicit pens and brushes: implicit QColor -> QPen/QBrush conversions in hot paint code
# have crashed PySide (refcount) under load
_EDGE_PEN = QPen(EDGE, 1.0)
_FACE_BRUSH = QBrush(FACE)
_EXPOSED_BRUSH = QBrush(FACE_EXPOSED)
_SUIT_PENS = {k: QPen(c) for k, c in SUIT_COLOURS.items()}


@dataclass(frozen=True, slots=True)
class TileGroup:
    """Tiles drawn together; ``exposed`` groups get the darker face (pongs, kongs)."""

    tiles: tuple[Tile, ...]
    exposed: bool = False


def paint_tile(p: QPainter, rect: QRectF, tile: Tile, exposed: bool = False) -> None:
    """Draw one tile into ``rect`` (any size; the text scales with the rectangle)."""
    radius = rect.width() * 0.16
    p.setPen(_EDGE_PEN)
    p.setBrush(_EXPOSED_BRUSH if exposed else _FACE_BRUSH)
    p.drawRoundedRect(rect.adjusted(0.5, 0.5, -0.5, -0.5), radius, radius)
    p.setPen(_SUIT_PENS[tile.suit.value])
    f = QFont(p.font())
    f.setBold(True)
    f.setPixelSize(max(8, int(rect.height() * 0.42)))
    p.setFont(f)
    top = QRectF(rect.left(), rect.top() + rect.height() * 0.04, rect.width(),
                 rect.height() * 0.5)
    p.drawText(top, Qt.AlignmentFlag.AlignCenter, str(tile.rank))
    f.setBold(False)
    f.setPixelSize(max(7, int(rect.height() * 0.32)))
    p.setFont(f)
    bottom = QRectF(rect.left(), rect.top() + rect.height() * 0.5, rect.width(),
                    rect.height() * 0.44)
    p.drawText(bottom, Qt.AlignmentFlag.AlignCenter, SUIT_CHARS[tile.suit.value])


#: tiles already drawn, by (tile, exposed, width, height, pixel ratio): a keystroke
#: repaints a strip from these instead of drawing every face and character again
_PIXMAPS: dict[tuple[str, bool, int, int, float], QPixmap] = {}


def tile_pixmap(tile: Tile, exposed: bool, w: float, h: float, ratio: float) -> QPixmap:
    """One tile drawn once at this size and kept (a few hundred entries at most)."""
    key = (str(tile), exposed, round(w), round(h), ratio)
    pix = _PIXMAPS.get(key)
    if pix is None:
        if len(_PIXMAPS) > 2000:
            _PIXMAPS.clear()
        pix = QPixmap(max(1, round(w * ratio)), max(1, round(h * ratio)))
        pix.setDevicePixelRatio(ratio)
        pix.fill(Qt.GlobalColor.transparent)
        p = QPainter(pix)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        paint_tile(p, QRectF(0, 0, round(w), round(h)), tile, exposed)
        p.end()
        _PIXMAPS[key] = pix
    return pix


class TileStrip(QWidget):
    """A row of tile groups (concealed tiles, then each meld), redrawn as the text changes."""

    def __init__(self, tile_height: int = 34, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._groups: tuple[TileGroup, ...] = ()
        #: drawn faded: the last good tiles of a field that cannot be read right now
        self.stale = False
        self._h = tile_height
        self._w = round(tile_height * 0.72)
        self._gap = max(6, tile_height // 4)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setMinimumHeight(tile_height + 4)

    def set_groups(self, groups: tuple[TileGroup, ...] | list[TileGroup]) -> None:
        new = tuple(g for g in groups if g.tiles)
        if new == self._groups:  # a keystroke in another seat: nothing to redraw here
            return
        self._groups = new
        self.updateGeometry()
        self.update()

    def set_stale(self, stale: bool) -> None:
        if stale != self.stale:
            self.stale = stale
            self.update()

    def groups(self) -> tuple[TileGroup, ...]:
        return self._groups

    def tile_count(self) -> int:
        return sum(len(g.tiles) for g in self._groups)

    def _natural_width(self) -> int:
        n = self.tile_count()
        return 4 + n * (self._w + 1) + self._gap * max(0, len(self._groups) - 1)

    def sizeHint(self) -> QSize:
        return QSize(max(120, self._natural_width()), self._h + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(60, self._h + 4)

    def paintEvent(self, event) -> None:
        if not self._groups:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        ratio = self.devicePixelRatioF()
        if self.stale:
            p.setOpacity(0.35)
        # shrink tiles uniformly when the row does not fit
        scale = min(1.0, max(0.4, (self.width() - 2) / max(1, self._natural_width())))
        w, h, gap, step = self._w * scale, self._h * scale, self._gap * scale, (self._w + 1) * scale
        x, y = 2.0, 2.0 + (self._h - h) / 2
        for g in self._groups:
            for t in g.tiles:
                p.drawPixmap(QPointF(x, y), tile_pixmap(t, g.exposed, w, h, ratio))
                x += step
            x += gap
        p.end()
