"""``Tournament.plan.make`` and ``referee-app round plan`` (issue 13): one transaction,
played rounds kept, figures printed, bad input refused with one line."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.storage import SeatingError


def _meetings(t, rounds) -> Counter:
    met: Counter = Counter()
    for n in rounds:
        for row in t.rounds.seating(n).tables.values():
            met.update(itertools.combinations(sorted(row.values()), 2))
    return met


def test_plan_saves_every_round_with_no_repeat(make_tournament) -> None:
    t = make_tournament(rounds=0)
    plan, seatings = t.plan.make(5, seed=2)
    assert [s.round for s in seatings] == [1, 2, 3, 4, 5]
    assert [r.number for r in t.rounds.list()] == [1, 2, 3, 4, 5]
    assert max(_meetings(t, range(1, 6)).values()) == 1
    assert plan.figures.repeats == 0 and plan.figures.wind_spread <= 1
    assert t.record.log()[-1]["action"] == "round.plan"


def test_played_rounds_are_kept(make_tournament, record_for) -> None:
    t = make_tournament(rounds=0)
    t.plan.make(4, seed=1)
    first = t.rounds.seating(1).tables
    t.hands.add(record_for(t, 1, 1), round=1, table=1, hand_no=1)
    plan, seatings = t.plan.make(6, seed=9)
    assert [s.round for s in seatings] == [2, 3, 4, 5, 6]
    assert t.rounds.seating(1).tables == first
    assert plan.figures.repeats == 24  # 6 rounds of 16: the counting bound
    with pytest.raises(SeatingError) as e:
        t.plan.make(1)
    assert e.value.field == "rounds"


def test_shorter_plan_drops_unplayed_rounds(make_tournament) -> None:
    t = make_tournament(rounds=0)
    t.plan.make(6, seed=1)
    t.plan.make(3, seed=1)
    assert [r.number for r in t.rounds.list()] == [1, 2, 3]


def test_uneven_players_need_a_choice_and_nothing_is_written(make_tournament) -> None:
    t = make_tournament(n=18, rounds=0)
    with pytest.raises(SeatingError) as e:
        t.plan.make(3)
    assert e.value.field == "players" and "byes" in str(e.value)
    assert t.rounds.list() == []
    _, seatings = t.plan.make(3, fill="byes", seed=4)
    assert all(len(s.byes) == 2 for s in seatings)
    assert len({b for s in seatings for b in s.byes}) == 6  # nobody sits out twice


def test_cli_round_plan_prints_figures(make_tournament) -> None:
    t = make_tournament(rounds=0)
    db = t.path
    t.close()
    r = CliRunner().invoke(main, ["round", "plan", "--rounds", "4", "--seed", "5",
                                  "--db", str(db)])
    assert r.exit_code == 0, r.output
    assert "Round 4 seating" in r.output
    assert "repeat meetings: 0 (counting bound 0)" in r.output
    assert "seat wind spread: 0" in r.output
    r = CliRunner().invoke(main, ["round", "plan", "--rounds", "4", "--seed", "5", "--json",
                                  "--db", str(db)])
    data = json.loads(r.output)
    assert data["figures"]["repeats"] == 0 and len(data["rounds"]) == 4
    r = CliRunner().invoke(main, ["round", "plan", "--rounds", "0", "--db", str(db)])
    assert r.exit_code == 2 and r.output.count("\n") == 1 and "rounds" in r.output
    # a typo of a huge count is refused at once, not planned for minutes
    r = CliRunner().invoke(main, ["round", "plan", "--rounds", "1000000", "--db", str(db)])
    assert r.exit_code == 2 and "at most 64" in r.output and r.output.count("\n") == 1


def test_reseat_after_withdrawal_changes_one_seat(make_tournament) -> None:
    t = make_tournament(n=17, rounds=0)
    _, seatings = t.plan.make(3, fill="byes", seed=2)
    before = {a.player: (a.table, a.seat) for a in t.rounds.seating(3).assignments}
    leaver = t.rounds.seating(3).assignments[0].player
    t.players.set_status(leaver, "withdrawn")
    r, s = t.plan.reseat(3)
    after = {a.player: (a.table, a.seat) for a in s.assignments}
    assert leaver not in after and len(r.moved) == 1 and not s.byes
    assert sum(after.get(p) != where for p, where in before.items() if p != leaver) == 0
    assert t.rounds.problems(3) == []
    t.players.set_status(after and next(iter(after)), "withdrawn")
    with pytest.raises(SeatingError) as e:
        t.plan.reseat(3)
    assert "byes" in str(e.value)
    _, s = t.plan.reseat(3, fill="byes")
    assert len(s.tables) == 3 and len(s.byes) == 3


def test_replanning_keeps_the_stored_plan_and_refills_withdrawals(make_tournament,
                                                                  record_for) -> None:
    t = make_tournament(n=32, rounds=0)
    t.plan.make(6, seed=3)
    before = {n: t.rounds.seating(n).tables for n in range(1, 7)}
    t.hands.add(record_for(t, 1, 1), round=1, table=1, hand_no=1)
    plan, _ = t.plan.make(6, seed=99)  # another seed, same players: nothing to improve
    assert plan.method.startswith("kept")
    assert {n: t.rounds.seating(n).tables for n in range(1, 7)} == before
    leaver = t.rounds.seating(4).assignments[5].player
    t.players.set_status(leaver, "withdrawn")
    plan, seatings = t.plan.make(6, seed=99, fill="byes")
    assert plan.figures.repeats == 0
    assert all(len(s.byes) == 3 and leaver not in s.byes for s in seatings)
    assert all(t.rounds.problems(n) == [] for n in range(2, 7))
    fresh, _ = t.plan.make(6, seed=5, fill="byes", fresh=True)
    assert not fresh.method.startswith("kept")


def test_replanning_after_a_withdrawal_keeps_table_numbers(make_tournament) -> None:
    """16 players, one withdraws, `round plan --fill byes` keeps the stored plan: in each
    round only the leaver's tablemates change (they sit out); no table is renumbered."""
    t = make_tournament(rounds=0)
    t.plan.make(4, seed=1)
    before = {n: {a.player: (a.table, a.seat) for a in t.rounds.seating(n).assignments}
              for n in range(1, 5)}
    leaver = t.rounds.seating(3).tables[2]["E"]
    t.players.set_status(leaver, "withdrawn")
    plan, _ = t.plan.make(4, seed=2, fill="byes")
    assert plan.method.startswith("kept")
    for n in range(1, 5):
        s = t.rounds.seating(n)
        after = {a.player: (a.table, a.seat) for a in s.assignments}
        table = before[n][leaver][0]
        moved = {p for p, w in before[n].items() if p != leaver and after.get(p) != w}
        assert moved == set(s.byes) and len(moved) == 3
        assert all(before[n][p][0] == table for p in moved)
        assert table not in s.tables and len(s.tables) == 3
