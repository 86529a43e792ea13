"""``referee-app players``: register players, list them, their statements and status."""

from __future__ import annotations

from pathlib import Path

import click

from .lang import say, seat, term
from .layout import pad
from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    referee_option,
    where,
)

#: the statuses a player can be given (the store's PlayerStatus values)
STATUSES = ["active", "absent", "late", "substitute", "withdrawn"]


@click.group()
def players() -> None:
    """Register and list players."""


@players.command("import")
@click.argument("csv_file", metavar="PLAYERS.csv", type=click.Path(dir_okay=False))
@click.option("--skip-existing", is_flag=True,
              help="Leave out rows naming players already registered (updated entry lists).")
@referee_option
@db_option
@handle_errors
def players_import(csv_file: str, skip_existing: bool, referee: str, db: Path) -> None:
    """Register players from a CSV with a header: name[,name_latin,club,status,team]."""
    with open_db(db, referee) as t:
        added = t.players.import_csv(csv_file, referee=referee, skip_existing=skip_existing)
        click.echo(say("players.imported", n=len(added), total=len(t.players.list())))


@players.command("add")
@click.argument("name")
@click.option("--latin", default="", help="Latin spelling of the name.")
@click.option("--club", default="")
@click.option("--team", default="", help="The team whose standings add this player's "
              "(team events; team-mates are not seated together).")
@click.option("--status", default="active", show_default=True,
              type=click.Choice(STATUSES))
@referee_option
@db_option
@handle_errors
def players_add(name: str, latin: str, club: str, team: str, status: str, referee: str,
                db: Path) -> None:
    """Register one player NAME (the name hand records use)."""
    with open_db(db, referee) as t:
        p = t.players.add(name, name_latin=latin, club=club, status=status, referee=referee,
                          team=team)
        click.echo(say("players.added", id=p.id, name=p.display))


@players.command("update")
@click.argument("player")
@click.option("--name", "new_name", default=None,
              help="A new record name (only before the player's first hand).")
@click.option("--latin", default=None, help="Latin spelling of the name.")
@click.option("--club", default=None)
@click.option("--team", default=None, help="The player's team ('' for none).")
@referee_option
@db_option
@handle_errors
def players_update(player: str, new_name: str | None, latin: str | None, club: str | None,
                   team: str | None, referee: str, db: Path) -> None:
    """Correct PLAYER's name, Latin name, club or team (each option given is changed)."""
    fields = {k: v for k, v in (("name", new_name), ("name_latin", latin), ("club", club),
                                ("team", team)) if v is not None}
    with open_db(db, referee) as t:
        p = t.players.update(player, referee=referee, **fields)
        click.echo(say("players.updated", id=p.id, name=p.display,
                       team=p.team or "-", club=p.club or "-"))


@players.command("export")
@click.argument("csv_file", metavar="PLAYERS.csv", type=click.Path(dir_okay=False))
@db_option
@handle_errors
def players_export(csv_file: str, db: Path) -> None:
    """Write the entry list as CSV (name,name_latin,club,status,team: what import reads)."""
    with open_db(db) as t:
        t.players.export_csv(csv_file)
        click.echo(say("players.exported", n=len(t.players.list()), path=csv_file))


@players.command("list")
@click.option("--status", "only", default=None, type=click.Choice(STATUSES),
              help="Only the players of this status (absent: who has not checked in).")
@click.option("--team", "team", default=None, help="Only the players of this team.")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def players_list(only: str | None, team: str | None, as_json: bool, db: Path) -> None:
    """List registered players (with their team, in a team event)."""
    with open_db(db) as t:
        ps = [p for p in t.players.list(status=only) if team is None or p.team == team]
        if as_json:
            echo_json([{"id": p.id, "name": p.name, "name_latin": p.name_latin,
                         "club": p.club, "status": p.status.value, "team": p.team}
                       for p in ps])
            return
        teams = any(p.team for p in t.players.list())
        for p in ps:
            click.echo(f"#{p.id:<4} {pad(p.display, 28)} {pad(p.club, 16)} "
                       + (f"{pad(p.team or '-', 16)} " if teams else "")
                       + term('pstatus_', p.status.value))


@players.command("statement")
@click.argument("player")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def players_statement(player: str, as_json: bool, db: Path) -> None:
    """PLAYER's hands and penalties, every payment with its clause, and the total."""
    with open_db(db) as t:
        st = t.standings.statement(player)
        if as_json:
            echo_json({"player": st.player.name, "total": st.total, "lines": [
                {"round": ln.round, "table": ln.table, "hand_no": ln.hand_no,
                 "hand_id": ln.hand_id, "seat": ln.seat, "chips": ln.chips,
                 "detail": list(ln.detail), "flags": list(ln.flags)} for ln in st.lines]})
            return
        click.echo(f"{st.player.display} — {st.player.club or '-'}")
        for ln in st.lines:
            at = (f"{where(ln.round, ln.table, ln.hand_no)} {seat(ln.seat)}" if ln.hand_id
                  else say("players.penalty_at", at=where(ln.round) if ln.round else "-"))
            flags = say("marks", marks=say("list_sep").join(term("status_", f)
                                                           for f in ln.flags)) \
                if ln.flags and ln.hand_id else ""
            click.echo(f"  {pad(at, 16)}{ln.chips:>+6}{flags}")
            for d in ln.detail:
                click.echo(f"      {d}")
        click.echo("  " + say("players.total", total=f"{st.total:+d}"))


@players.command("status")
@click.argument("player")
@click.argument("status", type=click.Choice(STATUSES))
@click.option("--reason", default="")
@referee_option
@db_option
@handle_errors
def players_status(player: str, status: str, reason: str, referee: str, db: Path) -> None:
    """Set PLAYER's STATUS: a withdrawn player keeps results and is not seated again; an
    absent one (check-in: not here) keeps results and is not seated until back to active."""
    with open_db(db, referee) as t:
        p = t.players.set_status(player, status, referee=referee, reason=reason)
        click.echo(f"#{p.id} {p.display}: {term('pstatus_', p.status.value)}")


