"""Backups: listed, and restored safely.

A backup is a *point* of a backup log (``backup_log.py``: each point appends what changed
since the one before, written by :meth:`Store.backup <.store.Store.backup>`), or a whole
copy written by a version before the logs. ``backup list`` shows the newest points and
each round's last; ``backup restore N`` rebuilds point N into a temp file (a copy: copied
with SQLite's backup API), checks it, and puts it in place.

Why restore is not "copy the file back": SQLite keeps recent commits in ``<file>-wal``;
a copied-in backup beside the old ``-wal`` gets that stale log replayed into it (a
restored file with the wrong hands, or a malformed one). ``Tournament.restore_backup``
therefore checks the backup, moves the current file *with* its ``-wal``/``-shm`` aside to a
timestamped name that is never deleted, and renames the checked file in place.

The folder, its size limit and temp files: ``backup_files.py``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee_app.core.errors import Message, nested

from . import backup_log, chain
from . import db as dbm
from .backup_files import (
    BACKUP_NAME,
    KEEP_NEWEST,
    backup_dir,
    clean_temp_files,
    list_backups,
    list_copies,
    round_of,
    unlink_temp,
)
from .checks import check_text
from .errors import (
    AuthError,
    DamagedError,
    DiskFullError,
    NotATournamentError,
    ReadOnlyError,
    RecordIntegrityError,
    StorageError,
    StorageFault,
    fault_from,
)
from .store import Store

#: opens a tournament file (``Tournament.open``): restoring opens the copy and the current
#: file, and storage's parts below the Tournament do not import it
Opener = Callable[..., Any]


@dataclass(frozen=True)
class BackupInfo:
    """One backup as ``referee-app backup list`` shows it (``number`` 1 = newest): a point
    of a backup log (``point``; ``path`` is the log, ``size`` its bytes up to the point) or
    a whole copy (``path``)."""

    number: int
    path: Path
    at: str
    round: int | None
    hands: int | None
    size: int
    digest: str | None = None
    problem: Message | None = None
    entries: int | None = None
    point: backup_log.Point | None = field(default=None, compare=False, repr=False)


def _stamp_text(p: Path) -> str:
    m = BACKUP_NAME.search(p.name)
    if not m:
        return "?"
    with contextlib.suppress(ValueError):
        return datetime.strptime(m.group(1), "%Y%m%dT%H%M%S%fZ").strftime("%Y-%m-%d %H:%M:%S UTC")
    return m.group(1)


def _open_backup_ro(p: Path) -> sqlite3.Connection:
    """Read a backup without creating ``-wal``/``-shm`` beside it (immutable: never written)."""
    return sqlite3.connect(dbm.file_uri(p, immutable=True), uri=True)


class Backups:
    """``t.backups``: this file's backups, and writing a backup point now (automatic ones:
    :meth:`Store.saved <.store.Store.saved>`). Listing and restoring work on a path, even
    when the current file is damaged: :meth:`Tournament.backup_list
    <.tournament.Tournament.backup_list>` and ``Tournament.restore_backup``."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def write(self) -> Path:
        """Write a backup point now (what changed since the last one); returns the log it
        went into. Refused (:class:`FileReplacedError`) once the path names another file
        than the one open."""
        return self.store.backup()

    @property
    def written(self) -> int:
        """Bytes this connection wrote into backups (what the benchmarks count per hand)."""
        return self.store.backup_written

    @property
    def error(self) -> str | None:
        """The last automatic backup's failure (None once one succeeds again): a failing
        backup never turns a committed save into an error, it is kept here and warned."""
        return self.store.backup_error

    def paths(self) -> list[Path]:
        """This file's backups, oldest first."""
        return list_backups(self.store.path)


def backup_digest(conn: sqlite3.Connection) -> str | None:
    """The record's digest: the hash of the chain's last entry (None before schema 2)."""
    try:
        entries, digest = chain.head(conn)
    except sqlite3.Error:
        return None
    return digest if entries else None


def _copy_info(p: Path) -> BackupInfo:
    """A whole copy from a version before the logs: its hands and digest read from it."""
    hands: int | None = None
    digest = problem = None
    entries: int | None = None
    try:
        conn = _open_backup_ro(p)
        try:
            hands = int(conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
            digest = backup_digest(conn)
            entries = chain.head(conn)[0] if digest else None
        finally:
            conn.close()
    except (sqlite3.Error, ValueError) as e:
        problem = Message.of("backup_list_unreadable", detail=str(e))
    size = p.stat().st_size if p.exists() else 0
    return BackupInfo(0, p, _stamp_text(p), round_of(p), hands, size, digest, problem, entries)


def _log_infos(log: Path) -> list[BackupInfo]:
    """The points of one log (the pieces of a long first point are not points), and a line
    naming what stopped the reading when the log is damaged."""
    points, problem = backup_log.read_points(log)
    out = [BackupInfo(0, log, p.taken.strftime("%Y-%m-%d %H:%M:%S UTC"), p.round, p.hands,
                      p.end, p.digest, None, p.entries, p)
           for p in points if not p.part]
    if problem is not None:
        out.append(BackupInfo(0, log, _stamp_text(log), None, None, log.stat().st_size
                              if log.exists() else 0, None,
                              Message.of("backup_list_damaged", detail=problem)))
    return out


def _shown(infos: list[BackupInfo]) -> list[BackupInfo]:
    """The newest :data:`KEEP_NEWEST` points and each round's last (``infos`` oldest first):
    every point of a log can be rebuilt, but a day of saves makes hundreds."""
    keep = set(range(max(0, len(infos) - KEEP_NEWEST), len(infos)))
    last: dict[int, int] = {}
    for i, b in enumerate(infos):
        if b.round is not None and b.problem is None:
            last[b.round] = i
    keep |= set(last.values())
    keep |= {i for i, b in enumerate(infos) if b.problem is not None and b.point is None}
    return [b for i, b in enumerate(infos) if i in keep]


def backup_list(path: str | Path) -> list[BackupInfo]:
    """The backups of ``path``, newest first, each with its time, hand count and digest."""
    path = Path(path)
    infos: list[BackupInfo] = []
    copies = set(list_copies(path))
    for p in list_backups(path):
        infos += [_copy_info(p)] if p in copies else _log_infos(p)
    shown = _shown(infos)
    return [replace(b, number=n) for n, b in enumerate(reversed(shown), start=1)]


def restore_backup(opener: Opener, path: str | Path, number: int, *, referee: str = "",
                   pin: Callable[[], str] | str | None = None) -> tuple[BackupInfo, Path]:
    """Put backup ``number`` (as listed, 1 = newest) in place of ``path``; ``opener``
    opens a tournament file (``Tournament.open``).

    Rebuilds the point from its log (a whole copy: copies it with the backup API) into a
    temp file beside ``path``, checks it (SQLite ``integrity_check``, the checks of
    ``Tournament.open`` and ``t.record.verify``), moves the current file with its
    ``-wal``/``-shm`` aside (returned; never deleted) and renames the checked file in. Restoring is the head
    referee's decision: with referees, ``referee`` signs in with ``pin`` (a PIN, or a
    function asked only when one is needed) on the current file — or on the backup
    when the current file cannot be read; without, ``referee`` must be the named head
    referee. Nothing is changed on error.
    """
    path = Path(path)
    referee = check_text(referee, "referee")
    infos = backup_list(path)
    if not infos:
        raise StorageError.of("backup", "no_backups", path=str(path),
                              folder=str(backup_dir(path)))
    if isinstance(number, bool) or not isinstance(number, int) \
            or not 1 <= number <= len(infos):
        raise StorageError.of("backup", "bad_backup_number", count=len(infos), path=str(path),
                              got=number)
    info = infos[number - 1]
    tmp = path.with_name(f".{path.name}.restore.{os.getpid()}.tmp")
    unlink_temp(tmp)
    clean_temp_files(path)  # a killed restore's copy, a killed backup's
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    aside = path.with_name(f"{path.name}.before-restore-{stamp}")
    try:
        _copy_checked(opener, info, tmp, path, referee, pin)
        # the restore's own chain entry goes into the copy before it is put in place:
        # the restored file never exists without it (a kill right after the swap)
        current = any(Path(str(path) + s).exists() for s in ("", "-wal", "-shm"))
        # a backup made before signing goes on with the current file's key, not a new one
        with opener(tmp, backup_every=0) as t, t.store.write(
                start_with=_current_key(opener, path)):
            detail = {"backup": info.path.name, "moved_aside": aside.name if current else None}
            if info.point is not None:  # which point of the log: the record's length then
                detail["entries"] = info.point.entries
            t.store.note(referee, "backup.restore", detail, dbm.now())
        with _write_locked(path):  # a save under way ends before the file moves
            moved = _move_aside(path, aside)
            os.replace(tmp, path)
    except BaseException as e:
        unlink_temp(tmp)
        if isinstance(e, sqlite3.Error | OSError):
            raise fault_from(e, path) from e
        raise
    return info, aside if moved else path


def _copy_checked(opener: Opener, info: BackupInfo, tmp: Path, path: Path, referee: str,
                  pin: Callable[[], str] | str | None) -> None:
    if info.problem is not None:
        raise DamagedError.of("backup", "backup_unreadable", name=info.path.name,
                              detail=info.problem)
    if info.point is not None:
        _rebuild(info.point, tmp, path)
    else:
        _copy(info.path, tmp, path)
    _check_copy(opener, info.path, tmp, path, referee, pin)


def _rebuild(point: backup_log.Point, tmp: Path, path: Path) -> None:
    """The file of a log's point, rebuilt at ``tmp`` from the entries up to it."""
    try:
        backup_log.materialise(point, tmp)
    except backup_log.LogError as e:
        raise DamagedError.of("backup", "backup_unreadable", name=point.log.name,
                              detail=e.said) from None
    except chain.ChainError as e:
        why = Message.of(e.code, **e.params)
        detail = Message.of("chain_entry", seq=e.seq, why=why) if e.seq is not None \
            else Message.of("chain_record", why=why)
        raise DamagedError.of("backup", "backup_unreadable", name=point.log.name,
                              detail=detail) from None
    except (sqlite3.Error, OSError) as e:
        fault = fault_from(e, path)  # writing the copy beside the file: full, read-only
        if isinstance(fault, DiskFullError | ReadOnlyError):
            raise fault from None
        raise DamagedError.of("backup", "backup_unreadable", name=point.log.name,
                              detail=str(e)) from None


def _copy(src: Path, tmp: Path, path: Path) -> None:
    """A whole copy (a version before the logs) copied to ``tmp`` with the backup API."""
    src_conn = _open_backup_ro(src)
    try:
        ok = str(src_conn.execute("PRAGMA integrity_check").fetchone()[0])
        if ok != "ok":
            raise DamagedError.of("backup", "backup_damaged", name=src.name, detail=str(ok))
        dst = sqlite3.connect(str(tmp))
        try:
            src_conn.backup(dst)
        finally:
            dst.close()
    except sqlite3.DatabaseError as e:
        fault = fault_from(e, path)  # writing the copy beside the file: full, read-only
        if isinstance(fault, DiskFullError | ReadOnlyError):
            raise fault from None
        raise DamagedError.of("backup", "backup_unreadable", name=src.name,
                              detail=str(e)) from None
    finally:
        src_conn.close()


def _check_copy(opener: Opener, src: Path, tmp: Path, path: Path, referee: str,
                pin: Callable[[], str] | str | None) -> None:
    """The rebuilt or copied file opens as a tournament, verifies, and the restore is
    allowed (the head referee)."""
    try:
        with opener(tmp, backup_every=0) as t:
            t.record.verify()
            if not _authorized_on_current(opener, path, referee, pin):
                _authorize_restore(t, referee, pin)
    except (NotATournamentError, RecordIntegrityError) as e:
        raise DamagedError.of("backup", "backup_not_a_tournament", name=src.name,
                              why=nested(e)) from None
    for suffix in ("-wal", "-shm"):
        if Path(str(tmp) + suffix).exists():  # pragma: no cover - closed cleanly above
            raise StorageFault.of("backup", "backup_left_open", name=tmp.name + suffix)


def _authorize_restore(t: Any, referee: str, pin: Callable[[], str] | str | None) -> None:
    """The head referee (signed in with the PIN when the tournament has referees)."""
    if t.referees.required():
        given = pin() if callable(pin) else pin
        if given is None:
            raise AuthError.of("pin", "restore_needs_pin")
        t.referees.sign_in(referee, given)
        t.store.authorize(referee, head=True, action="restoring a backup")
        return
    head = t.info.head_referee
    if head and referee != head:
        raise StorageError.of("referee", "restore_needs_head", head=head)


def _current_key(opener: Opener, path: Path) -> Any:
    """The private key of the current file's record, when it is on this desk (else None)."""
    try:
        with opener(path, backup_every=0) as t:
            return t.store.signing_key()
    except (StorageError, sqlite3.Error, OSError):
        return None


def _authorized_on_current(opener: Opener, path: Path, referee: str,
                           pin: Callable[[], str] | str | None) -> bool:
    """Authorize on the current file if it can still be read (its lock-out counts); False
    when it cannot (then the backup's referees decide)."""
    try:
        t = opener(path, backup_every=0)
    except (StorageError, sqlite3.Error):
        return False
    with t:
        _authorize_restore(t, referee, pin)
    return True


@contextlib.contextmanager
def _write_locked(path: Path) -> Iterator[None]:
    """Hold the current file's write lock while it is replaced. A save checks under that
    lock that the path still names its file (:meth:`~.store.Store.check_same_file`);
    without it a save that checked just before the move would commit into the copy set
    aside *after* the restore said it was done. A file that cannot be locked for another
    reason than a busy one (damaged, read-only) is replaced without the lock."""
    conn = None
    try:
        conn = sqlite3.connect(path.absolute().as_uri() + "?mode=rw", uri=True,
                               timeout=dbm.busy_timeout_ms() / 1000, isolation_level=None)
        conn.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as e:
        if conn is not None:
            conn.close()
            conn = None
        msg = str(e).lower()
        if "locked" in msg or "busy" in msg:
            raise fault_from(e, path) from None
    try:
        yield
    finally:
        if conn is not None:
            conn.close()  # SQLite sees the file moved: no checkpoint into the new one


def _move_aside(path: Path, aside: Path) -> bool:
    """Rename the current file and its ``-wal``/``-shm`` to ``aside``
    (``<file>.before-restore-STAMP``; a stray ``-wal`` without its file too: it must never
    be replayed into the backup). Whether there was anything to move."""
    moved = False
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            os.replace(src, Path(str(aside) + suffix))
            moved = True
    return moved
