"""Correction impact: what amending a saved hand would change — each seat's total and every
player whose rank moves — worked out before anything is written.

The standings are ranked again (``leaderboard.Leaderboards``, as the store ranks them:
placement points and stages included) from the current hands' stored per-seat figures
(``Tournament.standings.seat_rows``) with the one hand replaced; the amended hand's figures
are derived from its record and settlement the same way the store derives them when it
saves (wins, self-drawn, discards paid, flower pigs, fan).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from referee_app.core import HandRecord, RuleViolation, settle
from referee_app.core.scores import POINT_UNIT, Number, figure, json_number

from .errors import StorageError
from .leaderboard import Leaderboards
from .tournament import Tournament

#: (player_id, round, chips, counted, won, self_drawn, discards_paid, flower_pig, fan, table)
SeatRow = tuple[int, int, int, int, int, int, int, int, int, int]


@dataclass(frozen=True)
class RankChange:
    """A player whose rank an amendment moves; ``chips_*`` is the score that ranks (the
    placement points under placement scoring)."""

    player: str
    rank_before: int
    rank_after: int
    chips_before: Number
    chips_after: Number

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "rank_before": self.rank_before,
                "rank_after": self.rank_after, "chips_before": json_number(self.chips_before),
                "chips_after": json_number(self.chips_after)}


@dataclass(frozen=True)
class AmendImpact:
    hand_id: int
    version_from: int
    version_to: int
    players: dict[str, str]  # seat -> player
    totals_before: dict[str, int]
    totals_after: dict[str, int] | None  # None: the new record breaks the rules
    rank_changes: tuple[RankChange, ...] = field(default_factory=tuple)
    errors: tuple[str, ...] = ()  # the engine's errors when the new record breaks the rules
    #: the same as data (clause, seat, code, params), to show in any language; empty when
    #: the record cannot be read at all (``errors`` then says why)
    violations: tuple[RuleViolation, ...] = ()

    @property
    def seat_changes(self) -> dict[str, int]:
        after = self.totals_after or {}
        return {s: after.get(s, 0) - self.totals_before.get(s, 0) for s in self.players}

    def to_dict(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "version_from": self.version_from,
                "version_to": self.version_to, "players": dict(self.players),
                "totals_before": dict(self.totals_before),
                "totals_after": None if self.totals_after is None else dict(self.totals_after),
                "seat_changes": self.seat_changes,
                "rank_changes": [r.to_dict() for r in self.rank_changes],
                "errors": list(self.errors)}

    def lines(self) -> list[str]:
        """The summary in plain English (the CLI prints it; the GUI words its own)."""
        out = [f"amending hand {self.hand_id}: v{self.version_from} -> v{self.version_to}"]
        if self.totals_after is None:
            out.append("the new record breaks the rules: " + "; ".join(self.errors))
            return out
        out.append("totals: " + ", ".join(
            f"{s} {self.totals_before.get(s, 0):+d} -> {self.totals_after.get(s, 0):+d}"
            f" ({d:+d})" for s, d in self.seat_changes.items()))
        if self.rank_changes:
            out += [f"rank: {r.player} {r.rank_before} -> {r.rank_after} "
                    f"({figure(r.chips_before, signed=True)} -> "
                    f"{figure(r.chips_after, signed=True)})" for r in self.rank_changes]
        else:
            out.append("rank: no player's rank changes")
        return out


def seat_rows(record: Mapping[str, Any], settlement: Mapping[str, Any],
              totals: Mapping[str, int], ids: Mapping[str, int], round_no: int,
              counted: bool, table: int = 0) -> list[SeatRow]:
    """(player_id, round, chips, counted, won, self_drawn, discards_paid, flower_pig, fan,
    table) of each seat of one hand, as the store counts them in the standings."""
    wins = {w["seat"]: w for w in settlement.get("wins", [])}
    claimed: dict[str, Mapping[str, Any]] = {}
    discards: Counter[str] = Counter()
    for ev in record.get("events", []):
        if ev.get("type") == "win":
            for seat in ev.get("seats", []):
                claimed.setdefault(seat, ev)
            if ev.get("from"):
                discards[ev["from"]] += 1
    end = settlement.get("end_check") or {}
    pigs = set(end.get("flower_pigs", [])) if end.get("applies") else set()
    ok = bool(settlement.get("ok"))
    out = []
    for seat, pid in ids.items():
        if not counted:
            out.append((pid, round_no, 0, 0, 0, 0, 0, 0, 0, table))
            continue
        w = wins.get(seat)
        ev = claimed.get(seat)
        won = 1 if (w is not None or (not ok and ev is not None)) else 0
        self_drawn = 1 if won and ev is not None and not ev.get("from") else 0
        out.append((pid, round_no, int(totals.get(seat, 0)), 1, won, self_drawn,
                    discards[seat], 1 if seat in pigs else 0, int(w["fan"]) if w else 0,
                    table))
    return out


class ImpactModel:
    """The tournament's standings inputs read once; :meth:`impact` then tries amendments
    of one hand cheaply (the GUI asks on every keystroke while a hand is being amended)."""

    def __init__(self, t: Tournament) -> None:
        self.t = t
        self.rules = t.rules()
        self.players = t.players.list()
        self.ids = {p.name: p.id for p in self.players}
        self.info = t.info
        self.stages = t.standings.stages()
        self.hands: dict[int, Any] = {}  # HandInfo, read when a hand is amended
        stored = getattr(t.standings, "seat_rows", None)  # a remote tournament has none
        if stored is not None:  # the figures as saved: no record is read (2,000 hands: ms)
            by_hand = stored()
            self.rows: dict[int, list[SeatRow]] = {
                hid: [tuple(r) for r in rows] for hid, (_, rows) in by_hand.items()}
            status = {hid: st for hid, (st, _) in by_hand.items()}
        else:
            self.hands = {h.id: h for h in t.hands.list()}
            self.rows = {hid: self._rows(h.record, h.settlement, h.totals, h) for hid, h in
                         self.hands.items()}
            status = {hid: h.status.value for hid, h in self.hands.items()}
        #: the hands the standings count (only verified ones when the tournament says so)
        self.verified_only = t.info.verified_only
        self.counted = {hid for hid, st in status.items()
                        if not self.verified_only or st == "verified"}
        self.pen_rows = [(self.ids[name], pen.round, 0, chips * POINT_UNIT)
                         if pen.unit == "points" else (self.ids[name], pen.round, chips, 0)
                         for pen in t.penalties.list() if not pen.void
                         for name, chips in pen.entries.items() if name in self.ids]
        self._before = self._standings(self.rows)

    def _rows(self, record: Mapping[str, Any], settlement: Mapping[str, Any],
              totals: Mapping[str, int], h: Any) -> list[SeatRow]:
        ids = {s: self.ids[p] for s, p in h.players.items() if p in self.ids}
        return seat_rows(record, settlement, totals, ids, h.round, not h.void, h.table)

    def _standings(self, rows: Mapping[int, list[SeatRow]], counted: set[int] | None = None
                   ) -> dict[str, tuple[int, Any]]:
        """Each player's rank and score (points under placement scoring, else chips)."""
        counted = self.counted if counted is None else counted
        boards = Leaderboards(-1, self.players, self.info, self.stages)
        for hid, rs in rows.items():
            if hid in counted:
                for r in rs:
                    boards.hands.setdefault(r[0], []).append(r)
        for r in self.pen_rows:
            boards.pens.setdefault(r[0], []).append(r)
        return {r.player: (r.rank, r.score) for r in boards.placed().table()}

    def impact(self, hand_id: int, record: Mapping[str, Any]) -> AmendImpact:
        h = self.hands.get(hand_id)
        if h is None and hand_id in self.rows:
            h = self.hands[hand_id] = self.t.hands.get(hand_id)
        if h is None:
            raise StorageError.of("hand", "unknown_hand", hand_id=hand_id)
        try:
            rec = HandRecord.from_dict(dict(record))
        except ValueError as e:
            return AmendImpact(hand_id, h.version, h.version + 1, dict(h.players),
                               dict(h.totals), None, (), (str(e),))
        s = settle(rec, self.rules)
        if not s.ok:
            errors = tuple(f"{v.clause} {v.message}" for v in s.errors)
            return AmendImpact(hand_id, h.version, h.version + 1, dict(h.players),
                               dict(h.totals), None, (), errors, s.errors)
        after_totals = {seat: (0 if h.void else int(v)) for seat, v in s.totals.items()}
        rows = dict(self.rows)
        rows[hand_id] = self._rows(record, s.to_dict(), after_totals, h)
        # saved, the amendment is "entered": with only verified hands counting, it waits
        after = self._standings(rows, self.counted - {hand_id} if self.verified_only else None)
        changes = tuple(
            RankChange(name, self._before[name][0], after[name][0], self._before[name][1],
                       after[name][1])
            for name in after if name in self._before and after[name][0] !=
            self._before[name][0])
        changes = tuple(sorted(changes, key=lambda c: c.rank_after))
        return AmendImpact(hand_id, h.version, h.version + 1, dict(h.players),
                           dict(h.totals), after_totals, changes)


def amend_impact(t: Tournament, hand_id: int, record: Mapping[str, Any]) -> AmendImpact:
    """What ``t.hands.amend(hand_id, record, ...)`` would change; writes nothing."""
    return ImpactModel(t).impact(hand_id, record)
