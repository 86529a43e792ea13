"""Text as a terminal shows it: columns aligned by display width, times a referee reads.

A Chinese character takes two terminal columns (``unicodedata.east_asian_width`` W or F),
a combining mark none, so ``f"{name:<16}"`` slips after a 3-character name. Every table
the command line prints pads its cells with :func:`pad` (and :func:`row` for a whole
line); times stored as UTC ISO 8601 with microseconds are printed with :func:`when`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from datetime import datetime


def width(text: str) -> int:
    """Terminal columns of ``text``: 2 for wide and full-width characters, 0 for
    combining marks and zero-width characters, 1 otherwise."""
    if text.isascii():
        return len(text)
    n = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        n += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return n


def pad(text: object, columns: int, align: str = "<") -> str:
    """``text`` padded with spaces to ``columns`` terminal columns: ``<`` left, ``>``
    right, ``^`` centred (never cut: a longer text is returned whole)."""
    s = str(text)
    gap = max(0, columns - width(s))
    if align == ">":
        return " " * gap + s
    if align == "^":
        return " " * (gap // 2) + s + " " * (gap - gap // 2)
    return s + " " * gap


def row(cells: Sequence[object], columns: Sequence[int], aligns: str = "",
        sep: str = "  ") -> str:
    """One line of a table: each cell padded to its column (``aligns``: one of ``<>^`` per
    column, left by default); the last cell is not padded on the right."""
    out = []
    last = len(cells) - 1
    for i, cell in enumerate(cells):
        a = aligns[i] if i < len(aligns) else "<"
        text = str(cell)
        out.append(text if i == last and a == "<" else pad(text, columns[i], a))
    return sep.join(out)


def table(rows: Sequence[Sequence[object]], aligns: str = "", sep: str = "  ") -> list[str]:
    """Lines of a table whose columns are as wide as their widest cell (the first row is
    usually the header)."""
    if not rows:
        return []
    n = max(len(r) for r in rows)
    cols = [max((width(str(r[i])) for r in rows if i < len(r)), default=0) for i in range(n)]
    return [row(r, cols, aligns, sep).rstrip() for r in rows]


def when(at: str, *, seconds: bool = True, day: bool = True) -> str:
    """A stored time (ISO 8601, UTC, microseconds) as a referee reads it: in this
    computer's time zone, ``2026-12-06 14:05:09`` (``seconds=False``: ``2026-12-06 14:05``;
    ``day=False``: ``14:05:09``, the clock of today's round); a text that is not a time is
    returned as it is."""
    try:
        t = datetime.fromisoformat(at)
    except (TypeError, ValueError):
        return str(at)
    if t.tzinfo is not None:
        t = t.astimezone()
    return t.strftime(("%Y-%m-%d " if day else "") + ("%H:%M:%S" if seconds else "%H:%M"))


def duration(seconds: int) -> str:
    """Time left on a clock: ``42:10``, ``1:05:09`` (hours only when there are any)."""
    seconds = max(0, int(seconds))
    h, m, s = seconds // 3600, seconds // 60 % 60, seconds % 60
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
