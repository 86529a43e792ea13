"""Standings and player statements, read from the current version of every hand (ranking
itself is pure, in :mod:`.ranking`)."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from referee_app.core.errors import Message
from referee_app.core.scores import POINT_UNIT

from . import changes, csv_io, stage_board
from . import db as dbm
from .checks import PlayerRef, lookup_int
from .leaderboard import HandRow, Leaderboards
from .models import (
    Penalty,
    PlayerStatement,
    Stage,
    StandingRow,
    StatementLine,
    TeamRow,
)
from .penalties import Penalties
from .players import Players
from .store import Store
from .stored_words import StoredReason, today_if_stored


def penalty_lines(name: str, penalties: Iterable[Penalty]) -> list[StatementLine]:
    """A player's statement lines for their penalties: the payer's own, or their share of a
    zero-sum penalty on others (void ones at 0 chips, marked void). A penalty in placement
    points moves no chips: its line is at 0 chips and says the points."""
    lines = []
    for pen in penalties:
        n = pen.entries.get(name, 0)
        c = 0 if pen.void or pen.unit == "points" else n
        share: Message | str = "" if name in pen.players else Message.of(
            "line_share", players=list(pen.players))
        if pen.unit == "points":  # the points it moved, before whose share it is
            share = Message.of("line_points", points=f"{n:+d}", share=share)
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


#: statement lines' words kept at most (each holds its version's record: ~40 MB at most)
KEEP_DETAILS = 10_000

_SUMS = ("SELECT hs.player_id, h.round, SUM(hs.chips), SUM(hs.counted), SUM(hs.won), "
         "SUM(hs.self_drawn), SUM(hs.discards_paid), SUM(hs.flower_pig), MAX(hs.win_fan), "
         "h.table_no FROM hands h JOIN hand_seats hs ON hs.hand_id=h.id AND "
         "hs.version=h.current_version ")


class Standings:
    """``t.standings``: the leaderboard and player statements, always as the hands stand now.

    The sums per player and round are kept between calls and, after a save, added up again
    only for the players it touched (``changes.py`` says which), so a leaderboard after one
    more hand costs four players' sums and a ranking, not every hand again. Under placement
    scoring the one table the save touched is placed again (``placement.py``); an event with
    stages puts its stages' leaderboards together (``stage_board.py``)."""

    def __init__(self, store: Store, players: Players, penalties: Penalties) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        self.penalties = penalties
        self._fresh: dict[tuple[str, str, str], Any] = {}
        #: each statement line's words by (hand, version, seat): a stored version never
        #: changes, so a statement after a save reads only the new version's record
        self._details: dict[tuple[int, int, str], tuple[Message, ...]] = {}
        self._kept: Leaderboards | None = None

    def table(self, round: int | None = None, *, through_round: int | None = None,
              include_substitutes: bool = False, stage: int | str | None = None
              ) -> list[StandingRow]:
        """The leaderboard, as the current version of every hand stands now.

        ``round``: that round only; ``through_round``: rounds 1..N; neither: everything.
        Ranked by the points under placement scoring (``info.scoring``), then the
        tournament's tie-break order; players still tied share a rank. When the tournament
        counts only verified hands (``info.verified_only``), a hand not yet verified adds
        nothing until it is (:meth:`unverified` says how many wait). In an event with
        stages (``t.stages``) the players of the stage in play rank first, those each cut
        left out below them (``stage_board.compose``); ``stage`` (a number or name): that
        stage's own leaderboard alone, after ``through_round`` or its last round.
        """
        for value, field in ((round, "round"), (through_round, "through_round")):
            if value is not None:
                lookup_int(value, field)
        with dbm.read_transaction(self.db):
            kept = self._current()
            if kept is None:  # during a save on this connection: read it all, keep nothing
                kept = self._read_all(-1)
            return kept.table(round, through_round, include_substitutes, stage)

    def stages(self) -> list[Stage]:
        """The event's stages (stage 1 alone until the first cut), as kept."""
        with dbm.read_transaction(self.db):
            kept = self._current()
            return list(kept.stages if kept is not None else stage_board.read(self.db.conn))

    def _hand_rows(self, verified_only: bool, players: Iterable[int] | None = None
                   ) -> list[HandRow]:
        conds = ["h.status='verified'"] if verified_only else []
        params: list[int] = []
        if players is not None:
            params = list(players)
            conds.append(f"hs.player_id IN ({','.join('?' * len(params))})")
        where = f"WHERE {' AND '.join(conds)} " if conds else ""
        return self.db.execute(_SUMS + where + "GROUP BY hs.player_id, h.round, h.table_no",
                               params).fetchall()

    def _pen_rows(self) -> list[tuple[Any, ...]]:
        """(player, round, chips, points in units) of every penalty that counts."""
        return [(pid, rnd, chips, pts * POINT_UNIT) for pid, rnd, chips, pts in self.db.execute(
            "SELECT e.player_id, p.round, SUM(CASE WHEN p.unit='points' THEN 0 ELSE e.chips "
            "END), SUM(CASE WHEN p.unit='points' THEN e.chips ELSE 0 END) FROM "
            "penalty_entries e JOIN penalties p ON p.id=e.penalty_id LEFT JOIN penalty_voids v "
            "ON v.penalty_id=p.id WHERE v.penalty_id IS NULL GROUP BY e.player_id, p.round")]

    def _read_all(self, now: int) -> Leaderboards:
        """Every input read afresh (at revision ``now``)."""
        kept = Leaderboards(now, self.players.list(), self.store.info,
                            stage_board.read(self.db.conn))
        for row in self._hand_rows(kept.verified_only):
            kept.hands.setdefault(row[0], []).append(row)
        for row in self._pen_rows():
            kept.pens.setdefault(row[0], []).append(row)
        return kept.placed()

    def _current(self) -> Leaderboards | None:
        """The kept inputs brought up to the revision now (inside a read transaction):
        read whole after a change of the structure (players, settings, stages), else only
        the players whose hands or penalties a save touched (and, under placement scoring,
        their tablemates). None during a save."""
        if self.store.writing:
            return None
        conn = self.db.conn
        now = changes.head(conn)
        kept = self._kept
        if kept is not None and kept.seen == now:
            return kept
        c = changes.since(conn, kept.seen, now) if kept is not None else None
        if kept is None or c is None or c.touches(changes.STRUCTURE):
            self._kept = kept = self._read_all(now)
            return kept
        touched = changes.players_of(conn, c)
        if c.touches(changes.PENALTY_TABLES):
            pens: dict[int, list[tuple[Any, ...]]] = {}
            for row in self._pen_rows():
                pens.setdefault(row[0], []).append(row)
            kept.pens = pens
        if touched:
            ids = sorted(touched)
            for pid in ids:
                kept.hands.pop(pid, None)
            for i in range(0, len(ids), 500):
                for row in self._hand_rows(kept.verified_only, ids[i:i + 500]):
                    kept.hands.setdefault(row[0], []).append(row)
            kept.bring_forward(ids)
        kept.seen = now
        return kept

    def teams(self, round: int | None = None, *, through_round: int | None = None,
              stage: int | str | None = None) -> list[TeamRow]:
        """The team standings: each team's members' rows of :meth:`table` (same scope)
        added up and ranked (:mod:`.team_standings`); [] when nobody is in a team."""
        from .team_standings import team_table

        with dbm.read_transaction(self.db):
            rows = self.table(round, through_round=through_round, stage=stage)
            teams = {p.id: p.team for p in self.players.list() if p.team}
            tie_break = self.store.info.tie_break
        return team_table(rows, teams, tie_break)

    def export_teams_csv(self, path: str | Path, *, round: int | None = None,
                         through_round: int | None = None,
                         stage: int | str | None = None) -> Path:
        """The team standings (as :meth:`teams`) written as a spreadsheet, atomically."""
        return csv_io.write_team_standings(path, self.teams(round, through_round=through_round,
                                                            stage=stage))

    def seat_rows(self) -> dict[int, tuple[str, list[tuple[int, ...]]]]:
        """Each hand's status and its seats' standings figures as stored with its current
        version: (player_id, round, chips, counted, won, self_drawn, discards_paid,
        flower_pig, win_fan, table) — what :meth:`table` adds up, without reading records."""
        out: dict[int, tuple[str, list[tuple[int, ...]]]] = {}
        for hid, status, *row in self.db.execute(
                "SELECT h.id, h.status, hs.player_id, h.round, hs.chips, hs.counted, hs.won, "
                "hs.self_drawn, hs.discards_paid, hs.flower_pig, hs.win_fan, h.table_no "
                "FROM hands h JOIN "
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
            "v.settlement, v.override_reason, v.record, v.settings, v.version FROM hand_seats hs "
            "JOIN hands h ON h.id=hs.hand_id AND hs.version=h.current_version "
            "JOIN hand_versions v ON v.hand_id=h.id AND v.version=h.current_version "
            "WHERE hs.player_id=? ORDER BY h.round, h.table_no, h.hand_no",
            (p.id,)).fetchall()
        lines = []
        total = 0
        for (hid, rnd, tbl, hno, seat, chips, status, sjson, override, rjson, settings,
             version) in rows:
            detail = self._details.get((hid, version, seat))
            if detail is None:
                if len(self._details) > KEEP_DETAILS:
                    self._details.clear()
                detail = self._details[hid, version, seat] = hand_detail(
                    seat, json.loads(sjson), override, self._settled(rjson, sjson, settings))
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
                   through_round: int | None = None, stage: int | str | None = None) -> Path:
        """The standings (as :meth:`table`) written as a spreadsheet, atomically."""
        return csv_io.write_standings(path, self.table(round, through_round=through_round,
                                                       stage=stage))
