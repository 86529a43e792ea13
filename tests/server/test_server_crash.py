"""Issue 24: the idempotency keys live in the database, saved in the hand's own
transaction, so no crash and no full disk can make a desk's resend double a hand or look
like "another desk took this number".

* 8 desks save hands while the server is killed with SIGKILL 20 times and restarted: every
  hand a desk was given is saved exactly once, under its number, with its desk's key; no
  desk ever met a conflict; a resend of a hand the server had saved is answered as a
  replay.
* The tournament file on a small tmpfs that fills up: every save answers 503 with
  Retry-After (never 500, never a traceback), the desks keep the hands, the server is
  killed while the disk is full, and once there is room again every hand is saved
  exactly once (a reply lost before the disk filled is replayed). Mounting a tmpfs needs
  root: the test is skipped, saying so, where it is not allowed.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import DESKS, HEAD, HEAD_PIN, Flaky, ServerProcess, http, make_event, records

from referee_app.server.client import DeskClient, SaveResult
from referee_app.storage import Tournament

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning"),
              pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")]

#: four more desk referees: eight desks, one per table of 32 players
MORE_DESKS = (("吴", "Wu-5555x"), ("郑", "Zg-6666x"), ("王", "Wa-7777x"), ("冯", "Fg-8888x"))
EIGHT = DESKS + MORE_DESKS
KILLS = 20


def eight_desk_event(path: Path) -> Path:
    db = make_event(path, players=32)
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        for name, pin in MORE_DESKS:
            t.referees.add(name, pin=pin)
    return db


def content(rec: dict[str, Any]) -> Any:
    """What a desk entered, as compared with what was saved (tiles and events)."""
    return ({s: (v.get("concealed"), v.get("pongs")) for s, v in rec["seats"].items()},
            rec["events"], rec["dealer"])


def check_saved(db: Path, given: dict[int, dict[int, dict[str, Any]]],
                outboxes: dict[int, Path]) -> None:
    """Every given hand saved exactly once, as entered, with its desk's own key; the record
    verifies and the file is sound; nothing refused in any outbox."""
    with Tournament.open(db, backup_every=0) as t:
        hands = t.hands.list()
        places = [(h.table, h.hand_no) for h in hands]
        assert len(places) == len(set(places))  # 0 doubled
        want = sorted((table, n) for table, recs in given.items() for n in recs)
        assert sorted(places) == want  # 0 lost
        for h in hands:
            first = t.hands.history(h.id)[0]
            assert content(first.record) == content(given[h.table][h.hand_no])
        keys = dict(t.db.execute("SELECT key, hand_id FROM hand_keys").fetchall())
        by_place = {(h.table, h.hand_no): h.id for h in hands}
        for table, folder in outboxes.items():
            assert not list(folder.glob("*.json")), "a hand still waits"
            assert not (folder / "dropped").exists() or not list(
                (folder / "dropped").glob("*.json")), "a hand was refused"
            sent = [json.loads(p.read_text(encoding="utf-8"))
                    for p in (folder / "sent").glob("*.json")]
            assert sorted(d["hand_no"] for d in sent) == sorted(given[table])
            for d in sent:  # the key it was sent with is the one saved with the hand
                assert keys[d["key"]] == by_place[(table, d["hand_no"])]
        assert t.record.verify().entries > len(hands)
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    assert not Path(f"{db}.keys").exists()


class Desk(threading.Thread):
    """One desk: signs in, then saves its table's hands one after another — each waits in
    the outbox while the server is down, and goes with the next save — and, out of new
    hands, keeps sending what waits, until told to stop."""

    def __init__(self, url: str, outbox: Path, i: int, recs: list[dict[str, Any]],
                 stop: threading.Event, counts: Counter[str], lock: threading.Lock) -> None:
        super().__init__(name=f"desk{i + 1}")
        self.table = i + 1
        self.name_pin = EIGHT[i]
        self.client = DeskClient(url, outbox, timeout=3, reauth=lambda: self.name_pin)
        self.recs, self.stop_at, self.counts, self.lock = recs, stop, counts, lock
        self.given: dict[int, dict[str, Any]] = {}
        self.results: list[SaveResult] = []
        self.error: BaseException | None = None

    def _count(self, results: list[SaveResult], waiting: bool) -> None:
        self.results.extend(results)
        with self.lock:
            self.counts["sent"] += sum(not r.queued for r in results)
            self.counts["queued"] += waiting
            self.counts["replayed"] += sum(r.replayed for r in results)

    def run(self) -> None:
        try:
            while not self.stop_at.is_set():
                n = len(self.given) + 1
                if n <= len(self.recs):
                    self.given[n] = self.recs[n - 1]
                    r = self.client.add_hand(self.recs[n - 1], round=1, table=self.table,
                                             hand_no=n)
                    self._count([r], r.queued)
                    # while the server is down, new hands come slower (a referee waits)
                    time.sleep(0.5 if r.queued else 0.1)
                else:
                    rep = self.client.flush()
                    self._count(rep.sent, False)
                    time.sleep(0.1)
        except BaseException as e:  # reported by the test
            self.error = e

    def send_waiting(self, deadline: float) -> None:
        while self.client.waiting() and time.monotonic() < deadline:
            rep = self.client.flush()
            self.results.extend(rep.sent)
            assert not rep.conflicts, [c.problem for c in rep.conflicts]
            if rep.waiting:
                time.sleep(0.2)


def test_twenty_kills_during_eight_desks_posts(tmp_path: Path) -> None:
    db = eight_desk_event(tmp_path / "event.sqlite")
    recs = {i: records(db, i + 1, 90, seed=20 + i) for i in range(8)}
    server = ServerProcess(db).start()
    port = server.port
    counts: Counter[str] = Counter()
    lock = threading.Lock()
    stop = threading.Event()
    outboxes = {i + 1: tmp_path / f"outbox{i + 1}" for i in range(8)}
    desks = [Desk(server.url, outboxes[i + 1], i, recs[i], stop, counts, lock)
             for i in range(8)]
    for d in desks:
        d.client.sign_in(*d.name_pin)
        d.client.ruleset()
    outputs: list[str] = []
    rng = random.Random(24)
    for d in desks:
        d.start()
    try:
        for _ in range(KILLS):
            with lock:
                seen = counts["sent"]
            end = time.monotonic() + 30
            while time.monotonic() < end:  # the desks are sending: a few hands got through
                with lock:
                    if counts["sent"] >= seen + 4:
                        break
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.15))  # somewhere in the middle of their POSTs
            server.kill()
            outputs.append(server.proc.stdout.read() if server.proc.stdout else "")
            time.sleep(rng.uniform(0, 0.3))
            server = ServerProcess(db, port).start(timeout=60)
        stop.set()
        for d in desks:
            d.join(120)
        deadline = time.monotonic() + 120
        for d in desks:
            d.send_waiting(deadline)
    finally:
        stop.set()
        outputs.append(server.stop())
        for d in desks:
            d.client.close()
    assert [d.error for d in desks] == [None] * 8
    given = {d.table: d.given for d in desks}
    total = sum(len(g) for g in given.values())
    check_saved(db, given, outboxes)
    replays = sum(r.replayed for d in desks for r in d.results)
    print(f"{KILLS} kills, 8 desks: {total} hands given, {counts['queued']} waited in an "
          f"outbox, {replays} resends answered as replays; 0 lost, 0 doubled "
          f"(load {os.getloadavg()[0]:.1f})")
    assert counts["queued"] > 0  # hands did wait through the kills
    assert not any("Traceback" in out for out in outputs)


# --------------------------------------------------------------------------- disk full


@contextlib.contextmanager
def small_tmpfs(where: Path, size: str = "4m") -> Iterator[Path]:
    """A tmpfs of ``size`` at ``where`` (needs root), unmounted afterwards."""
    where.mkdir()
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("a disk-full run needs root to mount a small tmpfs (mount -t tmpfs)")
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                       capture_output=True, text=True)
    if r.returncode != 0:
        pytest.skip(f"mounting a tmpfs was not allowed here: {r.stderr.strip()}")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(folder: Path) -> Path:
    """A file that takes every free byte of ``folder``'s file system."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        for chunk in (1 << 16, 1 << 12, 1 << 9, 1):
            try:
                while True:
                    f.write(b"\0" * chunk)
            except OSError as e:
                assert e.errno == errno.ENOSPC
    return filler


def test_a_full_disk_answers_503_and_no_hand_is_lost_or_doubled(tmp_path: Path) -> None:
    made = eight_desk_event(tmp_path / "made.sqlite")
    recs = {i: records(made, i + 1, 5, seed=40 + i) for i in range(8)}
    with small_tmpfs(tmp_path / "disk") as disk:
        db = disk / "event.sqlite"
        shutil.copy(made, db)
        server = ServerProcess(db).start()
        port = server.port
        lossy = Flaky()
        clients = {i + 1: DeskClient(server.url, tmp_path / f"outbox{i + 1}", timeout=5,
                                     reauth=lambda i=i: EIGHT[i],
                                     transport=lossy if i == 0 else None)
                   for i in range(8)}
        given: dict[int, dict[int, dict[str, Any]]] = {t: {} for t in clients}

        def add(table: int, n: int) -> SaveResult:
            given[table][n] = recs[table - 1][n - 1]
            return clients[table].add_hand(given[table][n], round=1, table=table, hand_no=n)

        outputs = []
        try:
            for table, c in clients.items():
                c.sign_in(*EIGHT[table - 1])
                c.ruleset()
            # two hands each while there is room; desk 1's second reply is lost
            for n in (1, 2):
                for table in clients:
                    lossy.lose_next_hand_reply = (table, n) == (1, 2)
                    assert add(table, n).queued is ((table, n) == (1, 2))
            # the log emptied into the file, then not a byte left: every save must grow it
            conn = sqlite3.connect(db)
            try:
                assert conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()[0] == 0
            finally:
                conn.close()
            filler = fill(disk)
            # desk 1 sends the hand whose reply was lost: a replay, the disk full or not
            rep = clients[1].flush()
            assert [r.replayed for r in rep.sent] == [True] and rep.waiting == 0
            # every save is a 503 with Retry-After, and the desks keep their hands
            token = clients[2].session.token  # type: ignore[union-attr]
            raw = http.post(server.url + "/api/hands", headers={
                "Authorization": f"Bearer {token}", "Idempotency-Key": "raw-full-1"},
                json={"round": 1, "table": 2, "hand_no": 3, "record": recs[1][2]},
                timeout=30)
            assert raw.status_code == 503, raw.text
            assert int(raw.headers["retry-after"]) >= 1
            assert raw.json()["error"]["code"] == "disk_full"
            for n in (3, 4):
                for table, c in clients.items():
                    r = add(table, n)
                    assert r.queued and not c.conflicts(), (table, n, r)
                    assert "full" in r.problem, r.problem
            assert server.proc.poll() is None  # the server stays up
            # killed while the disk is full, restarted once there is room again
            server.kill()
            outputs.append(server.proc.stdout.read() if server.proc.stdout else "")
            filler.unlink()
            server = ServerProcess(db, port).start()
            for table, c in clients.items():
                while c.busy():  # each 503 asked to come back after its Retry-After
                    time.sleep(0.1)
                add(table, 5)
                rep = c.flush()
                assert rep.waiting == 0 and not rep.conflicts and not rep.problem, rep
        finally:
            outputs.append(server.stop())
            for c in clients.values():
                c.close()
        check_saved(db, given, {t: tmp_path / f"outbox{t}" for t in clients})
        assert not any("Traceback" in out for out in outputs), outputs
