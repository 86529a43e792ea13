"""Checkpoints off the save: no commit copies the WAL back into the file (SQLite's own
checkpoint, in the commit that takes the WAL past 1,000 pages, cost one save in a few
hundred ~50 ms); a thread of its own does, every CHECKPOINT_EVERY saves."""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest

from referee_app.storage import Tournament, checkpoints
from referee_app.storage import db as dbm


def test_a_commit_leaves_the_checkpoint_to_its_thread(make_tournament: Any) -> None:
    """The connection's own checkpoint waits for a WAL of BEHIND_PAGES: 5 MB committed in
    five saves stay in the WAL (with SQLite's default, a commit would have copied them back
    at 4 MB and the WAL started again from its beginning)."""
    t = make_tournament(n=4, rounds=0)
    assert t.db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == dbm.BEHIND_PAGES
    t.db.execute("CREATE TABLE scratch (x BLOB)")
    for _ in range(5):
        with dbm.write_transaction(t.db, t.path):
            t.db.execute("INSERT INTO scratch VALUES (randomblob(1000000))")
    wal = Path(f"{t.path}-wal")
    assert wal.stat().st_size > 1000 * 4096 + 1_000_000


def test_every_few_saves_a_checkpoint_is_made_on_its_own_thread(
        make_tournament: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[tuple[str, tuple[int, int, int]]] = []
    real = dbm.checkpoint

    def spied(db: Any) -> tuple[int, int, int]:
        got = real(db)
        made.append((threading.current_thread().name, got))
        return got

    t = make_tournament(n=4, rounds=0)
    t.store.checkpoints = checkpoints.Checkpoints(t.path, every=3)
    monkeypatch.setattr(checkpoints.dbm, "checkpoint", spied)
    t.players.add("Late 1")
    t.players.add("Late 2")
    assert made == [] and t.store.checkpoints.made == 0
    t.players.add("Late 3")  # the third save starts one, and does not wait for it
    for _ in range(200):
        if t.store.checkpoints.made:
            break
        time.sleep(0.01)
    [(thread, (busy, pages, copied))] = made
    assert thread.startswith("referee-checkpoint")
    assert busy == 0 and pages > 0 and copied == pages  # the whole WAL is in the file
    assert t.store.checkpoints.last == (busy, pages, copied)


def test_closing_waits_for_the_checkpoint_and_its_connection(
        fresh_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A checkpoint under way when the tournament closes is finished, its connection closed,
    and the file is whole afterwards; a failing one changes nothing (the next tries again)."""
    started = threading.Event()
    real = dbm.checkpoint

    def slow(db: Any) -> tuple[int, int, int]:
        started.set()
        time.sleep(0.2)
        return real(db)

    monkeypatch.setattr(checkpoints.dbm, "checkpoint", slow)
    t = Tournament.create(fresh_db, "Open", backup_every=0)
    t.store.checkpoints = checkpoints.Checkpoints(t.path, every=1)
    t.players.add("A")
    assert started.wait(5)
    t.close()  # waits for it
    assert t.store.checkpoints.made == 1 and t.store.checkpoints._db is None

    tried: list[int] = []

    def failing(db: Any) -> tuple[int, int, int]:
        tried.append(1)
        raise OSError("disk gone")

    monkeypatch.setattr(checkpoints.dbm, "checkpoint", failing)
    with Tournament.open(fresh_db, backup_every=0) as t:
        t.store.checkpoints = checkpoints.Checkpoints(t.path, every=1)
        t.players.add("B")
        time.sleep(0.1)
        t.players.add("C")  # the failed one let go of its turn
        time.sleep(0.1)
        assert t.store.checkpoints.made == 0 and len(tried) == 2
    with Tournament.open(fresh_db, backup_every=0) as t:
        assert [p.name for p in t.players.list()] == ["A", "B", "C"]
        assert t.record.integrity() == "ok"
