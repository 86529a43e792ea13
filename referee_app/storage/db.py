"""The SQLite file: schema, connection settings and write transactions (backups: backups.py).

Durability choices (see docs/tournament.md):

* ``journal_mode=WAL`` — readers (the GUI's leaderboard) never block the writer (a CLI
  ``hand add``) and a crash mid-write leaves the previous commit intact.
* ``synchronous=FULL`` — every COMMIT fsyncs the WAL, so a hand reported saved survives
  a power cut, not just a process kill. (NORMAL would be safe against process kills only.)
* ``busy_timeout`` — two processes on one file wait for each other instead of failing:
  after a second "waiting for another desk…" is said (via :data:`on_wait`); after
  ``REFEREE_APP_BUSY_TIMEOUT`` seconds (15) the save fails with :class:`BusyError`.
* Every save is one ``BEGIN IMMEDIATE … COMMIT``: the write lock is taken *before* any
  read that the write depends on (next version number, duplicate checks), so two writers
  can never both read "version 3 is next".
* Append-only tables carry triggers that refuse UPDATE and DELETE: history cannot be
  rewritten even by a buggy caller.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .errors import DamagedError, ReadOnlyError, backups_hint, fault_from

SCHEMA_VERSION = 2  # 2: the hash chain, frozen settlement settings, referees
APP_ID = "referee-desk-tournament"
BUSY_TIMEOUT_MS = 15000

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_latin TEXT NOT NULL DEFAULT '',
    club TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'active',
    registered_at TEXT NOT NULL
);
CREATE TABLE rounds (
    number INTEGER PRIMARY KEY,
    seed INTEGER,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT ''
);
CREATE TABLE seats (
    round INTEGER NOT NULL REFERENCES rounds(number),
    table_no INTEGER NOT NULL,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, table_no, seat),
    UNIQUE (round, player_id)
);
CREATE TABLE byes (
    round INTEGER NOT NULL REFERENCES rounds(number),
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, player_id)
);
CREATE TABLE hands (
    id INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    current_version INTEGER NOT NULL,
    status TEXT NOT NULL,
    UNIQUE (round, table_no, hand_no)
);
CREATE TABLE hand_versions (
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    version INTEGER NOT NULL,
    action TEXT NOT NULL,
    status TEXT NOT NULL,
    record TEXT NOT NULL,
    settlement TEXT NOT NULL,
    ok INTEGER NOT NULL,
    override_reason TEXT,
    override_totals TEXT,
    reason TEXT,
    referee TEXT NOT NULL,
    at TEXT NOT NULL,
    settings TEXT NOT NULL DEFAULT '{}',
    PRIMARY KEY (hand_id, version)
);
CREATE TABLE hand_seats (
    hand_id INTEGER NOT NULL,
    version INTEGER NOT NULL,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    counted INTEGER NOT NULL,
    chips INTEGER NOT NULL,
    won INTEGER NOT NULL,
    self_drawn INTEGER NOT NULL,
    discards_paid INTEGER NOT NULL,
    flower_pig INTEGER NOT NULL,
    win_fan INTEGER NOT NULL,
    PRIMARY KEY (hand_id, version, seat),
    FOREIGN KEY (hand_id, version) REFERENCES hand_versions(hand_id, version)
);
CREATE INDEX hand_seats_player ON hand_seats(player_id);
CREATE TABLE penalties (
    id INTEGER PRIMARY KEY,
    players TEXT NOT NULL,
    chips INTEGER NOT NULL,
    reason TEXT NOT NULL,
    clause TEXT,
    referee TEXT NOT NULL,
    at TEXT NOT NULL,
    zero_sum INTEGER NOT NULL,
    round INTEGER
);
CREATE TABLE penalty_entries (
    penalty_id INTEGER NOT NULL REFERENCES penalties(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    chips INTEGER NOT NULL,
    PRIMARY KEY (penalty_id, player_id)
);
CREATE TABLE penalty_voids (
    penalty_id INTEGER PRIMARY KEY REFERENCES penalties(id),
    reason TEXT NOT NULL,
    referee TEXT NOT NULL,
    at TEXT NOT NULL
);
""" + """
CREATE TABLE rulesets (digest TEXT PRIMARY KEY, id TEXT NOT NULL, data TEXT NOT NULL);
CREATE TABLE referees (
    name TEXT PRIMARY KEY,
    head INTEGER NOT NULL,
    pin TEXT NOT NULL,
    added_at TEXT NOT NULL
);
CREATE TABLE chain (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    referee TEXT NOT NULL,
    action TEXT NOT NULL,
    entry TEXT NOT NULL,
    hash TEXT NOT NULL
);
CREATE TABLE chain_head (id INTEGER PRIMARY KEY CHECK (id = 1), entries INTEGER NOT NULL,
                         hash TEXT NOT NULL);
CREATE TABLE auth_failures (name TEXT NOT NULL, at REAL NOT NULL);
"""

#: what schema 1 (before the chain) lacks; :func:`migrate` adds it
SCHEMA_2_ADDITIONS = SCHEMA[SCHEMA.index("CREATE TABLE rulesets"):]

APPEND_ONLY = ("hand_versions", "hand_seats", "penalties", "penalty_entries",
               "penalty_voids", "chain")


def _append_only_triggers(tables: tuple[str, ...] = APPEND_ONLY) -> str:
    out = []
    for t in tables:
        for op in ("UPDATE", "DELETE"):
            out.append(f"CREATE TRIGGER {t}_no_{op.lower()} BEFORE {op} ON {t} BEGIN "
                       f"SELECT RAISE(ABORT, '{t} is append-only'); END;")
    return "\n".join(out)


def now() -> str:
    """UTC timestamp with microseconds (orders versions made within one second)."""
    return datetime.now(UTC).isoformat(timespec="microseconds")


#: called once with a message when a write waits more than a second for another desk's lock
#: (the CLI prints it on stderr); ``None``: wait silently
on_wait: Callable[[str], None] | None = None
FIRST_WAIT_MS = 1000


def file_uri(path: Path, *, immutable: bool = False) -> str:
    """A read-only SQLite URI for ``path`` (percent-encoded: a ``#``, ``?`` or ``%`` in a
    folder name must not cut the path short)."""
    return Path(path).absolute().as_uri() + "?mode=ro" + ("&immutable=1" if immutable else "")


def busy_timeout_ms() -> int:
    """How long a write waits for another desk (``REFEREE_APP_BUSY_TIMEOUT`` seconds)."""
    try:
        return max(0, int(float(os.environ.get("REFEREE_APP_BUSY_TIMEOUT", "")) * 1000))
    except ValueError:
        return BUSY_TIMEOUT_MS


class Database:
    """The connection and what the storage layer asks of it: ``execute``, ``conn`` and
    ``close`` (what it used of ``sqlite_utils.Database``, whose import — dateutil,
    pluggy, its plugins' entry points — was half of a command's start-up), plus why the
    file is read-only and where it is."""

    __slots__ = ("conn", "read_only_reason", "file_path")

    def __init__(self, conn: sqlite3.Connection, read_only_reason: str | None = None,
                 file_path: Path | None = None) -> None:
        self.conn = conn
        self.read_only_reason = read_only_reason
        self.file_path = file_path

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        """Run one statement. Outside a transaction a write commits at once (sqlite3 would
        open an implicit transaction that nothing commits), and a failed one leaves no
        transaction open: what ``sqlite_utils.Database.execute`` did."""
        conn = self.conn
        was_in_transaction = conn.in_transaction
        try:
            cursor = conn.execute(sql, parameters)
        except Exception:
            if not was_in_transaction and conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
        if (not was_in_transaction and conn.in_transaction and cursor.description is None
                and _first_keyword(sql) not in _TRANSACTION_CONTROL):
            conn.execute("COMMIT")
        return cursor

    def close(self) -> None:
        self.conn.close()


_TRANSACTION_CONTROL = frozenset({"BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT",
                                   "RELEASE"})


def _first_keyword(sql: str) -> str:
    """The first keyword of a statement, upper-cased (spaces, ``;``, a BOM and comments
    before it skipped); "" when there is none."""
    i, n = 0, len(sql)
    while i < n:
        if sql[i].isspace() or sql[i] in (";", "\ufeff"):
            i += 1
        elif sql.startswith("--", i):
            newline = sql.find("\n", i)
            if newline == -1:
                return ""
            i = newline + 1
        elif sql.startswith("/*", i):
            end = sql.find("*/", i + 2)
            if end == -1:
                return ""
            i = end + 2
        else:
            break
    j = i
    while j < n and (sql[j].isalpha() or sql[j] == "_"):
        j += 1
    return sql[i:j].upper()


def connect(path: Path, *, read_only: str | None = None, uri: str | None = None
            ) -> Database:
    """Open with the durability settings above (the file must already be a tournament).

    ``read_only``: why the file cannot be written (it is then opened for viewing only and
    :func:`write_transaction` refuses every change with that reason), through ``uri``.
    """
    timeout = busy_timeout_ms() / 1000
    if read_only:
        conn = sqlite3.connect(uri or file_uri(path), uri=True, timeout=timeout)
    else:
        conn = sqlite3.connect(str(path), timeout=timeout)
    conn.text_factory = _text_reader(path)
    db = Database(conn, read_only, path)
    db.execute("PRAGMA recursive_triggers=on")  # as sqlite_utils.Database set it
    db.execute(f"PRAGMA busy_timeout={busy_timeout_ms()}")
    if not read_only:
        mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
        if str(mode).lower() != "wal":  # pragma: no cover - e.g. a read-only network share
            raise sqlite3.OperationalError(f"cannot switch {path} to WAL (journal_mode={mode})")
        db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


def _text_reader(path: Path) -> Callable[[bytes], str]:
    """Decode stored text; bytes that are not UTF-8 mean the file was damaged (a flipped
    sector), reported as such instead of SQLite's message quoting the broken bytes."""

    def decode(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DamagedError("db", f"{path} is damaged (a stored value is not readable "
                               f"text); {backups_hint(path)}") from None

    return decode


def create_schema(db: Database) -> None:
    db.conn.executescript("BEGIN IMMEDIATE;" + SCHEMA + _append_only_triggers() +
                          f"\nPRAGMA user_version={SCHEMA_VERSION};\nCOMMIT;")


def schema_version(db: Database) -> int:
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate_v1(db: Database) -> None:
    """Schema 1 -> 2 inside the caller's transaction: the chain tables, the frozen
    ``settings`` of each version (the caller fills them) and referees. The old ``log`` table
    is kept as it was (its entries become part of the first chain entry's detail)."""
    db.conn.execute("ALTER TABLE hand_versions ADD COLUMN settings TEXT NOT NULL DEFAULT '{}'")
    for stmt in SCHEMA_2_ADDITIONS.split(";"):
        if stmt.strip():
            db.conn.execute(stmt)
    for stmt in _append_only_triggers(("chain",)).split("\n"):
        db.conn.execute(stmt)
    db.conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")


@contextlib.contextmanager
def write_transaction(db: Database) -> Iterator[None]:
    """One save = one ``BEGIN IMMEDIATE … COMMIT``; any exception rolls everything back."""
    conn = db.conn
    path = getattr(db, "file_path", "the database")
    reason = getattr(db, "read_only_reason", None)
    if reason:
        raise ReadOnlyError("db", f"{path} is open for viewing only ({reason}); nothing was "
                            "changed: make it writable to record changes")
    _begin_immediate(db, path)
    try:
        yield
        conn.execute("COMMIT")
    except BaseException as e:
        if conn.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                conn.execute("ROLLBACK")
        if isinstance(e, sqlite3.Error):
            raise fault_from(e, path) from e
        raise


def _begin_immediate(db: Database, path: object) -> None:
    """Take the write lock (SQLite's busy timeout waits); after a second of waiting, say so."""
    timer = threading.Timer(FIRST_WAIT_MS / 1000, _say_waiting, (path,))
    timer.daemon = True
    timer.start()
    try:
        db.conn.execute("BEGIN IMMEDIATE")
    except sqlite3.OperationalError as e:
        raise fault_from(e, path) from e
    finally:
        timer.cancel()


def _say_waiting(path: object) -> None:
    if on_wait is not None:
        on_wait(f"waiting for another desk… ({path} is being written by another program)")


@contextlib.contextmanager
def read_transaction(db: Database) -> Iterator[None]:
    """A consistent snapshot for multi-query reads (standings, exports)."""
    conn = db.conn
    if conn.in_transaction:
        yield
        return
    conn.execute("BEGIN")
    try:
        yield
    finally:
        if conn.in_transaction:
            conn.execute("COMMIT")
