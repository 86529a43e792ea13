"""Seat winds for a seating plan (pure): who sits E, S, W, N at each planned table.

Rounds are taken in blocks of ``size`` rounds; in a block, players and tables form a
bipartite graph of maximum degree ``size``, which König's theorem colours with ``size``
winds so that every table has all winds and no player has one wind twice — spread 0 when
the rounds are a multiple of the table size, at most 1 otherwise. A block left unfinished
by played rounds is completed exactly when it can be (:func:`shifted_block`,
:func:`complete_block`); :func:`polish_winds` then evens out what byes leave.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence


def colour_bipartite(tables: list[tuple[int, list[int]]], size: int,
                     counts: Mapping[int, Counter[int]] | None = None
                     ) -> dict[tuple[int, int], int]:
    """Edge-colour the bipartite player–table graph of a block with ``size`` winds.

    ``tables`` lists (table key, players). Returns (table key, player) → wind index. Every
    table gets all winds and no player gets a wind twice within the block (König); free
    choices go to the wind the player has had least.
    """
    counts = counts if counts is not None else defaultdict(Counter)
    at_p: dict[int, dict[int, int]] = defaultdict(dict)  # player -> wind -> table key
    at_t: dict[int, dict[int, int]] = defaultdict(dict)  # table key -> wind -> player
    for key, members in tables:
        for p in members:
            free_p = [c for c in range(size) if c not in at_p[p]]
            free_t = [c for c in range(size) if c not in at_t[key]]
            a = min(free_p, key=lambda c: (counts.get(p, Counter())[c], c in at_t[key], c))
            if a not in at_t[key]:
                at_p[p][a] = key
                at_t[key][a] = p
                continue
            b = free_t[0]
            # flip the a/b path that starts at table `key` with its a-coloured edge
            path: list[tuple[int, int, int]] = []  # (player, table, colour)
            t, colour = key, a
            while colour in at_t[t]:
                q = at_t[t][colour]
                path.append((q, t, colour))
                other = b if colour == a else a
                if other not in at_p[q]:
                    break
                t = at_p[q][other]
                path.append((q, t, other))
                colour = a if other == b else b
                if colour not in at_t[t]:
                    break
            for q, t2, c in path:
                del at_p[q][c]
                del at_t[t2][c]
            for q, t2, c in path:
                nc = b if c == a else a
                at_p[q][nc] = t2
                at_t[t2][nc] = q
            at_p[p][a] = key
            at_t[key][a] = p
    return {(key, p): c for key, wc in at_t.items() for c, p in wc.items()}


def complete_block(block: list[list[list[int]]], size: int,
                    used: dict[int, set[int]], limit: int = 20_000
                    ) -> list[list[list[int]]] | None:
    """Seat a block's tables so nobody repeats a wind already had in the block (``used``:
    the winds of the played rounds of the same block) — a depth-first search over each
    table's seat orders, or None when ``limit`` steps find none."""
    tables = [(k, t, members) for k, rnd in enumerate(block) for t, members in enumerate(rnd)]
    perms = list(itertools.permutations(range(size)))
    choice: list[tuple[int, ...]] = []
    steps = 0

    def fits(members: list[int], order: tuple[int, ...]) -> bool:
        return all(order[i] not in used[p] for i, p in enumerate(members))

    def dfs(i: int) -> bool:
        nonlocal steps
        if i == len(tables):
            return True
        members = tables[i][2]
        for order in perms:
            steps += 1
            if steps > limit:
                return False
            if fits(members, order):
                for j, p in enumerate(members):
                    used[p].add(order[j])
                choice.append(order)
                if dfs(i + 1):
                    return True
                choice.pop()
                for j, p in enumerate(members):
                    used[p].discard(order[j])
        return False

    if not dfs(0):
        return None
    out = [[[] for _ in rnd] for rnd in block]
    for (k, t, members), order in zip(tables, choice, strict=True):
        seated = [0] * size
        for j, p in enumerate(members):
            seated[order[j]] = p
        out[k][t] = seated
    return out


def shifted_block(block: list[list[list[int]]], size: int,
                   recent: Mapping[int, Sequence[int]]) -> list[list[list[int]]] | None:
    """After one played round: planned round k seats each player at (their last wind +
    k + 1) mod size — every wind once per player in the block, and distinct at a table
    whenever its players had distinct winds (what the design relabelling aims for)."""
    if any(len(w) != 1 for w in recent.values()):
        return None
    out = []
    for k, rnd in enumerate(block):
        seated_round = []
        for members in rnd:
            order: list[int | None] = [None] * size
            for p in members:
                if p not in recent:
                    return None
                c = (recent[p][0] + k + 1) % size
                if order[c] is not None:
                    return None
                order[c] = p
            seated_round.append([p for p in order if p is not None])
        out.append(seated_round)
    return out


def _two_sat(n: int, clauses: list[tuple[int, bool, int, bool]]) -> list[bool] | None:
    """Solve 2-SAT over ``n`` variables; a clause (a, va, b, vb) means a==va or b==vb.
    Kosaraju's strongly connected components on the implication graph, iteratively."""
    graph: list[list[int]] = [[] for _ in range(2 * n)]  # node 2v+1: v true, 2v: v false
    for a, va, b, vb in clauses:
        na, nb = 2 * a + va, 2 * b + vb
        graph[na ^ 1].append(nb)  # not (a==va) -> b==vb
        graph[nb ^ 1].append(na)
    order: list[int] = []
    seen = [False] * (2 * n)
    for s in range(2 * n):
        if seen[s]:
            continue
        seen[s] = True
        stack = [(s, 0)]
        while stack:
            v, i = stack[-1]
            if i < len(graph[v]):
                stack[-1] = (v, i + 1)
                w = graph[v][i]
                if not seen[w]:
                    seen[w] = True
                    stack.append((w, 0))
            else:
                order.append(v)
                stack.pop()
    back: list[list[int]] = [[] for _ in range(2 * n)]
    for v, ws in enumerate(graph):
        for w in ws:
            back[w].append(v)
    comp = [-1] * (2 * n)
    c = 0
    for s in reversed(order):
        if comp[s] >= 0:
            continue
        comp[s] = c
        todo = [s]
        while todo:
            v = todo.pop()
            for w in back[v]:
                if comp[w] < 0:
                    comp[w] = c
                    todo.append(w)
        c += 1
    if any(comp[2 * v] == comp[2 * v + 1] for v in range(n)):
        return None
    # components are numbered in topological order: take the literal that comes later
    return [comp[2 * v + 1] > comp[2 * v] for v in range(n)]


def exact_short_block(block: list[list[list[int]]], size: int,
                      recent: Mapping[int, Sequence[int]]) -> list[list[list[int]]] | None:
    """Finish a block left open by played rounds exactly, when one or two rounds are left:
    each player takes each wind they have not had in the block once, every table all
    winds. One round: the missing winds must differ at each table. Two rounds: each
    player's two missing winds are ordered by a 2-SAT (players at one table must not take
    the same wind). None when the tables do not allow it."""
    if len(block) not in (1, 2):
        return None
    missing: dict[int, list[int]] = {}
    for p, had in recent.items():
        m = [w for w in range(size) if w not in had]
        if len(m) != len(block) or len(set(had)) != len(had):
            return None
        missing[p] = m
    members = [p for rnd in block for t in rnd for p in t]
    if any(p not in missing for p in members):
        return None
    if len(block) == 1:
        out = []
        for t in block[0]:
            ws = [missing[p][0] for p in t]
            if len(set(ws)) != len(t):
                return None
            out.append([p for _, p in sorted(zip(ws, t, strict=True))])
        return [out]
    ids = sorted(missing)
    var = {p: i for i, p in enumerate(ids)}
    clauses = []
    for k, rnd in enumerate(block):  # v true: first missing wind in round 0
        for t in rnd:
            for p, q in itertools.combinations(t, 2):
                for vp in (True, False):
                    for vq in (True, False):
                        wp = missing[p][0 if vp == (k == 0) else 1]
                        wq = missing[q][0 if vq == (k == 0) else 1]
                        if wp == wq:
                            clauses.append((var[p], not vp, var[q], not vq))
    got = _two_sat(len(ids), clauses)
    if got is None:
        return None
    out2 = []
    for k, rnd in enumerate(block):
        seated = []
        for t in rnd:
            ws = [missing[p][0 if got[var[p]] == (k == 0) else 1] for p in t]
            seated.append([p for _, p in sorted(zip(ws, t, strict=True))])
        out2.append(seated)
    return out2


def order_for_open_block(groups: list[list[list[int]]], size: int,
                         recent: Mapping[int, Sequence[int]]) -> list[list[list[int]]]:
    """Put first the planned rounds (one or two) that can finish the open wind block
    exactly; the order of planned rounds does not change who meets whom."""
    r = size - len(next(iter(recent.values()), ())) if recent else 0
    if r not in (1, 2) or len(groups) < r:
        return groups
    missing = {p: [w for w in range(size) if w not in had] for p, had in recent.items()}

    def can_seat(rnd: list[list[int]]) -> bool:  # each table alone: distinct missing winds
        return all(p in missing for t in rnd for p in t) and all(
            any(len(set(ws)) == len(t) for ws in itertools.product(*(missing[p] for p in t)))
            for t in rnd)

    fit = [k for k, g in enumerate(groups) if can_seat(g)]
    # two rounds in either order are the same 2-SAT (the variables negated)
    for pick in itertools.combinations(fit, r):
        if exact_short_block([groups[k] for k in pick], size, recent) is not None:
            return [groups[k] for k in pick] + [g for k, g in enumerate(groups)
                                                if k not in pick]
    return groups


def balance_block_winds(groups: list[list[list[int]]], size: int, played_rounds: int,
           counts: dict[int, Counter[int]],
           shuffle: random.Random | None = None,
           recent: Mapping[int, Sequence[int]] | None = None) -> list[list[list[int]]]:
    """Order each planned table's players by seat, block by block of ``size`` rounds
    (``shuffle``: colour the tables in a seeded random order — another attempt;
    ``recent``: each player's winds in the played rounds of an unfinished block, which
    the first planned rounds complete exactly when a search finds a way)."""
    out: list[list[list[int]]] = []
    r = 0
    first = size - played_rounds % size if played_rounds % size else size
    while r < len(groups):
        length = first if r == 0 else size
        block = groups[r:r + length]
        if r == 0 and length < size and recent is not None:
            used = defaultdict(set, {p: set(w) for p, w in recent.items()})
            done = shifted_block(block, size, recent) or \
                exact_short_block(block, size, recent) or complete_block(block, size, used)
            if done is not None:
                for rnd in done:
                    for table in rnd:
                        for c, p in enumerate(table):
                            counts[p][c] += 1
                out += done
                r += length
                continue
        keyed = [(k * 10_000 + t, members) for k, rnd in enumerate(block)
                 for t, members in enumerate(rnd)]
        if shuffle is not None:
            shuffle.shuffle(keyed)
        colour = colour_bipartite(keyed, size, counts)
        for k, rnd in enumerate(block):
            seated = []
            for t, members in enumerate(rnd):
                order = [0] * size
                for p in members:
                    c = colour[(k * 10_000 + t, p)]
                    order[c] = p
                    counts[p][c] += 1
                seated.append(order)
            out.append(seated)
        r += length
    return out


def polish_winds(rounds: list[list[list[int]]], size: int,
                  counts: dict[int, Counter[int]]) -> None:
    """Re-order single tables while that evens out players' totals (after played rounds or
    byes the blocks alone may leave a spread of 2); sums of squares only ever go down."""
    perms = list(itertools.permutations(range(size)))
    for _ in range(4):
        changed = False
        for rnd in rounds:
            for k, table in enumerate(rnd):
                for i, p in enumerate(table):
                    counts[p][i] -= 1

                def score(order: tuple[int, ...], table: list[int] = table) -> int:
                    return sum(2 * counts[table[j]][i] for i, j in enumerate(order))

                here = tuple(range(size))
                best = min(perms, key=lambda o: (score(o), o != here))
                if best != here:
                    rnd[k] = table = [table[j] for j in best]
                    changed = True
                for i, p in enumerate(table):
                    counts[p][i] += 1
        if not changed:
            break
