"""Standings and player statements, read from the current version of every hand (ranking
itself is pure, in :mod:`.ranking`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from referee_app.core.errors import Message

from . import csv_io
from . import db as dbm
from .checks import PlayerRef, lookup_int
from .models import (
    Penalty,
    PlayerStatement,
    StandingRow,
    StatementLine,
)
from .penalties import Penalties
from .players import Players
from .ranking import compute
from .store import Store
from .stored_words import StoredReason, today_if_stored


def penalty_lines(name: str, penalties: Iterable[Penalty]) -> list[StatementLine]:
    """A player's statement lines for their penalties: the payer's own, or their share of a
    zero-sum penalty on others (void ones at 0 chips, marked void)."""
    lines = []
    for pen in penalties:
        c = 0 if pen.void else pen.entries.get(name, 0)
        share = "" if name in pen.players else Message.of("line_share",
                                                          players=list(pen.players))
        said = (Message.of("line_penalty_clause", clause=pen.clause, id=pen.id, share=share,
                           reason=pen.reason) if pen.clause else
                Message.of("line_penalty", id=pen.id, share=share, reason=pen.reason))
        lines.append(StatementLine(pen.round, None, None, None, None, c, (said,),
                                   ("void",) if pen.void else ("penalty",)))
    return lines


def hand_detail(seat: str, settlement: Mapping[str, Any], override: str | None,
                settled: Callable[[], Any] | None = None) -> tuple[Message, ...]:
    """A hand's lines on a player's statement: each payment to or from ``seat`` with its
    clause and reason, then the head referee's ruling. ``settled`` gives today's settlement
    when it is the stored one (``core.settle.as_stored``), asked only when a line is said
    in another language than the stored English: its reasons are data."""
    pays = [p for p in settlement.get("payments", []) if seat in (p["from"], p["to"])]

    @functools.cache
    def fresh() -> Sequence[Any] | None:
        s = settled() if settled is not None else None
        return None if s is None else [p for p in s.payments if seat in (p.payer, p.payee)]

    lines = tuple(
        Message.of("line_paid_by" if p["to"] == seat else "line_paid_to", clause=p["clause"],
                   chips=p["chips"], seat=p["from"] if p["to"] == seat else p["to"],
                   reason=StoredReason(p["reason"], fresh, i))
        for i, p in enumerate(pays))
    if override is not None:
        lines += (Message.of("line_override", reason=override),)
    return lines


class Standings:
    """``t.standings``: the leaderboard and player statements, recomputed on every call."""

    def __init__(self, store: Store, players: Players, penalties: Penalties) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        self.penalties = penalties
        self._fresh: dict[tuple[str, str, str], Any] = {}

    def table(self, round: int | None = None, *, through_round: int | None = None,
                  include_substitutes: bool = False) -> list[StandingRow]:
        """The leaderboard, recomputed now from the current version of every hand.

        ``round``: that round only; ``through_round``: rounds 1..N; neither: everything.
        Ranked by the tournament's tie-break order; players still tied share a rank. When
        the tournament counts only verified hands (``info.verified_only``), a hand not yet
        verified adds nothing until it is (:meth:`unverified` says how many wait).
        """
        for value, field in ((round, "round"), (through_round, "through_round")):
            if value is not None:
                lookup_int(value, field)
        with dbm.read_transaction(self.db):
            players = self.players.list()
            hand_rows = self.db.execute(
                "SELECT hs.player_id, h.round, SUM(hs.chips), SUM(hs.counted), SUM(hs.won), "
                "SUM(hs.self_drawn), SUM(hs.discards_paid), SUM(hs.flower_pig), MAX(hs.win_fan) "
                "FROM hands h JOIN hand_seats hs ON hs.hand_id=h.id AND "
                "hs.version=h.current_version "
                + ("WHERE h.status='verified' " if self.store.info.verified_only else "")
                + "GROUP BY hs.player_id, h.round").fetchall()
            pen_rows = self.db.execute(
                "SELECT e.player_id, p.round, SUM(e.chips) FROM penalty_entries e JOIN penalties p "
                "ON p.id=e.penalty_id LEFT JOIN penalty_voids v ON v.penalty_id=p.id "
                "WHERE v.penalty_id IS NULL GROUP BY e.player_id, p.round").fetchall()
            tie_break = self.store.info.tie_break
        return compute(players, hand_rows, pen_rows, tie_break, round=round,
                       through_round=through_round, include_substitutes=include_substitutes)

    def seat_rows(self) -> dict[int, tuple[str, list[tuple[int, ...]]]]:
        """Each hand's status and its seats' standings figures as stored with its current
        version: (player_id, round, chips, counted, won, self_drawn, discards_paid,
        flower_pig, win_fan) — what :meth:`table` adds up, without reading records."""
        out: dict[int, tuple[str, list[tuple[int, ...]]]] = {}
        for hid, status, *row in self.db.execute(
                "SELECT h.id, h.status, hs.player_id, h.round, hs.chips, hs.counted, hs.won, "
                "hs.self_drawn, hs.discards_paid, hs.flower_pig, hs.win_fan FROM hands h JOIN "
                "hand_seats hs ON hs.hand_id=h.id AND hs.version=h.current_version "
                "ORDER BY h.id, hs.seat").fetchall():
            out.setdefault(hid, (status, []))[1].append(tuple(row))
        return out

    def unverified(self, round: int | None = None, *,
                         through_round: int | None = None) -> int:
        """How many hands (not void) in the scope of :meth:`table` are not verified yet:
        while any are and the tournament counts only verified hands, standings are
        provisional."""
        conds, params = ["status='entered'"], []
        for value, field, op in ((round, "round", "="), (through_round, "through_round", "<=")):
            if value is not None:
                conds.append(f"round{op}?")
                params.append(lookup_int(value, field))
        return int(self.db.execute(f"SELECT COUNT(*) FROM hands WHERE {' AND '.join(conds)}",
                                   params).fetchone()[0])

    def provisional(self, round: int | None = None, *, through_round: int | None = None
                    ) -> int:
        """Hands standings in this scope are waiting for: the unverified ones when only
        verified hands count, else 0 (the standings are as good as the hands)."""
        if not self.store.info.verified_only:
            return 0
        return self.unverified(round, through_round=through_round)

    def statement(self, player: PlayerRef) -> PlayerStatement:
        """Every hand and penalty of one player, each hand with its payments and clauses."""
        p = self.players.get(player)
        rows = self.db.execute(
            "SELECT h.id, h.round, h.table_no, h.hand_no, hs.seat, hs.chips, h.status, "
            "v.settlement, v.override_reason, v.record, v.settings FROM hand_seats hs "
            "JOIN hands h ON h.id=hs.hand_id AND hs.version=h.current_version "
            "JOIN hand_versions v ON v.hand_id=h.id AND v.version=h.current_version "
            "WHERE hs.player_id=? ORDER BY h.round, h.table_no, h.hand_no",
            (p.id,)).fetchall()
        lines = []
        total = 0
        for hid, rnd, tbl, hno, seat, chips, status, sjson, override, rjson, settings in rows:
            st = json.loads(sjson)
            detail = hand_detail(seat, st, override, self._settled(rjson, sjson, settings))
            flags = tuple(f for f, on in (("void", status == "void"),
                                          ("override", override is not None)) if on)
            lines.append(StatementLine(rnd, tbl, hno, hid, seat, chips, detail, flags))
            total += chips
        pen_lines = penalty_lines(p.name, self.penalties.list(player=p.id))
        lines.extend(pen_lines)
        return PlayerStatement(p, tuple(lines), total + sum(x.chips for x in pen_lines))

    def _settled(self, rjson: str, sjson: str, settings: str) -> Callable[[], Any]:
        """Today's settlement of a stored version when it is the stored one (see
        :func:`hand_detail`), under the settings it was saved with; kept per version (a
        desk reads the same statements again on every selection)."""
        key = (rjson, sjson, settings)

        def settled() -> Any:
            if key not in self._fresh:
                if len(self._fresh) > 4096:
                    self._fresh.clear()
                try:
                    rules = self.store.rules_for(json.loads(settings or "{}") or
                                                 self.store.settings())
                except (ValueError, KeyError):  # settings this file cannot rebuild
                    rules = None
                self._fresh[key] = None if rules is None else today_if_stored(
                    json.loads(rjson), json.loads(sjson), rules)()
            return self._fresh[key]
        return settled

    def export_csv(self, path: str | Path, *, round: int | None = None,
                   through_round: int | None = None) -> Path:
        """The standings (as :meth:`table`) written as a spreadsheet, atomically."""
        return csv_io.write_standings(path, self.table(round, through_round=through_round))
