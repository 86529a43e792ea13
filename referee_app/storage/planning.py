"""Planning the whole event's seating at once (issue 13) and saving it in one transaction.

The plan itself is pure (:mod:`referee_app.core.planning`); this module reads the rounds
already played, chooses who is seated (active/late players, plus substitutes or byes when
they do not fill the tables) and writes every planned round together.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import TYPE_CHECKING

from . import db as dbm
from .base import TournamentBase
from .errors import SeatingError
from .models import PlayerStatus, Seating

if TYPE_CHECKING:
    from referee_app.core.planning import Plan, Repair


class PlanningMixin(TournamentBase):
    def _played_rounds(self) -> int:
        """Rounds kept as they are: up to the last round with a hand that counts."""
        row = self.db.execute("SELECT MAX(round) FROM hands WHERE status<>'void'").fetchone()
        return int(row[0] or 0)

    def _seat_rows(self, number: int, seats: tuple[str, ...]) -> list[tuple[int, ...]]:
        """A seated round as tables of player ids in seat order (full tables only)."""
        by_table: dict[int, dict[str, int]] = {}
        for a in self.seating(number).assignments:
            by_table.setdefault(a.table, {})[a.seat] = a.player_id
        return [tuple(row[x] for x in seats) for _, row in sorted(by_table.items())
                if len(row) == len(seats)]

    def plan_rounds(self, rounds: int, *, seed: int | None = None, fill: str | None = None,
                    referee: str = "", fresh: bool = False) -> tuple[Plan, list[Seating]]:
        """Plan and save rounds ``k+1..rounds`` where ``k`` is the last round with hands.

        Played rounds stay as they are and count against repeats, seat winds and seats.
        Rounds already planned (seated, no hands) are kept — refilled where players
        withdrew — unless a new plan is better or ``fresh`` asks for a new one; unplayed
        rounds beyond ``rounds`` are dropped. ``fill`` is ``"byes"`` or ``"substitutes"``
        when the players do not fill whole tables (as for ``seat_round``). All rounds are
        written in one save. Returns the plan (with its figures) and the saved seatings.
        """
        seats = self._seats()
        size = len(seats)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise SeatingError("rounds", f"{rounds!r} is not a number of rounds (1 or more)")
        done = self._played_rounds()
        if rounds <= done:
            raise SeatingError("rounds", f"rounds 1-{done} already have hands; plan more than "
                               f"{done} rounds")
        for n in range(1, done + 1):
            if not self.seating(n).assignments:
                raise SeatingError("round", f"round {n} is not seated but a later round has "
                                   "hands; seat it first (round seat / set-seat)")
        players = [p for p in self.players()
                   if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE)]
        subs = [p for p in self.players() if p.status is PlayerStatus.SUBSTITUTE]
        if not players:
            raise SeatingError("players", "no active players registered")
        extra = len(players) % size
        if extra:
            missing = size - extra
            if fill is None:
                raise SeatingError(
                    "players",
                    f"{len(players)} active players do not fill tables of {size}: choose "
                    f"byes ({extra} player(s) sit out each round; fill='byes', CLI --fill "
                    f"byes) or substitutes ({missing} needed, {len(subs)} registered; "
                    f"fill='substitutes', CLI --fill substitutes)")
            if fill == "substitutes":
                if len(subs) < missing:
                    raise SeatingError("fill", f"{missing} substitute(s) needed, only "
                                       f"{len(subs)} registered with status substitute")
                players = players + subs[:missing]
            elif fill != "byes":
                raise SeatingError("fill", f"unknown option {fill!r} (byes or substitutes)")
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        played = [self._seat_rows(n, seats) for n in range(1, done + 1)]
        initial = None
        if not fresh:
            stored = [self._seat_rows(n, seats) for n in range(done + 1, rounds + 1)]
            if all(stored):
                initial = stored
        from referee_app.core.planning import PlanError
        from referee_app.core.planning import plan as make_plan  # only when planning

        try:
            p = make_plan([x.id for x in players], seats, rounds - done, played=played,
                          seed=seed, initial=initial)
        except PlanError as e:
            raise SeatingError(e.field, e.problem) from None
        referee = self._authorize(referee, action="planning the seating")
        at = dbm.now()
        with self._write():  # one save: every planned round, one chain entry
            for r in p.rounds:
                if self._has_live_hands(r.number):  # entered since we looked
                    raise SeatingError("round", f"round {r.number} now has hands; plan again")
                for table in ("seats", "byes"):
                    self.db.execute(f"DELETE FROM {table} WHERE round=?", (r.number,))
                self.db.execute("DELETE FROM rounds WHERE number=?", (r.number,))
                self.db.execute("INSERT INTO rounds(number, seed, created_at, created_by) "
                                "VALUES (?,?,?,?)", (r.number, seed, at, referee))
                for t, ps in enumerate(r.tables, start=1):
                    for s, pid in zip(seats, ps, strict=True):
                        self.db.execute("INSERT INTO seats(round, table_no, seat, player_id) "
                                        "VALUES (?,?,?,?)", (r.number, t, s, pid))
                for b in r.byes:
                    self.db.execute("INSERT INTO byes(round, player_id) VALUES (?,?)",
                                    (r.number, b))
            later = [n for (n,) in self.db.execute(
                "SELECT number FROM rounds WHERE number>? AND number NOT IN "
                "(SELECT round FROM hands)", (rounds,)).fetchall()]
            for n in later:  # seated beyond the new plan, never played: drop
                for table in ("seats", "byes"):
                    self.db.execute(f"DELETE FROM {table} WHERE round=?", (n,))
                self.db.execute("DELETE FROM rounds WHERE number=?", (n,))
            f = p.figures
            self._log(referee, "round.plan", {
                "rounds": [r.number for r in p.rounds], "dropped": later, "seed": seed,
                "fill": fill,
                "method": p.method, "repeats": f.repeats, "bound": f.bound,
                "wind_spread": f.wind_spread, "same_seat_same_table": f.same_seat_same_table},
                at)
        self._saved()
        return p, [self.seating(r.number) for r in p.rounds]

    def reseat_round(self, number: int, *, fill: str | None = None,
                     referee: str = "") -> tuple[Repair, Seating]:
        """Re-seat a seated round that has no hands yet after withdrawals (or late
        arrivals), changing as few seats as possible: withdrawn players' seats are taken by
        newcomers, then by players planned to sit out, then (``fill="substitutes"``) by
        substitutes; with ``fill="byes"`` the emptiest tables are dissolved when that is
        not enough. Everyone else keeps table and seat."""
        seats = self._seats()
        s = self.seating(number)
        if not s.assignments:
            raise SeatingError("round", f"round {number} is not seated (plan or seat it)")
        if self._has_live_hands(number):
            raise SeatingError("round", f"round {number} already has hands entered; "
                               "move single players instead (set-seat)")
        by_table: dict[int, dict[str, int]] = {}
        for a in s.assignments:
            by_table.setdefault(a.table, {})[a.seat] = a.player_id
        tables = [tuple(row.get(x, 0) for x in seats) for _, row in sorted(by_table.items())]
        everyone = self.players()
        playing = [p.id for p in everyone
                   if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE)]
        seated = {pid for t in tables for pid in t}
        bye_ids = [pid for (pid,) in self.db.execute(
            "SELECT player_id FROM byes WHERE round=?", (number,)).fetchall()]
        counts = Counter(pid for (pid,) in self.db.execute(
            "SELECT player_id FROM byes WHERE round<>?", (number,)).fetchall())
        newcomers = [p for p in playing if p not in seated and p not in bye_ids]
        on_bye = sorted((p for p in bye_ids if p in playing), key=lambda p: (counts[p], p))
        fillers = newcomers + on_bye
        if fill == "substitutes":
            fillers += [p.id for p in everyone if p.status is PlayerStatus.SUBSTITUTE
                        and p.id not in seated]
        elif fill not in (None, "byes"):
            raise SeatingError("fill", f"unknown option {fill!r} (byes or substitutes)")
        met, _ = self._met_before(number)
        from referee_app.core.planning import PlanError, repair  # only when repairing

        try:
            r = repair(tables, playing, fillers, met=met, dissolve=fill == "byes")
        except PlanError as e:
            raise SeatingError(e.field, e.problem + " (--fill byes or --fill substitutes)") \
                from None
        rows = [(t, x, pid) for t, ps in enumerate(r.tables, start=1)
                for x, pid in zip(seats, ps, strict=True)]
        return r, self._write_round(number, rows, list(r.byes), seed=None, referee=referee,
                                    replace_existing=True, action="round.reseat",
                                    detail={"fill": fill, "moved": list(r.moved),
                                            "dissolved": list(r.dissolved)})
