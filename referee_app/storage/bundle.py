"""Whole-tournament JSON bundle (``referee-tournament/3``): its form, and export.

A bundle holds the readable sections (the tournament info, players with ids, every round's
seating and byes, every version of every hand with its settlement and settings, penalties
with their voids), the whole chain (each entry with its hash and the signature of the head
it made), the head, and the record's public key (``signing_key``). It is written one line
per player, round, hand, penalty and chain entry, from the texts the file stores.

No bundle carries anything derived from a PIN: PIN hashes live outside the record, and the
entries that older files wrote with one go out redacted (each PIN hash replaced by its
commitment, checked on import against the upgrade entry that lists them).

Import, which rebuilds a database from a bundle's chain and checks all of it:
:mod:`.bundle_import`.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from . import chain
from . import db as dbm
from .bundle_text import BREAK, CLOSE, OPEN, Deferred, values
from .checks import dump
from .errors import BundleError, StorageError
from .files import atomic_file
from .models import HandStatus, VersionAction

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

    Each hand is compared as text with the stored texts' form (:func:`_hand_texts`; the
    stored record, settlement and settings are not parsed): the line it was read from, when
    the section was read as a :class:`.bundle_text.Deferred` (each line the very text of its
    hand), else the hand written out again. The same text is the same values. A hand whose
    text differs is compared value by value, as :func:`same_json` does, to name the place."""
    texts = _hand_texts(t)
    if (type(given) is not list and not isinstance(given, Deferred)
            or len(given) != len(texts)):
        return same_json(values(given), _hands(t), "hands")
    lines = given.lines if isinstance(given, Deferred) else None
    for i, text in enumerate(texts):
        if (lines[i] if lines is not None else _given_hand_text(given[i])) != text:
            d = first_difference(given[i], json.loads(text), f"hands[{i}]")
            if d is not None:
                return d
    return None


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
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
    with collector_paused(), dbm.read_transaction(t.db):
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
    with collector_paused():
        with dbm.read_transaction(t.db):
            sections = bundle_sections(t, raw_hands=True)
            entries = _entry_texts(t, dbm.fetch_all(
                t.db.conn, "SELECT seq, entry, hash, sig FROM chain ORDER BY seq"),
                checked=True)
            doc = _document(t, sections, Encoded(entries))
        with atomic_file(path) as f:
            write_json(doc, f)
        fsync(path.parent)
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
            f.write(OPEN)  # one element a line, as import reads them (:mod:`.bundle_text`)
            f.write(BREAK.join(value if isinstance(value, Encoded) else map(_dumps, value)))
            f.write(CLOSE)
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


def fsync(path: Path) -> None:
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
