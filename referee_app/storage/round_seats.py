"""The seats of rounds as stored: reading a round's seating and writing a whole round,
shared by drawing rounds one at a time (:mod:`.rounds`) and planning them all
(:mod:`.planning`)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from referee_app.core.teams import team_pairs

from . import changes, stage_board
from . import db as dbm
from . import seating as seating_mod
from .checks import MAX_TABLE_NO, lookup_int
from .errors import SeatingError
from .models import PlayerStatus, SeatAssignment, Seating
from .players import Players
from .store import Store


class RoundSeats:
    """Stored rounds: a round's seating, who met whom before, and saving a whole round."""

    def __init__(self, store: Store, players: Players) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        #: the seatings read so far and each round's repeat pairs, as at revision ``_seen``
        #: (-1: nothing kept): a hand saved changes neither, so they are read again only
        #: when a save wrote seats, byes, rounds, players or settings (``changes.py``) —
        #: or, while a player is absent, a hand of that round (it may end or bring back
        #: the marking of its seated absent players)
        self._seen = -1
        self._seatings: dict[int, Seating] = {}
        self._repeats: dict[int, int] | None = None
        self._tables: dict[int, tuple[Seating, int]] = {}

    def _kept(self) -> bool:
        """Whether what is kept still holds (forgotten if not); never trusted during a save
        on this connection, whose rows are not in the chain yet."""
        if self.store.writing:
            return False
        conn = self.db.conn
        now = changes.head(conn)
        if now != self._seen:
            c = changes.since(conn, self._seen, now) if self._seen >= 0 else None
            if c is None or c.touches(changes.STRUCTURE):
                self._seatings.clear()
                self._repeats = None
            elif c.touches(changes.HAND_TABLES) and self._seatings and self.db.execute(
                    "SELECT 1 FROM players WHERE status=? LIMIT 1",
                    (PlayerStatus.ABSENT.value,)).fetchone():
                # a round's first hand ends the marking of its seated absent players, and
                # voiding its last live hand brings it back
                for rnd, _ in changes.tables_of(conn, c):
                    self._seatings.pop(rnd, None)
            self._seen = now
        return True

    def seating(self, number: int) -> Seating:
        """A round's seating (empty when the round is not seated); kept between calls until
        a save changes the seating, the players or the settings."""
        number = lookup_int(number, "round")
        if not self._kept():
            return self._read(number, self.repeat_pairs_before(number))
        s = self._seatings.get(number)
        if s is None:
            if self._repeats is None:
                self._repeats = self._all_repeats()
            s = self._seatings[number] = self._read(number, self._repeats.get(number, 0))
        return s

    def tables(self, number: int) -> int:
        """How many tables round ``number`` has (kept with its seating)."""
        s = self.seating(number)
        hit = self._tables.get(number)
        if hit is None or hit[0] is not s:
            hit = self._tables[number] = (s, len({a.table for a in s.assignments}))
        return hit[1]

    def _read(self, number: int, repeats: int) -> Seating:
        rows = self.db.execute(
            "SELECT s.table_no, s.seat, s.player_id, p.name, p.team, p.status FROM seats s "
            "JOIN players p ON p.id=s.player_id WHERE s.round=?", (number,)).fetchall()
        seats = self.store.seats()
        order = {s: i for i, s in enumerate(seats)}
        rows.sort(key=lambda r: (r[0], order.get(r[1], 99)))
        assignments = tuple(SeatAssignment(number, r[0], r[1], r[2], r[3]) for r in rows)
        byes = tuple(r[0] for r in self.db.execute(
            "SELECT p.name FROM byes b JOIN players p ON p.id=b.player_id WHERE b.round=? "
            "ORDER BY p.id", (number,)).fetchall())
        tables: dict[int, list[int]] = defaultdict(list)
        for a in assignments:
            tables[a.table].append(a.player_id)
        teams = {r[2]: r[4] for r in rows if r[4]}
        return Seating(number, seats, assignments, byes, repeats,
                       team_pairs(tables.values(), teams), self._absent(number, rows, byes))

    def repeat_pairs_before(self, number: int) -> int:
        """How many pairs at round ``number``'s tables met in an earlier round (read now)."""
        met, _ = self.met_before(number)
        tables: dict[int, list[int]] = defaultdict(list)
        for tbl, pid in self.db.execute("SELECT table_no, player_id FROM seats WHERE round=?",
                                        (number,)):
            tables[tbl].append(pid)
        return seating_mod.repeat_pairs(list(tables.values()), met)

    def _all_repeats(self) -> dict[int, int]:
        """Every round's repeat pairs in one pass over the seats, round by round: the
        meetings before round n are those before round n-1 and round n-1's own."""
        by_round: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
        for rnd, tbl, pid in self.db.execute("SELECT round, table_no, player_id FROM seats"):
            by_round[rnd][tbl].append(pid)
        met: Counter[tuple[int, int]] = Counter()
        out: dict[int, int] = {}
        for rnd in sorted(by_round):
            tables = list(by_round[rnd].values())
            out[rnd] = seating_mod.repeat_pairs(tables, met)
            seating_mod.meet(met, tables)
        return out

    def _absent(self, number: int, rows: Sequence[Sequence[Any]], byes: Sequence[str]
                ) -> tuple[str, ...]:
        """Who is absent for round ``number`` as it stands: the players absent now who are
        not seated (nor on a bye) in it, and, while no hand of it counts, the seated ones
        (their seats are to be refilled: ``round reseat``). By player id."""
        absent = {pid: name for pid, name in self.db.execute(
            "SELECT id, name FROM players WHERE status=?", (PlayerStatus.ABSENT.value,))}
        if not absent:
            return ()
        seated = {r[2] for r in rows}
        live = bool(seated & set(absent)) and self.has_live_hands(number)
        return tuple(name for pid, name in sorted(absent.items())
                     if name not in byes and (pid not in seated or not live))

    def met_before(self, before_round: int) -> tuple[Counter[tuple[int, int]],
                                                      dict[int, Counter[str]]]:
        rows = self.db.execute("SELECT round, table_no, seat, player_id FROM seats WHERE round<?",
                               (before_round,)).fetchall()
        tables: dict[tuple[int, int], list[int]] = defaultdict(list)
        seat_counts: dict[int, Counter[str]] = defaultdict(Counter)
        for rnd, tbl, seat, pid in rows:
            tables[(rnd, tbl)].append(pid)
            seat_counts[pid][seat] += 1
        met: Counter[tuple[int, int]] = Counter()
        seating_mod.meet(met, list(tables.values()))
        return met, seat_counts

    def write(self, number: int, rows: list[tuple[int, str, int]], bye_ids: list[int],
                     *, seed: int | None, referee: str, replace_existing: bool, action: str,
                     detail: dict[str, Any]) -> Seating:
        """Save a round's seats and byes in one transaction (replacing it when allowed).
        Tables are numbered 1..999: a field of more players is refused, never saved."""
        tables = max((t for t, _, _ in rows), default=0)
        if tables > MAX_TABLE_NO:
            raise SeatingError.of("players", "too_many_tables", tables=tables,
                                  max=MAX_TABLE_NO)
        referee = self.store.authorize(referee, action="seating a round")
        at = dbm.now()
        with self.store.write():
            exists = self.check_free(number, replace_existing)
            if exists:
                self.clear(number)
            self.insert(number, seed, at, referee, rows, bye_ids)
            self.store.note(referee, action, {"round": number, **detail, "replaced": bool(exists)},
                      at)
        self.store.saved()
        return self.seating(number)

    def clear(self, number: int) -> None:
        """Inside a save: remove round ``number``, its seats and byes (in that order)."""
        self.db["seats"].delete_where("round=?", [number])
        self.db["byes"].delete_where("round=?", [number])
        self.db["rounds"].delete_where("number=?", [number])

    def insert(self, number: int, seed: int | None, at: str, referee: str,
               rows: Sequence[tuple[int, str, int]], bye_ids: Sequence[int]) -> None:
        """Inside a save: write round ``number``, its seats (table, seat, player id) and
        byes, in that order (each table's rows as written into the chain entry)."""
        self.db["rounds"].insert({"number": number, "seed": seed, "created_at": at,
                                  "created_by": referee})
        self.db["seats"].insert_all({"round": number, "table_no": t, "seat": s,
                                     "player_id": pid} for t, s, pid in rows)
        self.db["byes"].insert_all({"round": number, "player_id": b} for b in bye_ids)

    def has_live_hands(self, number: int, table: int | None = None) -> bool:
        """Hands that still count (not void) fix the seats they were played in."""
        q = "SELECT 1 FROM hands WHERE round=? AND status<>'void'"
        params: list[Any] = [number]
        if table is not None:
            q += " AND table_no=?"
            params.append(table)
        return self.db.execute(q, params).fetchone() is not None

    def check_free(self, number: int, replace_existing: bool) -> bool:
        """Inside the write transaction: is the round seated (and may it be replaced)?"""
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError.of("round", "round_seated", round=number)
        return exists is not None

    def check_seatable(self, pid: int, field: str, number: int | None = None) -> None:
        """A player may be seated (in round ``number``: one of its stage's players)."""
        p = self.players.get(pid)
        if p.status is PlayerStatus.WITHDRAWN:
            raise SeatingError.of(field, "player_withdrawn", name=p.name)
        if p.status is PlayerStatus.ABSENT:
            raise SeatingError.of(field, "player_absent", name=p.name)
        if number is not None:
            allowed = self.stage_players(number)
            if allowed is not None and pid not in allowed:
                raise SeatingError.of(field, "player_not_in_stage", name=p.name, round=number)

    def stage_players(self, number: int) -> set[int] | None:
        """The players who play round ``number``: those its stage's cut chose (None: stage
        1, everyone)."""
        st = stage_board.stage_of(stage_board.read(self.db.conn), number)
        return set(st.players) if st.number > 1 else None

    def teams(self) -> dict[int, str]:
        """Each player's team (player id → team name), for players in one."""
        return {pid: team for pid, team in self.db.execute(
            "SELECT id, team FROM players WHERE team<>''")}
