"""The whole-event planner's search (pure): simulated annealing over swaps of two players
of one round, on a matrix of how often each pair has met.

It minimises, in this order, pairs of team-mates at one table, repeat meetings (a pair
meeting again), and the spread of meetings over all pairs (a pair's cost is C(m, 2) for
m meetings, so three meetings of one pair cost more than two pairs meeting twice). It
stops early at the least possible: the team-mate pairs each round cannot avoid, the
counting bound, and meetings spread evenly. :mod:`.planning` decides which rounds it may
change.
"""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter
from collections.abc import Mapping, Sequence

from .teams import least_team_pairs


def counting_bound(plays: Mapping[int, int], n: int, size: int,
                   mates: Mapping[int, int] | None = None) -> int:
    """Least possible repeats when player p plays ``plays[p]`` rounds among ``n`` players.

    ``mates``: how many team-mates each player has, when team-mates never share a table
    (each then meets at most ``n - 1 - mates[p]`` others before repeating)."""
    mates = mates or {}
    total = sum(max(0, (size - 1) * r - (n - 1 - mates.get(p, 0))) for p, r in plays.items())
    return (total + 1) // 2


#: what one more pair of team-mates at a table weighs in the search, against 1 for a
#: pair's second meeting (m for its m+1-th): above any number of repeats one swap can make
TEAM_WEIGHT = 10_000


class _Search:
    """Simulated annealing over player swaps within a round, on a meetings matrix.

    ``team[i]``: player i's team as a number (each player without a team a number of
    their own); the search then minimises team-mate pairs first, repeats second."""

    def __init__(self, n: int, fixed: Sequence[Sequence[Sequence[int]]],
                 rounds: list[list[list[int]]], rng: random.Random,
                 same_seat: frozenset[int] = frozenset(),
                 team: Sequence[int] | None = None, apart: bool = False) -> None:
        self.n = n
        self.same_seat = same_seat  # rounds whose swaps keep the seat (winds already fixed)
        self.m = [[0] * n for _ in range(n)]
        self.rounds = rounds
        self.rng = rng
        self.team = list(team) if team is not None else None
        for rnd in list(fixed) + rounds:
            for table in rnd:
                self._add(table, 1)
        tm = self.team
        self.clashes = 0 if tm is None else sum(
            1 for rnd in rounds for t in rnd for a, b in itertools.combinations(t, 2)
            if tm[a] == tm[b])
        pairs = [self.m[a][b] for a in range(n) for b in range(a + 1, n)]
        self.repeats = sum(max(0, x - 1) for x in pairs)
        self.cost = sum(x * (x - 1) // 2 for x in pairs)
        # least cost: the meetings spread as evenly as possible over all pairs (when
        # team-mates can be kept apart, over the pairs of players of different teams)
        spread = len(pairs) if tm is None or not apart else sum(
            1 for a in range(n) for b in range(a + 1, n) if tm[a] != tm[b])
        q, r = divmod(sum(pairs), max(1, spread))
        self.least_cost = (spread - r) * (q * (q - 1) // 2) + r * (q * (q + 1) // 2)

    def _add(self, table: Sequence[int], d: int) -> None:
        m = self.m
        for a, b in itertools.combinations(table, 2):
            m[a][b] += d
            m[b][a] += d

    def _move(self, table: list[int], i: int, q: int) -> int:
        """Replace table[i] by q, keeping the matrix and repeats; returns repeats' change."""
        m = self.m
        p = table[i]
        change = 0
        for x in table:
            if x == p:
                continue
            m[p][x] -= 1
            m[x][p] -= 1
            if m[p][x] >= 1:
                change -= 1
            if m[q][x] >= 1:
                change += 1
            m[q][x] += 1
            m[x][q] += 1
        table[i] = q
        return change

    def run(self, bound: int, budget: int, team_bound: int = 0) -> None:
        m, rng, rounds, tm = self.m, self.rng, self.rounds, self.team
        if not rounds or len(rounds[0]) < 2 or (self.clashes <= team_bound
                                                and self.repeats <= bound
                                                and self.cost <= self.least_cost):
            return
        temp = 0.6
        cool = math.exp(math.log(0.02 / temp) / max(1, budget))
        best = (self.clashes, self.repeats, self.cost)
        best_state = [[list(t) for t in r] for r in rounds]
        nt = len(rounds[0])
        for _ in range(budget):
            k = rng.randrange(len(rounds))
            r = rounds[k]
            ta, tb = rng.sample(range(nt), 2)
            A, B = r[ta], r[tb]
            i = rng.randrange(len(A))
            j = i if k in self.same_seat else rng.randrange(len(B))
            p, q = A[i], B[j]
            # cost is sum of C(m, 2); a pair's marginal cost of one more meeting is m
            delta = 0
            for x in A:
                if x != p:
                    delta += m[q][x] - (m[p][x] - 1)
            for y in B:
                if y != q:
                    delta += m[p][y] - (m[q][y] - 1)
            clash = 0
            if tm is not None and tm[p] != tm[q]:
                tp, tq = tm[p], tm[q]
                for x in A:
                    if x != p:
                        clash += (tm[x] == tq) - (tm[x] == tp)
                for y in B:
                    if y != q:
                        clash += (tm[y] == tp) - (tm[y] == tq)
            weighed = delta + TEAM_WEIGHT * clash
            if weighed > 0 and rng.random() >= math.exp(-weighed / temp):
                temp *= cool
                continue
            temp *= cool
            self.repeats += self._move(A, i, q)
            self.repeats += self._move(B, j, p)
            self.cost += delta
            self.clashes += clash
            if (self.clashes, self.repeats, self.cost) < best:
                best = (self.clashes, self.repeats, self.cost)
                best_state = [[list(t) for t in rr] for rr in rounds]
                if (self.clashes <= team_bound and self.repeats <= bound
                        and self.cost <= self.least_cost):
                    break
        if (self.clashes, self.repeats, self.cost) > best:
            for k, r in enumerate(best_state):
                rounds[k][:] = r
            self.clashes, self.repeats, self.cost = best


def search(n: int, size: int, frozen: Sequence[Sequence[Sequence[int]]],
            free: list[list[list[int]]], rng: random.Random, budget: int | None,
            team: Sequence[int] | None, same_seat: frozenset[int] = frozenset()) -> None:
    """Improve the ``free`` rounds (tables of player indexes) in place: team-mates apart
    first, then fewest repeats against every round (``frozen`` ones included)."""
    plays = Counter(p for rnd in [*frozen, *free] for t in rnd for p in t)
    least = 0
    mates: dict[int, int] | None = None
    if team is not None:
        by_index = {i: str(x) for i, x in enumerate(team) if x >= 0}
        least = sum(least_team_pairs([p for t in rnd for p in t], len(rnd), by_index)
                    for rnd in free)
        if least == 0:
            size_of = Counter(by_index.values())
            mates = {i: size_of[x] - 1 for i, x in by_index.items()}
    search = _Search(n, frozen, free, rng, same_seat=same_seat, team=team,
                     apart=least == 0)
    if budget is None:
        budget = min(400_000, 4000 * n * len(free) // size + 20_000)
    search.run(counting_bound({p: plays[p] for p in range(n)}, n, size, mates), budget, least)


