"""One call per report from a tournament database to PDF bytes: what the CLI and GUI use."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import gather
from .template import REPORTS, Template, TemplateError, check_template_folder, load_template

if TYPE_CHECKING:
    from referee_app.storage import Tournament


def _renderer(report: str):
    """Import the renderer lazily (reportlab is only loaded when a PDF is made)."""
    if report == "standings":
        from .render_standings import render_standings
        return render_standings
    if report == "table":
        from .render_table import render_tables
        return render_tables
    if report == "player":
        from .render_player import render_player
        return render_player
    if report == "hand":
        from .render_hand import render_hand
        return render_hand
    if report == "seating":
        from .render_seating import render_seating
        return render_seating
    if report == "teams":
        from .render_teams import render_teams
        return render_teams
    from .render_slips import render_slips
    return render_slips


def gather_data(report: str, tournament: Tournament, generated_at: datetime,
                **params: Any) -> Any:
    """The report's dataclass(es) from the database; ``params`` as for :func:`generate`."""
    if report == "standings":
        return gather.standings(tournament, generated_at, round=params.get("round"),
                                through=params.get("through"), stage=params.get("stage"))
    if report == "table":
        return gather.table_sheets(tournament, generated_at, round=params["round"],
                                   table=params.get("table"))
    if report == "player":
        return gather.player_statement(tournament, generated_at, params["player"])
    if report == "hand":
        return gather.hand_ruling(tournament, generated_at, params["hand_id"])
    if report == "seating":
        return gather.seating(tournament, generated_at, round=params["round"])
    if report == "teams":
        return gather.team_standings(tournament, generated_at, round=params.get("round"),
                                     through=params.get("through"), stage=params.get("stage"))
    if report == "slips":
        return gather.slips(tournament, generated_at, round=params["round"],
                            table=params.get("table"), count=params.get("count", 8))
    raise TemplateError.of("report", "unknown_report", got=report, known=list(REPORTS))


def templates_folder(tournament: Tournament) -> Path | None:
    """The tournament's own template folder (relative paths: from the database's folder)."""
    name = tournament.info.templates
    return folder_of(Path(tournament.path), name) if name else None


def folder_of(db: Path, name: str) -> Path | None:
    """The template folder ``name`` as a tournament at ``db`` finds it ("" for none)."""
    if not name:
        return None
    p = Path(name).expanduser()
    return p if p.is_absolute() else db.parent / p


def check_templates(db: Path, name: str) -> list[Path]:
    """Before ``name`` becomes a tournament's template folder: the folder and every report
    template in it, read as printing will read them — a missing folder or a broken
    template is refused now (TemplateError naming it), not at the first report."""
    folder = folder_of(db, name)
    return [] if folder is None else check_template_folder(folder)


def render(report: str, data: Any, template: Template | None = None,
           out: str | Path | None = None) -> bytes:
    """Draw already-gathered data (GUI preview, tests) with the report's template."""
    t = template if template is not None else load_template(report)
    if t.report != report:
        raise TemplateError.of("template", "tpl_for_other", source=t.source, got=t.report,
                               want=report)
    return _renderer(report)(data, t, out=out)


def generate(report: str, tournament: Tournament, *, out: str | Path | None = None,
             template: Template | str | Path | None = None,
             generated_at: datetime | None = None, **params: Any) -> bytes:
    """Make one report as PDF bytes (also written to ``out``).

    ``params``: standings ``round`` (that round alone) or ``through`` (rounds 1..N), and
    ``stage`` (one stage alone); table ``round``, ``table``; player ``player``; hand
    ``hand_id``; seating ``round``; slips ``round``, ``table``, ``count``.
    ``generated_at`` defaults to now (UTC); pass a fixed time for reproducible bytes.
    """
    if report not in REPORTS:
        raise TemplateError.of("report", "unknown_report", got=report, known=list(REPORTS))
    t = template if isinstance(template, Template) else load_template(
        report, template, folder=templates_folder(tournament))
    when = generated_at or datetime.now(UTC).replace(microsecond=0)
    data = gather_data(report, tournament, when, **params)
    return render(report, data, t, out=out)


def write_atomic(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path`` whole or not at all (``storage.files.atomic_file``): a
    failure never leaves a half-written PDF or clobbers the old one, and the file gets the
    usual permissions (0666 less the user's umask), not a temp file's owner-only 0600."""
    from referee_app.storage.files import atomic_file

    target = Path(path)
    with atomic_file(target, binary=True) as f:
        f.write(data)
    return target
