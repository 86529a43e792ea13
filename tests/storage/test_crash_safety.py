"""Reliability: SIGKILL a writer at random moments; two processes writing one file at once.

Each child prints a hand's id only *after* ``add_hand`` returned (the commit is durable),
then flushes. After every kill the file must open, pass ``PRAGMA integrity_check``, and
hold every reported hand complete (record, settlement, one row per seat), with no
half-written hand anywhere.
"""

from __future__ import annotations

import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from referee_app.core import HandRecord, settle
from referee_app.storage import Tournament, backup_log
from referee_app.storage.backup_files import list_logs
from referee_app.storage.backup_log import read_points

pytestmark = [pytest.mark.slow, pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")]

WRITER = r"""
import os, random, sys, time
from referee_app.core.generate import random_record
from referee_app.storage import Tournament, backup_log
from referee_app.storage.backup_files import list_logs
from referee_app.storage.backup_log import read_points
path, table, count, mode = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]


def say(*parts):
    # one write per line: with PYTHONUNBUFFERED, print() writes each part separately and a
    # kill between them leaves half a line
    sys.stdout.write(" ".join(map(str, parts)) + "\n")
    sys.stdout.flush()


def next_no(table):
    # a full table (hand 999 written): wait for the kill as a writer still at work would, so
    # that a fast machine does not end the writer before it is killed
    n = t.hands.next_no(1, table)
    while n > 999:
        time.sleep(60)
    return n


t = Tournament.open(path, backup_every=3)
seated = t.rounds.seating(1).tables[table]
say("ready")
for i in range(count):
    if mode == "add":
        n = next_no(table)
        rec = random_record(random.Random(table * 100000 + n), "ottawa-2009", players=seated)
        h = t.hands.add(rec, round=1, table=table, hand_no=n, referee=f"proc{table}")
        say(h.id, n)
    elif mode == "mixed":  # add a hand, then amend a random earlier one
        n = next_no(table)
        rec = random_record(random.Random(table * 100000 + n), "ottawa-2009", players=seated)
        h = t.hands.add(rec, round=1, table=table, hand_no=n, referee=f"proc{table}")
        say("add", h.id, n)
        target = random.Random(n).choice(t.hands.list(round=1, table=table))
        rec = random_record(random.Random(n * 7 + 1), "ottawa-2009", players=seated)
        a = t.hands.amend(target.id, rec, reason=f"fix {n}", referee="k")
        say("amend", a.id, a.version)
    else:  # amend hand 1 over and over
        rec = random_record(random.Random(table * 1000 + i), "ottawa-2009", players=seated)
        h = t.hands.amend(int(mode), rec, reason=f"pid {os.getpid()} amend {i}", referee=f"p{table}")
        say(h.version)
t.close()
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parents[2])
    env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _spawn(path: Path, table: int, count: int, mode: str = "add") -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", WRITER, str(path), str(table), str(count),
                             mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=_env())


def _lines(out: str) -> list[str]:
    """Complete lines only: a line cut by the kill was never fully reported."""
    return out.split("\n")[:-1]


def _check_complete(path: Path, reported: dict[int, int]) -> int:
    conn = sqlite3.connect(str(path))
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        # no half-written hand anywhere: every hand has its current version and 4 seat rows
        bad = conn.execute(
            "SELECT h.id FROM hands h LEFT JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version WHERE v.hand_id IS NULL OR (SELECT COUNT(*) FROM "
            "hand_seats s WHERE s.hand_id=h.id AND s.version=h.current_version) <> 4"
        ).fetchall()
        assert bad == []
        n = conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0]
    finally:
        conn.close()
    with Tournament.open(path, backup_every=0) as t:
        for hid, hand_no in reported.items():
            h = t.hands.get(hid)
            assert h.hand_no == hand_no
            s = settle(HandRecord.from_dict(h.record))
            assert s.ok and h.settlement["totals"] == s.totals == h.totals
            assert set(h.players) == {"E", "S", "W", "N"}
        entries = t.record.digest()[0]
        for log in t.backups.paths():  # a kill leaves at most an unfinished last line
            points, problem = read_points(log)
            assert problem is None and points and points[-1].entries <= entries
    return n


def _check_newest_backup(path: Path, tmp: Path) -> None:
    """The newest backup point rebuilds into a file that verifies, holding what it says."""
    log = list_logs(path)[-1]
    point = read_points(log)[0][-1]
    backup_log.materialise(point, tmp)
    with Tournament.open(tmp, backup_every=0) as t:
        assert t.record.verify().entries == point.entries
        assert len(t.hands.list()) == point.hands


def test_sigkill_during_writes_loses_no_reported_hand(make_tournament) -> None:
    t = make_tournament()
    path = t.path
    t.close()
    rng = random.Random(2024)
    reported: dict[int, int] = {}
    start = time.monotonic()
    kills_mid_run = 0
    in_db = 0
    for k in range(15):  # the four tables in turn: a fast machine fills one (999 hands)
        p = _spawn(path, 1 + k % 4, 100000)
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready", p.stderr.read() if p.stderr else ""
        time.sleep(rng.uniform(0.01, 0.6))
        os.kill(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        assert p.returncode == -signal.SIGKILL
        kills_mid_run += 1
        new = 0
        for line in _lines(out):
            hid, hand_no = line.split()
            reported[int(hid)] = int(hand_no)
            new += 1
        n = _check_complete(path, reported)
        # at most one hand committed but not yet reported when the kill landed
        assert in_db + new <= n <= in_db + new + 1
        in_db = n
    assert kills_mid_run == 15 and len(reported) > 15
    _check_newest_backup(path, path.with_name("newest-backup.sqlite"))
    assert time.monotonic() - start < 60


def test_sigkill_while_adding_and_amending_keeps_every_reported_version(
        make_tournament) -> None:
    t = make_tournament()
    path = t.path
    t.close()
    rng = random.Random(77)
    added: dict[int, int] = {}
    amended: dict[int, int] = {}
    for _ in range(6):
        p = _spawn(path, 2, 100000, mode="mixed")
        assert p.stdout is not None
        assert p.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.5))
        os.kill(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        for line in _lines(out):
            kind, a, b = line.split()
            if kind == "add":
                added[int(a)] = int(b)
            else:
                amended[int(a)] = max(amended.get(int(a), 0), int(b))
        _check_complete(path, added)
        with Tournament.open(path, backup_every=0) as t2:
            for hid, version in amended.items():
                hist = t2.hands.history(hid)
                assert [v.version for v in hist] == list(range(1, len(hist) + 1))
                assert len(hist) >= version  # every reported amendment is there
                assert hist[version - 1].action.value == "amended"
                assert hist[version - 1].reason
    assert added and amended


def test_sigkill_during_bundle_import_leaves_nothing_or_a_whole_tournament(
        tmp_path: Path) -> None:
    demo = Path(__file__).resolve().parents[2] / "sample_events" / "demo-ottawa-2009.json"
    target = tmp_path / "imported.sqlite"
    cmd = [sys.executable, "-m", "referee_app", "event", "import", str(demo), "--db",
           str(target)]
    a = time.monotonic()
    assert subprocess.run(cmd, capture_output=True, env=_env(), timeout=120).returncode == 0
    full = time.monotonic() - a
    rng = random.Random(5)
    interrupted = 0
    for _ in range(6):
        for f in tmp_path.glob("imported.sqlite*"):
            f.unlink()
        p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env())
        time.sleep(rng.uniform(0.05, full * 0.9))
        os.kill(p.pid, signal.SIGKILL)
        p.communicate()
        if target.exists():  # finished before the kill: must be whole
            with Tournament.open(target, backup_every=0) as t:
                assert len(t.hands.list()) == 128 and t.record.integrity() == "ok"
        else:
            interrupted += 1
    assert interrupted >= 1
    for f in tmp_path.glob("imported.sqlite*"):
        f.unlink()
    r = subprocess.run(cmd, capture_output=True, text=True, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr  # leftovers of killed imports do not get in the way
    with Tournament.open(target, backup_every=0) as t:
        assert len(t.hands.list()) == 128


def test_two_processes_writing_at_once_lose_nothing(make_tournament) -> None:
    t = make_tournament()
    path = t.path
    t.close()
    procs = [_spawn(path, table, 25) for table in (1, 2, 3)]
    outs = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        outs.append([line.split() for line in out.splitlines()[1:]])
    reported = {int(h): int(n) for lines in outs for h, n in lines}
    assert len(reported) == 75
    assert _check_complete(path, reported) == 75
    with Tournament.open(path, backup_every=0) as t2:
        for table in (1, 2, 3):
            assert [h.hand_no for h in t2.hands.list(round=1, table=table)] == list(range(1, 26))
        assert sum(r.chips for r in t2.standings.table()) == 0


def test_concurrent_amendments_get_distinct_versions(make_tournament, record_for) -> None:
    t = make_tournament()
    h = t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    path = t.path
    t.close()
    procs = [_spawn(path, 1, 15, mode=str(h.id)) for _ in range(2)]
    versions = []
    for p in procs:
        out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err
        versions += [int(v) for v in out.split()[1:]]
    assert sorted(versions) == list(range(2, 32))  # no two amendments got the same number
    with Tournament.open(path, backup_every=0) as t2:
        hist = t2.hands.history(h.id)
        assert [v.version for v in hist] == list(range(1, 32))
        assert len({v.reason for v in hist[1:]}) == 30


def test_revision_sees_changes_made_by_another_process(make_tournament, record_for) -> None:
    t = make_tournament()
    r0 = t.revision()
    assert t.revision() == r0  # reading changes nothing
    t.players.add("新人")
    r1 = t.revision()
    assert r1 != r0
    p = _spawn(t.path, 1, 1)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 0, err
    assert t.revision() != r1  # the other process's hand is noticed
    assert len(t.hands.list()) == 1
