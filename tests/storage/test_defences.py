"""Issue 24's defences in the store and the CLI: hand and table numbers 1-999 (and a file
saved before the bound still opens and shows its progress), input files read to a limit,
outputs only to a regular file or a new path, a template folder checked when it is named,
verification by a second referee, referees removed without erasing their history, and
sign-in failures counted per name and address."""

from __future__ import annotations

import json
import os
import stat
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.storage import AuthError, SeatingError, StorageError, Tournament, checks
from referee_app.storage import referees as referees_mod
from referee_app.storage.progress import gap_runs, round_progress

HUGE = 2**63 - 1


@pytest.fixture
def fast_scrypt(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(referees_mod, "SCRYPT_N", 2 ** 4)


def run(*args: str, env: dict[str, str] | None = None, input: bytes | None = None) -> Any:
    return CliRunner().invoke(main, list(args), env=env, input=input)


# --------------------------------------------------------------------------- bounds


@pytest.mark.parametrize("where, value", [("hand_no", 1000), ("hand_no", 0),
                                          ("hand_no", HUGE), ("table", 1000)])
def test_hand_and_table_numbers_are_1_to_999(make_tournament, record_for, where: str,
                                             value: int) -> None:
    t = make_tournament(n=4)
    at = {"round": 1, "table": 1, "hand_no": 1, where: value}
    with pytest.raises(StorageError) as e:
        t.hands.add(record_for(t, 1, 1), **at)
    assert e.value.field == where and e.value.code == "bad_count"
    assert e.value.params["max"] == 999 and t.hands.list() == []


def test_seating_beyond_table_999_is_refused(make_tournament) -> None:
    t = make_tournament(n=4)
    ids = [p.id for p in t.players.list()]
    with pytest.raises(StorageError) as e:
        t.rounds.set_seating(2, {1000: dict(zip("ESWN", ids, strict=True))})
    assert e.value.field == "table 1000" and e.value.code == "bad_count"
    with pytest.raises(StorageError, match="1..999"):
        t.rounds.set_seat(1, 1000, "E", ids[0])
    rows = [(1000, s, pid) for s, pid in zip("ESWN", ids, strict=True)]
    with pytest.raises(SeatingError) as e:  # however a seating is made (a plan, a search)
        t.rounds.seats.write(2, rows, [], seed=None, referee="", replace_existing=False,
                             action="round.seat", detail={})
    assert e.value.code == "too_many_tables" and "1 to 999" in e.value.problem


def test_gaps_are_runs_never_counted_through() -> None:
    assert gap_runs(set()) == ()
    assert gap_runs({1, 2, 3}) == ()
    assert gap_runs({2, 4, 5, 9}) == ((1, 1), (3, 3), (6, 8))
    assert gap_runs({1, HUGE}) == ((2, HUGE - 1),)


@pytest.fixture
def old_file(make_tournament, record_for, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A file saved before the bound: table 1 holds hands 1, 3 and 2^63-1."""
    t = make_tournament(n=4)
    with monkeypatch.context() as m:
        m.setattr(checks, "MAX_HAND_NO", checks.MAX_INT)
        for n in (1, 3, HUGE):
            t.hands.add(record_for(t, 1, 1, seed=n % 97), round=1, table=1, hand_no=n)
    return t.path


def test_a_file_with_a_huge_hand_number_shows_its_progress_at_once(old_file: Path) -> None:
    with Tournament.open(old_file, backup_every=0) as t:
        t0 = time.perf_counter()
        (tp,) = round_progress(t, 1).tables
        took = time.perf_counter() - t0
        assert t.record.verify()  # nothing about it is damaged: it was saved so
    assert took < 2  # it used to list 2^63 missing numbers until the kernel killed it
    assert tp.last_hand == HUGE and tp.gaps == ((2, 2), (4, HUGE - 1))
    assert tp.missing == HUGE - 3 and tp.gap_text() == f"2, 4-{HUGE - 1}"
    r = run("round", "progress", "1", "--db", str(old_file), "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["tables"][0]["gaps"] == [[2, 2], [4, HUGE - 1]]
    r = run("round", "progress", "1", "--db", str(old_file))
    assert r.exit_code == 0 and f"2, 4-{HUGE - 1}" in r.output
    # its next hand cannot be numbered beyond the bound: refused by name, nothing saved
    r = run("hand", "add", "-", "--round", "1", "--table", "1", "--hand", "1000",
            "--db", str(old_file), input=b"{}")
    assert r.exit_code == 2 and "--hand" in r.output and "1…999" in r.output


def test_gap_text_shows_the_first_runs() -> None:
    from referee_app.storage.progress import TableProgress

    tp = TableProgress(1, {}, 0, 0, 0, 0, 0, 0, 99, "",
                       gaps=tuple((n, n) for n in range(1, 40, 2)))
    assert tp.gap_text(3) == "1, 3, 5, …" and tp.missing == 20


@pytest.mark.parametrize("args", [
    ["hand", "add", "R.json", "--round", "1", "--table", "1000", "--hand", "1"],
    ["hand", "add", "R.json", "--round", "1", "--table", "1", "--hand", "1000"],
    ["hand", "add", "R.json", "--round", "1", "--table", "1", "--hand", str(HUGE)],
    ["hand", "list", "--table", "1000"],
    ["round", "set-seat", "1", "1000", "E", "x"],
    ["report", "table", "--round", "1", "--table", "1000", "-o", "x.pdf"],
])
def test_the_cli_refuses_numbers_beyond_999(args: list[str], tmp_path: Path) -> None:
    r = run(*args, "--db", str(tmp_path / "none.sqlite"))
    assert r.exit_code == 2 and "1…999" in r.output, r.output


# --------------------------------------------------------------------------- input files


@pytest.fixture
def event_db(tmp_path: Path) -> Path:
    db = tmp_path / "e.sqlite"
    assert run("event", "new", "Open", "--db", str(db)).exit_code == 0
    return db


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("args, limit", [
    (["score", "/dev/zero"], 16),
    (["score", "--jsonl", "/dev/zero"], 16),
    (["hand", "add", "/dev/zero", "--round", "1", "--table", "1", "--hand", "1"], 16),
    (["players", "import", "/dev/zero"], 16),
    (["event", "set", "--templates", "{tpl}"], 16),
    (["event", "import", "/dev/zero", "--db", "{new}"], 256),
])
def test_input_files_are_read_to_a_limit(args: list[str], limit: int, event_db: Path,
                                         tmp_path: Path) -> None:
    """/dev/zero is refused after 16 MiB (a bundle: 256 MiB), naming the limit: never read
    until the kernel kills the program."""
    tpl = tmp_path / "tpl"
    tpl.mkdir()
    with open(tpl / "standings.toml", "wb") as f:  # a sparse 17 MiB template
        f.truncate(17 * 1024 * 1024)
    args = [a.format(tpl=tpl, new=tmp_path / "new.sqlite") for a in args]
    if "--db" not in args and args[0] != "score":
        args += ["--db", str(event_db)]
    t0 = time.perf_counter()
    r = run(*args)
    assert r.exit_code == 2, r.output
    assert f"/dev/zero is larger than {limit} MiB" in r.output or \
        f"standings.toml is larger than {limit} MiB" in r.output, r.output
    assert time.perf_counter() - t0 < 30
    assert not (tmp_path / "new.sqlite").exists()


def test_stdin_is_read_to_the_limit_too(event_db: Path) -> None:
    r = run("score", "-", input=b" " * (16 * 1024 * 1024 + 1))
    assert r.exit_code == 2 and "stdin is larger than 16 MiB" in r.output
    r = run("score", "-", input=b" " * 1000 + b"{}")  # under the limit: read as a record
    assert r.exit_code == 2 and "required field is missing" in r.output


# --------------------------------------------------------------------------- outputs


@pytest.mark.parametrize("args", [
    ["event", "export", "{out}"],
    ["standings", "--csv", "{out}"],
    ["hand", "list", "--csv", "{out}"],
    ["report", "standings", "-o", "{out}"],
    ["rulesets", "export", "ottawa-2009", "-o", "{out}"],
])
@pytest.mark.parametrize("kind", ["device", "fifo", "folder"])
def test_outputs_go_only_to_a_regular_file_or_a_new_path(args: list[str], kind: str,
                                                          event_db: Path,
                                                          tmp_path: Path) -> None:
    """A device node, a pipe or a folder is never written over (as root, ``event export
    /dev/full`` used to replace the system's /dev/full with a file)."""
    out = {"device": Path("/dev/null"), "fifo": tmp_path / "pipe",
           "folder": tmp_path / "folder"}[kind]
    if kind == "fifo":
        os.mkfifo(out)
    elif kind == "folder":
        out.mkdir()
    before = os.stat(out)
    args = [a.format(out=out) for a in args]
    if args[0] != "rulesets":
        args += ["--db", str(event_db)]
    r = run(*args)
    assert r.exit_code == 2, r.output
    after = os.stat(out)
    assert (after.st_mode, after.st_ino, after.st_rdev) == (before.st_mode, before.st_ino,
                                                             before.st_rdev)
    if kind == "device":
        assert stat.S_ISCHR(after.st_mode)


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_export_onto_dev_full_leaves_it_a_device(event_db: Path) -> None:
    r = run("event", "export", "/dev/full", "--db", str(event_db))
    assert r.exit_code == 2
    assert r.output.strip() == ("error: output: /dev/full is not a regular file (a device, "
                                "folder, pipe or socket): write to a file or a new path")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_an_output_through_a_link_writes_the_file_and_keeps_the_link(event_db: Path,
                                                                     tmp_path: Path) -> None:
    (tmp_path / "real.json").write_text("old", encoding="utf-8")
    (tmp_path / "link.json").symlink_to("real.json")
    r = run("event", "export", str(tmp_path / "link.json"), "--db", str(event_db))
    assert r.exit_code == 0, r.output
    assert (tmp_path / "link.json").is_symlink()
    assert json.loads((tmp_path / "real.json").read_text(encoding="utf-8"))["tournament"]


# --------------------------------------------------------------------------- templates


def test_event_set_templates_checks_the_folder_and_its_templates(event_db: Path) -> None:
    folder = event_db.parent / "tpl"
    r = run("event", "set", "--templates", "tpl", "--db", str(event_db))
    assert r.exit_code == 2 and "--templates: " in r.output
    assert f"{folder} is not a folder" in r.output
    assert run("templates", "export", str(folder)).exit_code == 0
    (folder / "table.toml").write_text("[labels]\nno_such_label = 'x'\n", encoding="utf-8")
    r = run("event", "set", "--templates", "tpl", "--db", str(event_db))
    assert r.exit_code == 2 and "table.toml cannot be used" in r.output, r.output
    with Tournament.open(event_db) as t:
        assert t.info.templates == ""  # nothing changed
    (folder / "table.toml").unlink()  # that report prints with the shipped template
    r = run("event", "set", "--templates", "tpl", "--db", str(event_db))
    assert r.exit_code == 0, r.output
    with Tournament.open(event_db) as t:
        assert t.info.templates == "tpl"
    assert run("event", "set", "--templates", "", "--db", str(event_db)).exit_code == 0


# --------------------------------------------------------------------------- verification


def test_the_referee_who_wrote_a_version_cannot_verify_it(make_tournament, record_for) -> None:
    t = make_tournament(n=4)
    h = t.hands.add(record_for(t, 1, 1), round=1, table=1, hand_no=1, referee="钱")
    with pytest.raises(AuthError) as e:
        t.hands.set_status(h.id, "verified", referee="钱")
    assert e.value.code == "verify_own_hand" and e.value.params == {"name": "钱",
                                                                    "hand_id": h.id}
    t.hands.amend(h.id, record_for(t, 1, 1, seed=5), reason="slip", referee="孙")
    assert t.hands.author(h.id) == "孙"  # the last amendment's referee
    with pytest.raises(AuthError, match="a second referee verifies it"):
        t.hands.set_status(h.id, "verified", referee="孙")
    assert t.hands.set_status(h.id, "verified", referee="钱").status.value == "verified"
    t.hands.set_status(h.id, "entered", referee="钱")  # a status change writes no record
    assert t.hands.author(h.id) == "孙"


def test_self_verification_for_a_one_referee_event(tmp_path: Path, fast_scrypt) -> None:
    db = str(tmp_path / "one.sqlite")
    pin = {"NEW_REFEREE_PIN": "246810", "REFEREE_PIN": "246810"}
    assert run("event", "new", "Solo", "--head-referee", "赵", "--db", db, env=pin).exit_code == 0
    with Tournament.open(db) as t:
        t.referees.sign_in("赵", "246810")
        for i in range(4):
            t.players.add(f"P{i}", referee="赵")
        t.rounds.seat(1, seed=1, referee="赵")
        seated = t.rounds.seating(1).tables[1]
    import random

    from referee_app.core.generate import random_record

    rec = random_record(random.Random(1), "ottawa-2009", players=seated)
    (tmp_path / "r.json").write_text(json.dumps(rec), encoding="utf-8")
    r = run("hand", "add", str(tmp_path / "r.json"), "--round", "1", "--table", "1",
            "--hand", "1", "--referee", "赵", "--db", db, env=pin)
    assert r.exit_code in (0, 1), r.output
    if r.exit_code == 1:
        pytest.skip("the generated record breaks a rule")
    r = run("hand", "verify", "1", "--referee", "赵", "--db", db, env=pin)
    assert r.exit_code == 2 and "a second referee verifies it" in r.output
    r = run("event", "set", "--self-verify", "--referee", "赵", "--db", db, env=pin)
    assert r.exit_code == 0 and "verified by: the referee who entered" in r.output
    r = run("hand", "verify", "1", "--referee", "赵", "--db", db, env=pin)
    assert r.exit_code == 0, r.output
    with Tournament.open(db) as t:
        entry = t.record.log()[-2]
        assert entry["action"] == "event.update" and entry["detail"] == {"self_verify": True}
        assert t.info.self_verify
        # a second referee registered: self-verification no longer applies
        t.referees.sign_in("赵", "246810")
        t.referees.add("钱", pin="135790")
        with pytest.raises(StorageError) as e:
            t.update_info(self_verify=True)
        assert e.value.code == "self_verify_many_referees"


# --------------------------------------------------------------------------- referees


def test_a_removed_referee_cannot_sign_in_or_write(make_tournament, record_for,
                                                   fast_scrypt) -> None:
    t = make_tournament(n=4)
    t.referees.add("赵", pin="111111", head=True)
    t.referees.sign_in("赵", "111111")
    t.referees.add("钱", pin="222222")
    t.referees.sign_in("钱", "222222")
    h = t.hands.add(record_for(t, 1, 1), round=1, table=1, hand_no=1)
    other = Tournament.open(t.path, backup_every=0)  # the head desk, meanwhile
    try:
        other.referees.sign_in("赵", "111111")
        with pytest.raises(StorageError) as e:
            other.referees.remove("赵")
        assert e.value.code == "last_head_referee"
        other.referees.remove("钱")
        assert other.record.log()[-1]["action"] == "referee.remove"
        assert other.record.log()[-1]["detail"] == {"name": "钱"}
    finally:
        other.close()
    with pytest.raises(AuthError) as e:  # still signed in on this desk: refused at once
        t.hands.add(record_for(t, 1, 1, seed=2), round=1, table=1, hand_no=2)
    assert e.value.code == "referee_removed"
    with pytest.raises(AuthError, match="no referee named"):
        t.referees.sign_in("钱", "222222")
    assert t.hands.get(h.id).entered_by == "钱"  # their history stays
    assert [r.name for r in t.referees.list()] == ["赵"]
    # their PIN hash (kept outside the record) went with them
    assert t.db.execute("SELECT name FROM pins").fetchall() == [("赵",)]
    assert t.record.verify()


def test_referee_remove_on_the_command_line(tmp_path: Path, fast_scrypt) -> None:
    db = str(tmp_path / "e.sqlite")
    env = {"NEW_REFEREE_PIN": "111111", "REFEREE_PIN": "111111"}
    assert run("event", "new", "Open", "--head-referee", "赵", "--db", db, env=env).exit_code == 0
    env2 = {**env, "NEW_REFEREE_PIN": "222222"}
    assert run("referee", "add", "钱", "--referee", "赵", "--db", db, env=env2).exit_code == 0
    r = run("referee", "remove", "钱", "--referee", "钱", "--db", db,
            env={"REFEREE_PIN": "222222"})
    assert r.exit_code == 2 and "head referee" in r.output
    r = run("referee", "remove", "钱", "--referee", "赵", "--db", db, env=env)
    assert r.exit_code == 0 and "removed referee 钱" in r.output
    r = run("referee", "remove", "赵", "--referee", "赵", "--db", db, env=env)
    assert r.exit_code == 2 and "last head referee" in r.output
    r = run("referee", "list", "--json", "--db", db)
    assert [x["name"] for x in json.loads(r.output)] == ["赵"]


# --------------------------------------------------------------------------- sign-in


def test_sign_in_failures_per_name_and_address(make_tournament, fast_scrypt,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    t = make_tournament(n=4)
    t.referees.add("赵", pin="111111", head=True)
    clock = [1_000_000.0]
    monkeypatch.setattr(referees_mod.time, "time", lambda: clock[0])
    entries = len(t.record.log())
    # a correct PIN between wrong ones does not wipe them: the fifth wrong one locks
    for _ in range(4):
        with pytest.raises(AuthError, match="tries left"):
            t.referees.sign_in("赵", "0", client="198.51.100.9")
        t.referees.sign_in("赵", "111111", client="198.51.100.9")
        clock[0] += 10
    with pytest.raises(AuthError) as e:
        t.referees.sign_in("赵", "0", client="198.51.100.9")
    assert e.value.code == "wrong_pin_locked"
    with pytest.raises(AuthError) as e:
        t.referees.sign_in("赵", "111111", client="198.51.100.9")
    assert e.value.code == "referee_locked" and e.value.params["wait"] == 300 - 40 + 1
    # only that address: another one, and the head desk's own use, sign in
    assert t.referees.sign_in("赵", "111111", client="198.51.100.10").name == "赵"
    for _ in range(8):  # the head desk's own: wrong PINs said, never counted or locked
        with pytest.raises(AuthError) as e:
            t.referees.sign_in("赵", "0")
        assert e.value.code == "wrong_pin_here"
    assert t.referees.sign_in("赵", "111111").name == "赵"
    # the window: once the oldest failure is five minutes old, one more guess
    clock[0] += 300 - 40
    with pytest.raises(AuthError, match="tries left|locked"):
        t.referees.sign_in("赵", "0", client="198.51.100.9")
    assert [e["action"] for e in t.record.log()[entries:]] == ["referee.locked",
                                                                "referee.locked"]
    # invented names: counted and locked the same way, but nothing in the chain
    n = len(t.record.log())
    for _ in range(6):
        with pytest.raises(AuthError):
            t.referees.sign_in("无名氏", "0", client="198.51.100.9")
    assert len(t.record.log()) == n
    assert t.db.execute("SELECT COUNT(*) FROM auth_failures WHERE name='无名氏'").fetchone()[0] == 5
