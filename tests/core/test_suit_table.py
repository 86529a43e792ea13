"""The precomputed per-suit table must agree with the reference search on every vector."""

from __future__ import annotations

import random

from referee_app.core.analysis import _complete_table, _summaries_by_search


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


def test_cold_search_matches_table() -> None:
    """Before the table is built, lookups search; both must give the same summaries,
    including for impossible vectors (a fifth copy, more than four sets)."""
    from referee_app.core.analysis import _summaries_cold

    table = _complete_table()
    rng = random.Random(11)
    vecs = _vectors(1500, 7) + [tuple(rng.randint(0, 6) for _ in range(9)) for _ in range(500)]
    vecs += [(3, 3, 3, 3, 3, 0, 0, 0, 0), (4, 4, 4, 4, 0, 0, 0, 0, 0), (5,) + (0,) * 8]
    for vec in vecs:
        assert _summaries_cold(vec) == table.get(vec, frozenset()), vec
