"""The leaderboards of one state of the event (pure: rows in, ranked rows out), kept.

:class:`Leaderboards` holds the standings' inputs — the players, the settings, the stages,
each player's sums per table and round, the penalty rows and (under placement scoring)
every table's placement — and the totals and leaderboards asked for so far, per scope.
``Standings`` fills one from the file and, after a save, tells it which players' rows
changed (:meth:`Leaderboards.bring_forward`); the correction impact fills one from the
stored figures with one hand replaced. Both rank through the same code.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from . import stage_board
from .errors import StorageError
from .models import Player, Stage, StandingRow, TournamentInfo
from .placement import Placements
from .ranking import Ranking, carried, order_of, totals
from .scoring import default_points
from .stage_board import compose

#: one player's sums at one table of one round, as the standings query adds them up:
#: (player_id, round, chips, hands counted, wins, self-drawn, discards paid, flower pigs,
#: largest fan, table)
HandRow = tuple[int, int, int, int, int, int, int, int, int, int]

#: a scope of rounds: (round alone, through round, from round) — see ``ranking.totals``
Scope = tuple[int | None, int | None, int | None]


class Leaderboards:
    """The standings' inputs as at revision ``seen`` and the leaderboards made of them.

    Fill :attr:`hands` (player id -> :data:`HandRow` list) and :attr:`pens` (player id ->
    ``(player, round, chips, points units)``), then call :meth:`placed` once."""

    def __init__(self, seen: int, players: Iterable[Player], info: TournamentInfo,
                 stages: list[Stage]) -> None:
        self.seen = seen
        self.players = list(players)
        self.by_id = {p.id: p for p in self.players}
        self.placement = info.placement
        self.order = order_of(info.tie_break, info.placement)
        self.verified_only = info.verified_only
        self.points = info.placement_points or default_points(info.table_size)
        self.stages = stages
        self.hands: dict[int, list[HandRow]] = {}
        self.pens: dict[int, list[tuple[Any, ...]]] = {}
        self.places: Placements | None = None
        self.totals: dict[Scope, dict[int, Any]] = {}
        #: a later stage's totals per (stage, horizon): carried in + since its cut
        self.stage_totals: dict[tuple[int, int | None], dict[int, Any]] = {}
        #: each leaderboard asked for so far, and the players whose totals changed since
        self.rankings: dict[tuple[Any, ...], Ranking] = {}
        self.moved: dict[tuple[Any, ...], set[int]] = {}
        #: the rows an event with stages placed below a cut, per leaderboard
        self.placed_below: dict[tuple[Any, ...], dict[int, Any]] = {}

    def placed(self) -> Leaderboards:
        """Place every table (under placement scoring), once the hand rows are in."""
        if self.placement:
            self.places = Placements(self.points, (r for rs in self.hands.values() for r in rs))
        return self

    # ------------------------------------------------------------------ leaderboards

    def table(self, round: int | None = None, through_round: int | None = None,
              include_substitutes: bool = False, stage: int | str | None = None
              ) -> list[StandingRow]:
        """The leaderboard (see ``Standings.table``)."""
        if stage is not None and round is not None:
            raise StorageError.of("stage", "stage_and_round")
        subs = include_substitutes
        if round is not None:
            return self._board(("round", round, subs), (round, None, None), 0)
        if len(self.stages) == 1:
            if stage is not None:
                self.stage(stage)  # refused unless it names stage 1
            return self._board(("plain", through_round, subs), (None, through_round, None), 0)

        def board(j: int, horizon: int | None) -> list[StandingRow]:
            if j == 1:
                return self._board(("plain", horizon, subs), (None, horizon, None), 1)
            return self._board(("stage", j, horizon, subs), None, j)

        if stage is not None:
            st = self.stage(stage)
            end = st.last_round
            if through_round is not None and (end is None or through_round < end):
                end = through_round
            return board(st.number, end)
        memo = self.placed_below.setdefault(("composed", through_round, subs), {})
        return compose(self.stages, through_round, board, memo)

    def stage(self, ref: int | str) -> Stage:
        """The stage ``ref`` names (number or name), or a StorageError naming the stages."""
        st = stage_board.resolve(self.stages, ref)
        if st is None:
            raise StorageError.of("stage", "unknown_stage", got=str(ref)[:40],
                                  known=stage_board.known_names(self.stages))
        return st

    def _board(self, key: tuple[Any, ...], scope: Scope | None, stage: int
               ) -> list[StandingRow]:
        """One leaderboard, kept: of a scope of rounds (``scope``), or of stage ``stage``
        (2 or later) after round ``key[2]``."""
        ranking = self.rankings.get(key)
        if ranking is not None:
            return ranking.update(self.moved.pop(key, ()))
        subs = bool(key[-1])
        if scope is not None:
            acc = self.plain(scope)
            players: Iterable[Player] = self.players
        else:
            acc = self.staged(stage, key[2])
            players = [self.by_id[pid] for pid in self.stages[stage - 1].players
                       if pid in self.by_id]
        ranking = self.rankings[key] = Ranking(
            players, acc, self.order, include_substitutes=subs, placement=self.placement,
            stage=stage, carry=scope is None)
        return ranking.rows()

    # ------------------------------------------------------------------ totals

    def point_rows(self, pids: Iterable[int] | None = None) -> list[tuple[int, int, int]]:
        return self.places.rows(pids) if self.places is not None else []

    def plain(self, scope: Scope) -> dict[int, Any]:
        """Everyone's totals in a scope of rounds (kept)."""
        acc = self.totals.get(scope)
        if acc is None:
            rnd, through, first = scope
            acc = self.totals[scope] = totals(
                (r for rs in self.hands.values() for r in rs),
                (r for rs in self.pens.values() for r in rs), self.point_rows(),
                round=rnd, through_round=through, first_round=first)
        return acc

    def staged(self, number: int, horizon: int | None) -> dict[int, Any]:
        """Stage ``number``'s (2 or later) totals after round ``horizon`` (kept)."""
        acc = self.stage_totals.get((number, horizon))
        if acc is None:
            acc = self.stage_totals[(number, horizon)] = self._stage_make(number, horizon)
        return acc

    def _stage_make(self, number: int, horizon: int | None,
                    pids: Iterable[int] | None = None) -> dict[int, Any]:
        """Its players' (or those of ``pids`` among them) stage totals: what they carried
        in from the stage before, as it stood at the cut, and their rounds since."""
        st = self.stages[number - 1]
        before = (self.plain((None, st.after_round, None)) if number == 2
                  else self.staged(number - 1, st.after_round))
        since = self.plain((None, horizon, st.first_round))
        wanted = None if pids is None else set(pids)
        who = st.players if wanted is None else [p for p in st.players if p in wanted]
        return {pid: carried(before.get(pid), since.get(pid), st.factor) for pid in who}

    def bring_forward(self, touched: Iterable[int]) -> None:
        """After the hand and penalty rows of the ``touched`` players changed: place their
        tables again, add up again the totals of every player that moves (in every kept
        scope and stage) and mark them to move in the kept leaderboards."""
        ids = sorted(touched)
        if self.places is not None:  # the tables they sat at, placed again
            ids = sorted(self.places.refresh(ids, self.hands))
        points = self.point_rows(ids)
        for (rnd, through, first), acc in self.totals.items():
            fresh = totals((r for pid in ids for r in self.hands.get(pid, ())),
                           (r for pid in ids for r in self.pens.get(pid, ())), points,
                           round=rnd, through_round=through, first_round=first)
            for pid in ids:
                if pid in fresh:
                    acc[pid] = fresh[pid]
                else:
                    acc.pop(pid, None)
        for number, horizon in sorted(self.stage_totals, key=lambda k: k[0]):
            self.stage_totals[(number, horizon)].update(
                self._stage_make(number, horizon, ids))
        for key in self.rankings:
            self.moved.setdefault(key, set()).update(ids)
