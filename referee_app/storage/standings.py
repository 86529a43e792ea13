"""Standings and player statements, read from the current version of every hand (ranking
itself is pure, in :mod:`.ranking`)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from . import csv_io
from . import db as dbm
from .checks import PlayerRef, lookup_int
from .models import (
    Penalty,
    Player,
    PlayerStatement,
    StandingRow,
    StatementLine,
)
from .penalties import Penalties
from .players import Players
from .ranking import compute, replace_players
from .store import Store


def penalty_lines(name: str, penalties: Iterable[Penalty]) -> list[StatementLine]:
    """A player's statement lines for their penalties: the payer's own, or their share of a
    zero-sum penalty on others (void ones at 0 chips, marked void)."""
    lines = []
    for pen in penalties:
        c = 0 if pen.void else pen.entries.get(name, 0)
        who = ("" if name in pen.players
               else f"share of a zero-sum penalty on {', '.join(pen.players)}: ")
        lines.append(StatementLine(pen.round, None, None, None, None, c,
                                   (f"{pen.clause + ' ' if pen.clause else ''}penalty "
                                    f"#{pen.id}: {who}{pen.reason}",),
                                   ("void",) if pen.void else ("penalty",)))
    return lines

class Standings:
    """``t.standings``: the leaderboard and player statements, recomputed on every call."""

    def __init__(self, store: Store, players: Players, penalties: Penalties) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        self.penalties = penalties

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
            players, hand_rows, pen_rows = self._figures(None)
            tie_break = self.store.info.tie_break
        return compute(players, hand_rows, pen_rows, tie_break, round=round,
                       through_round=through_round, include_substitutes=include_substitutes)

    def updated(self, table: Sequence[StandingRow], player_ids: Iterable[int],
                round: int | None = None, *, through_round: int | None = None,
                include_substitutes: bool = False) -> list[StandingRow]:
        """``table`` (a :meth:`table` of the same scope) after saves that changed only the
        hands or penalties of ``player_ids``: their figures read again, everyone ranked
        again — what :meth:`table` now gives, read from those players' hands only (a desk
        refreshing after a save at one table of a 1,000-player event)."""
        ids = sorted(set(player_ids))
        with dbm.read_transaction(self.db):
            players, hand_rows, pen_rows = self._figures(ids)
            tie_break = self.store.info.tie_break
        fresh = compute(players, hand_rows, pen_rows, tie_break, round=round,
                        through_round=through_round, include_substitutes=include_substitutes)
        return replace_players(table, fresh, tie_break)

    def _figures(self, ids: Sequence[int] | None
                 ) -> tuple[list[Player], list[Any], list[Any]]:
        """The players (``ids``; None: all) and their hand and penalty figures by round."""
        where, params = "", list(ids or ())
        if ids is not None:
            where = f" AND hs.player_id IN ({','.join('?' * len(ids))})"
            players = [self.players.get(i) for i in ids]
        else:
            players = self.players.list()
        hand_rows = self.db.execute(
            "SELECT hs.player_id, h.round, SUM(hs.chips), SUM(hs.counted), SUM(hs.won), "
            "SUM(hs.self_drawn), SUM(hs.discards_paid), SUM(hs.flower_pig), MAX(hs.win_fan) "
            "FROM hands h JOIN hand_seats hs ON hs.hand_id=h.id AND "
            "hs.version=h.current_version WHERE 1"
            + (" AND h.status='verified'" if self.store.info.verified_only else "")
            + where + " GROUP BY hs.player_id, h.round", params).fetchall()
        pen_rows = self.db.execute(
            "SELECT e.player_id, p.round, SUM(e.chips) FROM penalty_entries e JOIN penalties p "
            "ON p.id=e.penalty_id LEFT JOIN penalty_voids v ON v.penalty_id=p.id "
            "WHERE v.penalty_id IS NULL" + where.replace("hs.", "e.")
            + " GROUP BY e.player_id, p.round", params).fetchall()
        return players, hand_rows, pen_rows

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
            "v.settlement, v.override_reason FROM hand_seats hs JOIN hands h ON h.id=hs.hand_id "
            "AND hs.version=h.current_version JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version WHERE hs.player_id=? ORDER BY h.round, h.table_no, "
            "h.hand_no", (p.id,)).fetchall()
        lines = []
        total = 0
        for hid, rnd, tbl, hno, seat, chips, status, sjson, override in rows:
            st = json.loads(sjson)
            detail = tuple(
                f"{pay['clause']} {'+' if pay['to'] == seat else '-'}{pay['chips']} "
                f"{'from ' + pay['from'] if pay['to'] == seat else 'to ' + pay['to']}: "
                f"{pay['reason']}"
                for pay in st.get("payments", []) if seat in (pay["from"], pay["to"]))
            flags = tuple(f for f, on in (("void", status == "void"),
                                          ("override", override is not None)) if on)
            if override is not None:
                detail += (f"override: {override}",)
            lines.append(StatementLine(rnd, tbl, hno, hid, seat, chips, detail, flags))
            total += chips
        pen_lines = penalty_lines(p.name, self.penalties.list(player=p.id))
        lines.extend(pen_lines)
        return PlayerStatement(p, tuple(lines), total + sum(x.chips for x in pen_lines))

    def export_csv(self, path: str | Path, *, round: int | None = None,
                   through_round: int | None = None) -> Path:
        """The standings (as :meth:`table`) written as a spreadsheet, atomically."""
        return csv_io.write_standings(path, self.table(round, through_round=through_round))
