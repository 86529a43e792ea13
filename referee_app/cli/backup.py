"""``referee-app backup``: list the automatic backup points and restore one safely.

Never copy database files by hand: a copied-in backup beside the old ``-wal`` gets stale
changes replayed into it. ``backup restore`` rebuilds the point from its backup log,
checks it, moves the current file and its ``-wal``/``-shm`` aside (kept) and puts the
checked file in place.
"""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.storage import Tournament

from .common import MAX_INT64, BoundedInt
from .options import db_option, echo_json, handle_errors, read_pin


@click.group()
def backup() -> None:
    """List backups and restore one (the current file is kept aside).

    Restoring never deletes: the file it replaces is moved aside."""


@backup.command("list")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def backup_list(as_json: bool, db: Path) -> None:
    """The backup points of --db, newest first (the newest 20 and each round's last):
    number, time, round, hands, record digest."""
    infos = Tournament.backup_list(db)
    if as_json:
        echo_json([{"number": b.number, "file": str(b.path), "at": b.at, "round": b.round,
                    "hands": b.hands, "entries": b.entries, "digest": b.digest,
                    "bytes": b.size, "problem": b.problem} for b in infos])
        return
    if not infos:
        click.echo(f"no backups of {db} yet (a point is written at the first change, then "
                   "every 25 changes, a minute after the last one and when the file is "
                   "closed; 'referee-app event backup' writes one now)")
        return
    click.echo(f"{'#':>3}  {'taken':<23} {'round':>5} {'hands':>6}  digest / file")
    for b in infos:
        hands = "?" if b.hands is None else str(b.hands)
        rnd = "-" if b.round is None else str(b.round)
        tail = b.problem or (b.digest[:12] if b.digest else b.path.name)
        click.echo(f"{b.number:>3}  {b.at:<23} {rnd:>5} {hands:>6}  {tail}")
    click.echo(f"restore one with: referee-app backup restore NUMBER --db {db} "
               "--referee HEAD_REFEREE")


@backup.command("restore")
@click.argument("number", type=BoundedInt(1, MAX_INT64, "a backup number (see 'backup list')"), metavar="NUMBER")
@click.option("--referee", default="",
              help="The head referee (required when the tournament names one; with referees "
                   "the PIN is asked, or read from REFEREE_PIN).")
@db_option
@handle_errors
def backup_restore(number: int, referee: str, db: Path) -> None:
    """Put backup NUMBER (from 'backup list') in place of --db after checking it."""
    info, aside = Tournament.restore_backup(
        db, number, referee=referee,
        pin=lambda: read_pin(f"PIN for {referee.strip() or 'the head referee'}", "REFEREE_PIN"))
    hands = "?" if info.hands is None else info.hands
    click.echo(f"restored backup {info.number} ({info.at}, {hands} hands) into {db}")
    if aside != db:
        click.echo(f"the previous file is kept as {aside}")
