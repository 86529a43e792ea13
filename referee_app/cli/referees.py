"""``referee-app referee``: the referees of a tournament and their PINs.

A new referee's PIN is asked twice on a terminal, or read from ``NEW_REFEREE_PIN``; the
acting referee's own PIN (``--referee NAME``) from the prompt or ``REFEREE_PIN``.
"""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.core.display import when

from .lang import say
from .layout import table as text_table
from .options import db_option, echo_json, handle_errors, open_db, read_pin, referee_option


@click.group()
def referee() -> None:
    """Add referees with PINs, list them, change a PIN."""


@referee.command("add")
@click.argument("name")
@click.option("--head", is_flag=True, help="A head referee (overrides, voids, restores, "
              "penalties, settings, adding referees).")
@referee_option
@db_option
@handle_errors
def referee_add(name: str, head: bool, referee: str, db: Path) -> None:
    """Register referee NAME with a PIN. Adding the tournament's first referee (who must be
    --head) turns PINs on: from then on every change needs a referee's PIN."""
    with open_db(db, referee) as t:
        pin = read_pin(say("new_pin_for", name=name.strip()), "NEW_REFEREE_PIN", confirm=True)
        r = t.referees.add(name, pin=pin, head=head, referee=referee)
        click.echo(say("referee.added_head" if r.head else "referee.added", name=r.name))


@referee.command("list")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def referee_list(as_json: bool, db: Path) -> None:
    """The referees (names and roles; PINs are never shown or stored in clear)."""
    with open_db(db) as t:
        refs = t.referees.list()
        missing = set(t.referees.without_pin())
        if as_json:
            echo_json([{"name": r.name, "head": r.head, "added_at": r.added_at,
                        "pin_here": r.name not in missing} for r in refs])
            return
        if not refs:
            click.echo(say("referee.none"))
            return
        rows = [(r.name, say("referee.role_head") if r.head else say("referee.role"),
                 when(r.added_at)) for r in refs]
        for line in text_table([say("col.referee"), say("col.role"), say("col.added")], rows,
                               "lll"):
            click.echo(line)
        for r in refs:  # a bundle carries no PIN: who must set one on this desk
            if r.name in missing:
                click.echo(say("referee.no_pin_here", name=r.name))


@referee.command("pin")
@click.argument("name")
@referee_option
@db_option
@handle_errors
def referee_pin(name: str, referee: str, db: Path) -> None:
    """Change NAME's PIN: NAME signed in as themselves (--referee NAME), or the head referee.
    A referee with no PIN on this desk yet (after 'event import') sets their first one
    here, on the head desk, without signing in."""
    with open_db(db) as probe:
        first = (not referee or referee.strip() == name.strip()) and bool(
            probe.referees.required()) and name.strip() in probe.referees.without_pin()
    with open_db(db, None if first else referee or name) as t:
        t.referees.change_pin(name, read_pin(say("new_pin_for", name=name.strip()),
                                             "NEW_REFEREE_PIN", confirm=True),
                              referee="" if first else referee or name)
        click.echo(say("referee.pin_set" if first else "referee.pin_changed",
                       name=name.strip()))


@referee.command("remove")
@click.argument("name")
@referee_option
@db_option
@handle_errors
def referee_remove(name: str, referee: str, db: Path) -> None:
    """Take referee NAME off this tournament (head referee): NAME can no longer sign in or
    write, and a running server ends NAME's sessions at once. Nothing NAME did is erased:
    every hand version and record entry still names them."""
    with open_db(db, referee) as t:
        t.referees.remove(name, referee=referee)
        click.echo(say("referee.removed", name=name.strip()))
