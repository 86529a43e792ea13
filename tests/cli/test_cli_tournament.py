"""The tournament CLI contract: commands, --db, output, exit codes, nothing written on error."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from examples import spec_example

from referee_app.cli import main
from referee_app.storage import Tournament, default_db_path

EXAMPLE = spec_example()

PLAYERS_CSV = "name,name_latin,club\n" + "\n".join(
    f"{n},{latin},{club}" for n, latin, club in [
        ("李伟", "Li Wei", "Ottawa"), ("张敏", "Zhang Min", "Ottawa"),
        ("陈杰", "Chen Jie", "Montreal"), ("王芳", "Wang Fang", "Toronto"),
        ("刘洋", "Liu Yang", "Ottawa"), ("赵磊", "Zhao Lei", "Montreal"),
        ("孙丽", "Sun Li", "Toronto"), ("周强", "Zhou Qiang", "Ottawa")]) + "\n"


def run(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


@pytest.fixture
def event(tmp_path: Path) -> Path:
    db = tmp_path / "ev.sqlite"
    r = run("event", "new", "Ottawa Open", "--ruleset", "ottawa-2009", "--db", str(db))
    assert r.exit_code == 0, r.output
    csv = tmp_path / "players.csv"
    csv.write_text(PLAYERS_CSV, encoding="utf-8")
    r = run("players", "import", str(csv), "--db", str(db))
    assert r.exit_code == 0 and "registered 8 players" in r.output
    r = run("round", "seat", "1", "--seed", "11", "--db", str(db))
    assert r.exit_code == 0, r.output
    return db


def _record_file(tmp_path: Path, db: Path, table: int = 1, name: str = "h.json",
                 **changes) -> Path:
    with Tournament.open(db, backup_every=0) as t:
        seated = t.rounds.seating(1).tables[table]
    rec = json.loads(json.dumps(EXAMPLE))
    for s, n in seated.items():
        rec["seats"][s]["player"] = n
    rec.update(changes)
    p = tmp_path / name
    p.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    return p


def _dump(db: Path) -> str:
    import sqlite3

    c = sqlite3.connect(db)
    try:
        return "\n".join(c.iterdump())
    finally:
        c.close()


def test_help_names_the_default_database() -> None:
    for cmd in (["event", "new"], ["hand", "add"], ["standings"], ["round", "seat"],
                ["players", "import"], ["hand", "history"], ["event", "export"]):
        r = run(*cmd, "--help")
        assert r.exit_code == 0
        assert "--db" in r.output and default_db_path().name in r.output.replace("\n", "")


def test_event_new_refuses_existing(event: Path) -> None:
    r = run("event", "new", "Again", "--db", str(event))
    assert r.exit_code == 2 and r.stderr.startswith("error: db:")


def test_round_seat_prints_a_reproducible_seating(event: Path, tmp_path: Path) -> None:
    r = run("round", "show", "1", "--db", str(event))
    assert "Table  1: E " in r.output and "Table  2:" in r.output
    other = tmp_path / "other.sqlite"
    run("event", "new", "Twin", "--db", str(other))
    run("players", "import", str(tmp_path / "players.csv"), "--db", str(other))
    a = run("round", "seat", "2", "--seed", "5", "--json", "--db", str(event))
    b = run("round", "seat", "1", "--seed", "11", "--json", "--db", str(other))
    first = run("round", "show", "1", "--json", "--db", str(event))
    assert json.loads(first.output)["tables"] == json.loads(b.output)["tables"]
    assert json.loads(a.output)["round"] == 2


def test_hand_add_amend_history_and_standings(event: Path, tmp_path: Path) -> None:
    rec = _record_file(tmp_path, event)
    r = run("hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "1",
            "--referee", "赵", "--db", str(event))
    assert r.exit_code == 0, r.output
    assert "note:" not in r.stderr  # E deals the first hand, as the record says
    assert "saved hand id 1" in r.output and "+30" in r.output and "-61" in r.output
    fixed = json.loads(rec.read_text(encoding="utf-8"))
    fixed["events"].pop(0)
    fixed["seats"]["S"]["concealed"] = "2366p456s999s"
    fixed_path = tmp_path / "fixed.json"
    fixed_path.write_text(json.dumps(fixed, ensure_ascii=False), encoding="utf-8")
    r = run("hand", "amend", "1", str(fixed_path), "--db", str(event))
    assert r.exit_code == 2 and "--reason" in r.output  # the reason is required
    r = run("hand", "amend", "1", str(fixed_path), "--reason", "no kong was declared",
            "--referee", "钱", "--db", str(event))
    assert r.exit_code == 0 and "version 2" in r.output
    r = run("hand", "history", "1", "--db", str(event))
    assert r.exit_code == 0
    assert "v1 entered" in r.output and "v2 amended" in r.output
    assert "no kong was declared" in r.output and "by 钱" in r.output
    hist = json.loads(run("hand", "history", "1", "--json", "--db", str(event)).output)
    assert [v["version"] for v in hist] == [1, 2]
    assert hist[1]["diff"] == {s: hist[1]["totals"][s] - hist[0]["totals"][s] for s in "ESWN"}
    r = run("standings", "--json", "--db", str(event))
    rows = json.loads(r.output)
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows)
    assert {"rank", "player", "chips", "wins", "hands"} <= set(rows[0])
    assert sum(row["chips"] for row in rows) == 0 and rows[0]["chips"] == 32
    r1 = json.loads(run("standings", "--round", "1", "--json", "--db", str(event)).output)
    assert r1 == rows
    text = run("standings", "--db", str(event)).output
    assert "rank" in text and rows[0]["player"] in text
    assert "[amended]" in run("hand", "list", "--csv", str(tmp_path / "h.csv"), "--db",
                              str(event)).output
    assert "amended" in (tmp_path / "h.csv").read_text(encoding="utf-8-sig")
    assert "- event kong S 9s concealed" in run("hand", "history", "1", "--db", str(event)).output
    west = json.loads(run("hand", "show", "1", "--json", "--db", str(event)).output)["players"]["W"]
    st = run("players", "statement", west, "--db", str(event))
    assert st.exit_code == 0 and "§2.11 -16 to E: flower pig" in st.output
    assert st.output.rstrip().endswith("total -58")


def test_bad_hands_are_refused_with_clear_errors_and_nothing_changes(event: Path,
                                                                     tmp_path: Path) -> None:
    rec = _record_file(tmp_path, event)
    assert run("hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "1",
               "--db", str(event)).exit_code == 0
    before = _dump(event)
    r = run("hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "1",
            "--db", str(event))
    assert r.exit_code == 2 and r.stderr.startswith("error: hand_no:")
    r = run("hand", "add", str(rec), "--round", "1", "--table", "2", "--hand", "1",
            "--db", str(event))
    assert r.exit_code == 2 and "error: seats.E.player:" in r.stderr
    bad = json.loads(rec.read_text(encoding="utf-8"))
    bad["events"][1]["tile"] = "8p"
    badp = tmp_path / "bad.json"
    badp.write_text(json.dumps(bad, ensure_ascii=False), encoding="utf-8")
    r = run("hand", "add", str(badp), "--round", "1", "--table", "1", "--hand", "2",
            "--db", str(event))
    assert r.exit_code == 1 and "§4" in r.stderr and "--override-reason" in r.stderr
    missing = json.loads(rec.read_text(encoding="utf-8"))
    del missing["seats"]["N"]
    mp = tmp_path / "missing.json"
    mp.write_text(json.dumps(missing, ensure_ascii=False), encoding="utf-8")
    r = run("hand", "add", str(mp), "--round", "1", "--table", "1", "--hand", "2",
            "--db", str(event))
    assert r.exit_code == 2 and r.stderr.startswith("error: seats.N: seat is missing")
    (tmp_path / "junk.json").write_text("{oops", encoding="utf-8")
    r = run("hand", "add", str(tmp_path / "junk.json"), "--round", "1", "--table", "1",
            "--hand", "2", "--db", str(event))
    assert r.exit_code == 2 and "not valid JSON" in r.stderr
    r = run("hand", "add", str(tmp_path / "nofile.json"), "--round", "1", "--table", "1",
            "--hand", "2", "--db", str(event))
    assert r.exit_code == 2 and "cannot read" in r.stderr
    r = run("hand", "history", "77", "--db", str(event))
    assert r.exit_code == 2 and "no hand with id 77" in r.stderr
    (tmp_path / "p.csv").write_text("name\n李伟\n", encoding="utf-8")
    r = run("players", "import", str(tmp_path / "p.csv"), "--db", str(event))
    assert r.exit_code == 2 and "line 2" in r.stderr and "already registered" in r.stderr
    assert _dump(event) == before
    r = run("hand", "add", str(badp), "--round", "1", "--table", "1", "--hand", "2",
            "--override-reason", "head referee: table agreed", "--totals", "E=1,S=-1,W=0,N=0",
            "--db", str(event))
    assert r.exit_code == 0 and "[override]" in r.output
    r = run("hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "5",
            "--db", str(event))
    assert r.exit_code == 0 and "hand(s) 3-4 of table 1 are not entered yet" in r.stderr


def test_missing_database_is_a_clear_error(tmp_path: Path) -> None:
    r = run("standings", "--db", str(tmp_path / "none.sqlite"))
    assert r.exit_code == 2 and "does not exist" in r.stderr


def test_export_import_round_trip_and_penalty(event: Path, tmp_path: Path) -> None:
    rec = _record_file(tmp_path, event)
    run("hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "1", "--db",
        str(event))
    with Tournament.open(event, backup_every=0) as t:
        victim = t.rounds.seating(1).tables[2]["E"]
    r = run("penalty", "add", victim, "--chips", "5", "--reason", "late", "--round", "1",
            "--zero-sum", "--db", str(event))
    assert r.exit_code == 0 and f"{victim} -15" in r.output
    bundle = tmp_path / "b.json"
    r = run("event", "export", str(bundle), "--db", str(event))
    assert r.exit_code == 0 and "1 hands" in r.output
    new = tmp_path / "imported.sqlite"
    r = run("event", "import", str(bundle), "--db", str(new))
    assert r.exit_code == 0 and "8 players" in r.output
    a = run("standings", "--json", "--db", str(event)).output
    b = run("standings", "--json", "--db", str(new)).output
    assert a == b
    r = run("event", "import", str(bundle), "--db", str(new))
    assert r.exit_code == 2 and "already exists" in r.stderr
    (tmp_path / "broken.json").write_text('{"format": "referee-tournament/1"}', "utf-8")
    r = run("event", "import", str(tmp_path / "broken.json"), "--db", str(tmp_path / "x.sqlite"))
    assert r.exit_code == 2 and "--legacy" in r.stderr
    r = run("event", "import", str(tmp_path / "broken.json"), "--legacy", "--db",
            str(tmp_path / "x.sqlite"))
    assert r.exit_code == 2 and r.stderr.startswith("error: tournament:")
    assert not (tmp_path / "x.sqlite").exists()


def test_entry_point_runs_as_a_program(event: Path) -> None:
    p = subprocess.run([sys.executable, "-m", "referee_app", "standings", "--json", "--db",
                        str(event)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    assert len(json.loads(p.stdout)) == 8


def test_event_set_and_info(event: Path) -> None:
    r = run("event", "set", "--venue", "Ottawa", "--referees", "赵,钱", "--tie-break",
            "chips,-discards_paid", "--db", str(event))
    assert r.exit_code == 0, r.output
    with Tournament.open(event, backup_every=0) as t:
        assert t.info.venue == "Ottawa" and t.info.referees == ("赵", "钱")
        assert t.info.tie_break == ("chips", "-discards_paid")
    r = run("event", "set", "--tie-break", "height", "--db", str(event))
    assert r.exit_code == 2 and r.stderr.startswith("error: tie_break: unknown key 'height'")
    info = run("event", "info", "--db", str(event)).output
    assert "Ottawa" in info and "round 1: 2 tables, 0 hands" in info
