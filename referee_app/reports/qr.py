"""The QR code to the players' live results page, drawn as vector squares (segno makes the
matrix), for table cards and printed standings when the tournament has a results address.

Drawn, not pasted as an image: sharp at any size, and the same data gives the same PDF bytes.
"""

from __future__ import annotations

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Table, TableStyle

from .base import esc, styles
from .template import Template


def qr_matrix(url: str) -> list[list[bool]]:
    """The QR code's modules (error correction M, no quiet zone)."""
    import segno

    return [[bool(v) for v in row] for row in segno.make(url, error="m", micro=False).matrix]


def draw_qr(c: Canvas, url: str, x: float, y: float, size: float) -> None:
    """The code for ``url`` with its lower left corner at (x, y), ``size`` points wide
    (a quiet zone of two modules inside that square, white)."""
    m = qr_matrix(url)
    n = len(m) + 4
    unit = size / n
    c.saveState()
    c.setFillColor(colors.white)
    c.rect(x, y, size, size, stroke=0, fill=1)
    c.setFillColor(colors.black)
    for r, row in enumerate(m):
        top = y + size - (r + 2 + 1) * unit
        col = 0
        while col < len(row):  # one rectangle per run of dark modules
            if not row[col]:
                col += 1
                continue
            start = col
            while col < len(row) and row[col]:
                col += 1
            c.rect(x + (start + 2) * unit, top, (col - start) * unit, unit, stroke=0, fill=1)
    c.restoreState()


class QRCode(Flowable):
    """A square QR code as a flowable."""

    def __init__(self, url: str, size: float = 28 * mm) -> None:
        super().__init__()
        self.url, self.size = url, size

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return self.size, self.size

    def draw(self) -> None:
        draw_qr(self.canv, self.url, 0, 0, self.size)


def results_block(url: str, t: Template, size: float = 28 * mm) -> Table:
    """The code beside its caption and the address written out (for who cannot scan)."""
    st = styles(t)
    text = Paragraph(f"<b>{esc(t.label('results_qr'))}</b><br/>{esc(url)}", st.body)
    tbl = Table([[QRCode(url, size), text]], colWidths=[size + 4 * mm, None], hAlign="LEFT")
    tbl.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                             ("LEFTPADDING", (0, 0), (-1, -1), 0)]))
    return tbl
