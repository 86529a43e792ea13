"""Backup files: written with SQLite's backup API under a temp name, pruned, listed.

Kept: the newest :data:`KEEP_NEWEST` plus the last backup taken in each round (the file
name carries ``-rN``, the newest seated round then), so the state at the end of every
round survives a long day of automatic backups. Temp files of a killed or failed backup
are removed (the failed one at once, a killed one's by the next backup or restore).
"""

from __future__ import annotations

import contextlib
import glob
import os
import re
import sqlite3
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from referee_app.core.errors import os_reason

from .db import file_uri
from .errors import ReadOnlyError, StorageFault

if TYPE_CHECKING:
    from sqlite_utils import Database

KEEP_NEWEST = 20
#: a backup temp file this old was left by a crash even if its pid is reused
STALE_BACKUP_SECONDS = 3600
#: a connection that changed the record backs up on closing if the newest backup is older
BACKUP_MAX_AGE_SECONDS = 600
BACKUP_NAME = re.compile(r"-(\d{8}T\d{6}\d*Z)(?:-r(\d+))?\.sqlite$")
_TMP = re.compile(r"\.(\d+)\.tmp(?:-journal|-wal|-shm)?$")


def backup_dir(path: Path) -> Path:
    return path.with_name(path.name + ".backups")


def list_backups(path: Path) -> list[Path]:
    """Backup files of ``path``, oldest first."""
    d = backup_dir(path)
    pattern = f"{glob.escape(path.stem)}-*.sqlite"
    return sorted(d.glob(pattern), key=lambda p: p.name) if d.exists() else []


def round_of(p: Path) -> int | None:
    m = BACKUP_NAME.search(p.name)
    return int(m.group(2)) if m and m.group(2) else None


def kept(backups: list[Path], keep: int) -> set[Path]:
    """The newest ``keep`` plus the newest backup of each round (``backups`` oldest first)."""
    out = set(backups[-keep:]) if keep > 0 else set(backups)
    last: dict[int, Path] = {}
    for p in backups:
        r = round_of(p)
        if r is not None:
            last[r] = p
    return out | set(last.values())


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
    """No backup yet, or the newest is older than ``max_age`` seconds: what makes a
    long-lived connection (the desk, open all day) back up after a save without waiting
    for ``backup_every`` changes."""
    backups = list_backups(path)
    try:
        return not backups or time.time() - backups[-1].stat().st_mtime >= max_age
    except OSError:
        return True


def backup_due(path: Path, entries: int, round_no: int, every: int,
               hash_at: Callable[[int], str | None],
               max_age: float = BACKUP_MAX_AGE_SECONDS) -> bool:
    """Whether a closing connection that changed the record should back it up: no readable
    backup yet, or the newest is of an earlier round, ``every`` or more chain entries
    behind, older than ``max_age`` seconds, or not of this record's history (``hash_at(n)``:
    the hash of the record's entry ``n``; after a restore of an older backup the newest
    backup holds the record set aside, and the restored one's changes had none). A
    command-line save closes its file each time; backing up on every close would copy the
    whole file per hand (~12 ms at 1 MB, growing with the tournament)."""
    backups = [] if stale(path, max_age) else list_backups(path)
    if not backups or round_of(backups[-1]) != round_no:  # (or pruned meanwhile)
        return True
    newest = backups[-1]
    try:
        conn = sqlite3.connect(file_uri(newest, immutable=True), uri=True)
        try:
            row = conn.execute("SELECT entries, hash FROM chain_head WHERE id=1").fetchone()
        finally:
            conn.close()
    except (OSError, sqlite3.Error):
        return True
    if row is None or entries - int(row[0]) >= every:
        return True
    return int(row[0]) > entries or hash_at(int(row[0])) != row[1]


def _writable_backup_dir(path: Path) -> Path:
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


def write_backup(db: Database, path: Path, keep: int) -> Path:
    """Copy the live database with SQLite's online backup API; prune to :func:`kept`.

    Written under a temporary name and renamed, so a crash mid-backup never leaves a
    half file that looks like a backup; a failed one removes its temp file, and temp files
    of killed backups are removed by the next one.
    """
    d = _writable_backup_dir(path)
    clean_temp_files(path)
    row = db.execute("SELECT MAX(number) FROM rounds").fetchone()
    rnd = int(row[0]) if row and row[0] is not None else 0
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")
    final = d / f"{path.stem}-{stamp}-r{rnd}.sqlite"
    tmp = d / f".{final.name}.{os.getpid()}.tmp"  # per process: two writers may back up at once
    try:
        try:
            dst = sqlite3.connect(str(tmp))
        except sqlite3.OperationalError as e:  # the folder vanished or became read-only
            raise StorageFault.of("backup", "backup_not_written", folder=str(d),
                                  detail=str(e)) from None
        try:
            db.conn.backup(dst)
        finally:
            dst.close()
        os.replace(tmp, final)
    except BaseException:
        unlink_temp(tmp)
        raise
    backups = list_backups(path)
    keep_set = kept(backups, keep)
    for old in backups:
        if old not in keep_set:
            with contextlib.suppress(OSError):
                old.unlink()
    return final
