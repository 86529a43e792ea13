"""Backups: written with SQLite's backup API, listed, kept, and restored safely.

Why restore is not "copy the file back": SQLite keeps recent commits in ``<file>-wal``;
a copied-in backup beside the old ``-wal`` gets that stale log replayed into it (a
restored file with the wrong hands, or a malformed one). :meth:`BackupsMixin.restore_backup`
therefore checks the backup, moves the current file *with* its ``-wal``/``-shm`` aside to a
timestamped name that is never deleted, and writes the backup in place with the backup API.

Writing, pruning and listing the files: ``backup_files.py``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Self

from . import db as dbm
from .backup_files import _NAME, _round_of, _unlink_temp, backup_dir, list_backups
from .base import TournamentBase, _text
from .errors import DamagedError, NotATournamentError, StorageError, StorageFault, fault_from


@dataclass(frozen=True)
class BackupInfo:
    """One backup as ``referee-app backup list`` shows it (``number`` 1 = newest)."""

    number: int
    path: Path
    at: str
    round: int | None
    hands: int | None
    size: int
    digest: str | None = None
    problem: str | None = None


def _stamp_text(p: Path) -> str:
    m = _NAME.search(p.name)
    if not m:
        return "?"
    with contextlib.suppress(ValueError):
        return datetime.strptime(m.group(1), "%Y%m%dT%H%M%S%fZ").strftime("%Y-%m-%d %H:%M:%S UTC")
    return m.group(1)


def _open_backup_ro(p: Path) -> sqlite3.Connection:
    """Read a backup without creating ``-wal``/``-shm`` beside it (immutable: never written)."""
    return sqlite3.connect(dbm.file_uri(p, immutable=True), uri=True)


class BackupsMixin(TournamentBase):
    """Listing and restoring backups: class methods, usable when the current file is damaged."""

    #: how :meth:`backup_list` reads a backup's record digest; issue 10's hash-chained log
    #: provides one (``None``: not available in this schema)
    @staticmethod
    def _backup_digest(conn: sqlite3.Connection) -> str | None:
        return None

    @classmethod
    def backup_list(cls, path: str | Path) -> list[BackupInfo]:
        """The backups of ``path``, newest first, each with its time, hand count and digest."""
        path = Path(path)
        out = []
        for n, p in enumerate(reversed(list_backups(path)), start=1):
            hands: int | None = None
            digest = problem = None
            try:
                conn = _open_backup_ro(p)
                try:
                    hands = int(conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
                    digest = cls._backup_digest(conn)
                finally:
                    conn.close()
            except (sqlite3.Error, ValueError) as e:
                problem = f"unreadable ({e})"
            size = p.stat().st_size if p.exists() else 0
            out.append(BackupInfo(n, p, _stamp_text(p), _round_of(p), hands, size, digest,
                                  problem))
        return out

    @classmethod
    def restore_backup(cls, path: str | Path, number: int, *, referee: str = ""
                       ) -> tuple[BackupInfo, Path]:
        """Put backup ``number`` (as listed, 1 = newest) in place of ``path``.

        Checks the backup (SQLite ``integrity_check``, the tournament checks of
        :meth:`open`, and ``verify()`` when the record has one), moves the current file
        with its ``-wal``/``-shm`` aside (returned; never deleted) and copies the backup
        in with the backup API. Restoring is the head referee's decision: when the
        tournament names one, ``referee`` must be that name. Nothing is changed on error.
        """
        path = Path(path)
        referee = _text(referee, "referee")
        infos = cls.backup_list(path)
        if not infos:
            raise StorageError("backup", f"no backups of {path} in {backup_dir(path)}")
        if isinstance(number, bool) or not isinstance(number, int) \
                or not 1 <= number <= len(infos):
            raise StorageError("backup", f"expected a backup number 1..{len(infos)} (see "
                               f"'referee-app backup list --db {path}'), got {number!r}")
        info = infos[number - 1]
        tmp = path.with_name(f".{path.name}.restore.{os.getpid()}.tmp")
        _unlink_temp(tmp)
        try:
            cls._copy_checked(info.path, tmp, path, referee)
            aside = _move_aside(path)
            os.replace(tmp, path)
        except BaseException as e:
            _unlink_temp(tmp)
            if isinstance(e, sqlite3.Error | OSError):
                raise fault_from(e, path) from e
            raise
        with cls.open(path, backup_every=0) as t:
            at = dbm.now()
            with dbm.write_transaction(t.db):
                t._log(referee, "backup.restore",
                       {"backup": info.path.name, "moved_aside": aside.name if aside else None},
                       at)
        return info, aside if aside else path

    @classmethod
    def _copy_checked(cls, src: Path, tmp: Path, path: Path, referee: str) -> None:
        src_conn = _open_backup_ro(src)
        try:
            ok = str(src_conn.execute("PRAGMA integrity_check").fetchone()[0])
            if ok != "ok":
                raise DamagedError("backup", f"{src.name} is damaged ({ok}); choose another")
            dst = sqlite3.connect(str(tmp))
            try:
                src_conn.backup(dst)
            finally:
                dst.close()
        except sqlite3.DatabaseError as e:
            raise DamagedError("backup", f"{src.name} cannot be read ({e}); choose another") \
                from None
        finally:
            src_conn.close()
        try:
            with cls.open(tmp, backup_every=0) as t:
                verify = getattr(t, "verify", None)
                if callable(verify):
                    _check_verified(verify(), src)
                head = t.info.head_referee
        except NotATournamentError as e:
            raise DamagedError("backup", f"{src.name} is not a usable tournament: "
                               f"{e.problem}") from None
        current_head = _current_head(cls, path)
        for h in (head, current_head):
            if h and referee != h:
                raise StorageError("referee", f"restoring a backup is the head referee's "
                                   f"decision: pass --referee {h!r}")
        for suffix in ("-wal", "-shm"):
            if Path(str(tmp) + suffix).exists():  # pragma: no cover - closed cleanly above
                raise StorageFault("backup", f"{tmp.name}{suffix} was left open; try again")


def _check_verified(result: Any, src: Path) -> None:
    """``verify()`` raises, or returns a false-y/"ok" result or a result whose ``ok`` is true;
    anything else (False, a list of problems, a message) refuses the backup."""
    ok = getattr(result, "ok", None)
    if result is None or result is True or result == "ok" or ok is True or (
            isinstance(result, list | tuple) and not result):
        return
    raise DamagedError("backup", f"{src.name} fails the record's verification ({result}); "
                       "choose another")


def _current_head(cls: type[Self], path: Path) -> str:
    """The head referee named by the current file, if it can still be read."""
    try:
        with cls.open(path, backup_every=0) as t:  # type: ignore[attr-defined]
            return str(t.info.head_referee)
    except (StorageError, sqlite3.Error, ValueError, KeyError):
        return ""


def _move_aside(path: Path) -> Path | None:
    """Rename the current file and its ``-wal``/``-shm`` to ``<file>.before-restore-STAMP``
    (a stray ``-wal`` without its file too: it must never be replayed into the backup)."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    aside = path.with_name(f"{path.name}.before-restore-{stamp}")
    moved = False
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            os.replace(src, Path(str(aside) + suffix))
            moved = True
    return aside if moved else None
