"""The backup folder ``<file>.backups/``: what it holds, how big it may grow, temp files.

It holds backup logs (``<stem>-<UTC time>.record.jsonl``, :mod:`.backup_log`: the current
one grows by what each backup point adds) and, from versions before the logs, whole copies
(``<stem>-<UTC time>-r<round>.sqlite``), still listed and restorable.

Kept: everything while the folder is at most :data:`FOLDER_LIMIT` times the size of the
database file; beyond it the oldest files go first (an older log — the record as it was
before a restore — or an old copy), never the current log, which holds every point of the
record since it started. The current log is a compressed copy of the record's chain, a
fraction of the file (a sixth to a third), so the folder stays within the limit at any size.
Temp files of a killed restore (and of a copy from an older version) are removed by the next
backup or restore (their process is gone).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import time
from pathlib import Path

from referee_app.core.errors import os_reason

from . import backup_log
from .errors import ReadOnlyError, StorageFault

#: the points ``backup list`` shows: the newest this many, and each round's last
KEEP_NEWEST = 20
#: the folder is pruned (oldest files first) to at most this many times the database file
FOLDER_LIMIT = 3
#: a backup temp file this old was left by a crash even if its pid is reused
STALE_BACKUP_SECONDS = 3600
#: a save writes a backup point when the newest is older than this (seconds), even before
#: ``backup_every`` changes: a desk saving a hand now and then is never long without one
BACKUP_MAX_AGE_SECONDS = 60
BACKUP_NAME = re.compile(r"-(\d{8}T\d{6}\d*Z)(?:-r(\d+))?\.sqlite$")
LOG_NAME = re.compile(r"-(\d{8}T\d{6}\d*Z)" + re.escape(backup_log.SUFFIX) + "$")
_TMP = re.compile(r"\.(\d+)\.tmp(?:-journal|-wal|-shm)?$")


def backup_dir(path: Path) -> Path:
    return path.with_name(path.name + ".backups")


def list_copies(path: Path) -> list[Path]:
    """Whole-file copies (written by versions before the logs), oldest first."""
    d = backup_dir(path)
    pattern = f"{glob.escape(path.stem)}-*.sqlite"
    return sorted((p for p in d.glob(pattern) if BACKUP_NAME.search(p.name)),
                  key=lambda p: p.name) if d.exists() else []


def list_logs(path: Path) -> list[Path]:
    """The backup logs of ``path``, oldest first (the last is the current one)."""
    return backup_log.logs(backup_dir(path), path.stem)


def _stamp(p: Path) -> str:
    m = BACKUP_NAME.search(p.name) or LOG_NAME.search(p.name)
    return m.group(1) if m else ""


def list_backups(path: Path) -> list[Path]:
    """Every backup file of ``path`` (logs and copies), oldest first."""
    return sorted(list_copies(path) + list_logs(path), key=_stamp)


def round_of(p: Path) -> int | None:
    m = BACKUP_NAME.search(p.name)
    return int(m.group(2)) if m and m.group(2) else None


def folder_size(path: Path) -> int:
    """Bytes of every backup file of ``path``."""
    total = 0
    for p in list_backups(path):
        with contextlib.suppress(OSError):
            total += p.stat().st_size
    return total


def db_size(path: Path) -> int:
    """The database's size as SQLite sees it: the file and its ``-wal`` (in WAL mode the
    newest pages may all still be in the ``-wal``)."""
    total = 0
    for suffix in ("", "-wal"):
        with contextlib.suppress(OSError):
            total += Path(str(path) + suffix).stat().st_size
    return total


def prune(path: Path, size: int | None = None, limit: float = FOLDER_LIMIT) -> list[Path]:
    """Remove the oldest backup files until the folder holds at most ``limit`` times the
    database (``size`` bytes: its pages, as the open connection counts them; else
    :func:`db_size`); the current log stays whatever its size. Returns what was removed."""
    budget = limit * (db_size(path) if size is None else size)
    files = list_backups(path)
    logs = list_logs(path)
    current = logs[-1] if logs else None
    sizes = {}
    for p in files:
        with contextlib.suppress(OSError):
            sizes[p] = p.stat().st_size
    total = sum(sizes.values())
    removed = []
    for p in files:
        if total <= budget:
            break
        if p == current or p not in sizes:
            continue
        with contextlib.suppress(OSError):
            p.unlink()
            total -= sizes[p]
            removed.append(p)
    return removed


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True


def clean_temp_files(path: Path) -> list[Path]:
    """Remove temp files left by backups and restores that were killed (their process is
    gone): a restore's full copy lies beside the file (``.<file>.restore.<pid>.tmp``)."""
    d = backup_dir(path)
    found = list(d.glob(f".{glob.escape(path.stem)}-*.sqlite.*.tmp*")) if d.exists() else []
    with contextlib.suppress(OSError):
        found += path.parent.glob(f".{glob.escape(path.name)}.restore.*.tmp*")
    removed = []
    for stale in found:
        m = _TMP.search(stale.name)
        if m is None:
            continue
        pid = int(m.group(1))
        with contextlib.suppress(OSError):
            old = time.time() - stale.stat().st_mtime > STALE_BACKUP_SECONDS
            if pid != os.getpid() and (old or not _pid_alive(pid)):
                stale.unlink()
                removed.append(stale)
    return removed


def unlink_temp(tmp: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(str(tmp) + suffix).unlink()


def stale(path: Path, max_age: float = BACKUP_MAX_AGE_SECONDS) -> bool:
    """No backup yet, or the newest point is older than ``max_age`` seconds (a log's time
    is that of its last point: appending touches it)."""
    backups = list_backups(path)
    try:
        newest = max(p.stat().st_mtime for p in backups) if backups else None
    except OSError:
        return True
    return newest is None or time.time() - newest >= max_age


def writable_backup_dir(path: Path) -> Path:
    """The backup folder, made if missing; a fault naming it when it cannot hold backups
    (a file in its place, read-only), never a bare ``File exists``/``Permission denied``."""
    d = backup_dir(path)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise StorageFault.of("backup", "backup_folder_is_file", folder=str(d)) from None
    except OSError as e:
        raise ReadOnlyError.of("backup", "backup_folder_not_made", folder=str(d),
                                  detail=os_reason(e)) from None
    if not os.access(d, os.W_OK | os.X_OK):
        raise ReadOnlyError.of("backup", "backup_folder_read_only", folder=str(d))
    return d
