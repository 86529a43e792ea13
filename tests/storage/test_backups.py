"""Backups and restore (issues 11, 23): backup points that cost what changed, a folder of
bounded size, temp files cleaned, a restore that never replays the old ``-wal`` and gives
back exactly the record, and the checks a restore makes; plus the CSV formula guard and
report file permissions."""

from __future__ import annotations

import csv
import json
import os
import sqlite3
import stat
import threading
import time
from pathlib import Path

import pytest

from referee_app.storage import (
    DamagedError,
    DiskFullError,
    FileReplacedError,
    StorageError,
    Tournament,
    backup_log,
    chain,
)
from referee_app.storage.backup_files import (
    FOLDER_LIMIT,
    backup_dir,
    clean_temp_files,
    folder_size,
    list_backups,
    list_logs,
)
from referee_app.storage.csv_io import guard_cell, unguard_cell


def _add_hands(t: Tournament, record_for, n: int, start: int = 1) -> None:
    for i in range(start, start + n):
        t.hands.add(record_for(t, 1, 1, seed=i), round=1, table=1, hand_no=i, referee="Zhao")


def _count(path: Path) -> int:
    with Tournament.open(path, backup_every=0) as t:
        return len(t.hands.list())


def test_restore_moves_the_stale_wal_aside_instead_of_replaying_it(
        make_tournament, record_for) -> None:
    """The issue's failure: copying a backup over the file let SQLite replay the old -wal."""
    t = make_tournament(head_referee="Zhao")
    _add_hands(t, record_for, 5)
    t.backups.write()
    _add_hands(t, record_for, 20, start=6)
    path = t.path
    # a second desk still has the file open: its -wal holds the last commits (as after a crash)
    other = sqlite3.connect(str(path))
    other.execute("SELECT COUNT(*) FROM hands").fetchone()
    assert Path(f"{path}-wal").stat().st_size > 0
    t.db.close()
    t.store.closed = True
    info, aside = Tournament.restore_backup(path, 1, referee="Zhao")
    other.close()
    assert info.hands == 5
    assert _count(path) == 5
    with Tournament.open(path, backup_every=0) as r:
        assert r.record.integrity() == "ok"
        assert r.record.log()[-1]["action"] == "backup.restore"
        assert r.record.log()[-1]["referee"] == "Zhao"
    # the replaced file was kept with its -wal: nothing saved is lost
    assert aside.name.startswith(f"{path.name}.before-restore-")
    assert _count(aside) == 25


def test_restore_checks_the_backup_and_the_head_referee(make_tournament, record_for) -> None:
    t = make_tournament(head_referee="Zhao", backup_every=0)
    _add_hands(t, record_for, 2)
    good = t.backups.write()
    t.close()
    with pytest.raises(StorageError, match="head referee"):
        Tournament.restore_backup(t.path, 1, referee="Qian")
    with pytest.raises(StorageError, match="expected a backup number 1..1"):
        Tournament.restore_backup(t.path, 2, referee="Zhao")
    data = bytearray(good.read_bytes())
    data[4096 + 0: 4096 + 16] = b"\xff" * 16  # in the middle of the point's data
    good.write_bytes(bytes(data))
    before = t.path.read_bytes()
    with pytest.raises(DamagedError, match="choose another"):
        Tournament.restore_backup(t.path, 1, referee="Zhao")
    assert t.path.read_bytes() == before  # nothing was moved
    assert not list(t.path.parent.glob("*.before-restore-*"))
    assert not list(t.path.parent.glob(".*restore*"))


def test_a_connection_open_during_a_restore_elsewhere_never_writes_the_file_set_aside(
        make_tournament, record_for) -> None:
    """A desk (or server thread) keeps its file open while another process restores a
    backup: its next save must not land in the copy moved aside, where nobody would see it."""
    t = make_tournament(head_referee="Zhao", backup_every=0)
    _add_hands(t, record_for, 1)
    t.backups.write()
    _add_hands(t, record_for, 1, start=2)
    desk = Tournament.open(t.path, backup_every=0)  # the desk that stays open
    assert not desk.replaced()
    desk.revision()
    _, aside = Tournament.restore_backup(t.path, 1, referee="Zhao")  # "another process"
    assert desk.replaced()
    with pytest.raises(FileReplacedError, match="open it again"):
        desk.revision()  # the desk's one-second poll notices
    aside_bytes = aside.read_bytes()
    with pytest.raises(FileReplacedError):
        desk.players.add("Late")
    assert aside.read_bytes() == aside_bytes  # nothing went into the file set aside
    desk.close()
    with Tournament.open(t.path, backup_every=0) as again:  # reopened: the restored record
        assert len(again.hands.list()) == 1 and not again.replaced()
        again.players.add("Late")
    t.close()


def test_a_save_under_way_when_a_restore_starts_ends_before_the_file_moves(
        make_tournament, record_for, monkeypatch) -> None:
    """A save that checked "same file" just before another desk's restore moved the file
    aside committed into the copy set aside after the restore had said it was done: a hand
    reported saved that nobody would ever see. The restore now takes the file's write lock
    first, so the save ends before the move (and is in the kept copy, as the restore meant)."""
    t = make_tournament(head_referee="Zhao", backup_every=0)
    _add_hands(t, record_for, 1)
    t.backups.write()
    path, rec = t.path, record_for(t, 1, 2, seed=7)
    t.close()
    inside, restored = threading.Event(), threading.Event()
    clear = chain.clear_captured

    def slow_clear(conn):  # runs in the save right after its same-file check
        inside.set()
        restored.wait(2)
        return clear(conn)

    out: dict[str, float] = {}

    def desk() -> None:
        with Tournament.open(path, backup_every=0) as d:
            d.hands.add(rec, round=1, table=2, hand_no=1, referee="Zhao")
            out["saved"] = time.monotonic()

    monkeypatch.setattr(chain, "clear_captured", slow_clear)
    writer = threading.Thread(target=desk)
    writer.start()
    assert inside.wait(5)
    monkeypatch.setattr(chain, "clear_captured", clear)
    _, aside = Tournament.restore_backup(path, 1, referee="Zhao")
    out["restored"] = time.monotonic()
    restored.set()
    writer.join(10)
    assert out["saved"] < out["restored"], "the hand was reported saved after the restore"
    assert _count(aside) == 2 and _count(path) == 1


def test_restore_on_a_full_disk_blames_the_disk_not_the_backup(make_tournament,
                                                                monkeypatch) -> None:
    """The copy of the backup beside the file could not be written (disk full): the restore
    said the *backup* "cannot be read ...; choose another", sending the referee through
    every backup instead of freeing space."""
    t = make_tournament(head_referee="Zhao")
    t.backups.write()
    path = t.path
    t.close()
    before = path.read_bytes()
    connect = sqlite3.connect

    def full(target, *args, **kwargs):  # the restore's copy cannot grow: SQLITE_FULL
        conn = connect(target, *args, **kwargs)
        if str(target).endswith(".tmp"):
            conn.execute("PRAGMA max_page_count=2")
        return conn

    monkeypatch.setattr(sqlite3, "connect", full)
    with pytest.raises(DiskFullError, match="is full; free some space"):
        Tournament.restore_backup(path, 1, referee="Zhao")
    monkeypatch.undo()
    assert path.read_bytes() == before
    assert not list(path.parent.glob(".*.restore.*"))


def test_a_desk_closed_after_a_restore_elsewhere_does_not_back_up_the_file_set_aside(
        make_tournament, record_for) -> None:
    """A desk that saved before another desk restored a backup backed up on closing: its
    connection still reads the copy set aside, which became the newest backup, so
    'backup restore 1' would bring back the very record the restore abandoned."""
    t = make_tournament(head_referee="Zhao")
    _add_hands(t, record_for, 1)
    t.backups.write()
    path = t.path
    t.close()
    desk = Tournament.open(path)  # the default: backs up on closing when due
    desk.hands.add(record_for(desk, 1, 2, seed=3), round=1, table=2, hand_no=1, referee="Zhao")
    old = list_backups(path)[-1].stat().st_mtime - 601  # so that closing would be due
    os.utime(list_backups(path)[-1], (old, old))
    Tournament.restore_backup(path, 1, referee="Zhao")  # the backup with 1 hand
    desk.close()
    assert [b.hands for b in Tournament.backup_list(path)] == [1]


def test_backup_list_shows_time_round_and_hand_count(make_tournament, record_for) -> None:
    t = make_tournament(rounds=2)
    _add_hands(t, record_for, 3)
    t.backups.write()
    infos = Tournament.backup_list(t.path)
    assert [(b.number, b.round, b.hands) for b in infos] == [(1, 2, 3)]
    assert infos[0].at.endswith("UTC") and infos[0].size > 0
    assert not list(backup_dir(t.path).glob("*-wal")), "listing must not write beside backups"


def test_the_list_shows_the_newest_twenty_points_and_each_rounds_last(make_tournament) -> None:
    """Every point of a log can be rebuilt; the list shows the newest twenty and the last
    point of each round (the state at the end of every round survives a long day)."""
    t = make_tournament(backup_every=1)  # registration (r0), then round 1: a point a change
    for i in range(12):
        t.players.add(f"Late {i}")
    t.rounds.seat(2, seed=1, fill="byes")
    for i in range(25):
        t.players.add(f"Later {i}")
    listed = Tournament.backup_list(t.path)
    assert [b.number for b in listed] == list(range(1, 23))
    assert [b.round for b in listed] == [2] * 20 + [1, 0]
    assert listed[0].entries == t.record.digest()[0] and listed[0].hands == 0
    points, problem = backup_log.read_points(list_logs(t.path)[-1])
    # a point per change: the first holds the event's creation too
    assert problem is None and len(points) == t.record.digest()[0] - 1
    assert listed[-1].entries == max(p.entries for p in points if p.round == 0)


def test_a_command_line_save_appends_only_its_own_entries(make_tournament, record_for
                                                          ) -> None:
    """A command-line save opens and closes the file each time: closing after changes
    appends a point holding that save's entries (a few kB), never a copy of the file."""
    path = make_tournament(n=8, rounds=1).path

    def save(hand_no: int) -> int:  # what `referee-app hand add` does: open, save, close
        with Tournament.open(path) as t:  # the default: backup_every=25
            t.hands.add(record_for(t, 1, 1, seed=hand_no), round=1, table=1, hand_no=hand_no)
            entries = t.record.digest()[0]
        # written on closing; the newest point holds the save
        return t.backups.written if Tournament.backup_list(path)[0].entries == entries else -1

    first = save(1)  # none yet: the whole record so far (the ruleset, the players, …)
    sizes = [save(i) for i in range(2, 12)]
    assert all(0 < size < 4000 for size in sizes), sizes  # one hand's entry, compressed
    assert first > max(sizes)
    assert len(list_logs(path)) == 1
    with Tournament.open(path) as t:
        assert t.hands.list()  # reading changes nothing: no point
    assert len(backup_log.read_points(list_logs(path)[0])[0]) == 11


def test_after_restoring_an_older_backup_the_next_change_is_backed_up(
        make_tournament, record_for) -> None:
    """The newest backup then holds the record set aside (more entries than the restored
    one): "25 entries behind" never came, so the restored record's changes had no backup
    for ten minutes, and backup 1 would have brought the abandoned record back."""
    t = make_tournament(n=8, rounds=1, head_referee="Zhao")
    _add_hands(t, record_for, 2)
    t.backups.write()
    _add_hands(t, record_for, 5, start=3)
    t.backups.write()
    path = t.path
    t.close()
    Tournament.restore_backup(path, 2, referee="Zhao")
    with Tournament.open(path) as d:  # the default: backup_every=25, as the CLI
        d.hands.add(record_for(d, 1, 2, seed=1), round=1, table=2, hand_no=1, referee="Zhao")
        digest = d.record.digest()[1]
    newest = Tournament.backup_list(path)[0]
    assert (newest.hands, newest.digest[:12]) == (3, digest)


def test_a_desk_open_all_day_backs_up_a_save_when_the_newest_backup_is_old(
        make_tournament, record_for) -> None:
    """A connection that stays open (the desk, the server's threads) backed up only every
    25 changes and on closing: a desk saving a hand every ten minutes went four hours with
    no backup of its work. A save now writes a point at once when there is none yet or the
    newest is over a minute old."""
    path = make_tournament(n=8, rounds=1).path
    desk = Tournament.open(path)  # the default: backup_every=25

    def points() -> int:
        return len(backup_log.read_points(list_logs(path)[-1])[0])

    desk.hands.add(record_for(desk, 1, 1, seed=1), round=1, table=1, hand_no=1)
    assert points() == 1  # none yet: backed up at once
    desk.hands.add(record_for(desk, 1, 1, seed=2), round=1, table=1, hand_no=2)
    assert points() == 1  # a fresh one: wait
    old = list_logs(path)[-1].stat().st_mtime - 61
    os.utime(list_logs(path)[-1], (old, old))
    desk.hands.add(record_for(desk, 1, 1, seed=3), round=1, table=1, hand_no=3)
    assert points() == 2
    assert Tournament.backup_list(path)[0].hands == 3  # the save is in it
    desk.close()


def test_temp_files_of_killed_backups_are_cleaned(make_tournament) -> None:
    t = make_tournament()
    t.backups.write()
    d = backup_dir(t.path)
    dead = 2**22 + 12345  # beyond pid_max on Linux: no such process
    left = [d / f".t0-20261201T000000000000Z-r1.sqlite.{dead}.tmp",
            d / f".t0-20261201T000000000000Z-r1.sqlite.{dead}.tmp-journal"]
    alive = d / f".t0-20261201T000000000001Z-r1.sqlite.{os.getppid()}.tmp"
    for p in [*left, alive]:
        p.write_bytes(b"")
    t.backups.write()
    assert not any(p.exists() for p in left)
    assert alive.exists(), "another live process's backup in progress is left alone"
    assert clean_temp_files(t.path) == []


@pytest.mark.parametrize("cleaner", ["backup", "restore"])
def test_a_killed_restores_copy_is_cleaned_by_the_next_backup_or_restore(
        make_tournament, cleaner) -> None:
    """A restore killed after copying the backup left ``.<file>.restore.<pid>.tmp`` (a whole
    copy of the tournament, with its -wal and -shm) beside the file for ever: only the same
    pid's next restore removed it."""
    t = make_tournament(head_referee="Zhao")
    t.backups.write()
    dead = 2**22 + 12345  # beyond pid_max on Linux: no such process
    left = [t.path.with_name(f".{t.path.name}.restore.{dead}.tmp{s}") for s in ("", "-wal",
                                                                                 "-shm")]
    alive = t.path.with_name(f".{t.path.name}.restore.{os.getppid()}.tmp")
    for p in [*left, alive]:
        p.write_bytes(b"x")
    if cleaner == "backup":
        t.backups.write()
    else:
        t.close()
        Tournament.restore_backup(t.path, 1, referee="Zhao")
    assert not any(p.exists() for p in left)
    assert alive.exists(), "another live process's restore in progress is left alone"


@pytest.mark.parametrize("text", ["=HYPERLINK(\"http://x\",\"y\")", "+1+1", "-2+3",
                                  "@SUM(A1:A9)", "\tx", "\rx"])
def test_csv_formula_guard_round_trips(text: str) -> None:
    assert guard_cell(text) == "'" + text
    assert unguard_cell(guard_cell(text)) == text
    assert guard_cell(-5) == -5 and guard_cell("李伟") == "李伟"
    assert unguard_cell("'plain") == "'plain"


def test_csv_exports_are_guarded_and_reimport_unchanged(make_tournament, tmp_path) -> None:
    t = make_tournament(n=4)
    names = ["=HYPERLINK(\"http://evil\",\"x\")", "+1+1", "@SUM(A1:A9)"]
    for n in names:
        t.players.add(n, club="-club")
    out = t.standings.export_csv(tmp_path / "s.csv")
    with open(out, encoding="utf-8-sig", newline="") as f:
        cells = [c for row in csv.reader(f) for c in row]
    assert all(not c.startswith(("=", "+", "@")) for c in cells)
    assert "'+1+1" in cells and "'-club" in cells
    entry = tmp_path / "players.csv"
    with open(entry, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(["name", "club"])
        for n in names:
            w.writerow([guard_cell(n), guard_cell("-club")])
    t2 = make_tournament(n=0, rounds=0)
    added = t2.players.import_csv(entry)
    assert [(p.name, p.club) for p in added] == [(n, "-club") for n in names]


def test_reports_are_written_with_the_umask(tmp_path: Path) -> None:
    from referee_app.reports.api import write_atomic

    old = os.umask(0o022)
    try:
        p = write_atomic(tmp_path / "r.pdf", b"%PDF-1.4")
    finally:
        os.umask(old)
    assert stat.S_IMODE(p.stat().st_mode) == 0o644
    assert p.read_bytes() == b"%PDF-1.4"
    assert [x.name for x in tmp_path.iterdir()] == ["r.pdf"]


def test_backup_commands(make_tournament, record_for) -> None:
    from click.testing import CliRunner

    from referee_app.cli import main

    t = make_tournament(head_referee="Zhao")
    _add_hands(t, record_for, 2)
    t.backups.write()
    _add_hands(t, record_for, 1, start=3)
    t.close()
    db = str(t.path)
    run = CliRunner().invoke
    r = run(main, ["backup", "list", "--json", "--db", db])
    assert r.exit_code == 0
    listed = json.loads(r.output)
    assert [(b["number"], b["hands"], b["round"]) for b in listed] == [(1, 2, 1)]
    assert _count(t.path) == 3
    r = run(main, ["backup", "restore", "1", "--db", db])
    assert r.exit_code == 2 and "--referee 'Zhao'" in r.output
    r = run(main, ["backup", "restore", "1", "--referee", "Zhao", "--db", db])
    assert r.exit_code == 0, r.output
    assert "2 hands" in r.output and "the previous file is kept as" in r.output
    assert _count(t.path) == 2
    r = run(main, ["backup", "restore", "9", "--referee", "Zhao", "--db", db])
    assert r.exit_code == 2 and "expected a backup number" in r.output


def test_exit_codes_are_in_the_top_level_help() -> None:
    from click.testing import CliRunner

    from referee_app.cli import main

    out = " ".join(CliRunner().invoke(main, ["--help"]).output.split())
    for text in ("0 done", "1 the record breaks a rule", "2 bad input or refused",
                 "3 a fault outside the input", "referee-app backup list"):
        assert text in out


def test_folder_and_file_names_with_uri_and_glob_characters(tmp_path: Path) -> None:
    """'#', '?', '%' would cut a plain SQLite URI short; '[' is a glob pattern."""
    d = tmp_path / "a#b?c%20 [x]"
    d.mkdir()
    path = d / "赛 事[1].sqlite"
    with Tournament.create(path, "Odd", head_referee="Zhao", backup_every=0) as t:
        t.players.add("李伟")
        t.backups.write()
        t.players.add("张敏")
    assert [b.hands for b in Tournament.backup_list(path)] == [0]
    Tournament.restore_backup(path, 1, referee="Zhao")
    with Tournament.open(path, backup_every=0) as t:
        assert [p.name for p in t.players.list()] == ["李伟"]


def test_restore_needs_the_head_referees_pin(tmp_path: Path) -> None:
    from referee_app.storage import AuthError

    path = tmp_path / "pin.sqlite"
    with Tournament.create(path, "PIN Open", head_referee="Zhao", head_pin="246802",
                           backup_every=0) as t:
        t.referees.sign_in("Zhao", "246802")
        t.referees.add("Qian", pin="135702", referee="Zhao")
        t.players.add("李伟", referee="Zhao")
        t.backups.write()
        t.players.add("张敏", referee="Zhao")
    with pytest.raises(AuthError, match="PIN"):
        Tournament.restore_backup(path, 1, referee="Zhao")
    with pytest.raises(StorageError, match="wrong PIN"):
        Tournament.restore_backup(path, 1, referee="Zhao", pin="0000")
    with pytest.raises(StorageError):  # a referee, but not the head referee
        Tournament.restore_backup(path, 1, referee="Qian", pin="135702")
    asked: list[bool] = []
    Tournament.restore_backup(path, 1, referee="Zhao", pin=lambda: asked.append(True) or "246802")
    assert asked == [True]
    with Tournament.open(path, backup_every=0) as t:
        assert [p.name for p in t.players.list()] == ["李伟"]
        t.record.verify()
        assert t.record.log()[-1]["action"] == "backup.restore"


@pytest.mark.parametrize("blocked", ["a file", "read-only", "vanished"])
def test_a_backup_folder_that_cannot_hold_backups_is_named(make_tournament, record_for,
                                                          monkeypatch, blocked: str) -> None:
    """``<db>.backups`` a file, read-only, or gone while writing: ``event backup`` printed a
    bare "error: ….backups: File exists" / "Permission denied" with exit 2 (bad input), or
    blamed the database ("cannot open t0.sqlite"). Now one line naming the folder, exit 3;
    an automatic backup warns the same way and the save stands."""
    from click.testing import CliRunner

    from referee_app.cli import main
    from referee_app.storage import StorageFault, backup_files

    t = make_tournament(head_referee="Zhao")
    t.store.backup_every = 1
    d = backup_dir(t.path)
    assert not d.exists()
    if blocked == "a file":
        d.write_text("not a folder")
        said = "is a file, not a folder"
    elif blocked == "read-only":
        d.mkdir()
        real = os.access
        monkeypatch.setattr(backup_files.os, "access",
                            lambda p, mode: False if Path(p) == d else real(p, mode))
        said = "is read-only"
    else:
        real_open = os.open

        def gone(p, *a, **kw):  # the folder vanished as the log was opened
            if str(p).endswith(backup_log.SUFFIX):
                raise FileNotFoundError(2, "No such file or directory")
            return real_open(p, *a, **kw)

        monkeypatch.setattr(backup_log.os, "open", gone)
        said = "cannot write a backup in"
    with pytest.warns(RuntimeWarning, match=said):
        _add_hands(t, record_for, 1)
    assert len(t.hands.list()) == 1 and t.backups.error and said in t.backups.error
    with pytest.raises(StorageFault, match=said):
        t.backups.write()
    with pytest.warns(RuntimeWarning, match=said):
        t.close()  # still due: tried again, warned again
    r = CliRunner().invoke(main, ["event", "backup", "--db", str(t.path)])
    assert r.exit_code == 3 and said in r.output and str(d) in r.output, r.output
    assert r.output.count("\n") == 1


def test_a_restore_stopped_between_moving_the_file_aside_and_replacing_it_says_so(
        make_tournament, record_for, monkeypatch) -> None:
    """Killed in that instant, the file was simply missing: every command said "does not
    exist (create it with 'referee-app event new NAME')". It now names the copy set aside
    and the way back (exit 3), and restoring again works."""
    from referee_app.storage import StorageFault, backups

    t = make_tournament(head_referee="Zhao")
    _add_hands(t, record_for, 2)
    t.backups.write()
    _add_hands(t, record_for, 1, start=3)
    path = t.path
    t.close()
    real = os.replace

    def killed(src, dst):
        if Path(dst) == path:
            raise KeyboardInterrupt  # the process dies here
        return real(src, dst)

    monkeypatch.setattr(backups.os, "replace", killed)
    with pytest.raises(KeyboardInterrupt):
        Tournament.restore_backup(path, 1, referee="Zhao")
    monkeypatch.undo()
    assert not path.exists()
    with pytest.raises(StorageFault, match="restore was interrupted") as e:
        Tournament.open(path)
    assert "referee-app backup list" in str(e.value) and ".before-restore-" in str(e.value)
    Tournament.restore_backup(path, 1, referee="Zhao")
    assert _count(path) == 2
    aside = list(path.parent.glob(f"{path.name}.before-restore-*[0-9]Z"))
    assert len(aside) == 1 and _count(aside[0]) == 3  # nothing saved was lost


def test_a_restore_killed_right_after_the_swap_is_in_the_record(make_tournament, record_for,
                                                                monkeypatch) -> None:
    """The ``backup.restore`` chain entry was written after the backup was put in place: a
    kill in between left a restored file whose record did not say it had been restored (by
    whom, from which backup, what was set aside). It now goes into the copy first."""
    from referee_app.storage import backups

    t = make_tournament(head_referee="Zhao")
    _add_hands(t, record_for, 1)
    t.backups.write()
    _add_hands(t, record_for, 1, start=2)
    path = t.path
    t.close()
    real = os.replace

    def killed_after(src, dst):
        real(src, dst)
        if Path(dst) == path:
            raise KeyboardInterrupt  # the process dies right after the swap

    monkeypatch.setattr(backups.os, "replace", killed_after)
    with pytest.raises(KeyboardInterrupt):
        Tournament.restore_backup(path, 1, referee="Zhao")
    monkeypatch.undo()
    with Tournament.open(path, backup_every=0) as r:
        assert len(r.hands.list()) == 1
        last = r.record.log()[-1]
        assert (last["action"], last["referee"]) == ("backup.restore", "Zhao")
        assert last["detail"]["moved_aside"].startswith(f"{path.name}.before-restore-")
        assert (path.parent / last["detail"]["moved_aside"]).exists()
        r.record.verify()


# --------------------------------------------------------------------------- backup logs


def _db_bytes(t: Tournament) -> int:
    return t.store.size()


def test_the_backup_folder_stays_bounded_over_many_writes_and_restores(
        make_tournament, record_for) -> None:
    """Every 25 writes used to copy the whole file (a 1,000-player event kept 18x its file in
    backups). Points add what changed; older logs and copies go when the folder passes
    FOLDER_LIMIT times the file, never past 4x, whatever the number of writes or restores."""
    import sqlite3 as sq

    t = make_tournament(n=16, rounds=2, head_referee="Zhao", backup_every=1)
    d = backup_dir(t.path)
    for k in range(3):  # copies a version before the logs left, each a whole file
        dst = sq.connect(str(d / f"{t.path.stem}-2026010{k}T000000000000Z-r1.sqlite"))
        t.db.conn.backup(dst)
        dst.close()
    peak = 0.0
    hand = 0
    for cycle in range(3):
        for _ in range(40):
            hand += 1
            table = 1 + hand % 4
            t.hands.add(record_for(t, 1 + hand % 2, table, seed=hand), round=1 + hand % 2,
                        table=table, hand_no=hand, referee="Zhao")
            peak = max(peak, folder_size(t.path) / _db_bytes(t))
        path = t.path
        t.close()
        Tournament.restore_backup(path, 2 + cycle, referee="Zhao")  # an older point
        t = Tournament.open(path, backup_every=1)
        hand = max(h.hand_no for h in t.hands.list()) + 100
    assert peak <= FOLDER_LIMIT + 0.5 and folder_size(t.path) <= FOLDER_LIMIT * _db_bytes(t)
    left = sorted(p.name[len(t.path.stem) + 1:][:8] for p in d.glob("*2026010*"))
    assert len(left) < 3 and left == ["20260100", "20260101", "20260102"][3 - len(left):]
    assert len(list_logs(t.path)) >= 2  # the record before each restore, while it fits
    t.close()


def test_restoring_a_point_gives_back_exactly_the_record_then(make_tournament, record_for
                                                                ) -> None:
    """Each point rebuilds into the record as it was when the point was written: the same
    bundle (every table, every chain entry), ``verify`` ok; then only the restore's own
    entry follows."""
    t = make_tournament(n=16, rounds=2, head_referee="Zhao")
    seen = {}
    hid = []
    for step in range(6):
        hid.append(t.hands.add(record_for(t, 1, 1 + step % 4, seed=step), round=1,
                               table=1 + step % 4, hand_no=step + 1, referee="Zhao").id)
        if step == 2:
            t.hands.amend(hid[0], record_for(t, 1, 1, seed=50), reason="typo", referee="Zhao")
            t.penalties.add([t.rounds.seating(1).tables[2]["E"]], 5, "late", round=1)
        if step == 4:
            t.hands.void(hid[1], reason="wrong table", referee="Zhao")
            t.players.set_status(t.players.list()[-1].id, "withdrawn")
        t.backups.write()
        seen[t.record.digest()[0]] = t.export_bundle()
    path = t.path
    t.close()
    for info in Tournament.backup_list(path):
        want = seen[info.entries]
        Tournament.restore_backup(path, info.number, referee="Zhao")
        with Tournament.open(path, backup_every=0) as r:
            assert r.record.verify().entries == info.entries + 1
            got = r.export_bundle()
            assert got["chain"][-1]["action"] == "backup.restore"
            assert got["chain"][-1]["detail"]["entries"] == info.entries
            assert got["chain"][:-1] == want["chain"]
            for key in ("tournament", "players", "rounds", "hands", "penalties"):
                assert got[key] == want[key], key
        # back to the newest state for the next point (the newest log's last point)
        Tournament.restore_backup(path, 1, referee="Zhao")


def test_a_write_killed_while_it_appends_a_point_loses_nothing(make_tournament, tmp_path
                                                                ) -> None:
    """A process killed half way through appending a point: every hand it reported saved
    is in the file; the backup log still lists its points (the unfinished line is not one),
    the next point cuts that line off and carries the entries it missed, and the newest
    point rebuilds into a record that verifies."""
    import subprocess
    import sys

    t = make_tournament(n=8)
    path = t.path
    t.close()
    child = r"""
import os, random, sys
from referee_app.core.generate import random_record
from referee_app.storage import Tournament, backup_log
path = sys.argv[1]
real = backup_log._append
calls = [0]

def append(log, size, data):
    calls[0] += 1
    if calls[0] == 4:  # the fourth point: half of it written, then the process dies
        with open(log, "r+b") as f:
            f.seek(size)
            f.write(data[: len(data) // 2])
        os._exit(9)
    return real(log, size, data)

backup_log._append = append
t = Tournament.open(path, backup_every=2)
row = t.rounds.seating(1).tables[1]
for n in range(1, 50):
    t.hands.add(random_record(random.Random(n), "ottawa-2009", players=row), round=1,
                table=1, hand_no=n)
    sys.stdout.write(f"{n}\n")
    sys.stdout.flush()
"""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    run = subprocess.run([sys.executable, "-c", child, str(path)], capture_output=True,
                         text=True, env=env, timeout=120)
    assert run.returncode == 9, run.stderr
    reported = [int(x) for x in run.stdout.split()]
    log = list_logs(path)[-1]
    assert not log.read_bytes().endswith(b"\n")  # the unfinished line is there
    points, problem = backup_log.read_points(log)
    assert problem is None and len(points) == 3
    with Tournament.open(path, backup_every=1) as t:
        assert [h.hand_no for h in t.hands.list()] == list(range(1, len(reported) + 2))
        t.players.add("Late")  # the next point: cuts the line, carries what was missed
        entries = t.record.digest()[0]
    points, problem = backup_log.read_points(log)
    assert problem is None and len(points) == 4 and points[-1].entries == entries
    assert log.read_bytes().endswith(b"\n")
    target = tmp_path / "rebuilt.sqlite"
    backup_log.materialise(points[-1], target)
    with Tournament.open(target, backup_every=0) as r:
        assert r.record.verify().entries == entries
        assert len(r.hands.list()) == len(reported) + 1  # the one committed as it died


def test_a_saved_hand_costs_its_backup_a_few_times_its_own_size(make_tournament,
                                                                 record_for) -> None:
    """Bytes written for backups per saved hand at most 10x the hand's record (a point
    after every save: the dearest way), where a copy every 25 saves wrote the whole file."""
    t = make_tournament(n=16, rounds=1, backup_every=1)
    t.backups.write()
    before = t.backups.written
    sizes = []
    for n in range(1, 41):
        rec = record_for(t, 1, 1 + n % 4, seed=n)
        sizes.append(len(json.dumps(rec).encode("utf-8")))
        t.hands.add(rec, round=1, table=1 + n % 4, hand_no=n)
    per_hand = (t.backups.written - before) / 40
    assert per_hand <= 10 * sum(sizes) / len(sizes), (per_hand, sum(sizes) / len(sizes))
    t.close()


def test_a_table_beside_the_record_is_carried_and_wrong_pins_are_not(make_tournament,
                                                                      tmp_path, monkeypatch
                                                                      ) -> None:
    """The chain rebuilds the record; a table kept beside it (a later version's) travels
    in the points as it changes, and so do the referees' PIN hashes (``pins``: a backup is
    the desk's own copy, and a restored file keeps its PINs); recent wrong PINs (a lock of
    minutes) do not."""
    from referee_app.storage import db as dbm

    t = make_tournament(head_referee="Zhao")
    t.referees.add("Zhao", pin="135790", head=True)
    t.referees.sign_in("Zhao", "135790")
    t.db.execute("CREATE TABLE desk_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    t.db.execute("INSERT INTO desk_notes(text) VALUES ('first')")
    t.db.execute("INSERT INTO auth_failures(name, at) VALUES ('Zhao', 1.0)")
    t.backups.write()
    t.db.execute("INSERT INTO desk_notes(text) VALUES ('second')")
    t.players.add("Late")
    t.backups.write()
    points = backup_log.read_points(list_logs(t.path)[-1])[0]
    assert [p.tables.keys() for p in points] == [{"chain_head", "desk_notes", "hand_keys",
                                                  "pins"}] * 2
    pins = t.db.execute("SELECT name, hash, set_at FROM pins").fetchall()
    assert [r[0] for r in pins] == ["Zhao"]
    for p, notes in zip(points, (["first"], ["first", "second"]), strict=True):
        target = tmp_path / f"p{p.entries}.sqlite"
        # rebuilt as a later version would: its schema has the table
        monkeypatch.setattr(dbm, "SCHEMA", dbm.SCHEMA + "CREATE TABLE desk_notes (id INTEGER "
                            "PRIMARY KEY, text TEXT NOT NULL);\n")
        backup_log.materialise(p, target)
        monkeypatch.undo()
        c = sqlite3.connect(str(target))
        assert [r[0] for r in c.execute("SELECT text FROM desk_notes ORDER BY id")] == notes
        assert c.execute("SELECT COUNT(*) FROM auth_failures").fetchone()[0] == 0
        assert c.execute("SELECT name, hash, set_at FROM pins").fetchall() == pins
        c.close()
    t.close()


def test_a_damaged_line_keeps_the_points_before_it(make_tournament, record_for) -> None:
    t = make_tournament(head_referee="Zhao", backup_every=0)
    for n in (1, 2, 3):
        _add_hands(t, record_for, 1, start=n)
        t.backups.write()
    path = t.path
    t.close()
    log = list_logs(path)[-1]
    lines = log.read_bytes().split(b"\n")
    lines[1] = lines[1][:40] + b"#" + lines[1][41:]  # the second point's line
    log.write_bytes(b"\n".join(lines))
    listed = Tournament.backup_list(path)
    assert [b.hands for b in listed] == [None, 1]
    assert listed[0].problem and "line 2" in listed[0].problem
    # the line is data: said in 中文 too, naming the log and its line
    assert listed[0].problem.text("zh").startswith("已损坏（") \
        and f"{log.name} 第 2 行" in listed[0].problem.text("zh")
    with pytest.raises(DamagedError, match="choose another") as e:
        Tournament.restore_backup(path, 1, referee="Zhao")
    assert "第 2 行" in e.value.text("zh") and "damaged" not in e.value.text("zh")
    Tournament.restore_backup(path, 2, referee="Zhao")
    assert _count(path) == 1


def test_a_whole_copy_from_before_the_logs_is_listed_and_restored(make_tournament, record_for
                                                                   ) -> None:
    """Copies written by versions before the logs stay restorable beside the logs."""
    t = make_tournament(head_referee="Zhao")
    _add_hands(t, record_for, 2)
    d = backup_dir(t.path)
    d.mkdir()
    copy = d / f"{t.path.stem}-20260101T000000000000Z-r1.sqlite"
    dst = sqlite3.connect(str(copy))
    t.db.conn.backup(dst)
    dst.close()
    _add_hands(t, record_for, 1, start=3)
    t.backups.write()
    path = t.path
    t.close()
    listed = Tournament.backup_list(path)
    assert [(b.hands, b.path.suffix) for b in listed] == [(3, ".jsonl"), (2, ".sqlite")]
    info, _ = Tournament.restore_backup(path, 2, referee="Zhao")
    assert info.path == copy and _count(path) == 2
    with Tournament.open(path, backup_every=0) as r:
        r.record.verify()


def test_a_big_table_beside_the_record_travels_by_its_added_rows(make_tournament, tmp_path,
                                                                 monkeypatch) -> None:
    """The desks' idempotency keys grow by a row a hand: a point carries the rows added
    since the point before, not the whole table again (whole only when rows went)."""
    import base64
    import zlib

    from referee_app.storage import db as dbm

    monkeypatch.setattr(backup_log, "SMALL_TABLE", 1)  # desk_notes counts as big here
    t = make_tournament()
    t.db.execute("CREATE TABLE desk_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    for text in ("a", "b", "c"):
        t.db.execute("INSERT INTO desk_notes(text) VALUES (?)", (text,))
    t.backups.write()
    t.db.execute("INSERT INTO desk_notes(text) VALUES ('d')")
    t.backups.write()
    t.db.execute("DELETE FROM desk_notes WHERE text='a'")
    t.db.execute("INSERT INTO desk_notes(text) VALUES ('e')")
    t.backups.write()
    log = list_logs(t.path)[-1]

    def payload(line: bytes) -> dict:
        return json.loads(zlib.decompress(base64.b64decode(json.loads(line)["data"])))

    lines = log.read_bytes().splitlines()
    assert [sorted(payload(x)["added"]) for x in lines] == [[], ["desk_notes"], []]
    assert payload(lines[1])["added"]["desk_notes"]["rows"] == [[4, "d"]]
    assert "desk_notes" in payload(lines[2])["tables"]  # a row went: shipped whole
    points = backup_log.read_points(log)[0]
    monkeypatch.setattr(dbm, "SCHEMA", dbm.SCHEMA + "CREATE TABLE desk_notes (id INTEGER "
                        "PRIMARY KEY, text TEXT NOT NULL);\n")
    for p, notes in zip(points, ("abc", "abcd", "bcde"), strict=True):
        target = tmp_path / f"p{p.index}.sqlite"
        backup_log.materialise(p, target)
        c = sqlite3.connect(str(target))
        assert "".join(r[0] for r in c.execute("SELECT text FROM desk_notes ORDER BY id")) \
            == notes
        c.close()
    t.close()


def test_a_log_goes_on_across_a_schema_step(make_tournament, tmp_path, monkeypatch) -> None:
    """A later schema step adds a column to a big table beside the record: the next point
    ships the table whole (rows added since would not fit the rows before), and every
    point restores — the one before the step and the one after."""
    from referee_app.storage import db as dbm

    monkeypatch.setattr(backup_log, "SMALL_TABLE", 0)  # desk_notes carried by added rows
    t = make_tournament(head_referee="Zhao")
    t.db.execute("CREATE TABLE desk_notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
    t.db.execute("INSERT INTO desk_notes(text) VALUES ('first')")
    t.backups.write()
    t.db.execute("INSERT INTO desk_notes(text) VALUES ('second')")
    t.backups.write()
    t.db.execute("ALTER TABLE desk_notes ADD COLUMN desk TEXT NOT NULL DEFAULT 'A'")
    t.db.execute("INSERT INTO desk_notes(text, desk) VALUES ('third', 'B')")
    t.backups.write()
    points = backup_log.read_points(list_logs(t.path)[-1])[0]
    assert len(points) == 3 and all(p.schema == dbm.SCHEMA_VERSION for p in points)
    later = dbm.SCHEMA + ("CREATE TABLE desk_notes (id INTEGER PRIMARY KEY, text TEXT NOT "
                          "NULL, desk TEXT NOT NULL DEFAULT 'A');\n")
    want = [[("first", "A")], [("first", "A"), ("second", "A")],
            [("first", "A"), ("second", "A"), ("third", "B")]]
    for p, notes in zip(points, want, strict=True):
        target = tmp_path / f"p{p.entries}-{p.index}.sqlite"
        monkeypatch.setattr(dbm, "SCHEMA", later)
        backup_log.materialise(p, target)
        c = sqlite3.connect(str(target))
        assert c.execute("SELECT text, desk FROM desk_notes ORDER BY id").fetchall() == notes
        c.close()
    t.close()


def test_a_point_of_a_newer_schema_is_not_restored(make_tournament, tmp_path) -> None:
    """Rebuilt by an older version, a newer point's columns would be dropped unseen."""
    from referee_app.storage import db as dbm

    t = make_tournament(head_referee="Zhao")
    t.backups.write()
    log = list_logs(t.path)[-1]
    t.close()
    line = json.loads(log.read_bytes().splitlines()[-1])
    line["schema"] = dbm.SCHEMA_VERSION + 1
    log.write_bytes((json.dumps(line) + "\n").encode("utf-8"))
    point = backup_log.read_points(log)[0][-1]
    with pytest.raises(backup_log.LogError) as e:
        backup_log.materialise(point, tmp_path / "new.sqlite")
    assert e.value.said.code == "backup_log_newer_schema"
    assert "较新版本" in e.value.said.text("zh")
    assert not (tmp_path / "new.sqlite").exists()


def test_a_team_comes_back_with_its_backup(make_tournament, record_for) -> None:
    """Schema 4's players.team is part of the record: a point restores it."""
    t = make_tournament(head_referee="Zhao", backup_every=0)
    name = t.players.list()[0].name
    t.players.update(name, team="川军")
    t.backups.write()
    t.players.update(name, team="")
    t.backups.write()
    path = t.path
    t.close()
    Tournament.restore_backup(path, 2, referee="Zhao")
    t = Tournament.open(path)
    assert t.players.get(name).team == "川军"
    t.close()
