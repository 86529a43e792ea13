"""Team standings (pure): the players' standings rows added up per team, then ranked.

A team's row is the sum of its members' rows *as the standings give them* — whatever
scope (a round, after round N) and whatever score columns they carry — so the team sums
can never disagree with the players' lines they come from: no chip is counted twice over.
Every numeric column of :class:`~.models.StandingRow` is summed except the rank, the id and
the stage (``largest_win_fan`` is the members' best; a member who carried nothing adds 0 to
``carried``); a column the standings gain later is summed without a change here. Under
placement scoring the members' points (and points per round) are summed too, and rank
first, as they do for players. Teams are ranked by the tournament's tie-break order over
those sums; teams equal on every key share a rank (1, 2, 2, 4), as players do.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from referee_app.core.scores import Number

from .models import StandingRow, TeamRow
from .ranking import order_of

#: columns of a player's row that are not scores (never added up)
NOT_SUMMED = frozenset({"rank", "player_id", "stage"})
#: columns whose team figure is the best member's, not the sum
BEST_OF = frozenset({"largest_win_fan"})


def _numeric(value: Any) -> bool:
    return isinstance(value, int | float | Fraction) and not isinstance(value, bool)


def score_columns(rows: Sequence[StandingRow]) -> list[str]:
    """The numeric columns of the standings rows, in their order, the points first (what a
    team row adds up): a column is one when any row has a figure in it (``points`` under
    placement scoring, ``carried`` once cut; None in a row adds nothing)."""
    names = [f.name for f in dataclasses.fields(StandingRow) if f.name not in NOT_SUMMED
             and any(_numeric(getattr(r, f.name)) for r in rows)]
    return sorted(names, key=lambda c: c != "points")


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
    columns = score_columns(rows)
    placement = "points" in columns
    summed = []
    for team, mine in members.items():
        totals: dict[str, Any] = {}
        for c in columns:
            values = [v for r in mine if (v := getattr(r, c)) is not None]
            totals[c] = max(values, default=0) if c in BEST_OF else sum(values)
        summed.append((team, tuple(r.player for r in mine), totals,
                       _by_round(r.per_round for r in mine),
                       _by_round(r.per_round_points for r in mine) if placement else {}))
    keys = order_of(tie_break, placement)
    order = {team: _key(totals, keys) for team, _, totals, *_ in summed}
    summed.sort(key=lambda x: (order[x[0]], x[0]))
    return _ranked(summed, [order[x[0]] for x in summed])


def _by_round(members: Iterable[Mapping[int, Number]]) -> dict[int, Any]:
    """The members' figures per round, summed (a round none of them played is absent)."""
    out: dict[int, Any] = {}
    for per in members:
        for n, v in per.items():
            out[n] = out.get(n, 0) + v
    return dict(sorted(out.items()))


def _key(totals: Mapping[str, Any], tie_break: Sequence[str]) -> tuple[Any, ...]:
    """The tie-break order over a team's sums: more first, or fewer for a ``-key``; keys
    the sums lack (none today) are left out."""
    return tuple(totals[k[1:]] if k.startswith("-") else -totals[k]
                 for k in tie_break if k.lstrip("-") in totals)


Summed = tuple[str, tuple[str, ...], dict[str, Any], dict[int, Any], dict[int, Any]]


def _ranked(summed: Iterable[Summed], keys: list[tuple[Any, ...]]) -> list[TeamRow]:
    out = []
    rank = 0
    for i, (team, names, totals, per_round, per_round_points) in enumerate(summed):
        if i == 0 or keys[i] != keys[i - 1]:
            rank = i + 1
        tied = (i > 0 and keys[i - 1] == keys[i]) or (i + 1 < len(keys) and keys[i + 1] == keys[i])
        out.append(TeamRow(rank, team, names, totals, per_round, tied, per_round_points))
    return out
