"""The desk checks of ``hand``: ``hand amend … --dry-run`` prints the correction's impact
and writes nothing; ``hand verify ID --record FILE`` is the blind double-entry check.

Each is one library call (:mod:`referee_app.storage.impact`,
:mod:`referee_app.storage.verification`). Exit codes: 0 verified / impact shown, 1 the
entries differ (listed), 2 bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from referee_app.core.errors import RecordError
from referee_app.storage import StorageError, Tournament

from .common import load_json_input, require_object


def _read(path: str, what: str) -> Any:
    """The record in FILE or stdin, read like ``hand add`` reads it (BOM accepted, "FILE is
    empty", deep nesting and huge numbers refused, not an object refused by name)."""
    try:
        return require_object(load_json_input(path))
    except RecordError as e:
        raise StorageError(what, e.problem) from None


def _refused(e: Exception) -> NoReturn:
    click.echo(f"error: {e}", err=True)
    sys.exit(2)


def amend_dry_run(hand_id: int, record: str, reason: str, db: Path) -> NoReturn:
    """What amending ``hand_id`` with ``record`` would change; exit 0, or 1 when the
    amended hand would break the rules."""
    from referee_app.storage.impact import amend_impact

    try:
        data = _read(record, "RECORD")
        with Tournament.open(db) as t:
            imp = amend_impact(t, hand_id, data)
    except (StorageError, ValueError) as e:
        _refused(e)
    for line in imp.lines():
        click.echo(line)
    click.echo(f"(dry run: nothing was written; reason would be {reason!r})")
    sys.exit(0 if imp.totals_after is not None else 1)


def verify_record(hand_id: int, record: str, referee: str, db: Path) -> None:
    """Compare ``record`` (keyed again) with the saved hand; exit 1 listing the differences."""
    from referee_app.storage.verification import verify_hand

    try:
        data = _read(record, "record")
        with Tournament.open(db) as t:
            res = verify_hand(t, hand_id, data, referee=referee)
    except (StorageError, ValueError) as e:
        _refused(e)
    if res.verified:
        click.echo(f"hand {res.hand_id} verified: the second entry matches")
        return
    click.echo(f"hand {res.hand_id} NOT verified: the entries differ in "
               f"{len(res.differences)} field(s):")
    width = max(len(d.field) for d in res.differences)
    click.echo(f"  {'field':<{width}}  {'first entry':<24}  second entry")
    for d in res.differences:
        click.echo(f"  {d.field:<{width}}  {d.first or '—':<24}  {d.second or '—'}")
    click.echo("  (the head referee resolves it: keep the first entry with 'hand verify ID', "
               "or correct it with 'hand amend ID FILE --reason R')")
    sys.exit(1)
