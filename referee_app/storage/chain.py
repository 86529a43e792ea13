"""The tamper-evident record: one append-only, hash-chained log of every change.

Every save appends one *entry*: who, when, what (``action`` and ``detail``) and the exact
rows it wrote (``rows``: ``[table, "I"|"D", row]`` in the order SQLite wrote them, an
UPDATE being a delete of the old row and an insert of the new one). Rows are captured by
temporary triggers on this connection, so no write path can forget to log. Each entry
holds the SHA-256 of the previous entry (``prev``) and is stored as canonical JSON with
its own SHA-256 (``hash``); ``chain_head`` holds the count and the last hash.

Because the rows are in the chain, every other table can be rebuilt from it:
:func:`replay` does exactly that into an in-memory database, and :func:`compare` names the
first table row that differs from the file. A row edited with any SQLite tool, an entry
removed, duplicated, reordered or changed, all show there.
"""

from __future__ import annotations

import hashlib
import json
import operator
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee_app.core.errors import render

#: the tables whose every row is derived from the chain (in the order they are compared)
RECORD_TABLES = ("meta", "rulesets", "referees", "players", "rounds", "seats", "byes", "hands",
                 "hand_versions", "hand_seats", "penalties", "penalty_entries", "penalty_voids",
                 "round_state", "stages")
GENESIS = "0" * 64


class ChainError(Exception):
    """The chain, or a table derived from it, does not hold (``seq`` names the entry)."""

    def __init__(self, seq: int | None, code: str, /, **params: Any) -> None:
        self.seq = seq
        #: the message (``error.<code>`` of the catalogue) and its values, as a FieldError's
        self.code, self.params = code, params
        self.problem = render(code, params, "en")
        where = f"entry {seq}" if seq is not None else "record"
        super().__init__(f"{where}: {self.problem}")


def canonical(obj: Any) -> str:
    """The one text of a JSON value that is hashed: sorted keys, no spaces, UTF-8."""
    return json.dumps(obj, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def sha256(text: str | bytes) -> str:
    """The hex SHA-256 of a text's UTF-8 (or of bytes that are that UTF-8 already)."""
    return hashlib.sha256(text if type(text) is bytes else text.encode("utf-8")).hexdigest()


# --------------------------------------------------------------------------- capture

def columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")]


def primary_key(conn: sqlite3.Connection, table: str) -> list[str]:
    cols = sorted((r[5], r[1]) for r in conn.execute(f"PRAGMA main.table_info({table})") if r[5])
    return [c for _, c in cols]


def install_capture(conn: sqlite3.Connection) -> None:
    """Temporary triggers (this connection only) that copy every written row to
    ``temp._captured``; :func:`append` turns them into the next entry."""
    conn.execute("CREATE TEMP TABLE IF NOT EXISTS _captured (n INTEGER PRIMARY KEY, "
                 "tbl TEXT NOT NULL, op TEXT NOT NULL, row TEXT NOT NULL)")
    for table in RECORD_TABLES:
        cols = columns(conn, table)
        if not cols:
            continue

        def obj(prefix: str, cols: list[str] = cols) -> str:
            return "json_object(" + ", ".join(f"'{c}', {prefix}.{c}" for c in cols) + ")"

        for event, ops in (("INSERT", [("I", "NEW")]), ("DELETE", [("D", "OLD")]),
                           ("UPDATE", [("D", "OLD"), ("I", "NEW")])):
            body = " ".join(f"INSERT INTO _captured(tbl, op, row) VALUES "
                            f"('{table}', '{op}', {obj(p)});" for op, p in ops)
            conn.execute(f"CREATE TEMP TRIGGER IF NOT EXISTS _cap_{table}_{event.lower()} "
                         f"AFTER {event} ON main.{table} BEGIN {body} END")


def take_captured(conn: sqlite3.Connection) -> list[list[Any]]:
    """The rows captured since the last call, as ``[table, op, row]`` (and forget them)."""
    rows = [[t, op, json.loads(r)] for t, op, r in
            conn.execute("SELECT tbl, op, row FROM temp._captured ORDER BY n")]
    conn.execute("DELETE FROM temp._captured")
    return rows


def clear_captured(conn: sqlite3.Connection) -> None:
    """Forget rows captured outside a save (none normally)."""
    conn.execute("DELETE FROM temp._captured")


def all_rows(conn: sqlite3.Connection, schema: str = "main") -> list[list[Any]]:
    """Every record row as insert operations (the first entry of a migrated or legacy file)."""
    out: list[list[Any]] = []
    for table in RECORD_TABLES:
        cols = [r[1] for r in conn.execute(f"PRAGMA {schema}.table_info({table})")]
        if not cols:
            continue
        for row in conn.execute(f"SELECT {', '.join(cols)} FROM {schema}.{table} "
                                "ORDER BY rowid"):
            out.append([table, "I", dict(zip(cols, row, strict=True))])
    return out


# --------------------------------------------------------------------------- append

def head(conn: sqlite3.Connection) -> tuple[int, str]:
    r = conn.execute("SELECT entries, hash FROM chain_head WHERE id=1").fetchone()
    return (int(r[0]), str(r[1])) if r else (0, GENESIS)


def append(conn: sqlite3.Connection, *, referee: str, action: str, detail: Mapping[str, Any],
           at: str, rows: Sequence[Sequence[Any]], signer: Any = None) -> tuple[int, str]:
    """Write the next entry (inside the caller's transaction); returns (seq, hash).
    ``signer`` (a :class:`~.signing.SigningKey`) signs the new head; None leaves it
    unsigned (only a record made before signing, or its upgrade's entry)."""
    n, prev = head(conn)
    entry = {"seq": n + 1, "prev": prev, "at": at, "referee": referee, "action": action,
             "detail": dict(detail), "rows": [list(r) for r in rows]}
    text = canonical(entry)
    digest = sha256(text)
    if signer is None:  # (a schema-1 file's upgrade writes into a chain without ``sig``)
        conn.execute("INSERT INTO chain(seq, at, referee, action, entry, hash) "
                     "VALUES (?,?,?,?,?,?)", (n + 1, at, referee, action, text, digest))
    else:
        conn.execute("INSERT INTO chain(seq, at, referee, action, entry, hash, sig) "
                     "VALUES (?,?,?,?,?,?,?)", (n + 1, at, referee, action, text, digest,
                                                signer.sign(n + 1, digest)))
    conn.execute("INSERT OR REPLACE INTO chain_head(id, entries, hash) VALUES (1, ?, ?)",
                 (n + 1, digest))
    return n + 1, digest


# --------------------------------------------------------------------------- secrets

#: the fields of record rows that hold something derived from a PIN. None is written any
#: more (PINs live in the ``pins`` table, outside the record); files made before schema 3
#: have them in their chain, whose exports carry each one's commitment instead
PIN_FIELDS: dict[str, tuple[str, ...]] = {"referees": ("pin",)}
COMMITMENT = "sha256:"


def commitment(value: Any) -> Any:
    """A PIN field's exported form: the SHA-256 of the stored text (a salted scrypt hash,
    so nothing can be guessed from it: the random salt is hidden with it)."""
    if isinstance(value, str) and value.startswith(COMMITMENT):
        return value  # redacted already
    return COMMITMENT + sha256(canonical(value))


def redact(entry: Mapping[str, Any]) -> dict[str, Any]:
    """The entry (parsed) with every PIN field replaced by its :func:`commitment`."""
    rows = []
    for r in entry.get("rows", []):
        if (isinstance(r, list) and len(r) == 3 and isinstance(r[2], dict)
                and any(f in r[2] for f in PIN_FIELDS.get(r[0], ()))):
            r = [r[0], r[1], {k: commitment(v) if k in PIN_FIELDS[r[0]] else v
                              for k, v in r[2].items()}]
        rows.append(r)
    return {**entry, "rows": rows}


#: how a PIN field's key appears in an entry's JSON text, unless escaped (a value of that
#: text too: it is then parsed to tell)
_PIN_KEYS = tuple(f'"{f}"' for fields in PIN_FIELDS.values() for f in fields)


def may_hold_secret(text: str) -> bool:
    """Whether an entry's JSON text may name a PIN field (when not, :func:`has_secret` of
    its value is False, and the text need not be parsed to know it). A key is written as it
    is or with ``\\u`` escapes (any text of a bundle's line is the forger's to choose, and
    space may stand before its colon), so either is taken to name one."""
    return "\\u" in text or any(k in text for k in _PIN_KEYS)


def has_secret(entry: Mapping[str, Any]) -> bool:
    """Whether an entry's rows hold a PIN field that is not a commitment."""
    return any(isinstance(r, list) and len(r) == 3 and isinstance(r[2], dict)
               and any(isinstance(r[2].get(f), str) and not r[2][f].startswith(COMMITMENT)
                       for f in PIN_FIELDS.get(r[0], ()) if f in r[2])
               for r in entry.get("rows", []))


def redactions(texts: Iterable[tuple[int, str]]) -> dict[str, str]:
    """The redaction map of a chain's entries that hold a PIN hash: entry number (as JSON
    text) -> SHA-256 of its redacted text. Written once, in the upgrade's entry."""
    out: dict[str, str] = {}
    for seq, text in texts:
        if may_hold_secret(text):
            e = json.loads(text)
            if has_secret(e):
                out[str(seq)] = sha256(canonical(redact(e)))
    return out


def redaction_map(details: Iterable[Any]) -> dict[int, str]:
    """The redacted entries named by the upgrade entries' details (``redacted``)."""
    out: dict[int, str] = {}
    for d in details:
        found = d.get("redacted") if isinstance(d, dict) else None
        if isinstance(found, dict):
            for k, v in found.items():
                if isinstance(k, str) and k.isdigit() and isinstance(v, str):
                    out[int(k)] = v
    return out


def stored_redaction_map(conn: sqlite3.Connection, schema: str = "main") -> dict[int, str]:
    """:func:`redaction_map` of the upgrade entries in a file's chain."""
    return redaction_map(json.loads(text).get("detail") for (text,) in conn.execute(
        f"SELECT entry FROM {schema}.chain WHERE action=? ORDER BY seq", (MIGRATE_ACTION,)))


#: the action of the entries that upgrades write (the redaction map is in their detail)
MIGRATE_ACTION = "event.migrate"


# --------------------------------------------------------------------------- verify

@dataclass(frozen=True, slots=True)
class Entry:
    seq: int
    prev: str
    at: str
    referee: str
    action: str
    detail: dict[str, Any]
    rows: list[list[Any]]
    hash: str


def read_entries(texts: Iterable[tuple[str | bytes, str]],
                 redacted: Mapping[int, str] | None = None, *,
                 values: Iterable[dict[str, Any]] | None = None,
                 again: Callable[[int], str] | None = None) -> Iterator[Entry]:
    """Parse and check entries given as (canonical text, stored hash), in order: each hash
    matches its text, the text is canonical, seq counts from 1 and prev links the chain.
    The text may be given as its UTF-8 bytes (as read from the file: hashed as they are,
    not decoded and encoded again).

    ``redacted`` (:func:`redaction_map`): entries written with a PIN hash in them, by
    number, and the SHA-256 of each one's redacted text. Such an entry is either its
    original text (its hash as stored; its redaction must then hash as listed, so the
    record exports) or its redacted text, as a bundle carries it (hashing as listed; the
    stored hash still links the chain).

    ``values``: each text's value, already parsed (a bundle's entries: each text was made
    from its value by :func:`canonical`), so that it is not parsed again. ``again``: where
    an entry's text does not hash to its stored hash, the text to try instead (a bundle's
    entry is given as the line it was written on, and tried again as its value's canonical
    text, should the file have been laid out anew)."""
    prev = GENESIS
    redacted = redacted or {}
    parsed = iter(values) if values is not None else None
    for i, (text, stored) in enumerate(texts, start=1):
        if not isinstance(text, str | bytes):
            raise ChainError(i, "chain_hash")
        got = sha256(text)
        if got != stored and again is not None:
            text = again(i)
            got = sha256(text)
        if got != stored:
            if redacted.get(i) != got:
                raise ChainError(i, "chain_hash")
        elif i in redacted:
            original = json.loads(text.decode("utf-8") if type(text) is bytes else text)
            if sha256(canonical(redact(original))) != redacted[i]:
                raise ChainError(i, "chain_redaction_differs")
        if parsed is not None:
            e = next(parsed)
        else:
            try:  # bytes: UTF-8 and nothing else (json.loads would also take UTF-16)
                e = json.loads(text.decode("utf-8") if type(text) is bytes else text)
            except ValueError:
                raise ChainError(i, "chain_not_json") from None
        if not isinstance(e, dict):
            raise ChainError(i, "chain_not_object")
        try:
            entry = Entry(int(e["seq"]), str(e["prev"]), str(e["at"]), str(e["referee"]),
                          str(e["action"]), dict(e["detail"]), list(e["rows"]), stored)
        except (KeyError, TypeError, ValueError):
            raise ChainError(i, "chain_lacks_field") from None
        if entry.seq != i:
            raise ChainError(i, "chain_numbered", seq=entry.seq)
        if entry.prev != prev:
            raise ChainError(i, "chain_not_following")
        prev = stored
        yield entry


def replay(entries: Iterable[Entry], target: sqlite3.Connection, schema: str = "main", *,
           pooled: bool = False) -> None:
    """Apply every entry's rows, in order, to the empty record tables of ``schema`` on
    ``target``. Runs of inserts into one table go in one ``executemany``.

    ``pooled``: the inserts of many entries wait together and go in one ``executemany`` a
    table (a row inserted and deleted again meanwhile — a hand saved and its current version
    set — never touches the tables: the end is the same). A problem is then not traced to
    its entry (ChainError without one): the caller replays again without ``pooled``, which
    names it (``verify`` does, reading the chain again exactly)."""
    target.execute("PRAGMA defer_foreign_keys=ON")  # an UPDATE replays as delete + insert
    meta: dict[str, tuple[list[str], list[str], str, str, Any, dict[str, Any]]] = {}
    for table in RECORD_TABLES:
        cols = columns(target, table)
        pk = primary_key(target, table)
        meta[table] = (cols, pk,
                       f"INSERT INTO {schema}.{table}({', '.join(cols)}) VALUES "
                       f"({', '.join('?' * len(cols))})",
                       f"DELETE FROM {schema}.{table} WHERE " +
                       " AND ".join(f"{c} = ?" for c in pk),
                       _values_of(cols), defaults(target, table))
    if pooled:
        _replay_pooled(entries, target, meta)
        return
    executemany = target.executemany
    for e in entries:
        batch: list[Any] = []
        batch_table = ""
        try:
            for table, op, row in e.rows:
                if type(row) is not dict or op not in ("I", "D") or table not in meta:
                    raise ValueError
                if batch and (op != "I" or table != batch_table):
                    executemany(meta[batch_table][2], batch)
                    batch = []
                m = meta[table]
                if op == "I":
                    batch_table = table
                    batch.append(_row_values(m, row))
                elif target.execute(m[3], [row.get(c) for c in m[1]]).rowcount != 1:
                    raise ValueError
            if batch:
                executemany(meta[batch_table][2], batch)
        except (ValueError, TypeError, sqlite3.Error):
            raise ChainError(e.seq, "chain_rows_unapplicable") from None


#: entries whose inserts wait together at most (:func:`replay` ``pooled``)
POOL_ENTRIES = 512


def _row_values(m: tuple[Any, ...], row: dict[str, Any]) -> Any:
    try:
        return m[4](row)
    except KeyError:  # a column the entry's row lacks (written before the column was
        # added): its default, as the upgrade gave the file
        return [row.get(c, m[5].get(c)) for c in m[0]]


def _replay_pooled(entries: Iterable[Entry], target: sqlite3.Connection,
                   meta: dict[str, tuple[Any, ...]]) -> None:
    waiting: dict[str, dict[tuple[Any, ...], Any]] = {table: {} for table in meta}

    def flush() -> None:
        for table, rows in waiting.items():
            if rows:
                target.executemany(meta[table][2], list(rows.values()))
                rows.clear()

    try:
        for n, e in enumerate(entries, start=1):
            for table, op, row in e.rows:
                if type(row) is not dict or op not in ("I", "D") or table not in meta:
                    raise ValueError
                m = meta[table]
                key = tuple([row.get(c) for c in m[1]])
                rows = waiting[table]
                if op == "I":
                    if key in rows:  # the same row twice: the exact replay names it
                        raise ValueError
                    rows[key] = _row_values(m, row)
                elif rows.pop(key, None) is None and target.execute(m[3], key).rowcount != 1:
                    raise ValueError
            if n % POOL_ENTRIES == 0:
                flush()
        flush()
    except (ValueError, TypeError, sqlite3.Error):
        raise ChainError(None, "chain_rows_unapplicable") from None


def defaults(conn: sqlite3.Connection, table: str) -> dict[str, Any]:
    """The default value of each column of ``table`` that has one (``ALTER TABLE … ADD
    COLUMN … DEFAULT`` gave it to every older row)."""
    return {r[1]: conn.execute(f"SELECT {r[4]}").fetchone()[0]
            for r in conn.execute(f"PRAGMA main.table_info({table})") if r[4] is not None}


def _values_of(cols: list[str]) -> Any:
    """A row dict's values in column order, as one C call (``itemgetter``): replaying
    10,000 hands runs this some 70,000 times."""
    if len(cols) == 1:
        get = operator.itemgetter(cols[0])
        return lambda row: (get(row),)
    return operator.itemgetter(*cols)


def last_writer(entries: Iterable[Entry], table: str, key: tuple[Any, ...],
                pk: list[str]) -> int | None:
    """The entry that last wrote the row ``key`` of ``table`` (to name it in an error)."""
    seq = None
    for e in entries:
        for t, _, row in e.rows:
            if t == table and isinstance(row, dict) and tuple(row.get(c) for c in pk) == key:
                seq = e.seq
    return seq


def compare(conn: sqlite3.Connection, rebuilt: str, entries: list[Entry]) -> None:
    """Raise ChainError naming the entry behind the first row where the file (``main``)
    differs from the record rebuilt from the chain (schema ``rebuilt`` on ``conn``)."""
    for table in RECORD_TABLES:
        names = columns(conn, table)
        cols = ", ".join(names)
        pk = primary_key(conn, table)
        # rows are matched on the primary key (an index lookup, where EXCEPT would sort
        # every row of both sides) and then compared column by column; ``IS NOT`` compares
        # as EXCEPT does (NULL equal to NULL, 1 equal to 1.0, 1 not equal to '1')
        on = " AND ".join(f"x.{c} = y.{c}" for c in pk)
        differs = " OR ".join(f"x.{c} IS NOT y.{c}" for c in names)
        for a, b, what, test in (
                (rebuilt, "main", "chain_row_changed",
                 f"y.{pk[0] if pk else ''} IS NULL OR {differs}"),
                ("main", rebuilt, "chain_row_added",
                 f"y.{pk[0] if pk else ''} IS NULL")):
            if pk:
                sql = (f"SELECT {', '.join('x.' + c for c in pk)} FROM {a}.{table} x LEFT JOIN "
                       f"{b}.{table} y ON {on} WHERE {test} ORDER BY 1 LIMIT 1")
            else:  # pragma: no cover - every record table has a primary key
                sql = (f"SELECT * FROM (SELECT {cols} FROM {a}.{table} EXCEPT SELECT {cols} "
                       f"FROM {b}.{table}) LIMIT 1")
            r = conn.execute(sql).fetchone()
            if r is not None:
                key = tuple(r)
                raise ChainError(last_writer(entries, table, key, pk), what, table=table,
                                 key=canonical(list(key)))
