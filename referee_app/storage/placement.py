"""Placement points per table (pure): which players sat at each table of each round, by the
hands that count there, and the points their places give (:func:`.scoring.table_points`).

A table's players are those with a counted (not void) hand there in that round — a table
with no counted hand yet gives no points; a bye gives none either. Their places are by
the chips those hands gave them (penalties never move a place: a penalty in points is
what costs placement). While a table is still playing its placement is as its hands stand
now (provisional, like everything in the standings); with only verified hands counting,
as its verified hands stand.

Kept incrementally by ``Standings``: a save touches one table in one round, so only that
table's placement is made again (:class:`Placements`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from referee_app.core.scores import table_units, units

#: (round, table)
TableKey = tuple[int, int]


def tables_of(hand_rows: Iterable[Sequence[Any]]) -> dict[TableKey, dict[int, int]]:
    """Each table's players and the chips they won there, from hand rows ``(player_id,
    round, chips, counted, ..., table)`` (the table last; per hand or already summed)."""
    out: dict[TableKey, dict[int, int]] = {}
    counted: set[tuple[TableKey, int]] = set()
    for row in hand_rows:
        pid, rnd, chips, n, table = row[0], row[1], row[2], row[3], row[-1]
        key = (rnd, table)
        t = out.setdefault(key, {})
        t[pid] = t.get(pid, 0) + (chips or 0)
        if n:
            counted.add((key, pid))
    return {key: {pid: c for pid, c in t.items() if (key, pid) in counted}
            for key, t in out.items() if any((key, pid) in counted for pid in t)}


def point_rows(tables: Mapping[TableKey, Mapping[int, int]], points: Sequence[Fraction]
               ) -> list[tuple[int, int, int]]:
    """``(player_id, round, points in units)`` for every player of every table."""
    values = [units(p) for p in points]
    return [(pid, rnd, v) for (rnd, _), chips in tables.items()
            for pid, v in table_units(chips, values).items()]


class Placements:
    """Every table's players and their points, kept between saves: :meth:`refresh` makes
    again only the tables whose players' chips there changed."""

    def __init__(self, points: Sequence[Fraction], hand_rows: Iterable[Sequence[Any]]) -> None:
        self.points = tuple(units(p) for p in points)
        self.tables = tables_of(hand_rows)
        #: each player's points at each table they played: pid -> {(round, table): units}
        self.of: dict[int, dict[TableKey, int]] = {}
        for key, chips in self.tables.items():
            self._place(key, chips)

    def _place(self, key: TableKey, chips: Mapping[int, int]) -> None:
        for pid, v in table_units(chips, self.points).items():
            self.of.setdefault(pid, {})[key] = v

    def rows(self, pids: Iterable[int] | None = None) -> list[tuple[int, int, int]]:
        """Point rows (as :func:`point_rows`) of these players (default: everyone)."""
        who = self.of if pids is None else {p: self.of[p] for p in pids if p in self.of}
        return [(pid, rnd, u) for pid, tables in who.items()
                for (rnd, _), u in tables.items()]

    def refresh(self, touched: Iterable[int], rows_of: Mapping[int, Iterable[Sequence[Any]]]
                ) -> set[int]:
        """After the hand rows of the ``touched`` players changed (``rows_of``: every
        player's rows now): place again the tables where their chips or their presence
        changed — the one table a save wrote, not every table they ever sat at. Returns
        every player whose points may have changed (those tables' players, before and
        after, and the touched players themselves)."""
        touched = set(touched)
        new = tables_of(r for pid in touched for r in rows_of.get(pid, ()))
        keys = {k for pid in touched for k in self.of.get(pid, ())} | set(new)
        moved = set(touched)
        for key in keys:
            old = self.tables.get(key, {})
            if all(old.get(pid) == new.get(key, {}).get(pid) for pid in touched):
                continue  # the touched players' chips there are as they were
            old = self.tables.pop(key, {})
            # the table's other players' rows did not change: their chips there stand
            chips = {pid: c for pid, c in old.items() if pid not in touched}
            chips.update(new.get(key, {}))
            for pid in old:
                self.of.get(pid, {}).pop(key, None)
            moved |= set(old) | set(chips)
            if chips:
                self.tables[key] = chips
                self._place(key, chips)
        for pid in moved:
            if not self.of.get(pid, True):
                del self.of[pid]
        return moved
