"""Resolvable designs for seating: rounds in which no two players share a table twice.

Pure combinatorics, no randomness of its own (callers pass an ``rng`` for the one search).
A *parallel class* is one round: a partition of the points ``0..n-1`` into tables. Two
classes never put the same pair together, so as many rounds as there are classes can be
played without a single repeat meeting:

- 4 seats, ``n = 4**m``: the lines of the affine geometry AG(m, 4) (points are vectors of
  GF(4)^m, encoded two bits per coordinate so that vector addition is XOR). 16 players get
  the affine plane of order 4 (5 rounds), 64 players AG(3, 4) (21 rounds).
- 4 seats, ``n = 2**k`` with ``k`` odd: the cosets of 2-dimensional subspaces of GF(2)^k
  whose non-zero vectors are pairwise disjoint (a partial spread); 32 players get up to 9
  rounds, 128 players dozens.
- 4 seats, ``n = 28``: the Hermitian unital of order 3, resolved into 9 classes.
- 3 seats (Zigong), ``n = 3**k``: the lines of AG(k, 3) (9 players: 4 rounds, 27: 13).

Players x and y share a table of the class of subspace W exactly when x - y lies in W, so
classes from subspaces that meet only in 0 never repeat a pair.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

Round = list[list[int]]

# GF(4) = {0, 1, w, w^2} as 2-bit polynomials over GF(2) modulo x^2 + x + 1
_GF4_MUL = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]


def _exact_log(n: int, base: int) -> int | None:
    k = 0
    while n > 1 and n % base == 0:
        n //= base
        k += 1
    return k if n == 1 and k >= 1 else None


def _cosets(n: int, subspace: Sequence[int], add) -> Round:
    """The partition of 0..n-1 into the translates of ``subspace``."""
    seen: set[int] = set()
    out: Round = []
    for x in range(n):
        if x in seen:
            continue
        line = sorted(add(x, w) for w in subspace)
        seen.update(line)
        out.append(line)
    return out


def _gf4_scale(c: int, v: int, m: int) -> int:
    out = 0
    for i in range(m):
        out |= _GF4_MUL[c][(v >> (2 * i)) & 3] << (2 * i)
    return out


def _gf4_directions(m: int) -> list[int]:
    """One non-zero vector per 1-dimensional subspace of GF(4)^m (leading coordinate 1)."""
    out = []
    for v in range(1, 4 ** m):
        top = max(i for i in range(m) if (v >> (2 * i)) & 3)
        if (v >> (2 * top)) & 3 == 1:
            out.append(v)
    return out


def affine4(m: int) -> list[Round]:
    """Parallel classes of the lines of AG(m, 4): (4**m - 1) / 3 rounds of 4**(m-1) tables."""
    n = 4 ** m
    return [_cosets(n, [_gf4_scale(c, d, m) for c in range(4)], lambda x, w: x ^ w)
            for d in _gf4_directions(m)]


def binary_spread(k: int, wanted: int, rng: random.Random) -> list[Round]:
    """Up to ``wanted`` classes from a partial spread of 2-subspaces of GF(2)^k.

    For even k the GF(4) spread is complete; for odd k a seeded greedy search with restarts
    collects subspaces {0, a, b, a^b} whose non-zero vectors are pairwise disjoint.
    """
    n = 2 ** k
    if k % 2 == 0:
        return affine4(k // 2)[:wanted]
    best: list[tuple[int, int, int]] = []
    limit = (n - 1) // 3
    target = min(wanted, limit)
    for _ in range(200):
        free = list(range(1, n))
        rng.shuffle(free)
        used: set[int] = set()
        chosen: list[tuple[int, int, int]] = []
        for a in free:
            if a in used:
                continue
            for b in free:
                if b == a or b in used or (a ^ b) in used:
                    continue
                chosen.append((a, b, a ^ b))
                used.update((a, b, a ^ b))
                break
            if len(chosen) >= target:
                break
        if len(chosen) > len(best):
            best = chosen
        if len(best) >= target:
            break
    chosen = best[:target]
    classes = [_cosets(n, [0, a, b, c], lambda x, w: x ^ w) for a, b, c in chosen]
    if classes:
        # order class 0's lines by a linear 2-bit label L that is one-to-one on as many
        # other subspaces as possible: a later round's table then holds players who sat
        # in four different seats of round 1 (what lets winds be balanced exactly)
        label = _best_label(k, chosen)
        classes[0] = [sorted(line, key=label) for line in classes[0]]
    return classes


def _parity(v: int) -> int:
    return bin(v).count("1") & 1


def _best_label(k: int, subspaces: list[tuple[int, int, int]]):
    """A linear map GF(2)^k → GF(2)^2, one-to-one on the first subspace, chosen to be
    one-to-one on the most of the others."""
    def injective(m1: int, m2: int, s: tuple[int, int, int]) -> bool:
        return all((_parity(v & m1), _parity(v & m2)) != (0, 0) for v in s)

    best = (-1, 1, 2)
    for m1 in range(1, 2 ** k):
        for m2 in range(m1 + 1, 2 ** k):
            if not injective(m1, m2, subspaces[0]):
                continue
            good = sum(injective(m1, m2, s) for s in subspaces[1:])
            if good > best[0]:
                best = (good, m1, m2)
        if k > 5 and best[0] >= 8:  # plenty for 8 rounds; keep 128 players fast
            break
    _, m1, m2 = best
    return lambda v: 2 * _parity(v & m1) + _parity(v & m2)


def _gf3_add(x: int, y: int, k: int) -> int:
    out, p = 0, 1
    for _ in range(k):
        out += ((x // p % 3 + y // p % 3) % 3) * p
        p *= 3
    return out


def affine3(k: int) -> list[Round]:
    """Parallel classes of the lines of AG(k, 3): (3**k - 1) / 2 rounds of 3**(k-1) tables."""
    n = 3 ** k
    out = []
    for d in range(1, n):
        digits = [d // 3 ** i % 3 for i in range(k)]
        top = max(i for i in range(k) if digits[i])
        if digits[top] != 1:
            continue
        twice = _gf3_add(d, d, k)
        out.append(_cosets(n, [0, d, twice], lambda x, w: _gf3_add(x, w, k)))
    return out


#: The Hermitian unital of order 3 (the 28 points of x^4 + y^4 + z^4 = 0 in PG(2, 9); its
#: 63 secant lines meet it in 4 points, every pair once) split into 9 parallel classes —
#: a resolvable 2-(28, 4, 1) design (Kirkman-type). The resolution was found once by an
#: exact-cover search and is kept as data; tests/core/test_planning.py checks it.
_UNITAL_28 = (
    "20,21,26,27 4,5,6,7 9,12,19,24 8,13,18,25 10,15,17,22 11,14,16,23 0,1,2,3",
    "9,13,17,23 3,7,18,22 4,8,24,26 1,10,19,27 0,5,11,12 2,14,20,25 6,15,16,21",
    "8,12,16,22 3,4,17,25 0,6,9,14 5,10,23,26 2,11,18,27 1,15,20,24 7,13,19,21",
    "10,14,18,24 0,4,19,23 3,5,8,15 2,13,16,26 6,12,25,27 7,11,17,20 1,9,21,22",
    "11,15,19,25 0,7,16,24 1,12,17,26 4,14,22,27 3,6,10,13 5,9,18,20 2,8,21,23",
    "12,13,14,15 1,6,18,23 2,5,19,22 7,9,25,26 0,8,17,27 4,10,16,20 3,11,21,24",
    "2,6,17,24 1,5,16,25 8,9,10,11 3,14,19,26 7,15,23,27 0,13,20,22 4,12,18,21",
    "16,17,18,19 6,11,22,26 5,13,24,27 1,7,8,14 2,4,9,15 3,12,20,23 0,10,21,25",
    "2,7,10,12 1,4,11,13 0,15,18,26 3,9,16,27 22,23,24,25 6,8,19,20 5,14,17,21",
)


def unital28() -> list[Round]:
    """9 rounds for 28 players at tables of 4 without a repeat (:data:`_UNITAL_28`)."""
    return [[[int(x) for x in block.split(",")] for block in cls.split()]
            for cls in _UNITAL_28]


def resolvable(n: int, size: int, wanted: int, rng: random.Random) -> tuple[str, list[Round]]:
    """A known design for ``n`` points in tables of ``size``: (name, classes), or ("", [])."""
    if wanted <= 0:
        return "", []
    if size == 4 and n == 28:
        return "Hermitian unital of order 3 (resolvable 2-(28, 4, 1))", unital28()[:wanted]
    if size == 4:
        k = _exact_log(n, 2)
        if k is not None and k >= 2:
            if k % 2 == 0:
                return f"affine geometry AG({k // 2}, 4)", affine4(k // 2)[:wanted]
            if k >= 3:
                return (f"2-dimensional subspaces of GF(2)^{k}",
                        binary_spread(k, wanted, rng))
    if size == 3:
        k = _exact_log(n, 3)
        if k is not None:
            return f"affine geometry AG({k}, 3)", affine3(k)[:wanted]
    return "", []


# ----------------------------------------------------------------------------- relabel

def _grid_blocks(r1: Sequence[set[int]], r2: Sequence[set[int]]
                 ) -> list[tuple[list[int], list[int]]] | None:
    """When every part of ``r1`` meets the parts of ``r2`` it touches exactly once and the
    touching parts form complete bipartite blocks (a grid each, as two parallel classes of
    an affine or projective-type design do): the blocks as (r1 indices, r2 indices)."""
    touch = [[j for j, b in enumerate(r2) if a & b] for a in r1]
    if any(len(a & r2[j]) != 1 for a, js in zip(r1, touch, strict=True) for j in js):
        return None
    blocks: list[tuple[list[int], list[int]]] = []
    seen: set[int] = set()
    for i, js in enumerate(touch):
        if i in seen:
            continue
        rows = [k for k, ks in enumerate(touch) if ks == js]
        if any(set(touch[k]) & set(js) for k in range(len(r1)) if k not in rows):
            return None  # not a complete block
        seen.update(rows)
        blocks.append((rows, js))
    return blocks


def _grid_maps(c1: list[set[int]], c2: list[set[int]], r1: list[set[int]],
               r2: list[set[int]], rng: random.Random, tries: int
               ) -> list[dict[int, int]]:
    """Point → player maps taking classes ``c1``, ``c2`` onto rounds ``r1``, ``r2`` (both
    pairs made of matching grid blocks); random choices among the many such maps."""
    g1, g2 = _grid_blocks(c1, c2), _grid_blocks(r1, r2)
    if g1 is None or g2 is None or sorted((len(a), len(b)) for a, b in g1) != \
            sorted((len(a), len(b)) for a, b in g2):
        return []
    out = []
    for _ in range(tries):
        pending = list(g2)
        rng.shuffle(pending)
        mapping: dict[int, int] = {}
        for rows, cols in g1:
            k = next(k for k, (a, b) in enumerate(pending)
                     if (len(a), len(b)) == (len(rows), len(cols)))
            prow, pcol = pending.pop(k)
            prow, pcol = rng.sample(prow, len(prow)), rng.sample(pcol, len(pcol))
            for la, ta in zip(rows, prow, strict=True):
                for lb, tb in zip(cols, pcol, strict=True):
                    (pt,), (pl,) = c1[la] & c2[lb], r1[ta] & r2[tb]
                    mapping[pt] = pl
        out.append(mapping)
    return out


def relabel(played: Sequence[Sequence[Sequence[int]]], classes: list[list[list[int]]],
             points: Sequence[int], rng: random.Random | None = None,
             prefer: Callable[[dict[int, int], list[list[list[int]]]], int] | None = None
             ) -> tuple[dict[int, int], int, list[list[list[int]]]]:
    """Map design points to players so that the design's first classes are played rounds.

    Any bijection of points keeps a design free of repeats, so: when the last two played
    rounds meet as two parallel classes of the design do (grid blocks: every table of one
    meets the tables of the other it touches once — in an affine plane all of them; in
    AG(3, 4) or the GF(2)^k designs the classes fall into several such blocks, as the
    rounds of an earlier plan do) point ``line_a ∩ line_b`` becomes the player at the
    matching tables; among many such maps the one whose other classes repeat fewest pairs
    of older played rounds is kept, then the one ``prefer`` (map, other classes) scores
    lowest (the caller's seat-wind test). Else when the last played round is a full partition
    class 0 maps onto it. Returns (point → player, number of classes used up, the classes
    with those first); without a fit the points map to ``points`` in order.
    """
    everyone = sorted(points)
    rng = rng or random.Random(0)

    def full(rnd: Sequence[Sequence[int]]) -> bool:
        return len(rnd) == len(classes[0]) and sorted(p for t in rnd for p in t) == everyone

    if len(played) >= 2 and len(classes) >= 2 and full(played[-1]) and full(played[-2]):
        r1, r2 = [set(t) for t in played[-2]], [set(t) for t in played[-1]]
        older: set[tuple[int, int]] = set()
        for rnd in played[:-2]:
            for t in rnd:
                older.update(itertools.combinations(sorted(t), 2))
        best: tuple[tuple[int, int], dict[int, int], list[list[list[int]]]] | None = None
        calls = 0  # the wind test is dear: 120 maps at most
        pairs = [(i, j) for i in range(len(classes)) for j in range(len(classes)) if i != j]
        for i, j in pairs[:24]:
            c1, c2 = [set(t) for t in classes[i]], [set(t) for t in classes[j]]
            rest = [c for k, c in enumerate(classes) if k not in (i, j)]
            for mapping in _grid_maps(c1, c2, r1, r2, rng, 40 if older else 12 if prefer else 1):
                clash = (sum(tuple(sorted((mapping[a], mapping[b]))) in older
                             for c in rest for line in c
                             for a, b in itertools.combinations(line, 2)) if older else 0,
                         0 if prefer is None else prefer(mapping, rest) if calls < 120 else 1)
                calls += 1
                if best is None or clash < best[0]:
                    best = (clash, mapping, [classes[i], classes[j], *rest])
                if clash == (0, 0):
                    break
            if best is not None and best[0] == (0, 0):
                break
        if best is not None:
            return best[1], 2, best[2]
    if played and classes and full(played[-1]):
        # point i of each line ↔ the player who sat in seat i: in an affine geometry the
        # lines of most other classes then gather players who had different winds
        mapping = {}
        for line, table in zip(classes[0], played[-1], strict=True):
            for pt, pl in zip(line, table, strict=True):
                mapping[pt] = pl
        return mapping, 1, classes
    return dict(enumerate(points)), 0, classes
