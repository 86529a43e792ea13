"""Report 1: standings (overall, after round N, or round N alone) for the wall."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportlab.platypus import Flowable, Paragraph, Spacer

from referee_app.core.i18n import text
from referee_app.core.scores import figure

from .base import (
    MARK,
    MARK_HEX,
    build_pdf,
    esc,
    frame_width,
    grid_table,
    penalty_amount,
    scaled_widths,
    signature_lines,
    signed,
    styles,
)
from .model import StageLine, StandingRow, StandingsData, TeamStandingsData
from .qr import results_block
from .template import STANDINGS_COLUMNS, ColumnSpec, Template

#: a tie-break where fewer is better ("-discards_paid"): not a label a template sets
FEWER = "report.fewer"


def _cell(name: str, row: StandingRow, t: Template, data: StandingsData) -> str:
    if name == "stage":
        st = next((s for s in data.stages if s.number == row.stage), None)
        return _stage_name(st, t) if st is not None else ""
    if name in ("points", "carried"):
        value = getattr(row, name)
        return "" if value is None else figure(value)
    if name == "point_penalties":
        return figure(row.point_penalties, signed=True) if row.point_penalties else ""
    if name == "rank":
        return f"={row.rank}" if row.tied else str(row.rank)
    if name == "player":
        mark = ""
        if t.option("mark_penalties") and row.is_penalised:
            mark = " †"
        elif t.option("mark_penalties") and row.penalties:
            mark = " ‡"  # received chips from someone else's zero-sum penalty
        if row.overrides:
            mark += " ※"  # sat in an overridden hand: the legend says what it counts
        return row.name + mark
    if name in ("chips", "penalties"):
        v = getattr(row, name)
        return signed(v) if (v or name == "chips") else ""
    if name == "status":
        return t.term("pstatus_", row.status)
    return str(getattr(row, name))


#: storage's tie-break keys that are named differently from the standings columns
_KEY_ALIASES = {"largest_win_fan": "largest_fan"}


def tie_break_name(key: str, t: Template) -> str:
    """"-discards_paid" reads "fewer 点炮 Discards paid" (a leading - means fewer is better)."""
    fewer = key.startswith("-")
    name = _KEY_ALIASES.get(key.lstrip("-"), key.lstrip("-"))
    spec = STANDINGS_COLUMNS.get(name)
    zh, en = t.labels.get(name) or ((spec.zh, spec.en) if spec else (name, name))
    if fewer:
        zh, en = text(FEWER, "zh", name=zh), text(FEWER, "en", name=en.lower())
    return t.join(zh, en)


def _stage_name(st: StageLine, t: Template) -> str:
    """A stage's name in the template's languages (once, when both are the same)."""
    zh, en = st.name_zh, st.name_en
    return zh if zh == en else t.join(zh, en)


def columns(data: StandingsData | TeamStandingsData, t: Template
            ) -> list[tuple[str, ColumnSpec, str]]:
    """The template's columns for these standings: under placement scoring the points
    before the chips (added when the template does not place them; dropped under chips
    scoring), the points penalties when any; once the event is cut, the stage and what it
    carried in before the score. The team standings take the same (a team's points are
    its members')."""
    cols = t.column_specs()
    names = [c[0] for c in cols]
    placement = any(r.points is not None for r in data.rows)
    staged = any(r.stage for r in data.rows)
    carried = any(r.carried is not None for r in data.rows)
    wanted = {"points": placement, "stage": staged, "carried": carried,
              "point_penalties": placement and any(r.point_penalties for r in data.rows)}
    cols = [c for c in cols if wanted.get(c[0], True)]
    anchor = next((i for i, c in enumerate(cols) if c[0] in ("points", "chips")), len(cols))
    add = [n for n in ("stage", "points", "carried") if wanted[n] and n not in names]
    for n in reversed(add):
        cols.insert(anchor, _spec(n, t))
    if wanted["point_penalties"] and "point_penalties" not in names:
        at = next((i + 1 for i, c in enumerate(cols) if c[0] == "penalties"), len(cols))
        cols.insert(at, _spec("point_penalties", t))
    return cols


def _spec(name: str, t: Template) -> tuple[str, ColumnSpec, str]:
    spec = STANDINGS_COLUMNS[name]
    zh, en = t.labels.get(name) or (spec.zh, spec.en)
    return name, spec, t.join(zh, en, "\n")


def subtitle(data: StandingsData | TeamStandingsData, t: Template) -> str:
    if data.only_round is not None:
        return t.label("round_only", n=data.only_round)
    scope = (t.label("overall") if data.round is None
             else t.label("after_round", n=data.round))
    st = next((s for s in data.stages if s.number == data.stage), None)
    return f"{_stage_name(st, t)} · {scope}" if st is not None else scope


def heading(data: StandingsData | TeamStandingsData, t: Template, st: Any,
            note: str = "") -> list[Flowable]:
    """Title, scope, FINAL or PROVISIONAL (only when only verified hands count, as the
    text, the pages and the desk say it), the template's header, ``note`` and the
    tie-break order: the top of the players' and the teams' standings alike."""
    story: list[Flowable] = [Paragraph(esc(t.title), st.title),
                             Paragraph(esc(subtitle(data, t)), st.h3)]
    if data.verified_only:
        state = (t.label("final") if data.final
                 else t.label("provisional_uncounted", n=data.unverified))
        colour = "#1b5e20" if data.final else MARK_HEX
        story.append(Paragraph(f"<font color='{colour}'><b>{esc(state)}</b></font>", st.body))
    if t.header:
        story.append(Paragraph(esc(t.header).replace("\n", "<br/>"), st.body))
    if note:
        story.append(Paragraph(esc(note), st.small))
    if t.option("show_tie_break") and data.tie_break:
        names = [tie_break_name(key, t) for key in data.tie_break]
        story.append(Paragraph(f"{esc(t.label('tie_break'))}: {esc(' > '.join(names))}; "
                               f"={esc(t.label('tied'))}", st.small))
    story.append(Spacer(1, 2))
    return story


def render_standings(data: StandingsData, t: Template, out: str | Path | None = None) -> bytes:
    """The standings table: ranks with ties (=N), tie-break columns, penalties marked †."""
    st = styles(t)
    sub = subtitle(data, t)
    story = heading(data, t, st)

    if data.placement_points:
        story.append(Paragraph(esc(t.label("placement_points", points=", ".join(
            figure(p) for p in data.placement_points))), st.small))
    for s in data.stages[1:]:
        story.append(Paragraph(esc(t.label(
            "stage_cut", name=_stage_name(s, t), round=s.after_round, top=s.top,
            carry=t.label(f"carry_{s.carry}"))), st.small))
    cols = columns(data, t)
    widths = scaled_widths([c.width for _, c, _ in cols], frame_width(t))
    rows = [[_cell(name, r, t, data) for name, _, _ in cols] for r in data.rows]
    extra: list[tuple] = []
    if t.option("mark_penalties"):
        pcols = [i for i, (name, _, _) in enumerate(cols) if name in ("player", "penalties")]
        for ri, r in enumerate(data.rows, start=1):
            if r.is_penalised:
                for ci in pcols:
                    extra.append(("TEXTCOLOR", (ci, ri), (ci, ri), MARK))
    story.append(grid_table([h for _, _, h in cols], rows, widths, [c.align for _, c, _ in cols],
                            t, zebra=t.option("zebra"), extra=extra))

    if t.option("mark_penalties") and any(r.is_penalised for r in data.rows):
        story.append(Paragraph(f"† {esc(t.label('penalty_mark'))}", st.small))
    if t.option("mark_penalties") and any(r.penalties and not r.is_penalised for r in data.rows):
        story.append(Paragraph(f"‡ {esc(t.label('penalty_received'))}", st.small))
    if any(r.overrides for r in data.rows):  # the legend of the ※ a row carries
        story.append(Paragraph(f"※ {esc(t.label('override_counts', n=data.overrides))}",
                               st.small))
    if t.option("list_penalties") and data.penalties:
        story.append(Paragraph(esc(t.label("penalties")), st.h3))
        prow = [[p.player, "" if p.round is None else str(p.round), penalty_amount(p, t),
                 p.clause, t.said(p.reason), p.referee] for p in data.penalties]
        head = [t.label("player", "\n"), t.label("round_no", "\n"),
                t.label("amount" if any(p.unit == "points" for p in data.penalties)
                        else "chips", "\n"), t.label("clause", "\n"),
                t.label("reason", "\n"), t.label("referee", "\n")]
        w = scaled_widths([3, 1, 1.2, 1.2, 6, 2.4], frame_width(t))
        story.append(grid_table(head, prow, w, ["LEFT", "RIGHT", "RIGHT", "LEFT", "LEFT", "LEFT"],
                                t))
    if t.option("results_qr") and data.meta.results_url:
        story.append(Spacer(1, 4))
        story.append(results_block(data.meta.results_url, t))
    story.append(signature_lines(t, st, ["head_referee"], posted=True))
    return build_pdf(story, t, data.meta, subtitle=sub, out=out)
