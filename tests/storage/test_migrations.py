"""Schema versions (storage/migrations.py): a schema-1 file is upgraded once, whole, on open;
a current file is never touched; the record (chain, verify, bundles) ignores the
migrations table."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee_app.core import UnknownRulesetError
from referee_app.storage import ReadOnlyError, Tournament, chain, migrations
from referee_app.storage import db as dbm

#: what a schema-6 file lacked: the PINs outside the record (its referees held them) and
#: the chain's index. (It keeps the current file's signatures: a real file of before, signed
#: by none, is upgraded in tests/storage/test_signed_record.py.)
TO_SCHEMA_6 = ("DROP TABLE pins; DROP INDEX chain_action; "
               "ALTER TABLE referees ADD COLUMN pin TEXT NOT NULL DEFAULT ''; ")
#: what a schema-5 file lacked: those, the stages, a penalty's unit
TO_SCHEMA_5 = TO_SCHEMA_6 + "DROP TABLE stages; ALTER TABLE penalties DROP COLUMN unit; "
#: what a schema-4 file lacked: those, and the state of the rounds started (round start)
TO_SCHEMA_4 = TO_SCHEMA_5 + "DROP TABLE round_state; "
#: what a schema-3 file lacked: those, and a player's team
TO_SCHEMA_3 = TO_SCHEMA_4 + "ALTER TABLE players DROP COLUMN team; "
#: what a schema-1 file lacked, undone on a current file (as test_record.py builds it)
TO_SCHEMA_1 = (
    TO_SCHEMA_3 + "DROP TABLE chain; DROP TABLE chain_head; DROP TABLE rulesets; "
    "DROP TABLE referees; DROP TABLE auth_failures; DROP TABLE hand_keys; "
    "DELETE FROM meta WHERE key IN ('ruleset_digest', 'signing_key'); "
    "ALTER TABLE hand_versions DROP COLUMN settings; "
    "CREATE TABLE log (id INTEGER PRIMARY KEY, at TEXT NOT NULL, referee TEXT NOT NULL, "
    "action TEXT NOT NULL, detail TEXT NOT NULL); "
    "INSERT INTO log VALUES (1, '2009', 'x', 'event.create', '{}'); "
    "PRAGMA user_version=1;")
#: what a schema-2 file lacked: the keys table, the client address of a sign-in failure
TO_SCHEMA_2 = (
    "DROP TABLE hand_keys; DROP TABLE auth_failures; "
    "CREATE TABLE auth_failures (name TEXT NOT NULL, at REAL NOT NULL); " + TO_SCHEMA_3 +
    "PRAGMA user_version=2;")
#: every step an upgrade from schema 1 records
ALL_STEPS = [("referee-desk", f"schema-{v}") for v in range(2, dbm.SCHEMA_VERSION + 1)]


@pytest.fixture
def current(make_tournament, record_for) -> Tournament:
    t = make_tournament(n=8)
    ids = [t.hands.add(record_for(t, 1, table, seed=table * 7 + n), round=1, table=table,
                      hand_no=n, referee="赵").id for table in (1, 2) for n in (1, 2)]
    t.hands.amend(ids[0], record_for(t, 1, 1, seed=99), reason="corrected", referee="钱")
    t.hands.void(ids[1], reason="wrong table")
    t.penalties.add([t.players.list()[0].id], 4, "late", round=1)
    t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return t


def _older(current: Tournament, old: Path, script: str) -> Path:
    """A copy of ``current`` at ``old`` taken back to an older schema by ``script``."""
    old.write_bytes(current.path.read_bytes())
    conn = sqlite3.connect(old)
    conn.executescript(script)
    conn.close()
    return old


@pytest.fixture
def schema_1(current: Tournament, tmp_path: Path) -> Path:
    """A file the way schema 1 stored it: no chain, no settings column, a log table."""
    return _older(current, tmp_path / "old.sqlite", TO_SCHEMA_1)


def _shape(conn: sqlite3.Connection) -> dict[str, Any]:
    """Every table's columns, keys and indexes and every trigger's text, but the tables a
    file may hold beside the record (schema 1's ``log``, ``_sqlite_migrations``)."""
    out: dict[str, Any] = {}
    for kind, name, sql in conn.execute(
            "SELECT type, name, sql FROM sqlite_master "
            "WHERE tbl_name NOT IN ('log', '_sqlite_migrations') ORDER BY name"):
        if kind == "table":
            out[name] = (conn.execute(f"PRAGMA table_xinfo({name})").fetchall(),
                         conn.execute(f"PRAGMA foreign_key_list({name})").fetchall(),
                         sorted(conn.execute(f"PRAGMA index_list({name})").fetchall()))
        elif kind == "trigger":
            out[name] = sql
    return out


def _applied(path: Path) -> list[tuple[str, str]]:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("SELECT migration_set, name FROM _sqlite_migrations "
                            "ORDER BY id").fetchall()
    finally:
        conn.close()


def test_a_schema_1_file_becomes_what_a_new_file_is(current: Tournament, schema_1: Path) -> None:
    totals = {h.id: h.totals for h in current.hands.list()}
    fresh = _shape(current.db.conn)
    with Tournament.open(schema_1, backup_every=0) as t:
        assert _shape(t.db.conn) == fresh
        assert t.db.execute("PRAGMA user_version").fetchone()[0] == dbm.SCHEMA_VERSION
        assert [e["action"] for e in t.record.log()] == ["event.migrate"]
        assert t.record.log()[0]["detail"]["log"][0]["action"] == "event.create"
        assert {h.id: h.totals for h in t.hands.list()} == totals
        settings = {r[0] for r in t.db.execute("SELECT settings FROM hand_versions")}
        digest = t.settings()["ruleset_digest"]
        assert settings == {'{"ruleset":"ottawa-2009","ruleset_digest":"' + digest
                            + '","stake":1,"cap_fan":null}'}
        assert t.record.verify().entries == 1
        bundle = t.export_bundle()
    assert _applied(schema_1) == ALL_STEPS
    # the bundle of an upgraded file imports to the same record, without the table
    again = Tournament.import_bundle(bundle, schema_1.with_name("again.sqlite"),
                                     backup_every=0)
    with again:
        assert again.export_bundle() == bundle
        assert "_sqlite_migrations" not in again.db.table_names()


def test_an_upgraded_file_opens_again_unchanged(schema_1: Path) -> None:
    Tournament.open(schema_1, backup_every=0).close()
    before = hashlib.sha256(schema_1.read_bytes()).hexdigest()
    with Tournament.open(schema_1, backup_every=0) as t:
        assert t.record.verify().entries == 1
    assert hashlib.sha256(schema_1.read_bytes()).hexdigest() == before
    assert _applied(schema_1) == ALL_STEPS


def test_two_desks_opening_a_schema_1_file_at_once_upgrade_it_once(schema_1: Path) -> None:
    holder = sqlite3.connect(schema_1, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # both desks reach the upgrade while it is locked
    results: list[Any] = []

    def open_it() -> None:
        try:
            with Tournament.open(schema_1, backup_every=0) as t:
                results.append([e["action"] for e in t.record.log()])
        except Exception as e:  # reported by the assertion below
            results.append(e)

    desks = [threading.Thread(target=open_it) for _ in range(2)]
    for d in desks:
        d.start()
    time.sleep(0.5)
    assert results == []  # neither got past the lock
    holder.execute("ROLLBACK")
    holder.close()
    for d in desks:
        d.join(60)
    assert results == [["event.migrate"], ["event.migrate"]]
    assert _applied(schema_1) == ALL_STEPS


def test_a_failed_upgrade_leaves_the_file_at_schema_1(schema_1: Path) -> None:
    conn = sqlite3.connect(schema_1)
    conn.execute("UPDATE meta SET value='\"no-such-rules\"' WHERE key='ruleset'")
    conn.commit()
    conn.close()
    before = hashlib.sha256(schema_1.read_bytes()).hexdigest()
    with pytest.raises(UnknownRulesetError):
        Tournament.open(schema_1, backup_every=0)
    assert hashlib.sha256(schema_1.read_bytes()).hexdigest() == before
    conn = sqlite3.connect(schema_1)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE "
                            "name='_sqlite_migrations'").fetchone()[0] == 0
    finally:
        conn.close()


def test_the_steps_leave_a_current_file_as_it_is(current: Tournament) -> None:
    """A file made at the current schema has no migrations table: applying every step (what
    the next schema's upgrade does first) changes nothing of it but that table."""
    rows = chain.all_rows(current.db.conn)
    bundle = current.export_bundle()
    with dbm.write_transaction(current.db, current.path):
        migrations.MIGRATIONS.apply(current.db)
    assert chain.all_rows(current.db.conn) == rows
    assert current.db.execute("PRAGMA user_version").fetchone()[0] == dbm.SCHEMA_VERSION
    assert _applied(current.path) == ALL_STEPS
    assert current.record.verify().entries == len(current.record.log())
    assert current.export_bundle() == bundle
    assert not migrations.MIGRATIONS.pending(current.db)


@pytest.fixture
def schema_2(current: Tournament, tmp_path: Path) -> Path:
    """A file the way schema 2 stored it: idempotency keys beside it, failures by name."""
    return _older(current, tmp_path / "two.sqlite", TO_SCHEMA_2)


def test_a_schema_2_file_takes_in_the_keys_of_its_side_file(current: Tournament,
                                                             schema_2: Path) -> None:
    """The old server's ``<db>.keys``: the key of a saved hand comes in with that hand; a key
    whose hand never got saved, another referee's, and a line torn by a crash do not."""
    saved = {(h.table, h.hand_no): h for h in current.hands.list()}
    lines = [{"key": "k-saved", "referee": "赵", "round": 1, "table": 1, "hand_no": 2},
             {"key": "k-never-saved", "referee": "赵", "round": 1, "table": 1, "hand_no": 3},
             {"key": "k-other-referee", "referee": "钱", "round": 1, "table": 2, "hand_no": 1},
             {"key": "k-huge", "referee": "赵", "round": 1, "table": 1, "hand_no": 2**70}]
    text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in lines)
    Path(f"{schema_2}.keys").write_text(text + '{"key": "k-torn", "ref', encoding="utf-8")
    fresh = _shape(current.db.conn)
    with Tournament.open(schema_2, backup_every=0) as t:
        assert _shape(t.db.conn) == fresh
        assert t.db.execute("PRAGMA user_version").fetchone()[0] == dbm.SCHEMA_VERSION
        keys = t.db.execute("SELECT key, hand_id, referee, round, table_no, hand_no FROM "
                            "hand_keys").fetchall()
        assert keys == [("k-saved", saved[(1, 2)].id, "赵", 1, 1, 2)]
        assert t.hands.by_key("k-saved").hand_id == saved[(1, 2)].id
        assert t.hands.by_key("k-never-saved") is None
        assert t.record.verify().entries == len(current.record.log())  # the record as it was
    assert _applied(schema_2) == ALL_STEPS  # the steps before run as no-ops, recorded


@pytest.mark.parametrize("version", [3, 4, 5])
def test_an_older_file_gains_stages_and_penalties_in_chips(current: Tournament,
                                                           tmp_path: Path, version: int) -> None:
    """Schema 6 (from 3 through teams and round_state, from 4 through round_state, or from
    5): the stages table, and every penalty of an older file in chips — its chain rows,
    written without a unit, replay to the column's default, so verify and bundles hold and
    the standings are as they were."""
    rows = current.standings.table()
    bundle = current.export_bundle()
    undo = {3: TO_SCHEMA_3, 4: TO_SCHEMA_4, 5: TO_SCHEMA_5}[version]
    three = _older(current, tmp_path / "older.sqlite", undo + f"PRAGMA user_version={version};")
    fresh = _shape(current.db.conn)
    with Tournament.open(three, backup_every=0) as t:
        assert _shape(t.db.conn) == fresh
        assert t.db.execute("SELECT DISTINCT unit FROM penalties").fetchall() == [("chips",)]
        assert [p.unit for p in t.penalties.list()] == ["chips"]
        assert t.stages.list()[1:] == [] and t.standings.table() == rows
        assert t.record.verify().entries == len(current.record.log())
        assert t.export_bundle() == bundle
    assert _applied(three) == ALL_STEPS


def _mount_tmpfs(where: Path) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    where.mkdir(exist_ok=True)
    return subprocess.run(["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(where)],
                          capture_output=True).returncode == 0


@pytest.fixture
def read_only_medium(tmp_path: Path) -> Iterator[Path]:
    """A folder whose files become read-only once ``remount`` is called (needs root)."""
    where = tmp_path / "mnt"
    if not _mount_tmpfs(where):
        pytest.skip("needs root and tmpfs to make a read-only medium")
    yield where
    subprocess.run(["umount", "-l", str(where)], capture_output=True)


def _remount_read_only(where: Path) -> None:
    subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)


@pytest.mark.parametrize("version", [4, 5, 6])
def test_a_schema_4_5_or_6_file_gets_the_tables_after_it_and_keeps_its_record(
        current: Tournament, tmp_path: Path, version: int) -> None:
    """Schema 4 lacked ``round_state`` (and, made new at schema 4, the migrations table);
    schema 5 the stages and a penalty's unit; schema 6 the ``pins`` table (PIN hashes in
    ``referees``) and the index on the chain's actions. No step has anything for the chain
    here (no round started, no stage, no referee)."""
    older = _older(current, tmp_path / f"v{version}.sqlite",
                   {4: TO_SCHEMA_4, 5: TO_SCHEMA_5, 6: TO_SCHEMA_6}[version]
                   + f"PRAGMA user_version={version};")
    fresh = _shape(current.db.conn)
    log = current.record.log()
    bundle = current.export_bundle()
    conn = sqlite3.connect(older)
    assert "pins" not in {n for (n,) in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()
    with Tournament.open(older, backup_every=0) as t:
        assert _shape(t.db.conn) == fresh
        assert dbm.schema_version(t.db) == dbm.SCHEMA_VERSION
        assert t.record.log() == log
        assert t.record.verify(key=current.info.signing_key).entries == len(log)
        assert t.export_bundle() == bundle
        assert t.rounds.in_play().round == 1
        t.rounds.start(1, minutes=60)
        assert t.record.verify().entries == len(log) + 1
    assert _applied(older) == ALL_STEPS


def test_a_read_only_file_opens_when_current_and_is_refused_when_older(
        current: Tournament, schema_1: Path, read_only_medium: Path) -> None:
    shutil.copy(current.path, read_only_medium / "now.sqlite")
    shutil.copy(schema_1, read_only_medium / "old.sqlite")
    _remount_read_only(read_only_medium)
    with Tournament.open(read_only_medium / "now.sqlite") as t:
        assert t.read_only and len(t.players.list()) == 8
    with pytest.raises(ReadOnlyError, match="must be upgraded"):
        Tournament.open(read_only_medium / "old.sqlite")


# --------------------------------------------------------------------------- teams (schema 4)

DEMO = Path(__file__).resolve().parents[2] / "sample_events" / "demo-ottawa-2009.json"


@pytest.fixture
def before_teams(tmp_path: Path) -> Path:
    """A file from before teams: the demo bundle's chain was written by code that had no
    team column (its player rows lack the key), the column dropped and the version set back."""
    path = tmp_path / "before-teams.sqlite"
    Tournament.import_bundle(DEMO, path, backup_every=0).close()
    conn = sqlite3.connect(path)
    conn.executescript(TO_SCHEMA_3 + "PRAGMA user_version=3;")
    conn.close()
    return path


def test_a_file_from_before_teams_gets_the_column_and_verifies(before_teams: Path) -> None:
    entries = sqlite3.connect(before_teams).execute(
        "SELECT entry FROM chain WHERE entry LIKE '%\"players\",\"I\"%'").fetchall()
    assert entries and not any('"team"' in e for (e,) in entries)  # really written before
    with Tournament.open(before_teams, backup_every=0) as t:
        assert dbm.schema_version(t.db) == dbm.SCHEMA_VERSION
        n = len(t.record.log())
        assert {p.team for p in t.players.list()} == {""}
        assert t.record.verify().entries == n  # older rows replay with the column's default
        bundle = t.export_bundle()
        # nobody in a team: the bundle is the one the code before wrote
        assert all("team" not in p for p in bundle["players"])
        name = t.players.list()[0].name
        t.players.update(name, team="川军", referee="赵建国")
        assert t.players.get(name).team == "川军"
        # the demo is unsigned: its first write starts signing (its own entry) before its own
        assert [e["action"] for e in t.record.log()[n:]] == ["record.key", "players.update"]
        assert t.record.verify().entries == n + 2
        again = t.export_bundle()
    assert [p.get("team") for p in again["players"]][0] == "川军"
    with Tournament.import_bundle(again, before_teams.with_name("again.sqlite"),
                                  backup_every=0) as copy:
        assert copy.players.get(name).team == "川军"
        assert copy.export_bundle() == again
