"""``referee-app penalty``: add, list and void penalties."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.cli.common import CHIPS, ID, NUMBER

from .lang import say
from .layout import table as text_table
from .options import (
    db_option,
    handle_errors,
    open_db,
    where,
)


def _entries(entries: dict[str, int], unit: str = "chips", *, named: bool = False) -> str:
    """Each player's share: ``李伟 -2 pts`` in points; in chips a bare figure, or ``李伟 -4
    chips`` when ``named`` (a list that holds penalties in both)."""
    if unit == "points":
        return say("list_sep").join(say("penalty.in_points", name=n, n=f"{c:+d}")
                                    for n, c in entries.items())
    if named:
        return say("list_sep").join(say("penalty.in_chips", name=n, n=f"{c:+d}")
                                    for n, c in entries.items())
    return say("list_sep").join(f"{n} {c:+d}" for n, c in entries.items())


@click.group()
def penalty() -> None:
    """Penalties and adjustments (counted in the standings)."""


@penalty.command("add")
@click.argument("players", nargs=-1, required=True)
@click.option("--chips", type=CHIPS, default=None,
              help="Chips each named player loses (negative: a credit).")
@click.option("--points", type=CHIPS, default=None,
              help="Placement points (比赛分) each named player loses instead (negative: a "
                   "credit; placement scoring only; never zero-sum).")
@click.option("--reason", required=True)
@click.option("--clause", default=None, help="Rule clause cited, e.g. §2.4")
@click.option("--round", "round_no", type=NUMBER, default=None,
              help="The round it counts in (default: the round in play, 'round list').")
@click.option("--zero-sum", is_flag=True,
              help="Pay the chips to each tablemate in --round instead of a deduction.")
@click.option("--referee", default="")
@db_option
@handle_errors
def penalty_add(players: tuple[str, ...], chips: int | None, points: int | None, reason: str,
                clause: str | None, round_no: int | None, zero_sum: bool, referee: str,
                db: Path) -> None:
    """Penalise PLAYERS by --chips each, or by --points (placement points) each."""
    if (chips is None) == (points is None):
        raise click.UsageError(say("penalty.chips_or_points"))
    with open_db(db, referee) as t:
        p = t.penalties.add(list(players), chips if points is None else points, reason,
                            clause=clause, referee=referee, zero_sum=zero_sum, round=round_no,
                            unit="chips" if points is None else "points")
        click.echo(say("penalty.added", id=p.id, entries=_entries(p.entries, p.unit),
                       reason=p.reason))
        click.echo(say("penalty.round", n=p.round) if round_no is not None
                   else say("penalty.round_in_play", n=p.round))


@penalty.command("list")
@db_option
@handle_errors
def penalty_list(db: Path) -> None:
    """List penalties (void ones marked)."""
    with open_db(db) as t:
        penalties = t.penalties.list()
        # penalties in points too (placement scoring): each amount says its unit
        both = any(p.unit == "points" for p in penalties)
        header = ["#", say("col.round"), say("col.clause"), say("col.by"), say("col.reason"),
                  say("col.penalty" if both else "col.chips")]
        rows = [(p.id, where(p.round) if p.round else "-", p.clause or "", p.referee or "-",
                 p.reason + (say("marks", marks=say("penalty.void_mark")) if p.void else ""),
                 _entries(p.entries, p.unit, named=both)) for p in penalties]
        for line in text_table(header, rows, "rlllll"):
            click.echo(line)


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
        click.echo(say("penalty.voided", id=p.id, reason=p.void_reason))
