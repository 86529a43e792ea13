"""Penalties: chips taken from players (optionally zero-sum, shared by the others) and voids."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any

from . import db as dbm
from . import round_state
from .checks import (
    MAX_REASON,
    PlayerRef,
    check_chips,
    check_text,
    dump,
    lookup_int,
    positive_int,
    shown,
)
from .errors import (
    PenaltyError,
)
from .models import (
    Penalty,
)
from .players import Players
from .scoring import MAX_POINTS
from .store import Store


class Penalties:
    """``t.penalties``: chips taken from players (or zero-sum among tablemates), and voids."""

    def __init__(self, store: Store, players: Players) -> None:
        self.store = store
        self.db = store.db
        self.players = players

    def add(self, players: Sequence[PlayerRef] | PlayerRef, chips: int, reason: str, *,
                    clause: str | None = None, referee: str = "", zero_sum: bool = False,
                    round: int | None = None, unit: str = "chips") -> Penalty:
        """Take ``chips`` from each named player (negative chips: a credit/adjustment).

        ``zero_sum``: each penalised player pays ``chips`` to each other player at their
        table in ``round``, so the tournament total stays zero. Otherwise it is a
        deduction. It counts in ``round``'s column of the standings; without one, in the
        round in play (:meth:`Rounds.in_play <.rounds.Rounds.in_play>`).
        ``unit="points"`` (placement scoring only): that many placement points (比赛分)
        instead, a deduction (a credit when negative) that never moves a place at a table;
        its round is found the same way.
        """
        referee = self.store.authorize(referee, head=True, action="a penalty")
        if isinstance(players, str | int):
            players = [players]
        if not players:
            raise PenaltyError.of("players", "penalty_no_players")
        if unit not in ("chips", "points"):
            raise PenaltyError.of("unit", "unknown_penalty_unit", got=str(unit)[:20])
        if unit == "points":
            if not self.store.info.placement:
                raise PenaltyError.of("unit", "points_penalty_needs_placement")
            if zero_sum:
                raise PenaltyError.of("zero_sum", "points_penalty_not_zero_sum")
            if isinstance(chips, bool) or not isinstance(chips, int) or chips == 0 \
                    or abs(chips) > MAX_POINTS:
                raise PenaltyError.of("points", "bad_penalty_points", max=MAX_POINTS,
                                      got=shown(chips))
        elif check_chips(chips, "chips") == 0:
            raise PenaltyError.of("chips", "bad_chips", got=0)
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        clause = check_text(clause, "clause") or None
        referee = check_text(referee, "referee")
        ids = []
        for i, p in enumerate(players):
            pid = self.players.id_of(p, f"players[{i}]")
            if pid in ids:
                raise PenaltyError.of(f"players[{i}]", "penalty_player_twice", player=p)
            ids.append(pid)
        round = (positive_int(round, "round") if round is not None
                 else round_state.in_play(self.db).round)
        entries: Counter[int] = Counter()
        if zero_sum:
            for i, pid in enumerate(ids):
                r = self.db.execute("SELECT table_no FROM seats WHERE round=? AND player_id=?",
                                    (round, pid)).fetchone()
                if r is None:
                    raise PenaltyError.of(f"players[{i}]", "penalty_player_not_seated",
                                          name=self.players.get(pid).name, round=round)
                mates = [m for (m,) in self.db.execute(
                    "SELECT player_id FROM seats WHERE round=? AND table_no=? AND player_id<>?",
                    (round, r[0], pid)).fetchall()]
                entries[pid] -= chips * len(mates)
                for m in mates:
                    entries[m] += chips
        else:
            for pid in ids:
                entries[pid] -= chips
        at = dbm.now()
        with self.store.write():
            penalties = self.db["penalties"].insert({
                "players": dump(ids), "chips": chips, "reason": reason, "clause": clause,
                "referee": referee, "at": at, "zero_sum": int(zero_sum), "round": round,
                "unit": unit})
            pen_id = int(penalties.last_pk or 0)
            self.db["penalty_entries"].insert_all(
                {"penalty_id": pen_id, "player_id": pid, "chips": c}
                for pid, c in entries.items() if c)
            self.store.note(referee, "penalty.add", {"penalty_id": pen_id, "players": ids,
                                               "chips": chips, "reason": reason,
                                               **({"unit": unit} if unit != "chips" else {})},
                            at)
        self.store.saved()
        return self.get(pen_id)

    def void(self, penalty_id: int, *, reason: str, referee: str = "") -> Penalty:
        """Cancel a penalty: it stays listed (void) and counts nothing."""
        referee = self.store.authorize(referee, head=True, action="voiding a penalty")
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        p = self.get(penalty_id)
        if p.void:
            raise PenaltyError.of("penalty_id", "penalty_already_void", penalty_id=penalty_id)
        at = dbm.now()
        with self.store.write():
            self.db["penalty_voids"].insert({"penalty_id": penalty_id, "reason": reason,
                                             "referee": check_text(referee, "referee"),
                                             "at": at})
            self.store.note(referee, "penalty.void", {"penalty_id": penalty_id, "reason": reason}, at)
        self.store.saved()
        return self.get(penalty_id)

    def get(self, penalty_id: int) -> Penalty:
        penalty_id = lookup_int(penalty_id, "penalty_id")
        rows = self.list(_only=penalty_id)
        if not rows:
            raise PenaltyError.of("penalty_id", "unknown_penalty", penalty_id=penalty_id)
        return rows[0]

    def list(self, *, player: PlayerRef | None = None, _only: int | None = None
                  ) -> list[Penalty]:
        # (each id's name, not every player read whole: a player's page asks this on
        # every change of their results)
        names = dict(self.db.execute("SELECT id, name FROM players").fetchall())
        q = ("SELECT p.id, p.players, p.chips, p.reason, p.clause, p.referee, p.at, p.zero_sum, "
             "p.round, v.reason, p.unit FROM penalties p LEFT JOIN penalty_voids v ON "
             "v.penalty_id=p.id")
        params: list[Any] = []
        if _only is not None:
            q += " WHERE p.id=?"
            params.append(_only)
        entries: dict[int, dict[str, int]] = defaultdict(dict)
        for pen, pid, c in self.db.execute("SELECT penalty_id, player_id, chips FROM "
                                           "penalty_entries").fetchall():
            entries[pen][names[pid]] = c
        out = []
        for r in self.db.execute(q + " ORDER BY p.id", params).fetchall():
            out.append(Penalty(r[0], tuple(names[i] for i in json.loads(r[1])), r[2], r[3], r[4],
                               r[5], r[6], bool(r[7]), r[8], entries[r[0]], r[9] is not None,
                               r[9], r[10]))
        if player is not None:
            name = self.players.get(player).name
            out = [p for p in out if name in p.entries]
        return out

