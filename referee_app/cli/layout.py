"""Text tables for a terminal: columns aligned by display width (a 中文 character takes two
columns), so a table lines up in either language."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from referee_app.core.display import width as text_width  # 中文 two columns, marks none


def pad(text: str, width: int) -> str:
    """Left-align allowing for double-width Chinese characters (terminal columns)."""
    return text + " " * max(0, width - text_width(text))


def rpad(text: str, width: int) -> str:
    """Right-align allowing for double-width Chinese characters."""
    return " " * max(0, width - text_width(text)) + text


def table(header: Sequence[str], rows: Sequence[Sequence[Any]], align: str,
          minimum: Sequence[int] = (), indent: str = "", gap: str = "  ") -> list[str]:
    """The lines of a table: ``header`` then ``rows``, column ``i`` left- (``l``) or
    right-aligned (``r``) as ``align[i]`` says, each as wide as its widest cell (at least
    ``minimum[i]``); the last column is not padded."""
    cells = [[str(c) for c in header], *[[str(c) for c in r] for r in rows]]
    n = len(header)
    widths = [max([text_width(r[i]) for r in cells] + [minimum[i] if i < len(minimum) else 0])
              for i in range(n)]
    out = []
    for r in cells:
        parts = []
        for i, c in enumerate(r):
            last = i == n - 1
            if align[i] == "r":
                parts.append(rpad(c, widths[i]))
            else:
                parts.append(c if last else pad(c, widths[i]))
        out.append((indent + gap.join(parts)).rstrip())
    return out


__all__ = ["pad", "rpad", "table", "text_width"]
