"""Saved settlements settled again: the arithmetic half of ``verify`` (pure domain).

Every saved version stores its record, the settlement computed when it was saved and the
settings it was computed under. :func:`check_range` settles the record again under those
settings and compares. It lives in the core, apart from the storage, because ``verify``
runs it in a worker process too: a spawned worker imports only this module and what it
needs (the core), not the storage layer with SQLite, sqlite-utils and the signing library,
which took a third of a second of the worker's start before it settled anything.
"""

from __future__ import annotations

import json
from typing import Any

from .errors import RecordError
from .record import HandRecord
from .settle import settle


def dump(obj: Any) -> str:
    """The text a JSON value is stored as (a record, a settlement, settings): compact, keys
    in the order given."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


#: one saved version as ``verify`` reads it: (hand id, version, record text, settlement
#: text, settings text)
Row = tuple[int, int, str, str, str]
#: (index in the rows, hand id, version, problem)
Found = tuple[int, int, int, str]


def check_range(rows: list[Row], rules_of: dict[str, Any], lo: int, hi: int,
                checked: set[tuple[str, str, str]]) -> Found | None:
    """The first version of ``rows[lo:hi]`` whose stored settlement is not what settling
    its record again under its stored settings gives, or None.

    ``rules_of``: each settings text's Ruleset (None: marked unverifiable by a migration,
    skipped; an exception: the settings could not be read). ``checked`` holds the texts
    already settled (a status change copies its version: the same texts, settled once)."""
    from_dict, loads = HandRecord.from_dict, json.loads
    for i in range(lo, hi):
        hid, version, record, settlement, settings = rows[i]
        key = (record, settlement, settings)
        if key in checked:
            continue
        checked.add(key)
        rules = rules_of.get(settings)
        if rules is None:
            continue
        if isinstance(rules, Exception):
            return i, hid, version, f"its stored settings cannot be read ({rules})"
        try:
            again = settle(from_dict(loads(record), rules), rules).to_dict()
        except (RecordError, ValueError, KeyError, TypeError) as e:
            return i, hid, version, f"cannot be settled again ({e})"
        try:  # parsing the stored text beats writing ``again`` out (measured)
            same = loads(settlement) == again
        except ValueError:
            same = False
        if not same:
            return i, hid, version, ("its stored settlement differs from settling its "
                                     "record under its stored settings")
    return None


#: the worker process's rulesets by settings text, and the texts it has settled
_WORKER_RULES: dict[str, Any] = {}
_WORKER_CHECKED: set[tuple[str, str, str]] = set()


def worker_start(rules_of: dict[str, Any]) -> None:
    """A worker's initializer: the rulesets it settles under."""
    _WORKER_RULES.update(rules_of)


def worker_check(lo: int, rows: list[Row]) -> Found | None:
    """:func:`check_range` over one chunk in a worker; the index is the whole list's."""
    found = check_range(rows, _WORKER_RULES, 0, len(rows), _WORKER_CHECKED)
    return None if found is None else (lo + found[0], *found[1:])
