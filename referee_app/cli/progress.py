"""``referee-app round progress N [--json]``: per table the hands entered, verified,
overridden and void, the last entry's time and any gap in hand numbers (one library call:
:func:`referee_app.storage.progress.round_progress`)."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .common import NUMBER
from .options import db_option, handle_errors, open_db


@click.command("progress")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@db_option
@handle_errors
def progress(number: int, as_json: bool, db: Path) -> None:
    """Show how far round NUMBER's hands are entered and verified, table by table."""
    from referee_app.storage.progress import round_progress

    with open_db(db) as t:
        p = round_progress(t, number)
    if as_json:
        click.echo(json.dumps(p.to_dict(), ensure_ascii=False, indent=2))
        return
    click.echo(f"round {p.round}: {p.hands} hands, {p.verified} verified, "
               f"{p.unverified} not yet verified")
    click.echo(f"{'table':>5}  {'hands':>5}  {'entered':>7}  {'verified':>8}  "
               f"{'override':>8}  {'void':>4}  {'last':>4}  {'last entry':<19}  gaps  players")
    for tp in p.tables:
        gaps = ",".join(map(str, tp.gaps)) or "-"
        click.echo(f"{tp.table:>5}  {tp.hands:>5}  {tp.entered:>7}  {tp.verified:>8}  "
                   f"{tp.overridden:>8}  {tp.void:>4}  {tp.last_hand:>4}  "
                   f"{(tp.last_entry_at or '-')[:19]:<19}  {gaps:<4}  "
                   + " ".join(tp.players.values()))
