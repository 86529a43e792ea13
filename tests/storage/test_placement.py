"""Placement scoring (issue 26): each round's each table gives its players the points of
their place by the chips they won there, level players sharing the places they cover.

The standings are checked against a computation written here from the hands as
``t.hands.list()`` returns them (their players and counted chips), not from the store's
own sums: random tournaments with ties made on purpose (override hands that leave players
level, one-hand tables), voids, amendments, penalties in points and chips, byes,
withdrawals, a 3-seat ruleset and only verified hands counting.
"""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from scoring_check import scores_by_round, total

from referee_app.core import get_ruleset, settle
from referee_app.core.generate import random_record
from referee_app.core.record import HandRecord
from referee_app.core.scores import figure, json_number, table_points
from referee_app.storage import PlayerStatus, StorageError, Tournament
from referee_app.storage.scoring import check_points

F = Fraction


# ------------------------------------------------------------------ the places' points

@pytest.mark.parametrize(("chips", "want"), [
    ({1: 30, 2: 10, 3: -10, 4: -30}, {1: 4, 2: 2, 3: 1, 4: 0}),
    ({1: 10, 2: 10, 3: -10, 4: -10}, {1: 3, 2: 3, 3: F(1, 2), 4: F(1, 2)}),  # two and two
    ({1: 5, 2: 5, 3: 5, 4: -15}, {1: F(7, 3), 2: F(7, 3), 3: F(7, 3), 4: 0}),  # three first
    ({1: 0, 2: 0, 3: 0, 4: 0}, {1: F(7, 4), 2: F(7, 4), 3: F(7, 4), 4: F(7, 4)}),
    ({1: 9, 2: 0, 3: 0, 4: -9}, {1: 4, 2: F(3, 2), 3: F(3, 2), 4: 0}),  # level in between
    ({1: -1, 2: 3, 3: -1, 4: -1}, {2: 4, 1: 1, 3: 1, 4: 1}),  # three level last
])
def test_a_tables_places_with_ties_shared(chips: dict[int, int], want: dict[int, Any]) -> None:
    points = check_points("4,2,1,0", 4)
    got = table_points(chips, points)
    assert got == {k: F(v) for k, v in want.items()}
    assert sum(got.values()) == sum(points)  # sharing never makes or loses points


def test_three_seats_and_other_lists() -> None:
    assert table_points({1: 4, 2: 4, 3: -8}, check_points("2,1,0", 3)) == \
        {1: F(3, 2), 2: F(3, 2), 3: 0}
    uma = check_points([15, 5, -5, -15], 4)  # negative values: an uma-like list
    assert table_points({1: 2, 2: 1, 3: 1, 4: 0}, uma) == {1: 15, 2: 0, 3: 0, 4: -15}
    assert check_points("3.5, 2.25, 1, 0", 4) == (F(7, 2), F(9, 4), F(1), F(0))


@pytest.mark.parametrize(("value", "seats", "code"), [
    ("4,2,1", 4, "points_count"),
    ("4,2,1,0", 3, "points_count"),
    ("4,2,x,0", 4, "bad_points"),
    ("4,2,1.125,0", 4, "bad_points"),  # three decimals
    ("4,2,,0", 4, "bad_points"),
    ("5000,2,1,0", 4, "bad_points"),
    ("1,2,3,4", 4, "points_increase"),
    ("4,1,2,0", 4, "points_increase"),
    ("1,1,1,1", 4, "points_all_equal"),
    (7, 4, "points_not_list"),
    ([4, 2, True, 0], 4, "bad_points"),
])
def test_placement_points_are_checked(value: Any, seats: int, code: str) -> None:
    with pytest.raises(StorageError) as e:
        check_points(value, seats)
    assert e.value.message_code == code


def test_points_are_printed_with_at_most_two_decimals() -> None:
    assert [figure(x) for x in (F(3), F(7, 3), F(14, 3), F(9, 2), F(-1, 3), 12)] == \
        ["3", "2.33", "4.67", "4.5", "-0.33", "12"]
    assert figure(F(5, 2), signed=True) == "+2.5" and figure(None) == "-"
    assert [json_number(x) for x in (F(3), F(7, 3), 5)] == [3, 2.33, 5]


# ------------------------------------------------------------------ random tournaments

RULES = {rs: get_ruleset(rs) for rs in ("ottawa-2009", "zigong-3p")}


def _record(rng: random.Random, ruleset: str, players: dict[str, str]) -> dict[str, Any]:
    while True:
        rec = random_record(rng, ruleset, players=players)
        if settle(HandRecord.from_dict(rec), RULES[ruleset]).ok:
            return rec


def _event(path: Path, rng: random.Random, ruleset: str, points: str | None,
           verified_only: bool) -> Tournament:
    t = Tournament.create(path, "Placement", ruleset=ruleset, scoring="placement",
                          placement_points=points, verified_only=verified_only,
                          backup_every=0)
    size = t.info.table_size
    for i in range(size * rng.randint(2, 4) + rng.randint(0, size - 1)):
        t.players.add(f"P{i:02d}")
    rounds = rng.randint(2, 4)
    for rnd in range(1, rounds + 1):
        if rnd > 1 and rng.random() < 0.3:  # someone withdraws between rounds
            t.players.set_status(rng.choice(t.players.list()).id, PlayerStatus.WITHDRAWN)
        t.rounds.seat(rnd, seed=rng.randint(1, 999), fill="byes")
        for table, players in t.rounds.seating(rnd).tables.items():
            kind = rng.random()
            if kind < 0.1:
                continue  # a table with no hand yet: no points
            n = 1 if kind < 0.3 else rng.randint(2, 4)
            for no in range(1, n + 1):
                seats = list(players)
                if rng.random() < 0.2:  # an override that leaves players level on purpose
                    level = rng.choice([0, 4, 8])  # two level first (or everyone at 0)
                    totals = {s: level if k < 2 else 0 for k, s in enumerate(seats)}
                    totals[seats[-1]] -= 2 * level
                    t.hands.add(_record(rng, ruleset, players), round=rnd, table=table,
                                hand_no=no, override_reason="ruling",
                                override_totals=totals)
                else:
                    t.hands.add(_record(rng, ruleset, players), round=rnd, table=table,
                                hand_no=no)
    hands = t.hands.list()
    for h in rng.sample(hands, len(hands) // 6):
        t.hands.void(h.id, reason="wrong table")
    for h in rng.sample(hands, len(hands) // 6):
        if not t.hands.get(h.id).void:
            t.hands.amend(h.id, {**_record(rng, ruleset, h.players), "hand_no": h.hand_no},
                          reason="slip misread")
    if verified_only:
        for h in rng.sample(hands, len(hands) // 2):
            if not t.hands.get(h.id).void:
                t.hands.set_status(h.id, "verified")
    names = [p.name for p in t.players.list()]
    for _ in range(rng.randint(0, 3)):
        t.penalties.add([rng.choice(names)], rng.choice([-1, 1, 2]), "conduct",
                        round=rng.choice([None, 1, 2]), unit="points")
        t.penalties.add([rng.choice(names)], rng.randint(1, 9), "late",
                        round=rng.choice([None, 1]))
    return t


@pytest.mark.parametrize("seed", range(8))
def test_standings_under_placement_equal_an_independent_computation(tmp_path: Path,
                                                                    seed: int) -> None:
    rng = random.Random(seed)
    ruleset = "zigong-3p" if seed % 4 == 3 else "ottawa-2009"
    points = rng.choice([None, "4,2,1,0", "3,2,1,0", "15,5,-5,-15"]) \
        if ruleset == "ottawa-2009" else rng.choice([None, "3,1,0"])
    with _event(tmp_path / "e.sqlite", rng, ruleset, points, seed % 3 == 2) as t:
        scores = scores_by_round(t)
        rows = t.standings.table()
        assert rows, "players are ranked"
        for r in rows:
            assert (r.points, r.chips) == total(scores, r.player), r.player
            assert r.points == sum(r.per_round_points.values()) + sum(
                (n for p in t.penalties.list() if not p.void and p.unit == "points"
                 and p.round is None for who, n in p.entries.items() if who == r.player), 0)
        keys = [(r.points, r.chips) for r in rows]
        assert keys == sorted(keys, reverse=True)  # points first, then chips
        for a, b in zip(rows, rows[1:], strict=False):  # a shared rank only on level rows
            assert (a.rank == b.rank) == (a.tied and b.tied and (a.points, a.chips, a.wins)
                                          == (b.points, b.chips, b.wins)) or a.rank < b.rank
        # a fresh connection ranks the same; each round alone is that round's column
        # (its tables and the penalties given in it)
        with Tournament.open(t.path, backup_every=0) as fresh:
            assert fresh.standings.table() == rows
            for rnd in {r for row in rows for r in row.per_round_points}:
                alone = {r.player: r.points for r in fresh.standings.table(rnd)}
                assert all(alone[r.player] == r.per_round_points.get(rnd, 0) for r in rows)


def test_a_table_with_no_counted_hand_gives_no_points_and_a_bye_none(make_tournament,
                                                                   record_for) -> None:
    t = make_tournament(n=9, rounds=0, scoring="placement")
    s = t.rounds.seat(1, seed=3, fill="byes")
    assert len(s.byes) == 1
    h = t.hands.add(record_for(t, 1, 1, seed=5), round=1, table=1, hand_no=1)
    rows = {r.player: r for r in t.standings.table()}
    assert sum(rows[p].points for p in s.tables[1].values()) == 7
    assert all(rows[p].points == 0 and rows[p].per_round_points == {}
               for p in (*s.tables[2].values(), *s.byes))
    t.hands.void(h.id, reason="wrong table")
    assert all(r.points == 0 for r in t.standings.table())


def test_penalties_in_points_and_the_switches_around_them(make_tournament) -> None:
    t = make_tournament(n=8, rounds=1)
    with pytest.raises(StorageError) as e:
        t.penalties.add(["李伟"], 1, "late", unit="points")
    assert e.value.message_code == "points_penalty_needs_placement"
    with pytest.raises(StorageError) as e:
        t.update_info(placement_points="4,2,1,0")
    assert e.value.message_code == "points_need_placement"
    t.update_info(scoring="placement")
    assert t.info.placement_points == (4, 2, 1, 0)
    assert t.standings.table()[0].points == 0
    with pytest.raises(StorageError) as e:
        t.penalties.add(["李伟"], 1, "late", unit="points", zero_sum=True, round=1)
    assert e.value.message_code == "points_penalty_not_zero_sum"
    p = t.penalties.add(["李伟"], 2, "late", unit="points", round=1)
    assert p.unit == "points" and p.entries == {"李伟": -2}
    row = next(r for r in t.standings.table() if r.player == "李伟")
    assert (row.points, row.point_penalties, row.chips, row.per_round_points) == (-2, -2, 0,
                                                                                  {1: -2})
    with pytest.raises(StorageError) as e:
        t.update_info(scoring="chips")
    assert e.value.message_code == "points_penalties_stand"
    t.penalties.void(p.id, reason="mistake")
    t.update_info(scoring="chips")
    assert t.standings.table()[0].points is None and t.info.placement_points == ()
    t.update_info(scoring="placement", placement_points=[3, 2, 1, 0])
    assert t.info.placement_points == (3, 2, 1, 0)
    assert t.record.verify()


def test_a_penalty_in_points_without_a_round_counts_in_the_round_in_play(
        make_tournament) -> None:
    """As a penalty in chips: without --round, the round in play (round 1 until a round is
    started or has hands), a round given is kept; the points go to that round's column."""
    t = make_tournament(n=8, rounds=2)
    t.update_info(scoring="placement")
    assert t.penalties.add(["李伟"], 1, "late", unit="points").round == 1
    t.rounds.start(2)
    p = t.penalties.add(["李伟"], 2, "phone", unit="points")
    assert (p.round, p.unit, p.entries) == (2, "points", {"李伟": -2})
    assert t.penalties.add(["李伟"], 4, "noise", unit="points", round=1).round == 1
    row = next(r for r in t.standings.table() if r.player == "李伟")
    assert (row.points, row.point_penalties, row.per_round_points) == (-7, -7, {1: -5, 2: -2})
    assert row.chips == 0 and row.penalties == 0
    only_2 = next(r for r in t.standings.table(2) if r.player == "李伟")
    assert only_2.points == -2
    assert t.record.verify()


def test_a_three_seat_event_defaults_to_three_values(tmp_path: Path) -> None:
    with Tournament.create(tmp_path / "z.sqlite", "Z", ruleset="zigong-3p",
                           scoring="placement", backup_every=0) as t:
        assert t.info.placement_points == (2, 1, 0)
        with pytest.raises(StorageError) as e:
            t.update_info(placement_points="4,2,1,0")
        assert e.value.message_code == "points_count"


def test_the_standings_csv_writes_scores_as_numbers(make_tournament, record_for,
                                                     tmp_path: Path) -> None:
    """A spreadsheet reads the CSV's scores as numbers: a negative score is written as a
    number, not as text the formula guard would quote (``'-2``); a team's sums too."""
    import csv

    t = make_tournament(n=8, rounds=1)
    t.update_info(scoring="placement")
    t.hands.add(record_for(t, 1, 1, seed=5), round=1, table=1, hand_no=1)
    t.penalties.add(["李伟"], 9, "late", unit="points", round=1)  # below 0 whatever his place
    for i, p in enumerate(t.players.list()):
        t.players.update(p.name, team="AB"[i % 2])
    rows = t.standings.table()
    for path, write in ((tmp_path / "s.csv", t.standings.export_csv),
                        (tmp_path / "t.csv", t.standings.export_teams_csv)):
        write(path)
        got = list(csv.DictReader(open(path, encoding="utf-8-sig")))
        for row in got:
            for key in ("points", "chips", "round_1"):
                assert not row[key].startswith("'"), (path.name, key, row[key])
                float(row[key])
    got = list(csv.DictReader(open(tmp_path / "s.csv", encoding="utf-8-sig")))
    assert [float(r["points"]) for r in got] == [float(json_number(r.points)) for r in rows]
    assert any(float(r["points"]) < 0 for r in got) and any(int(r["chips"]) < 0 for r in got)
    teams = list(csv.DictReader(open(tmp_path / "t.csv", encoding="utf-8-sig")))
    assert sum(float(r["points"]) for r in teams) == sum(float(r["points"]) for r in got)
