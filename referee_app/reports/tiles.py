"""Tiles drawn as small rounded rectangles (rank + suit character) with reportlab graphics.

No image files: a tile is a rounded ``Rect`` with the rank on top and 万/筒/条 below, in
the suit's colour, so a ruling sheet shows the hand as the table saw it and prints the
same anywhere.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.graphics.shapes import Drawing, Rect, String
from reportlab.lib import colors
from reportlab.lib.units import mm

from referee_app.core import Tile

from .base import font

SUIT_COLOURS = {"m": colors.HexColor("#b3261e"), "p": colors.HexColor("#1f4e9c"),
                "s": colors.HexColor("#1e7b34")}
TILE_W = 5.4 * mm
TILE_H = 7.4 * mm
GAP = 0.5 * mm
GROUP_GAP = 2.4 * mm


@dataclass(frozen=True, slots=True)
class TileGroup:
    """Tiles drawn side by side; ``kind`` styles them: hand / meld / concealed / win."""

    tiles: tuple[Tile, ...]
    kind: str = "hand"
    caption: str = ""


def _tile(d: Drawing, x: float, y: float, tile: Tile, kind: str, scale: float) -> None:
    w, h = TILE_W * scale, TILE_H * scale
    fill = {"win": colors.HexColor("#fff2b3"), "meld": colors.HexColor("#eef1f5"),
            "concealed": colors.HexColor("#e6e6e6")}.get(kind, colors.white)
    d.add(Rect(x, y, w, h, rx=1.1 * mm * scale, ry=1.1 * mm * scale, fillColor=fill,
               strokeColor=colors.HexColor("#444444"), strokeWidth=0.6))
    colour = SUIT_COLOURS[tile.suit.value]
    f = font()
    d.add(String(x + w / 2, y + h * 0.50, str(tile.rank), fontName=f, fontSize=9 * scale,
                 fillColor=colour, textAnchor="middle"))
    d.add(String(x + w / 2, y + h * 0.12, tile.suit.chinese, fontName=f, fontSize=6.5 * scale,
                 fillColor=colour, textAnchor="middle"))


def tiles_drawing(groups: Sequence[TileGroup], *, scale: float = 1.0,
                  max_width: float | None = None) -> Drawing:
    """One row of tile groups; shrinks to ``max_width`` if the hand is long."""
    n_tiles = sum(len(g.tiles) for g in groups)
    width = (n_tiles * (TILE_W + GAP) + max(0, len(groups) - 1) * GROUP_GAP) * scale
    if max_width is not None and width > max_width and width > 0:
        scale *= max_width / width
        width = max_width
    captions = any(g.caption for g in groups)
    cap_h = 3.2 * mm if captions else 0
    height = TILE_H * scale + cap_h + 1
    d = Drawing(max(width, 1), height)
    x = 0.0
    f = font()
    for g in groups:
        start = x
        for tile in g.tiles:
            _tile(d, x, cap_h, tile, g.kind, scale)
            x += (TILE_W + GAP) * scale
        if g.caption:
            d.add(String(start, 0.6 * mm, g.caption, fontName=f, fontSize=6,
                         fillColor=colors.HexColor("#555555")))
        x += GROUP_GAP * scale
    return d
