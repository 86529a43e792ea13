"""Schema versions: how a file written by an older Referee Desk is brought up to date.

``PRAGMA user_version`` is the file's schema version (:data:`.db.SCHEMA_VERSION` for a new
file); :func:`.opening.check_file` reads it before anything else, refusing a newer file.
A file below it is upgraded when opened (:func:`upgrade`) by sqlite-utils' migrations
(:data:`MIGRATIONS`): one step per version, which records itself in ``_sqlite_migrations``
(name and time). Rules that keep the file trustworthy:

* A current file is never written on opening: :func:`upgrade` is called only below
  :data:`.db.SCHEMA_VERSION`, so a read-only current file opens too. Files made before the
  steps were recorded (schema 2 made new: no ``_sqlite_migrations``) get the table with
  their next upgrade, the steps they already had recorded as no-ops.
* One ``BEGIN IMMEDIATE`` transaction holds the whole upgrade: a second desk opening the
  file at the same moment waits for the lock, then finds it current (sqlite-utils' own
  ``apply`` creates its table outside any transaction and takes the write lock only at
  the first write, so two desks applying at once would clash).
* Each step keeps its own statements (changing :data:`.db.TABLES` later never changes
  what an old file's upgrade does) and only runs on a file below its version: a file
  made at schema N without the table runs the steps up to N as no-ops, recorded.
* ``_sqlite_migrations`` is outside the record (:data:`.chain.RECORD_TABLES`): the chain
  neither captures nor replays it, verify and bundles never see it. What an upgrade does
  to the record goes in the chain like any change (schema 2's ``event.migrate`` entry).

The next schema: raise :data:`.db.SCHEMA_VERSION`, change :data:`.db.TABLES`, add a step
``@upgrades_to(8)`` below, and test it on a file of the version before. A step that
writes a chain entry into a signed record must sign it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from referee_app.core import HandRecord, RecordError, Ruleset, get_ruleset, settle

from . import chain, ruleset_store
from . import db as dbm

#: every step, oldest first (sqlite-utils names the set in ``_sqlite_migrations``)
MIGRATIONS = Migrations("referee-desk")

Step = Callable[[Database], None]


def upgrade(db: Database, path: Path) -> None:
    """Bring a file below :data:`.db.SCHEMA_VERSION` up to it, in one write transaction
    (all steps or none); a file that another process upgraded meanwhile is left as it is."""
    with dbm.write_transaction(db, path):
        if dbm.schema_version(db) < dbm.SCHEMA_VERSION:
            MIGRATIONS.apply(db)


def upgrades_to(version: int) -> Callable[[Step], Step]:
    """Register a step that brings a file of ``version - 1`` to ``version`` (and then sets
    ``user_version``); on a file already at ``version`` or later it does nothing."""

    def register(step: Step) -> Step:
        def run(db: Database) -> None:
            if dbm.schema_version(db) < version:
                step(db)
                db.execute(f"PRAGMA user_version={version}")

        MIGRATIONS(name=f"schema-{version}")(run)
        return step

    return register


def _stored(value: Any) -> str:
    """A meta value or a version's settings as stored (compact JSON, keys as given)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --------------------------------------------------------------------------- schema 2

#: the tables schema 2 added, as it created them
SCHEMA_2_TABLES = {
    "rulesets": "CREATE TABLE rulesets (digest TEXT PRIMARY KEY, id TEXT NOT NULL, "
                "data TEXT NOT NULL)",
    "referees": """CREATE TABLE referees (
    name TEXT PRIMARY KEY,
    head INTEGER NOT NULL,
    pin TEXT NOT NULL,
    added_at TEXT NOT NULL
)""",
    "chain": """CREATE TABLE chain (
    seq INTEGER PRIMARY KEY,
    at TEXT NOT NULL,
    referee TEXT NOT NULL,
    action TEXT NOT NULL,
    entry TEXT NOT NULL,
    hash TEXT NOT NULL
)""",
    "chain_head": "CREATE TABLE chain_head (id INTEGER PRIMARY KEY CHECK (id = 1), "
                  "entries INTEGER NOT NULL, hash TEXT NOT NULL)",
    "auth_failures": "CREATE TABLE auth_failures (name TEXT NOT NULL, at REAL NOT NULL)",
}
_APPEND_ONLY = "BEGIN SELECT RAISE(ABORT, '{0} is append-only'); END"


@upgrades_to(2)
def chain_and_frozen_settings(db: Database) -> None:
    """Schema 1 -> 2: the chain tables, the frozen ``settings`` of each version (those that
    reproduce its stored settlement), the tournament's ruleset stored inside it, referees.
    The old ``log`` table is kept as it was; its entries become part of the first chain
    entry's detail, which holds every row of the record (``event.migrate``)."""
    db.table("hand_versions").add_column("settings", str, not_null_default="{}")
    for statement in SCHEMA_2_TABLES.values():
        db.execute(statement)
    for op in ("UPDATE", "DELETE"):
        db.execute(f"CREATE TRIGGER chain_no_{op.lower()} BEFORE {op} ON chain "
                   + _APPEND_ONLY.format("chain"))
    meta = {r["key"]: json.loads(r["value"]) for r in db.table("meta").rows}
    rules = get_ruleset(meta["ruleset"])
    snap = ruleset_store.snapshot(rules)
    digest = ruleset_store.digest(snap)
    db.table("rulesets").insert({"digest": digest, "id": rules.id,
                                 "data": chain.canonical(snap)})
    db.table("meta").insert({"key": "ruleset_digest", "value": _stored(digest)})
    # schema 1's versions are append-only too: let the one filling of ``settings`` through
    db.execute("DROP TRIGGER hand_versions_no_update")
    versions = db.table("hand_versions")
    for key, settings in settings_of_saved_versions(db, rules, digest, meta):
        versions.update(key, {"settings": _stored(settings)})
    db.execute("CREATE TRIGGER hand_versions_no_update BEFORE UPDATE ON hand_versions "
               + _APPEND_ONLY.format("hand_versions"))
    old_log = [{"id": r["id"], "at": r["at"], "referee": r["referee"], "action": r["action"],
                "detail": json.loads(r["detail"])}
               for r in db.table("log").rows_where(order_by="id")]
    chain.append(db.conn, referee="", action="event.migrate", at=dbm.now(),
                 detail={"from_schema": 1, "log": old_log}, rows=chain.all_rows(db.conn))


def settings_of_saved_versions(db: Database, rules: Ruleset, digest: str,
                               meta: dict[str, Any]
                               ) -> list[tuple[tuple[int, int], dict[str, Any]]]:
    """The settings each version of a schema-1 file was settled under, by (hand, version):
    the tournament's cap if that reproduces its stored settlement, else the first cap that
    does (older versions re-settled a hand when the cap changed). None reproduces it:
    marked unverifiable."""
    stake = int(meta.get("stake", 1))
    caps = [meta.get("cap_fan"), None, *range(1, 14)]
    out = []
    for row in list(db.table("hand_versions").rows_where(
            select="hand_id, version, record, settlement")):
        stored = json.loads(row["settlement"])
        base = {"ruleset": rules.id, "ruleset_digest": digest, "stake": stake}
        found: dict[str, Any] | None = None
        try:
            rec = HandRecord.from_dict(json.loads(row["record"]))
            for cap in dict.fromkeys(caps):
                r = rules.with_settings(cap_fan=cap, stake=stake)
                if settle(rec, r).to_dict() == stored:
                    found = {**base, "cap_fan": cap}
                    break
        except (RecordError, ValueError):
            pass
        out.append(((row["hand_id"], row["version"]), found or {
            **base, "cap_fan": meta.get("cap_fan"),
            "unverifiable": "saved before settings were recorded; no cap reproduces it"}))
    return out


# --------------------------------------------------------------------------- schema 3

#: the table schema 3 added, as it created it
SCHEMA_3_TABLES = {
    "hand_keys": """CREATE TABLE hand_keys (
    key TEXT PRIMARY KEY,
    hand_id INTEGER NOT NULL REFERENCES hands(id),
    referee TEXT NOT NULL,
    round INTEGER NOT NULL,
    table_no INTEGER NOT NULL,
    hand_no INTEGER NOT NULL,
    at TEXT NOT NULL
)""",
}


@upgrades_to(3)
def keys_inside_the_file(db: Database) -> None:
    """Schema 2 -> 3: the desks' idempotency keys move into the file (``hand_keys``, written
    in the same transaction as the hand), and sign-in failures name the client address.

    The keys a server kept in the side file ``<db>.keys`` come in once, here: a key whose
    hand is saved (same round, table, number, entered by the same referee) is kept with
    that hand; a key whose hand was never saved (the old log wrote it *before* the save)
    is left out, so its resend saves the hand instead of replaying nothing. The side file
    is not read again; it may be deleted. Neither table is part of the record (the chain
    neither holds nor replays them)."""
    for statement in SCHEMA_3_TABLES.values():
        db.execute(statement)
    db.execute("ALTER TABLE auth_failures ADD COLUMN client TEXT NOT NULL DEFAULT ''")
    main = next((r[2] for r in db.execute("PRAGMA database_list") if r[1] == "main"), "")
    if main:
        for row in _side_file_keys(Path(main + ".keys")):
            found = db.execute(
                "SELECT h.id FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND "
                "v.version=1 WHERE h.round=? AND h.table_no=? AND h.hand_no=? AND "
                "v.referee=?", (row[2], row[3], row[4], row[1])).fetchone()
            if found is not None:
                db.execute("INSERT OR IGNORE INTO hand_keys(key, hand_id, referee, round, "
                           "table_no, hand_no, at) VALUES (?,?,?,?,?,?,?)",
                           (row[0], found[0], *row[1:], dbm.now()))


def _side_file_keys(path: Path) -> list[tuple[str, str, int, int, int]]:
    """The (key, referee, round, table, hand number) lines of an old ``<db>.keys`` file;
    a line cut short by a crash, or anything else unreadable, is skipped (the old log
    skipped it too: its hand was never saved)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(64 * 1024 * 1024)  # a server's whole day is a few hundred KB
    except OSError:
        return []
    out = []
    for line in raw.decode("utf-8", "replace").splitlines():
        try:
            d = json.loads(line)
            row = (str(d["key"])[:200], str(d["referee"]), int(d["round"]),
                   int(d["table"]), int(d["hand_no"]))
        except (ValueError, KeyError, TypeError, OverflowError):
            continue
        if all(0 < n < 2**63 for n in row[2:]):
            out.append(row)
    return out


# --------------------------------------------------------------------------- schema 4

@upgrades_to(4)
def player_teams(db: Database) -> None:
    """Schema 3 -> 4: a player's team (``players.team``, "" for none). Every player is in no
    team until one is given, which is what the chain's older entries replay to (a column
    their rows lack takes its default, :func:`.chain.replay`): the record is unchanged and
    the chain gets no entry."""
    db.execute("ALTER TABLE players ADD COLUMN team TEXT NOT NULL DEFAULT ''")


# --------------------------------------------------------------------------- schema 5

#: the table schema 5 added, as it created it
SCHEMA_5_ROUND_STATE = """CREATE TABLE round_state (
    round INTEGER PRIMARY KEY,
    in_play INTEGER NOT NULL DEFAULT 0,
    started_at TEXT NOT NULL,
    started_by TEXT NOT NULL DEFAULT '',
    ends_at TEXT,
    minutes INTEGER,
    added INTEGER NOT NULL DEFAULT 0
)"""


@upgrades_to(5)
def round_state(db: Database) -> None:
    """Schema 4 -> 5: the state of each started round (``round start``: the round in play,
    its start and end). Empty until a round is started, so the record is unchanged and the
    chain gets no entry."""
    db.execute(SCHEMA_5_ROUND_STATE)


# --------------------------------------------------------------------------- schema 6

#: the table schema 6 added, as it created it
SCHEMA_6_STAGES = """CREATE TABLE stages (
    number INTEGER PRIMARY KEY,
    name TEXT NOT NULL DEFAULT '',
    after_round INTEGER NOT NULL UNIQUE,
    top INTEGER NOT NULL,
    carry TEXT NOT NULL,
    players TEXT NOT NULL,
    referee TEXT NOT NULL,
    at TEXT NOT NULL
)"""


@upgrades_to(6)
def stages_and_points_penalties(db: Database) -> None:
    """Schema 5 -> 6: the stages of an event (``stages``: one row per cut, none yet) and a
    penalty's unit (``penalties.unit``: every older penalty was in chips, which is what the
    chain's older entries replay to — a column their rows lack takes its default,
    :func:`.chain.replay`): the record is unchanged and the chain gets no entry."""
    db.execute(SCHEMA_6_STAGES)
    db.execute("ALTER TABLE penalties ADD COLUMN unit TEXT NOT NULL DEFAULT 'chips'")


# --------------------------------------------------------------------------- schema 7

#: the tables schema 7 added, as it created them
SCHEMA_7_TABLES = {
    "pins": """CREATE TABLE pins (
    name TEXT PRIMARY KEY,
    hash TEXT NOT NULL,
    set_at TEXT NOT NULL
)""",
}


@upgrades_to(7)
def secrets_out_of_the_record(db: Database) -> None:
    """Schema 6 -> 7: PIN hashes leave the record, heads can be signed.

    * every referee's PIN hash moves to the ``pins`` table (outside the record: never in
      the chain, a bundle or an answer); ``referees`` keeps name, role and date. Every PIN
      keeps working, a short one too, until it is changed;
    * the chain gets a ``sig`` column (each write's head signed, from the next write on:
      this upgrade makes no key, so the file stays unsigned until then), and an index on
      ``action`` (verify finds the upgrade entries without reading the whole chain);
    * the entries already written with a PIN hash in them stay as they are, so the chain and
      every digest published from it still verify; their redacted form (each PIN hash
      replaced by its commitment, :func:`.chain.commitment`) is what a bundle carries, and
      this upgrade's entry lists the SHA-256 of each (``redacted``), which checks them.

    The upgrade's own entry (``event.migrate``, ``from_schema`` 6) says so in the chain; a
    file whose referees had no PINs gets none (nothing in its record changed)."""
    if "sig" not in chain.columns(db.conn, "chain"):
        db.execute("ALTER TABLE chain ADD COLUMN sig TEXT")
    db.execute("CREATE INDEX IF NOT EXISTS chain_action ON chain(action)")
    db.execute(SCHEMA_7_TABLES["pins"])
    db.execute("INSERT INTO pins(name, hash, set_at) SELECT name, pin, added_at FROM referees")
    moved = [r[0] for r in db.execute("SELECT name FROM pins ORDER BY name")]
    db.execute("ALTER TABLE referees DROP COLUMN pin")
    redacted = chain.redactions(db.execute("SELECT seq, entry FROM chain ORDER BY seq"))
    if not moved and not redacted:  # no referee had a PIN: the record itself is unchanged
        return
    chain.append(db.conn, referee="", action=chain.MIGRATE_ACTION, at=dbm.now(),
                 detail={"from_schema": 6, "pins_moved_out": moved, "redacted": redacted},
                 rows=[])
