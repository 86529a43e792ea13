"""``referee-app round``: seat a round, show it, move a player."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.cli.common import MAX_INT64, NUMBER, BoundedInt
from referee_app.storage import StorageError

from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    referee_option,
)

SEED = BoundedInt(-MAX_INT64, MAX_INT64, "a whole number")


@click.group("round")
def round_() -> None:
    """Seat rounds and show seatings."""


@round_.command("seat")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--seed", type=SEED, default=None, help="Reproducible seating (same seed, same "
              "history: same seating).")
@click.option("--fill", type=click.Choice(["byes", "substitutes"]), default=None,
              help="When players do not fill whole tables.")
@click.option("--replace", is_flag=True, help="Re-seat a round that has no hands yet.")
@click.option("--json", "as_json", is_flag=True)
@referee_option
@db_option
@handle_errors
def round_seat(number: int, seed: int | None, fill: str | None, replace: bool, as_json: bool,
               referee: str, db: Path) -> None:
    """Generate and save round NUMBER's seating, and print it."""
    with open_db(db, referee) as t:
        s = t.seat_round(number, seed=seed, fill=fill, referee=referee,
                         replace_existing=replace)
        if as_json:
            echo_json({"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
                        "byes": list(s.byes), "repeat_pairs": s.repeat_pairs})
        else:
            click.echo(s.render())


@round_.command("show")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def round_show(number: int, as_json: bool, db: Path) -> None:
    """Print round NUMBER's seating and the next dealer at each table."""
    with open_db(db) as t:
        s = t.seating(number)
        if not s.assignments:
            raise StorageError("round", f"round {number} is not seated")
        if as_json:
            echo_json({"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
                        "byes": list(s.byes), "repeat_pairs": s.repeat_pairs})
            return
        click.echo(s.render())
        for tbl in s.tables:
            click.echo(f"  table {tbl}: next hand {t.next_hand_no(number, tbl)}, "
                       f"dealer {t.next_dealer(number, tbl)}")
        for p in t.seating_problems(number):
            click.echo(f"  problem: {p}")


@round_.command("set-seat")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.argument("table", type=NUMBER, metavar="TABLE")
@click.argument("seat")
@click.argument("player")
@referee_option
@db_option
@handle_errors
def round_set_seat(number: int, table: int, seat: str, player: str, referee: str,
                   db: Path) -> None:
    """Put PLAYER at TABLE SEAT in round NUMBER (swaps with the player's old seat)."""
    with open_db(db, referee) as t:
        click.echo(t.set_seat(number, table, seat, player, referee=referee).render())


