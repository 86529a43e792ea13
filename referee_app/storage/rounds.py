"""Rounds and seating: drawing a round, seat changes, and the checks on a seating."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from . import db as dbm
from . import seating as seating_mod
from .base import PlayerRef, TournamentBase, _lookup_int, _positive_int
from .errors import (
    SeatingError,
)
from .models import (
    Player,
    PlayerStatus,
    RoundInfo,
    SeatAssignment,
    Seating,
)


class RoundsMixin(TournamentBase):
    def rounds(self) -> list[RoundInfo]:
        out = []
        for (n,) in self.db.execute("SELECT number FROM rounds ORDER BY number").fetchall():
            s = self.seating(n)
            hands = self.db.execute("SELECT COUNT(*) FROM hands WHERE round=?", (n,)).fetchone()[0]
            out.append(RoundInfo(n, len(s.tables), len(s.assignments), s.byes, hands))
        return out

    def _met_before(self, before_round: int) -> tuple[Counter[tuple[int, int]],
                                                      dict[int, Counter[str]]]:
        rows = self.db.execute("SELECT round, table_no, seat, player_id FROM seats WHERE round<?",
                               (before_round,)).fetchall()
        tables: dict[tuple[int, int], list[int]] = defaultdict(list)
        seat_counts: dict[int, Counter[str]] = defaultdict(Counter)
        for rnd, tbl, seat, pid in rows:
            tables[(rnd, tbl)].append(pid)
            seat_counts[pid][seat] += 1
        met: Counter[tuple[int, int]] = Counter()
        for ps in tables.values():
            for i, a in enumerate(ps):
                for b in ps[i + 1:]:
                    met[seating_mod.pair(a, b)] += 1
        return met, seat_counts

    def seat_round(self, number: int, *, seed: int | None = None, fill: str | None = None,
                   referee: str = "", replace_existing: bool = False,
                   use_plan: bool = True) -> Seating:
        """Generate and save round ``number``'s seating.

        When a stored whole-event plan (``round plan``) covers the round it is used
        instead of a new search, with as few seats changed as possible for withdrawals and
        arrivals since (:meth:`seat_from_plan`; ``use_plan=False`` searches anew).
        Otherwise round 1 is a seeded shuffle; later rounds minimise repeat opponents, then
        balance seats. When the seatable players do not fill whole tables, ``fill``
        decides: ``"byes"`` (the players with the fewest byes so far sit out) or
        ``"substitutes"`` (players registered with status substitute fill the empty seats).
        """
        number = _positive_int(number, "round")
        if use_plan and number in self.stored_plan():
            return self.seat_from_plan(number, fill=fill, referee=referee,
                                       replace_existing=replace_existing)[1]
        if seed is not None:
            seed = _lookup_int(seed, "seed")
        seats = self._seats()
        size = len(seats)
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError("round", f"round {number} is already seated (edit seats, or "
                               "re-seat with replace_existing / --replace)")
        if exists and self._has_live_hands(number):
            raise SeatingError("round", f"round {number} already has hands entered; "
                               "it cannot be re-seated (edit single seats instead)")
        if number > 1 and not self.db.execute("SELECT 1 FROM rounds WHERE number=?",
                                              (number - 1,)).fetchone():
            raise SeatingError("round", f"round {number - 1} is not seated yet")
        seatable = [p for p in self.players()
                    if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE)]
        subs = [p for p in self.players() if p.status is PlayerStatus.SUBSTITUTE]
        if not seatable:
            raise SeatingError("players", "no active players registered")
        import random  # here, not at the top: hand add and standings never seat a round

        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        rng = random.Random(seed)
        byes: list[Player] = []
        extra = len(seatable) % size
        if extra:
            missing = size - extra
            if fill is None:
                raise SeatingError(
                    "players",
                    f"{len(seatable)} active players do not fill tables of {size}: choose "
                    f"byes ({extra} player(s) sit out this round; fill='byes', "
                    f"CLI --fill byes) or substitutes ({missing} substitute(s) needed, "
                    f"{len(subs)} registered; fill='substitutes', CLI --fill substitutes)")
            if fill == "byes":
                counts = Counter(pid for (pid,) in self.db.execute(
                    "SELECT player_id FROM byes").fetchall())
                order = sorted(seatable, key=lambda p: (counts[p.id], rng.random()))
                byes = order[:extra]
                seatable = [p for p in seatable if p not in byes]
            elif fill == "substitutes":
                if len(subs) < missing:
                    raise SeatingError("fill", f"{missing} substitute(s) needed, only "
                                       f"{len(subs)} registered with status substitute")
                seatable = seatable + subs[:missing]
            else:
                raise SeatingError("fill", f"unknown option {fill!r} (byes or substitutes)")
        met, seat_counts = self._met_before(number)
        tables = seating_mod.generate([p.id for p in seatable], seats, seed=seed, met=met,
                                      seat_counts=seat_counts)
        rows = [(t, s, pid) for t, ps in enumerate(tables, start=1)
                for s, pid in zip(seats, ps, strict=True)]
        return self._write_round(number, rows, [p.id for p in byes], seed=seed,
                                 referee=referee, replace_existing=replace_existing,
                                 action="round.seat", detail={"seed": seed, "fill": fill})

    def set_seating(self, number: int, tables: Mapping[int, Mapping[str, PlayerRef]], *,
                    byes: Sequence[PlayerRef] = (), referee: str = "",
                    replace_existing: bool = False) -> Seating:
        """Save a manual seating for a whole round (validated: no empty seat, nobody twice,
        no withdrawn player)."""
        number = _positive_int(number, "round")
        seats = self._seats()
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError("round", f"round {number} is already seated")
        if exists and self._has_live_hands(number):
            raise SeatingError("round", f"round {number} already has hands entered")
        rows: list[tuple[int, str, int]] = []
        where: dict[int, str] = {}
        for t in sorted(tables):
            _positive_int(t, "table")
            row = tables[t]
            for s in row:
                if s not in seats:
                    raise SeatingError(f"table {t}.{s}", f"unknown seat (seats are "
                                       f"{', '.join(seats)})")
            for s in seats:
                if row.get(s) in (None, ""):
                    raise SeatingError(f"table {t}.{s}", "seat is empty")
                pid = self._player_id(row[s], f"table {t}.{s}")
                self._check_seatable(pid, f"table {t}.{s}")
                if pid in where:
                    raise SeatingError(f"table {t}.{s}", f"{self.player(pid).name} is already "
                                       f"seated at {where[pid]}")
                where[pid] = f"table {t} {s}"
                rows.append((t, s, pid))
        bye_ids = [self._player_id(b, "byes") for b in byes]
        for b in bye_ids:
            if b in where:
                raise SeatingError("byes", f"{self.player(b).name} is seated at {where[b]}")
        return self._write_round(number, rows, bye_ids, seed=None, referee=referee,
                                 replace_existing=replace_existing,
                                 action="round.set_seating", detail={})

    def _write_round(self, number: int, rows: list[tuple[int, str, int]], bye_ids: list[int],
                     *, seed: int | None, referee: str, replace_existing: bool, action: str,
                     detail: dict[str, Any]) -> Seating:
        """Save a round's seats and byes in one transaction (replacing it when allowed)."""
        referee = self._authorize(referee, action="seating a round")
        at = dbm.now()
        with self._write():
            exists = self._check_round_free(number, replace_existing)
            if exists:
                self.db.execute("DELETE FROM seats WHERE round=?", (number,))
                self.db.execute("DELETE FROM byes WHERE round=?", (number,))
                self.db.execute("DELETE FROM rounds WHERE number=?", (number,))
            self.db.execute("INSERT INTO rounds(number, seed, created_at, created_by) "
                            "VALUES (?,?,?,?)", (number, seed, at, referee))
            for t, s, pid in rows:
                self.db.execute("INSERT INTO seats(round, table_no, seat, player_id) "
                                "VALUES (?,?,?,?)", (number, t, s, pid))
            for b in bye_ids:
                self.db.execute("INSERT INTO byes(round, player_id) VALUES (?,?)", (number, b))
            self._log(referee, action, {"round": number, **detail, "replaced": bool(exists)},
                      at)
        self._saved()
        return self.seating(number)

    def _has_live_hands(self, number: int, table: int | None = None) -> bool:
        """Hands that still count (not void) fix the seats they were played in."""
        q = "SELECT 1 FROM hands WHERE round=? AND status<>'void'"
        params: list[Any] = [number]
        if table is not None:
            q += " AND table_no=?"
            params.append(table)
        return self.db.execute(q, params).fetchone() is not None

    def _check_round_free(self, number: int, replace_existing: bool) -> bool:
        """Inside the write transaction: is the round seated (and may it be replaced)?"""
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError("round", f"round {number} is already seated")
        return exists is not None

    def _check_seatable(self, pid: int, field: str) -> None:
        p = self.player(pid)
        if p.status is PlayerStatus.WITHDRAWN:
            raise SeatingError(field, f"{p.name} has withdrawn and cannot be seated")

    def set_seat(self, number: int, table: int, seat: str, player: PlayerRef, *,
                 referee: str = "") -> Seating:
        """Put ``player`` in one seat. If the player sits elsewhere this round, the two swap
        seats (so nobody is ever at two tables); a player on a bye simply takes the seat and
        the previous occupant takes the bye."""
        referee = self._authorize(referee, action="changing a seat")
        number = _positive_int(number, "round")
        table = _positive_int(table, "table")
        seats = self._seats()
        if seat not in seats:
            raise SeatingError("seat", f"unknown seat {seat!r} (seats are {', '.join(seats)})")
        if not self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone():
            raise SeatingError("round", f"round {number} is not seated yet")
        pid = self._player_id(player, "player")
        self._check_seatable(pid, "player")
        cur = self.db.execute("SELECT player_id FROM seats WHERE round=? AND table_no=? AND "
                              "seat=?", (number, table, seat)).fetchone()
        if cur is None:
            raise SeatingError("table", f"round {number} has no table {table}")
        old_pid = cur[0]
        if old_pid == pid:
            return self.seating(number)
        other = self.db.execute("SELECT table_no, seat FROM seats WHERE round=? AND player_id=?",
                                (number, pid)).fetchone()
        touched = {table} | ({other[0]} if other else set())
        for t in touched:
            if self._has_live_hands(number, t):
                raise SeatingError("table", f"table {t} of round {number} already has hands "
                                   "entered; void them before changing its seats")
        at = dbm.now()
        with self._write():
            self.db.execute("DELETE FROM seats WHERE round=? AND table_no=? AND seat=?",
                            (number, table, seat))
            if other:
                self.db.execute("UPDATE seats SET player_id=? WHERE round=? AND table_no=? "
                                "AND seat=?", (old_pid, number, other[0], other[1]))
            else:
                self.db.execute("DELETE FROM byes WHERE round=? AND player_id=?", (number, pid))
                self.db.execute("INSERT OR IGNORE INTO byes(round, player_id) VALUES (?,?)",
                                (number, old_pid))
            self.db.execute("INSERT INTO seats(round, table_no, seat, player_id) VALUES "
                            "(?,?,?,?)", (number, table, seat, pid))
            self._log(referee, "round.set_seat", {"round": number, "table": table, "seat": seat,
                                                  "player_id": pid, "replaced": old_pid}, at)
        self._saved()
        return self.seating(number)

    def seating(self, number: int) -> Seating:
        """A round's seating (empty when the round is not seated)."""
        number = _lookup_int(number, "round")
        rows = self.db.execute(
            "SELECT s.table_no, s.seat, s.player_id, p.name FROM seats s JOIN players p "
            "ON p.id=s.player_id WHERE s.round=?", (number,)).fetchall()
        seats = self._seats()
        order = {s: i for i, s in enumerate(seats)}
        rows.sort(key=lambda r: (r[0], order.get(r[1], 99)))
        assignments = tuple(SeatAssignment(number, r[0], r[1], r[2], r[3]) for r in rows)
        byes = tuple(r[0] for r in self.db.execute(
            "SELECT p.name FROM byes b JOIN players p ON p.id=b.player_id WHERE b.round=? "
            "ORDER BY p.id", (number,)).fetchall())
        met, _ = self._met_before(number)
        tables: dict[int, list[int]] = defaultdict(list)
        for a in assignments:
            tables[a.table].append(a.player_id)
        return Seating(number, seats, assignments, byes,
                       seating_mod.repeat_pairs(list(tables.values()), met))

    def seating_problems(self, number: int) -> list[str]:
        """Problems with a round's seating as it stands (withdrawn player seated, …)."""
        s = self.seating(number)
        out = []
        for t, row in s.tables.items():
            for seat in s.seats:
                if seat not in row:
                    out.append(f"table {t} {seat}: seat is empty")
        for a in s.assignments:
            if self.player(a.player_id).status is PlayerStatus.WITHDRAWN:
                out.append(f"table {a.table} {a.seat}: {a.player} has withdrawn")
        return out

