"""A leaderboard kept between saves (``ranking.Ranking``) equals one ranked afresh after any
sequence of changed totals: players moving up, down, into and out of ties, one or many at a
time (seeded random sequences; ties are frequent on purpose). Under placement scoring and
with stages, the kept boards (``leaderboard.Leaderboards``: each table placed again when a
save touches it, stage totals carried) equal boards made afresh after every save."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest

from referee_app.storage.leaderboard import Leaderboards
from referee_app.storage.models import Player, PlayerStatus, Stage, TournamentInfo
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


# ------------------------------------------------------------------ placement and stages

def _table_rows(rnd: int, table: int, pids: list[int], rng: random.Random
                ) -> dict[int, list[tuple[int, ...]]]:
    """One save at a table: each player's new row there (chips level on purpose often;
    now and then a player whose only hand there is void: not counted)."""
    chips = [rng.choice([-8, 0, 0, 8, 16]) for _ in pids]
    return {pid: [(pid, rnd, c, 0 if rng.random() < 0.05 else 1, rng.randint(0, 1), 0,
                   rng.randint(0, 1), 0, rng.randint(0, 3), table)]
            for pid, c in zip(pids, chips, strict=True)}


@pytest.mark.parametrize("seed", range(6))
def test_kept_leaderboards_under_placement_and_stages_equal_fresh_ones(seed: int) -> None:
    """A save touches one table in one round: the kept boards place that table again and
    move its players, in every scope and stage, and equal boards made afresh."""
    rng = random.Random(seed)
    placement = seed % 3 != 2
    players = [Player(i, f"P{i:03d}", "", "Club", PlayerStatus.ACTIVE, "")
               for i in range(1, 4 * rng.randint(3, 6) + 1)]
    info = TournamentInfo("E", "ottawa-2009", ("E", "S", "W", "N"),
                          tie_break=("chips", "wins"),
                          scoring="placement" if placement else "chips",
                          placement_points=tuple(Fraction(x) for x in (4, 2, 1, 0)))
    rows: dict[int, list[tuple[int, ...]]] = {}
    seating: dict[int, list[list[int]]] = {}
    for rnd in (1, 2, 3, 4):
        ids = [p.id for p in players]
        rng.shuffle(ids)
        seating[rnd] = [ids[i:i + 4] for i in range(0, len(ids), 4)]
    cut = rng.choice([None, 2, 3])
    stages = [Stage(1, 1, cut)]
    if cut is not None:
        chosen = tuple(rng.sample([p.id for p in players], 8))
        stages.append(Stage(2, cut + 1, None, "final", 8, rng.choice(["full", "half", "none"]),
                            chosen))
        for rnd in range(cut + 1, 5):  # only the finalists play on
            seating[rnd] = [list(chosen[:4]), list(chosen[4:])]
    pens = {p.id: [(p.id, rng.choice([None, 1, 3]), rng.randint(-3, 3),
                    rng.choice([0, 0, 2400]))] for p in players if rng.random() < 0.2}

    def fresh() -> Leaderboards:
        b = Leaderboards(-1, players, info, stages)
        for pid, rs in rows.items():
            b.hands[pid] = list(rs)
        b.pens = {pid: list(rs) for pid, rs in pens.items()}
        return b.placed()

    def scopes(b: Leaderboards) -> list[list[Any]]:
        out = [b.table(), b.table(2), b.table(through_round=3), b.table(through_round=1)]
        if len(stages) > 1:
            out += [b.table(stage=1), b.table(stage="final"), b.table(stage=2,
                                                                     through_round=4)]
        return out

    kept = fresh()
    scopes(kept)  # asked for once: kept from now on
    for _ in range(40):
        rnd = rng.randint(1, 4)
        table, pids = rng.choice(list(enumerate(seating[rnd], start=1)))
        for pid, new in _table_rows(rnd, table, pids, rng).items():
            old = [r for r in rows.get(pid, []) if (r[1], r[-1]) != (rnd, table)]
            rows[pid] = old + ([] if rng.random() < 0.1 else new)
        kept.hands = {pid: list(rs) for pid, rs in rows.items()}
        kept.bring_forward(pids)
        assert scopes(kept) == scopes(fresh())
