"""``referee-app stage``: cut the event between stages (qualifying → final), list the stages,
cancel the last cut, check the cuts against the standings now."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.cli.common import NUMBER
from referee_app.storage.models import Stage
from referee_app.storage.stage_board import stage_name

from .lang import lang, say
from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    referee_option,
)


def stage_line(st: Stage) -> str:
    """``2 final: rounds 4– · top 8 · half carried``."""
    rounds = (say("stage.rounds", first=st.first_round, last=st.last_round)
              if st.last_round is not None else say("stage.rounds_on", first=st.first_round))
    line = say("stage.line", number=st.number, name=stage_name(st, lang()), rounds=rounds)
    if st.number > 1:
        line += say("stage.cut_of", top=st.top, carry=say(f"stage.carry_{st.carry}"))
    return line


@click.group()
def stage() -> None:
    """Stages: cut the event after a round, list, check, cancel.

    A cut keeps the top players of the standings after a round: they play on in the next
    stage, carrying all, half or none of their score."""


@stage.command("cut")
@click.option("--after-round", "after_round", type=NUMBER, required=True, metavar="N",
              help="The last round of the stage in play.")
@click.option("--top", type=NUMBER, required=True, metavar="K",
              help="How many play on: the top K of the standings after round N (withdrawn "
                   "players passed over).")
@click.option("--carry", type=click.Choice(["full", "half", "none"]), required=True,
              help="How much of their score they carry into the new stage.")
@click.option("--name", default="", help="The new stage's name, e.g. final or 决赛 (default: "
                                         "Stage 2, 3…).")
@click.option("--prefer", default="", metavar="NAMES",
              help="Comma-separated: who of the players level at the cut goes through (a "
                   "playoff's result or the head referee's decision); needed only then.")
@click.option("--json", "as_json", is_flag=True)
@referee_option
@db_option
@handle_errors
def stage_cut(after_round: int, top: int, carry: str, name: str, prefer: str, as_json: bool,
              referee: str, db: Path) -> None:
    """Cut the event after round N: the top K play the rounds after it, carrying their score
    in full, halved or not at all; the others keep their place after round N below them
    (head referee; recorded). Seatings of later rounds made before the cut are dropped:
    seat them again ('round seat' seats the new stage's players, with byes when they do not
    fill whole tables)."""
    names = [n.strip() for n in prefer.split(",") if n.strip()]
    with open_db(db, referee) as t:
        r = t.stages.cut(after_round, top, carry, name=name, prefer=names, referee=referee)
        who = {p.id: p.name for p in t.players.list()}
        if as_json:
            echo_json({**r.stage.to_dict(), "player_names": [who[p] for p in r.stage.players],
                       "dropped_rounds": list(r.dropped_rounds),
                       "dropped_plan": list(r.dropped_plan)})
            return
        click.echo(say("stage.cut_done", line=stage_line(r.stage)))
        click.echo("  " + say("list_sep").join(who[p] for p in r.stage.players))
        if r.dropped_rounds:
            click.echo(say("stage.dropped_rounds", rounds=", ".join(
                map(str, r.dropped_rounds))))
        if r.dropped_plan:
            click.echo(say("stage.dropped_plan", rounds=", ".join(map(str, r.dropped_plan))))


@stage.command("list")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def stage_list(as_json: bool, db: Path) -> None:
    """The stages: rounds, how many played on and what they carried."""
    with open_db(db) as t:
        stages = t.stages.list()
        if as_json:
            echo_json([{**s.to_dict(), "display_name": stage_name(s, lang())} for s in stages])
            return
        for s in stages:
            click.echo(stage_line(s))


@stage.command("cancel")
@click.option("--reason", required=True)
@referee_option
@db_option
@handle_errors
def stage_cancel(reason: str, referee: str, db: Path) -> None:
    """Undo the last cut while none of its rounds has a hand (head referee; recorded): its
    players rejoin the stage before, its seated rounds are dropped."""
    with open_db(db, referee) as t:
        st = t.stages.cancel(reason=reason, referee=referee)
        click.echo(say("stage.cancelled", line=stage_line(st)))


@stage.command("check")
@db_option
@handle_errors
def stage_check(db: Path) -> None:
    """Whether each cut still chooses whom the standings after its round would choose now
    (a correction made since may change that; the cut stands as made)."""
    with open_db(db) as t:
        who = {p.id: p.name for p in t.players.list()}
        found = t.stages.check()
        for st, now in found:
            click.echo(say("stage.differs", line=stage_line(st), names=say("list_sep").join(
                who[p] for p in now)))
        if not found:
            click.echo(say("stage.all_hold"))
