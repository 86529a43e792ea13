"""Team-mates apart (issue 26): the counts, the whole-event planner, the repair after a
withdrawal. Counts are checked against the tables themselves, never against the figures
the planner reports of itself alone."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from referee_app.core.planning import plan, repair
from referee_app.core.teams import least_team_pairs, team_pairs, team_round

WINDS = ("E", "S", "W", "N")


def mates_at_tables(rounds, teams) -> int:
    """An independent count: pairs of one team sharing a table, over every round."""
    return sum(1 for rnd in rounds for t in rnd for a, b in itertools.combinations(t, 2)
               if teams.get(a) is not None and teams.get(a) == teams.get(b))


def repeats(rounds) -> int:
    met: Counter = Counter()
    for rnd in rounds:
        for t in rnd:
            met.update(itertools.combinations(sorted(t), 2))
    return sum(m - 1 for m in met.values() if m > 1)


def teams_of(n: int, size: int, offset: int = 1) -> dict[int, str]:
    """Players offset..offset+n-1 in consecutive teams of ``size``."""
    return {p: f"team {(p - offset) // size}" for p in range(offset, offset + n)}


@pytest.mark.parametrize(("tables", "teams", "least"), [
    ([[1, 2, 3, 4]], {1: "A", 2: "A", 3: "B"}, 1),
    ([[1, 2, 3, 4], [5, 6, 7, 8]], {1: "A", 5: "A", 2: "B", 6: "B"}, 0),
    ([[1, 2, 3, 4]], {}, 0),
    ([[1, 2, 3, 4]], {1: "", 2: ""}, 0),  # no team is no team
])
def test_team_pairs_and_the_least_of_a_round(tables, teams, least) -> None:
    assert team_pairs(tables, teams) == least
    # the least: a team of k at T tables, spread as evenly as it goes
    assert least_team_pairs(range(1, 17), 4, {p: "A" for p in range(1, 6)}) == 1
    assert least_team_pairs(range(1, 17), 4, {p: "A" for p in range(1, 10)}) == 1 + 1 + 1 + 3
    assert least_team_pairs(range(1, 17), 4, teams_of(16, 4)) == 0


def test_a_team_round_holds_each_team_whole() -> None:
    teams = {**{p: "A" for p in (1, 2, 3)}, **{p: "B" for p in (4, 5)}, 6: "C"}
    got = team_round(list(range(1, 9)), 4, teams)
    assert got is not None and sorted(x for t in got for x in t) == list(range(1, 9))
    for name in ("A", "B", "C"):
        assert sum(any(teams.get(x) == name for x in t) for t in got) == 1
    assert team_round(list(range(1, 17)), 4, {p: "A" for p in range(1, 6)}) is None


@pytest.mark.parametrize("rounds", [4, 5, 8])
@pytest.mark.parametrize("layout", ["blocks", "spread"])
def test_16_players_in_4_teams_of_4_never_meet_a_team_mate(rounds: int, layout: str) -> None:
    players = list(range(1, 17))
    teams = (teams_of(16, 4) if layout == "blocks"
             else {p: f"team {p % 4}" for p in players})
    p = plan(players, WINDS, rounds, seed=9, teams=teams)
    tables = [r.tables for r in p.rounds]
    assert mates_at_tables(tables, teams) == 0 == p.figures.team_mates == p.figures.team_bound
    # team-mates kept apart leave 12 others to meet: 4 rounds without a repeat, then the
    # counting bound that counts only those 12
    assert repeats(tables) == p.figures.repeats == {4: 0, 5: 24, 8: 96}[rounds]
    assert p.figures.bound == p.figures.repeats
    assert p.figures.wind_spread <= 1


def test_larger_events_in_teams_of_4_keep_team_mates_apart_without_a_repeat() -> None:
    for n in (32, 64):
        players = list(range(1, n + 1))
        teams = teams_of(n, 4)
        p = plan(players, WINDS, 8, seed=2, teams=teams)
        assert mates_at_tables([r.tables for r in p.rounds], teams) == 0
        assert repeats([r.tables for r in p.rounds]) == 0


def test_a_team_of_5_among_16_says_how_many_times_it_had_to() -> None:
    players = list(range(1, 17))
    teams = {p: "big" for p in range(1, 6)}
    p = plan(players, WINDS, 6, seed=5, teams=teams)
    together = mates_at_tables([r.tables for r in p.rounds], teams)
    # five players at four tables: two of them share one, every round — and no more
    assert together == p.figures.team_mates == p.figures.team_bound == 6
    for r in p.rounds:
        assert mates_at_tables([r.tables], teams) == 1


def test_teams_of_other_sizes_and_byes() -> None:
    players = list(range(1, 19))  # 18 at tables of 4: two sit out each round
    teams = teams_of(18, 3)
    p = plan(players, WINDS, 5, seed=3, teams=teams)
    assert all(len(r.byes) == 2 for r in p.rounds)
    assert mates_at_tables([r.tables for r in p.rounds], teams) == 0 == p.figures.team_mates
    pairs = teams_of(16, 2)  # 8 teams of two
    p = plan(list(range(1, 17)), WINDS, 6, seed=3, teams=pairs)
    assert mates_at_tables([r.tables for r in p.rounds], pairs) == 0


def test_without_teams_the_figures_have_none() -> None:
    p = plan(list(range(1, 17)), WINDS, 4, seed=1)
    assert p.figures.team_mates is None and p.figures.team_bound is None
    assert not any(line.startswith("team") for line in p.figures.lines())
    p = plan(list(range(1, 17)), WINDS, 4, seed=1, teams={1: "", 2: ""})
    assert p.figures.team_mates is None


def test_a_replan_after_played_rounds_keeps_team_mates_apart() -> None:
    players = list(range(1, 17))
    teams = teams_of(16, 4)
    first = plan(players, WINDS, 2, seed=4, teams=teams)
    played = [r.tables for r in first.rounds]
    again = plan(players, WINDS, 4, played=played, seed=8, teams=teams)
    assert mates_at_tables([r.tables for r in again.rounds], teams) == 0
    assert again.figures.team_mates == 0


def test_the_repair_gives_a_vacancy_to_a_filler_without_a_team_mate_there() -> None:
    tables = [(1, 2, 3, 4), (5, 6, 7, 8)]
    teams = {9: "A", 1: "A", 10: "B"}
    # player 2 withdrew: of the two fillers, 9 is 1's team-mate, 10 is not
    r = repair(tables, [1, 3, 4, 5, 6, 7, 8, 9, 10], [9, 10], teams=teams)
    assert r.tables[0][1] == 10 and r.byes == (9,)
    # without teams the first filler (in the order given) takes it
    r = repair(tables, [1, 3, 4, 5, 6, 7, 8, 9, 10], [9, 10])
    assert r.tables[0][1] == 9
