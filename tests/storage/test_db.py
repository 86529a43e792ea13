"""The connection (storage/db.py): sqlite-utils' Database with the durability settings, and
what its ``execute`` promises the storage layer about transactions."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

from referee_app.storage import ReadOnlyError, Tournament
from referee_app.storage import db as dbm


def _count(path: Path, table: str) -> int:
    """Rows of ``table`` as another connection sees them (what is committed)."""
    other = sqlite3.connect(path)
    try:
        return int(other.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
    finally:
        other.close()


def test_the_connection_has_the_durability_settings(make_tournament) -> None:
    t = make_tournament(n=4)
    pragma = {name: t.db.execute(f"PRAGMA {name}").fetchone()[0]
              for name in ("journal_mode", "synchronous", "foreign_keys",
                           "recursive_triggers", "busy_timeout")}
    assert pragma == {"journal_mode": "wal", "synchronous": 2, "foreign_keys": 1,
                      "recursive_triggers": 1, "busy_timeout": dbm.busy_timeout_ms()}


def test_a_write_outside_a_transaction_commits_and_a_failed_one_leaves_none_open(
        make_tournament) -> None:
    t = make_tournament(n=4)
    t.db.execute("INSERT INTO auth_failures(name, at) VALUES ('a', 1)")
    assert not t.db.conn.in_transaction and _count(t.path, "auth_failures") == 1
    # a comment before the statement: still a write, still committed
    t.db.execute("-- a note\n/* and another */ INSERT INTO auth_failures(name, at) "
                 "VALUES ('b', 2)")
    assert not t.db.conn.in_transaction and _count(t.path, "auth_failures") == 2
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        t.db.execute("DELETE FROM chain")
    assert not t.db.conn.in_transaction  # nothing would ever commit it
    t.db.execute("DELETE FROM auth_failures WHERE name='a'")
    assert _count(t.path, "auth_failures") == 1
    # a transaction the caller opens stays open until the caller ends it
    t.db.execute("BEGIN")
    t.db.execute("INSERT INTO auth_failures(name, at) VALUES ('c', 3)")
    assert t.db.conn.in_transaction and _count(t.path, "auth_failures") == 1
    t.db.execute("COMMIT")
    assert _count(t.path, "auth_failures") == 2


def test_write_transaction_refuses_a_read_only_file_with_its_reason(make_tournament) -> None:
    t = make_tournament(n=4)
    with pytest.raises(ReadOnlyError, match=r"viewing only \(the folder is a CD\)"), \
            dbm.write_transaction(t.db, t.path, "the folder is a CD"):
        t.db.execute("INSERT INTO auth_failures(name, at) VALUES ('a', 1)")
    assert _count(t.path, "auth_failures") == 0 and not t.db.conn.in_transaction


def test_write_transaction_rolls_back_everything_on_an_error(make_tournament) -> None:
    t = make_tournament(n=4)
    with pytest.raises(RuntimeError), dbm.write_transaction(t.db, t.path):
        t.db.execute("INSERT INTO auth_failures(name, at) VALUES ('a', 1)")
        raise RuntimeError("stop")
    assert _count(t.path, "auth_failures") == 0 and not t.db.conn.in_transaction


def test_opening_a_current_file_writes_nothing_to_it(make_tournament) -> None:
    t = make_tournament(n=4)
    path = t.path
    t.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns
    with Tournament.open(path) as t:
        assert len(t.players.list()) == 4 and t.record.verify().entries >= 1
        t.export_bundle()
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before
    conn = sqlite3.connect(path)
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    conn.close()
    assert "_sqlite_migrations" not in tables


def test_the_schema_is_the_tables_and_indexes_of_db_py(make_tournament) -> None:
    t = make_tournament(n=4)
    made = {r[0]: r[1] for r in t.db.execute(
        "SELECT name, type FROM sqlite_master WHERE name NOT LIKE 'sqlite_autoindex%'")}
    assert {n for n, kind in made.items() if kind == "table"} == set(dbm.TABLES)
    assert {n for n, kind in made.items() if kind == "index"} == {"hand_seats_player", "chain_action"}
    assert {n for n, kind in made.items() if kind == "trigger"} == {
        f"{table}_no_{op}" for table in dbm.APPEND_ONLY for op in ("update", "delete")}
    assert t.db.execute("PRAGMA user_version").fetchone()[0] == dbm.SCHEMA_VERSION
