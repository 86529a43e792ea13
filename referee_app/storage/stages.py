"""``t.stages``: cuts between the stages of an event (qualifying → semi-final → final).

A cut (head referee, one save, one chain entry) is made after round N: the top K players
of the standings after round N (of the stage in play, withdrawn players passed over) play
the rounds after N, carrying their score in full, halved or not at all; everyone else
keeps their place after round N below them (``stage_board.py``). The players chosen are
stored with the cut, so a correction made later to an earlier round changes scores but
never who plays on (:meth:`Stages.check` says when the standings would now choose
others). A cut is refused while round N's standings are not settled: hands in the rounds
after N, hands waiting for verification when only verified ones count, or a tie across
the cut that the head referee has not broken (``prefer``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from . import db as dbm
from . import stage_board
from .checks import PlayerRef, check_text, positive_int
from .errors import StorageError
from .models import CARRY_FACTORS, PlayerStatus, Stage, StandingRow
from .planning import PLAN_KEY
from .players import Players
from .round_seats import RoundSeats
from .standings import Standings
from .store import Store


@dataclass(frozen=True, slots=True)
class CutResult:
    """A cut as saved: the new stage, the seatings of later rounds it dropped (seated before
    the cut with everyone: seat them again) and the planned rounds it dropped likewise."""

    stage: Stage
    dropped_rounds: tuple[int, ...] = ()
    dropped_plan: tuple[int, ...] = ()


class Stages:
    """``t.stages``: the stages as they stand (:meth:`list`, :meth:`get`, :meth:`of_round`)
    and the head referee's cuts (:meth:`cut`, :meth:`cancel`)."""

    def __init__(self, store: Store, players: Players, seats: RoundSeats,
                 standings: Standings) -> None:
        self.store = store
        self.db = store.db
        self.players = players
        self.seats = seats
        self.standings = standings

    def list(self) -> list[Stage]:
        """Every stage, first to last (stage 1 alone until the first cut)."""
        return self.standings.stages()

    def get(self, ref: int | str) -> Stage:
        """The stage ``ref`` names: its number, or its name in either language."""
        st = stage_board.resolve(self.list(), ref)
        if st is None:
            raise StorageError.of("stage", "unknown_stage", got=str(ref)[:40],
                                  known=stage_board.known_names(self.list()))
        return st

    def of_round(self, number: int) -> Stage:
        """The stage round ``number`` is played in."""
        return stage_board.stage_of(self.list(), number)

    def cut(self, after_round: int, top: int, carry: str, *, name: str = "",
            prefer: Sequence[PlayerRef] = (), referee: str = "") -> CutResult:
        """Cut after round ``after_round``: the top ``top`` players of the stage in play's
        standings after that round (withdrawn ones passed over) play on, carrying ``carry``
        ("full", "half" or "none") of their score. ``prefer``: the players level on
        everything at the cut who go through (a playoff's or the head referee's decision);
        needed exactly when a tie straddles the cut. Later rounds seated before the cut are
        dropped (no hand was played in them), and so are the stored plan's rounds after it.
        """
        referee = self.store.authorize(referee, head=True, action="cutting to the next stage")
        after_round = positive_int(after_round, "after_round")
        top = positive_int(top, "top")
        if carry not in CARRY_FACTORS:
            raise StorageError.of("carry", "unknown_carry", got=str(carry)[:20],
                                  known=list(CARRY_FACTORS))
        name = check_text(name, "name", limit=40)
        stages = self.list()
        self._check_name(name, stages)
        current = stages[-1]
        if after_round < current.first_round:
            raise StorageError.of("after_round", "cut_before_stage", round=after_round,
                                  first=current.first_round)
        if not self.db.execute("SELECT 1 FROM rounds WHERE number=?",
                               (after_round,)).fetchone():
            raise StorageError.of("after_round", "cut_round_not_seated", round=after_round)
        later = self.db.execute("SELECT MIN(round) FROM hands WHERE round>? AND "
                                "status<>'void'", (after_round,)).fetchone()[0]
        if later is not None:
            raise StorageError.of("after_round", "cut_after_play", round=after_round,
                                  later=int(later))
        waiting = self.standings.provisional(through_round=after_round)
        if waiting:
            raise StorageError.of("after_round", "cut_provisional", round=after_round,
                                  n=waiting)
        rows = self.standings.table(through_round=after_round, stage=current.number)
        candidates = [r for r in rows if r.status is not PlayerStatus.WITHDRAWN]
        if not 2 <= top < len(candidates):
            raise StorageError.of("top", "cut_top_range", top=top, players=len(candidates))
        chosen = self._choose(candidates, top, prefer)
        at = dbm.now()
        number = current.number + 1
        with self.store.write():
            dropped = [n for (n,) in self.db.execute(
                "SELECT number FROM rounds WHERE number>? ORDER BY number", (after_round,))]
            for n in dropped:  # seated with everyone before the cut, never played
                self.seats.clear(n)
            dropped_plan = self._drop_planned(after_round)
            self.db["stages"].insert({"number": number, "name": name,
                                      "after_round": after_round, "top": top,
                                      "carry": carry, "players": json.dumps(chosen),
                                      "referee": referee, "at": at})
            self.store.note(referee, "stage.cut", {
                "stage": number, "name": name, "after_round": after_round, "top": top,
                "carry": carry, "players": chosen, "dropped_rounds": dropped,
                "dropped_plan": dropped_plan}, at)
        self.store.saved()
        return CutResult(self.get(number), tuple(dropped), tuple(dropped_plan))

    def _check_name(self, name: str, stages: Sequence[Stage]) -> None:
        if not name:
            return
        if name.isdigit():
            raise StorageError.of("name", "stage_name_number", got=name)
        if stage_board.resolve(stages, name) is not None:
            raise StorageError.of("name", "stage_name_taken", got=name)

    def _choose(self, rows: Sequence[StandingRow], top: int, prefer: Sequence[PlayerRef]
                ) -> list[int]:
        """The ids of the top ``top`` of ``rows`` (standings rows, in order); a tie across
        the cut is broken by ``prefer`` (who of the tied players goes through)."""
        edge = rows[top - 1].rank
        level = [r for r in rows if r.rank == edge]
        above = [r for r in rows[:top] if r.rank != edge]
        spaces = top - len(above)
        wanted = [self.players.id_of(p, f"prefer[{i}]") for i, p in enumerate(prefer)]
        if len(level) <= spaces:  # no tie across the cut
            if wanted:
                raise StorageError.of("prefer", "cut_no_tie", top=top)
            return [r.player_id for r in rows[:top]]
        ids = {r.player_id for r in level}
        if len(set(wanted)) != len(wanted) or len(wanted) != spaces \
                or not set(wanted) <= ids:
            raise StorageError.of("prefer", "cut_splits_tie", rank=edge, n=spaces,
                                  names=", ".join(r.player for r in level))
        return [r.player_id for r in above] + [r.player_id for r in level
                                               if r.player_id in wanted]

    def _drop_planned(self, after_round: int) -> list[int]:
        """Inside the cut's save: the stored plan's rounds after the cut (planned with
        everyone) dropped; returns their numbers."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?", (PLAN_KEY,)).fetchone()
        if row is None:
            return []
        plan = json.loads(row[0])
        rounds = plan.get("rounds", {})
        gone = sorted(int(n) for n in rounds if int(n) > after_round)
        if gone:
            plan["rounds"] = {n: v for n, v in rounds.items() if int(n) <= after_round}
            self.db["meta"].insert({"key": PLAN_KEY, "value": json.dumps(
                plan, ensure_ascii=False, sort_keys=True)}, replace=True)
        return gone

    def cancel(self, *, referee: str = "", reason: str = "") -> Stage:
        """Undo the last cut (head referee, with a reason) while no hand of its rounds
        counts: its players go back to the stage before, as if it was never made. The
        seatings of its rounds (its players only) are dropped with it."""
        referee = self.store.authorize(referee, head=True, action="cancelling a stage cut")
        reason = check_text(reason, "reason", required=True, limit=200)
        stages = self.list()
        if len(stages) == 1:
            raise StorageError.of("stage", "no_cut")
        last = stages[-1]
        played = self.db.execute("SELECT MIN(round) FROM hands WHERE round>=? AND "
                                 "status<>'void'", (last.first_round,)).fetchone()[0]
        if played is not None:
            raise StorageError.of("stage", "cut_has_play", round=int(played))
        at = dbm.now()
        with self.store.write():
            dropped = [n for (n,) in self.db.execute(
                "SELECT number FROM rounds WHERE number>=? ORDER BY number",
                (last.first_round,))]
            for n in dropped:
                self.seats.clear(n)
            self.db["stages"].delete(last.number)
            self.store.note(referee, "stage.cancel", {"stage": last.number, "reason": reason,
                                                      "dropped_rounds": dropped}, at)
        self.store.saved()
        return last

    def check(self) -> list[tuple[Stage, list[int]]]:
        """Each cut whose players differ from those the standings after its round would
        choose now (a correction made since): (the stage, the players it would choose).
        A tie across the cut counts as the cut's own choice."""
        out = []
        stages = self.list()
        for st in stages[1:]:
            rows = self.standings.table(through_round=st.after_round, stage=st.number - 1)
            candidates = [r for r in rows if r.status is not PlayerStatus.WITHDRAWN]
            if len(candidates) <= (st.top or 0):
                continue
            edge = candidates[(st.top or 1) - 1].rank
            sure = {r.player_id for r in candidates if r.rank < edge}
            level = {r.player_id for r in candidates if r.rank == edge}
            mine = set(st.players)
            if not sure <= mine or not mine <= sure | level:
                now = [r.player_id for r in candidates[:st.top]]
                out.append((st, now))
        return out
