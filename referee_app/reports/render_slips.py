"""Report 6: blank hand slips, the paper form a table fills in after each hand.

Pre-printed with the round, table, hand number and player names; laid out in the order
of the entry form so the desk types it in top to bottom: the seat panels (concealed
tiles and pongs per seat), the event list (kong or win rows: seat, tile, kind,
discarder, flags), then the wall-exhausted box, then signatures.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table
from reportlab.platypus.flowables import HRFlowable

from .base import HEAD_BG, build_pdf, esc, fit, font, frame_width, scaled_widths, styles
from .model import SeatingTable, SlipsData
from .template import Template

BOX = "□"


def _short(key: str, t: Template) -> str:
    """One language inside cramped cells: Chinese unless the template is English-only."""
    from .template import DEFAULT_LABELS

    zh, en = t.labels.get(key) or DEFAULT_LABELS.get(key) or (key, key)
    return en if t.language == "en" else zh


def _boxes(labels: list[str]) -> str:
    return "  ".join(f"{BOX}{x}" for x in labels)


def slip(data: SlipsData, table: SeatingTable, hand_no: int, t: Template, st,
         compact: bool) -> list[Flowable]:
    f = font()
    fw = frame_width(t)
    size = t.font_size - (1 if compact else 0)
    seats = data.seat_labels
    names = {sp.seat: sp.name for sp in table.seats}
    base = [("FONT", (0, 0), (-1, -1), f, size), ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1)]

    # 1. identification and dealer
    ident = Table([[f"{t.label('round', n=data.round)}", f"{t.label('table', n=table.table)}",
                    f"{t.label('hand', n=hand_no)}",
                    f"{t.label('dealer')}: {_boxes(list(seats))}"]],
                  colWidths=scaled_widths([2.2, 2.2, 2.2, 4.4], fw), hAlign="LEFT",
                  style=base + [("FONT", (0, 0), (-1, -1), f, size + 2),
                                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                                ("INNERGRID", (0, 0), (-1, -1), 0.4, colors.grey),
                                ("BACKGROUND", (0, 0), (-1, -1), HEAD_BG)])

    # 2. seat panels: concealed tiles (14 cells) and up to 4 pongs
    row_h = (5.4 if compact else 9) * mm
    cell_w = fw * 0.6 / 14
    pong_w = (fw * 0.22) / 4
    name_w = fw - 14 * cell_w - 4 * pong_w
    head = [t.label("seat"), t.label("concealed")] + [""] * 13 + [t.label("pongs"), "", "", ""]
    rows: list[list[str]] = [head]
    for s in seats:
        rows.append([f"{s}  {fit(names.get(s, ''), name_w - 14, size)}"] + [""] * 18)
    panel = Table(rows, colWidths=[name_w] + [cell_w] * 14 + [pong_w] * 4,
                  rowHeights=[5 * mm] + [row_h] * len(seats), hAlign="LEFT",
                  style=base + [("SPAN", (1, 0), (14, 0)), ("SPAN", (15, 0), (18, 0)),
                                ("FONT", (0, 0), (-1, 0), f, size - 1),
                                ("ALIGN", (1, 0), (-1, 0), "CENTER"),
                                ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                                ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                                ("INNERGRID", (0, 1), (14, -1), 0.3, colors.grey),
                                ("INNERGRID", (15, 1), (18, -1), 0.6, colors.black),
                                ("LINEAFTER", (0, 0), (0, -1), 0.8, colors.black),
                                ("LINEAFTER", (14, 0), (14, -1), 0.8, colors.black),
                                ("LINEBELOW", (0, 0), (-1, -1), 0.5, colors.black)])

    # 3. the events in order: kong or win, seat(s), tile, kind, discarder, flags
    ev_h = (5.2 if compact else 9) * mm
    kinds = [_short("direct", t), _short("added", t), _short("concealed_kong", t),
             _short("self_drawn", t)]
    flags = [_short(fl, t) for fl in data.flags]
    ehead = ["#", t.join(f"{_short('kong', t)}/{_short('win', t)}", "Kong/Win", "\n"),
             t.label("seat"), t.label("tile"), t.label("kind"), t.label("from"),
             t.label("flags"), t.label("passed_fan", "\n")]
    rel = [0.4, 1.5, 2.4, 1.0, 3.1, 2.4, 4.3, 1.4]
    ewidths = scaled_widths(rel, fw)
    cell_size = size - 1.5
    flag_text = _boxes(flags)
    if stringWidth(flag_text, f, cell_size) > ewidths[6] - 4:  # two lines rather than cut
        half = (len(flags) + 1) // 2
        flag_text = _boxes(flags[:half]) + "\n" + _boxes(flags[half:])
    erows: list[list[str]] = [ehead]
    for i in range(1, t.option("event_rows") + 1):
        erows.append([str(i), _boxes([_short("kong", t), _short("win", t)]), _boxes(list(seats)),
                      "", _boxes(kinds), _boxes(list(seats)), flag_text, ""])
    events = Table(erows, colWidths=ewidths, rowHeights=[7 * mm] + [ev_h] * (len(erows) - 1),
                   hAlign="LEFT",
                   style=base + [("FONT", (0, 0), (-1, 0), f, size - 1),
                                 ("FONT", (1, 1), (-1, -1), f, cell_size),
                                 ("LEADING", (1, 1), (-1, -1), cell_size * 1.15),
                                 ("ALIGN", (0, 0), (-1, 0), "CENTER"),
                                 ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                                 ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                                 ("INNERGRID", (0, 0), (-1, -1), 0.4, colors.grey)])
    out: list[Flowable] = [ident, Spacer(1, 1.5 * mm), panel, Spacer(1, 1.5 * mm), events]
    out.append(Spacer(1, 1 * mm))
    out.append(Paragraph(f"<font size='{size + 2}'>{BOX}</font> "
                         f"{esc(t.label('wall_exhausted'))}", st.body))

    # 4. signatures: every player and the referee
    sig_labels = [f"{s} {t.label('signature')}" for s in seats] + [t.label("referee")]
    sig = Table([sig_labels, [""] * len(sig_labels)],
                colWidths=[fw / len(sig_labels)] * len(sig_labels),
                rowHeights=[4.5 * mm, (5.5 if compact else 10) * mm], hAlign="LEFT",
                style=base + [("FONT", (0, 0), (-1, 0), f, size - 1.5),
                              ("BOX", (0, 0), (-1, -1), 0.6, colors.black),
                              ("INNERGRID", (0, 0), (-1, -1), 0.4, colors.grey)])
    out += [Spacer(1, 1 * mm), sig]
    return out


def render_slips(data: SlipsData, t: Template, out: str | Path | None = None) -> bytes:
    if not data.tables:
        raise ValueError(f"round {data.round} has no tables to print slips for")
    if data.count < 1:
        raise ValueError(f"count: {data.count} is not a positive number of slips")
    st = styles(t)
    per_page = t.option("slips_per_page")
    compact = per_page == 2
    story: list[Flowable] = []
    n = 0
    for ti, table in enumerate(data.tables):
        for i in range(data.count):
            if n:
                if n % per_page == 0:
                    story.append(PageBreak())
                else:
                    story.append(Spacer(1, 2 * mm))
                    story.append(HRFlowable(width="100%", dash=(3, 3), color=colors.grey))
                    story.append(Spacer(1, 2 * mm))
            block: list[Flowable] = []
            if n % per_page == 0 and t.header:
                block.append(Paragraph(esc(t.header), st.small))
            block.append(Paragraph(esc(t.title), st.body if compact else st.h3))
            block += slip(data, table, data.first_hand(ti) + i, t, st, compact)
            story.append(KeepTogether(block))
            n += 1
    sub = t.label("round", n=data.round)
    return build_pdf(story, t, data.meta, subtitle=sub, out=out)
