"""Team standings (pure): the players' standings rows added up per team, then ranked.

A team's row is the sum of its members' rows *as the standings give them* — whatever
scope (a round, after round N) and whatever score columns they carry — so the team sums
can never disagree with the players' lines they come from: no chip is counted twice over.
Every numeric column of :class:`~.models.StandingRow` is summed except the rank and the id
(``largest_win_fan`` is the members' best); a column the standings gain later is summed
without a change here. Teams are ranked by the tournament's tie-break order over those
sums; teams equal on every key share a rank (1, 2, 2, 4), as players do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .models import StandingRow, TeamRow

#: columns of a player's row that are not scores (never added up)
NOT_SUMMED = frozenset({"rank", "player_id"})
#: columns whose team figure is the best member's, not the sum
BEST_OF = frozenset({"largest_win_fan"})


def score_columns(row: StandingRow) -> list[str]:
    """The numeric columns of a standings row, in their order (what a team row adds up)."""
    return [f.name for f in dataclasses.fields(row) if f.name not in NOT_SUMMED
            and isinstance(getattr(row, f.name), int | float | Fraction)
            and not isinstance(getattr(row, f.name), bool)]


def team_table(rows: Sequence[StandingRow], teams: Mapping[int, str],
               tie_break: Sequence[str]) -> list[TeamRow]:
    """Rows of the teams that have a member in ``rows`` (``teams``: player id → team name;
    players without one count for no team), ranked; ``rows`` are the players' standings."""
    members: dict[str, list[StandingRow]] = {}
    for r in rows:
        team = teams.get(r.player_id)
        if team:
            members.setdefault(team, []).append(r)
    if not members:
        return []
    columns = score_columns(rows[0])
    summed = []
    for team, mine in members.items():
        totals: dict[str, Any] = {}
        for c in columns:
            values = [getattr(r, c) for r in mine]
            totals[c] = max(values) if c in BEST_OF else sum(values)
        per_round: dict[int, int] = {}
        for r in mine:
            for n, chips in r.per_round.items():
                per_round[n] = per_round.get(n, 0) + chips
        summed.append((team, tuple(r.player for r in mine), totals, dict(sorted(per_round.items()))))
    order = {team: _key(totals, tie_break) for team, _, totals, _ in summed}
    summed.sort(key=lambda x: (order[x[0]], x[0]))
    return _ranked(summed, [order[x[0]] for x in summed])


def _key(totals: Mapping[str, Any], tie_break: Sequence[str]) -> tuple[Any, ...]:
    """The tie-break order over a team's sums: more first, or fewer for a ``-key``; keys
    the sums lack (none today) are left out."""
    return tuple(totals[k[1:]] if k.startswith("-") else -totals[k]
                 for k in tie_break if k.lstrip("-") in totals)


def _ranked(summed: Iterable[tuple[str, tuple[str, ...], dict[str, Any], dict[int, int]]],
            keys: list[tuple[Any, ...]]) -> list[TeamRow]:
    out = []
    rank = 0
    for i, (team, names, totals, per_round) in enumerate(summed):
        if i == 0 or keys[i] != keys[i - 1]:
            rank = i + 1
        tied = (i > 0 and keys[i - 1] == keys[i]) or (i + 1 < len(keys) and keys[i + 1] == keys[i])
        out.append(TeamRow(rank, team, names, totals, per_round, tied))
    return out
