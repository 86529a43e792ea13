"""The live results' data, brought forward one save at a time.

:class:`Results` holds what the results pages and the API's shared reads show — the
players, each round's progress per table, each player's statement, the hands on players'
pages — as at one revision of the record. :meth:`Results.advance` reads the chain's entries
since (``storage/changes.py``) and forgets only what they touched: a hand saved at table 7
of round 3 reads table 7's progress and its four players' statements again, nothing else.
A change of the event's structure (players, seating, settings) forgets everything. The
seatings and the standings' sums are kept the same way by the storage itself.

One :class:`Results` belongs to one thread (the results worker, ``state.py``) and its
connection, and is read inside one read transaction per request, so a page is made of one
state of the file. Every value handed out is shared and never changed afterwards: a page's
data unchanged since the last revision is the same objects, which is how the page cache
tells that a page need not be rendered again.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from referee_app.storage import (
    HandInfo,
    Penalty,
    Player,
    PlayerStatement,
    Tournament,
    TournamentInfo,
)
from referee_app.storage import changes as changes_mod
from referee_app.storage.models import RoundInfo, RoundState, Stage, StandingRow, TeamRow
from referee_app.storage.progress import RoundProgress, round_progress, table_progress

#: values kept per kind at most (players' pages of a 1,000-player event fit; a flood of
#: other keys only pushes out the oldest)
KEEP = 4096


class _Lru(OrderedDict[Hashable, Any]):
    """A bounded mapping that forgets the least recently used entry first."""

    def get_or(self, key: Hashable, make: Callable[[], Any]) -> Any:
        if key in self:
            self.move_to_end(key)
            return self[key]
        value = self[key] = make()
        if len(self) > KEEP:
            self.popitem(last=False)
        return value


class Results:
    """The results at :attr:`revision` (see the module doc); read it on one thread only."""

    def __init__(self) -> None:
        self.revision = -1
        self._of: Tournament | None = None  # the connection the results were read through
        self._reset()

    def _reset(self) -> None:
        self._info: TournamentInfo | None = None
        self._players: dict[int, Player] | None = None
        self._latin: dict[str, str] | None = None
        self._rounds: list[RoundInfo] | None = None
        #: the round numbers: a change of the structure makes them again, a hand does not
        #: (unlike the rounds' hand counts above)
        self._round_numbers: tuple[int, ...] | None = None
        self._stages: list[Stage] | None = None
        self._in_play: RoundState | None = None
        self._progress: dict[int, RoundProgress] = {}
        self._statements = _Lru()
        self._hands = _Lru()
        self._penalties = _Lru()
        self._standings: dict[tuple[int | None, int | None, str | None],
                              list[StandingRow]] = {}
        self._teams: dict[tuple[int | None, int | None, str | None], list[TeamRow]] = {}
        self._provisional: dict[tuple[int | None, int | None], int] = {}
        self._views = _Lru()
        self._json: OrderedDict[int, tuple[Any, Any]] = OrderedDict()

    def advance(self, t: Tournament) -> int:
        """Bring the results to the record as it is now (call inside a read transaction);
        returns the revision."""
        conn = t.db.conn
        now = changes_mod.head(conn)
        if t is not self._of:  # another connection: the file may have been replaced
            self._of, self.revision = t, -1
        if now == self.revision:
            return now
        c = changes_mod.since(conn, self.revision, now) if self.revision >= 0 else None
        if c is None or c.touches(changes_mod.STRUCTURE):
            self._reset()
        else:
            if c.hand_ids() or c.penalty_ids():
                self._rounds = None  # the hands entered per round
                self._in_play = None  # without a start: the latest round with a hand
                self._standings.clear()
                self._teams.clear()
                self._provisional.clear()
                for pid in changes_mod.players_of(conn, c):
                    self._statements.pop(pid, None)
                    self._penalties.pop(pid, None)
                for hid in c.hand_ids():
                    self._hands.pop(hid, None)
                for rnd, table in changes_mod.tables_of(conn, c):
                    old = self._progress.get(rnd)
                    if old is not None:
                        self._progress[rnd] = old.with_tables([table_progress(t, rnd, table)])
        self.revision = now
        return now

    # -- what the pages read (each computed once per revision at most, then shared)

    def info(self, t: Tournament) -> TournamentInfo:
        if self._info is None:
            self._info = t.info
        return self._info

    def rounds(self, t: Tournament) -> list[RoundInfo]:
        if self._rounds is None:
            self._rounds = t.rounds.list()
        return self._rounds

    def round_numbers(self, t: Tournament) -> tuple[int, ...]:
        if self._round_numbers is None:
            self._round_numbers = tuple(r.number for r in self.rounds(t))
        return self._round_numbers

    def players(self, t: Tournament) -> dict[int, Player]:
        if self._players is None:
            self._players = {p.id: p for p in t.players.list()}
        return self._players

    def latin(self, t: Tournament) -> dict[str, str]:
        """Each player's Latin name by name (find-your-seat)."""
        if self._latin is None:
            self._latin = {p.name: p.name_latin for p in self.players(t).values()}
        return self._latin

    def standings(self, t: Tournament, round: int | None = None,
                  through: int | None = None, stage: str | None = None) -> list[StandingRow]:
        """The leaderboard (``stage``: one stage alone, by its number or name)."""
        key = (round, through, stage)
        if key not in self._standings:
            self._standings[key] = t.standings.table(round, through_round=through,
                                                     stage=stage)
        return self._standings[key]

    def stages(self, t: Tournament) -> list[Stage]:
        """The event's stages (read again only when its structure changes)."""
        if self._stages is None:
            self._stages = t.standings.stages()
        return self._stages

    def teams(self, t: Tournament, round: int | None = None,
              through: int | None = None, stage: str | None = None) -> list[TeamRow]:
        """The team standings of that scope ([] without teams), kept as the standings are:
        made again after a save that touched hands or penalties."""
        key = (round, through, stage)
        if key not in self._teams:
            self._teams[key] = t.standings.teams(round, through_round=through, stage=stage)
        return self._teams[key]

    def has_teams(self, t: Tournament) -> bool:
        """A team event: some player has a team (the pages offer the team standings)."""
        return any(p.team for p in self.players(t).values())

    def ids(self, t: Tournament) -> dict[str, int]:
        """Each player's id by name (team members link to their pages)."""
        return self._views.get_or("ids", lambda: {p.name: p.id
                                                  for p in self.players(t).values()})

    def provisional(self, t: Tournament, round: int | None = None,
                    through: int | None = None) -> int:
        key = (round, through)
        if key not in self._provisional:
            self._provisional[key] = t.standings.provisional(round, through_round=through)
        return self._provisional[key]

    def progress(self, t: Tournament, round_no: int) -> RoundProgress:
        """A seated round's progress (StorageError if it is not seated); after a save, only
        the tables it touched are read again."""
        if round_no not in self._progress:
            self._progress[round_no] = round_progress(t, round_no)
        return self._progress[round_no]

    def statement(self, t: Tournament, player_id: int) -> PlayerStatement:
        return self._statements.get_or(player_id, lambda: t.standings.statement(player_id))  # type: ignore[no-any-return]

    def hand(self, t: Tournament, hand_id: int) -> HandInfo:
        return self._hands.get_or(hand_id, lambda: t.hands.get(hand_id))  # type: ignore[no-any-return]

    def penalties(self, t: Tournament, player_id: int) -> list[Penalty]:
        return self._penalties.get_or(player_id, lambda: t.penalties.list(player=player_id))  # type: ignore[no-any-return]

    def found(self, t: Tournament, round_no: int, query: str
              ) -> list[tuple[str, int | None, str]]:
        """Find-your-seat: (name, table, seat) of each player of the round whose name or
        Latin name holds ``query`` (any case); a player not at a table this round is found
        too, as (name, None, "bye") or (name, None, "absent")."""
        index = self._views.get_or(("seat-index", round_no),
                                   lambda: self._seat_index(t, round_no))
        q = query.casefold()
        return self._views.get_or(("found", round_no, q), lambda: [
            (name, table, seat) for low, latin, name, table, seat in index
            if q in low or q in latin])

    def _seat_index(self, t: Tournament, round_no: int
                    ) -> list[tuple[str, str, str, int | None, str]]:
        s = t.rounds.seating(round_no)
        seated = [(name, table, seat) for table, row in s.tables.items()
                  for seat, name in row.items()]
        names = {n for n, _, _ in seated}
        away = [*((n, None, "bye") for n in s.byes),
                *((n, None, "absent") for n in s.absent if n not in names)]
        return [(name.casefold(), self.latin(t).get(name, "").casefold(), name, table, seat)
                for name, table, seat in seated + away]

    def json_of(self, value: Any, make: Callable[[Any], Any]) -> Any:
        """``make(value)`` (its JSON) once per object: the rows a save did not change are
        the same objects as before (``ranking.rank``, :meth:`advance`), so a standings or
        progress answer converts only the rows that changed."""
        hit = self._json.get(id(value))
        if hit is None or hit[0] is not value:
            hit = self._json[id(value)] = (value, make(value))
            if len(self._json) > 4 * KEEP:
                self._json.popitem(last=False)
        return hit[1]

    def view(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """A value made from something that never changes once saved (a hand's version:
        its key names the version), kept until the event's structure or settings change."""
        return self._views.get_or(key, make)

    def player(self, t: Tournament, player_id: int) -> Player | None:
        return self.players(t).get(player_id)

    def in_play(self, t: Tournament) -> RoundState | None:
        """The round in play (``round start``; else the latest round with a hand, else
        round 1), when it is seated: every page's clock line."""
        if self._in_play is None:
            self._in_play = t.rounds.in_play()
        return self._in_play if self.seated(t, self._in_play.round) else None

    def current_round(self, t: Tournament) -> int | None:
        """The round in play (else the first seated round): the pages' default round."""
        playing = self.in_play(t)
        if playing is not None:
            return playing.round
        numbers = self.round_numbers(t)
        return numbers[0] if numbers else None

    def seated(self, t: Tournament, round_no: int | None) -> bool:
        # (the numbers, kept until the structure changes: every page asks this, and the
        # rounds with their hand counts are read again after each save)
        return round_no is not None and round_no in self.round_numbers(t)


__all__ = ["Results"]
