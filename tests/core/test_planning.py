"""Whole-event seating plan (issue 13): repeats, counting bound, winds, seats, byes.

Small cases only (each well under a second); timings live in benchmarks/bench_seating.py.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from referee_app.core.designs import resolvable
from referee_app.core.planning import PlanError, counting_bound, figures, plan

WINDS = ("E", "S", "W", "N")


def meetings(rounds) -> Counter:
    met: Counter = Counter()
    for rnd in rounds:
        for t in rnd:
            met.update(itertools.combinations(sorted(t), 2))
    return met


def check_rounds(p, players) -> None:
    """Every planned round seats each player once (or gives a bye), tables full."""
    for r in p.rounds:
        seated = [x for t in r.tables for x in t]
        assert len(seated) == len(set(seated))
        assert sorted(seated + list(r.byes)) == sorted(players)
        assert all(len(t) == len(p.seats) for t in r.tables)


@pytest.mark.parametrize(("n", "size", "classes"), [
    (16, 4, 5), (64, 4, 21), (32, 4, 9), (28, 4, 9), (9, 3, 4), (27, 3, 13)])
def test_designs_never_repeat_a_pair(n: int, size: int, classes: int) -> None:
    name, got = resolvable(n, size, 99, random.Random(1))
    assert name and len(got) == classes
    assert max(meetings(got).values()) == 1
    for cls in got:
        assert sorted(x for t in cls for x in t) == list(range(n))


@pytest.mark.parametrize(("n", "rounds", "repeats"), [
    (16, 4, 0), (16, 5, 0), (16, 6, 24), (16, 8, 72), (32, 8, 0), (64, 8, 0)])
def test_repeats_reach_the_counting_bound(n: int, rounds: int, repeats: int) -> None:
    players = list(range(101, 101 + n))
    p = plan(players, WINDS, rounds, seed=4)
    check_rounds(p, players)
    assert p.figures.bound == repeats == counting_bound({x: rounds for x in players}, n, 4)
    assert p.figures.repeats == repeats
    # an independent count from the tables themselves
    assert sum(m - 1 for m in meetings([r.tables for r in p.rounds]).values()) == repeats
    assert p.figures.wind_spread <= 1
    if rounds % 4 == 0:
        assert p.figures.wind_spread == 0


def test_winds_each_player_every_wind_once_in_four_rounds() -> None:
    p = plan(list(range(32)), WINDS, 4, seed=2)
    for x in range(32):
        got = sorted(next(i for t in r.tables for i, y in enumerate(t) if y == x)
                     for r in p.rounds)
        assert got == [0, 1, 2, 3]


def test_search_when_no_design_fits() -> None:
    """36 players (no design): 0 repeats is reachable for 5 rounds and the search finds it."""
    p = plan(list(range(36)), WINDS, 5, seed=1)
    assert p.method == "search"
    assert p.figures.repeats == 0 and p.figures.wind_spread <= 1


def test_byes_rotate_evenly() -> None:
    players = list(range(1, 19))  # 18 = 4 tables + 2 byes a round
    p = plan(players, WINDS, 9, seed=3)
    check_rounds(p, players)
    byes = Counter(b for r in p.rounds for b in r.byes)
    assert all(len(r.byes) == 2 for r in p.rounds)
    assert sorted(byes.values()) == [1] * 18  # 9 rounds × 2 byes: everyone once


def test_zigong_three_seats() -> None:
    p = plan(list(range(27)), ("E", "S", "W"), 6, seed=1)
    assert all(len(t) == 3 for r in p.rounds for t in r.tables)
    assert p.figures.repeats == 0 and p.figures.wind_spread == 0


def test_played_rounds_are_kept_and_counted() -> None:
    first = plan(list(range(16)), WINDS, 2, seed=5)
    played = [first.rounds[0].tables, first.rounds[1].tables]
    p = plan(list(range(16)), WINDS, 3, played=played, seed=8)
    assert [r.number for r in p.rounds] == [3, 4, 5]
    assert [r.tables for r in p.played] == played
    assert p.figures.repeats == 0  # 5 rounds of 16 still fit the affine plane
    assert p.figures == figures(played + [r.tables for r in p.rounds], WINDS)


def test_withdrawn_player_in_played_round_is_ignored() -> None:
    first = plan(list(range(17)), WINDS, 1, seed=5)  # one bye
    leaver = first.rounds[0].tables[0][0]
    rest = [x for x in range(17) if x != leaver]
    p = plan(rest, WINDS, 3, played=[first.rounds[0].tables], seed=1)
    check_rounds(p, rest)


def test_same_seat_same_table_avoided() -> None:
    p = plan(list(range(32)), WINDS, 8, seed=6)
    assert p.figures.same_seat_same_table == 0


@pytest.mark.parametrize(("rounds", "most"), [(5, 1), (6, 1), (8, 3)])
def test_same_seat_same_table_few_with_four_tables(rounds: int, most: int) -> None:
    """16 players at 4 tables: each round's numbering is revisited against all the others
    (round by round alone left 2, 3 and 4)."""
    p = plan(list(range(16)), WINDS, rounds, seed=1)
    assert p.figures.same_seat_same_table <= most


def test_same_seed_same_plan() -> None:
    a = plan(list(range(20)), WINDS, 5, seed=11)
    b = plan(list(range(20)), WINDS, 5, seed=11)
    assert a == b


def test_figures_count_repeats_and_same_seat() -> None:
    r1 = [(1, 2, 3, 4), (5, 6, 7, 8)]
    r2 = [(1, 2, 5, 6), (3, 4, 7, 8)]
    f = figures([r1, r1, r2], WINDS)
    assert f.repeats == 12 + 4  # r1 twice: 12 pairs again; r2: (1,2) (3,4) (5,6) (7,8)
    # r1 again: all 8 in their seats; r2: 1, 2, 7 and 8 keep table and seat once more
    assert f.same_seat_same_table == 8 + 4
    assert f.max_meetings == 3
    assert f.bound == 8  # each meets 9 times among 7 others: 2 extra each, halved
    assert f.wind_spread == 3  # player 1 is E all three rounds


@pytest.mark.parametrize(("players", "rounds", "field"), [
    ([1, 2, 3], 2, "players"), ([1, 1, 2, 3, 4], 2, "players"),
    ([1, 2, 3, 4], -1, "rounds")])
def test_bad_input_names_the_field(players, rounds, field) -> None:
    with pytest.raises(PlanError) as e:
        plan(players, WINDS, rounds)
    assert e.value.field == field


def test_repair_fills_vacancies_and_keeps_everyone_else() -> None:
    from referee_app.core.planning import repair

    tables = [(1, 2, 3, 4), (5, 6, 7, 8)]
    r = repair(tables, seatable=[1, 2, 4, 5, 6, 7, 8, 9], fillers=[9])
    assert r.tables == ((1, 2, 9, 4), (5, 6, 7, 8)) and r.moved == (9,) and not r.byes
    # the filler who met the tablemates least takes the seat
    r = repair(tables, seatable=[1, 2, 4, 5, 6, 7, 8, 9, 10], fillers=[9, 10],
               met={(1, 9): 2})
    assert r.tables[0] == (1, 2, 10, 4) and r.byes == (9,)
    with pytest.raises(PlanError) as e:
        repair(tables, seatable=[1, 2, 4, 5, 6, 7, 8], fillers=[])
    assert e.value.field == "players"
    # dissolving: the emptiest table goes, its players fill the other table first
    r = repair(tables, seatable=[1, 2, 4, 5, 6, 8], fillers=[], dissolve=True)
    assert r.dissolved == (2,) and r.tables[0] == (1, 2, 5, 4)
    assert sorted(r.byes) == [6, 8]


@pytest.mark.parametrize(("n", "seats"), [(16, WINDS), (32, WINDS), (64, WINDS),
                                          (27, WINDS[:3])])
def test_after_an_arbitrary_first_round_the_design_still_fits(n: int, seats) -> None:
    """Round 1 seated by hand: the design is relabelled onto it, so the plan still has no
    repeat and, with round 1's winds completed, every player has every wind once."""
    size = len(seats)
    rng = random.Random(n)
    pool = list(range(n))
    rng.shuffle(pool)
    first = [tuple(pool[i:i + size]) for i in range(0, n, size)]
    p = plan(list(range(n)), seats, size - 1, played=[first], seed=3)
    assert p.method.startswith(("affine", "2-dimensional"))
    assert p.figures.repeats == 0
    assert p.figures.wind_spread == 0


def test_finishing_a_wind_block_left_open_by_played_rounds() -> None:
    """Rounds planned one at a time (as round by round seating does): the round that
    closes a block of four is seated wind-first, so everyone has had every wind once."""
    played: list = []
    for r in range(1, 5):
        p = plan(list(range(36)), WINDS, 1, played=played, seed=r)
        played.append(list(p.rounds[0].tables))
    f = figures(played, WINDS)
    assert f.repeats == 0 and f.wind_spread == 0


@pytest.mark.parametrize(("n", "rounds"), [(32, 6), (64, 5)])
def test_replanning_after_rounds_of_an_earlier_plan_keeps_zero_repeats(n: int,
                                                                       rounds: int) -> None:
    """Two played rounds of another plan (another seed) are two classes of the design under
    some relabelling: the new plan finds one and stays free of repeats."""
    players = list(range(1, n + 1))
    earlier = plan(players, WINDS, rounds, seed=77)
    played = [list(r.tables) for r in earlier.rounds[:2]]
    p = plan(players, WINDS, rounds - 2, played=played, seed=5)
    check_rounds(p, players)
    assert p.figures.repeats == 0
    assert p.method in ("2-dimensional subspaces of GF(2)^5", "affine geometry AG(3, 4)")


@pytest.mark.parametrize(("n", "seed"), [(16, 1), (32, 2), (64, 3)])
def test_open_wind_block_is_finished_exactly_when_it_can_be(n: int, seed: int) -> None:
    """Two rounds of a spread-0 plan played; its rounds 3 and 4, hidden among others in
    another order with seats shuffled, are found and seated so everyone has each wind."""
    from referee_app.core.winds import exact_short_block, order_for_open_block

    whole = plan(list(range(1, n + 1)), WINDS, 8, seed=seed)
    assert whole.figures.wind_spread == 0
    played = [r.tables for r in whole.rounds[:2]]
    recent: dict[int, list[int]] = {}
    for rnd in played:
        for t in rnd:
            for i, p in enumerate(t):
                recent.setdefault(p, []).append(i)
    rng = random.Random(seed)
    later = [[rng.sample(list(t), len(t)) for t in r.tables] for r in whole.rounds[2:]]
    groups = [later[4], later[0], later[5], later[1]]  # rounds 3, 4 are groups 1 and 3
    ordered = order_for_open_block(groups, 4, recent)
    got = exact_short_block(ordered[:2], 4, recent)
    assert got is not None
    for rnd in got:
        for t in rnd:
            assert all(i not in recent[p] for i, p in enumerate(t))
    assert all(sorted(recent[p] + [i for rnd in got for t in rnd for i, q in enumerate(t)
                                   if q == p]) == [0, 1, 2, 3] for p in recent)


def test_two_round_wind_finish_agrees_with_brute_force() -> None:
    """The 2-SAT says "possible" exactly when trying every seat order does."""
    from referee_app.core.winds import exact_short_block

    rng = random.Random(5)
    agree = {True: 0, False: 0}
    for _ in range(60):
        players = list(range(8))
        recent = {p: rng.sample(range(4), 2) for p in players}
        block = []
        for _ in range(2):
            rng.shuffle(players)
            block.append([players[:4], players[4:]])
        brute = _brute_two_rounds(block, recent)
        fast = exact_short_block(block, 4, recent) is not None
        assert fast == brute
        agree[fast] += 1
    assert agree[True] and agree[False]  # both outcomes were exercised


def _brute_two_rounds(block, recent) -> bool:
    """Every seat order of every table of two rounds of two tables: can each player take
    the two winds they have not had, one in each round?"""
    def orders(table):
        return [o for o in itertools.permutations(range(4))
                if all(o[i] not in recent[p] for i, p in enumerate(table))]

    first = [dict(zip(block[0][0] + block[0][1], a + b, strict=True))
             for a in orders(block[0][0]) for b in orders(block[0][1])]
    second = [dict(zip(block[1][0] + block[1][1], c + d, strict=True))
              for c in orders(block[1][0]) for d in orders(block[1][1])]
    return any(all({x[p], y[p]} | set(recent[p]) == {0, 1, 2, 3} for p in x)
               for x in first for y in second)
