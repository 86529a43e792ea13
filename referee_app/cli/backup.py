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
from .lang import say
from .layout import table
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
        click.echo(say("backup.none", path=db))
        return
    rows = [(b.number, b.at, "-" if b.round is None else b.round,
             "?" if b.hands is None else b.hands,
             b.problem or (b.digest[:12] if b.digest else b.path.name)) for b in infos]
    for line in table(["#", say("backup.col.taken"), say("backup.col.round"),
                       say("backup.col.hands"), say("backup.col.digest")], rows, "rlrrl",
                      (3, 23, 5, 6)):
        click.echo(line)
    click.echo(say("backup.restore_with", path=db))


@backup.command("restore")
@click.argument("number", type=BoundedInt(1, MAX_INT64, "backup_number"), metavar="NUMBER")
@click.option("--referee", default="",
              help="The head referee (required when the tournament names one; with referees "
                   "the PIN is asked, or read from REFEREE_PIN).")
@db_option
@handle_errors
def backup_restore(number: int, referee: str, db: Path) -> None:
    """Put backup NUMBER (from 'backup list') in place of --db after checking it."""
    info, aside = Tournament.restore_backup(
        db, number, referee=referee,
        pin=lambda: read_pin(say("pin_for", name=referee.strip() or say("the_head_referee")),
                             "REFEREE_PIN"))
    hands = "?" if info.hands is None else info.hands
    click.echo(say("backup.restored", number=info.number, at=info.at, hands=hands, path=db))
    if aside != db:
        click.echo(say("backup.kept_aside", path=aside))
