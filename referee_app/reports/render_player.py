"""Report 3: the player statement (个人结算单, seed 003).

Per opponent: win chips (和牌分), ready-check chips (查叫), kong chips (刮风下雨) and the
total (筹码合计); then the player's hands, penalties, and the grand total (筹码合计).
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.platypus import Flowable, Paragraph, Spacer

from .base import (
    MUTED,
    build_pdf,
    esc,
    frame_width,
    grid_table,
    penalty_amount,
    scaled_widths,
    signed,
    styles,
)
from .model import OpponentLine, PlayerHandLine, PlayerStatementData
from .template import Template


def _opp_cell(name: str, o: OpponentLine, t: Template) -> str:
    if name == "opponent":
        return t.said(o.opponent)
    if name == "hands":
        return str(o.hands)
    return signed(getattr(o, name))


def _hand_cell(name: str, h: PlayerHandLine, t: Template) -> str:
    if name == "chips":
        return signed(h.chips)
    if name == "status":
        parts = [t.label("void") if h.status == "void" else t.term("status_", h.status)]
        if h.override:
            parts.append(t.label("override"))
        return ", ".join(p for p in parts if p)
    if name == "result":
        return t.said(h.result, "\n")
    return str(getattr(h, name))


def render_player(data: PlayerStatementData, t: Template, out: str | Path | None = None) -> bytes:
    st = styles(t)
    fw = frame_width(t)
    who = data.player + (f" ({data.player_id})" if data.player_id else "")
    if data.club:
        who += f" · {data.club}"
    story: list[Flowable] = [Paragraph(esc(t.title), st.title), Paragraph(esc(who), st.h2)]
    if t.header:
        story.append(Paragraph(esc(t.header).replace("\n", "<br/>"), st.body))
    story.append(Paragraph(f"{esc(t.label('grand_total'))}: "
                           f"<b>{esc(signed(data.total))}</b>", st.h3))

    story.append(Paragraph(esc(t.label("opponents")), st.h3))
    cols = t.column_specs("columns")
    rows = [[_opp_cell(n, o, t) for n, _, _ in cols] for o in data.opponents]
    sums = {"win": sum(o.win for o in data.opponents), "ready": sum(o.ready for o in
            data.opponents), "kong": sum(o.kong for o in data.opponents),
            "other": sum(o.other for o in data.opponents)}
    sums["total"] = sum(sums.values())
    total_row = []
    for n, _, _ in cols:
        if n == "opponent":
            total_row.append(t.label("total"))
        elif n in sums:
            total_row.append(signed(sums[n]))
        else:
            total_row.append("")
    rows.append(total_row)
    last = len(rows)
    story.append(grid_table([h for _, _, h in cols], rows,
                            scaled_widths([c.width for _, c, _ in cols], fw),
                            [c.align for _, c, _ in cols], t,
                            extra=[("LINEABOVE", (0, last), (-1, last), 1.0, colors.black)]))

    if data.penalties:
        story.append(Paragraph(esc(t.label("penalties")), st.h3))
        for p in data.penalties:
            where = f" ({t.label('round', n=p.round)})" if p.round is not None else ""
            story.append(Paragraph(esc(f"{penalty_amount(p, t)}{where} {p.clause} "
                                       f"{t.said(p.reason)}"), st.body))

    if t.option("show_hands"):
        story.append(Spacer(1, 4))
        story.append(Paragraph(esc(t.label("hands_list")), st.h3))
        hcols = t.column_specs("hand_columns")
        hrows = [[_hand_cell(n, h, t) for n, _, _ in hcols] for h in data.hands]
        extra = [("TEXTCOLOR", (0, i), (-1, i), MUTED)
                 for i, h in enumerate(data.hands, start=1) if h.status == "void"]
        wrap = [i for i, (n, _, _) in enumerate(hcols) if n in ("result", "status")]
        story.append(grid_table([h for _, _, h in hcols], hrows,
                                scaled_widths([c.width for _, c, _ in hcols], fw),
                                [c.align for _, c, _ in hcols], t, extra=extra, wrap=wrap))
    return build_pdf(story, t, data.meta, subtitle=data.player, out=out)
