"""What :meth:`Tournament.open` checks before anyone reads or writes the file.

* It is a Referee Desk tournament: SQLite, every table of the schema, JSON meta values,
  our application id, a schema this version reads. Otherwise: bad input (exit 2) — unless
  the file has backups, when an unreadable header or meta value means it is *damaged*
  (exit 3). SQLite saying "malformed" (a damaged page, a damaged schema) is always
  damaged.
* It is not damaged: ``PRAGMA quick_check`` (cheap: no index cross-check). A damaged file
  is refused, naming ``referee-app backup list``.
* Whether it can be written: a read-only file, folder (SQLite must create ``-wal`` and
  ``-shm`` there) or leftover read-only ``-shm`` opens the file for viewing only, with
  the reason; every change is then refused with one line.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import sqlite3
from pathlib import Path

from sqlite_utils import Database

from referee_app.core.errors import Message, message

from . import db as dbm
from .backup_files import list_backups
from .errors import (
    DamagedError,
    NotATournamentError,
    ReadOnlyError,
    StorageFault,
    fault_from,
)
from .migrations import SCHEMA_2_TABLES, SCHEMA_3_TABLES, SCHEMA_7_TABLES

#: every table a tournament file has (a file missing one is not ours, or was cut short):
#: those of the current schema, and of the schemas before (without those later ones added)
TABLES = frozenset(dbm.TABLES)
TABLES_V6 = TABLES - frozenset(SCHEMA_7_TABLES)
TABLES_V5 = TABLES_V6 - {"stages"}  # schema 6 also added a column (penalties.unit)
TABLES_V4 = TABLES_V5 - {"round_state"}
TABLES_V3 = TABLES_V4  # schema 4 added a column only (players.team)
TABLES_V2 = TABLES_V3 - frozenset(SCHEMA_3_TABLES)
TABLES_V1 = TABLES_V2 - frozenset(SCHEMA_2_TABLES)


def _writable(p: Path) -> bool:
    return os.access(p, os.W_OK)


def read_only_reason(path: Path) -> Message | None:
    """Why ``path`` cannot be written here, or None. A read-only ``-shm`` or ``-wal`` (left
    by viewing the file while it was read-only, or by another user) is given the file's own
    mode when we own it: the file is writable, so its log must be too."""
    if not _writable(path):
        return Message.of("ro_file", path=str(path))
    folder = path.parent if str(path.parent) else Path(".")
    wal, shm = Path(f"{path}-wal"), Path(f"{path}-shm")
    if not _writable(folder) and not (wal.exists() and shm.exists()):
        return Message.of("ro_folder", path=str(folder))
    for side in (shm, wal):  # viewing a read-only file leaves both with its mode
        if side.exists() and not _writable(side):
            with contextlib.suppress(OSError):
                os.chmod(side, os.stat(path).st_mode & 0o666)
            if not _writable(side):
                return Message.of("ro_side", path=str(side))
    return None


def ro_uri(path: Path) -> str:
    """A read-only URI; ``immutable`` when the folder cannot hold a ``-shm`` and there is no
    ``-wal`` (a read-only medium: nobody can change the file while we read it)."""
    folder = path.parent if str(path.parent) else Path(".")
    if not _writable(folder) and not Path(f"{path}-wal").exists() \
            and not Path(f"{path}-shm").exists():
        return dbm.file_uri(path, immutable=True)
    return dbm.file_uri(path)


def check_file(path: Path) -> tuple[str | None, int]:
    """Refuse what is not a tournament; return why the file is read-only (or None) and its
    schema version."""
    if not path.exists():
        if path.parent.exists() and not os.access(path.parent, os.X_OK):
            raise ReadOnlyError.of("db", "folder_unreadable", folder=str(path.parent))
        aside = sorted(path.parent.glob(f"{glob.escape(path.name)}.before-restore-*[0-9]Z"))
        if aside:  # killed between moving the file aside and putting the backup in place
            raise StorageFault.of("db", "restore_interrupted", path=str(path), aside=aside[-1].name,
                                  hint=message("backups_hint", path=str(path)))
        raise NotATournamentError.of("db", "no_tournament_file", path=str(path))
    if path.is_dir():
        raise NotATournamentError.of("db", "tournament_is_folder", path=str(path))
    if not os.access(path, os.R_OK):
        raise ReadOnlyError.of("db", "file_unreadable", path=str(path))
    reason = read_only_reason(path)
    try:
        db = Database(sqlite3.connect(ro_uri(path), uri=True,
                                      timeout=dbm.busy_timeout_ms() / 1000),
                      recursive_triggers=False, execute_plugins=False)
        try:
            tables = set(db.table_names())
            meta = [(r["key"], r["value"]) for r in
                    db.table("meta").rows_where(select="key, value")] \
                if "meta" in tables else []
            version = dbm.schema_version(db)
        finally:
            db.close()
    except sqlite3.DatabaseError as e:
        msg = str(e).lower()
        if "unable to open" in msg and reason:
            raise ReadOnlyError.of("db", "cannot_open_read_only", path=str(path),
                                   reason=reason) from None
        if isinstance(e, sqlite3.OperationalError) and "no such table" not in msg:
            raise fault_from(e, path) from None
        if "malformed" in msg or (list_backups(path) and "not a database" in msg):
            # SQLite's own words for a damaged file (never echo the damaged schema text)
            said = "malformed" if "malformed" in msg else "not a database"
            raise DamagedError.of("db", "damaged_sqlite", path=str(path), said=said,
                                  hint=message("backups_hint", path=str(path))) from None
        raise NotATournamentError.of("db", "not_a_tournament_db", path=str(path),
                                     detail=str(e)) from None
    values = {}
    for key, value in meta:
        try:
            values[key] = json.loads(value)
        except (TypeError, ValueError):
            if list_backups(path):  # it was ours: backups were taken of it
                raise DamagedError.of("db", "damaged_meta", path=str(path),
                                      hint=message("backups_hint", path=str(path))) from None
            raise NotATournamentError.of("db", "meta_not_json", path=str(path),
                                         key=str(key)[:40]) from None
    if values.get("app") != dbm.APP_ID:
        raise NotATournamentError.of("db", "not_a_tournament", path=str(path))
    if version > dbm.SCHEMA_VERSION:
        raise NotATournamentError.of("db", "newer_schema", path=str(path), version=version,
                                     max=dbm.SCHEMA_VERSION)
    expected = {1: TABLES_V1, 2: TABLES_V2, 3: TABLES_V3, 4: TABLES_V4, 5: TABLES_V5,
                6: TABLES_V6}.get(version, TABLES)
    missing = expected - tables
    if missing:
        raise NotATournamentError.of("db", "incomplete_tournament", path=str(path),
                                     tables=sorted(missing))
    return reason, int(version)


def quick_check(db: Database, path: Path) -> None:
    """``PRAGMA quick_check`` on the open file: a damaged one is refused (exit 3)."""
    try:
        rows = [str(r[0]) for r in db.execute("PRAGMA quick_check(3)").fetchall()]
    except sqlite3.DatabaseError as e:
        raise DamagedError.of("db", "damaged", path=str(path), detail=str(e),
                              hint=message("backups_hint", path=str(path))) from None
    if rows != ["ok"]:
        found = " ".join(" ".join(rows).replace("*** in database main ***", "").split())
        raise DamagedError.of("db", "damaged", path=str(path), detail=found[:160],
                              hint=message("backups_hint", path=str(path)))
