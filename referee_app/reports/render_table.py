"""Report 2: round table sheets — per table, the hands in order with running totals, and
under each hand its 详细结算单 (seed 003): winning order, pattern, pattern fan, bonus fan,
total fan, ready-check chips, kong chips and total."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer

from .base import (
    MARK_HEX,
    MUTED,
    PageSubtitle,
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
from .gather import ReportDataError
from .model import HandSheet, SeatDetail, TableSheetData
from .template import Template


def _detail_cell(name: str, d: SeatDetail, t: Template) -> str:
    if name in ("pattern_fan", "bonus_fan", "total_fan", "order"):
        v = getattr(d, name)
        return "" if v is None else str(v)
    if name in ("win", "ready", "kong", "other", "total"):
        return signed(getattr(d, name))
    if name == "how":
        if not d.how:
            return ""
        return t.label("self_drawn") if d.how == "self" else t.label("on_discard", seat=d.how)
    if name in ("pattern", "bonuses"):  # the rules' names
        return t.name(getattr(d, name))
    return str(getattr(d, name))


def _status(h: HandSheet, t: Template) -> str:
    parts = []
    if h.status == "void":
        parts.append(t.label("void"))
    elif h.status and h.status != "entered":
        parts.append(t.term("status_", h.status))
    if not h.ok:
        parts.append(t.label("invalid"))
    if h.override:
        parts.append(t.label("override"))
    if h.amendments:
        parts.append(f"v{h.version} {t.label('amended')}")
    elif h.version > 1:
        parts.append(f"v{h.version}")
    return ", ".join(parts)


def _explain(h: HandSheet, t: Template, st) -> list[Flowable]:
    """Why a hand reads as it does: each amendment's reason, the rules a hand breaks and
    the head referee's ruling on an override (its chips are the ruling's, not the rules')."""
    out: list[Flowable] = []
    for a in h.amendments:
        out.append(Paragraph(f"{esc(t.label('amended'))} {esc(a)}", st.small))
    if h.violations:
        out.append(Paragraph(f"<font color='{MARK_HEX}'>{esc(t.label('errors'))}:</font> "
                             + esc(t.said_list(h.violations)).replace("\n", "<br/>"),
                             st.small))
    if h.ruling:
        out.append(Paragraph(f"<font color='{MARK_HEX}'>{esc(t.label('ruling'))}:</font> "
                             f"{esc(h.ruling)}", st.small))
    return out


def table_story(data: TableSheetData, t: Template, st) -> list[Flowable]:
    """The flowables of one table's sheet (several tables share one PDF)."""
    fw = frame_width(t)
    n = len(data.seats)
    sub = f"{t.label('round', n=data.round)} · {t.label('table', n=data.table)}"
    story: list[Flowable] = [PageSubtitle(sub), Paragraph(esc(t.title), st.title),
                             Paragraph(esc(sub), st.h3)]
    if t.header:
        story.append(Paragraph(esc(t.header).replace("\n", "<br/>"), st.body))
    story.append(Paragraph(esc("   ".join(f"{s}: {p}" for s, p in
                                          zip(data.seats, data.players, strict=True))),
                           st.body))
    story.append(Spacer(1, 4))

    running = t.option("show_running_totals")
    head: list[str] = [t.label("hand_no", "\n"), t.label("dealer", "\n")]
    rel: list[float] = [0.9, 0.9]
    aligns = ["RIGHT", "CENTER"]
    for s, p in zip(data.seats, data.players, strict=True):
        head.append(f"{s}\n{p}")  # grid_table shrinks, then wraps it: never cut
        rel.append(1.6)
        aligns.append("RIGHT")
        if running:
            head.append(f"{s} {t.label('running')}")
            rel.append(1.4)
            aligns.append("RIGHT")
    head.append(t.label("status", "\n"))
    rel.append(3.0)
    aligns.append("LEFT")
    rows = []
    extra: list[tuple] = []
    for ri, h in enumerate(data.hands, start=1):
        row = [str(h.hand_no), h.dealer]
        for i in range(n):
            row.append(signed(h.totals[i]))
            if running:
                row.append(signed(h.running[i]))
        status = _status(h, t)
        colour = MARK_HEX if h.override else ("#555555" if h.status == "void" else "#000000")
        row.append(Paragraph(f"<font color='{colour}'>{esc(status)}</font>", st.cell)
                   if status else "")
        rows.append(row)
        if h.status == "void" or not h.ok:
            extra.append(("TEXTCOLOR", (0, ri), (-1, ri), MUTED))
    final = data.hands[-1].running if data.hands else (0,) * n
    total_row: list = [Paragraph(esc(t.label("total")), st.cell), ""]
    for i in range(n):
        total_row.append("")
        if running:
            total_row.append(signed(final[i]))
    total_row.append("")
    if not running:
        total_row = [total_row[0], ""] + [signed(v) for v in final] + [""]
    rows.append(total_row)
    extra += [("SPAN", (0, len(rows)), (1, len(rows))),
              ("LINEABOVE", (0, len(rows)), (-1, len(rows)), 1.0, colors.black),
              ("BACKGROUND", (0, len(rows)), (-1, len(rows)), colors.HexColor("#e4e8ee"))]
    story.append(grid_table(head, rows, scaled_widths(rel, fw), aligns, t, extra=extra))

    if t.option("show_details"):
        cols = t.column_specs()
        widths = scaled_widths([c.width for _, c, _ in cols], fw)
        for h in data.hands:
            title = t.label("hand", n=h.hand_no)
            if h.dealer:
                title += f" · {t.label('dealer')} {h.dealer}"
            status = _status(h, t)
            if status:
                title += f" · {status}"
            block: list[Flowable] = [Paragraph(esc(title), st.h3), *_explain(h, t, st)]
            if h.details:
                drow = [[_detail_cell(name, d, t) for name, _, _ in cols] for d in h.details]
                block.append(grid_table([hd for _, _, hd in cols], drow, widths,
                                        [c.align for _, c, _ in cols], t, zebra=False,
                                        repeat=False))
            elif h.status == "void":  # its payments count nothing: none are printed
                block.append(Paragraph(esc(t.label("void_counts_nothing")), st.small))
            elif not h.violations and not h.override:
                block.append(Paragraph(esc(t.label("invalid")), st.small))
            if h.note:
                block.append(Paragraph(esc(h.note), st.small))
            story.append(KeepTogether(block))
    if data.penalties:
        story.append(Paragraph(esc(t.label("penalties")), st.h3))
        for p in data.penalties:
            story.append(Paragraph(esc(f"{p.player}: {penalty_amount(p, t)} {p.clause} "
                                       f"{t.said(p.reason)}"), st.body))
    # the players and the table's referee sign the sheet as a true record
    story.append(signature_lines(t, st, [f"{s} {p}" for s, p in
                                         zip(data.seats, data.players, strict=True)]
                                 + [t.label("referee")], raw=True))
    return story


def render_tables(sheets: Sequence[TableSheetData], t: Template,
                  out: str | Path | None = None) -> bytes:
    """One PDF with the sheets of several tables (each starting on a new page by default)."""
    if not sheets:
        raise ReportDataError.of("round", "report_no_tables")
    st = styles(t)
    story: list[Flowable] = []
    for i, sheet in enumerate(sheets):
        if i and t.option("new_page_per_table"):
            story.append(PageBreak())
        elif i:
            story.append(Spacer(1, 8))
        story += table_story(sheet, t, st)
    first = sheets[0]
    if len(sheets) == 1:
        sub = f"{t.label('round', n=first.round)} · {t.label('table', n=first.table)}"
    else:
        sub = t.label("round", n=first.round)
    return build_pdf(story, t, first.meta, subtitle=sub, out=out)
