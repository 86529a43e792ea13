"""Go-to and find-player for the navigator (Ctrl+G, Ctrl+F): pure functions over what the
desk already read, so they are tested without a window.

``4 1 9`` is round 4, table 1, hand 9; ``4 1`` the table, ``4`` the round. Any non-digit
separates numbers (``4-1-9``, ``4/1/9``, ``4.1.9`` all work).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


class GoToError(ValueError):
    """What was typed cannot be a place in this tournament (message id + values)."""

    def __init__(self, msg_id: str, **values: object) -> None:
        super().__init__(msg_id)
        self.msg_id = msg_id
        self.values = values


@dataclass(frozen=True)
class Target:
    """Where a go-to lands: a navigator key, or a new hand of a table."""

    key: tuple
    new_hand: bool = False


def parse_goto(text: str) -> tuple[int, ...]:
    """``"4 1 9"`` → ``(4, 1, 9)``; 1 to 3 whole numbers, else :class:`GoToError`."""
    nums = tuple(int(n) for n in re.findall(r"\d+", text))
    if not 1 <= len(nums) <= 3:
        raise GoToError("goto_format")
    return nums


def resolve_goto(text: str, rounds: Sequence[int], tables: dict[int, Iterable[int]],
                 hands: Sequence[Any], next_hand_no: Any) -> Target:
    """The navigator node for ``text``. ``hands`` are HandInfo values; ``next_hand_no(r, t)``
    gives the table's next hand number: going to it opens a new hand form."""
    nums = parse_goto(text)
    r = nums[0]
    if r not in rounds:
        raise GoToError("goto_no_round", n=r)
    if len(nums) == 1:
        return Target(("round", r))
    t = nums[1]
    if t not in set(tables.get(r, ())):
        raise GoToError("goto_no_table", round=r, table=t)
    if len(nums) == 2:
        return Target(("table", r, t))
    n = nums[2]
    for h in hands:
        if h.round == r and h.table == t and h.hand_no == n:
            return Target(("hand", h.id))
    if n == next_hand_no(r, t):
        return Target(("table", r, t), new_hand=True)
    raise GoToError("goto_no_hand", round=r, table=t, hand=n)


def _fold(text: str) -> str:
    """Case- and accent-free text for matching Latin names (``Lǐ Wěi`` ~ ``li wei``)."""
    nfkd = unicodedata.normalize("NFKD", text)
    return "".join(c for c in nfkd if not unicodedata.combining(c)).casefold().replace(" ", "")


@functools.lru_cache(maxsize=4096)
def _pinyin(name: str) -> tuple[str, str]:
    """A Chinese name as typed on a Latin keyboard: its pinyin run together, and the
    initials (李伟 → ``liwei``, ``lw``); ("", "") for a name without Chinese characters.
    pypinyin is imported at the first search, not at launch."""
    if not any("\u4e00" <= c <= "\u9fff" for c in name):
        return "", ""
    from pypinyin import Style, lazy_pinyin

    syllables = [s for s in lazy_pinyin(name, style=Style.NORMAL, errors="ignore") if s]
    return "".join(syllables), "".join(s[0] for s in syllables)


def find_players(query: str, players: Sequence[Any]) -> list[Any]:
    """Players whose name or Latin name contains ``query`` (exact name first), or whose
    Chinese name's pinyin or initials start with it (``liw``, ``lw`` find 李伟)."""
    q = _fold(query)
    if not q:
        return []
    exact = [p for p in players if _fold(p.name) == q or _fold(p.name_latin) == q]
    rest = [p for p in players if p not in exact
            and (q in _fold(p.name) or q in _fold(p.name_latin))]
    sounds = [p for p in players if p not in exact and p not in rest and q.isascii()
              and any(form.startswith(q) for form in _pinyin(p.name) if form)]
    return exact + rest + sounds
