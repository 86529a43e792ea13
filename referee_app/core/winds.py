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
            done = shifted_block(block, size, recent) or complete_block(block, size, used)
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
