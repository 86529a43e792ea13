"""Team-mates at one table (pure): how many pairs a seating has and the fewest it could.

A team event keeps team-mates apart when it seats a round (``round seat``, ``round plan``,
``round reseat``); these two counts are what every seating path reports, and what the
searches aim at.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence


def team_pairs(tables: Iterable[Sequence[int]], teams: Mapping[int, str]) -> int:
    """Pairs of team-mates sharing a table, summed over ``tables`` (``teams``: player →
    team name, "" or missing for none)."""
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2)
               if teams.get(a) and teams.get(a) == teams.get(b))


def least_team_pairs(seated: Iterable[int], tables: int, teams: Mapping[int, str]) -> int:
    """The fewest team-mate pairs one round can have: each team's seated members spread
    over the ``tables`` as evenly as they go (a team of 5 at 4 tables: one pair)."""
    sizes = Counter(teams[p] for p in seated if teams.get(p))
    out = 0
    for k in sizes.values():
        q, r = divmod(k, max(1, tables))
        out += r * (q + 1) * q // 2 + (tables - r) * q * (q - 1) // 2
    return out


def team_numbers(players: Sequence[int], teams: Mapping[int, str] | None
                 ) -> list[int] | None:
    """Each player's team as a number by index (a player without a team: a negative number
    of their own), or None when nobody has a team."""
    if not teams or not any(teams.get(p) for p in players):
        return None
    names: dict[str, int] = {}
    return [names.setdefault(teams[p], len(names)) if teams.get(p) else -1 - i
            for i, p in enumerate(players)]


def team_round(players: Sequence[int], size: int, teams: Mapping[int, str]
               ) -> list[list[int]] | None:
    """Every player at a table of ``size`` with each team whole at one table (teams packed
    largest first, players without a team filling the seats left), or None when the teams
    do not fit so. Laid onto a class of a design, such a round keeps team-mates apart in
    every other class."""
    groups: dict[str, list[int]] = {}
    loose: list[int] = []
    for p in players:
        (groups.setdefault(teams[p], []) if teams.get(p) else loose).append(p)
    if len(players) % size or any(len(g) > size for g in groups.values()):
        return None
    tables: list[list[int]] = [[] for _ in range(len(players) // size)]
    for g in sorted(groups.values(), key=len, reverse=True):
        fit = [t for t in tables if len(t) + len(g) <= size]
        if not fit:
            return None
        max(fit, key=len).extend(g)  # best fit: the fullest table it still fits
    for t in tables:
        while len(t) < size:
            t.append(loose.pop())
    return tables
