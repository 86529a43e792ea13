"""``referee-app round``: seat a round or plan them all, show one, move a player, and how far
its hands are entered and verified."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from referee_app.cli.common import MAX_INT64, NUMBER, TABLE, BoundedInt
from referee_app.core.display import when
from referee_app.storage import RoundState, StorageError
from referee_app.storage.models import Seating
from referee_app.storage.round_state import MAX_MINUTES

from .lang import say, seat, word
from .layout import table as text_table
from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    referee_option,
)

SEED = BoundedInt(-MAX_INT64, MAX_INT64, "whole")
MINUTES = BoundedInt(1, MAX_MINUTES, "minutes")


def seating_text(s: Seating, teams: bool = False) -> str:
    """A round's seating as a referee reads it out: one line per table (an absent player
    still seated marked), the byes, who is absent, how many pairs meet again and, in a team
    event (``teams``), how many pairs of team-mates share a table."""
    absent = set(s.absent)
    lines = [say("round.seating", round=s.round)]
    for t, row in s.tables.items():
        lines.append("  " + say("round.table", table=t) + "  ".join(
            f"{seat(x)} {_marked(row.get(x, '-'), absent)}" for x in s.seats))
    if s.byes:
        lines.append("  " + word("byes", names=say("list_sep").join(s.byes)))
    if s.absent:
        lines.append("  " + say("round.absent", names=say("list_sep").join(s.absent)))
    lines.append("  " + word("repeat_pairs", n=s.repeat_pairs))
    if teams:
        lines.append("  " + say("round.team_pairs", n=s.team_pairs))
    return "\n".join(lines)


def _marked(name: str, absent: set[str]) -> str:
    return say("round.absent_mark", name=name) if name in absent else name


def _has_teams(t: Any) -> bool:
    return any(p.team for p in t.players.list())


def seating_json(s: Seating, teams: bool = False) -> dict[str, Any]:
    """A round's seating as ``round seat/show --json`` print it (team-mate pairs only in a
    team event, ``teams``; absent players only when someone is absent)."""
    return {"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
            "byes": list(s.byes), "repeat_pairs": s.repeat_pairs,
            **({"team_pairs": s.team_pairs} if teams or s.team_pairs else {}),
            **({"absent": list(s.absent)} if s.absent else {})}


def _names(names: list[str]) -> str:
    return say("list_sep").join(names)


@click.group("round")
def round_() -> None:
    """Seat rounds, show seatings and how far their hands are entered."""


@round_.command("seat")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--seed", type=SEED, default=None, help="Reproducible seating (same seed, same "
              "history: same seating).")
@click.option("--fill", type=click.Choice(["byes", "substitutes"]), default=None,
              help="When players do not fill whole tables.")
@click.option("--replace", is_flag=True, help="Re-seat a round that has no hands yet (with "
              "a stored plan: back to the plan's seating, refilled).")
@click.option("--no-plan", is_flag=True, help="Search anew even when a stored plan (round "
              "plan) covers the round.")
@click.option("--json", "as_json", is_flag=True)
@referee_option
@db_option
@handle_errors
def round_seat(number: int, seed: int | None, fill: str | None, replace: bool, no_plan: bool,
               as_json: bool, referee: str, db: Path) -> None:
    """Seat round NUMBER and print it: from the stored plan when one covers the round (as
    few seats changed as possible for withdrawals since), else by a new search."""
    with open_db(db, referee) as t:
        changed: list[str] | None = None
        if not no_plan and number in t.plan.stored():
            r, s = t.plan.seat(number, fill=fill, referee=referee,
                                    replace_existing=replace)
            names = {p.id: p.name for p in t.players.list()}
            changed = [names[p] for p in r.changed]
        else:
            s = t.rounds.seat(number, seed=seed, fill=fill, referee=referee,
                             replace_existing=replace, use_plan=False)
        if as_json:
            echo_json({**seating_json(s, _has_teams(t)), "from_plan": changed is not None,
                       "changed": changed or []})
            return
        click.echo(seating_text(s, _has_teams(t)))
        if changed is not None:
            click.echo("  " + say("round.from_plan", n=len(changed),
                                  names=say("round.names", names=_names(changed))
                                  if changed else ""))


@round_.command("plan")
@click.option("--rounds", "total", type=NUMBER, required=True,
              help="Rounds in the whole event; those with hands are kept as played.")
@click.option("--seed", type=SEED, default=None, help="Reproducible plan (same seed, same "
              "players and played rounds: same plan).")
@click.option("--fill", type=click.Choice(["byes", "substitutes"]), default=None,
              help="When players do not fill whole tables.")
@click.option("--fresh", is_flag=True,
              help="A new plan even where rounds are already planned (default: keep them, "
                   "refilled after withdrawals, unless a new plan is better).")
@click.option("--json", "as_json", is_flag=True)
@referee_option
@db_option
@handle_errors
def round_plan(total: int, seed: int | None, fill: str | None, fresh: bool, as_json: bool,
               referee: str, db: Path) -> None:
    """Plan every remaining round at once (repeats, then seat winds, then seats), save it,
    and print it with its figures."""
    with open_db(db, referee) as t:
        plan, seatings = t.plan.make(total, seed=seed, fill=fill, referee=referee,
                                       fresh=fresh)
    f = plan.figures
    teams = f.team_mates is not None
    if as_json:
        echo_json({"seed": plan.seed, "method": plan.method,
                   "figures": {"repeats": f.repeats, "bound": f.bound,
                               "wind_spread": f.wind_spread,
                               "same_seat_same_table": f.same_seat_same_table,
                               "max_meetings": f.max_meetings,
                               **({"team_mates": f.team_mates, "team_bound": f.team_bound}
                                  if teams else {})},
                   "rounds": [{"round": s.round,
                               "tables": {str(k): v for k, v in s.tables.items()},
                               "byes": list(s.byes),
                               **({"team_pairs": s.team_pairs} if teams else {}),
                               **({"absent": list(s.absent)} if s.absent else {})}
                              for s in seatings]})
        return
    for s in seatings:
        click.echo(seating_text(s, teams))
    click.echo(say("round.plan", seed=plan.seed, method=plan.method))
    if teams:
        click.echo("  " + say("round.plan.team_mates", n=f.team_mates, least=f.team_bound))
    click.echo("  " + say("round.plan.repeats", n=f.repeats, bound=f.bound))
    click.echo("  " + say("round.plan.wind_spread", n=f.wind_spread))
    click.echo("  " + say("round.plan.same_seat", n=f.same_seat_same_table))
    click.echo("  " + say("round.plan.max_meetings", n=f.max_meetings))


@round_.command("reseat")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--fill", type=click.Choice(["byes", "substitutes"]), default=None,
              help="When newcomers and players on a bye cannot fill the empty seats.")
@referee_option
@db_option
@handle_errors
def round_reseat(number: int, fill: str | None, referee: str, db: Path) -> None:
    """Re-seat round NUMBER (no hands yet) after withdrawals, changing as few seats as
    possible from its planned seating."""
    with open_db(db, referee) as t:
        r, s = t.plan.reseat(number, fill=fill, referee=referee)
        click.echo(seating_text(s, _has_teams(t)))
        names = {p.id: p.name for p in t.players.list()}
    click.echo("  " + say("round.changed", n=len(r.changed),
                          names=say("round.names", names=_names([names[p] for p in r.changed]))
                          if r.changed else "")
               + (say("round.dissolved", tables=_names([str(x) for x in r.dissolved]))
                  if r.dissolved else ""))


@round_.command("show")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def round_show(number: int, as_json: bool, db: Path) -> None:
    """Print round NUMBER's seating and the next dealer at each table."""
    with open_db(db) as t:
        s = t.rounds.seating(number)
        if not s.assignments:
            raise StorageError.of("round", "round_not_seated_yet", round=number)
        if as_json:
            echo_json(seating_json(s, _has_teams(t)))
            return
        click.echo(seating_text(s, _has_teams(t)))
        for tbl in s.tables:
            click.echo("  " + say("round.next", table=tbl, hand=t.hands.next_no(number, tbl),
                                  seat=seat(t.hands.next_dealer(number, tbl))))
        for p in t.rounds.problems(number):
            click.echo("  " + say("round.problem", problem=p))


@round_.command("set-seat")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.argument("table", type=TABLE, metavar="TABLE")
@click.argument("seat")
@click.argument("player")
@referee_option
@db_option
@handle_errors
def round_set_seat(number: int, table: int, seat: str, player: str, referee: str,
                   db: Path) -> None:
    """Put PLAYER at TABLE SEAT in round NUMBER (swaps with the player's old seat)."""
    with open_db(db, referee) as t:
        click.echo(seating_text(t.rounds.set_seat(number, table, seat, player,
                                                  referee=referee), _has_teams(t)))


@round_.command("progress")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@db_option
@handle_errors
def round_progress(number: int, as_json: bool, db: Path) -> None:
    """Show how far round NUMBER's hands are entered and verified, table by table."""
    from referee_app.storage.progress import round_progress as progress_of

    with open_db(db) as t:
        p = progress_of(t, number)
    if as_json:
        click.echo(json.dumps(p.to_dict(), ensure_ascii=False, indent=2))
        return
    click.echo(say("round.progress", round=p.round, hands=p.hands, verified=p.verified,
                   left=p.unverified))
    header = [say(f"col.{c}") for c in ("table", "hands", "entered", "verified", "override",
                                        "void", "last", "last_entry", "gaps", "players")]
    rows = [(tp.table, tp.hands, tp.entered, tp.verified, tp.overridden, tp.void,
             tp.last_hand, when(tp.last_entry_at) if tp.last_entry_at else "-",
             tp.gap_text() or "-", " ".join(tp.players.values()))
            for tp in p.tables]
    for line in text_table(header, rows, "rrrrrrrlll", (5, 5, 7, 8, 8, 4, 4, 19, 4)):
        click.echo(line)


def clock_text(state: RoundState, *, started: bool = True) -> str:
    """``started 14:05 by 赵; ends 15:35 (90 minutes + 10 added), 42 min left``."""
    parts = []
    if state.started_at and started:
        parts.append(say("round.started", at=when(state.started_at, seconds=False, day=False),
                         by=state.started_by or "-"))
    if state.ends_at is not None:
        given = say("round.minutes_added", n=state.minutes, added=state.added) if state.added \
            else say("round.minutes", n=state.minutes)
        left = state.seconds_left() or 0
        parts.append(say("round.ends", at=when(state.ends_at, seconds=False, day=False),
                         given=given)
                     + say("round.clock_sep") + (say("round.left", m=-(-left // 60))
                                                  if left else say("round.time_up")))
    elif state.started_at:
        parts.append(say("round.untimed"))
    return say("round.clock_sep").join(parts)


def in_play_text(state: RoundState) -> str:
    """One line: which round is in play, why, and its clock."""
    head = say(f"round.in_play.{state.source.value}", n=state.round)
    clock = clock_text(state)
    return say("round.in_play_clock", line=head, clock=clock) if clock else head


def state_json(state: RoundState) -> dict[str, object]:
    """The round's state as ``/api/tournament`` carries it (``round_in_play``), with the
    seconds left now."""
    from referee_app.storage.wire import to_json

    return {**to_json(state), "seconds_left": state.seconds_left()}


@round_.command("start")
@click.argument("number", type=NUMBER, metavar="NUMBER")
@click.option("--minutes", type=MINUTES, default=None,
              help="The round's time from now: the phones, the projector and the desk count "
                   "down to its end (given again: the time is set anew from now).")
@click.option("--extend", type=MINUTES, default=None,
              help="Minutes added to the clock of a round already started with --minutes.")
@click.option("--json", "as_json", is_flag=True, help="The round's state as JSON.")
@referee_option
@db_option
@handle_errors
def round_start(number: int, minutes: int | None, extend: int | None, as_json: bool,
                referee: str, db: Path) -> None:
    """Make round NUMBER the round in play (head referee; recorded): the phones' seating,
    progress and projector, the desk and new penalties follow it. Without any start, the
    round in play is the latest round with a hand, else round 1."""
    with open_db(db, referee) as t:
        state = t.rounds.start(number, minutes=minutes, extend=extend, referee=referee)
    if as_json:
        echo_json(state_json(state))
        return
    if extend is not None:
        click.echo(say("round.extended", n=state.round, m=extend,
                       clock=clock_text(state, started=False)))
    else:
        click.echo(in_play_text(state))


@round_.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@db_option
@handle_errors
def round_list(as_json: bool, db: Path) -> None:
    """The seated rounds (tables, players, byes, hands that count) and the round in play."""
    with open_db(db) as t:
        rounds = t.rounds.list()
        playing = t.rounds.in_play()
    if as_json:
        from referee_app.storage.wire import to_json

        echo_json({"rounds": to_json(rounds), "in_play": state_json(playing)})
        return
    header = [say(f"col.{c}") for c in ("round", "tables", "players", "byes", "hands")] + [""]
    rows = [(r.number, r.tables, r.players, len(r.byes), r.hands,
             say("round.in_play_mark") if r.number == playing.round else "")
            for r in rounds]
    for line in text_table(header, rows, "rrrrrl"):
        click.echo(line)
    click.echo(in_play_text(playing))
