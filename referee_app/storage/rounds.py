"""Rounds and seating: drawing a round, seat changes, and the checks on a seating."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from referee_app.core.errors import Message

from . import db as dbm
from . import round_state
from . import seating as seating_mod
from .checks import PlayerRef, lookup_int, positive_int, table_int
from .errors import (
    SeatingError,
    StorageError,
)
from .models import (
    Player,
    PlayerStatus,
    RoundInfo,
    RoundState,
    Seating,
)
from .planning import Plan
from .players import Players
from .round_seats import RoundSeats
from .store import Store


class Rounds:
    """``t.rounds``: drawing a round, manual seatings, seat changes and their checks, and
    the round in play (``round start``) with its clock."""

    def __init__(self, store: Store, players: Players, seats: RoundSeats, plan: Plan) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        self.seats = seats
        self.plan = plan

    def list(self) -> list[RoundInfo]:
        """The seated rounds with their tables, players, byes and the hands that count so
        far, void ones left out (the seatings as kept by :meth:`seating`, the hands counted
        in one query)."""
        with dbm.read_transaction(self.db):
            numbers = [n for (n,) in self.db.execute("SELECT number FROM rounds ORDER BY number")]
            hands = dict(self.db.execute("SELECT round, COUNT(*) FROM hands WHERE "
                                         "status<>'void' GROUP BY round").fetchall())
            out = []
            for n in numbers:
                s = self.seating(n)
                out.append(RoundInfo(n, self.seats.tables(n), len(s.assignments), s.byes,
                                     hands.get(n, 0)))
        return out

    def seat(self, number: int, *, seed: int | None = None, fill: str | None = None,
                   referee: str = "", replace_existing: bool = False,
                   use_plan: bool = True) -> Seating:
        """Generate and save round ``number``'s seating.

        When a stored whole-event plan (``round plan``) covers the round it is used
        instead of a new search, with as few seats changed as possible for withdrawals and
        arrivals since (:meth:`Plan.seat <.planning.Plan.seat>`; ``use_plan=False`` searches anew).
        Otherwise round 1 is a seeded shuffle; later rounds minimise repeat opponents, then
        balance seats; in a team event team-mates sit apart first of all (``team_pairs`` of
        the result says how many pairs could not). Absent and withdrawn players are not
        seated. When the seatable players do not fill whole tables, ``fill``
        decides: ``"byes"`` (the players with the fewest byes so far sit out) or
        ``"substitutes"`` (players registered with status substitute fill the empty seats).
        """
        number = positive_int(number, "round")
        if use_plan and number in self.plan.stored():
            return self.plan.seat(number, fill=fill, referee=referee,
                                       replace_existing=replace_existing)[1]
        if seed is not None:
            seed = lookup_int(seed, "seed")
        seats = self.store.seats()
        size = len(seats)
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError.of("round", "round_seated_replace", round=number)
        if exists and self.seats.has_live_hands(number):
            raise SeatingError.of("round", "round_has_hands_reseat", round=number)
        if number > 1 and not self.db.execute("SELECT 1 FROM rounds WHERE number=?",
                                              (number - 1,)).fetchone():
            raise SeatingError.of("round", "previous_round_not_seated", round=number - 1)
        seatable = [p for p in self.players.list()
                    if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE)]
        subs = [p for p in self.players.list() if p.status is PlayerStatus.SUBSTITUTE]
        staged = self.seats.stage_players(number)
        if staged is not None:  # a later stage: its players only, byes when they are short
            seatable = [p for p in seatable if p.id in staged]
            fill = fill or "byes"
        if not seatable:
            raise SeatingError.of("players", "no_active_players")
        import random  # here, not at the top: hand add and standings never seat a round

        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        rng = random.Random(seed)
        byes: list[Player] = []
        extra = len(seatable) % size
        if extra:
            missing = size - extra
            if fill is None:
                raise SeatingError.of("players", "tables_not_filled", players=len(seatable),
                                      size=size, extra=extra, missing=missing, subs=len(subs))
            if fill == "byes":
                counts = Counter(pid for (pid,) in self.db.execute(
                    "SELECT player_id FROM byes").fetchall())
                order = sorted(seatable, key=lambda p: (counts[p.id], rng.random()))
                byes = order[:extra]
                seatable = [p for p in seatable if p not in byes]
            elif fill == "substitutes":
                if len(subs) < missing:
                    raise SeatingError.of("fill", "too_few_substitutes", missing=missing,
                                          subs=len(subs))
                seatable = seatable + subs[:missing]
            else:
                raise SeatingError.of("fill", "unknown_fill", got=fill)
        met, seat_counts = self.seats.met_before(number)
        tables = seating_mod.generate([p.id for p in seatable], seats, seed=seed, met=met,
                                      seat_counts=seat_counts, teams=self.seats.teams())
        rows = [(t, s, pid) for t, ps in enumerate(tables, start=1)
                for s, pid in zip(seats, ps, strict=True)]
        return self.seats.write(number, rows, [p.id for p in byes], seed=seed,
                                 referee=referee, replace_existing=replace_existing,
                                 action="round.seat", detail={"seed": seed, "fill": fill})

    def set_seating(self, number: int, tables: Mapping[int, Mapping[str, PlayerRef]], *,
                    byes: Sequence[PlayerRef] = (), referee: str = "",
                    replace_existing: bool = False) -> Seating:
        """Save a manual seating for a whole round (validated: no empty seat, nobody twice,
        no withdrawn player)."""
        number = positive_int(number, "round")
        seats = self.store.seats()
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError.of("round", "round_seated", round=number)
        if exists and self.seats.has_live_hands(number):
            raise SeatingError.of("round", "round_has_hands", round=number)
        rows: list[tuple[int, str, int]] = []
        where: dict[int, tuple[int, str]] = {}
        for t in sorted(tables):
            table_int(t, f"table {t}")
            row = tables[t]
            for s in row:
                if s not in seats:
                    raise SeatingError.of(f"table {t}.{s}", "unknown_seat_here", seats=list(seats))
            for s in seats:
                if row.get(s) in (None, ""):
                    raise SeatingError.of(f"table {t}.{s}", "seat_empty")
                pid = self.players.id_of(row[s], f"table {t}.{s}")
                self.seats.check_seatable(pid, f"table {t}.{s}", number)
                if pid in where:
                    raise SeatingError.of(f"table {t}.{s}", "player_seated_twice",
                                          name=self.players.get(pid).name,
                                          table=where[pid][0], seat=where[pid][1])
                where[pid] = (t, s)
                rows.append((t, s, pid))
        bye_ids = [self.players.id_of(b, "byes") for b in byes]
        for b in bye_ids:
            if b in where:
                raise SeatingError.of("byes", "bye_is_seated", name=self.players.get(b).name,
                                      table=where[b][0], seat=where[b][1])
        return self.seats.write(number, rows, bye_ids, seed=None, referee=referee,
                                 replace_existing=replace_existing,
                                 action="round.set_seating", detail={})

    def set_seat(self, number: int, table: int, seat: str, player: PlayerRef, *,
                 referee: str = "") -> Seating:
        """Put ``player`` in one seat. If the player sits elsewhere this round, the two swap
        seats (so nobody is ever at two tables); a player on a bye simply takes the seat and
        the previous occupant takes the bye."""
        referee = self.store.authorize(referee, action="changing a seat")
        number = positive_int(number, "round")
        table = table_int(table)
        seats = self.store.seats()
        if seat not in seats:
            raise SeatingError.of("seat", "unknown_seat", got=seat, seats=list(seats))
        if not self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone():
            raise SeatingError.of("round", "round_not_seated_yet", round=number)
        pid = self.players.id_of(player, "player")
        self.seats.check_seatable(pid, "player", number)
        cur = self.db.execute("SELECT player_id FROM seats WHERE round=? AND table_no=? AND "
                              "seat=?", (number, table, seat)).fetchone()
        if cur is None:
            raise SeatingError.of("table", "no_table", round=number, table=table)
        old_pid = cur[0]
        if old_pid == pid:
            return self.seating(number)
        other = self.db.execute("SELECT table_no, seat FROM seats WHERE round=? AND player_id=?",
                                (number, pid)).fetchone()
        touched = {table} | ({other[0]} if other else set())
        for t in touched:
            if self.seats.has_live_hands(number, t):
                raise SeatingError.of("table", "table_has_hands", table=t, round=number)
        at = dbm.now()
        with self.store.write():
            seats = self.db["seats"]
            seats.delete((number, table, seat))
            if other:  # the player sat elsewhere: the two swap
                seats.update((number, other[0], other[1]), {"player_id": old_pid})
            else:  # the player sat out (or was not seated): the one replaced sits out
                self.db["byes"].delete_where("round=? AND player_id=?", [number, pid])
                self.db["byes"].insert({"round": number, "player_id": old_pid}, ignore=True)
            seats.insert({"round": number, "table_no": table, "seat": seat, "player_id": pid})
            self.store.note(referee, "round.set_seat", {"round": number, "table": table, "seat": seat,
                                                  "player_id": pid, "replaced": old_pid}, at)
        self.store.saved()
        return self.seating(number)

    def seating(self, number: int) -> Seating:
        """A round's seating (empty when the round is not seated)."""
        return self.seats.seating(number)

    # ------------------------------------------------------------------ the round in play

    def start(self, number: int, *, minutes: int | None = None, extend: int | None = None,
              referee: str = "") -> RoundState:
        """Make round ``number`` the round in play (head referee; one chain entry).

        ``minutes``: the round's clock runs from now for that long (given again to a
        started round: its time is set anew from now). Without it a round started before
        keeps its clock, and a new one is untimed. ``extend``: minutes added to the clock
        of a started, timed round (it does not change which round is in play). The
        phones, the projector, the desk and new penalties follow the round in play."""
        referee = self.store.authorize(referee, head=True, action="starting a round")
        number = positive_int(number, "round")
        if minutes is not None and extend is not None:
            raise StorageError.of("extend", "start_minutes_or_extend")
        if minutes is not None:
            minutes = positive_int(minutes, "minutes", round_state.MAX_MINUTES)
        if extend is not None:
            extend = positive_int(extend, "extend", round_state.MAX_MINUTES)
        at = dbm.now()
        with self.store.write():
            if not self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone():
                raise SeatingError.of("round", "round_not_seated_yet", round=number)
            old = self.state(number)
            table = self.db["round_state"]
            if extend is not None:
                if old is None or old.ends_at is None:
                    raise StorageError.of("extend", "round_not_timed", round=number)
                table.update(number, {"ends_at": round_state.later(old.ends_at, extend),
                                      "added": old.added + extend})
                self.store.note(referee, "round.extend", {"round": number, "minutes": extend},
                                at)
            else:
                clock = ({"ends_at": round_state.later(at, minutes), "minutes": minutes,
                          "added": 0}
                         if minutes is not None else {})
                self.db.execute("UPDATE round_state SET in_play=0 WHERE in_play<>0 AND "
                                "round<>?", (number,))
                if old is None:
                    table.insert({"round": number, "in_play": 1, "started_at": at,
                                  "started_by": referee, **clock})
                elif not old.in_play or clock:
                    table.update(number, {"in_play": 1, **clock})
                self.store.note(referee, "round.start", {"round": number, "minutes": minutes},
                                at)
            state = self.state(number)
        self.store.saved()
        assert state is not None
        return state

    def state(self, number: int) -> RoundState | None:
        """Round ``number`` as ``round start`` left it (None: never started)."""
        return round_state.state(self.db, lookup_int(number, "round"))

    def in_play(self) -> RoundState:
        """The round in play (:func:`.round_state.in_play`)."""
        return round_state.in_play(self.db)

    def problems(self, number: int) -> list[Message]:
        """Problems with a round's seating as it stands (withdrawn or absent player seated,
        …), one message each (as a string, its English line)."""
        s = self.seating(number)
        out = []
        for t, row in s.tables.items():
            for seat in s.seats:
                if seat not in row:
                    out.append(Message.of("line_seat_empty", table=t, seat=seat))
        absent = set(s.absent)
        staged = self.seats.stage_players(number)
        for a in s.assignments:
            if self.players.get(a.player_id).status is PlayerStatus.WITHDRAWN:
                out.append(Message.of("line_seat_withdrawn", table=a.table, seat=a.seat,
                                      player=a.player))
            elif a.player in absent:
                out.append(Message.of("line_seat_absent", table=a.table, seat=a.seat,
                                      player=a.player))
            elif staged is not None and a.player_id not in staged:
                out.append(Message.of("line_seat_not_in_stage", table=a.table, seat=a.seat,
                                      player=a.player))
        return out

