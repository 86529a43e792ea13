"""``referee-app round``: seat a round or plan them all, show one, move a player, and how far
its hands are entered and verified."""

from __future__ import annotations

import json
from pathlib import Path

import click

from referee_app.cli.common import MAX_INT64, NUMBER, BoundedInt
from referee_app.core.display import table as text_table
from referee_app.core.display import when
from referee_app.storage import RoundState, StorageError
from referee_app.storage.round_state import MAX_MINUTES

from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    referee_option,
    say,
)

SEED = BoundedInt(-MAX_INT64, MAX_INT64, "a whole number")
MINUTES = BoundedInt(1, MAX_MINUTES, f"a number of minutes (1-{MAX_MINUTES})")


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
            echo_json({"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
                        "byes": list(s.byes), "repeat_pairs": s.repeat_pairs,
                        "from_plan": changed is not None, "changed": changed or []})
            return
        click.echo(s.render())
        if changed is not None:
            click.echo(f"  from the stored plan; changed seats: {len(changed)}"
                       + (f" ({', '.join(changed)})" if changed else ""))


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
    if as_json:
        echo_json({"seed": plan.seed, "method": plan.method,
                   "figures": {"repeats": f.repeats, "bound": f.bound,
                               "wind_spread": f.wind_spread,
                               "same_seat_same_table": f.same_seat_same_table,
                               "max_meetings": f.max_meetings},
                   "rounds": [{"round": s.round,
                               "tables": {str(k): v for k, v in s.tables.items()},
                               "byes": list(s.byes)} for s in seatings]})
        return
    for s in seatings:
        click.echo(s.render())
    click.echo(f"Plan (seed {plan.seed}, {plan.method}), whole event:")
    for line in f.lines():
        click.echo(f"  {line}")


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
        click.echo(s.render())
        names = {p.id: p.name for p in t.players.list()}
    click.echo(f"  changed seats: {len(r.changed)}"
               + (f" ({', '.join(names[p] for p in r.changed)})" if r.changed else "")
               + (f"; tables dissolved: {', '.join(map(str, r.dissolved))}"
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
            raise StorageError("round", f"round {number} is not seated")
        if as_json:
            echo_json({"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
                        "byes": list(s.byes), "repeat_pairs": s.repeat_pairs})
            return
        click.echo(s.render())
        for tbl in s.tables:
            click.echo(f"  table {tbl}: next hand {t.hands.next_no(number, tbl)}, "
                       f"dealer {t.hands.next_dealer(number, tbl)}")
        for p in t.rounds.problems(number):
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
        click.echo(t.rounds.set_seat(number, table, seat, player, referee=referee).render())


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
    click.echo(f"round {p.round}: {p.hands} hands, {p.verified} verified, "
               f"{p.unverified} not yet verified")
    rows: list[list[object]] = [["table", "hands", "entered", "verified", "override", "void",
                                 "last", "last entry", "gaps", "players"]]
    for tp in p.tables:
        rows.append([tp.table, tp.hands, tp.entered, tp.verified, tp.overridden, tp.void,
                     tp.last_hand, when(tp.last_entry_at) if tp.last_entry_at else "-",
                     ",".join(map(str, tp.gaps)) or "-", " ".join(tp.players.values())])
    for line in text_table(rows, ">>>>>>><<<"):
        click.echo(line)


def clock_text(state: RoundState, *, started: bool = True) -> str:
    """``started 14:05 by 赵; ends 15:35 (90 minutes + 10 added), 42 min left``."""
    parts = []
    if state.started_at and started:
        parts.append(say("round_started", at=when(state.started_at, seconds=False, day=False),
                         by=state.started_by or "-"))
    if state.ends_at is not None:
        given = say("round_minutes_added", n=state.minutes, added=state.added) if state.added \
            else say("round_minutes", n=state.minutes)
        left = state.seconds_left() or 0
        parts.append(say("round_ends", at=when(state.ends_at, seconds=False, day=False),
                         given=given)
                     + ", " + (say("round_left", m=-(-left // 60)) if left
                               else say("round_time_up")))
    elif state.started_at:
        parts.append(say("round_untimed"))
    return "; ".join(parts)


def in_play_text(state: RoundState) -> str:
    """One line: which round is in play, why, and its clock."""
    head = say(f"round_in_play_{state.source.value}", n=state.round)
    clock = clock_text(state)
    return f"{head} ({clock})" if clock else head


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
        click.echo(say("round_extended", n=state.round, m=extend) + " "
                   + clock_text(state, started=False))
    else:
        click.echo(in_play_text(state))


def state_json(state: RoundState) -> dict[str, object]:
    """The round's state as ``/api/tournament`` carries it (``round_in_play``)."""
    from referee_app.storage.wire import to_json

    return {**to_json(state), "seconds_left": state.seconds_left()}


@round_.command("list")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@db_option
@handle_errors
def round_list(as_json: bool, db: Path) -> None:
    """The seated rounds (tables, players, byes, hands) and the round in play."""
    with open_db(db) as t:
        rounds = t.rounds.list()
        playing = t.rounds.in_play()
    if as_json:
        from referee_app.storage.wire import to_json

        echo_json({"rounds": to_json(rounds), "in_play": state_json(playing)})
        return
    rows: list[list[object]] = [[say("col_round"), say("col_tables"), say("col_players"),
                                 say("col_byes"), say("col_hands"), ""]]
    for r in rounds:
        rows.append([r.number, r.tables, r.players, len(r.byes), r.hands,
                     say("round_in_play_mark") if r.number == playing.round else ""])
    for line in text_table(rows, ">>>>><"):
        click.echo(line)
    click.echo(in_play_text(playing))
