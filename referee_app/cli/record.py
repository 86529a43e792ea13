"""``referee-app verify`` and ``referee-app log``: the tamper-evident record, read back."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee_app.storage import RecordIntegrityError

from .common import ID
from .options import EXIT_RULES, db_option, echo_json, handle_errors, open_db


@click.command()
@db_option
@handle_errors
def verify(db: Path) -> None:
    """Check the tamper-evident record end to end.

    The file's integrity, every chain entry and link, every table against the chain,
    every settlement re-settled under its stored settings.

    Last line: ``ok ENTRIES DIGEST`` (exit 0), or the first entry that does not hold
    (exit 1)."""
    with open_db(db) as t:
        try:
            rep = t.record.verify()
        except RecordIntegrityError as e:
            click.echo(f"error: {e.problem}", err=True)
            click.echo(f"FAILED {'entry ' + str(e.seq) if e.seq else e.field}")
            sys.exit(EXIT_RULES)
        click.echo(f"{rep.versions} hand versions re-settled under their stored settings")
        click.echo(f"ok {rep.entries} {rep.short}")


@click.command()
@click.option("--hand", "hand_id", type=ID, default=None, help="Only entries of this hand.")
@click.option("--referee", default=None, help="Only entries made by this referee.")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def log(hand_id: int | None, referee: str | None, as_json: bool, db: Path) -> None:
    """Who did what and when, read from the chain (oldest first)."""
    with open_db(db) as t:
        entries = t.record.log(hand=hand_id, referee=referee)
        if as_json:
            echo_json(entries)
            return
        for e in entries:
            d = e["detail"]
            brief = ", ".join(f"{k}={v}" for k, v in d.items()
                              if k != "log" and v not in (None, "", [], {}))
            click.echo(f"{e['id']:>5}  {e['at'][:19].replace('T', ' ')}  "
                       f"{e['referee'] or '-':<8} {e['action']:<20} {brief}")
