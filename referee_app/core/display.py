"""Text as people read it: its display width, stored times, the time left on a clock.

A Chinese character takes two terminal columns (``unicodedata.east_asian_width`` W or F),
a combining mark none, so ``f"{name:<16}"`` slips after a 3-character name: the command
line's tables (``cli/layout.py``) pad by :func:`width`. Times stored as UTC ISO 8601 with
microseconds are shown with :func:`when` (the command line, the pages), a round's clock
with :func:`duration` (the desk)."""

from __future__ import annotations

import unicodedata
from datetime import datetime


def wide(text: str) -> bool:
    """Whether ``text`` holds a wide (中文, full-width) character: such text is wrapped
    by width and where no space is."""
    return not text.isascii() and any(unicodedata.east_asian_width(c) in "WF" for c in text)


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
