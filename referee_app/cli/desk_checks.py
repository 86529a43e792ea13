"""Options added to existing ``hand`` subcommands from their own module (registered in
``referee_app.cli.EXTENSIONS``): ``hand amend … --dry-run`` prints the correction's impact
and writes nothing; ``hand verify ID --record FILE`` is the blind double-entry check.

Each is one library call (:mod:`referee_app.storage.impact`,
:mod:`referee_app.storage.verification`). Exit codes: 0 verified / impact shown, 1 the
entries differ (listed), 2 bad input.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from referee_app.core.errors import RecordError
from referee_app.storage import StorageError, Tournament

from .common import load_json_input, require_object
from .extend import add_option_action


def _read(path: str, what: str) -> Any:
    """The record in FILE or stdin, read like ``hand add`` reads it (BOM accepted, "FILE is
    empty", deep nesting and huge numbers refused, not an object refused by name)."""
    try:
        return require_object(load_json_input(path))
    except RecordError as e:
        raise StorageError(what, e.problem) from None


def _refused(e: Exception) -> None:
    click.echo(f"error: {e}", err=True)
    sys.exit(2)


def _amend_dry_run(kw: dict[str, Any]) -> None:
    from referee_app.storage.impact import amend_impact

    try:
        data = _read(kw["record"], "RECORD")
        with Tournament.open(kw["db"]) as t:
            imp = amend_impact(t, kw["hand_id"], data)
    except (StorageError, ValueError) as e:
        _refused(e)
    if kw.get("as_json"):
        click.echo(json.dumps(imp.to_dict(), ensure_ascii=False, indent=2))
    else:
        for line in imp.lines():
            click.echo(line)
        click.echo(f"(dry run: nothing was written; reason would be {kw['reason']!r})")
    sys.exit(0 if imp.totals_after is not None else 1)


def _verify_record(kw: dict[str, Any]) -> None:
    from referee_app.storage.verification import verify_hand

    try:
        data = _read(kw["record"], "record")
        with Tournament.open(kw["db"]) as t:
            res = verify_hand(t, kw["hand_id"], data, referee=kw.get("referee", ""))
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


def extend_hand(group: click.Group) -> None:
    """Add ``--dry-run`` to ``hand amend`` and ``--record`` to ``hand verify``."""
    amend = group.commands.get("amend")
    if amend is not None:
        add_option_action(amend, click.Option(["--dry-run"], is_flag=True, default=False,
                                  help="Print what the amendment would change (each seat's "
                                       "total, every rank) and write nothing."),
              _amend_dry_run)
    verify = group.commands.get("verify")
    if verify is not None:
        add_option_action(verify, click.Option(["--record"], default=None, metavar="FILE",
                                   help="Blind double entry: compare FILE (the slip keyed "
                                        "again) with the saved hand; verified only if they "
                                        "match (exit 1 lists the differences)."),
              _verify_record)
