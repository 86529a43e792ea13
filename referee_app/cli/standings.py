"""``referee-app standings``: the leaderboard (text, JSON or CSV)."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.cli.common import NUMBER

from .lang import say
from .layout import table
from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    tie_break_text,
)


@click.command()
@click.option("--round", "round_no", type=NUMBER, default=None, help="That round only.")
@click.option("--through", type=NUMBER, default=None, help="Rounds 1..N.")
@click.option("--json", "as_json", is_flag=True,
              help='A list of {"rank", "player", "chips", ...} sorted by rank.')
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the standings to this CSV file.")
@db_option
@handle_errors
def standings(round_no: int | None, through: int | None, as_json: bool, csv_path: str | None,
              db: Path) -> None:
    """The leaderboard, from the current version of every hand.

    When the tournament counts only verified hands ('event set --verified-only'), the
    text says PROVISIONAL while hands in the scope wait for verification (the JSON and CSV
    rows are the counted hands' alone)."""
    with open_db(db) as t:
        rows = t.standings.table(round_no, through_round=through)
        if csv_path:
            t.standings.export_csv(csv_path, round=round_no, through_round=through)
        if as_json:
            echo_json([r.to_dict() for r in rows])
            waiting = t.standings.provisional(round_no, through_round=through)
            if waiting:  # stdout stays the rows; the warning goes where a person sees it
                click.echo(say("standings.provisional", n=waiting), err=True)
            return
        scope = (say("standings.round", round=round_no) if round_no
                 else say("standings.through", round=through) if through
                 else say("standings.overall"))
        click.echo(say("standings.head", name=t.info.name, scope=scope,
                       tie_break=tie_break_text(t.info.tie_break)))
        waiting = t.standings.provisional(round_no, through_round=through)
        if waiting:
            click.echo(say("standings.provisional", n=waiting))
        rounds = sorted({n for r in rows for n in r.per_round}) if round_no is None else []
        header = [say(f"standings.col.{c}") for c in (
            "rank", "player", "chips", "hands", "wins", "self", "dealt", "pigs", "max", "pen")]
        header += [say("standings.col.round", round=n) for n in rounds]
        lines = table(header, [(f"{r.rank}=" if r.tied else r.rank, r.player, r.chips, r.hands,
                                r.wins, r.self_drawn, r.discards_paid, r.flower_pigs,
                                r.largest_win_fan, r.penalties,
                                *(r.per_round.get(n, 0) for n in rounds)) for r in rows],
                      "rl" + "r" * (8 + len(rounds)), (4, 16, 5, 5, 4, 4, 5, 4, 3, 3), gap=" ")
        for line in lines:
            click.echo(line)
        click.echo(say("standings.columns"))


