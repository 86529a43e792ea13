"""Ranking (pure): aggregate rows in, ranked :class:`StandingRow` out.

Kept apart from SQL so the tie-break and shared-rank rules can be tested directly.
A tie-break key is a StandingRow field; ``-key`` means fewer is better. Players equal on
every key share a rank (1, 2, 2, 4 — standard competition ranking). Under placement
scoring the points (比赛分) rank first, then the tie-break order (:func:`order_of`).
"""

from __future__ import annotations

import bisect
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from referee_app.core.scores import Number, from_units

from .models import Player, PlayerStatus, StandingRow


class _Acc:
    """One player's running totals while the rows are read (a plain class: defined at every
    start-up, where a dataclass would compile three methods nobody calls). Points are in
    whole units (``scoring.POINT_UNIT``); ``carried_*`` is what a stage carried in."""

    __slots__ = ("hand_chips", "hands", "wins", "self_drawn", "discards_paid", "flower_pigs",
                 "largest_win_fan", "penalties", "per_round", "points", "point_penalties",
                 "per_round_points", "carried_chips", "carried_points")

    def __init__(self) -> None:
        self.hand_chips = self.hands = self.wins = self.self_drawn = 0
        self.discards_paid = self.flower_pigs = self.largest_win_fan = self.penalties = 0
        self.per_round: dict[int, int] = {}
        self.points = self.point_penalties = 0
        self.per_round_points: dict[int, int] = {}
        self.carried_chips: Number = 0
        self.carried_points: Number = 0


def _in_scope(rnd: int | None, round: int | None, through: int | None,
              first: int | None = None) -> bool:
    if round is not None:
        return rnd == round
    if rnd is None:
        return through is None  # outside any round: the open-ended scopes only
    return (through is None or rnd <= through) and (first is None or rnd >= first)


def order_of(tie_break: Sequence[str], placement: bool) -> tuple[str, ...]:
    """The keys that rank: the tie-break order, after the points under placement scoring."""
    return ("points", *tie_break) if placement else tuple(tie_break)


def compute(players: Iterable[Player], hand_rows: Iterable[Sequence[Any]],
            pen_rows: Iterable[Sequence[Any]], tie_break: Sequence[str], *,
            round: int | None = None, through_round: int | None = None,
            include_substitutes: bool = False, point_rows: Iterable[Sequence[Any]] = (),
            placement: bool = False) -> list[StandingRow]:
    """``hand_rows``: (player_id, round, chips, hands, wins, self_drawn, discards_paid,
    flower_pigs, max_fan[, table]); ``pen_rows``: (player_id, round or None, chips[,
    points units]); ``point_rows``: (player_id, round, points units) — each table's
    placement points (:mod:`.placement`), under placement scoring."""
    return rank(players, totals(hand_rows, pen_rows, point_rows, round=round,
                                through_round=through_round),
                order_of(tie_break, placement), include_substitutes=include_substitutes,
                placement=placement)


def totals(hand_rows: Iterable[Sequence[Any]], pen_rows: Iterable[Sequence[Any]],
           point_rows: Iterable[Sequence[Any]] = (), *, round: int | None = None,
           through_round: int | None = None, first_round: int | None = None
           ) -> dict[int, _Acc]:
    """Each player's running totals in the scope (rows as :func:`compute`'s): round N alone,
    rounds 1..N (``through_round``), from ``first_round`` on, or everything. A penalty
    outside any round counts only in the open-ended scopes (overall, or a last stage). A
    player's totals depend on their own rows only (their points on their tables' rows): a
    cache adds up again just the players a save touched (``Standings``)."""
    acc: dict[int, _Acc] = defaultdict(_Acc)
    for pid, rnd, chips, hands, wins, sd, dp, fp, mf, *_ in hand_rows:
        if not _in_scope(rnd, round, through_round, first_round):
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
    for pid, rnd, pts in point_rows:
        if not _in_scope(rnd, round, through_round, first_round):
            continue
        a = acc[pid]
        a.points += pts
        a.per_round_points[rnd] = a.per_round_points.get(rnd, 0) + pts
    for pid, rnd, chips, *more in pen_rows:
        if not _in_scope(rnd, round, through_round, first_round):
            continue
        a = acc[pid]
        pts = more[0] if more else 0
        a.penalties += chips or 0
        a.point_penalties += pts or 0
        if rnd is not None:
            if chips:
                a.per_round[rnd] = a.per_round.get(rnd, 0) + chips
            if pts:
                a.per_round_points[rnd] = a.per_round_points.get(rnd, 0) + pts
    return dict(acc)


def chips_of(a: _Acc) -> Number:
    """The chips a player's totals add up to (hands, penalties, carried)."""
    return a.hand_chips + a.penalties + a.carried_chips


def points_of(a: _Acc) -> Number:
    """The points (in units) a player's totals add up to (tables, penalties, carried)."""
    return a.points + a.point_penalties + a.carried_points


def carried(before: _Acc | None, since: _Acc | None, factor: Fraction) -> _Acc:
    """A stage's totals of one player: ``factor`` of the score they had when it began
    (the chips, and the points under placement scoring) carried in, plus everything since
    (the other figures count the stage's rounds alone)."""
    out = _Acc()
    if since is not None:
        for k in _Acc.__slots__:
            setattr(out, k, getattr(since, k))
    if before is not None:
        out.carried_chips = _whole(chips_of(before) * factor)
        out.carried_points = _whole(points_of(before) * factor)
    return out


def _whole(value: Number) -> Number:
    """A Fraction that is whole as an int (sorting and adding ints is quicker)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return int(value)
    return value


def _value(a: _Acc, key: str) -> Number:
    """A ranking figure of a player's totals (a StandingRow field of the same name)."""
    if key == "chips":
        return chips_of(a)
    if key == "points":
        return points_of(a)
    return int(getattr(a, key))


#: the totals of a player with no hand and no penalty (shared: never changed)
_NONE = _Acc()


def rank(players: Iterable[Player], acc: Mapping[int, _Acc], order: Sequence[str], *,
         include_substitutes: bool = False, placement: bool = False) -> list[StandingRow]:
    """The leaderboard of ``players`` from their totals (:func:`totals`), ranked by
    ``order`` (:func:`order_of`)."""
    return Ranking(players, acc, order, include_substitutes=include_substitutes,
                   placement=placement).rows()


class Ranking:
    """One leaderboard kept between saves (``Standings`` keeps one per scope): after a save,
    :meth:`update` moves only the players whose totals changed (out of their place and in
    at their new one, by bisection) and makes rows again only where a rank or a tie may have
    changed — from the highest to the lowest place touched; every other row is the same
    object as before. ``acc`` is read again at each update (the caller changes it).

    ``placement``: rows carry their points; ``stage``: the stage the rows' scores are of
    (0: the event has none), ``carry``: whether they carried a score into it."""

    def __init__(self, players: Iterable[Player], acc: Mapping[int, _Acc],
                 order: Sequence[str], *, include_substitutes: bool = False,
                 placement: bool = False, stage: int = 0, carry: bool = False) -> None:
        self.acc = acc
        self.placement = placement
        self.stage = stage
        self.carry = carry
        self.order = [(k[1:], 1) if k.startswith("-") else (k, -1) for k in order]
        self.players = {p.id: p for p in players
                        if include_substitutes or p.status is not PlayerStatus.SUBSTITUTE}
        #: each player's place entry: (sort key, name, id) — names are unique
        self.entry = {pid: (self._key(pid), p.name, pid) for pid, p in self.players.items()}
        #: the entries in leaderboard order, and the row at each place
        self.places = sorted(self.entry.values())
        self._rows: list[StandingRow | None] = [None] * len(self.places)
        self._made: dict[int, tuple[_Acc, StandingRow]] = {}
        self._remake(0, len(self.places) - 1)

    def _key(self, pid: int) -> tuple[Number, ...]:
        a = self.acc.get(pid, _NONE)
        return tuple(sign * _value(a, k) for k, sign in self.order)

    def rows(self) -> list[StandingRow]:
        return list(self._rows)  # type: ignore[arg-type]

    def update(self, changed: Iterable[int]) -> list[StandingRow]:
        """The leaderboard after the totals of the ``changed`` players changed."""
        moved = sorted(pid for pid in set(changed) if pid in self.players)
        places = self.places
        touched = [bisect.bisect_left(places, self.entry[pid]) for pid in moved]
        for i in sorted(touched, reverse=True):  # out of their places...
            del places[i]
            del self._rows[i]
        for pid in moved:  # ...and in at their new ones
            self.entry[pid] = e = (self._key(pid), self.players[pid].name, pid)
            i = bisect.bisect_left(places, e)
            places.insert(i, e)
            self._rows.insert(i, None)
        touched += [bisect.bisect_left(places, self.entry[pid]) for pid in moved]
        if touched:
            self._remake(min(touched), max(touched))
        return self.rows()

    def _remake(self, lo: int, hi: int) -> None:
        """The rows of places lo..hi, with their neighbours (whose ties depend on them) and
        the whole tie groups at both ends (whose ranks do); a row whose rank, tie and
        totals are as before stays the same object. Places outside keep their rows: the
        players moved all sit between ``lo`` and ``hi``, before and after."""
        places, n = self.places, len(self.places)
        if n == 0:
            return
        lo, hi = max(0, lo - 1), min(n - 1, hi + 1)
        while lo > 0 and places[lo - 1][0] == places[lo][0]:
            lo -= 1
        while hi < n - 1 and places[hi + 1][0] == places[hi][0]:
            hi += 1
        rnk = lo + 1
        for pos in range(lo, hi + 1):
            key, _, pid = places[pos]
            if pos > lo and places[pos - 1][0] != key:
                rnk = pos + 1
            tied = (pos > 0 and places[pos - 1][0] == key) or (pos + 1 < n
                                                                and places[pos + 1][0] == key)
            a = self.acc.get(pid, _NONE)
            made = self._made.get(pid)
            if made is not None and made[0] is a and made[1].rank == rnk \
                    and made[1].tied == tied:
                row = made[1]
            else:
                row = self._row(self.players[pid], a, rnk, tied)
                self._made[pid] = (a, row)
            self._rows[pos] = row

    def _row(self, p: Player, a: _Acc, rnk: int, tied: bool) -> StandingRow:
        points: Number | None = None
        per_round_points: dict[int, Number] = {}
        carried: Number | None = None
        if self.placement:
            points = from_units(points_of(a))
            per_round_points = {k: from_units(v) for k, v in sorted(a.per_round_points.items())}
        if self.carry:
            carried = from_units(a.carried_points) if self.placement else a.carried_chips
        return StandingRow(rnk, p.id, p.name, p.club, p.status, chips_of(a), a.hand_chips,
                           a.hands, a.wins, a.self_drawn, a.discards_paid, a.flower_pigs,
                           a.largest_win_fan, a.penalties, dict(sorted(a.per_round.items())),
                           tied, points, from_units(a.point_penalties),
                           per_round_points, self.stage, carried)
