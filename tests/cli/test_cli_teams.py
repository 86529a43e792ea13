"""The command line of a team event and of check-in (issue 26): players add/update --team,
the entry list's team column in and out, standings --teams (text, JSON, CSV), round seat
and round plan saying how many pairs of team-mates share a table, players status absent."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from examples import spec_example

from referee_app.cli import main
from referee_app.storage import Tournament

NAMES = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强",
         "吴昊", "徐静", "马林", "胡波", "郭涛", "何敏", "高飞", "林娜")
TEAMS = ("川军", "蓉城", "渝州", "巴蜀")


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    """16 players in 4 teams of 4, from an entry list with a team column."""
    db = tmp_path / "teams.sqlite"
    assert run("event", "new", "Team Open", "--db", str(db)).exit_code == 0
    src = tmp_path / "players.csv"
    src.write_text("name,name_latin,team\n" + "".join(
        f"{n},Player {i + 1},{TEAMS[i // 4]}\n" for i, n in enumerate(NAMES)), encoding="utf-8")
    r = run("players", "import", str(src), "--db", str(db))
    assert r.exit_code == 0, r.output
    return db


def test_players_add_update_list_and_export_with_teams(event: Path, tmp_path: Path) -> None:
    r = run("players", "add", "替补", "--team", "川军", "--status", "substitute", "--db",
            str(event))
    assert r.exit_code == 0, r.output
    r = run("players", "update", "替补", "--team", "蓉城", "--club", "Ottawa", "--db",
            str(event))
    assert r.exit_code == 0 and "蓉城" in r.output and "Ottawa" in r.output
    r = run("players", "update", "替补", "--db", str(event))
    assert r.exit_code == 2 and "nothing to change" in r.output
    listed = json.loads(run("players", "list", "--team", "蓉城", "--json", "--db",
                            str(event)).output)
    assert [p["name"] for p in listed] == [*NAMES[4:8], "替补"]
    assert {p["team"] for p in listed} == {"蓉城"}
    text = run("players", "list", "--db", str(event)).output
    assert "川军" in text.splitlines()[0]  # the team column, in a team event
    out = tmp_path / "out.csv"
    r = run("players", "export", str(out), "--db", str(event))
    assert r.exit_code == 0 and "17" in r.output
    with out.open(encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [(x["name"], x["team"], x["status"]) for x in rows][-1] == ("替补", "蓉城",
                                                                         "substitute")
    # the exported list is the entry list of another event
    other = tmp_path / "other.sqlite"
    run("event", "new", "Copy", "--db", str(other))
    assert run("players", "import", str(out), "--db", str(other)).exit_code == 0
    with Tournament.open(other, backup_every=0) as t:
        assert [(p.name, p.team) for p in t.players.list()][-2:] == [("林娜", "巴蜀"),
                                                                     ("替补", "蓉城")]


def test_round_plan_and_seat_say_how_many_team_mates_share_a_table(event: Path) -> None:
    r = run("round", "plan", "--rounds", "5", "--seed", "3", "--json", "--db", str(event))
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    assert data["figures"]["team_mates"] == 0 == data["figures"]["team_bound"]
    assert [x["team_pairs"] for x in data["rounds"]] == [0] * 5
    team = dict(zip(NAMES, (TEAMS[i // 4] for i in range(16)), strict=True))
    for rnd in data["rounds"]:
        for names in rnd["tables"].values():
            assert len({team[n] for n in names.values()}) == 4  # one of each team a table
    assert json.loads(run("round", "show", "2", "--json", "--db", str(event)).output)[
        "team_pairs"] == 0  # said in a team event, 0 included
    text = run("round", "show", "2", "--db", str(event)).output
    assert "Team-mates at one table: 0" in text
    r = run("round", "plan", "--rounds", "5", "--seed", "3", "--fresh", "--db", str(event))
    assert "team-mates at one table: 0 (least possible 0)" in r.output
    r = run("--lang", "zh", "round", "show", "1", "--db", str(event))
    assert "同队同桌：0 对" in r.output


def test_an_impossible_team_says_how_many_times(tmp_path: Path) -> None:
    db = tmp_path / "big.sqlite"
    run("event", "new", "Big team", "--db", str(db))
    for i, n in enumerate(NAMES):
        run("players", "add", n, *(["--team", "大队"] if i < 5 else []), "--db", str(db))
    r = run("round", "seat", "1", "--seed", "2", "--json", "--db", str(db))
    assert json.loads(r.output)["team_pairs"] == 1
    r = run("round", "plan", "--rounds", "3", "--seed", "2", "--db", str(db))
    assert "team-mates at one table: 3 (least possible 3)" in r.output


def _round_1_standings(event: Path, csv_path: Path) -> tuple[list[Any], list[Any]]:
    """Round 1 seated and one hand played at each table: the players' standings and the
    team standings (``--json``, the CSV written to ``csv_path``)."""
    run("round", "seat", "1", "--seed", "5", "--db", str(event))
    with Tournament.open(event, backup_every=0) as t:
        for table, names in t.rounds.seating(1).tables.items():
            rec = json.loads(json.dumps(spec_example()))
            for s, n in names.items():
                rec["seats"][s]["player"] = n
            t.hands.add(rec, round=1, table=table, hand_no=1)
    players = json.loads(run("standings", "--json", "--db", str(event)).output)
    r = run("standings", "--teams", "--json", "--csv", str(csv_path), "--db", str(event))
    assert r.exit_code == 0, r.output
    return players, json.loads(r.output)


def test_standings_teams_add_up_the_members(event: Path, tmp_path: Path) -> None:
    players, teams = _round_1_standings(event, tmp_path / "t.csv")
    team_of = dict(zip(NAMES, (TEAMS[i // 4] for i in range(16)), strict=True))
    for row in teams:
        mine = [p for p in players if team_of[p["player"]] == row["team"]]
        assert row["chips"] == sum(p["chips"] for p in mine)
        assert row["wins"] == sum(p["wins"] for p in mine)
        assert sorted(row["members"]) == sorted(p["player"] for p in mine)
    ranks = [row["rank"] for row in teams]
    assert ranks == sorted(ranks) and ranks[0] == 1
    with (tmp_path / "t.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [(x["team"], int(x["chips"])) for x in rows] == [(t["team"], t["chips"])
                                                            for t in teams]
    text = run("standings", "--teams", "--db", str(event)).output
    assert "team standings" in text and all(name in text for name in TEAMS)
    zh = run("--lang", "zh", "standings", "--teams", "--db", str(event)).output
    assert "团体排名" in zh and "队伍" in zh


def test_standings_teams_without_teams_is_one_clear_line(tmp_path: Path) -> None:
    db = tmp_path / "plain.sqlite"
    run("event", "new", "Plain", "--db", str(db))
    run("players", "add", "李伟", "--db", str(db))
    r = run("standings", "--teams", "--db", str(db))
    assert r.exit_code == 2 and "nobody is in a team" in r.output
    assert "Traceback" not in r.output


def test_check_in_from_the_command_line(event: Path) -> None:
    r = run("players", "status", "李伟", "absent", "--db", str(event))
    assert r.exit_code == 0 and "absent" in r.output
    assert "缺席" in run("--lang", "zh", "players", "list", "--status", "absent", "--db",
                         str(event)).output
    r = run("round", "seat", "1", "--seed", "1", "--fill", "byes", "--json", "--db",
            str(event))
    data = json.loads(r.output)
    assert data["absent"] == ["李伟"]
    assert "李伟" not in [n for t in data["tables"].values() for n in t.values()]
    text = run("round", "show", "1", "--db", str(event)).output
    assert "Absent: 李伟" in text
    run("players", "status", "李伟", "active", "--db", str(event))
    with Tournament.open(event, backup_every=0) as t:
        actions = [(e["action"], e["detail"].get("status")) for e in t.record.log()]
    assert actions[-3:] == [("players.status", "absent"), ("round.seat", None),
                            ("players.status", "active")]


def test_team_standings_under_placement_sum_the_points_and_rank_by_them(
        event: Path, tmp_path: Path) -> None:
    """Placement scoring (issue 26): a team's row carries its members' points summed, and
    the points rank the teams first (text, JSON, CSV); once cut, --stage gives the team rows
    of that stage's players alone."""
    assert run("event", "set", "--scoring", "placement", "--db", str(event)).exit_code == 0
    players, teams = _round_1_standings(event, tmp_path / "t.csv")
    team_of = dict(zip(NAMES, (TEAMS[i // 4] for i in range(16)), strict=True))
    for row in teams:
        mine = [p for p in players if team_of[p["player"]] == row["team"]]
        assert row["points"] == pytest.approx(sum(p["points"] for p in mine))
        assert row["per_round_points"]["1"] == pytest.approx(row["points"])
        assert list(row)[:4] == ["rank", "team", "members", "points"]
    assert sum(row["points"] for row in teams) == pytest.approx(4 * (4 + 2 + 1 + 0))
    points = [row["points"] for row in teams]
    assert points == sorted(points, reverse=True)  # the points rank first
    with (tmp_path / "t.csv").open(encoding="utf-8-sig") as f:
        rows = list(csv.DictReader(f))
    assert [(x["team"], float(x["points"])) for x in rows] == [
        (row["team"], pytest.approx(row["points"])) for row in teams]
    text = run("standings", "--teams", "--db", str(event)).output.splitlines()
    assert text[0].endswith("tie-break: points, chips, wins, largest_win_fan, -discards_paid")
    assert text[1].split()[:4] == ["rank", "team", "points", "chips"]
    # a cut: the final's team rows are its players' alone
    r = run("stage", "cut", "--after-round", "1", "--top", "8", "--carry", "half", "--name",
            "final", "--db", str(event))
    assert r.exit_code == 0, r.output
    final = {p["player"] for p in json.loads(run("standings", "--stage", "final", "--json",
                                                 "--db", str(event)).output)}
    staged = json.loads(run("standings", "--teams", "--stage", "final", "--json", "--db",
                            str(event)).output)
    assert sorted(n for row in staged for n in row["members"]) == sorted(final)
    assert all("stage" not in row for row in staged)
