"""A hostile or clumsy user at every command (issue 11 attack pass): each finding is a table
row here, run through the real command line in-process.

Every JSON file the app reads (bundles, ruleset files, report templates, the blind second
entry, an amendment's dry run) goes through the one shared reader: a BOM is accepted, an
empty file is "FILE is empty", deep nesting and non-objects are one line with exit 2 —
never the last-resort "internal error".
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.storage import Tournament
from tests.examples import spec_example

DEEP = b"[" * 100_000 + b"]" * 100_000
PLAYERS = ("Li Wei", "Zhang Min", "Chen Jie", "Wang Fang")


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Four players seated at one table, one hand saved, and its bundle."""
    d = tmp_path_factory.mktemp("attack")
    db = d / "t.sqlite"
    with Tournament.create(db, "Attack Open", backup_every=0) as t:
        for n in PLAYERS:
            t.players.add(n)
        t.rounds.seat(1, seed=1)
        rec = spec_example()
        for seat, name in t.rounds.seating(1).tables[1].items():
            rec["seats"][seat]["player"] = name
        t.hands.add(rec, round=1, table=1, hand_no=1)
        bundle = t.export_bundle()
    return {"db": db, "record": rec, "bundle": bundle}


def invoke(args: list[str]) -> Any:
    return CliRunner().invoke(main, args, catch_exceptions=True)


def one_line(res: Any) -> str:
    assert res.exception is None or isinstance(res.exception, SystemExit), repr(res.exception)
    assert "Traceback" not in res.output
    assert "internal error" not in res.output, res.output
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    return lines[0]


#: command lines reading a JSON FILE (the tournament's db appended where it needs one)
JSON_READERS = {
    "event import": lambda f, d: ["event", "import", f, "--db", str(d / "new.sqlite")],
    "event new --ruleset-file": lambda f, d: ["event", "new", "X", "--ruleset-file", f,
                                              "--db", str(d / "new.sqlite")],
    "rules --file": lambda f, d: ["rules", "--file", f],
    "score --ruleset-file": lambda f, d: ["score", str(d / "hand.json"), "--ruleset-file", f],
    "report --template": lambda f, d: ["report", "standings", "-o", str(d / "s.pdf"),
                                       "--template", f, "--db", str(d / "t.sqlite")],
    "hand verify --record": lambda f, d: ["hand", "verify", "1", "--record", f,
                                          "--db", str(d / "t.sqlite")],
    "hand amend --dry-run": lambda f, d: ["hand", "amend", "1", f, "--reason", "r",
                                          "--dry-run", "--db", str(d / "t.sqlite")],
}


@pytest.mark.parametrize("command", sorted(JSON_READERS))
@pytest.mark.parametrize(("content", "message"), [
    (b"", "in.json is empty"),
    (b"\xef\xbb\xbf  \n", "in.json is empty"),
    (DEEP, "JSON nested too deeply"),
    (b'{"a": ' + b"7" * 5000 + b"}", "a number is too long"),
    (b"\xff\xfe{\x00}\x00", "not UTF-8 text"),
])
def test_every_json_file_is_read_by_the_shared_reader(tournament: dict[str, Any],
                                                      tmp_path: Path, command: str,
                                                      content: bytes, message: str) -> None:
    shutil.copy(tournament["db"], tmp_path / "t.sqlite")
    (tmp_path / "hand.json").write_text(json.dumps(tournament["record"]), encoding="utf-8")
    f = tmp_path / "in.json"
    f.write_bytes(content)
    res = invoke(JSON_READERS[command](str(f), tmp_path))
    assert res.exit_code == 2, res.output
    line = one_line(res)
    assert message in line, line
    assert "in.json" in line, line  # the file is named


@pytest.mark.parametrize("command", ["hand verify --record", "hand amend --dry-run"])
@pytest.mark.parametrize(("content", "message"), [
    (b"null", "a hand record is a JSON object, got null"),
    (b"[1]", "a hand record is a JSON object, got list"),
    (b"42", "a hand record is a JSON object, got number"),
])
def test_a_second_entry_that_is_not_an_object(tournament: dict[str, Any], tmp_path: Path,
                                              command: str, content: bytes,
                                              message: str) -> None:
    shutil.copy(tournament["db"], tmp_path / "t.sqlite")
    f = tmp_path / "in.json"
    f.write_bytes(content)
    res = invoke(JSON_READERS[command](str(f), tmp_path))
    assert res.exit_code == 2, res.output
    assert message in one_line(res)


def test_a_bundle_with_a_bom_imports(tournament: dict[str, Any], tmp_path: Path) -> None:
    f = tmp_path / "bundle.json"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps(tournament["bundle"]).encode())
    res = invoke(["event", "import", str(f), "--db", str(tmp_path / "new.sqlite")])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize(("change", "message"), [
    (lambda r: r["seats"]["S"].__setitem__("pong", r["seats"]["S"].pop("pongs")),
     "did you mean 'pongs'?"),
    (lambda r: r.__setitem__("seats", 5), "seats"),
    (lambda r: r["seats"].__setitem__("E", 5), "seats.E"),
    (lambda r: r.__setitem__("events", 3), "events"),
])
def test_the_blind_second_entry_is_read_as_a_record(tournament: dict[str, Any],
                                                    tmp_path: Path, change: Any,
                                                    message: str) -> None:
    """A misspelt key was compared as an empty field (a false "verified"); a wrong type
    ended in "internal error". Both are now refused by name, and nothing is verified."""
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    rec = json.loads(json.dumps(tournament["record"]))
    change(rec)
    f = tmp_path / "second.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    res = invoke(["hand", "verify", "1", "--record", str(f), "--db", str(db)])
    assert res.exit_code == 2, res.output
    assert message in one_line(res)
    with Tournament.open(db, backup_every=0) as t:
        assert t.hands.get(1).status.value != "verified"


# --------------------------------------------------------------------------- long text

LONG = {"name": 200, "reason": 1000}


@pytest.mark.parametrize(("args", "field", "limit"), [
    (["players", "add", "{T}"], "name", "name"),
    (["players", "add", "New", "--club", "{T}"], "club", "name"),
    (["players", "add", "New", "--latin", "{T}"], "name_latin", "name"),
    (["event", "set", "--name", "{T}"], "name", "name"),
    (["event", "set", "--venue", "{T}"], "venue", "name"),
    (["penalty", "add", "Li Wei", "--chips", "1", "--reason", "{T}"], "reason", "reason"),
    (["penalty", "add", "Li Wei", "--chips", "1", "--reason", "late", "--clause", "{T}"],
     "clause", "name"),
    (["hand", "void", "1", "--reason", "{T}"], "reason", "reason"),
    (["hand", "add", "{F}", "--round", "1", "--table", "1", "--hand", "2", "--referee", "{T}"],
     "referee", "name"),
])
def test_text_longer_than_any_report_can_print_is_refused(tournament: dict[str, Any],
                                                          tmp_path: Path, args: list[str],
                                                          field: str, limit: str) -> None:
    """A 1,000-character name made 'report standings' an internal error and a 10,000-
    character event name kept 'report seating' busy for minutes: such text is refused
    when it is entered (exit 2, the field named), and the longest allowed is saved."""
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(tournament["record"]), encoding="utf-8")
    n = LONG[limit]

    def line(text: str) -> list[str]:
        return [a.replace("{T}", text).replace("{F}", str(f)) for a in args] + ["--db", str(db)]

    res = invoke(line("长" * (n + 1)))
    assert res.exit_code == 2, res.output
    assert f"{field}: is {n + 1:,} characters long; at most {n:,}" in one_line(res)
    res = invoke(line("长" * n))
    assert res.exit_code == 0, res.output


def test_reports_print_the_longest_names(tournament: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    with Tournament.open(db, backup_every=0) as t:
        t.update_info(name="赛" * 200, venue="场" * 200)
        for i in range(4):
            t.players.add(str(i) * 200)
        t.rounds.seat(2, seed=2)
        t.penalties.add(["Li Wei"], 1, "理" * 1000, clause="§" * 200)
    for report in (["standings"], ["seating", "--round", "2"], ["player", "0" * 200]):
        res = invoke(["report", *report, "-o", str(tmp_path / "r.pdf"), "--db", str(db)])
        assert res.exit_code == 0, res.output


def test_a_name_saved_before_the_limit_is_one_line_not_an_internal_error(
        tournament: dict[str, Any], tmp_path: Path) -> None:
    """A file from before names were limited may hold a name no page can hold: the report
    says so in one line (exit 2) instead of reportlab's LayoutError as an internal error."""
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    con = sqlite3.connect(db)  # as an older version of the app could have saved it
    con.execute("UPDATE players SET name = ? WHERE name = 'Li Wei'", ("长" * 3000,))
    con.commit()
    con.close()
    res = invoke(["report", "standings", "-o", str(tmp_path / "r.pdf"), "--db", str(db)])
    assert res.exit_code == 2, res.output
    line = one_line(res)
    assert "too large to fit on a page" in line and "internal error" not in line
    assert not (tmp_path / "r.pdf").exists()


# --------------------------------------------------------------------------- numbers


@pytest.mark.parametrize("value", ["nan", "NaN", "inf", "40000", "1e308", "-1"])
def test_gui_lock_minutes_out_of_range(tmp_path: Path, value: str) -> None:
    """``--lock-minutes nan`` passed click's range check and was kept as the desk's setting
    (its idle timer then failed at every start); 40000 minutes overflow the timer.
    (--screenshot: were the value taken, the run would end instead of opening a window.)"""
    res = invoke(["gui", "--demo", "--screenshot", str(tmp_path / "s.png"),
                  "--lock-minutes", value])
    assert res.exit_code == 2, res.output
    assert "--lock-minutes" in one_line(res)


@pytest.mark.parametrize(("stored", "minutes"), [
    ("nan", 10), ("inf", 10), (40000, 10), (-3, 10), ("x", 10), (None, 10), (0, 0),
    (2.5, 2.5), (1440, 1440)])
def test_a_bad_stored_lock_setting_falls_back_to_the_default(stored: Any,
                                                             minutes: float) -> None:
    from referee_app.gui.views.session import stored_lock_minutes

    assert stored_lock_minutes(stored) == minutes


@pytest.mark.parametrize("value", ["٣", "1_000", "1e3", "1.5", "0", "99999999999999999999"])
@pytest.mark.parametrize(("args", "name"), [
    (["round", "plan", "--rounds", "{N}"], "--rounds"),
    (["round", "reseat", "{N}"], "NUMBER"),
    (["backup", "restore", "{N}"], "NUMBER"),
    (["report", "hand", "{N}", "-o", "{O}"], "HAND_ID"),
    (["report", "standings", "--through", "{N}", "-o", "{O}"], "--through"),
    (["report", "slips", "--round", "{N}", "-o", "{O}"], "--round"),
    (["report", "slips", "--round", "1", "--count", "{N}", "-o", "{O}"], "--count"),
])
def test_every_number_is_checked_alike(tournament: dict[str, Any], tmp_path: Path,
                                       args: list[str], name: str, value: str) -> None:
    """Options typed with click's int took '٣' (an Arabic-Indic 3) and '1_000' as numbers
    ('backup restore ٣' restored backup 3) and 'round plan --seed' of 20 digits said only
    'a number is out of range'; every number now goes through the same checked type."""
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    line = [a.replace("{N}", value).replace("{O}", str(tmp_path / "o.pdf")) for a in args]
    res = invoke([*line, "--db", str(db)])
    assert res.exit_code == 2, res.output
    assert name in one_line(res)


@pytest.mark.parametrize("seed", ["99999999999999999999", "٣", "1_000"])
def test_round_plan_seed_is_named(tournament: dict[str, Any], tmp_path: Path,
                                  seed: str) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    res = invoke(["round", "plan", "--rounds", "3", "--seed", seed, "--db", str(db)])
    assert res.exit_code == 2, res.output
    assert "--seed" in one_line(res)


# --------------------------------------------------------------------------- stdout closed


@pytest.mark.parametrize("args", [["rulesets"], ["--help"], ["hand", "--help"],
                                  ["rules", "ottawa-2009"], ["analyse", "1112345678999m"],
                                  ["score", "{F}"], ["standings", "--db", "{DB}"]])
def test_a_reader_that_stops_early_is_not_an_error(tournament: dict[str, Any], tmp_path: Path,
                                                   args: list[str]) -> None:
    """``referee-app rulesets | head -c1``: click turned the broken pipe into exit 1 ("the
    record breaks a rule") for every command outside the tournament's; now exit 0 and
    nothing on stderr, as the tournament commands already did."""
    import os
    import subprocess
    import sys

    f = tmp_path / "hand.json"
    f.write_text(json.dumps(tournament["record"]), encoding="utf-8")
    argv = [a.replace("{F}", str(f)).replace("{DB}", str(tournament["db"])) for a in args]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    r, w = os.pipe()
    os.close(r)  # nobody reads: the first write fails with EPIPE
    try:
        p = subprocess.run([sys.executable, "-m", "referee_app", *argv], stdout=w,
                           stderr=subprocess.PIPE, env=env, timeout=60)
    finally:
        os.close(w)
    assert p.returncode == 0, p.stderr
    assert p.stderr == b"", p.stderr


# --------------------------------------------------------------------------- dates


@pytest.mark.parametrize("date", ["2026-02-30", "2026-13-01", "=1+1", "2026-3-1", "20260301",
                                  "tomorrow", "2026-03-01T10:00"])
@pytest.mark.parametrize("option", ["--start-date", "--end-date"])
def test_a_date_that_is_no_date_is_refused(tournament: dict[str, Any], tmp_path: Path,
                                           option: str, date: str) -> None:
    """'event set --start-date =1+1' was saved and printed on every report; a date is now
    YYYY-MM-DD and a real day (exit 2), in 'event new' (no file is made) and 'event set'."""
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    res = invoke(["event", "set", option, date, "--db", str(db)])
    assert res.exit_code == 2, res.output
    assert "expected a date YYYY-MM-DD" in one_line(res)
    new = tmp_path / "new.sqlite"
    res = invoke(["event", "new", "X", option, date, "--db", str(new)])
    assert res.exit_code == 2, res.output
    assert not new.exists()
    res = invoke(["event", "set", option, "2026-02-28", "--db", str(db)])
    assert res.exit_code == 0, res.output


# --------------------------------------------------------------------------- invisible text


@pytest.mark.parametrize(("text", "code"), [
    ("\u202eevil", "U+202E"), ("Li\u2066Wei", "U+2066"), ("\u200b", "U+200B"),
    ("\ufeffname", "U+FEFF"), ("Li\u00adWei", "U+00AD"), ("Li\u200fWei", "U+200F")])
@pytest.mark.parametrize("args", [["players", "add", "{T}"],
                                  ["players", "add", "New", "--club", "{T}"],
                                  ["penalty", "add", "Li Wei", "--chips", "1", "--reason", "{T}"],
                                  ["event", "set", "--venue", "{T}"]])
def test_invisible_format_characters_are_refused(tournament: dict[str, Any], tmp_path: Path,
                                                 args: list[str], text: str,
                                                 code: str) -> None:
    """A right-to-left override in a name turned the rest of every listing line around, and
    a name of one zero-width space looked empty; both were registered (exit 0)."""
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    res = invoke([a.replace("{T}", text) for a in args] + ["--db", str(db)])
    assert res.exit_code == 2, res.output
    assert f"contains a control character ({code})" in one_line(res)


@pytest.mark.parametrize("name", ["👨\u200d👩\u200d👧", "می\u200cخواهم", "李\u3000伟", "Jo\u00a0Li"])
def test_joiners_and_wide_spaces_are_kept(tournament: dict[str, Any], tmp_path: Path,
                                          name: str) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(tournament["db"], db)
    res = invoke(["players", "add", name, "--db", str(db)])
    assert res.exit_code == 0, res.output


def test_a_new_tournament_on_something_that_is_not_a_file_is_bad_input(tmp_path: Path) -> None:
    """``event new --db /dev/null`` said 'disk I/O error … restore one' (exit 3)."""
    res = invoke(["event", "new", "X", "--db", "/dev/null"])
    assert res.exit_code == 2, res.output
    assert "exists and is not a file" in one_line(res)
