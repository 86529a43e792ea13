"""``referee-app templates``: editable copies of the report templates."""

from __future__ import annotations

import sys
from pathlib import Path

import click

EXIT_BAD_INPUT = 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def templates() -> None:
    """Editable copies of the report templates (templates export DIR).

    One TOML file per report; docs/reports.md lists every key."""


@templates.command("export")
@click.argument("folder", type=click.Path(file_okay=False, path_type=Path))
@click.option("--force", is_flag=True, help="Overwrite template files already there.")
def export(folder: Path, force: bool) -> None:
    """Write the default templates into FOLDER to edit; use them with
    'report ... --templates FOLDER' or 'event set --templates FOLDER'."""
    from referee_app.reports.template import TemplateError, export_templates

    from .lang import error_line, error_text, say

    try:
        written = export_templates(folder, overwrite=force)
    except TemplateError as e:
        click.echo(error_text(e), err=True)
        sys.exit(EXIT_BAD_INPUT)
    except OSError as e:
        click.echo(error_line(say("cannot_write", path=str(folder), detail=e.strerror),
                              "templates"), err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(say("templates.wrote", n=len(written), folder=folder,
                   files=say("list_sep").join(p.name for p in written)))
