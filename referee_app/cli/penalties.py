"""``referee-app penalty``: add, list and void penalties."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.cli.common import CHIPS, ID, NUMBER

from .options import (
    db_option,
    handle_errors,
    open_db,
)


@click.group()
def penalty() -> None:
    """Penalties and adjustments (counted in the standings)."""


@penalty.command("add")
@click.argument("players", nargs=-1, required=True)
@click.option("--chips", type=CHIPS, required=True,
              help="Chips each named player loses (negative: a credit).")
@click.option("--reason", required=True)
@click.option("--clause", default=None, help="Rule clause cited, e.g. §2.4")
@click.option("--round", "round_no", type=NUMBER, default=None)
@click.option("--zero-sum", is_flag=True,
              help="Pay the chips to each tablemate in --round instead of a deduction.")
@click.option("--referee", default="")
@db_option
@handle_errors
def penalty_add(players: tuple[str, ...], chips: int, reason: str, clause: str | None,
                round_no: int | None, zero_sum: bool, referee: str, db: Path) -> None:
    """Penalise PLAYERS by --chips each."""
    with open_db(db, referee) as t:
        p = t.penalties.add(list(players), chips, reason, clause=clause, referee=referee,
                          zero_sum=zero_sum, round=round_no)
        click.echo(f"penalty {p.id}: " + ", ".join(f"{n} {c:+d}" for n, c in p.entries.items())
                   + f" ({p.reason})")


@penalty.command("list")
@db_option
@handle_errors
def penalty_list(db: Path) -> None:
    """List penalties (void ones marked)."""
    with open_db(db) as t:
        for p in t.penalties.list():
            click.echo(f"#{p.id:<3} round {p.round or '-'} {p.clause or '':<6} "
                       + ", ".join(f"{n} {c:+d}" for n, c in p.entries.items())
                       + f"  {p.reason}  by {p.referee or '-'}" + ("  [void]" if p.void else ""))


@penalty.command("void")
@click.argument("penalty_id", type=ID, metavar="PENALTY_ID")
@click.option("--reason", required=True)
@click.option("--referee", default="")
@db_option
@handle_errors
def penalty_void(penalty_id: int, reason: str, referee: str, db: Path) -> None:
    """Cancel a penalty (it stays listed as void)."""
    with open_db(db, referee) as t:
        p = t.penalties.void(penalty_id, reason=reason, referee=referee)
        click.echo(f"penalty {p.id} void: {p.void_reason}")
