"""Backups as a log of the record: each backup point appends only what changed since the
point before it, so a backup costs what changed, not the whole file.

The record is its chain (``chain.py``): every change is one entry holding the rows it
wrote, and every table of the record is rebuilt from the entries (what ``verify`` and
bundle import do). A backup log is therefore a copy of the chain, shipped a piece at a
time: ``<file>.backups/<stem>-<UTC time>.record.jsonl``, one line per *point*:

``{"format", "at", "from", "entries", "digest", "round", "hands", "part", "tables", "schema",
"data"}``

* ``data``: base64 of zlib-compressed JSON — the chain's rows ``from``..``entries`` (every
  column, as stored) and what changed since the point before in the tables kept beside the
  record: a small one whole when it changed (``chain_head`` each time), a big one by its
  rows added since (``hand_keys``: the desks' idempotency keys, a row per hand sent), or
  whole when rows went; ``tables`` holds each such table's row count, last rowid and (a
  small one) the digest of its rows at this point;
* ``entries``/``digest``: the chain's length and last hash at this point (as ``verify``
  prints them), ``round``/``hands``: the newest seated round and the hand count;
* ``part``: a piece of a long first point (a log starts at entry 1 and ships a big record
  in pieces), not a point of its own;
* ``schema``: the file's schema version then. A log goes on across a schema step (an
  upgrade adds columns; the chain's older entries replay to their defaults), and a table
  beside the record whose columns changed is shipped whole at the next point; a point of a
  newer schema than this version knows is not restored (its columns would be dropped).

A point is appended and fsynced under the database's write lock (``BEGIN IMMEDIATE``), so two
desks never write the same entries and the point is one consistent snapshot. A kill while
appending leaves a line without its end, ignored when read and cut off by the next point:
nothing committed is ever lost (the entries are still in the file and go into the next
point). A log continues while the file's chain extends it; once it does not (a backup was
restored, the file replaced) the next point starts a new log from entry 1, and the old
one stays as a backup of the record set aside until the folder's size limit removes it
(``backup_files.prune``).

Restoring a point (:func:`materialise`) rebuilds the file from the entries up to it —
every hash and link checked, as ``event import`` does — then restores the tables beside
the record as the point had them; ``restore_backup`` verifies it before anything is moved.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from referee_app.core.errors import Message, os_reason

from . import chain
from . import db as dbm

FORMAT = "referee-backup-log/1"
SUFFIX = ".record.jsonl"
#: entries per line of a log's first point (a whole record shipped in pieces)
PART_ENTRIES = 1000
#: tables outside the record that a backup does not carry: recent wrong PINs are a
#: lock-out of minutes, not part of what a restore brings back. (The referees' PIN hashes,
#: ``pins``, are carried: a backup is this desk's own copy, not an export, and a restored
#: file keeps its PINs.)
NOT_CARRIED = ("auth_failures", "_sqlite_migrations")


class LogError(Exception):
    """A backup log that cannot be read up to the point asked for (damaged, cut short);
    ``said`` is the line naming the log, the line and what is wrong (a message of the
    catalogue, said in the reader's language)."""

    def __init__(self, said: Message) -> None:
        super().__init__(str(said))
        self.said = said

    @classmethod
    def of(cls, code: str, /, **params: Any) -> LogError:
        return cls(Message.of(code, **params))


@dataclass(frozen=True)
class Point:
    """One backup point of a log: the record as it was when the point was written."""

    log: Path
    index: int  # the line (0-based)
    end: int  # the byte just after the line
    at: str  # UTC, ISO 8601
    first: int  # the first entry the line holds
    entries: int
    digest: str
    round: int
    hands: int
    part: bool
    tables: dict[str, Any] = field(default_factory=dict, compare=False)
    schema: int = 0  # the file's schema version at the point (0: a log before it was said)

    @property
    def taken(self) -> datetime:
        return datetime.fromisoformat(self.at)


# --------------------------------------------------------------------------- reading


def _header(line: bytes, log: Path, index: int, end: int) -> tuple[Point, str]:
    """The point a line describes and its ``data``; LogError if it is not one."""
    try:
        d = json.loads(line)
        if not isinstance(d, dict) or d.get("format") != FORMAT:
            raise LogError.of("backup_log_not_point", log=log.name, line=index + 1,
                              format=FORMAT)
        return Point(log, index, end, str(d["at"]), int(d["from"]), int(d["entries"]),
                     str(d["digest"]), int(d["round"]), int(d["hands"]), bool(d["part"]),
                     dict(d["tables"]), int(d.get("schema", 0))), str(d["data"])
    except (ValueError, KeyError, TypeError) as e:
        raise LogError.of("backup_log_bad_line", log=log.name, line=index + 1,
                          detail=str(e)) from None


def _lines(log: Path) -> Iterator[tuple[int, bytes, int]]:
    """(index, line, end offset) of each complete line (a last line without its newline is
    what a kill left: not a line)."""
    end = 0
    with open(log, "rb") as f:
        for i, line in enumerate(f):
            if not line.endswith(b"\n"):
                return
            end += len(line)
            yield i, line, end


def read_points(log: Path) -> tuple[list[Point], Message | None]:
    """Every point of ``log`` in order, and what stopped the reading early (a damaged line:
    the points after it cannot be rebuilt), or None."""
    points: list[Point] = []
    want = 1
    try:
        for i, line, end in _lines(log):
            p, _ = _header(line, log, i, end)
            if p.first != want or p.entries < p.first - 1:
                return points, Message.of("backup_log_gap", log=log.name, line=i + 1,
                                          first=p.first, last=p.entries, before=want - 1)
            points.append(p)
            want = p.entries + 1
    except LogError as e:
        return points, e.said
    except OSError as e:
        return points, Message.of("backup_log_unreadable", log=log.name, why=os_reason(e))
    return points, None


def _tail_point(log: Path) -> tuple[Point | None, int]:
    """The log's last complete point and the size of the complete lines (what a torn tail
    is cut back to). Reads the file backwards from its end: the last line only."""
    size = log.stat().st_size
    with open(log, "rb") as f:
        end = _last_newline(f, size)
        if end is None:
            return None, 0
        start = _last_newline(f, end - 1)
        start = 0 if start is None else start
        f.seek(start)
        line = f.read(end - start)
    # the line's number is not needed to append after it
    p, _ = _header(line, log, -1, end)
    return p, end


def _last_newline(f: Any, before: int) -> int | None:
    """The offset just after the last ``\\n`` in the first ``before`` bytes, or None."""
    pos = before
    while pos > 0:
        n = min(65536, pos)
        pos -= n
        f.seek(pos)
        block = f.read(n)
        i = block.rfind(b"\n")
        if i >= 0:
            return pos + i + 1
    return None


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"b64"}:
        return base64.b64decode(value["b64"])
    return value


def _encode(value: Any) -> Any:
    if isinstance(value, bytes | memoryview):
        return {"b64": base64.b64encode(bytes(value)).decode("ascii")}
    return value


def _payload(data: str, log: Path, index: int) -> dict[str, Any]:
    try:
        out = json.loads(zlib.decompress(base64.b64decode(data.encode("ascii"), validate=True)))
    except (ValueError, zlib.error) as e:
        raise LogError.of("backup_log_bad_data", log=log.name, line=index + 1,
                          detail=str(e)) from None
    if not isinstance(out, dict):
        raise LogError.of("backup_log_bad_data", log=log.name, line=index + 1,
                          detail=type(out).__name__)
    return out


# --------------------------------------------------------------------------- writing


def _carried_tables(conn: sqlite3.Connection) -> list[str]:
    """The tables beside the record that a backup carries: every table that is neither the
    record's (rebuilt from the chain) nor the chain itself, nor :data:`NOT_CARRIED`."""
    names = [r[0] for r in conn.execute(
        "SELECT name FROM main.sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name")]
    skip = {*chain.RECORD_TABLES, "chain", *NOT_CARRIED}
    return [n for n in names if n not in skip]


def _rows(conn: sqlite3.Connection, sql: str, params: tuple[Any, ...] = ()
          ) -> tuple[list[str], list[list[Any]]]:
    cur = conn.execute(sql, params)
    cols = [c[0] for c in cur.description]
    return cols, [[_encode(v) for v in row] for row in cur.fetchall()]


#: a table beside the record with at most this many rows is compared whole at each point
#: (it may be changed in place: ``chain_head``); a bigger one (the desks' idempotency keys,
#: a row per hand sent) is carried by the rows added since the point before
SMALL_TABLE = 200


def _table_state(conn: sqlite3.Connection) -> dict[str, dict[str, Any]]:
    """Each carried table: its row count and last rowid, and — a small one — the digest of
    its rows (with the columns and rows, to ship it whole)."""
    out: dict[str, dict[str, Any]] = {}
    for name in _carried_tables(conn):
        count, last = conn.execute(f'SELECT COUNT(*), MAX(rowid) FROM main."{name}"').fetchone()
        # its columns: added rows go on rows of the same columns only (a schema step)
        st: dict[str, Any] = {"n": int(count), "last": last,
                              "cols": chain.columns(conn, name)}
        if count <= SMALL_TABLE:
            cols, rows = _rows(conn, f'SELECT * FROM main."{name}" ORDER BY rowid')
            st["digest"] = chain.sha256(chain.canonical([cols, rows]))
            st["whole"] = {"columns": cols, "rows": rows}
        out[name] = st
    return out


def _header_tables(state: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """What a point says of each table beside the record (to compare the next point with)."""
    return {k: {f: v[f] for f in ("n", "last", "digest", "cols") if f in v}
            for k, v in state.items()}


def _shipped(conn: sqlite3.Connection, state: dict[str, dict[str, Any]],
             before: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """(tables shipped whole, rows added to a table) since the point that said ``before``:
    a small table whole when its digest changed; a big one by the rows after the last
    rowid then, or whole when rows went (its count is not the old count plus the new)."""
    whole: dict[str, Any] = {}
    added: dict[str, Any] = {}
    for name, st in state.items():
        prev = before.get(name)
        if "whole" in st:
            if not isinstance(prev, dict) or prev.get("digest") != st["digest"]:
                whole[name] = st["whole"]
            continue
        since = prev.get("last") if isinstance(prev, dict) else None
        cols, rows = _rows(conn, f'SELECT * FROM main."{name}" WHERE rowid > ? ORDER BY rowid',
                           (since if since is not None else -(2**63),))
        if since is None or not isinstance(prev, dict) or st["n"] != prev["n"] + len(rows) \
                or prev.get("cols") != st["cols"]:
            cols, rows = _rows(conn, f'SELECT * FROM main."{name}" ORDER BY rowid')
            whole[name] = {"columns": cols, "rows": rows}
        elif rows:
            added[name] = {"columns": cols, "rows": rows}
    return whole, added


def logs(folder: Path, stem: str) -> list[Path]:
    """The backup logs of a file named ``stem``, oldest first."""
    import glob

    if not folder.exists():
        return []
    return sorted(folder.glob(f"{glob.escape(stem)}-*{SUFFIX}"), key=lambda p: p.name)


def _stamp() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S%fZ")


@contextlib.contextmanager
def _locked(conn: sqlite3.Connection, read_only: bool) -> Iterator[None]:
    """One snapshot of the file, and (when it can be written) its write lock: two
    processes backing up at once append one after the other, never the same entries."""
    if conn.in_transaction:
        raise RuntimeError("a backup point is written outside a transaction")
    conn.execute("BEGIN" if read_only else "BEGIN IMMEDIATE")
    try:
        yield
    finally:
        with contextlib.suppress(sqlite3.Error):
            conn.execute("ROLLBACK")


def append_point(conn: sqlite3.Connection, folder: Path, stem: str, *, read_only: bool = False,
                 check: Callable[[], None] | None = None) -> tuple[Point, int]:
    """Append a point holding what changed since the log's last one (under the write lock;
    ``check`` runs under it first: the path still names this file). Returns the point (the
    last one, unchanged, when nothing changed since) and the bytes written."""
    with _locked(conn, read_only):
        if check is not None:
            check()
        n, digest = chain.head(conn)
        rnd = conn.execute("SELECT MAX(number) FROM rounds").fetchone()[0] or 0
        hands = int(conn.execute("SELECT COUNT(*) FROM hands").fetchone()[0])
        schema = int(conn.execute("PRAGMA main.user_version").fetchone()[0])
        state = _table_state(conn)
        found = logs(folder, stem)
        log, last, size = _continued(conn, found[-1] if found else None, n)
        tables = _header_tables(state)
        if last is not None and last.entries == n and last.tables == tables:
            return last, 0
        first = last.entries + 1 if last is not None else 1
        if log is None:
            log = folder / f"{stem}-{_stamp()}{SUFFIX}"
        lines = []
        at = datetime.now(UTC).isoformat(timespec="microseconds")
        for lo in range(first, n + 1, PART_ENTRIES) if n >= first else [first]:
            hi = min(n, lo + PART_ENTRIES - 1)
            cols, rows = _rows(conn, "SELECT * FROM main.chain WHERE seq BETWEEN ? AND ? "
                                     "ORDER BY seq", (lo, hi))
            final = hi >= n
            whole, added = (_shipped(conn, state, last.tables if last is not None else {})
                            if final else ({}, {}))
            # a long first point (a record shipped whole) favours speed: it is written in
            # the save that finds no log, once
            data = zlib.compress(chain.canonical(
                {"chain": {"columns": cols, "rows": rows}, "tables": whole,
                 "added": added}).encode("utf-8"), 6 if len(rows) <= 100 else 1)
            head = {"format": FORMAT, "at": at, "from": lo, "entries": hi if not final else n,
                    "digest": digest if final else _hash_at(conn, hi), "round": int(rnd),
                    "hands": hands, "part": not final, "tables": tables,
                    "schema": schema,
                    "data": base64.b64encode(data).decode("ascii")}
            lines.append(chain.canonical(head).encode("utf-8") + b"\n")
        written = _append(log, size, b"".join(lines))
    p, _ = _header(lines[-1], log, -1, size + written)
    return p, written


def _hash_at(conn: sqlite3.Connection, seq: int) -> str:
    r = conn.execute("SELECT hash FROM main.chain WHERE seq=?", (seq,)).fetchone()
    return str(r[0]) if r else ""


def _continued(conn: sqlite3.Connection, log: Path | None, n: int
               ) -> tuple[Path | None, Point | None, int]:
    """(log, its last point, the size to append at) when the file's chain extends the
    newest log; (None, None, 0) when a new log must start (none yet, a damaged end, or a
    record that went another way: a backup restored, another file at the path)."""
    if log is None:
        return None, None, 0
    try:
        last, size = _tail_point(log)
    except (OSError, LogError):
        return None, None, 0
    if last is None or last.entries > n or _hash_at(conn, last.entries) != (
            last.digest if last.entries else ""):
        return None, None, 0
    return log, last, size


def _append(log: Path, size: int, data: bytes) -> int:
    """Write ``data`` at ``size`` (cutting off a line a kill left unfinished) and fsync."""
    new = not log.exists()
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | getattr(os, "O_BINARY", 0), 0o666)
    try:
        if not new and os.fstat(fd).st_size != size:
            os.ftruncate(fd, size)
        os.lseek(fd, size, os.SEEK_SET)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    finally:
        os.close(fd)
    if new:
        _fsync_dir(log.parent)
    return len(data)


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


# --------------------------------------------------------------------------- restoring


def materialise(point: Point, target: Path) -> None:
    """Build the file of ``point`` at ``target`` (which must not exist): the record's tables
    replayed from the chain's entries up to the point (each hash and link checked), the
    chain itself, and the tables beside the record as the point had them. LogError (or
    ``chain.ChainError``) when the log cannot give that point."""
    if point.schema > dbm.SCHEMA_VERSION:
        raise LogError.of("backup_log_newer_schema", log=point.log.name,
                          line=point.index + 1, schema=point.schema, known=dbm.SCHEMA_VERSION)
    columns: list[str] = []
    rows: list[list[Any]] = []
    side: dict[str, dict[str, Any]] = {}
    for i, line, _end in _lines(point.log):
        if i > point.index:
            break
        p, data = _header(line, point.log, i, _end)
        if p.first != len(rows) + 1:
            raise LogError.of("backup_log_gap", log=point.log.name, line=i + 1,
                              first=p.first, last=p.entries, before=len(rows))
        payload = _payload(data, point.log, i)
        part = payload.get("chain") or {}
        got = list(part.get("rows") or [])
        cols = list(part.get("columns") or columns)
        if cols != columns and rows:  # a schema step added a column (``chain.sig``): the
            rows = _widened(rows, columns, cols)  # rows before get it, as NULL
        columns = cols
        if len(got) != p.entries - p.first + 1:
            raise LogError.of("backup_log_count", log=point.log.name, line=i + 1,
                              got=len(got), says=p.entries - p.first + 1)
        rows += got
        side.update(payload.get("tables") or {})
        for name, more in (payload.get("added") or {}).items():
            if name in side and side[name]["columns"] == more["columns"]:
                side[name] = {"columns": more["columns"],
                              "rows": list(side[name]["rows"]) + list(more["rows"])}
            else:
                raise LogError.of("backup_log_added_alone", log=point.log.name, line=i + 1,
                                  table=name)
    if len(rows) != point.entries:
        raise LogError.of("backup_log_short", log=point.log.name, got=len(rows),
                          want=point.entries)
    if not rows:
        raise LogError.of("backup_log_empty", log=point.log.name)
    entry, hsh = columns.index("entry"), columns.index("hash")
    entries = list(chain.read_entries((r[entry], r[hsh]) for r in rows))
    if entries[-1].hash != point.digest:
        raise LogError.of("backup_log_digest", log=point.log.name, line=point.index + 1)
    db = dbm.connect(target)
    try:
        dbm.create_schema(db)
        with dbm.write_transaction(db, target):
            chain.replay(entries, db.conn, "main")
            _insert(db.conn, "chain", columns, [[_decode(v) for v in r] for r in rows])
            for name, table in side.items():
                if name in _carried_tables(db.conn):
                    db.conn.execute(f'DELETE FROM main."{name}"')
                    _insert(db.conn, name, list(table["columns"]),
                            [[_decode(v) for v in r] for r in table["rows"]])
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def _widened(rows: list[list[Any]], had: list[str], now: list[str]) -> list[list[Any]]:
    """Rows of the columns ``had`` in the columns ``now`` (one a log's earlier points lack is
    None, what ``ALTER TABLE … ADD COLUMN`` gave the file's own rows)."""
    at = {c: i for i, c in enumerate(had)}
    return [[r[at[c]] if c in at and at[c] < len(r) else None for c in now] for r in rows]


def _insert(conn: sqlite3.Connection, table: str, columns: list[str], rows: list[list[Any]]
            ) -> None:
    """Rows into ``table``, in the columns it has (a column the log has and the table no
    longer has is left out; one the log lacks takes its default)."""
    have = set(chain.columns(conn, table))
    keep = [i for i, c in enumerate(columns) if c in have]
    if not keep or not rows:
        return
    names = ", ".join(f'"{columns[i]}"' for i in keep)
    conn.executemany(f'INSERT INTO main."{table}"({names}) VALUES '
                     f'({", ".join("?" * len(keep))})', ([r[i] for i in keep] for r in rows))
