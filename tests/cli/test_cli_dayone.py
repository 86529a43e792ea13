"""What a new director hits on the day (issue 25), from the command line: the round in
play and its clock, an override's totals, a penalty's round, verifying a round, the
dealer warning, and tables a referee reads (display width, names, readable times)."""

from __future__ import annotations

import json
import re
import shutil
from datetime import datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from examples import spec_example

from referee_app.cli import main
from referee_app.cli.layout import pad, rpad, table
from referee_app.core.display import duration, when, width
from referee_app.core.i18n import known
from referee_app.storage import InPlay, Tournament

PLAYERS = [("李伟", "Li Wei"), ("张敏", "Zhang Min"), ("陈杰", "Chen Jie"), ("王芳", "Wang Fang"),
           ("欧阳娜娜", "Ouyang Nana"), ("赵磊", "Zhao Lei"), ("孙丽", "Sun Li"), ("周强", "Zhou Qiang")]
PIN = {"REFEREE_PIN": "482193", "NEW_REFEREE_PIN": "482193"}


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env={**PIN, **(env or {})},
                              catch_exceptions=False)


@pytest.fixture
def db(made: Path, tmp_path: Path) -> Path:
    """A tournament with a head referee (赵) and a referee (钱), 8 players, 2 rounds planned:
    a copy of ``made`` (its folder: the file, its backups, the players' CSV) for each test."""
    shutil.copytree(made.parent, tmp_path, dirs_exist_ok=True)
    return tmp_path / made.name


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Built once for the module through the CLI (each command checks a PIN: a scrypt hash,
    ~0.3 s CPU a build); closed, so no -wal is left beside it."""
    tmp_path = tmp_path_factory.mktemp("dayone")
    db = tmp_path / "ev.sqlite"
    assert run("event", "new", "Open", "--head-referee", "赵", "--db", str(db)).exit_code == 0
    assert run("referee", "add", "钱", "--referee", "赵", "--db", str(db)).exit_code == 0
    csv = tmp_path / "p.csv"
    csv.write_text("name,name_latin\n" + "\n".join(f"{n},{latin}" for n, latin in PLAYERS) + "\n",
                   encoding="utf-8")
    assert run("players", "import", str(csv), "--referee", "赵", "--db", str(db)).exit_code == 0
    r = run("round", "plan", "--rounds", "2", "--seed", "3", "--referee", "赵", "--db", str(db))
    assert r.exit_code == 0, r.output
    assert not list(tmp_path.glob("*-wal")), list(tmp_path.iterdir())
    return db


def _record(tmp_path: Path, name: str = "h.json", **changes: object) -> Path:
    rec = json.loads(json.dumps(spec_example()))
    for seat in rec["seats"].values():
        seat.pop("player", None)  # the seating names them
    rec.update(changes)
    p = tmp_path / name
    p.write_text(json.dumps(rec, ensure_ascii=False), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- the round in play


def test_round_start_list_and_extend(db: Path) -> None:
    r = run("round", "list", "--db", str(db))
    assert r.exit_code == 0 and "round 1 is in play (no round started, no hand yet)" in r.output
    r = run("round", "start", "2", "--minutes", "90", "--referee", "赵", "--db", str(db))
    assert r.exit_code == 0, r.output
    assert re.match(r"round 2 is in play \(started \d\d:\d\d by 赵; ends \d\d:\d\d "
                    r"\(90 minutes\); 90 min left\)", r.output), r.output
    r = run("round", "start", "2", "--extend", "15", "--referee", "赵", "--db", str(db))
    assert r.exit_code == 0 and "round 2: 15 minutes added;" in r.output
    assert "(90 minutes + 15 added); 105 min left" in r.output
    listed = run("round", "list", "--db", str(db)).output.splitlines()
    assert listed[0].split() == ["round", "tables", "players", "byes", "hands"]
    assert listed[2].endswith("in play") and not listed[1].endswith("in play")
    data = json.loads(run("round", "list", "--json", "--db", str(db)).output)
    state = data["in_play"]
    assert (state["round"], state["source"], state["minutes"], state["added"]) == \
        (2, "started", 90, 15)
    assert 104 * 60 <= state["seconds_left"] <= 105 * 60
    ends = datetime.fromisoformat(state["ends_at"])
    assert ends.utcoffset().total_seconds() == 0
    with Tournament.open(db) as t:
        assert [e["action"] for e in t.record.log()][-2:] == ["round.start", "round.extend"]


@pytest.mark.parametrize(("args", "words"), [
    (["9"], "round: round 9 is not seated yet"),
    (["1", "--extend", "5"], "extend: round 1 has no clock to extend"),
    (["1", "--minutes", "5", "--extend", "5"], "not both"),
    (["1", "--minutes", "0"], "0 is out of range 1…1,440"),
])
def test_round_start_refusals(db: Path, args: list[str], words: str) -> None:
    r = run("round", "start", *args, "--referee", "赵", "--db", str(db))
    assert r.exit_code == 2 and words in r.output and "Traceback" not in r.output


def test_only_the_head_referee_starts_a_round(db: Path) -> None:
    r = run("round", "start", "1", "--referee", "钱", "--db", str(db))
    assert r.exit_code == 2 and "head referee" in r.output


def test_the_in_play_texts_exist_in_both_languages() -> None:
    for source in InPlay:
        assert known(f"cli.round.in_play.{source.value}", "en")
        assert known(f"cli.round.in_play.{source.value}", "zh")


# --------------------------------------------------------------------------- overrides


def test_an_override_without_totals_is_refused_naming_totals(db: Path, tmp_path: Path) -> None:
    bad = _record(tmp_path, "bad.json")
    data = json.loads(bad.read_text(encoding="utf-8"))
    data["seats"]["E"]["concealed"] = data["seats"]["E"]["concealed"][1:]  # a tile short
    bad.write_text(json.dumps(data), encoding="utf-8")
    base = ["hand", "add", str(bad), "--round", "1", "--table", "1", "--hand", "1",
            "--referee", "赵", "--db", str(db)]
    r = run(*base)
    assert r.exit_code == 1 and "--override-reason TEXT --totals" in r.output
    r = run(*base, "--override-reason", "table agreed")
    assert r.exit_code == 2 and "--totals E=…,S=…,W=…,N=…" in r.output
    r = run(*base, "--override-reason", "table agreed", "--totals", "E=4,S=-4")
    assert r.exit_code == 2 and "override_totals.W: missing" in r.output
    with Tournament.open(db) as t:
        assert t.hands.list() == []  # nothing saved, never zeros
    r = run(*base, "--override-reason", "table agreed", "--totals", "E=4,S=-4,W=0,N=0")
    assert r.exit_code == 0 and "E" in r.output and "+4" in r.output and "[override]" in r.output


# --------------------------------------------------------------------------- penalties


def test_a_penalty_without_a_round_counts_in_the_round_in_play(db: Path) -> None:
    run("round", "start", "2", "--referee", "赵", "--db", str(db))
    r = run("penalty", "add", "李伟", "--chips", "10", "--reason", "late", "--referee", "赵",
            "--db", str(db))
    assert r.exit_code == 0
    assert "counted in round 2 (the round in play; give --round N for another)" in r.output
    through = {x["player"]: x for x in json.loads(run(
        "standings", "--through", "2", "--json", "--db", str(db)).output)}
    assert through["李伟"]["chips"] == -10  # --through counts it
    listed = run("penalty", "list", "--db", str(db)).output.splitlines()
    assert listed[0].split() == ["#", "round", "clause", "by", "reason", "chips"]
    assert listed[1].split()[:2] == ["1", "R2"] and "李伟 -10" in listed[1]


# --------------------------------------------------------------------------- verifying a round


def test_hand_verify_a_whole_round_or_table(db: Path, tmp_path: Path) -> None:
    rec = _record(tmp_path)
    with Tournament.open(db) as t:
        tables = list(t.rounds.seating(1).tables)
    for table_no in tables:
        for n in (1, 2):
            r = run("hand", "add", str(rec), "--round", "1", "--table", str(table_no),
                    "--hand", str(n), "--referee", "钱", "--db", str(db))
            assert r.exit_code == 0, r.output
    r = run("hand", "verify", "--round", "1", "--table", str(tables[0]), "--referee", "赵",
            "--db", str(db))
    assert r.exit_code == 0 and r.output.count(" verified ") == 2
    assert f"verified 2 hand(s) of round 1, table {tables[0]}" in r.output
    r = run("hand", "verify", "--round", "1", "--referee", "赵", "--db", str(db))
    assert r.exit_code == 0 and "verified 2 hand(s) of round 1" in r.output
    with Tournament.open(db) as t:
        assert {h.status.value for h in t.hands.list()} == {"verified"}
    for args, words in ((["--table", "1"], "--table needs --round N"),
                        ([], "give HAND_ID or --round N"),
                        (["1", "--round", "1"], "give HAND_ID or --round N"),
                        (["--round", "1", "--record", str(rec)], "--record compares one hand")):
        r = run("hand", "verify", *args, "--referee", "赵", "--db", str(db))
        assert r.exit_code == 2 and words in r.output, args


# --------------------------------------------------------------------------- the dealer


def test_a_dealer_other_than_the_rules_is_a_warning_on_stdout(db: Path, tmp_path: Path) -> None:
    first = _record(tmp_path)
    r = run("hand", "add", str(first), "--round", "1", "--table", "1", "--hand", "1",
            "--referee", "钱", "--db", str(db))
    assert r.exit_code == 0 and "warning" not in r.output  # a table's first hand: any dealer
    suggested = re.search(r"next dealer at table 1: (\w)", r.output)[1]
    other = next(s for s in "ESWN" if s != suggested)
    second = _record(tmp_path, "h2.json", dealer=other)
    r = CliRunner().invoke(main, ["hand", "add", str(second), "--round", "1", "--table", "1",
                                  "--hand", "2", "--referee", "钱", "--db", str(db)],
                           env=PIN, catch_exceptions=False)
    assert r.exit_code == 0
    assert (f"warning: the record's dealer is {other}; the rules suggested {suggested}. "
            "Saved as entered: if the slip is wrong, amend hand 2") in r.stdout
    r = run("hand", "add", str(_record(tmp_path, "h3.json", dealer=other)), "--round", "1",
            "--table", "1", "--hand", "3", "--json", "--referee", "钱", "--db", str(db))
    assert json.loads(r.stdout)["hand_no"] == 3  # --json: stdout stays JSON


# --------------------------------------------------------------------------- readable tables


def test_display_width_pads_chinese_by_columns() -> None:
    assert width("李伟") == 4 and width("Li Wei") == 6 and width("é") == 1
    assert width("e\u0301") == 1  # a combining accent takes no column
    assert pad("欧阳娜娜", 10) == "欧阳娜娜  " and rpad("7", 3) == "  7"
    assert pad("toolongname", 4) == "toolongname"  # never cut
    lines = table(["player", "chips"], [["欧阳娜娜", "+12"], ["Li Wei", "-3"]], "lr")
    assert len({width(line) for line in lines}) == 1  # every line ends at the same column
    assert duration(42 * 60 + 10) == "42:10" and duration(3909) == "1:05:09"


def test_the_log_names_players_aligns_columns_and_reads_times(db: Path) -> None:
    run("penalty", "add", "欧阳娜娜", "李伟", "--chips", "2", "--reason", "noise", "--referee",
        "赵", "--db", str(db))
    lines = run("log", "--db", str(db)).output.splitlines()
    assert lines[0].split() == ["#", "when", "by", "action", "detail"]
    pen = next(line for line in lines if "penalty.add" in line)
    assert "players=[欧阳娜娜, 李伟]" in pen and "players=[" + "1" not in pen
    assert not re.search(r"\.\d{6}|T\d\d:", "\n".join(lines))  # no microseconds, no ISO T
    # the action column starts at the same terminal column on every line
    starts = {width(line[:line.index(a)]) for line in lines[1:]
              for a in ("event.create", "referee.add", "players.add", "round.plan",
                        "penalty.add") if a in line}
    assert len(starts) == 1, lines
    # --json keeps the stored ids, for programs
    entry = [e for e in json.loads(run("log", "--json", "--db", str(db)).output)
             if e["action"] == "penalty.add"][0]
    assert all(isinstance(p, int) for p in entry["detail"]["players"])


def test_referee_list_and_hand_history_read_as_people_write(db: Path, tmp_path: Path) -> None:
    out = run("referee", "list", "--db", str(db)).output.splitlines()
    assert out[0].split() == ["referee", "role", "added"]
    assert re.match(r"赵\s+head referee\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$", out[1]), out
    assert "+00:00" not in "\n".join(out)
    rec = _record(tmp_path)
    run("hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "1",
        "--referee", "钱", "--db", str(db))
    run("hand", "verify", "1", "--referee", "赵", "--db", str(db))
    hist = run("hand", "history", "1", "--db", str(db)).output
    assert re.search(r"v1 entered\s+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d by 钱", hist), hist
    assert re.search(r"v2 verified\s+\d{4}", hist)
    assert "entered   entered" not in hist and "status    verified" not in hist


def test_when_is_local_time_without_microseconds() -> None:
    at = "2026-12-06T23:19:43.212537+00:00"
    local = datetime.fromisoformat(at).astimezone()
    assert when(at) == local.strftime("%Y-%m-%d %H:%M:%S")
    assert when(at, seconds=False, day=False) == local.strftime("%H:%M")
    assert when("not a time") == "not a time"


def test_import_asks_a_refused_head_pin_again_on_a_terminal(db: Path, tmp_path: Path,
                                                            monkeypatch) -> None:
    """The head referee's new PIN is asked once the whole bundle is checked: on a terminal
    a PIN the rules refuse is said and asked again, the work kept; from NEW_REFEREE_PIN
    (a script) it is refused at once, with no file made."""
    from referee_app.cli import event as event_cli

    bundle = tmp_path / "ev.json"
    assert run("event", "export", str(bundle), "--db", str(db)).exit_code == 0
    typed = ["12", "a-good-pin"]
    monkeypatch.setattr(event_cli, "read_pin", lambda prompt, env, confirm: typed.pop(0))
    r = CliRunner().invoke(main, ["event", "import", str(bundle), "--db",
                                  str(tmp_path / "new.sqlite")], env={"NEW_REFEREE_PIN": None},
                           catch_exceptions=False)
    assert r.exit_code == 0, r.output
    assert "error: pin: must be 6 to 64 characters long" in r.output and typed == []
    with Tournament.open(tmp_path / "new.sqlite") as t:
        assert t.referees.sign_in("赵", "a-good-pin").name == "赵"
    monkeypatch.undo()
    r = run("event", "import", str(bundle), "--db", str(tmp_path / "other.sqlite"),
            env={"NEW_REFEREE_PIN": "12"})
    assert r.exit_code == 2 and "must be 6 to 64 characters long" in r.output
    assert not list(tmp_path.glob("*other.sqlite*"))
