"""Seating generation (pure: no database): who sits at which table and seat in a round.

Round 1 is a seeded shuffle. Later rounds minimise *repeat opponents* (pairs of players
who already shared a table), then balance seats (nobody is E every round) — a seeded
random-restart local search over player swaps, so the same seed and history give the
same seating on every machine. In a team event, team-mates at one table weigh more than
any repeat (:data:`TEAM_WEIGHT`): they sit apart whenever the numbers allow.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from referee_app.core.teams import least_team_pairs

if TYPE_CHECKING:  # imported where a seating is drawn: hand add and standings never do
    import random

Pair = tuple[int, int]


def pair(a: int, b: int) -> Pair:
    return (a, b) if a < b else (b, a)


#: a pair of team-mates at one table against a pair meeting again (m² for the m-th time
#: again): above any repeats a swap can change
TEAM_WEIGHT = 1_000_000


def meet(met: Counter[Pair], tables: Sequence[Sequence[int]]) -> None:
    """Count in ``met`` that each pair at each table met (once more)."""
    for t in tables:
        for a, b in itertools.combinations(t, 2):
            met[pair(a, b)] += 1


def repeat_pairs(tables: Sequence[Sequence[int]], met: Mapping[Pair, int]) -> int:
    """Number of same-table pairs that already met in an earlier round."""
    return sum(1 for t in tables for a, b in itertools.combinations(t, 2) if met.get(pair(a, b)))


def _pair_cost(a: int, b: int, met: Mapping[Pair, int], teams: Mapping[int, str]) -> int:
    # squared so that meeting someone a third time costs more than two first repeats
    c = met.get(pair(a, b), 0) ** 2
    if teams and teams.get(a) and teams.get(a) == teams.get(b):
        c += TEAM_WEIGHT
    return c


def _cost(tables: Sequence[Sequence[int]], met: Mapping[Pair, int],
          teams: Mapping[int, str]) -> int:
    return sum(_pair_cost(a, b, met, teams) for t in tables
               for a, b in itertools.combinations(t, 2))


def _local_search(tables: list[list[int]], met: Mapping[Pair, int], rng: random.Random,
                  teams: Mapping[int, str]) -> int:
    """Swap players between tables while that lowers the cost; returns the cost."""

    def member_cost(p: int, table: list[int], skip: int) -> int:
        return sum(_pair_cost(p, q, met, teams) for q in table if q != p and q != skip)

    improved = True
    n = len(tables)
    while improved:
        improved = False
        order = [(i, a) for i in range(n) for a in range(len(tables[i]))]
        rng.shuffle(order)
        for i, a in order:
            p = tables[i][a]
            here = member_cost(p, tables[i], -1)
            if here == 0:
                continue
            best: tuple[int, int, int] | None = None
            for j in range(n):
                if j == i:
                    continue
                for b, q in enumerate(tables[j]):
                    delta = (member_cost(p, tables[j], q) + member_cost(q, tables[i], p)
                             - here - member_cost(q, tables[j], -1))
                    if delta < 0 and (best is None or delta < best[0]):
                        best = (delta, j, b)
            if best is not None:
                _, j, b = best
                tables[i][a], tables[j][b] = tables[j][b], tables[i][a]
                improved = True
    return _cost(tables, met, teams)


def _balance_seats(table: list[int], seats: Sequence[str],
                   seat_counts: Mapping[int, Counter[str]]) -> list[int]:
    """Order one table's players over the seats so nobody keeps the same seat."""
    best: tuple[int, list[int]] | None = None
    for perm in itertools.permutations(table):
        c = sum((seat_counts.get(p, Counter())[s] + 1) ** 2 for p, s in zip(perm, seats, strict=True))
        if best is None or c < best[0]:
            best = (c, list(perm))
    assert best is not None
    return best[1]


def generate(players: Sequence[int], seats: Sequence[str], *, seed: int,
             met: Mapping[Pair, int] | None = None,
             seat_counts: Mapping[int, Counter[str]] | None = None,
             restarts: int | None = None,
             teams: Mapping[int, str] | None = None) -> list[list[int]]:
    """Tables of player ids, each ordered by ``seats``. ``len(players)`` must divide evenly.
    ``teams``: player → team name; team-mates are kept apart before repeats are avoided."""
    size = len(seats)
    if not players or len(players) % size:
        raise ValueError(f"{len(players)} players do not fill tables of {size}")
    import random

    rng = random.Random(seed)
    met = met or {}
    teams = {p: t for p, t in (teams or {}).items() if t}
    seat_counts = seat_counts or {}
    pool = list(players)
    best: tuple[int, list[list[int]]] | None = None
    if restarts is None:
        restarts = 1 if not met and not teams else max(3, min(40, 4000 // len(pool)))
    floor = least_team_pairs(pool, len(pool) // size, teams) * TEAM_WEIGHT
    for _ in range(restarts):
        rng.shuffle(pool)
        tables = [pool[i:i + size] for i in range(0, len(pool), size)]
        cost = _local_search(tables, met, rng, teams) if met or teams else 0
        if best is None or cost < best[0]:
            best = (cost, [list(t) for t in tables])
        if cost <= floor:
            break
    assert best is not None
    return [_balance_seats(t, seats, seat_counts) for t in best[1]]

