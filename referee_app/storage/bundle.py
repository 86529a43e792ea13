"""Whole-tournament JSON bundle (``referee-tournament/3``): export and lossless import.

A bundle holds the readable sections (the tournament info, players with ids, every round's
seating and byes, every version of every hand with its settlement and settings, penalties
with their voids), the whole chain (each entry with its hash and the signature of the head
it made), the head, and the record's public key (``signing_key``). Import rebuilds the
database from the chain alone, checks every hash, link and signature (``key=``: and that
they are all by that key), verifies it like ``referee-app verify``, and requires the
readable sections to equal what the chain rebuilt. It builds the database in a temporary
file next to the target and renames it only when everything has been read, so a bad
bundle leaves nothing.

No bundle carries anything derived from a PIN: PIN hashes live outside the record, and the
entries that older files wrote with one go out redacted (each PIN hash replaced by its
commitment, checked on import against the upgrade entry that lists them). Importing a
tournament with referees therefore asks a new PIN for its head referee; every other referee
sets theirs on the new head desk before their first change.

Formats read: ``/3`` (this one), ``/2`` (before signed heads: its PIN hashes are not kept,
and the import's upgrade entry says so), ``/1`` (before the chain, with ``legacy=True``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from referee_app.core import HandRecord, RecordError, settle
from referee_app.core.errors import nested, os_reason
from referee_app.core.input_files import BUNDLE_LIMIT, read_limited
from referee_app.core.jsonin import json_kind, parse_json

from . import chain, signing, trust
from . import db as dbm
from .checks import MAX_INT, check_text, dump, shown
from .errors import BundleError, RecordIntegrityError, StorageError, TournamentExistsError
from .files import atomic_file
from .models import HandStatus, PlayerStatus, VersionAction
from .referees import store_pin

BUNDLE_FORMAT = "referee-tournament/3"
#: bundles written before signed heads (their older entries carry PIN hashes)
UNSIGNED_FORMAT = "referee-tournament/2"
#: bundles written before the tamper-evident record: no chain, no stored settlements
LEGACY_FORMAT = "referee-tournament/1"
SECTIONS = ("tournament", "players", "rounds", "hands", "penalties", "stages")


def bundle_sections(t: Any, *, raw_hands: bool = False, with_hands: bool = True
                    ) -> dict[str, Any]:
    """The readable part of a bundle: what the record holds, as people read it. On import it
    must equal what the chain rebuilds, so editing it is as visible as editing the chain.
    ``raw_hands``: the hands as JSON texts made from the stored ones (:func:`write_bundle`);
    ``with_hands=False``: without them (an import compares them with :func:`same_hands`)."""
    info = {**t.info.to_dict(), "ruleset_digest": t.settings()["ruleset_digest"]}
    # a team only when set: bundles written before teams existed stay identical
    players = [{"id": p.id, "name": p.name, "name_latin": p.name_latin, "club": p.club,
                "status": p.status.value, "registered_at": p.registered_at,
                **({"team": p.team} if p.team else {})}
               for p in t.players.list()]
    rounds = []
    for n, seed, at, by in t.db.execute("SELECT number, seed, created_at, created_by FROM "
                                        "rounds ORDER BY number").fetchall():
        s = t.rounds.seating(n)
        entry = {"number": n, "seed": seed, "created_at": at, "created_by": by,
                 "tables": {str(k): v for k, v in s.tables.items()}, "byes": list(s.byes)}
        state = t.rounds.state(n)
        if state is not None:  # started (round start): only then, as bundles before had none
            entry["state"] = {"in_play": state.in_play, "started_at": state.started_at,
                              "started_by": state.started_by, "ends_at": state.ends_at,
                              "minutes": state.minutes, "added": state.added}
        rounds.append(entry)
    hands = (_hand_texts(t) if raw_hands else _hands(t)) if with_hands else []
    penalties = []
    for p in t.penalties.list():
        void = None
        if p.void:
            r = t.db.execute("SELECT reason, referee, at FROM penalty_voids WHERE "
                             "penalty_id=?", (p.id,)).fetchone()
            void = {"reason": r[0], "referee": r[1], "at": r[2]}
        penalties.append({"id": p.id, "players": list(p.players), "chips": p.chips,
                          "reason": p.reason, "clause": p.clause, "referee": p.referee,
                          "at": p.at, "zero_sum": p.zero_sum, "round": p.round,
                          "entries": dict(p.entries), "void": void,
                          # only when in points: bundles of chips penalties stay as they were
                          **({"unit": p.unit} if p.unit != "chips" else {})})
    out = {"tournament": info, "players": players, "rounds": rounds, "hands": hands,
           "penalties": penalties}
    names = {p["id"]: p["name"] for p in players}
    stages = [{"number": st.number, "name": st.name, "after_round": st.after_round,
               "top": st.top, "carry": st.carry, "referee": st.referee, "at": st.at,
               "players": [names.get(pid, pid) for pid in st.players]}
              for st in t.stages.list()[1:]]
    if stages:  # only when cut: bundles of events without stages stay as they were
        out["stages"] = stages
    return out


#: every version in one query (a query per hand, as ``t.hands.versions`` makes, cost a third
#: of an export); the fields as ``t.hands.versions`` gives them, in that order
_VERSIONS = ("SELECT hand_id, version, action, status, referee, at, reason, override_reason, "
             "override_totals, record, settlement, settings{valid} FROM hand_versions "
             "ORDER BY hand_id, version")
#: SQLite's own check that the stored texts are JSON (in C, without building the values)
_VALID = (", json_valid(record), json_valid(settlement), json_valid(settings), "
          "override_totals IS NULL OR json_valid(override_totals)")
_STORED_JSON = ("record", "settlement", "settings", "override_totals")


def _hand_rows(t: Any) -> tuple[list[dict[str, Any]], dict[int, list[Any]]]:
    hands = [{"id": hid, "round": rnd, "table": tbl, "hand_no": hno, "versions": []}
             for hid, rnd, tbl, hno in t.db.execute("SELECT id, round, table_no, hand_no FROM "
                                                    "hands ORDER BY id")]
    return hands, {h["id"]: h["versions"] for h in hands}


def _hands(t: Any) -> list[dict[str, Any]]:
    """The hands section as values."""
    hands, by_id = _hand_rows(t)
    loads = json.loads
    for (hid, version, action, status, referee, at, reason, override_reason, override_totals,
         record, settlement, settings) in dbm.fetch_all(t.db.conn, _VERSIONS.format(valid="")):
        by_id[hid].append({"version": version, "action": VersionAction(action).value,
                           "status": HandStatus(status).value, "referee": referee, "at": at,
                           "reason": reason, "override_reason": override_reason,
                           "override_totals": loads(override_totals) if override_totals
                           else None, "record": loads(record),
                           "settlement": loads(settlement), "settings": loads(settings)})
    return hands


def _hand_texts(t: Any) -> Encoded:
    """The hands section as JSON texts, one a hand, the same values as :func:`_hands`: the
    stored record, settlement and settings spliced in as they are, once SQLite found each
    to be JSON (a damaged one is refused, naming the hand and version)."""
    hands, by_id = _hand_rows(t)
    for (hid, version, action, status, referee, at, reason, override_reason, override_totals,
         record, settlement, settings, *valid) in dbm.fetch_all(t.db.conn,
                                                                _VERSIONS.format(valid=_VALID)):
        if not all(valid):
            column = _STORED_JSON[[bool(v) for v in valid].index(False)]
            raise StorageError.of("hand_versions", "stored_value_not_json", hand_id=hid,
                                  version=version, column=column)
        by_id[hid].append(_version_text(
            {"version": version, "action": VersionAction(action).value,
             "status": HandStatus(status).value, "referee": referee, "at": at,
             "reason": reason, "override_reason": override_reason},
            override_totals or "null", record, settlement, settings))
    return Encoded(_hand_text(h, h["versions"]) for h in hands)


#: a version's fields in a bundle, in order: those written as values, then the stored texts
_VERSION_FIELDS = ("version", "action", "status", "referee", "at", "reason", "override_reason")
_VERSION_TEXTS = ("override_totals", "record", "settlement", "settings")
_HAND_FIELDS = ("id", "round", "table", "hand_no")


def _version_text(fields: dict[str, Any], *texts: str) -> str:
    head = _dumps(fields)[:-1]
    return head + "".join(f', "{k}": {v}' for k, v in zip(_VERSION_TEXTS, texts, strict=True)) + "}"


def _hand_text(hand: Mapping[str, Any], versions: list[str]) -> str:
    return (_dumps({k: hand[k] for k in _HAND_FIELDS})[:-1] +
            f', "versions": [{", ".join(versions)}]}}')


def _given_hand_text(hand: Any) -> str | None:
    """A bundle's hand (as read) in the form of :func:`_hand_texts`, or None when it is not
    of that shape (other keys, or in another order): then it is compared value by value."""
    if type(hand) is not dict or list(hand) != [*_HAND_FIELDS, "versions"]:
        return None
    versions = hand["versions"]
    if type(versions) is not list:
        return None
    out = []
    for v in versions:
        if type(v) is not dict or list(v) != [*_VERSION_FIELDS, *_VERSION_TEXTS]:
            return None
        out.append(_version_text({k: v[k] for k in _VERSION_FIELDS},
                                 *(dump(v[k]) for k in _VERSION_TEXTS)))
    return _hand_text(hand, out)


def same_hands(given: Any, t: Any) -> str | None:
    """Where a bundle's hands section differs from the hands of ``t`` (a JSON path), or None.

    Each hand is written in the stored texts' form and compared as text (the stored record,
    settlement and settings are not parsed: a third of an import's time at 8,000 hands
    went to parsing and writing them out again); a hand whose text differs is compared
    value by value, as :func:`same_json` does, to name the place."""
    texts = _hand_texts(t)
    if type(given) is not list or len(given) != len(texts):
        return same_json(given, _hands(t), "hands")
    for i, (hand, text) in enumerate(zip(given, texts, strict=True)):
        if _given_hand_text(hand) != text:
            d = first_difference(hand, json.loads(text), f"hands[{i}]")
            if d is not None:
                return d
    return None


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a bundle's millions of (acyclic) values are
    built: its full passes over them were a third of an export's CPU at 8,000 hands."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@dataclass(frozen=True, slots=True)
class BundleWritten:
    """What :func:`write_bundle` wrote: the path and how many of each it holds."""

    path: Path
    players: int
    rounds: int
    hands: int
    penalties: int
    entries: int


def export_bundle(t: Any) -> dict[str, Any]:
    """The bundle of ``t`` as values: the readable sections, the record's public key, the
    whole chain (each entry with its hash and signature; an older entry holding a PIN hash
    in its redacted form) and its head."""
    with _collector_paused(), dbm.read_transaction(t.db):
        sections = bundle_sections(t)
        entries = [json.loads(text) for text in _entry_texts(t, dbm.fetch_all(
            t.db.conn, "SELECT seq, entry, hash, sig FROM chain ORDER BY seq"))]
        return _document(t, sections, entries)


def write_bundle(t: Any, path: str | Path) -> BundleWritten:
    """Write the bundle of ``t`` to ``path`` (atomically): the same document as
    :func:`export_bundle`, one line per player, round, hand, penalty and chain entry.

    Written from the stored texts: a hand's record, settlement and settings and a chain
    entry go out as the file holds them, not parsed and written again (that was 80 % of an
    export's time at 8,000 hands). Each chain entry's text is checked against its hash and
    each stored value is checked to be JSON by SQLite, so a damaged file is refused, never
    written out as a bundle that no import reads."""
    path = Path(path)
    with _collector_paused():
        with dbm.read_transaction(t.db):
            sections = bundle_sections(t, raw_hands=True)
            entries = _entry_texts(t, dbm.fetch_all(
                t.db.conn, "SELECT seq, entry, hash, sig FROM chain ORDER BY seq"),
                checked=True)
            doc = _document(t, sections, Encoded(entries))
        with atomic_file(path) as f:
            write_json(doc, f)
        _fsync(path.parent)
    return BundleWritten(path, len(sections["players"]), len(sections["rounds"]),
                         len(sections["hands"]), len(sections["penalties"]), len(entries))


def _document(t: Any, sections: dict[str, Any], entries: list[Any]) -> dict[str, Any]:
    n, digest = chain.head(t.db.conn)
    public = t.store.public_key()
    return {"format": BUNDLE_FORMAT, **sections,
            **({"signing_key": {"ed25519": public.raw.hex(),
                                "fingerprint": public.fingerprint}} if public else {}),
            "chain": entries, "head": {"entries": n, "digest": digest}}


def _entry_texts(t: Any, rows: list[tuple[Any, ...]], *, checked: bool = False
                 ) -> list[str]:
    """Each chain entry as the bundle carries it, as JSON text: the stored entry with its
    hash and signature beside it; an entry with a PIN hash in its redacted form, and one
    that holds a PIN hash not redacted refused (never written so since schema 3).

    ``checked``: each stored text must hash to its stored hash (then it is the canonical
    text written, and goes out as it is); one that does not is parsed, so a damaged one is
    named rather than copied."""
    redacted = chain.stored_redaction_map(t.db.conn)
    out = []
    for seq, text, h, sig in rows:
        beside = f',"hash":"{h}"' + (f',"sig":"{sig}"' if sig is not None else "") + "}"
        plain = (seq not in redacted and not chain.may_hold_secret(text)
                 and (not checked or chain.sha256(text) == h) and text.endswith("}"))
        if plain:
            out.append(text[:-1] + beside if text != "{}" else "{" + beside[1:])
            continue
        try:
            e = json.loads(text)
        except ValueError:
            raise StorageError.of("chain", "stored_entry_not_json", seq=seq) from None
        if not isinstance(e, dict):
            raise StorageError.of("chain", "stored_entry_not_json", seq=seq)
        if seq in redacted:
            e = chain.redact(e)
        elif chain.has_secret(e):  # never written so since schema 3: refuse, not leak
            raise BundleError.of(f"chain[{seq - 1}]", "secret_in_chain", seq=seq)
        e["hash"] = h
        if sig is not None:
            e["sig"] = sig
        out.append(_dumps(e))
    return out


class Encoded(list[str]):
    """A list whose items are JSON texts already: :func:`write_json` writes them as they
    are, one a line."""


_dumps = json.JSONEncoder(ensure_ascii=False).encode


def write_json(doc: Mapping[str, Any], f: IO[str]) -> None:
    """``doc`` as JSON text, one line per element of its lists (a player, a round, a hand
    with its versions, a penalty, a chain entry): readable and diffable line by line, and
    written by the json module's C encoder — ``indent=`` takes its pure-Python one, which
    spent 6 of 7 seconds of exporting 2,000 hands. An :class:`Encoded` list's items are
    written as they are."""
    f.write("{")
    for i, (key, value) in enumerate(doc.items()):
        f.write(f'{"," if i else ""}\n {_dumps(key)}: ')
        if isinstance(value, list) and value:
            f.write("[\n  ")
            f.write(",\n  ".join(value if isinstance(value, Encoded) else map(_dumps, value)))
            f.write("\n ]")
        else:
            f.write(_dumps(value))
    f.write("\n}\n")


def same_json(a: Any, b: Any, path: str) -> str | None:
    """:func:`first_difference`, told at once when ``a`` and ``b`` are written as the same
    JSON text (the usual case: the C encoder instead of a walk of every value; the same
    text is the same values of the same types, ``1`` never ``true`` or ``1.0``). Texts that
    differ (keys in another order, a value edited) are walked to name the difference."""
    dumps = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
    if dumps(a) == dumps(b):
        return None
    return first_difference(a, b, path)


def first_difference(a: Any, b: Any, path: str) -> str | None:
    """The JSON path of the first place where ``a`` and ``b`` differ (None: equal)."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in list(a) + [k for k in b if k not in a]:
            if k not in a or k not in b:
                return f"{path}.{k}" if path else str(k)
            d = first_difference(a[k], b[k], f"{path}.{k}" if path else str(k))
            if d is not None:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b, strict=False)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d is not None:
                return d
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    if a == b and type(a) is type(b):
        return None
    return path


# --------------------------------------------------------------------------- import


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


def read_bundle(source: str | Path | Mapping[str, Any]
                ) -> tuple[dict[str, Any], list[str] | None]:
    """A bundle's document, and the lines of its chain as written (one entry a line, when
    the file is laid out as :func:`write_bundle` writes it; else None)."""
    if isinstance(source, Mapping):
        return dict(source), None
    try:
        raw = read_limited(source, BUNDLE_LIMIT)
    except OSError as e:
        raise BundleError.of("file", "file_unreadable_os", source=str(source),
                             detail=os_reason(e)) from None
    try:  # the shared reader: BOM accepted, "FILE is empty", deep nesting, huge numbers
        data = parse_json(raw, str(source))
    except RecordError as e:
        raise BundleError.like("file", e) from None
    if not isinstance(data, dict):
        raise BundleError.of("file", "bundle_not_object", got=json_kind(data))
    chain_in = data.get("chain")
    return data, _chain_lines(raw, len(chain_in) if isinstance(chain_in, list) else 0)


#: where :func:`write_json` begins and ends the chain's lines
_CHAIN_OPEN, _LIST_CLOSE, _LINE_BREAK = '\n "chain": [\n  ', "\n ]", ",\n  "


def _chain_lines(raw: bytes, count: int) -> list[str] | None:
    """The chain's ``count`` lines of a bundle's text, as written (None when it is laid out
    otherwise: reformatted, or written by hand). A JSON string holds no line break, so the
    lines are the entries; whether each is the entry's hashed text is for its hash to say
    (:func:`_import_chain`)."""
    if not count:
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        return None
    start = text.find(_CHAIN_OPEN)
    if start < 0:
        return None
    start += len(_CHAIN_OPEN)
    end = text.find(_LIST_CLOSE, start)
    lines = text[start:end].split(_LINE_BREAK) if end >= 0 else []
    return lines if len(lines) == count else None


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
    with _collector_paused():
        return _import(cls, source, db_path, legacy=legacy, key=key, head_pin=head_pin,
                       **kwargs)


def _import(cls: Any, source: str | Path | Mapping[str, Any], db_path: Path, *,
            legacy: bool, key: str | None, head_pin: HeadPin, **kwargs: Any) -> Any:
    data, lines = read_bundle(source)
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
            t = _import_legacy(cls, data, tmp)
        else:
            t = _import_chain(cls, data, tmp, wanted, head_pin, lines)
        t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        t.db.close()
        t.store.closed = True
        _fsync(tmp)
        os.replace(tmp, db_path)
        _fsync(db_path.parent)  # make the rename itself durable
    except BaseException:
        _cleanup(tmp)
        raise
    _cleanup(tmp)
    return cls.open(db_path, **kwargs)


def _import_chain(cls: Any, data: dict[str, Any], tmp: Path, wanted: str | None,
                  head_pin: HeadPin, lines: list[str] | None = None) -> Any:
    entries_in = _get(data, "chain", "", list)
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
            written = _written_text(lines[i], e) if lines is not None else None
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
    signatures = trust.Signatures(every=True)  # from outside: each one checked
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
            try:
                chain.replay(entries, db.conn, "main")
            except chain.ChainError as e:
                raise _chain_problem(e) from None
            db.conn.executemany(
                "INSERT INTO chain(seq, at, referee, action, entry, hash, sig) "
                "VALUES (?,?,?,?,?,?,?)",
                ((e.seq, e.at, e.referee, e.action, body, e.hash, raw.get("sig"))
                 for e, body, raw in zip(entries, bodies, entries_in, strict=True)))
            db.execute("INSERT INTO chain_head(id, entries, hash) VALUES (1, ?, ?)",
                       (len(entries), last))
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


def _fsync(path: Path) -> None:
    """Flush a file (or a directory entry) to disk; best effort where unsupported."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


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
