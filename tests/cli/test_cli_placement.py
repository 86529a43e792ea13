"""Placement scoring and stages on the command line (issue 26): event new/set --scoring,
standings (points first, the stage, --stage, --json), penalty --points, stage cut/list/
cancel/check — on the placement demo (sample_events/demo-placement.json) and a new event."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.storage import Tournament

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_events" / "demo-placement.json"


def run(*args: str) -> object:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("demo") / "placement.sqlite"
    Tournament.import_bundle(DEMO, db, backup_every=0).close()
    return db


def test_standings_text_puts_the_points_first_and_names_the_stage(demo: Path) -> None:
    r = run("standings", "--db", str(demo))
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "tie-break: points, chips" in lines[0]
    head = lines[1].split()
    assert head[:6] == ["rank", "player", "stage", "points", "carried", "chips"]
    first = lines[2].split()
    with Tournament.open(demo, backup_every=0) as t:
        top = t.standings.table()[0]
    assert first[:4] == ["1", top.player, "决赛", str(top.points)]
    assert any(line.split()[2] == "Qualifying" for line in lines[2:18])
    assert any(line.startswith("points = placement points (比赛分)") for line in lines)
    zh = run("--lang", "zh", "standings", "--db", str(demo)).output.splitlines()
    assert zh[1].split()[:6] == ["名次", "选手", "阶段", "比赛分", "带入", "筹码"]
    assert "同分比较：比赛分、筹码" in zh[0]


def test_standings_json_carries_points_and_the_stage(demo: Path) -> None:
    r = run("standings", "--json", "--db", str(demo))
    rows = json.loads(r.output)
    assert list(rows[0])[:7] == ["rank", "player", "player_id", "club", "status", "points",
                                 "chips"]
    with Tournament.open(demo, backup_every=0) as t:
        assert rows == [row.to_dict() for row in t.standings.table()]
    finalists = [x for x in rows if x["stage"] == 2]
    assert len(finalists) == 8 and all(x["carried"] is not None for x in finalists)
    assert any(isinstance(x["points"], float) for x in rows)  # halves: 6.5, 2.5 ...
    alone = json.loads(run("standings", "--stage", "决赛", "--json", "--db",
                           str(demo)).output)
    assert alone == finalists == json.loads(run("standings", "--stage", "2", "--json",
                                                "--db", str(demo)).output)
    bad = run("standings", "--stage", "semi", "--db", str(demo))
    assert bad.exit_code == 2 and "no stage semi" in bad.output and "决赛" in bad.output


def test_the_csv_has_the_points_first(demo: Path, tmp_path: Path) -> None:
    out = tmp_path / "s.csv"
    assert run("standings", "--csv", str(out), "--db", str(demo)).exit_code == 0
    head = out.read_text(encoding="utf-8-sig").splitlines()[0].split(",")
    assert head[:8] == ["rank", "player", "club", "status", "stage", "carried", "points",
                        "chips"]


def _event(tmp_path: Path, *extra: str) -> Path:
    db = tmp_path / "e.sqlite"
    r = run("event", "new", "Cup", "--scoring", "placement", *extra, "--db", str(db))
    assert r.exit_code == 0, r.output
    assert "scoring: placement points (比赛分) 4,2,1,0" in r.output
    return db


def test_event_new_and_set_take_the_scoring(tmp_path: Path) -> None:
    bad = run("event", "new", "Cup", "--scoring", "placement", "--placement-points", "4,2,1",
              "--db", str(tmp_path / "bad.sqlite"))
    assert bad.exit_code == 2 and "placement_points: expected one value per seat (4), got 3" \
        in bad.output and not (tmp_path / "bad.sqlite").exists()
    db = _event(tmp_path)
    r = run("event", "set", "--placement-points", "3,2,1,0", "--db", str(db))
    assert r.exit_code == 0 and "3,2,1,0" in r.output
    assert "scoring: placement points" in run("event", "info", "--db", str(db)).output
    r = run("event", "set", "--placement-points", "1,2,3,4", "--db", str(db))
    assert r.exit_code == 2 and "a better place is never worth less" in r.output
    r = run("--lang", "zh", "event", "set", "--scoring", "chips", "--db", str(db))
    assert r.exit_code == 0 and "计分：按筹码" in r.output


def test_penalties_in_points_on_the_command_line(tmp_path: Path) -> None:
    db = _event(tmp_path)
    assert run("players", "add", "李伟", "--db", str(db)).exit_code == 0
    r = run("penalty", "add", "李伟", "--points", "1", "--reason", "late", "--db", str(db))
    assert r.exit_code == 0 and "李伟 -1 pts" in r.output
    assert "counted in round 1 (the round in play" in r.output  # no --round given
    assert "李伟 -1 pts" in run("penalty", "list", "--db", str(db)).output
    for args in (("--chips", "2", "--points", "1"), ()):
        r = run("penalty", "add", "李伟", *args, "--reason", "x", "--db", str(db))
        assert r.exit_code == 2 and "give --chips N or --points N" in r.output
    r = run("penalty", "add", "李伟", "--points", "1", "--zero-sum", "--round", "1",
            "--reason", "x", "--db", str(db))
    assert r.exit_code == 2 and "cannot be zero-sum" in r.output
    row = json.loads(run("standings", "--json", "--db", str(db)).output)[0]
    assert (row["points"], row["point_penalties"], row["chips"]) == (-1, -1, 0)
    assert run("penalty", "add", "李伟", "--chips", "3", "--reason", "noise", "--db",
               str(db)).exit_code == 0
    listed = run("--lang", "zh", "penalty", "list", "--db", str(db)).output
    # both units in one list: each amount names its own, under a "penalty" column
    assert "罚分" in listed.splitlines()[0] and "李伟 -1 比赛分" in listed \
        and "李伟 -3 筹码" in listed


def test_stage_cut_list_check_and_cancel(tmp_path: Path) -> None:
    db = _event(tmp_path)
    with Tournament.open(db, backup_every=0) as t:
        for i in range(12):
            t.players.add(f"P{i:02d}")
        t.rounds.seat(1, seed=1)
        rng = random.Random(1)
        from referee_app.core.generate import random_record

        for table, players in t.rounds.seating(1).tables.items():
            rec = random_record(rng, "ottawa-2009", players=players)
            t.hands.add(rec, round=1, table=table, hand_no=1, override_reason="ruling",
                        override_totals=dict(zip(players, (30, 10, -10, -30), strict=True)))
        top = [r.player for r in t.standings.table()[:6]]
    r = run("stage", "cut", "--after-round", "1", "--top", "6", "--carry", "half", "--name",
            "final", "--db", str(db))
    assert r.exit_code == 0, r.output
    assert r.output.splitlines()[0] == ("cut: 2 final: rounds 2– · top 6 · half the score "
                                        "carried")
    assert r.output.splitlines()[1] == "  " + ", ".join(top)  # best first
    assert run("stage", "list", "--db", str(db)).output.splitlines() == [
        "1 Qualifying: rounds 1–1", "2 final: rounds 2– · top 6 · half the score carried"]
    zh = run("--lang", "zh", "stage", "list", "--db", str(db)).output
    assert "1 预赛：第1–1轮" in zh and "前 6 名晋级 · 成绩带入一半" in zh
    listed = json.loads(run("stage", "list", "--json", "--db", str(db)).output)
    assert listed[1]["carry"] == "half" and listed[0]["display_name"] == "Qualifying"
    assert "every cut chooses" in run("stage", "check", "--db", str(db)).output
    seat = run("round", "seat", "2", "--seed", "3", "--db", str(db))  # six at four seats
    assert seat.exit_code == 0, seat.output
    with Tournament.open(db, backup_every=0) as t:
        s = t.rounds.seating(2)
        assert len(s.byes) == 2 and {a.player for a in s.assignments} | set(s.byes) == set(top)
    again = run("stage", "cut", "--after-round", "1", "--top", "4", "--carry", "none",
                "--db", str(db))
    assert again.exit_code == 2 and "after_round" in again.output
    r = run("stage", "cancel", "--reason", "wrong size", "--db", str(db))
    assert r.exit_code == 0 and r.output.startswith("cut cancelled: 2 final")
    assert run("stage", "list", "--db", str(db)).output.splitlines() == [
        "1 Qualifying: rounds 1–"]
