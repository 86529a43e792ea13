"""What the record's newer entries changed: the rows each save wrote, read back from the chain.

Every save ends in exactly one chain entry holding the rows it wrote (``chain.py``), by this
process or any other (the CLI beside a server). So a cache of something derived from the
tables — a round's seating, the standings' sums per player, a round's progress per table —
remembers the revision (the chain's length) it was made at and, when asked again, reads the
entries since: if none wrote a table the cached value depends on, it still holds; if some
did, their rows say which players, hands or tables to read again. Nothing is ever rebuilt
from all the earlier rounds or hands because one hand was saved.

Read inside the same read transaction as the tables themselves when the cached value is
made of several queries (:func:`~.db.read_transaction`), so the revision and the rows read
belong to one state of the file.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from . import chain

#: the tables a round's seating, the players' names, the tournament's settings, the round in
#: play and the stages live in: a save that writes one of them (a round seated or started, a
#: player added, renamed or withdrawn, the tie-break or the scoring changed, a cut) is a
#: change of the event's *structure*, rare and read whole again
STRUCTURE = frozenset({"meta", "rulesets", "referees", "players", "rounds", "seats", "byes",
                       "round_state", "stages"})
#: the tables of the hands (each save of a hand writes some of these)
HAND_TABLES = frozenset({"hands", "hand_versions", "hand_seats"})
#: the tables of the penalties
PENALTY_TABLES = frozenset({"penalties", "penalty_entries", "penalty_voids"})
#: more entries than this since a cached value: read it whole again (a bundle's import,
#: a cache that slept): cheaper than parsing them one by one
MAX_ENTRIES = 500


@dataclass(frozen=True, slots=True)
class Changes:
    """The rows written by the entries after revision ``since`` up to ``upto`` (the chain's
    length then), in order: ``(table, "I" | "D", row)``."""

    since: int
    upto: int
    rows: tuple[tuple[str, str, dict[str, Any]], ...] = ()

    @property
    def tables(self) -> frozenset[str]:
        return frozenset(r[0] for r in self.rows)

    def touches(self, tables: Iterable[str]) -> bool:
        """Whether any of these tables was written."""
        wanted = frozenset(tables)
        return any(r[0] in wanted for r in self.rows)

    def of(self, table: str) -> Iterator[dict[str, Any]]:
        """The rows written into ``table`` (old rows of updates and deletes included)."""
        return (row for t, _, row in self.rows if t == table)

    def hand_ids(self) -> set[int]:
        """The hands any of these saves wrote (a new hand, a version, a status)."""
        out = {int(r["id"]) for r in self.of("hands")}
        for table in ("hand_versions", "hand_seats"):
            out.update(int(r["hand_id"]) for r in self.of(table))
        return out

    def penalty_ids(self) -> set[int]:
        out = {int(r["id"]) for r in self.of("penalties")}
        for table in ("penalty_entries", "penalty_voids"):
            out.update(int(r["penalty_id"]) for r in self.of(table))
        return out


def head(conn: sqlite3.Connection) -> int:
    """The record's revision: the chain's length."""
    return chain.head(conn)[0]


def since(conn: sqlite3.Connection, revision: int, upto: int | None = None
          ) -> Changes | None:
    """The rows written after ``revision`` (up to ``upto``, default the chain's length now);
    None when they cannot be told cheaply — over :data:`MAX_ENTRIES` entries, or a chain
    shorter than ``revision`` (the file was replaced by an older copy): read everything again."""
    n = head(conn) if upto is None else upto
    if n == revision:
        return Changes(revision, n)
    if revision < 0 or n < revision or n - revision > MAX_ENTRIES:
        return None
    rows: list[tuple[str, str, dict[str, Any]]] = []
    for (text,) in conn.execute("SELECT entry FROM chain WHERE seq>? AND seq<=? ORDER BY seq",
                                (revision, n)):
        try:
            entry = json.loads(text)
            rows.extend((str(t), str(op), dict(row)) for t, op, row in entry["rows"])
        except (ValueError, KeyError, TypeError):
            return None  # an entry this reader cannot take apart: read everything again
    return Changes(revision, n, tuple(rows))


def _in(conn: sqlite3.Connection, query: str, ids: Iterable[int]) -> list[tuple[Any, ...]]:
    """``query`` (ending in ``IN``) for ``ids``, 500 at a time."""
    ids = sorted(ids)
    out: list[tuple[Any, ...]] = []
    for i in range(0, len(ids), 500):
        part = ids[i:i + 500]
        out += conn.execute(f"{query} ({','.join('?' * len(part))})", part).fetchall()
    return out


def players_of(conn: sqlite3.Connection, c: Changes) -> set[int]:
    """The players whose hands or penalties these saves wrote: every player of every version
    of a hand written (an amendment may have moved a seat), every player of a penalty."""
    out = {int(pid) for (pid,) in _in(
        conn, "SELECT DISTINCT player_id FROM hand_seats WHERE hand_id IN", c.hand_ids())}
    out.update(int(pid) for (pid,) in _in(
        conn, "SELECT player_id FROM penalty_entries WHERE penalty_id IN", c.penalty_ids()))
    return out


def tables_of(conn: sqlite3.Connection, c: Changes) -> set[tuple[int, int]]:
    """The (round, table) of every hand these saves wrote."""
    return {(int(r), int(t)) for r, t in _in(
        conn, "SELECT round, table_no FROM hands WHERE id IN", c.hand_ids())}


@dataclass(frozen=True, slots=True)
class Shown:
    """What a window showing the tournament (the desk) shows again after the entries up to
    ``upto``: these hands' rows, these players' standings and statements, these (round,
    table)s' progress, and every standing when a penalty was written."""

    upto: int
    hands: frozenset[int]
    players: frozenset[int]
    tables: frozenset[tuple[int, int]]
    penalties: bool

    @property
    def none(self) -> bool:
        """Nothing shown changed (no entry, or entries that wrote no hand or penalty)."""
        return not (self.hands or self.penalties)


def to_show(conn: sqlite3.Connection, revision: int) -> Shown | None:
    """What changed since ``revision`` for a window to show again, or None when it must read
    everything again (a change of the structure, too many entries, a shorter chain)."""
    c = since(conn, revision)
    if c is None or c.touches(STRUCTURE):
        return None
    return Shown(c.upto, frozenset(c.hand_ids()), frozenset(players_of(conn, c)),
                 frozenset(tables_of(conn, c)), c.touches(PENALTY_TABLES))
