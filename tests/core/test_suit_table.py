"""The precomputed per-suit table must agree with the splits the readings are built from."""

from __future__ import annotations

import random

from referee_app.core.analysis import _TERMINAL_RANKS, _complete_table, _suit_decompositions


def _summaries_by_search(counts: tuple[int, ...]) -> frozenset[tuple[int, int, bool, bool]]:
    """(pairs, sets, has_run, all_groups_terminal) over the splits the readings use."""
    out = set()
    for dec in _suit_decompositions(counts):
        pairs = sum(1 for k, _ in dec if k == 0)
        has_run = any(k == 2 for k, _ in dec)
        term = all((r in _TERMINAL_RANKS) if k != 2 else (r in (0, 6)) for k, r in dec)
        out.add((pairs, len(dec) - pairs, has_run, term))
    return frozenset(out)


def _vectors(n: int, seed: int) -> list[tuple[int, ...]]:
    rng = random.Random(seed)
    out = []
    while len(out) < n:
        vec = tuple(rng.choice((0, 0, 0, 1, 1, 2, 3, 4)) for _ in range(9))
        if sum(vec) <= 14:
            out.append(vec)
    return out


def test_table_matches_search_on_random_vectors() -> None:
    table = _complete_table()
    for vec in _vectors(4000, 2009):
        ref = frozenset(x for x in _summaries_by_search(vec) if x[0] <= 1)
        assert table.get(vec, frozenset()) == ref, vec


def test_table_holds_known_shapes() -> None:
    table = _complete_table()
    # 1112345678999: the nine-gates shape is not complete (13 tiles) but +1 of any rank is
    nine = [3, 1, 1, 1, 1, 1, 1, 1, 3]
    for r in range(9):
        v = list(nine)
        v[r] += 1
        assert tuple(v) in table
    assert (1, 1, 0, 0, 0, 0, 0, 0, 0) not in table  # 12 is half a run
    assert table[(0,) * 9] == frozenset({(0, 0, False, True)})
