"""``referee-app report``: print a tournament report to PDF.

Each subcommand is one call to :func:`referee_app.reports.api.generate`. Bad input (an
unknown round, table, player or hand; a broken template; an unwritable output) gets
``error: <field>: <problem>`` and exit 2, and no PDF is written (the file is replaced
only once the whole report has been made).
"""

from __future__ import annotations

import errno
import sqlite3
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import click

from referee_app.core.errors import FieldError

from .common import ID, NUMBER, TABLE, BoundedInt
from .lang import error_text, exception_text, say

EXIT_BAD_INPUT, EXIT_FAULT = 2, 3
IN_PLAY_HELP = "The round (default: the round in play, as 'referee-app round list' says)."
#: slips per table: a pad's worth at most
SLIPS = BoundedInt(1, 200, "slips")
F = TypeVar("F", bound=Callable[..., Any])


class OutputError(FieldError):
    """The PDF cannot be written where ``-o`` points."""

    code = "output"


def _default_db() -> Path:
    from referee_app.storage import default_db_path

    return default_db_path()


def _parse_time(ctx: click.Context, param: click.Parameter, value: str | None
                ) -> datetime | None:
    if value is None:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        raise click.BadParameter(say("report.bad_time", got=value)) from None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def common(f: F) -> F:
    """Options every report takes: database, output, template, time of generation."""
    f = click.option("--generated-at", callback=_parse_time, metavar="ISO-TIME",
                     help="Time printed as 'generated' (default: now, UTC); fix it to get "
                          "byte-identical PDFs.")(f)
    f = click.option("--template", "template", type=click.Path(dir_okay=False, path_type=Path),
                     help="One template file (TOML or JSON) for this report.")(f)
    f = click.option("--templates", "templates", type=click.Path(file_okay=False,
                                                                 path_type=Path),
                     help="Template folder (<report>.toml files; 'referee-app templates "
                          "export DIR' makes one). Default: the tournament's folder "
                          "(event set --templates), else the shipped templates.")(f)
    f = click.option("-o", "--output", "output", required=True,
                     type=click.Path(dir_okay=False, path_type=Path), help="PDF file to write.")(f)
    f = click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path),
                     default=_default_db(), envvar="REFEREE_APP_DB", show_default=True,
                     help="Tournament database file (env REFEREE_APP_DB).")(f)
    return f


def _run(report: str, db: Path, output: Path, template: Path | None, templates: Path | None,
         generated_at: datetime | None, **params: Any) -> None:
    from referee_app.core import RecordError
    from referee_app.reports.api import generate, templates_folder, write_atomic
    from referee_app.reports.template import TemplateError, load_template
    from referee_app.storage import StorageError, StorageFault, Tournament
    from referee_app.storage.files import output_path

    in_play: int | None = None
    try:
        if template is not None or templates is not None:
            load_template(report, template, folder=templates)  # a bad file: before the db
        if not output.parent.is_dir():
            raise OutputError.of("output", "no_output_folder", folder=str(output.parent))
        output_path(output)  # a device, folder or pipe: refused before any work
        with Tournament.open(db) as t:
            tpl = load_template(report, template, folder=templates or templates_folder(t))
            if report == "player":
                params["player"] = _player_ref(t, params["player"])
            if "round" in params and params["round"] is None and report != "standings":
                params["round"] = in_play = t.rounds.in_play().round  # the "current round"
            data = generate(report, t, template=tpl, generated_at=generated_at, **params)
        write_atomic(output, data)
    except StorageFault as e:
        click.echo(error_text(e), err=True)
        sys.exit(EXIT_FAULT)
    except (TemplateError, StorageError, RecordError, ValueError) as e:
        click.echo(exception_text(e), err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as e:
        click.echo(error_text(OutputError.of("output", "output_unwritable", path=str(output),
                                             detail=str(e.strerror or e))), err=True)
        sys.exit(EXIT_FAULT if e.errno in (errno.ENOSPC, errno.EROFS, errno.EIO) else
                 EXIT_BAD_INPUT)
    except sqlite3.Error as e:
        from referee_app.storage.errors import fault_from

        click.echo(error_text(fault_from(e, db)), err=True)
        sys.exit(EXIT_FAULT)
    click.echo(say("report.wrote", path=output, size=len(data))
               + (say("report.round_in_play", n=in_play) if in_play else ""))


def _player_ref(t: Any, text: str) -> str | int:
    """A name first; a bare number that is nobody's name is a player id."""
    from referee_app.storage import UnknownPlayerError

    if text.isdigit():
        try:
            t.players.get(text)
        except UnknownPlayerError:
            return int(text)
    return text


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def report() -> None:
    """Print a report of the tournament to a PDF.

    Laid out by editable templates (--templates DIR or the tournament's folder; 'referee-app templates export DIR' writes
    copies to edit; docs/reports.md).

    \b
    referee-app report standings [--round N | --through N] [--stage NAME] -o standings.pdf
    referee-app report table [--round N] [--table T] -o tables.pdf
    referee-app report player PLAYER_ID_OR_NAME -o statement.pdf
    referee-app report hand HAND_ID -o ruling.pdf
    referee-app report seating [--round N] -o seating.pdf
    referee-app report slips [--round N] [--table T] [--count K] -o slips.pdf
    referee-app report teams [--round N | --through N] [--stage NAME] -o teams.pdf

    Without --round, table, seating and slips print the round in play.
    """


@report.command()
@click.option("--round", "round_", type=NUMBER, default=None,
              help="Round N alone (as 'referee-app standings --round N').")
@click.option("--through", type=NUMBER, default=None,
              help="After round N: rounds 1..N. Default (neither): overall.")
@click.option("--stage", default=None, metavar="NAME",
              help="One stage alone (its number or name, as 'referee-app standings --stage').")
@common
def standings(round_: int | None, through: int | None, stage: str | None, **kw: Any) -> None:
    """Standings: ranks with ties, tie-break columns, penalties marked; under placement
    scoring the points (比赛分) first; once the event is cut, each row's stage."""
    _run("standings", round=round_, through=through, stage=stage, **kw)


@report.command()
@click.option("--round", "round_", type=NUMBER, default=None, help=IN_PLAY_HELP)
@click.option("--table", type=TABLE, default=None,
              help="Only this table (default: every table of the round).")
@common
def table(round_: int, table: int | None, **kw: Any) -> None:
    """Table sheets: each hand with chips per seat, running totals and 详细结算单."""
    _run("table", round=round_, table=table, **kw)


@report.command()
@click.argument("player")
@common
def player(player: str, **kw: Any) -> None:
    """Player statement (个人结算单): per opponent, and the player's hands."""
    _run("player", player=player, **kw)


@report.command()
@click.argument("hand_id", type=ID, metavar="HAND_ID")
@common
def hand(hand_id: int, **kw: Any) -> None:
    """Hand ruling sheet: tiles, settlement, rule trace with clause texts, versions."""
    _run("hand", hand_id=hand_id, **kw)


@report.command()
@click.option("--round", "round_", type=NUMBER, default=None, help=IN_PLAY_HELP)
@common
def seating(round_: int, **kw: Any) -> None:
    """Seating chart of a round, and one table card per table."""
    _run("seating", round=round_, **kw)


@report.command()
@click.option("--round", "round_", type=NUMBER, default=None,
              help="Round N alone (as 'referee-app standings --teams --round N').")
@click.option("--through", type=NUMBER, default=None,
              help="After round N: rounds 1..N. Default (neither): overall.")
@click.option("--stage", default=None, metavar="NAME",
              help="One stage alone (its number or name, as 'referee-app standings --stage').")
@common
def teams(round_: int | None, through: int | None, stage: str | None, **kw: Any) -> None:
    """Team standings: each team's members added up, ranks with ties; under placement
    scoring their points first."""
    _run("teams", round=round_, through=through, stage=stage, **kw)


@report.command()
@click.option("--round", "round_", type=NUMBER, default=None, help=IN_PLAY_HELP)
@click.option("--table", type=TABLE, default=None,
              help="Only this table (default: every table of the round).")
@click.option("--count", type=SLIPS, default=8, show_default=True,
              help="Slips per table, numbered from the table's next hand number.")
@common
def slips(round_: int, table: int | None, count: int, **kw: Any) -> None:
    """Blank hand slips pre-printed with round, table and player names."""
    _run("slips", round=round_, table=table, count=count, **kw)

