"""Ranking (pure): aggregate rows in, ranked :class:`StandingRow` out.

Kept apart from SQL so the tie-break and shared-rank rules can be tested directly.
A tie-break key is a StandingRow field; ``-key`` means fewer is better. Players equal on
every key share a rank (1, 2, 2, 4 — standard competition ranking).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, MutableMapping, Sequence
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


def compute(players: Iterable[Player], hand_rows: Iterable[Sequence[Any]],
            pen_rows: Iterable[Sequence[Any]], tie_break: Sequence[str], *,
            round: int | None = None, through_round: int | None = None,
            include_substitutes: bool = False) -> list[StandingRow]:
    """``hand_rows``: (player_id, round, chips, hands, wins, self_drawn, discards_paid,
    flower_pigs, max_fan); ``pen_rows``: (player_id, round or None, chips)."""
    return rank(players, totals(hand_rows, pen_rows, round=round, through_round=through_round),
                tie_break, include_substitutes=include_substitutes)


def totals(hand_rows: Iterable[Sequence[Any]], pen_rows: Iterable[Sequence[Any]], *,
           round: int | None = None, through_round: int | None = None) -> dict[int, _Acc]:
    """Each player's running totals in the scope (rows as :func:`compute`'s). A player's
    totals depend on their own rows only: a cache adds up again just the players a save
    touched (``Standings``)."""
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
    return dict(acc)


def _value(a: _Acc, key: str) -> int:
    """A tie-break figure of a player's totals (a StandingRow field of the same name)."""
    return a.hand_chips + a.penalties if key == "chips" else int(getattr(a, key))


#: the totals of a player with no hand and no penalty (shared: never changed)
_NONE = _Acc()

#: what :func:`rank` remembers of a player's row to hand out the same row again:
#: (the player, their totals, their sort key, the row)
Kept = tuple[Player, _Acc, tuple[int, ...], StandingRow]


def rank(players: Iterable[Player], acc: Mapping[int, _Acc], tie_break: Sequence[str], *,
         include_substitutes: bool = False,
         kept: MutableMapping[int, Kept] | None = None) -> list[StandingRow]:
    """The leaderboard of ``players`` from their totals (:func:`totals`), ranked.

    ``kept`` (filled by the call): the rows of the last ranking of the same scope; a
    player with the same totals object, rank and tie as then gets the very same row
    again, so a leaderboard after one more hand makes new rows only for those who moved."""
    order = [(k[1:], 1) if k.startswith("-") else (k, -1) for k in tie_break]
    before = kept or {}
    entries = []
    for p in players:
        if p.status is PlayerStatus.SUBSTITUTE and not include_substitutes:
            continue
        a = acc.get(p.id, _NONE)
        old = before.get(p.id)
        if old is not None and old[0] is p and old[1] is a:
            key = old[2]
        else:
            key = tuple(sign * _value(a, k) for k, sign in order)
        entries.append((key, p.name, p, a))
    entries.sort(key=lambda e: (e[0], e[1]))
    out: list[StandingRow] = []
    now: dict[int, Kept] = {}
    n = len(entries)
    rnk = 0
    for pos, (key, _, p, a) in enumerate(entries):
        if pos == 0 or entries[pos - 1][0] != key:
            rnk = pos + 1
        tied = (pos > 0 and entries[pos - 1][0] == key) or (pos + 1 < n
                                                            and entries[pos + 1][0] == key)
        old = before.get(p.id)
        if old is not None and old[0] is p and old[1] is a and old[3].rank == rnk \
                and old[3].tied == tied:
            row = old[3]
        else:
            row = StandingRow(rnk, p.id, p.name, p.club, p.status, a.hand_chips + a.penalties,
                              a.hand_chips, a.hands, a.wins, a.self_drawn, a.discards_paid,
                              a.flower_pigs, a.largest_win_fan, a.penalties,
                              dict(sorted(a.per_round.items())), tied)
        out.append(row)
        now[p.id] = (p, a, key, row)
    if kept is not None:
        kept.clear()
        kept.update(now)
    return out
