"""Planning the whole event's seating at once (issue 13) and saving it in one transaction.

The plan itself is pure (:mod:`referee_app.core.planning`); this module reads the rounds
already played, chooses who is seated (active/late players, plus substitutes or byes when
they do not fill the tables) and writes every planned round together.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING, Any

from referee_app.core.errors import nested

from . import db as dbm
from .errors import SeatingError
from .models import PlayerStatus, Seating
from .players import Players
from .round_seats import RoundSeats
from .store import Store

if TYPE_CHECKING:  # the planner is imported where it runs: hand add and standings skip it
    from referee_app.core.planning import Plan, Repair

# a whole event in one plan; beyond this the search would run for minutes (a typo such
# as --rounds 1000000 must be refused, not hang the desk)
MAX_PLANNED_ROUNDS = 64

#: meta key of the last whole-event plan (round → tables in seat order and byes)
PLAN_KEY = "seat_plan"


def _keep_numbers(before: list[tuple[int, ...]], before_numbers: list[int],
                  tables: tuple[tuple[int, ...], ...]) -> list[int]:
    """Table numbers for a kept round: each table takes the number of the seated table it
    shares most players with (so refilling or dissolving a table renumbers no other);
    tables without a match take the lowest free numbers."""
    out: list[int | None] = [None] * len(tables)
    free = dict(zip(before_numbers, (set(t) for t in before), strict=True))
    overlap = sorted(((len(set(t) & members), -k, n) for k, t in enumerate(tables)
                      for n, members in free.items()), reverse=True)
    for shared, k, n in overlap:
        if shared and out[-k] is None and n in free:
            out[-k] = n
            del free[n]
    spare = iter(x for x in range(1, 2 * len(tables) + len(before_numbers) + 1)
                 if x not in set(o for o in out if o is not None))
    return [o if o is not None else next(spare) for o in out]


class Plan:
    """``t.plan``: the whole event's seating planned at once, stored, and rounds seated
    from it with as few seat changes as possible."""

    def __init__(self, store: Store, players: Players, seats: RoundSeats) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        self.seats = seats

    def _played_rounds(self) -> int:
        """Rounds kept as they are: up to the last round with a hand that counts."""
        row = self.db.execute("SELECT MAX(round) FROM hands WHERE status<>'void'").fetchone()
        return int(row[0] or 0)

    def _seat_rows(self, number: int, seats: tuple[str, ...]) -> list[tuple[int, ...]]:
        """A seated round as tables of player ids in seat order (full tables only)."""
        by_table: dict[int, dict[str, int]] = {}
        for a in self.seats.seating(number).assignments:
            by_table.setdefault(a.table, {})[a.seat] = a.player_id
        return [tuple(row[x] for x in seats) for _, row in sorted(by_table.items())
                if len(row) == len(seats)]

    def make(self, rounds: int, *, seed: int | None = None, fill: str | None = None,
                    referee: str = "", fresh: bool = False) -> tuple[Plan, list[Seating]]:
        """Plan and save rounds ``k+1..rounds`` where ``k`` is the last round with hands.

        Played rounds stay as they are and count against repeats, seat winds and seats.
        Rounds already planned (seated, no hands) are kept — refilled where players
        withdrew — unless a new plan is better or ``fresh`` asks for a new one; unplayed
        rounds beyond ``rounds`` are dropped. ``fill`` is ``"byes"`` or ``"substitutes"``
        when the players do not fill whole tables (as for ``t.rounds.seat``). All rounds are
        written in one save. Returns the plan (with its figures) and the saved seatings.
        """
        seats = self.store.seats()
        size = len(seats)
        if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
            raise SeatingError.of("rounds", "bad_rounds", got=rounds)
        if rounds > MAX_PLANNED_ROUNDS:
            raise SeatingError.of("rounds", "too_many_rounds", rounds=rounds,
                                  max=MAX_PLANNED_ROUNDS)
        done = self._played_rounds()
        if rounds <= done:
            raise SeatingError.of("rounds", "rounds_have_hands", done=done)
        for n in range(1, done + 1):
            if not self.seats.seating(n).assignments:
                raise SeatingError.of("round", "gap_in_seating", round=n)
        # absent players are in the event: planned for every round, but not seated in the
        # next one while absent (below)
        players = [p for p in self.players.list()
                   if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE, PlayerStatus.ABSENT)]
        subs = [p for p in self.players.list() if p.status is PlayerStatus.SUBSTITUTE]
        staged = self.seats.stage_players(done + 1)
        if staged != self.seats.stage_players(rounds):  # one stage's players at a time
            raise SeatingError.of("rounds", "plan_crosses_cut", first=done + 1, last=rounds)
        if staged is not None:  # a later stage: its players only, byes when they are short
            players = [p for p in players if p.id in staged]
            fill = fill or "byes"
        if not any(p.status is not PlayerStatus.ABSENT for p in players):
            raise SeatingError.of("players", "no_active_players")
        extra = len(players) % size
        if extra:
            missing = size - extra
            if fill is None:
                raise SeatingError.of("players", "plan_tables_not_filled", players=len(players),
                                      size=size, extra=extra, missing=missing, subs=len(subs))
            if fill == "substitutes":
                if len(subs) < missing:
                    raise SeatingError.of("fill", "too_few_substitutes", missing=missing,
                                          subs=len(subs))
                players = players + subs[:missing]
            elif fill != "byes":
                raise SeatingError.of("fill", "unknown_fill", got=fill)
        if seed is None:
            import random  # here: hand add and standings never plan

            seed = random.SystemRandom().randrange(1, 2**31)
        played = [self._seat_rows(n, seats) for n in range(1, done + 1)]
        initial = None
        if not fresh:
            stored = [self._seat_rows(n, seats) for n in range(done + 1, rounds + 1)]
            if all(stored):
                initial = stored
        from referee_app.core.planning import PlanError
        from referee_app.core.planning import plan as make_plan

        teams = self.seats.teams()
        try:
            p = make_plan([x.id for x in players], seats, rounds - done, played=played,
                          seed=seed, initial=initial, teams=teams)
        except PlanError as e:
            raise SeatingError.like(e.field, e) from None
        numbers = {r.number: list(range(1, len(r.tables) + 1)) for r in p.rounds}
        absent = {x.id for x in players if x.status is PlayerStatus.ABSENT}
        planned = p  # stored as planned: ``round seat N --replace`` goes back to it
        p = self._without_absent(p, absent, subs if fill == "substitutes" else [],
                                 fill, teams, numbers)
        if p.method.startswith("kept"):  # kept tables keep their numbers (gaps and all)
            for r in p.rounds:
                before, before_numbers, _ = self._current_tables(r.number, seats)
                numbers[r.number] = _keep_numbers(before, before_numbers, r.tables)
        referee = self.store.authorize(referee, action="planning the seating")
        at = dbm.now()
        with self.store.write():  # one save: every planned round, one chain entry
            for r in p.rounds:
                if self.seats.has_live_hands(r.number):  # entered since we looked
                    raise SeatingError.of("round", "plan_round_has_hands", round=r.number)
                for table in ("seats", "byes"):
                    self.db.execute(f"DELETE FROM {table} WHERE round=?", (r.number,))
                self.db.execute("DELETE FROM rounds WHERE number=?", (r.number,))
                self.seats.insert(r.number, seed, at, referee,
                                  [(t, s, pid)
                                   for t, ps in zip(numbers[r.number], r.tables, strict=True)
                                   for s, pid in zip(seats, ps, strict=True)], r.byes)
            later = [n for (n,) in self.db.execute(
                "SELECT number FROM rounds WHERE number>? AND number NOT IN "
                "(SELECT round FROM hands)", (rounds,)).fetchall()]
            for n in later:  # seated beyond the new plan, never played: drop
                self.seats.clear(n)
            self._store_plan(planned, seats, done, rounds, seed)
            f = p.figures
            self.store.note(referee, "round.plan", {
                "rounds": [r.number for r in p.rounds], "dropped": later, "seed": seed,
                "fill": fill,
                "method": p.method, "repeats": f.repeats, "bound": f.bound,
                "wind_spread": f.wind_spread, "same_seat_same_table": f.same_seat_same_table,
                # only in a team event / with players absent: older entries stay as they were
                **({"team_mates": f.team_mates, "team_bound": f.team_bound}
                   if f.team_mates is not None else {}),
                **({"absent": sorted(absent)} if absent else {})},
                at)
        self.store.saved()
        return p, [self.seats.seating(r.number) for r in p.rounds]

    def _without_absent(self, p: Plan, absent: set[int], subs: list[Any], fill: str | None,
                        teams: dict[int, str], numbers: dict[int, list[int]]) -> Plan:
        """The plan with its first round re-seated without the players absent now (as
        ``round seat`` would seat it: their seats go to players planned to sit out, then
        substitutes, else ``fill="byes"`` dissolves a table, its number left empty); the
        later rounds keep them, to be re-seated by ``round seat`` if they are still absent
        then. The figures are those of what is saved."""
        if not p.rounds or not absent & {x for t in p.rounds[0].tables for x in t}:
            return p
        from dataclasses import replace

        from referee_app.core.planning import PlanError, PlannedRound, repair, schedule_figures

        first = p.rounds[0]
        everyone = {x for t in first.tables for x in t} | set(first.byes)
        seatable = [x for x in everyone if x not in absent]
        on_bye = [x for x in first.byes if x not in absent]
        sub_ids = [x.id for x in subs if x.id not in everyone]
        met, _ = self.seats.met_before(first.number)
        try:
            r = repair(first.tables, seatable, on_bye + sub_ids, met=met,
                       dissolve=fill == "byes", teams=teams)
        except PlanError as e:
            raise SeatingError.of(e.field, "repair_failed", detail=e.problem) from None
        numbers[first.number] = list(range(1, len(r.tables) + 1))
        rounds = (PlannedRound(first.number, r.tables, tuple(sorted(r.byes))), *p.rounds[1:])
        f = schedule_figures([rnd.tables for rnd in p.played], [rnd.tables for rnd in rounds],
                             p.seats, sorted(everyone | set(sub_ids)), teams)
        return replace(p, rounds=rounds, figures=f)

    def stored(self) -> dict[int, tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]]:
        """The last whole-event plan (``round plan``): round → (tables of player ids in
        seat order, indexed by table number − 1, and the players planned to sit out)."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (PLAN_KEY,)).fetchone()
        if row is None:
            return {}
        data = json.loads(row[0])
        return {int(n): (tuple(tuple(t) for t in r["tables"]), tuple(r["byes"]))
                for n, r in data.get("rounds", {}).items()}

    def _store_plan(self, p: Plan, seats: tuple[str, ...], done: int, rounds: int,
                    seed: int) -> None:
        """Inside the plan's write: keep the planned rounds so ``round seat`` can reuse
        them (earlier entries of rounds now played stay; rounds beyond the plan go)."""
        old = {n: {"tables": [list(t) for t in ts], "byes": list(bs)}
               for n, (ts, bs) in self.stored().items() if n <= done}
        new: dict[str, Any] = {str(n): v for n, v in sorted(old.items())}
        for r in p.rounds:
            new[str(r.number)] = {"tables": [list(t) for t in r.tables], "byes": list(r.byes)}
        value = {"seed": seed, "rounds_total": rounds, "seats": list(seats), "rounds": new}
        self.db["meta"].insert({"key": PLAN_KEY, "value": json.dumps(
            value, ensure_ascii=False, sort_keys=True)}, replace=True)  # INSERT OR REPLACE

    def seat(self, number: int, *, fill: str | None = None, referee: str = "",
                       replace_existing: bool = False) -> tuple[Repair, Seating]:
        """Seat round ``number`` from the stored plan instead of a new search.

        Starts from the round as seated (or, when it is not seated or ``replace_existing``
        asks to undo hand changes, from the plan's round) and changes as few seats as
        possible for players who withdrew or arrived since (see :meth:`reseat`).
        Nothing is written when nothing changes.
        """
        plan = self.stored()
        if number not in plan:
            raise SeatingError.of("round", "round_not_planned", round=number)
        seats = self.store.seats()
        if self.seats.has_live_hands(number):
            raise SeatingError.of("round", "round_has_hands_reseat", round=number)
        if number > 1 and not self.seats.seating(number - 1).assignments:
            raise SeatingError.of("round", "previous_round_not_seated", round=number - 1)
        current = self.seats.seating(number)
        if current.assignments and not replace_existing:
            tables, numbers, bye_ids = self._current_tables(number, seats)
        else:
            ts, bye_ids = plan[number]
            tables = [tuple(t) for t in ts]
            numbers = list(range(1, len(tables) + 1))
            bye_ids = list(bye_ids)
        if any(len(t) != len(seats) for t in tables):
            raise SeatingError.of("round", "plan_does_not_fit", round=number, size=len(seats))
        return self._reseat(number, tables, numbers, bye_ids, fill=fill, referee=referee,
                            action="round.seat", unchanged=current if current.assignments
                            and not replace_existing else None)

    def _current_tables(self, number: int, seats: tuple[str, ...]
                        ) -> tuple[list[tuple[int, ...]], list[int], list[int]]:
        """A seated round as (tables in seat order, their table numbers, byes); an empty
        seat reads as player 0 (a vacancy to fill)."""
        by_table: dict[int, dict[str, int]] = {}
        for a in self.seats.seating(number).assignments:
            by_table.setdefault(a.table, {})[a.seat] = a.player_id
        tables = [tuple(row.get(x, 0) for x in seats) for _, row in sorted(by_table.items())]
        bye_ids = [pid for (pid,) in self.db.execute(
            "SELECT player_id FROM byes WHERE round=?", (number,)).fetchall()]
        return tables, sorted(by_table), bye_ids

    def reseat(self, number: int, *, fill: str | None = None,
                     referee: str = "") -> tuple[Repair, Seating]:
        """Re-seat a seated round that has no hands yet after withdrawals (or late
        arrivals), changing as few seats as possible: withdrawn players' seats are taken by
        newcomers, then by players planned to sit out, then (``fill="substitutes"``) by
        substitutes; with ``fill="byes"`` the emptiest tables are dissolved when that is
        not enough (their table numbers stand empty; no other table is renumbered).
        Everyone else keeps table and seat."""
        seats = self.store.seats()
        s = self.seats.seating(number)
        if not s.assignments:
            raise SeatingError.of("round", "round_not_seated_plan", round=number)
        if self.seats.has_live_hands(number):
            raise SeatingError.of("round", "round_has_hands_move", round=number)
        tables, numbers, bye_ids = self._current_tables(number, seats)
        return self._reseat(number, tables, numbers, bye_ids, fill=fill, referee=referee,
                            action="round.reseat")

    def _reseat(self, number: int, tables: list[tuple[int, ...]], numbers: list[int],
                bye_ids: list[int], *, fill: str | None, referee: str, action: str,
                unchanged: Seating | None = None) -> tuple[Repair, Seating]:
        """Repair ``tables`` (numbered ``numbers``) for the players seatable now and save
        the round; when ``unchanged`` is given and nothing changes, nothing is written."""
        seats = self.store.seats()
        everyone = self.players.list()
        staged = self.seats.stage_players(number)
        playing = [p.id for p in everyone
                   if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE)
                   and (staged is None or p.id in staged)]
        seated = {pid for t in tables for pid in t}
        # substitutes the plan seated keep their seats
        keep = playing + [p.id for p in everyone if p.status is PlayerStatus.SUBSTITUTE
                          and p.id in seated]
        counts = Counter(pid for (pid,) in self.db.execute(
            "SELECT player_id FROM byes WHERE round<>?", (number,)).fetchall())
        newcomers = [p for p in playing if p not in seated and p not in bye_ids]
        on_bye = sorted((p for p in bye_ids if p in playing), key=lambda p: (counts[p], p))
        fillers = newcomers + on_bye
        if fill == "substitutes":
            fillers += [p.id for p in everyone if p.status is PlayerStatus.SUBSTITUTE
                        and p.id not in seated]
        elif fill not in (None, "byes"):
            raise SeatingError.of("fill", "unknown_fill", got=fill)
        met, _ = self.seats.met_before(number)
        from referee_app.core.planning import PlanError, Repair, repair

        try:
            r = repair(tables, keep, fillers, met=met, dissolve=fill == "byes",
                       teams=self.seats.teams())
        except PlanError as e:
            raise SeatingError.of(e.field, "repair_failed", detail=nested(e)) from None
        kept_numbers = [n for k, n in enumerate(numbers, start=1) if k not in r.dissolved]
        rows = [(tn, x, pid) for tn, ps in zip(kept_numbers, r.tables, strict=True)
                for x, pid in zip(seats, ps, strict=True)]
        if unchanged is not None and not r.moved and not r.dissolved \
                and sorted(r.byes) == sorted(p for p in bye_ids if p in playing) \
                and len(bye_ids) == len(r.byes):
            return r, unchanged
        dissolved = [numbers[k - 1] for k in r.dissolved]
        r = Repair(r.tables, r.byes, r.moved, tuple(dissolved), r.changed)
        return r, self.seats.write(number, rows, list(r.byes), seed=None, referee=referee,
                                    replace_existing=True, action=action,
                                    detail={"fill": fill, "moved": list(r.moved),
                                            "changed": list(r.changed),
                                            "dissolved": dissolved, "from_plan":
                                            action == "round.seat"})
