"""Checkpoints off the save: the WAL copied back into the file on a thread of its own.

In WAL mode a commit appends to ``<file>-wal``; SQLite copies those pages back into the file
(a *checkpoint*) in the commit that takes the WAL past 1,000 pages. That one save pays for
it: ~50 ms here for 4 MB, one save in a few hundred at 1,000 players, more on a slow disk.
A tournament's connection therefore leaves it (:func:`.db.checkpoint_behind`) to
:class:`Checkpoints`, which makes one every :data:`CHECKPOINT_EVERY` saves on a thread with
a connection of its own (``PASSIVE``: it waits for no reader and no writer waits for it).
Should it fall behind, a commit still makes the checkpoint itself once the WAL reaches
:data:`.db.BEHIND_PAGES`; closing the last connection checkpoints what is left, as always.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import db as dbm

#: saves between two checkpoints (~4 pages of WAL a hand: ~100 pages, copied back in a few
#: milliseconds no save waits for)
CHECKPOINT_EVERY = 25


class Checkpoints:
    """One file's checkpoints, made on a thread of their own every ``every`` saves (one at a
    time: a save that finds one running does not start another)."""

    def __init__(self, path: Path, every: int = CHECKPOINT_EVERY) -> None:
        self.path = path
        self.every = every
        self._saves = 0
        self._running = threading.Lock()
        self._pool: ThreadPoolExecutor | None = None
        self._db: dbm.Database | None = None  # the checkpoint thread's only
        #: checkpoints made, and the last one's (busy, pages in the WAL, pages copied)
        self.made = 0
        self.last: tuple[int, int, int] | None = None

    def saved(self) -> None:
        """Count a committed save; every ``every``, start a checkpoint unless one runs."""
        self._saves += 1
        if self._saves < self.every or not self._running.acquire(blocking=False):
            return
        self._saves = 0
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, thread_name_prefix="referee-checkpoint")
        self._pool.submit(self._checkpoint)

    def _checkpoint(self) -> None:
        try:
            if self._db is None:
                self._db = dbm.connect(self.path)
            self.last = dbm.checkpoint(self._db)
            self.made += 1
        except (OSError, sqlite3.Error):
            pass  # the next one tries again (and SQLite's own, should the WAL grow)
        finally:
            self._running.release()

    def close(self) -> None:
        """Wait for the checkpoint being made, if any, and close its connection."""
        pool, self._pool = self._pool, None
        if pool is None:
            return
        pool.submit(self._close_db)
        pool.shutdown(wait=True)

    def _close_db(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            with contextlib.suppress(sqlite3.Error):
                db.close()
