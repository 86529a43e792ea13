"""Report 5: the seating chart of a round (by table, and by player for the wall) and one
table card per table (the table number and who sits where, to stand on the table)."""

from __future__ import annotations

from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, PageBreak, Paragraph, Spacer

from . import textfit
from .base import (
    build_pdf,
    esc,
    font,
    frame_height,
    frame_width,
    grid_table,
    scaled_widths,
    styles,
)
from .gather import ReportDataError
from .model import SeatingData, SeatingTable
from .qr import draw_qr
from .template import Template

#: Where each seat sits around the drawn table (E at the bottom, play goes E→S→W→N
#: counter-clockwise, so S is on the right, W at the top and N on the left).
_POSITIONS = {"E": "bottom", "S": "right", "W": "top", "N": "left"}


class TableCard(Flowable):
    """A full-frame card: big table number, round, and the players around a square."""

    def __init__(self, table: SeatingTable, round_no: int, t: Template, width: float,
                 height: float, results_url: str = "") -> None:
        super().__init__()
        self.table, self.round_no, self.t = table, round_no, t
        self.width, self.height = width, height
        self.results_url = results_url

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c, t, f = self.canv, self.t, font()
        w, h = self.width, self.height
        textfit.draw_centred(c, w / 2, h - 22 * mm, t.label("table", n=self.table.table),
                             w, 44, 20)
        c.setFont(f, 16)
        c.drawCentredString(w / 2, h - 33 * mm, t.label("round", n=self.round_no))
        side = min(w * 0.42, (h - 60 * mm) * 0.5)
        cx, cy = w / 2, (h - 40 * mm) / 2
        c.setStrokeColor(colors.HexColor("#444444"))
        c.setFillColor(colors.HexColor("#eef3ee"))
        c.rect(cx - side / 2, cy - side / 2, side, side, fill=1)
        c.setFillColor(colors.black)
        name_w = w * 0.45
        for sp in self.table.seats:
            pos = _POSITIONS.get(sp.seat, "bottom")
            seat = sp.seat + (" ★" if sp.seat == self.table.dealer else "")
            if pos == "bottom":
                x, y = cx, cy - side / 2 - 12 * mm
            elif pos == "top":
                x, y = cx, cy + side / 2 + 10 * mm
            elif pos == "right":
                x, y = cx + side / 2 + (w / 2 - side / 2) / 2, cy
            else:
                x, y = cx - side / 2 - (w / 2 - side / 2) / 2, cy
            if pos in ("left", "right"):
                name_w = (w - side) / 2 - 4 * mm
            c.setFont(f, 14)
            c.drawCentredString(x, y + 7 * mm, seat)
            # never cut a name: shrink to 11 pt, then wrap onto more lines
            below = textfit.draw_centred(c, x, y, sp.name, name_w, 18, 11)
            if sp.club or sp.player_id:
                textfit.draw_centred(c, x, y - below - 5 * mm, " · ".join(
                    v for v in (sp.player_id, sp.club) if v), name_w, 9, 6.5)
        c.setFont(f, 12)
        c.drawCentredString(cx, cy, t.label("table", n=self.table.table))
        if self.results_url:  # bottom right, clear of the seats: players scan it at the table
            size = 30 * mm
            draw_qr(c, self.results_url, w - size, 0, size)
            c.setFont(f, 9)
            c.drawCentredString(w - size / 2, size + 2 * mm, t.label("results_qr"))


def render_seating(data: SeatingData, t: Template, out: str | Path | None = None) -> bytes:
    if not data.tables:
        raise ReportDataError.of("round", "report_round_unseated", round=data.round, rounds=[])
    st = styles(t)
    fw = frame_width(t)
    sub = t.label("round", n=data.round)
    story: list[Flowable] = [Paragraph(esc(t.title), st.title), Paragraph(esc(sub), st.h3)]
    if t.header:
        story.append(Paragraph(esc(t.header).replace("\n", "<br/>"), st.body))

    # by table: one line per table, one column per seat
    head = [t.label("table_no", "\n")] + list(data.seat_labels)
    rows = []
    absent = t.label("absent")
    for tb in data.tables:
        by_seat = {sp.seat: sp.name + (f" ({absent})" if sp.absent else "") for sp in tb.seats}
        rows.append([tb.table] + [by_seat.get(s, "") + (" ★" if s == tb.dealer else "")
                                  for s in data.seat_labels])
    story.append(grid_table(head, rows, scaled_widths([0.8] + [3] * len(data.seat_labels), fw),
                            ["CENTER"] + ["LEFT"] * len(data.seat_labels), t,
                            size=t.font_size + 1))
    if any(tb.dealer for tb in data.tables):
        story.append(Paragraph(f"★ {esc(t.label('dealer'))}", st.small))
    for key, who in (("bye", data.byes), ("absent", data.absent)):
        if who:  # not at a table this round: said, so nobody looks for a seat in vain
            story.append(Paragraph(f"{esc(t.label(key))}: "
                                   f"{esc('、'.join(sp.name for sp in who))}", st.body))

    # by player, sorted by name: where do I sit?
    story.append(Spacer(1, 4))
    story.append(Paragraph(esc(t.label("find_seat")), st.h3))
    cols = t.column_specs()
    away = [*((sp, t.label("bye")) for sp in data.byes),
            *((sp, absent) for sp in data.absent)]
    entries = sorted([*((sp, tb.table) for tb in data.tables for sp in tb.seats), *away],
                     key=lambda e: (e[0].sort_key or e[0].name.casefold(), e[0].name,
                                    e[1]))
    values = {"table": lambda sp, tb: tb, "seat": lambda sp, tb: sp.seat + (
                  f" ({absent})" if sp.absent and sp.seat else ""),
              "player": lambda sp, tb: sp.name, "player_id": lambda sp, tb: sp.player_id,
              "club": lambda sp, tb: sp.club, "team": lambda sp, tb: sp.team}
    prow = [[values[n](sp, tb) for n, _, _ in cols] for sp, tb in entries]
    story.append(grid_table([h for _, _, h in cols], prow,
                            scaled_widths([c.width for _, c, _ in cols], fw),
                            [c.align for _, c, _ in cols], t))

    if t.option("table_cards"):
        for tb in data.tables:
            story.append(PageBreak())
            story.append(TableCard(tb, data.round, t, fw, frame_height(t) - 2,
                                   data.meta.results_url if t.option("results_qr") else ""))
    return build_pdf(story, t, data.meta, subtitle=sub, out=out)
