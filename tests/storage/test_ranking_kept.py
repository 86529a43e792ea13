"""A leaderboard kept between saves (``ranking.Ranking``) equals one ranked afresh after any
sequence of changed totals: players moving up, down, into and out of ties, one or many at a
time (seeded random sequences; ties are frequent on purpose)."""

from __future__ import annotations

import random

import pytest

from referee_app.storage.models import Player, PlayerStatus
from referee_app.storage.ranking import Ranking, rank, totals


def _players(n: int, rng: random.Random) -> list[Player]:
    statuses = [PlayerStatus.ACTIVE] * 8 + [PlayerStatus.SUBSTITUTE, PlayerStatus.WITHDRAWN]
    return [Player(i, f"P{i:03d}", f"Latin {i}", "Club", rng.choice(statuses), "")
            for i in range(1, n + 1)]


def _rows(pids: list[int], rng: random.Random) -> list[tuple[int, ...]]:
    """Hand rows for these players: chips in a small range so that ties are common."""
    return [(pid, rng.randint(1, 3), rng.randint(-3, 3), 1, rng.randint(0, 1), 0,
             rng.randint(0, 1), 0, rng.randint(0, 2)) for pid in pids]


@pytest.mark.parametrize("seed", range(6))
def test_a_kept_leaderboard_equals_a_fresh_one_after_every_change(seed: int) -> None:
    rng = random.Random(seed)
    players = _players(rng.randint(1, 60), rng)
    by_player = {p.id: _rows([p.id], rng) for p in players if rng.random() < 0.8}
    tie_break = rng.choice([("chips", "wins"), ("chips", "-discards_paid"), ("wins",)])
    subs = rng.random() < 0.3
    acc = totals([r for rs in by_player.values() for r in rs], [])
    kept = Ranking(players, acc, tie_break, include_substitutes=subs)
    for _ in range(60):
        moved = rng.sample([p.id for p in players], rng.choice([1, 2, 4, 4, 8]) % len(players)
                           or 1)
        for pid in moved:  # new totals for these players (or none at all)
            if rng.random() < 0.15:
                by_player.pop(pid, None)
                acc.pop(pid, None)
            else:
                by_player[pid] = _rows([pid], rng) * rng.randint(1, 3)
                acc[pid] = totals(by_player[pid], [])[pid]
        got = kept.update(moved)
        fresh = rank(players, totals([r for rs in by_player.values() for r in rs], []),
                     tie_break, include_substitutes=subs)
        assert got == fresh
