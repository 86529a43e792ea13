"""``referee-app standings``: the leaderboard (text, JSON or CSV)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from referee_app.cli.common import NUMBER
from referee_app.storage import StorageError

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
@click.option("--teams", is_flag=True,
              help="The team standings: each team's members added up, ranked.")
@db_option
@handle_errors
def standings(round_no: int | None, through: int | None, as_json: bool, csv_path: str | None,
              teams: bool, db: Path) -> None:
    """The leaderboard, from the current version of every hand.

    When the tournament counts only verified hands ('event set --verified-only'), the
    text says PROVISIONAL while hands in the scope wait for verification (the JSON and CSV
    rows are the counted hands' alone). --teams: one row per team, its members' rows
    added up (same scope), ranked by the same tie-break order; equal teams share a rank."""
    with open_db(db) as t:
        if teams:
            _team_standings(t, round_no, through, as_json, csv_path)
            return
        rows = t.standings.table(round_no, through_round=through)
        if csv_path:
            t.standings.export_csv(csv_path, round=round_no, through_round=through)
        if as_json:
            echo_json([r.to_dict() for r in rows])
            waiting = t.standings.provisional(round_no, through_round=through)
            if waiting:  # stdout stays the rows; the warning goes where a person sees it
                click.echo(say("standings.provisional", n=waiting), err=True)
            return
        click.echo(say("standings.head", name=t.info.name, scope=_scope(round_no, through),
                       tie_break=tie_break_text(t.info.tie_break)))
        waiting = t.standings.provisional(round_no, through_round=through)
        if waiting:
            click.echo(say("standings.provisional", n=waiting))
        rounds = sorted({n for r in rows for n in r.per_round}) if round_no is None else []
        header = _header("player", rounds)
        lines = table(header, [(f"{r.rank}=" if r.tied else r.rank, r.player, r.chips, r.hands,
                                r.wins, r.self_drawn, r.discards_paid, r.flower_pigs,
                                r.largest_win_fan, r.penalties,
                                *(r.per_round.get(n, 0) for n in rounds)) for r in rows],
                      "rl" + "r" * (8 + len(rounds)), (4, 16, 5, 5, 4, 4, 5, 4, 3, 3), gap=" ")
        for line in lines:
            click.echo(line)
        click.echo(say("standings.columns"))




def _team_standings(t: Any, round_no: int | None, through: int | None, as_json: bool,
                    csv_path: str | None) -> None:
    """``standings --teams``: the team rows as text, JSON or CSV."""
    rows = t.standings.teams(round_no, through_round=through)
    if not rows and not any(p.team for p in t.players.list()):
        raise StorageError.of("teams", "no_teams")
    if csv_path:
        t.standings.export_teams_csv(csv_path, round=round_no, through_round=through)
    waiting = t.standings.provisional(round_no, through_round=through)
    if as_json:
        echo_json([r.to_dict() for r in rows])
        if waiting:
            click.echo(say("standings.provisional", n=waiting), err=True)
        return
    click.echo(say("standings.teams_head", name=t.info.name, scope=_scope(round_no, through),
                   tie_break=tie_break_text(t.info.tie_break)))
    if waiting:
        click.echo(say("standings.provisional", n=waiting))
    rounds = sorted({n for r in rows for n in r.per_round}) if round_no is None else []
    header = [*_header("team", rounds), say("standings.col.members")]
    cols = ("chips", "hands", "wins", "self_drawn", "discards_paid", "flower_pigs",
            "largest_win_fan", "penalties")
    lines = table(header, [(f"{r.rank}=" if r.tied else r.rank, r.team,
                            *(r.totals[c] for c in cols),
                            *(r.per_round.get(n, 0) for n in rounds),
                            say("list_sep").join(r.members)) for r in rows],
                  "rl" + "r" * (8 + len(rounds)) + "l", (4, 12, 5, 5, 4, 4, 5, 4, 3, 3),
                  gap=" ")
    for line in lines:
        click.echo(line)
    click.echo(say("standings.teams_columns"))


def _header(who: str, rounds: list[int]) -> list[str]:
    """The columns of a leaderboard's text: rank, ``who`` (player or team), the figures and
    one per round."""
    return [say(f"standings.col.{c}") for c in (
        "rank", who, "chips", "hands", "wins", "self", "dealt", "pigs", "max", "pen")] + [
        say("standings.col.round", round=n) for n in rounds]


def _scope(round_no: int | None, through: int | None) -> str:
    return (say("standings.round", round=round_no) if round_no
            else say("standings.through", round=through) if through
            else say("standings.overall"))
