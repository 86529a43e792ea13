"""Importing a whole-tournament bundle (:mod:`.bundle`): all or nothing, after checking it.

Import rebuilds the database from the chain alone, checks every hash, link and signature
(``key=``: and that they are all by that key), verifies it like ``referee-app verify``, and
requires the readable sections to equal what the chain rebuilt. It builds the database in
a temporary file next to the target and renames it only when everything has been read, so
a bad bundle leaves nothing.

No PIN travels in a bundle: importing a tournament with referees therefore asks a new PIN
for its head referee; every other referee sets theirs on the new head desk before their
first change.

Formats read: ``/3`` (the current one), ``/2`` (before signed heads: its PIN hashes are not
kept, and the import's upgrade entry says so), ``/1`` (before the chain, with
``legacy=True``).
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import Any

from referee_app.core import HandRecord, RecordError, settle
from referee_app.core.errors import nested, os_reason
from referee_app.core.input_files import BUNDLE_LIMIT, read_limited
from referee_app.core.jsonin import json_kind, parse_json

from . import chain, signing, trust
from . import db as dbm
from .bundle import (
    BUNDLE_FORMAT,
    LEGACY_FORMAT,
    SECTIONS,
    UNSIGNED_FORMAT,
    bundle_sections,
    collector_paused,
    fsync,
    same_hands,
    same_json,
)
from .bundle_text import read_lines, values
from .checks import MAX_INT, check_text, shown
from .errors import BundleError, RecordIntegrityError, StorageError, TournamentExistsError
from .models import HandStatus, PlayerStatus, VersionAction
from .referees import store_pin


def _get(d: Any, key: str, path: str, kind: type | tuple[type, ...], *,
         optional: bool = False, default: Any = None) -> Any:
    if not isinstance(d, dict):
        raise BundleError.of(path, "not_object", type=type(d).__name__)
    if key not in d or d[key] is None:
        if optional:
            return default
        raise BundleError.of(f"{path}.{key}" if path else key, "missing_field")
    v = d[key]
    if isinstance(v, bool) and kind in (int, (int,)):
        raise BundleError.of(f"{path}.{key}" if path else key, "not_number", got=v)
    if not isinstance(v, kind):
        kinds = [kind] if isinstance(kind, type) else list(kind)
        raise BundleError.of(f"{path}.{key}" if path else key, "wrong_type",
                             types=[k.__name__ for k in kinds], type=type(v).__name__)
    if isinstance(v, int) and not isinstance(v, bool) and abs(v) > MAX_INT:
        raise BundleError.of(f"{path}.{key}" if path else key, "bad_int", max=MAX_INT,
                             got=shown(v))
    return v


def _list(d: Any, key: str, path: str) -> list[Any]:
    return _get(d, key, path, list, optional=True, default=[])


def load_bundle(source: str | Path | Mapping[str, Any]) -> dict[str, Any]:
    """A bundle's document (from a file, or given as values)."""
    return read_bundle(source)[0]


def read_bundle(source: str | Path | Mapping[str, Any], deferred: Collection[str] = ()
                ) -> tuple[dict[str, Any], dict[str, list[str]]]:
    """A bundle's document, and the lines its chain and hands were written on, where they
    are laid out as :func:`.bundle.write_json` writes them (:mod:`.bundle_text`: each line
    is the very text its element was read from). ``deferred``: those of these sections read
    as a :class:`.bundle_text.Deferred` (their values parsed only when asked for)."""
    if isinstance(source, Mapping):  # a copy: import lets go of its chain as it goes
        data = dict(source)
        if isinstance(data.get("chain"), list):
            data["chain"] = list(data["chain"])
        return data, {}
    try:
        raw = read_limited(source, BUNDLE_LIMIT)
    except OSError as e:
        raise BundleError.of("file", "file_unreadable_os", source=str(source),
                             detail=os_reason(e)) from None
    try:
        read = read_lines(raw.decode("utf-8-sig"), deferred)
    except UnicodeDecodeError:
        read = None
    if read is not None:
        data, lines = read
    else:
        try:  # the shared reader: "FILE is empty", the bad byte, deep nesting, huge numbers
            data, lines = parse_json(raw, str(source)), {}
        except RecordError as e:
            raise BundleError.like("file", e) from None
    if not isinstance(data, dict):
        raise BundleError.of("file", "bundle_not_object", got=json_kind(data))
    return data, lines


def _written_text(line: str, e: dict[str, Any]) -> str | None:
    """The hashed text of a chain entry ``e`` read from the ``line`` it was written on
    (:func:`_entry_texts` wrote it there with its hash and signature after it), or None."""
    h, sig = e.get("hash"), e.get("sig")
    tail = f',"hash":"{h}"' + (f',"sig":"{sig}"' if isinstance(sig, str) else "") + "}"
    if sig is not None and not isinstance(sig, str) or not line.endswith(tail):
        return None
    return line[:-len(tail)] + "}"


HeadPin = str | Callable[[str], str] | None


def import_bundle(cls: Any, source: str | Path | Mapping[str, Any], db_path: Path, *,
                  legacy: bool = False, key: str | None = None, head_pin: HeadPin = None,
                  **kwargs: Any) -> Any:
    """Create ``db_path`` from a bundle, all or nothing, after checking all of it.

    A current bundle is rebuilt from its chain alone (every hash, every link, every
    signature, the head), then verified like ``referee-app verify`` (every settlement under
    its stored settings), and its readable sections must equal what the chain rebuilt.
    ``key``: the record must be signed by that key (a fingerprint, at least 16 hex digits).
    ``head_pin``: the head referee's new PIN on this desk (or a function asked with their
    name), needed when the tournament has referees: no PIN travels in a bundle. A bundle
    from before the chain imports only with ``legacy=True``: it is settled under the
    current rules and the chain records that it was imported that way."""
    with collector_paused():
        return _import(cls, source, db_path, legacy=legacy, key=key, head_pin=head_pin,
                       **kwargs)


def _import(cls: Any, source: str | Path | Mapping[str, Any], db_path: Path, *,
            legacy: bool, key: str | None, head_pin: HeadPin, **kwargs: Any) -> Any:
    # the hands only compared with the record's own text, line by line (bundle_text.Deferred)
    data, lines = read_bundle(source, deferred=("hands",))
    fmt = data.get("format")
    if fmt == LEGACY_FORMAT and not legacy:
        raise BundleError.of("format", "legacy_bundle", format=LEGACY_FORMAT)
    if fmt not in (BUNDLE_FORMAT, UNSIGNED_FORMAT, LEGACY_FORMAT):
        raise BundleError.of("format", "bad_bundle_format", want=BUNDLE_FORMAT, got=fmt)
    wanted = signing.normalise_fingerprint(key) if key is not None else None
    if db_path.exists() and db_path.stat().st_size > 0:
        raise TournamentExistsError.of("db", "import_target_exists", path=str(db_path))
    tmp = db_path.with_name(f".{db_path.name}.importing")
    _cleanup(tmp)
    try:
        if fmt == LEGACY_FORMAT:
            if wanted is not None:  # made before signing: no key can have signed it
                raise BundleError.of("key", "bundle_not_signed", key=signing.short(wanted))
            t = _import_legacy(cls, {k: values(v) for k, v in data.items()}, tmp)
        else:
            t = _import_chain(cls, data, tmp, wanted, head_pin, lines)
        t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        t.db.close()
        t.store.closed = True
        fsync(tmp)
        os.replace(tmp, db_path)
        fsync(db_path.parent)  # make the rename itself durable
    except BaseException:
        _cleanup(tmp)
        raise
    _cleanup(tmp)
    return cls.open(db_path, **kwargs)


def _import_chain(cls: Any, data: dict[str, Any], tmp: Path, wanted: str | None,
                  head_pin: HeadPin, lines: Mapping[str, list[str]] | None = None) -> Any:
    entries_in = _get(data, "chain", "", list)
    chain_lines = (lines or {}).get("chain")  # the text each entry was read from
    _get(data, "head", "", dict)  # there before the chain is read (named first)
    upgraded = data.get("format") == UNSIGNED_FORMAT

    bodies: list[str] = []  # each entry's canonical text: hashed, then stored as it is
    value: list[dict[str, Any]] = []  # the value of the text just given (not parsed again)

    def texts() -> Any:
        for i, e in enumerate(entries_in):
            if not isinstance(e, dict) or not isinstance(e.get("hash"), str):
                raise BundleError.of(f"chain[{i}]", "chain_entry_shape")
            value[:] = [{k: v for k, v in e.items() if k not in _BESIDE}]
            # the text as written, when it is (its hash says so, below): not written again
            written = None
            if chain_lines is not None:
                # the line is let go once its text is taken: the next text is made in its
                # memory (the chain's lines are most of a bundle: 74 MiB at 8,000 hands)
                written, chain_lines[i] = _written_text(chain_lines[i], e), ""
            bodies.append(written if written is not None else chain.canonical(value[0]))
            yield bodies[-1], e["hash"]

    def canonical(seq: int) -> str:
        """The entry's canonical text, where the line it was on was not what was hashed."""
        bodies[seq - 1] = chain.canonical(value[0])
        return bodies[seq - 1]

    def parsed() -> Any:
        while True:
            yield value[0]

    redacted = chain.redaction_map(e.get("detail") for e in entries_in if isinstance(e, dict)
                                   and e.get("action") == chain.MIGRATE_ACTION)
    signatures = trust.Signatures(every=True, many=len(entries_in))  # from outside: each one
    try:
        entries = []
        for e in chain.read_entries(texts(), redacted, values=parsed(), again=canonical):
            raw = entries_in[e.seq - 1]
            if (not upgraded and e.seq not in redacted
                    and chain.may_hold_secret(bodies[e.seq - 1]) and chain.has_secret(raw)):
                raise BundleError.of(f"chain[{e.seq - 1}]", "secret_in_chain", seq=e.seq)
            signatures.see(e, raw.get("sig") if isinstance(raw.get("sig"), str) else
                           (None if raw.get("sig") is None else ""))
            entries.append(e)
        # the signatures go on being checked on their thread while the record is rebuilt;
        # what they found is waited for before the import is kept (and named before any
        # problem met later, as the first)
        signatures.finish(wait=False)
    except chain.ChainError as e:
        raise _chain_problem(signatures.first_bad(before=e.seq) or e) from None
    except BaseException:
        signatures.first_bad()
        raise
    try:
        return _rebuild(cls, data, tmp, wanted, head_pin, entries, bodies, entries_in,
                        signatures, upgraded)
    except BaseException:
        bad = signatures.first_bad()
        if bad is not None:
            raise _chain_problem(bad) from None
        raise


def _chain_problem(e: chain.ChainError) -> BundleError:
    """A chain's problem as the bundle's: its field the entry's place in the list."""
    return BundleError(f"chain[{(e.seq or 1) - 1}]", e.problem, code=e.code, params=e.params)


def _replay(entries: list[chain.Entry], conn: sqlite3.Connection) -> None:
    """The record tables rebuilt from the chain's rows: pooled, as ``verify`` replays (a
    table's inserts of many entries in one ``executemany``; entry by entry took a tenth of
    an import at 8,000 hands), and where that fails, again entry by entry, which names the
    entry whose rows cannot be applied."""
    try:
        chain.replay(entries, conn, "main", pooled=True)
        return
    except chain.ChainError:
        for table in chain.RECORD_TABLES:
            conn.execute(f"DELETE FROM main.{table}")
    try:
        chain.replay(entries, conn, "main")
    except chain.ChainError as e:
        raise _chain_problem(e) from None


def _rebuild(cls: Any, data: dict[str, Any], tmp: Path, wanted: str | None,
             head_pin: HeadPin, entries: list[chain.Entry], bodies: list[str],
             entries_in: list[Any], signatures: trust.Signatures, upgraded: bool) -> Any:
    """The database rebuilt from a bundle's chain, read and checked by
    :func:`_import_chain` (its signatures perhaps still being checked): head, key, rows,
    verify, the readable sections, then the head referee's PIN."""
    head = _get(data, "head", "", dict)
    last = entries[-1].hash if entries else chain.GENESIS
    if head.get("entries") != len(entries) or head.get("digest") != last:
        raise BundleError.of("head", "head_mismatch", said=head.get("entries"),
                             said_digest=str(head.get("digest"))[:12], count=len(entries),
                             digest=last[:12])
    if not entries:
        raise BundleError.of("chain", "chain_empty")
    keys, _ = signatures.summary()
    said_key = data.get("signing_key")
    if said_key is not None and (not isinstance(said_key, dict) or not keys
                                 or said_key.get("fingerprint") != keys[-1][0]):
        raise BundleError.of("signing_key", "bundle_key_differs")
    if wanted is not None:
        found = trust.check_key(keys, wanted)
        if found is not None:
            p = dict(found[1])
            code = p.pop("code")
            raise BundleError.of(f"chain[{found[0] - 1}]", code, **p)
    db = dbm.connect(tmp)
    t = None
    try:
        dbm.create_schema(db)
        with dbm.write_transaction(db, tmp):
            _replay(entries, db.conn)
            db.conn.executemany(
                "INSERT INTO chain(seq, at, referee, action, entry, hash, sig) "
                "VALUES (?,?,?,?,?,?,?)",
                ((e.seq, e.at, e.referee, e.action, body, e.hash, raw.get("sig"))
                 for e, body, raw in zip(entries, bodies, entries_in, strict=True)))
            db.execute("INSERT INTO chain_head(id, entries, hash) VALUES (1, ?, ?)",
                       (len(entries), last))
        # the chain is in the file: its parsed entries and their texts, most of an import's
        # memory, are let go before verify reads the file (which then reuses that memory)
        for held in (entries, bodies, entries_in):
            held.clear()
        t = cls(tmp, db, backup_every=0)
        edited: list[str] = []

        def compare_sections() -> None:
            rebuilt = bundle_sections(t, with_hands=False)
            for key in SECTIONS:
                d = (same_hands(data.get(key), t) if key == "hands"
                     else same_json(data.get(key), rebuilt.get(key), key))
                if d is not None:
                    edited.append(d)
                    return

        try:
            # the chain was checked (hashes, links, signatures) and replayed just above; the
            # readable sections are compared while the worker settles (a settlement that
            # does not reproduce is still named first)
            t.record.verify(replayed=signatures.summary(), meanwhile=compare_sections)
        except RecordIntegrityError as e:
            seq = e.seq
            raise BundleError.like(f"chain[{seq - 1}]" if seq else "chain", e) from None
        except StorageError as e:
            if not e.field:
                raise BundleError.like("chain", e) from None
            raise BundleError.of("chain", "field_problem", field=e.field,
                                 why=nested(e)) from None
        bad = signatures.first_bad()
        if bad is not None:
            raise _chain_problem(bad)
        if edited:
            raise BundleError.of(edited[0], "section_edited")
        if upgraded:
            _upgrade_unsigned(t)
        _head_pin(t, head_pin)
        return t
    except BaseException:
        with contextlib.suppress(Exception):
            db.close()
        raise


#: the keys of a bundle's chain entry that are not part of the hashed entry
_BESIDE = ("hash", "sig")


def _upgrade_unsigned(t: Any) -> None:
    """A ``/2`` bundle (before signed heads) carried PIN hashes in its entries: they are not
    kept on this desk (the referees' PINs are not imported), and like a file's upgrade the
    chain gets an entry listing the redacted form of each, so this record exports without
    them. Nothing to list: nothing is added (the record stays exactly the bundle's)."""
    redacted = chain.redactions(t.db.execute("SELECT seq, entry FROM chain ORDER BY seq"))
    if not redacted:
        return
    with dbm.write_transaction(t.db, t.path):
        chain.append(t.db.conn, referee="", action=chain.MIGRATE_ACTION, at=dbm.now(),
                     detail={"from_format": UNSIGNED_FORMAT, "pins_moved_out": [],
                             "redacted": redacted}, rows=[])


def _head_pin(t: Any, head_pin: HeadPin) -> None:
    """The head referee's PIN on this desk: none travels in a bundle (see the module doc)."""
    if not t.store.has_referees():
        return
    name = t.info.head_referee
    pin = head_pin(name) if callable(head_pin) else head_pin
    if pin is None:
        raise BundleError.of("head_pin", "import_needs_head_pin", name=name)
    with dbm.write_transaction(t.db, t.path):
        store_pin(t.db, name, pin, dbm.now())


def _import_legacy(cls: Any, data: dict[str, Any], tmp: Path) -> Any:
    info = _get(data, "tournament", "", dict)
    referees = _get(info, "referees", "tournament", list, optional=True, default=[])
    for i, r in enumerate(referees):
        if not isinstance(r, str):
            raise BundleError.of(f"tournament.referees[{i}]", "not_a_name", got=r)
    try:
        t = cls.create(tmp, _get(info, "name", "tournament", str),
                       ruleset=_get(info, "ruleset", "tournament", str),
                       start_date=_get(info, "start_date", "tournament", str, optional=True,
                                       default=""),
                       end_date=_get(info, "end_date", "tournament", str, optional=True,
                                     default=""),
                       venue=_get(info, "venue", "tournament", str, optional=True, default=""),
                       stake=_get(info, "stake", "tournament", int, optional=True),
                       tie_break=_get(info, "tie_break", "tournament", list, optional=True,
                                      default=list(_default_tie_break())),
                       referees=referees,
                       head_referee=_get(info, "head_referee", "tournament", str,
                                         optional=True, default=""),
                       cap_fan=_get(info, "cap_fan", "tournament", int, optional=True),
                       verified_only=_get(info, "verified_only", "tournament", bool,
                                          optional=True, default=False),
                       backup_every=0)
    except BundleError:
        raise
    except StorageError as e:
        raise BundleError.like(f"tournament.{e.field}", e) from None
    try:
        with t.store.write():
            created = _get(info, "created_at", "tournament", str, optional=True, default="")
            if created:
                t.db["meta"].update("created_at", {"value": json.dumps(created)})
            where = ["bundle"]
            try:
                old_log = _fill(t, data, where)
            except sqlite3.IntegrityError as e:
                raise BundleError.of(where[0], "conflicting_entry", detail=str(e)) from None
            t.store.note("", "event.import_legacy", {"from_format": LEGACY_FORMAT,
                                               "settled_under": t.settings(), "log": old_log},
                   dbm.now())
    except BaseException:
        with contextlib.suppress(Exception):
            t.db.close()
        raise
    return t


def _default_tie_break() -> tuple[str, ...]:
    from .models import DEFAULT_TIE_BREAK

    return DEFAULT_TIE_BREAK


def _cleanup(tmp: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(str(tmp) + suffix).unlink()


def _fill(t: Any, data: dict[str, Any], where: list[str]) -> list[Any]:
    """Insert everything; ``where[0]`` tracks the entry being read for error messages."""
    db = t.db
    seats = t.store.seats()
    settings_now = t.settings()
    names: dict[str, int] = {}
    for i, p in enumerate(_list(data, "players", "")):
        path = where[0] = f"players[{i}]"
        pid = _get(p, "id", path, int)
        name = check_text(_get(p, "name", path, str), f"{path}.name")
        if not name:
            raise BundleError.of(f"{path}.name", "empty_name")
        if name in names:
            raise BundleError.of(f"{path}.name", "player_listed_twice", name=name)
        status = _get(p, "status", path, str, optional=True, default="active")
        try:
            PlayerStatus(status)
        except ValueError:
            raise BundleError.of(f"{path}.status", "unknown_status", got=status) from None
        if pid in names.values():
            raise BundleError.of(f"{path}.id", "id_twice", id=pid)
        names[name] = pid
        db["players"].insert({
            "id": pid, "name": name,
            "name_latin": _get(p, "name_latin", path, str, optional=True, default=""),
            "club": _get(p, "club", path, str, optional=True, default=""), "status": status,
            "registered_at": _get(p, "registered_at", path, str, optional=True, default=""),
            "team": check_text(_get(p, "team", path, str, optional=True, default=""),
                               f"{path}.team")})

    def pid_of(name: Any, path: str) -> int:
        if not isinstance(name, str) or name not in names:
            raise BundleError.of(path, "bundle_unknown_player", name=name)
        return names[name]

    for i, r in enumerate(_list(data, "rounds", "")):
        path = where[0] = f"rounds[{i}]"
        n = _get(r, "number", path, int)
        db["rounds"].insert({
            "number": n, "seed": _get(r, "seed", path, int, optional=True),
            "created_at": _get(r, "created_at", path, str, optional=True, default=""),
            "created_by": _get(r, "created_by", path, str, optional=True, default="")})
        seated: dict[int, tuple[Any, str]] = {}
        for tk, row in _get(r, "tables", path, dict).items():
            tpath = f"{path}.tables.{tk}"
            if not str(tk).isdigit() or int(tk) < 1:
                raise BundleError.of(tpath, "bad_table_number")
            if not isinstance(row, dict):
                raise BundleError.of(tpath, "not_seats_object")
            for s in row:
                if s not in seats:
                    raise BundleError.of(f"{tpath}.{s}", "unknown_seat_here", seats=list(seats))
            for s in seats:
                if s not in row:
                    raise BundleError.of(f"{tpath}.{s}", "seat_empty")
                pid = pid_of(row[s], f"{tpath}.{s}")
                if pid in seated:
                    raise BundleError.of(f"{tpath}.{s}", "also_seated", name=row[s],
                                         table=seated[pid][0], seat=seated[pid][1])
                seated[pid] = (tk, s)
                db["seats"].insert({"round": n, "table_no": int(tk), "seat": s,
                                    "player_id": pid})
        for j, b in enumerate(_list(r, "byes", path)):
            db["byes"].insert({"round": n, "player_id": pid_of(b, f"{path}.byes[{j}]")})

    used: set[tuple[int, int, int]] = set()
    for i, h in enumerate(_list(data, "hands", "")):
        path = where[0] = f"hands[{i}]"
        hid = _get(h, "id", path, int)
        rnd, tbl, hno = (_get(h, k, path, int) for k in ("round", "table", "hand_no"))
        if (rnd, tbl, hno) in used:
            raise BundleError.of(f"{path}.hand_no", "hand_twice", round=rnd, table=tbl,
                                 hand_no=hno)
        used.add((rnd, tbl, hno))
        versions = _get(h, "versions", path, list)
        if not versions:
            raise BundleError.of(f"{path}.versions", "no_versions")
        db.execute("INSERT INTO hands(id, round, table_no, hand_no, current_version, status) "
                   "VALUES (?,?,?,?,?,?)", (hid, rnd, tbl, hno, 1, "entered"))
        for j, v in enumerate(versions):
            vpath = f"{path}.versions[{j}]"
            num = _get(v, "version", vpath, int)
            if num != j + 1:
                raise BundleError.of(f"{vpath}.version", "wrong_version", want=j + 1, got=num)
            try:
                action = VersionAction(_get(v, "action", vpath, str))
                status = HandStatus(_get(v, "status", vpath, str))
            except ValueError:
                raise BundleError.of(vpath, "bad_action_status", action=v.get("action"),
                                     got=v.get("status")) from None
            raw = _get(v, "record", vpath, dict)
            try:
                rec = HandRecord.from_dict(raw)
                if rec.ruleset != t.store.ruleset_id():
                    raise BundleError.of(f"{vpath}.record.ruleset", "hand_other_ruleset",
                                         got=rec.ruleset, plays=t.store.ruleset_id())
                rec, ids = t.hands.match(rec, rnd, tbl)
            except BundleError:
                raise
            except (RecordError, StorageError) as e:
                raise BundleError.like(".".join(x for x in (f"{vpath}.record", e.field) if x),
                                       e) from None
            s = settle(rec, t.rules_for(settings_now))
            ot = _get(v, "override_totals", vpath, dict, optional=True)
            orr = _get(v, "override_reason", vpath, str, optional=True)
            try:
                totals = t.hands.check_override(s, seats, orr, ot, legacy=True)
            except StorageError as e:
                raise BundleError.like(f"{vpath}.record", e) from None
            t.hands.insert_version(hid, num, action, status, rec.to_dict(), s.to_dict(),
                              settings_now, ids, totals,
                              referee=_get(v, "referee", vpath, str, optional=True, default=""),
                              at=_get(v, "at", vpath, str, optional=True, default=""),
                              reason=_get(v, "reason", vpath, str, optional=True),
                              override_reason=orr, override_totals=ot)

    for i, p in enumerate(_list(data, "penalties", "")):
        path = where[0] = f"penalties[{i}]"
        ids = [pid_of(n, f"{path}.players[{k}]")
               for k, n in enumerate(_get(p, "players", path, list))]
        pen_id = _get(p, "id", path, int)
        db["penalties"].insert({
            "id": pen_id, "players": json.dumps(ids), "chips": _get(p, "chips", path, int),
            "reason": _get(p, "reason", path, str),
            "clause": _get(p, "clause", path, str, optional=True),
            "referee": _get(p, "referee", path, str, optional=True, default=""),
            "at": _get(p, "at", path, str, optional=True, default=""),
            "zero_sum": int(bool(_get(p, "zero_sum", path, bool, optional=True, default=False))),
            "round": _get(p, "round", path, int, optional=True)})
        for name, c in _get(p, "entries", path, dict).items():
            if isinstance(c, bool) or not isinstance(c, int):
                raise BundleError.of(f"{path}.entries.{name}", "not_chips", got=c)
            db.execute("INSERT INTO penalty_entries(penalty_id, player_id, chips) VALUES (?,?,?)",
                       (pen_id, pid_of(name, f"{path}.entries.{name}"), c))
        void = _get(p, "void", path, dict, optional=True)
        if void:
            db["penalty_voids"].insert({
                "penalty_id": pen_id, "reason": _get(void, "reason", f"{path}.void", str),
                "referee": _get(void, "referee", f"{path}.void", str, optional=True, default=""),
                "at": _get(void, "at", f"{path}.void", str, optional=True, default="")})

    old_log = []
    for i, e in enumerate(_list(data, "log", "")):
        where[0] = f"log[{i}]"
        if not isinstance(e, dict):
            raise BundleError.of(where[0], "not_object", type=type(e).__name__)
        old_log.append(e)
    return old_log
