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
- 3 seats (Zigong), ``n = 3**k``: the lines of AG(k, 3) (9 players: 4 rounds, 27: 13).

Players x and y share a table of the class of subspace W exactly when x - y lies in W, so
classes from subspaces that meet only in 0 never repeat a pair.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

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


def resolvable(n: int, size: int, wanted: int, rng: random.Random) -> tuple[str, list[Round]]:
    """A known design for ``n`` points in tables of ``size``: (name, classes), or ("", [])."""
    if wanted <= 0:
        return "", []
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
