"""``referee-app standings``: the leaderboard (text, JSON or CSV)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from referee_app.cli.common import NUMBER
from referee_app.core.scores import figure
from referee_app.storage import StorageError
from referee_app.storage.models import Stage, StandingRow, TeamRow
from referee_app.storage.ranking import order_of
from referee_app.storage.stage_board import stage_name

from .lang import lang, say
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
@click.option("--stage", default=None, metavar="NAME",
              help="One stage alone (its number or name, e.g. 'qualifying' or 'final'), "
                   "after its last round or --through N.")
@click.option("--json", "as_json", is_flag=True,
              help='A list of {"rank", "player", "points", "chips", ...} sorted by rank '
                   '("points" under placement scoring; "stage" and "carried" once cut).')
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the standings to this CSV file.")
@click.option("--teams", is_flag=True,
              help="The team standings: each team's members added up, ranked.")
@db_option
@handle_errors
def standings(round_no: int | None, through: int | None, stage: str | None, as_json: bool,
              csv_path: str | None, teams: bool, db: Path) -> None:
    """The leaderboard, from the current version of every hand.

    Under placement scoring ('event set --scoring placement') the points (比赛分) rank
    first, then the tie-break order. Once the event is cut ('stage cut'), the players of
    the stage in play rank first; --stage NAME shows one stage alone.

    When the tournament counts only verified hands ('event set --verified-only'), the
    text says PROVISIONAL while hands in the scope wait for verification (the JSON and CSV
    rows are the counted hands' alone). --teams: one row per team, its members' rows
    added up (same scope), ranked as players are (the points first under placement
    scoring, then the tie-break order); equal teams share a rank."""
    with open_db(db) as t:
        if teams:
            _team_standings(t, round_no, through, stage, as_json, csv_path)
            return
        rows = t.standings.table(round_no, through_round=through, stage=stage)
        stages = t.standings.stages()
        if csv_path:
            t.standings.export_csv(csv_path, round=round_no, through_round=through,
                                   stage=stage)
        if as_json:
            echo_json([r.to_dict() for r in rows])
            waiting = t.standings.provisional(round_no, through_round=through)
            if waiting:  # stdout stays the rows; the warning goes where a person sees it
                click.echo(say("standings.provisional", n=waiting), err=True)
            return
        info = t.info
        click.echo(say("standings.head", name=info.name, scope=_scope(t, round_no, through, stage),
                       tie_break=tie_break_text(order_of(info.tie_break, info.placement))))
        waiting = t.standings.provisional(round_no, through_round=through)
        if waiting:
            click.echo(say("standings.provisional", n=waiting))
        for line in standings_lines(rows, stages, per_round=round_no is None):
            click.echo(line)
        click.echo(say("standings.columns"))
        if info.placement:
            click.echo(say("standings.points_legend", points=", ".join(
                figure(p) for p in info.placement_points)))
        if any(r.stage > 1 for r in rows):
            click.echo(say("standings.stage_legend"))


def standings_lines(rows: Sequence[StandingRow], stages: Sequence[Stage], *,
                    per_round: bool = True) -> list[str]:
    """The standings as aligned lines: under placement the points first, then the chips;
    the stage and what it carried in once the event is cut; one column per round (its
    points under placement, else its chips)."""
    placement = any(r.points is not None for r in rows)
    staged = any(r.stage for r in rows)
    carried = any(r.carried is not None for r in rows)
    names = {s.number: stage_name(s, lang()) for s in stages}
    rounds = sorted({n for r in rows for n in (r.per_round_points if placement
                                               else r.per_round)}) if per_round else []
    cols: list[tuple[str, str, int, Any]] = [
        ("rank", "r", 4, lambda r: f"{r.rank}=" if r.tied else r.rank),
        ("player", "l", 16, lambda r: r.player)]
    if staged:
        cols.append(("stage", "l", 6, lambda r: names.get(r.stage, str(r.stage))))
    if placement:
        cols.append(("points", "r", 6, lambda r: figure(r.points)))
    if carried:
        cols.append(("carried", "r", 5, lambda r: figure(r.carried)))
    cols += [("chips", "r", 5, lambda r: figure(r.chips)),
             ("hands", "r", 5, lambda r: r.hands), ("wins", "r", 4, lambda r: r.wins),
             ("self", "r", 4, lambda r: r.self_drawn),
             ("dealt", "r", 5, lambda r: r.discards_paid),
             ("pigs", "r", 4, lambda r: r.flower_pigs),
             ("max", "r", 3, lambda r: r.largest_win_fan),
             ("pen", "r", 3, lambda r: r.penalties)]
    if placement and any(r.point_penalties for r in rows):
        cols.append(("pen_points", "r", 3, lambda r: figure(r.point_penalties)))
    header = [say(f"standings.col.{c[0]}") for c in cols]
    header += [say("standings.col.round", round=n) for n in rounds]

    def by_round(r: StandingRow, n: int) -> str:
        values: dict[int, Any] = r.per_round_points if placement else r.per_round
        return figure(values[n]) if n in values else ("-" if staged else "0")

    return table(header, [[get(r) for *_, get in cols] + [by_round(r, n) for n in rounds]
                          for r in rows],
                 "".join(c[1] for c in cols) + "r" * len(rounds), [c[2] for c in cols],
                 gap=" ")


def _team_standings(t: Any, round_no: int | None, through: int | None, stage: str | None,
                    as_json: bool, csv_path: str | None) -> None:
    """``standings --teams``: the team rows as text, JSON or CSV (under placement scoring
    the members' points summed, first)."""
    rows = t.standings.teams(round_no, through_round=through, stage=stage)
    if not rows and not any(p.team for p in t.players.list()):
        raise StorageError.of("teams", "no_teams")
    if csv_path:
        t.standings.export_teams_csv(csv_path, round=round_no, through_round=through,
                                     stage=stage)
    waiting = t.standings.provisional(round_no, through_round=through)
    if as_json:
        echo_json([r.to_dict() for r in rows])
        if waiting:
            click.echo(say("standings.provisional", n=waiting), err=True)
        return
    info = t.info
    click.echo(say("standings.teams_head", name=info.name,
                   scope=_scope(t, round_no, through, stage),
                   tie_break=tie_break_text(order_of(info.tie_break, info.placement))))
    if waiting:
        click.echo(say("standings.provisional", n=waiting))
    placement = any(r.points is not None for r in rows)
    rounds = sorted({n for r in rows for n in (r.per_round_points if placement
                                               else r.per_round)}) if round_no is None else []
    cols = ("chips", "hands", "wins", "self_drawn", "discards_paid", "flower_pigs",
            "largest_win_fan", "penalties")
    heads = ("chips", "hands", "wins", "self", "dealt", "pigs", "max", "pen")
    header = [say(f"standings.col.{c}") for c in (
        "rank", "team", *(("points",) if placement else ()), *heads)]
    header += [say("standings.col.round", round=n) for n in rounds]
    header.append(say("standings.col.members"))

    def by_round(r: TeamRow, n: int) -> str:
        values: dict[int, Any] = r.per_round_points if placement else r.per_round
        return figure(values.get(n, 0))

    lines = table(header, [(f"{r.rank}=" if r.tied else r.rank, r.team,
                            *((figure(r.points),) if placement else ()),
                            *(figure(r.totals[c]) for c in cols),
                            *(by_round(r, n) for n in rounds),
                            say("list_sep").join(r.members)) for r in rows],
                  "rl" + "r" * (8 + placement + len(rounds)) + "l",
                  (4, 12, *((6,) if placement else ()), 5, 5, 4, 4, 5, 4, 3, 3), gap=" ")
    for line in lines:
        click.echo(line)
    click.echo(say("standings.teams_columns"))
    if info.placement:
        click.echo(say("standings.points_legend", points=", ".join(
            figure(p) for p in info.placement_points)))


def _scope(t: Any, round_no: int | None, through: int | None, stage: str | None) -> str:
    scope = (say("standings.round", round=round_no) if round_no
             else say("standings.through", round=through) if through
             else say("standings.overall"))
    if stage is not None:
        scope = say("standings.stage", stage=stage_name(t.stages.get(stage), lang()),
                    scope=scope)
    return scope
