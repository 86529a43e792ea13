"""Report 7: the team standings for the wall — each team's members added up, ranked, in
the scope and state (final / provisional) of the players' standings."""

from __future__ import annotations

from pathlib import Path

from reportlab.platypus import Spacer

from referee_app.core.scores import figure

from .base import build_pdf, frame_width, grid_table, scaled_widths, signature_lines, signed, styles
from .model import StandingRow, TeamStandingsData
from .qr import results_block
from .render_standings import columns, heading, subtitle
from .template import Template


def _cell(name: str, row: StandingRow, t: Template) -> str:
    if name == "rank":
        return f"={row.rank}" if row.tied else str(row.rank)
    if name == "team":
        return row.name
    if name == "members":
        return (", " if t.language == "en" else "、").join(row.members)
    if name == "players":
        return str(len(row.members))
    if name == "points":
        return figure(row.points)
    if name == "point_penalties":
        return signed(row.point_penalties) if row.point_penalties else ""
    if name in ("chips", "penalties"):
        v = getattr(row, name)
        return signed(v) if (v or name == "chips") else ""
    return str(getattr(row, name))


def render_teams(data: TeamStandingsData, t: Template, out: str | Path | None = None) -> bytes:
    """The team standings table: ranks with ties (=N), the members, the summed columns
    (the points first under placement scoring)."""
    st = styles(t)
    story = heading(data, t, st, note=t.label("team_sums"))
    cols = columns(data, t)  # the points before the chips under placement scoring
    widths = scaled_widths([c.width for _, c, _ in cols], frame_width(t))
    rows = [[_cell(name, r, t) for name, _, _ in cols] for r in data.rows]
    story.append(grid_table([h for _, _, h in cols], rows, widths,
                            [c.align for _, c, _ in cols], t, zebra=t.option("zebra")))
    if t.option("results_qr") and data.meta.results_url:
        story.append(Spacer(1, 4))
        story.append(results_block(data.meta.results_url, t))
    story.append(signature_lines(t, st, ["head_referee"], posted=True))
    return build_pdf(story, t, data.meta, subtitle=subtitle(data, t), out=out)
