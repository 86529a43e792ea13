"""Teams in the store (issue 26): a player's team (CSV in and out, add, update, bundle,
chain), team-mates apart when a round is seated or planned, and the team standings — each
team's row the sum of its members' rows, whatever the scope."""

from __future__ import annotations

import dataclasses
import itertools
import random
from fractions import Fraction
from pathlib import Path

import pytest

from referee_app.storage import StorageError, Tournament
from referee_app.storage.errors import CSVImportError
from referee_app.storage.models import PlayerStatus, StandingRow
from referee_app.storage.team_standings import score_columns, team_table

NAMES = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强",
         "吴昊", "徐静", "马林", "胡波", "郭涛", "何敏", "高飞", "林娜")
TEAMS = ("川军", "蓉城", "渝州", "巴蜀")


@pytest.fixture
def team_event(tmp_path: Path) -> Tournament:
    """16 players in 4 teams of 4 (each team's players registered one after another)."""
    t = Tournament.create(tmp_path / "teams.sqlite", "Team Open", backup_every=0)
    for i, name in enumerate(NAMES):
        t.players.add(name, name_latin=f"Player {i + 1}", team=TEAMS[i // 4])
    yield t
    t.close()


def mates_together(t: Tournament, number: int) -> int:
    team = {p.name: p.team for p in t.players.list()}
    return sum(1 for row in t.rounds.seating(number).tables.values()
               for a, b in itertools.combinations(row.values(), 2)
               if team[a] and team[a] == team[b])


# --------------------------------------------------------------------------- the team column

def test_the_team_column_goes_in_and_out_of_the_entry_list(tmp_path: Path) -> None:
    src = tmp_path / "in.csv"
    src.write_text("姓名,pinyin,俱乐部,队伍\n李伟,Li Wei,Ottawa,川军\n张敏,Zhang Min,,\n"
                   "陈杰,Chen Jie,Montreal,=SUM(A1)\n", encoding="utf-8")
    t = Tournament.create(tmp_path / "a.sqlite", "A", backup_every=0)
    t.players.import_csv(src)
    assert [(p.name, p.team) for p in t.players.list()] == [
        ("李伟", "川军"), ("张敏", ""), ("陈杰", "=SUM(A1)")]
    out = t.players.export_csv(tmp_path / "out.csv")
    text = out.read_text(encoding="utf-8-sig")
    assert text.splitlines()[0] == "name,name_latin,club,status,team"
    assert "'=SUM(A1)" in text  # a spreadsheet would run it: guarded, and read back as it was
    other = Tournament.create(tmp_path / "b.sqlite", "B", backup_every=0)
    other.players.import_csv(out)
    assert [(p.name, p.name_latin, p.club, p.status, p.team) for p in other.players.list()] == \
        [(p.name, p.name_latin, p.club, p.status, p.team) for p in t.players.list()]
    t.close()
    other.close()


def test_a_team_name_is_checked_like_other_names(tmp_path: Path, db_dump) -> None:
    t = Tournament.create(tmp_path / "a.sqlite", "A", backup_every=0)
    t.players.add("李伟", team="  川军  ")
    assert t.players.get("李伟").team == "川军"  # trimmed, as names are
    before = db_dump(t.path)
    for bad, code in (("a\tb", "control_character"), ("x" * 201, "too_long"),
                      (7, "not_text")):
        with pytest.raises(StorageError) as e:
            t.players.add("张敏", team=bad)
        assert (e.value.field, e.value.code) == ("team", code)
        with pytest.raises(StorageError):
            t.players.update("李伟", team=bad)
    bad_csv = tmp_path / "bad.csv"
    bad_csv.write_text("name,team\n张敏,ok\n陈杰,\"a\u202eb\"\n", encoding="utf-8")
    with pytest.raises(CSVImportError) as e:
        t.players.import_csv(bad_csv)
    assert e.value.field == "line 3, team"
    with pytest.raises(StorageError) as e:
        t.players.update("李伟")
    assert e.value.code == "nothing_to_change"
    assert db_dump(t.path) == before  # nothing refused was written
    t.close()


def test_a_team_change_is_in_the_chain_and_the_bundle(team_event: Tournament,
                                                      tmp_path: Path) -> None:
    t = team_event
    t.players.update("李伟", team="蓉城")
    t.players.update("张敏", team="")
    log = t.record.log()
    assert log[-1]["action"] == "players.update" and log[-1]["detail"]["team"] == ""
    assert t.record.verify().entries == len(log)
    bundle = t.export_bundle()
    teams = {p["name"]: p.get("team") for p in bundle["players"]}
    assert teams["李伟"] == "蓉城" and teams["张敏"] is None  # no team, no key
    with Tournament.import_bundle(bundle, tmp_path / "copy.sqlite", backup_every=0) as c:
        assert [(p.name, p.team) for p in c.players.list()] == \
            [(p.name, p.team) for p in t.players.list()]
    assert sorted(t.players.teams()) == sorted(TEAMS)
    assert [p.name for p in t.players.teams()["蓉城"]] == ["李伟", *NAMES[4:8]]


# --------------------------------------------------------------------------- seating

def test_round_seat_keeps_team_mates_apart(team_event: Tournament) -> None:
    t = team_event
    for r in range(1, 7):
        s = t.rounds.seat(r, seed=r * 11)
        assert s.team_pairs == 0 == mates_together(t, r)


def test_round_plan_keeps_team_mates_apart_over_the_whole_event(team_event: Tournament
                                                                ) -> None:
    t = team_event
    p, seatings = t.plan.make(8, seed=5)
    assert p.figures.team_mates == 0 == p.figures.team_bound
    assert [mates_together(t, s.round) for s in seatings] == [0] * 8
    entry = t.record.log()[-1]
    assert entry["action"] == "round.plan" and entry["detail"]["team_mates"] == 0
    # a withdrawal: the round re-seated from the plan, team-mates still apart
    t.players.set_status("李伟", "withdrawn")
    t.players.add("替补一", status="substitute", team="川军")
    r, s = t.plan.seat(3, fill="substitutes", replace_existing=True)
    assert r.changed == (t.players.get("替补一").id,)  # into the leaver's seat, nobody else
    assert s.team_pairs == 0 == mates_together(t, 3)


def test_a_team_too_big_for_the_tables_says_how_many_times(tmp_path: Path) -> None:
    t = Tournament.create(tmp_path / "big.sqlite", "Big team", backup_every=0)
    for i, name in enumerate(NAMES):
        t.players.add(name, team="大队" if i < 5 else "")
    p, seatings = t.plan.make(4, seed=1)
    assert p.figures.team_mates == p.figures.team_bound == 4  # one pair a round, no more
    assert [s.team_pairs for s in seatings] == [1, 1, 1, 1]
    assert [mates_together(t, s.round) for s in seatings] == [1, 1, 1, 1]
    s = t.rounds.seat(5, seed=3)
    assert s.team_pairs == 1 == mates_together(t, 5)
    t.close()


# --------------------------------------------------------------------------- team standings

def _play(t: Tournament, record_for, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    for r in range(1, rounds + 1):
        t.rounds.seat(r, seed=seed + r)
        for table in t.rounds.seating(r).tables:
            for n in range(1, rng.randint(1, 4) + 1):
                t.hands.add(record_for(t, r, table, seed=rng.randrange(10**6)), round=r,
                            table=table, hand_no=n)
    ids = [p.id for p in t.players.list()]
    t.penalties.add([rng.choice(ids)], 5, "late", round=1)
    t.penalties.add([rng.choice(ids)], 3, "slow play", round=rounds, zero_sum=True)
    t.penalties.add([rng.choice(ids)], 2, "outside any round")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_team_sums_equal_the_members_rows(team_event: Tournament, record_for,
                                          seed: int) -> None:
    t = team_event
    t.players.update("林娜", team="")  # a player in no team counts for none
    t.players.add("替补", status="substitute", team="川军")  # not ranked: counts for none
    _play(t, record_for, 3, seed)
    for scope in ({}, {"round": 2}, {"through_round": 2}):
        players = t.standings.table(scope.get("round"), through_round=scope.get("through_round"))
        teams = t.standings.teams(scope.get("round"), through_round=scope.get("through_round"))
        team_of = {p.name: p.team for p in t.players.list()}
        assert sorted(r.team for r in teams) == sorted(TEAMS)
        for row in teams:
            mine = [p for p in players if team_of[p.player] == row.team]
            assert sorted(row.members) == sorted(p.player for p in mine)
            for c in ("chips", "hand_chips", "hands", "wins", "self_drawn", "discards_paid",
                      "flower_pigs", "penalties"):
                assert row.totals[c] == sum(getattr(p, c) for p in mine), c
            assert row.totals["largest_win_fan"] == max(p.largest_win_fan for p in mine)
            rounds = {n for p in mine for n in p.per_round}
            assert row.per_round == {n: sum(p.per_round.get(n, 0) for p in mine)
                                     for n in sorted(rounds)}
        # ranked by chips first (the tie-break order), ranks shared only on equal keys
        assert [r.chips for r in teams] == sorted((r.chips for r in teams), reverse=True)
        assert sum(r.chips for r in teams) == sum(p.chips for p in players
                                                  if team_of[p.player])


def _row(pid: int, chips: int, wins: int = 0, fan: int = 0, paid: int = 0) -> StandingRow:
    return StandingRow(rank=0, player_id=pid, player=f"p{pid}", club="",
                       status=PlayerStatus.ACTIVE, chips=chips, hand_chips=chips, hands=1,
                       wins=wins, self_drawn=0, discards_paid=paid, flower_pigs=0,
                       largest_win_fan=fan, penalties=0, per_round={1: chips})


def test_equal_teams_share_a_rank_and_the_tie_break_decides_the_rest() -> None:
    rows = [_row(1, 10, wins=1), _row(2, -10), _row(3, 5, wins=2), _row(4, -5),
            _row(5, 0, wins=1, fan=3), _row(6, 0), _row(7, 0, wins=1, fan=3), _row(8, 0)]
    teams = {1: "A", 2: "A", 3: "B", 4: "B", 5: "C", 6: "C", 7: "D", 8: "D"}
    got = team_table(rows, teams, ("chips", "wins", "largest_win_fan", "-discards_paid"))
    assert [(r.team, r.rank, r.tied) for r in got] == [
        ("B", 1, False), ("C", 2, True), ("D", 2, True), ("A", 4, False)]
    got = team_table(rows, teams, ("chips",))  # chips alone: all four tie at 0
    assert [r.rank for r in got] == [1, 1, 1, 1] and all(r.tied for r in got)
    assert team_table(rows, {}, ("chips",)) == []


def test_under_placement_the_members_points_are_summed_and_rank_first() -> None:
    """Placement scoring: a team's points are its members' (exact: thirds stay thirds),
    per round too, and they rank before the chips — team B has fewer chips but more
    points. Once cut, a member who carried nothing adds 0 and the stage is not summed."""
    def placed(pid: int, chips: int, pts: Fraction, carried: Fraction | None) -> StandingRow:
        return dataclasses.replace(_row(pid, chips), points=pts, per_round_points={1: pts},
                                   stage=2, carried=carried)

    rows = [placed(1, 30, Fraction(7, 3), Fraction(1, 2)), placed(2, 20, Fraction(0), None),
            placed(3, -20, Fraction(7, 3), None), placed(4, -30, Fraction(4), Fraction(2))]
    assert score_columns(rows)[0] == "points" and "carried" in score_columns(rows)
    assert "stage" not in score_columns(rows)
    got = team_table(rows, {1: "A", 2: "A", 3: "B", 4: "B"}, ("chips",))
    assert [(r.team, r.rank, r.points, r.chips) for r in got] == [
        ("B", 1, Fraction(19, 3), -50), ("A", 2, Fraction(7, 3), 50)]
    assert got[0].per_round_points == {1: Fraction(19, 3)} and got[0].per_round == {1: -50}
    assert {r.team: r.totals["carried"] for r in got} == {"A": Fraction(1, 2), "B": 2}
    assert got[0].to_dict()["points"] == 6.33 and got[0].to_dict()["per_round_points"] == {
        "1": 6.33}
    # under chips scoring the rows have no points: the teams neither
    chips = team_table([_row(1, 5), _row(2, -5)], {1: "A", 2: "B"}, ("chips",))
    assert all(r.points is None and "per_round_points" not in r.to_dict() for r in chips)
