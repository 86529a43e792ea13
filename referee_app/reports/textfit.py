"""Fitting text into a width without cutting it (issue 13): shrink, then wrap.

A name or a label first shrinks (down to a minimum size that is still legible); only when
it does not fit even then does it wrap onto more lines, at spaces when it can and between
Chinese characters otherwise — a Latin word is split only when it alone is wider than the
whole column. Nothing is ever replaced by an ellipsis.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape

from reportlab.lib.enums import TA_CENTER, TA_LEFT, TA_RIGHT
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph

from referee_app.fonts import register_reportlab_font

#: A word, a single CJK character, or a run of spaces: the places a line may break.
_TOKENS = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]|[^\s\u2e80-\u9fff"
                     r"\uf900-\ufaff\uff00-\uffef]+|\s+")
_ALIGN = {"LEFT": TA_LEFT, "CENTER": TA_CENTER, "CENTRE": TA_CENTER, "RIGHT": TA_RIGHT}


def width_of(text: str, size: float) -> float:
    return stringWidth(text, register_reportlab_font(), size)


def largest_size(text: str, width: float, size: float, min_size: float) -> float | None:
    """The largest size from ``size`` down to ``min_size`` (quarter points) at which
    ``text`` fits on one line, or None."""
    if width_of(text, size) <= width:
        return size
    s = min(size, size * width / max(width_of(text, size), 1e-6))
    s = int(s * 4) / 4
    while s >= min_size:
        if width_of(text, s) <= width:
            return s
        s -= 0.25
    return None


def wrap_lines(text: str, width: float, size: float) -> list[str]:
    """Greedy line breaking at spaces and between CJK characters."""
    lines: list[str] = []
    line = ""
    for tok in _TOKENS.findall(text):
        if not line and tok.isspace():
            continue
        if width_of(line + tok, size) <= width:
            line += tok
            continue
        if line.strip():
            lines.append(line.rstrip())
        line = "" if tok.isspace() else tok
        while width_of(line, size) > width and len(line) > 1:  # one word wider than all
            cut = len(line) - 1
            while cut > 1 and width_of(line[:cut], size) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    if line.strip():
        lines.append(line.rstrip())
    return lines or [""]


def fit_lines(text: str, width: float, size: float, min_size: float) -> tuple[float, list[str]]:
    """(size, lines): one line at the largest size that fits, else wrapped at ``min_size``."""
    s = largest_size(text, width, size, min_size)
    if s is not None:
        return s, [text]
    return min_size, wrap_lines(text, width, min_size)


def cell(text: str, width: float, size: float, min_size: float,
         align: str = "LEFT") -> str | Paragraph:
    """A table cell: the plain text when it fits, else a shrunk or wrapped paragraph.
    Explicit line breaks (``\n``) are kept; all lines share one size."""
    parts = text.split("\n")
    if all(width_of(p, size) <= width for p in parts):
        return text
    sizes = [largest_size(p, width, size, min_size) for p in parts]
    if all(x is not None for x in sizes):
        s, lines = min(x for x in sizes if x is not None), parts
    else:
        s, lines = min_size, [ln for p in parts for ln in wrap_lines(p, width, min_size)]
    style = ParagraphStyle("fit", fontName=register_reportlab_font(), fontSize=s,
                           leading=s * 1.18, alignment=_ALIGN.get(align.upper(), TA_LEFT))
    return Paragraph("<br/>".join(escape(line) for line in lines), style)


def header_size(text: str, width: float, size: float, min_size: float) -> float:
    """The size at which every word of a column header fits the column (so headers wrap
    only between words, never inside "Self-drawn")."""
    words = [w for w in re.split(r"\s+", text) if w]
    s = size
    for w in words:
        fitted = largest_size(w, width, s, min_size)
        s = fitted if fitted is not None else min_size
    return s


def draw_centred(c: Canvas, x: float, y: float, text: str, width: float, size: float,
                 min_size: float, *, leading: float = 1.15) -> float:
    """Draw ``text`` centred on ``x`` with its first baseline at ``y``; returns the
    distance from ``y`` down to the last baseline (0 for one line)."""
    s, lines = fit_lines(text, width, size, min_size)
    c.setFont(register_reportlab_font(), s)
    for i, line in enumerate(lines):
        c.drawCentredString(x, y - i * s * leading, line)
    return (len(lines) - 1) * s * leading
