"""Ranking (pure): aggregate rows in, ranked :class:`StandingRow` out.

Kept apart from SQL so the tie-break and shared-rank rules can be tested directly.
A tie-break key is a StandingRow field; ``-key`` means fewer is better. Players equal on
every key share a rank (1, 2, 2, 4 — standard competition ranking).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from .models import Player, PlayerStatus, StandingRow


class _Acc:
    """One player's running totals while the rows are read (a plain class: defined at every
    start-up, where a dataclass would compile three methods nobody calls)."""

    __slots__ = ("hand_chips", "hands", "wins", "self_drawn", "discards_paid", "flower_pigs",
                 "largest_win_fan", "penalties", "per_round")

    def __init__(self) -> None:
        self.hand_chips = self.hands = self.wins = self.self_drawn = 0
        self.discards_paid = self.flower_pigs = self.largest_win_fan = self.penalties = 0
        self.per_round: dict[int, int] = {}


def _in_scope(rnd: int | None, round: int | None, through: int | None) -> bool:
    if round is not None:
        return rnd == round
    if through is not None:
        return rnd is not None and rnd <= through
    return True


def sort_key(values: dict[str, Any], tie_break: Sequence[str]) -> tuple[int, ...]:
    out = []
    for key in tie_break:
        if key.startswith("-"):
            out.append(values[key[1:]])
        else:
            out.append(-values[key])
    return tuple(out)


def compute(players: Iterable[Player], hand_rows: Iterable[Sequence[Any]],
            pen_rows: Iterable[Sequence[Any]], tie_break: Sequence[str], *,
            round: int | None = None, through_round: int | None = None,
            include_substitutes: bool = False) -> list[StandingRow]:
    """``hand_rows``: (player_id, round, chips, hands, wins, self_drawn, discards_paid,
    flower_pigs, max_fan); ``pen_rows``: (player_id, round or None, chips)."""
    acc: dict[int, _Acc] = defaultdict(_Acc)
    for pid, rnd, chips, hands, wins, sd, dp, fp, mf in hand_rows:
        if not _in_scope(rnd, round, through_round):
            continue
        a = acc[pid]
        a.hand_chips += chips or 0
        a.hands += hands or 0
        a.wins += wins or 0
        a.self_drawn += sd or 0
        a.discards_paid += dp or 0
        a.flower_pigs += fp or 0
        a.largest_win_fan = max(a.largest_win_fan, mf or 0)
        a.per_round[rnd] = a.per_round.get(rnd, 0) + (chips or 0)
    for pid, rnd, chips in pen_rows:
        if rnd is None and (round is not None or through_round is not None):
            continue  # a penalty outside any round counts in the overall standings only
        if not _in_scope(rnd, round, through_round):
            continue
        a = acc[pid]
        a.penalties += chips
        if rnd is not None:
            a.per_round[rnd] = a.per_round.get(rnd, 0) + chips
    rows = []
    for p in players:
        if p.status is PlayerStatus.SUBSTITUTE and not include_substitutes:
            continue
        a = acc.get(p.id, _Acc())
        rows.append(dict(player_id=p.id, player=p.name, club=p.club, status=p.status,
                         chips=a.hand_chips + a.penalties, hand_chips=a.hand_chips,
                         hands=a.hands, wins=a.wins, self_drawn=a.self_drawn,
                         discards_paid=a.discards_paid, flower_pigs=a.flower_pigs,
                         largest_win_fan=a.largest_win_fan, penalties=a.penalties,
                         per_round=dict(sorted(a.per_round.items()))))
    return rank(rows, tie_break)


def rank(rows: list[dict[str, Any]], tie_break: Sequence[str]) -> list[StandingRow]:
    """Each player's figures (a :class:`StandingRow`'s fields but rank and tied) sorted by
    the tie-break order, then by name; players equal on every key share a rank."""
    rows.sort(key=lambda r: (sort_key(r, tie_break), r["player"]))
    out: list[StandingRow] = []
    prev_key: tuple[int, ...] | None = None
    rank = 0
    keys = [sort_key(r, tie_break) for r in rows]
    for i, r in enumerate(rows):
        if keys[i] != prev_key:
            rank = i + 1
            prev_key = keys[i]
        tied = (i > 0 and keys[i - 1] == keys[i]) or (i + 1 < len(rows) and keys[i + 1] == keys[i])
        out.append(StandingRow(rank=rank, tied=tied, **r))
    return out


_FIGURES = tuple(f for f in StandingRow.__dataclass_fields__ if f not in ("rank", "tied"))


def replace_players(table: Sequence[StandingRow], fresh: Sequence[StandingRow],
                    tie_break: Sequence[str]) -> list[StandingRow]:
    """``table`` with the rows of ``fresh``'s players replaced by them and everyone ranked
    again: the table :func:`compute` gives when only those players' figures changed."""
    by_id = {r.player_id: r for r in fresh}
    return rank([{f: getattr(by_id.get(r.player_id, r), f) for f in _FIGURES}
                 for r in table], tie_break)
