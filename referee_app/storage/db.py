"""The SQLite file: schema, connection settings and write transactions (backups: backups.py;
older files' upgrades: migrations.py).

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
* Checkpoints (the WAL copied back into the file) are made on a thread of their own, never
  in a save (``checkpoints.py``; :func:`checkpoint_behind`, :func:`checkpoint`).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from referee_app.core.errors import message

from .errors import DamagedError, ReadOnlyError, fault_from

#: 2: the hash chain, frozen settlement settings, referees; 3: the desks' idempotency keys
#: inside the file (``hand_keys``), sign-in failures counted per client address; 4: a
#: player's team; 5: the round in play and each started round's clock (``round_state``);
#: 6: the stages of an event (``stages``), penalties in points (``penalties.unit``); 7: signed
#: heads (``chain.sig``), PIN hashes out of the record (``pins``)
SCHEMA_VERSION = 7
APP_ID = "referee-desk-tournament"
BUSY_TIMEOUT_MS = 15000

#: a round's state once ``round start`` was given for it (schema 3): whether it is the round
#: in play, when it started and, when timed, when its time is up (UTC ISO 8601) with the
#: minutes given and added since. One row per round, changed in place (each change is a
#: chain entry); later states of a round (a stage, check-in) are columns of this table.
ROUND_STATE = """CREATE TABLE round_state (
    round INTEGER PRIMARY KEY,
    in_play INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    started_by TEXT NOT NULL DEFAULT '',
    ends_at TEXT,
    minutes INTEGER,
    added INTEGER NOT NULL DEFAULT 0
)"""

#: the current schema's tables (name: statement), in the order a new file creates them. An
#: older file gets there through :mod:`.migrations`, whose steps keep their own statements
#: (changing a table here never changes what an old file's upgrade did).
TABLES: dict[str, str] = {
    "meta": "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "players": """CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_latin TEXT NOT NULL DEFAULT '',
    club TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL DEFAULT 'active',
    registered_at TEXT NOT NULL,
    team TEXT NOT NULL DEFAULT ''
)""",
    "rounds": """CREATE TABLE rounds (
    number INTEGER PRIMARY KEY,
    seed INTEGER,
    created_at TEXT NOT NULL,
    created_by TEXT NOT NULL DEFAULT ''
)""",
    "seats": """CREATE TABLE seats (
    round INTEGER NOT NULL REFERENCES rounds(number),
    table_no INTEGER NOT NULL,
    seat TEXT NOT NULL,
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, table_no, seat),
    UNIQUE (round, player_id)
)""",
    "round_state": ROUND_STATE,
    "byes": """CREATE TABLE byes (
    round INTEGER NOT NULL REFERENCES rounds(number),
    player_id INTEGER NOT NULL REFERENCES players(id),
    PRIMARY KEY (round, player_id)
)""",
    "hands": """CREATE TABLE hands (
    id INTEGER PRIMARY KEY,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    current_version INTEGER NOT NULL,
    status TEXT NOT NULL,
    UNIQUE (round, table_no, hand_no)
)""",
    "hand_versions": """CREATE TABLE hand_versions (
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
)""",
    "hand_seats": """CREATE TABLE hand_seats (
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
)""",
    "penalties": """CREATE TABLE penalties (
    id INTEGER PRIMARY KEY,
    players TEXT NOT NULL,
    chips INTEGER NOT NULL,
    reason TEXT NOT NULL,
    clause TEXT,
    referee TEXT NOT NULL,
    at TEXT NOT NULL,
    zero_sum INTEGER NOT NULL,
    round INTEGER,
    unit TEXT NOT NULL DEFAULT 'chips'
)""",
    "penalty_entries": """CREATE TABLE penalty_entries (
    penalty_id INTEGER NOT NULL REFERENCES penalties(id),
    player_id INTEGER NOT NULL REFERENCES players(id),
    chips INTEGER NOT NULL,
    PRIMARY KEY (penalty_id, player_id)
)""",
    "penalty_voids": """CREATE TABLE penalty_voids (
    penalty_id INTEGER PRIMARY KEY REFERENCES penalties(id),
    reason TEXT NOT NULL,
    referee TEXT NOT NULL,
    at TEXT NOT NULL
)""",
    "rulesets": "CREATE TABLE rulesets (digest TEXT PRIMARY KEY, id TEXT NOT NULL, "
                "data TEXT NOT NULL)",
    "referees": """CREATE TABLE referees (
    name TEXT PRIMARY KEY,
    head INTEGER NOT NULL,
    added_at TEXT NOT NULL
)""",
    # outside the record (never in the chain, a bundle or an answer): each referee's PIN as
    # a salted scrypt hash; a referee without a row here has no PIN on this desk yet
    "pins": """CREATE TABLE pins (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    set_at TEXT NOT NULL
)""",
    "chain": """CREATE TABLE chain (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    referee TEXT NOT NULL,
    action TEXT NOT NULL,
    entry TEXT NOT NULL,
    hash TEXT NOT NULL,
    sig TEXT
)""",
    "chain_head": "CREATE TABLE chain_head (id INTEGER PRIMARY KEY CHECK (id = 1), "
                  "entries INTEGER NOT NULL, hash TEXT NOT NULL)",
    "auth_failures": "CREATE TABLE auth_failures (name TEXT NOT NULL, at REAL NOT NULL, "
                     "client TEXT NOT NULL DEFAULT '')",
    "hand_keys": """CREATE TABLE hand_keys (
    key TEXT PRIMARY KEY,
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    referee TEXT NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    at TEXT NOT NULL
)""",
    "stages": """CREATE TABLE stages (
    number INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    after_round INTEGER NOT NULL UNIQUE,
    top INTEGER NOT NULL,
    carry TEXT NOT NULL,
    players TEXT NOT NULL,
    referee TEXT NOT NULL,
    at TEXT NOT NULL
)""",
}
#: the lookup indexes (the replayed copy that verify compares with the file needs none)
INDEXES = ("CREATE INDEX hand_seats_player ON hand_seats(player_id)",
           # the upgrade entries (their redaction map) without reading the whole chain
           "CREATE INDEX chain_action ON chain(action)")
#: the whole schema as one script (tables, then indexes)
SCHEMA = "".join(f"{stmt};\n" for stmt in (*TABLES.values(), *INDEXES))

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


def connect(path: Path, *, read_only: str | None = None, uri: str | None = None
            ) -> Database:
    """Open with the durability settings above (the file must already be a tournament).

    ``read_only``: why the file cannot be written; it is then opened for viewing only,
    through ``uri`` (give the same reason to :func:`write_transaction`, which refuses every
    change with it). The connection is sqlite-utils' :class:`Database`: its ``execute``
    commits a write made outside a transaction at once and leaves no transaction open when
    one fails; ``recursive_triggers`` is on (its default)."""
    timeout = busy_timeout_ms() / 1000
    if read_only:
        conn = sqlite3.connect(uri or file_uri(path), uri=True, timeout=timeout)
    else:
        conn = sqlite3.connect(str(path), timeout=timeout)
    conn.text_factory = _text_reader(path)
    # no plugins: one installed for the sqlite-utils command line has no say over a tournament
    # (and loading them reads every installed package's entry points)
    db = Database(conn, execute_plugins=False)
    db.execute(f"PRAGMA busy_timeout={busy_timeout_ms()}")
    if not read_only:
        db.enable_wal()
        mode = db.journal_mode
        if str(mode).lower() != "wal":  # pragma: no cover - e.g. a read-only network share
            raise sqlite3.OperationalError(f"cannot switch {path} to WAL (journal_mode={mode})")
        db.execute("PRAGMA synchronous=FULL")
    db.execute("PRAGMA foreign_keys=ON")
    return db


#: the pages the WAL may reach before a commit makes the checkpoint itself, on a connection
#: whose checkpoints are made on another thread (:func:`checkpoint_behind`): 64 MiB, only
#: reached when that thread falls behind
BEHIND_PAGES = 16_000


def checkpoint_behind(db: Database) -> None:
    """This connection's commits leave the checkpoint to :func:`checkpoint` on another
    connection (unless the WAL reaches :data:`BEHIND_PAGES`): a save is then the write
    itself, never also the copy of the WAL back into the file."""
    db.execute(f"PRAGMA wal_autocheckpoint={BEHIND_PAGES}")


def checkpoint(db: Database) -> tuple[int, int, int]:
    """Copy what the WAL holds back into the file without waiting for anyone (``PASSIVE``:
    writers go on committing, and pages a reader still needs wait for the next one);
    SQLite's (busy, pages in the WAL, pages copied)."""
    row = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    return int(row[0]), int(row[1]), int(row[2])


def fetch_all(conn: sqlite3.Connection, sql: str, params: Sequence[Any] = ()
              ) -> list[tuple[Any, ...]]:
    """All rows of ``sql``, text decoded by SQLite itself (a Python decoder called per value
    costs a tenth of a second per 100,000 values); stored bytes that are not UTF-8 are
    read again through the connection's own decoder, which names the damage."""
    factory = conn.text_factory
    conn.text_factory = str
    try:
        return conn.execute(sql, params).fetchall()
    except sqlite3.OperationalError as e:
        if "decode" not in str(e):
            raise
    finally:
        conn.text_factory = factory
    return conn.execute(sql, params).fetchall()


def _text_reader(path: Path) -> Callable[[bytes], str]:
    """Decode stored text; bytes that are not UTF-8 mean the file was damaged (a flipped
    sector), reported as such instead of SQLite's message quoting the broken bytes."""

    def decode(raw: bytes) -> str:
        try:
            return raw.decode("utf-8")
        except UnicodeDecodeError:
            raise DamagedError.of("db", "damaged_text", path=str(path),
                                  hint=message("backups_hint", path=str(path))) from None

    return decode


def create_schema(db: Database) -> None:
    """A new file's tables, indexes and triggers, at :data:`SCHEMA_VERSION`, in one go."""
    db.conn.executescript("BEGIN IMMEDIATE;" + SCHEMA + _append_only_triggers() +
                          f"\nPRAGMA user_version={SCHEMA_VERSION};\nCOMMIT;")


def schema_version(db: Database) -> int:
    """The file's schema version (``PRAGMA user_version``; :mod:`.migrations` raises it)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


@contextlib.contextmanager
def write_transaction(db: Database, path: Path | str, read_only: str | None = None
                      ) -> Iterator[None]:
    """One save = one ``BEGIN IMMEDIATE … COMMIT``; any exception rolls everything back.
    ``read_only``: why the file ``path`` is open for viewing only (the change is refused)."""
    conn = db.conn
    if read_only:
        raise ReadOnlyError.of("db", "viewing_only", path=str(path), reason=read_only)
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
    """Take the write lock (SQLite's busy timeout waits); after a second of waiting, say so.
    First without waiting: the lock is nearly always free, and then no timer thread is
    started (a thread per save cost a server ~10 % of each save waiting for it to start)."""
    conn = db.conn
    conn.execute("PRAGMA busy_timeout=0")
    try:
        conn.execute("BEGIN IMMEDIATE")
        return
    except sqlite3.OperationalError as e:
        if getattr(e, "sqlite_errorcode", 0) & 0xFF != sqlite3.SQLITE_BUSY:  # any BUSY_*
            raise fault_from(e, path) from e
    finally:
        conn.execute(f"PRAGMA busy_timeout={busy_timeout_ms()}")
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
