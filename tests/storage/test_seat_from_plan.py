"""``round seat N`` with a stored plan (issue 13): the plan's round is used instead of a new
search, and after a withdrawal only the seats that must change do change."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.storage import SeatingError


def _where(s) -> dict[str, tuple[int, str]]:
    return {a.player: (a.table, a.seat) for a in s.assignments}


def test_round_seat_uses_the_stored_plan_and_writes_nothing_when_unchanged(
        make_tournament) -> None:
    t = make_tournament(rounds=0)
    t.plan.make(5, seed=3)
    planned = {n: t.rounds.seating(n).tables for n in range(1, 6)}
    entries = len(t.record.log())
    for n in range(1, 6):
        assert t.rounds.seat(n).tables == planned[n]  # no --replace needed, no new search
    assert len(t.record.log()) == entries
    assert set(t.plan.stored()) == {1, 2, 3, 4, 5}


def test_withdrawal_changes_only_the_seat_a_substitute_takes(make_tournament) -> None:
    t = make_tournament(rounds=0)
    sub = t.players.add("替补", name_latin="Sub", status="substitute").name
    t.plan.make(4, seed=1)
    before = _where(t.rounds.seating(2))
    leaver = t.rounds.seating(2).tables[3]["S"]
    t.players.set_status(leaver, "withdrawn")
    with pytest.raises(SeatingError, match="substitutes"):
        t.rounds.seat(2)  # 15 players: the referee chooses how to fill
    r, s = t.plan.seat(2, fill="substitutes")
    after = _where(s)
    assert [t.players.get(p).name for p in r.changed] == [sub] and after[sub] == (3, "S")
    assert {p: w for p, w in after.items() if p != sub} == \
        {p: w for p, w in before.items() if p != leaver}
    assert t.record.log()[-1]["action"] == "round.seat"


def test_withdrawal_with_byes_moves_only_the_leavers_table(make_tournament) -> None:
    t = make_tournament(rounds=0)
    t.plan.make(4, seed=2)
    before = _where(t.rounds.seating(3))
    leaver = t.rounds.seating(3).tables[2]["E"]
    mates = {p for p in t.rounds.seating(3).tables[2].values()} - {leaver}
    t.players.set_status(leaver, "withdrawn")
    r, s = t.plan.seat(3, fill="byes")
    # 15 players at tables of 4: three must sit out, and no one else moves; table 2
    # stands empty rather than renumbering tables 3 and 4
    assert {t.players.get(p).name for p in r.changed} == mates == set(s.byes)
    assert sorted(s.tables) == [1, 3, 4] and r.dissolved == (2,)
    assert _where(s) == {p: w for p, w in before.items() if w[0] != 2}


def test_odd_count_refills_from_the_planned_bye_and_replace_undoes_hand_moves(
        make_tournament) -> None:
    t = make_tournament(n=17, rounds=0)
    _, seatings = t.plan.make(4, fill="byes", seed=5)
    assert all(len(s.byes) == 1 for s in seatings)
    on_bye = seatings[3].byes[0]
    leaver = seatings[3].tables[1]["N"]
    t.players.set_status(leaver, "withdrawn")
    r, s = t.plan.seat(4)
    assert [t.players.get(p).name for p in r.changed] == [on_bye] and not s.byes
    assert _where(s)[on_bye] == (1, "N")
    # a hand move, then `round seat --replace` goes back to the plan (refilled again)
    a, b = s.tables[1]["E"], s.tables[2]["E"]
    t.rounds.set_seat(4, 1, "E", b)
    assert t.rounds.seat(4).tables[1]["E"] == b  # without --replace the move stays
    assert t.rounds.seat(4, replace_existing=True).tables == s.tables
    assert _where(t.rounds.seating(4))[a] == (1, "E")


def test_rounds_with_hands_are_refused_and_no_plan_searches_anew(make_tournament,
                                                                 record_for) -> None:
    t = make_tournament(rounds=0)
    t.plan.make(3, seed=4)
    t.hands.add(record_for(t, 1, 1), round=1, table=1, hand_no=1)
    with pytest.raises(SeatingError, match="hands"):
        t.rounds.seat(1, replace_existing=True)
    t.rounds.seat(2, seed=8, replace_existing=True, use_plan=False)
    assert t.record.log()[-1]["detail"]["seed"] == 8


def test_zigong_three_seat_tables_plan_and_reseat(make_tournament) -> None:
    t = make_tournament(n=9, rounds=0, ruleset="zigong-3p")
    plan, seatings = t.plan.make(3, seed=1)
    assert t.info.seats == plan.seats and len(plan.seats) == 3
    assert plan.figures.repeats == 0 and plan.figures.wind_spread == 0
    met: Counter = Counter()
    for s in seatings:
        assert len(s.tables) == 3
        for row in s.tables.values():
            met.update(itertools.combinations(sorted(row.values()), 2))
    assert max(met.values()) == 1
    t.players.add("晚到", name_latin="Late", status="late")
    t.players.add("晚到二", name_latin="Late 2", status="late")
    leaver = seatings[1].tables[1][plan.seats[0]]
    t.players.set_status(leaver, "withdrawn")
    r, s = t.plan.seat(2, fill="byes")
    assert len(r.changed) == 1 and len(s.byes) == 1  # one newcomer takes the seat


def test_substitutes_seated_by_the_plan_keep_their_seats(make_tournament) -> None:
    t = make_tournament(n=15, rounds=0)
    t.players.add("替补", name_latin="Sub", status="substitute")
    _, seatings = t.plan.make(3, fill="substitutes", seed=2)
    assert all("替补" in _where(s) for s in seatings)
    r, s = t.plan.seat(2)
    assert r.changed == () and s.tables == seatings[1].tables


def test_cli_round_seat_says_it_used_the_plan(make_tournament) -> None:
    t = make_tournament(n=17, rounds=0)
    _, seatings = t.plan.make(3, fill="byes", seed=6)
    leaver = next(p for p in seatings[2].tables[4].values() if p not in seatings[1].byes)
    t.players.set_status(leaver, "withdrawn")
    db = t.path
    t.close()
    r = CliRunner().invoke(main, ["round", "seat", "2", "--db", str(db)])
    assert r.exit_code == 0, r.output
    assert "from the stored plan; changed seats: 1" in r.output
    r = CliRunner().invoke(main, ["round", "seat", "3", "--json", "--db", str(db)])
    data = json.loads(r.output)
    assert data["from_plan"] and data["changed"] == list(seatings[2].byes)
    r = CliRunner().invoke(main, ["round", "seat", "3", "--no-plan", "--db", str(db)])
    assert r.exit_code == 2 and "already seated" in r.output


def test_stored_plan_is_part_of_the_verified_record(make_tournament) -> None:
    t = make_tournament(rounds=0)
    t.plan.make(4, seed=1)
    t.plan.make(3, seed=2, fresh=True)
    assert set(t.plan.stored()) == {1, 2, 3}
    t.record.verify()  # raises when the chain and the tables disagree


def test_zigong_with_a_bye_each_round(make_tournament) -> None:
    t = make_tournament(n=10, rounds=0, ruleset="zigong-3p")
    plan, seatings = t.plan.make(4, fill="byes", seed=1)
    assert all(len(s.tables) == 3 and len(s.byes) == 1 for s in seatings)
    assert len({s.byes[0] for s in seatings}) == 4  # nobody sits out twice
    assert plan.figures.repeats == 0 and plan.figures.wind_spread <= 1
    sitting_out = seatings[1].byes[0]
    leaver = next(p for p in seatings[1].tables[2].values())
    t.players.set_status(leaver, "withdrawn")
    r, s = t.plan.seat(2)
    assert [t.players.get(p).name for p in r.changed] == [sitting_out] and not s.byes
