"""Report 6: blank hand slips, the paper form a table fills in after each hand.

Pre-printed with the round, table, hand number and player names; laid out in the order
of the entry form so the desk types it in top to bottom: the seat panels (concealed
tiles and pongs per seat), the event list (kong or win rows: seat, tile, kind,
discarder, flags), then the wall-exhausted box, then signatures.

Every choice is a drawn tick box of at least 4 mm (``TICK``), one column per option so a
pen mark is unambiguous. By default as many slips share a page as fit (two on A4), with a
dashed cut line between them (issue 13: one slip per page left 40 % of it blank).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import Flowable, KeepTogether, PageBreak, Paragraph, Spacer, Table
from reportlab.platypus.flowables import HRFlowable

from . import textfit
from .base import HEAD_BG, build_pdf, esc, font, frame_height, frame_width, scaled_widths, styles
from .gather import ReportDataError
from .model import SeatingTable, SlipsData
from .template import Template

TICK = 4.2 * mm  # the side of a tick box: big enough for a pen mark
CUT_GAP = 7 * mm  # the space a cut line takes between two slips on one page
IDENT_H = 8 * mm  # the identification row (title, round, table, hand, dealer)
GAP = 1.5 * mm  # between the slip's parts
HEAD_H = 5 * mm  # the seat panel's header row
SEAT_H = 7 * mm  # one seat's row of the panel


class TickBox(Flowable):
    """One empty square to tick, optionally followed by its label."""

    def __init__(self, label: str = "", size: float = 8, side: float = TICK) -> None:
        super().__init__()
        self.label, self.size, self.side = label, size, side
        self.width = side + (1.2 * mm + textfit.width_of(label, size) if label else 0)
        self.height = side

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return self.width, self.height

    def draw(self) -> None:
        c = self.canv
        c.setLineWidth(0.8)
        c.rect(0, 0, self.side, self.side)
        if self.label:
            c.setFont(font(), self.size)
            c.drawString(self.side + 1.2 * mm, self.side / 2 - self.size * 0.35, self.label)


def _ticks(labels: list[str], size: float) -> Table:
    """A row of labelled tick boxes (the dealer, the wall-exhausted box)."""
    boxes = [TickBox(x, size) for x in labels]
    return Table([boxes], colWidths=[b.width + 3 * mm for b in boxes], hAlign="LEFT",
                 style=[("LEFTPADDING", (0, 0), (-1, -1), 0),
                        ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                        ("TOPPADDING", (0, 0), (-1, -1), 0),
                        ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
                        ("VALIGN", (0, 0), (-1, -1), "MIDDLE")])


def _short(key: str, t: Template) -> str:
    """One language inside cramped cells: Chinese unless the template is English-only."""
    from .template import default_label

    zh, en = t.labels.get(key) or default_label(key)
    return en if t.language == "en" else zh


def _pad(t: Template) -> list[tuple]:
    """The cells' padding, alignment and font, shared by a slip and its filled-in cells."""
    return [("LEFTPADDING", (0, 0), (-1, -1), 2), ("RIGHTPADDING", (0, 0), (-1, -1), 2),
            ("TOPPADDING", (0, 0), (-1, -1), 1), ("BOTTOMPADDING", (0, 0), (-1, -1), 1),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("FONT", (0, 0), (-1, -1), font(),
                                                     t.font_size)]


def _ident_widths(t: Template) -> list[float]:
    """The identification row: title, round, table, hand, dealer."""
    return scaled_widths([2.6, 1.7, 1.7, 1.7, 4.3], frame_width(t))


def _name_width(t: Template) -> float:
    fw = frame_width(t)
    return fw - 14 * (fw * 0.6 / 14) - 4 * (fw * 0.22 / 4)


def _ident_cell(text: str, width: float, t: Template) -> Flowable | str:
    return textfit.cell(text, width - 4.5, t.font_size + 1, max(5.0, t.font_size * 0.7))


def _name_cell(seat: str, name: str, t: Template) -> Flowable | str:
    """A seat's row head: the seat and the player's name (it shrinks, then wraps: never
    cut)."""
    return textfit.cell(f"{seat}  {name}", _name_width(t) - 4.5, t.font_size,
                        max(5.0, t.font_size * 0.7))


def slip(data: SlipsData, table: SeatingTable | None, hand_no: int | None, t: Template,
         st) -> list[Flowable]:
    """One slip's flowables; without ``table`` and ``hand_no`` the cells they fill in are
    blank (what :class:`SlipPrinter` draws once and fills in per slip)."""
    f = font()
    fw = frame_width(t)
    size = t.font_size
    seats = list(data.seat_labels)
    names = {sp.seat: sp.name for sp in table.seats} if table is not None else {}
    pad = _pad(t)

    # 1. title, identification and dealer
    idw = _ident_widths(t)
    filled = ("" if table is None else t.label("table", n=table.table),
              "" if hand_no is None else t.label("hand", n=hand_no))
    ident = Table([[_ident_cell(x, w, t) for x, w in zip(
                        (t.title, t.label("round", n=data.round), *filled), idw, strict=False)] + [
                    Table([[f"{t.label('dealer')}:", _ticks(seats, size)]], hAlign="LEFT",
                          style=pad + [("LEFTPADDING", (0, 0), (-1, -1), 0)])]],
                  colWidths=idw, rowHeights=[IDENT_H], hAlign="LEFT",
                  style=pad + [("FONT", (0, 0), (-1, -1), f, size + 1),
                               ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                               ("INNERGRID", (0, 0), (-1, -1), 0.4, colors.grey),
                               ("BACKGROUND", (0, 0), (-1, -1), HEAD_BG)])

    # 2. seat panels: concealed tiles (14 cells) and up to 4 pongs
    cell_w = fw * 0.6 / 14
    pong_w = fw * 0.22 / 4
    name_w = _name_width(t)
    head = [t.label("seat"), t.label("concealed")] + [""] * 13 + [t.label("pongs"), "", "", ""]
    rows: list[list] = [head]
    for s in seats:
        rows.append([_name_cell(s, names.get(s, ""), t) if table is not None else ""]
                    + [""] * 18)
    panel = Table(rows, colWidths=[name_w] + [cell_w] * 14 + [pong_w] * 4,
                  rowHeights=[HEAD_H] + [SEAT_H] * len(seats), hAlign="LEFT",
                  style=pad + [("SPAN", (1, 0), (14, 0)), ("SPAN", (15, 0), (18, 0)),
                               ("FONT", (0, 0), (-1, 0), f, size - 1),
                               ("ALIGN", (1, 0), (-1, 0), "CENTER"),
                               ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
                               ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                               ("INNERGRID", (0, 1), (14, -1), 0.3, colors.grey),
                               ("INNERGRID", (15, 1), (18, -1), 0.6, colors.black),
                               ("LINEAFTER", (0, 0), (0, -1), 0.8, colors.black),
                               ("LINEAFTER", (14, 0), (14, -1), 0.8, colors.black),
                               ("LINEBELOW", (0, 0), (-1, -1), 0.5, colors.black)])

    # 3. the events in order, one tick column per option:
    #    kong|win, seat, tile (written), kind, discarder, flags, passed fan (written)
    groups: list[tuple[str, list[str]]] = [
        (t.join(f"{_short('kong', t)}/{_short('win', t)}", "Kong/Win", "\n"),
         [_short("kong", t), _short("win", t)]),
        (t.label("seat"), seats),
        (t.label("tile"), []),
        (t.label("kind"), [_short("direct", t), _short("added", t),
                           _short("concealed_kong", t), _short("self_drawn", t)]),
        (t.label("from"), seats),
        (t.label("flags"), [_short(fl, t) for fl in data.flags]),
        (t.label("passed_fan", "\n"), []),
    ]
    ticks = sum(len(opts) for _, opts in groups)
    write_w = [12 * mm, 11 * mm]  # tile, passed fan
    num_w = 5 * mm
    tick_w = (fw - num_w - sum(write_w)) / ticks
    widths = [num_w]
    top: list = ["#"]
    sub: list = [""]
    spans: list[tuple] = [("SPAN", (0, 0), (0, 1))]
    col = 1
    written = iter(write_w)
    for title, opts in groups:
        if opts:
            widths += [tick_w] * len(opts)
            top += [title] + [""] * (len(opts) - 1)
            sub += [textfit.cell(o, tick_w - 5, size - 1, 4.5, "CENTER") for o in opts]
            spans.append(("SPAN", (col, 0), (col + len(opts) - 1, 0)))
            col += len(opts)
        else:
            widths.append(next(written))
            top.append(title)
            sub.append("")
            spans.append(("SPAN", (col, 0), (col, 1)))
            col += 1
    # a group title spans its options: fit it to the whole span, not one column
    span_w = list(widths)
    col = 1
    for _title, opts in groups:
        span_w[col] = tick_w * len(opts) if opts else widths[col]
        col += max(1, len(opts))
    top = [textfit.cell(h, w - 5, size - 1, 6, "CENTER") if isinstance(h, str) and h else h
           for h, w in zip(top, span_w, strict=True)]
    erows: list[list] = [top, sub]
    for i in range(1, t.option("event_rows") + 1):
        row: list = [str(i)]
        for _title, opts in groups:
            row += [TickBox() for _ in opts] if opts else [""]
        erows.append(row)
    group_lines = []
    col = 1
    for _title, opts in groups:
        col += max(1, len(opts))
        group_lines.append(("LINEAFTER", (col - 1, 0), (col - 1, -1), 0.9, colors.black))
    events = Table(erows, colWidths=widths, rowHeights=[None, None]
                   + [6.3 * mm] * (len(erows) - 2), hAlign="LEFT",
                   style=pad + spans + group_lines + [
                       ("FONT", (0, 0), (-1, 1), f, size - 1),
                       ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                       ("BACKGROUND", (0, 0), (-1, 1), HEAD_BG),
                       ("BOX", (0, 0), (-1, -1), 0.8, colors.black),
                       ("INNERGRID", (0, 0), (-1, -1), 0.3, colors.grey),
                       ("LEFTPADDING", (1, 2), (-1, -1), 0),
                       ("RIGHTPADDING", (1, 2), (-1, -1), 0)])

    # 4. the wall-exhausted box, then signatures: every player and the referee
    wall = _ticks([t.label("wall_exhausted")], size)
    sig_labels = [f"{s} {t.label('signature')}" for s in seats] + [t.label("referee")]
    sw = fw / len(sig_labels)
    sig = Table([[textfit.cell(x, sw - 4.5, size - 1, 4.5) for x in sig_labels],
                 [""] * len(sig_labels)],
                colWidths=[sw] * len(sig_labels), rowHeights=[None, 8 * mm], hAlign="LEFT",
                style=pad + [("FONT", (0, 0), (-1, 0), f, size - 1),
                             ("BOX", (0, 0), (-1, -1), 0.6, colors.black),
                             ("INNERGRID", (0, 0), (-1, -1), 0.4, colors.grey)])
    return [ident, Spacer(1, GAP), panel, Spacer(1, GAP), events, Spacer(1, GAP), wall,
            Spacer(1, GAP), sig]


class SlipPrinter:
    """Slips drawn from PDF forms (XObjects): the blank slip is laid out once, each
    table's number and names once, each hand number once; a slip is then those forms
    placed on the page. Laying out every slip's tables again made 1,000 pages take 21 s
    and 853 MiB; this is the same page, drawn from what is already laid out."""

    def __init__(self, data: SlipsData, t: Template, st) -> None:
        self.data, self.t = data, t
        self.width = frame_width(t)
        self.blank = slip(data, None, None, t, st)
        self.height = sum(fl.wrap(self.width, frame_height(t))[1] for fl in self.blank)
        self._made: set[str] = set()

    def _form(self, canv, name: str, parts: Callable[[], list[tuple[Flowable, float, float]]]
              ) -> None:
        """Place form ``name`` (made first from ``parts``: flowables and where they go,
        measured from the slip's bottom left)."""
        if name not in self._made:
            canv.beginForm(name, 0, 0, self.width, self.height)
            for fl, x, y in parts():
                fl.wrapOn(canv, self.width, self.height)
                fl.drawOn(canv, x, y)
            canv.endForm()
            self._made.add(name)
        canv.doForm(name)

    def _blank_parts(self) -> list[tuple[Flowable, float, float]]:
        out, top = [], self.height
        for fl in self.blank:
            h = fl.wrap(self.width, self.height)[1]
            top -= h
            out.append((fl, 0.0, top))
        return out

    def _cell(self, content: Flowable | str, width: float, height: float, size: float
              ) -> Table:
        """One filled-in cell, padded and aligned as the slip's own cells."""
        return Table([[content]], colWidths=[width], rowHeights=[height],
                     style=_pad(self.t) + [("FONT", (0, 0), (-1, -1), font(), size)])

    def _table_parts(self, table: SeatingTable) -> list[tuple[Flowable, float, float]]:
        t, idw = self.t, _ident_widths(self.t)
        names = {sp.seat: sp.name for sp in table.seats}
        label = _ident_cell(t.label("table", n=table.table), idw[2], t)
        out = [(self._cell(label, idw[2], IDENT_H, t.font_size + 1), sum(idw[:2]),
                self.height - IDENT_H)]
        top = self.height - IDENT_H - GAP - HEAD_H
        for i, seat in enumerate(self.data.seat_labels):
            out.append((self._cell(_name_cell(seat, names.get(seat, ""), t), _name_width(t),
                                   SEAT_H, t.font_size), 0.0, top - (i + 1) * SEAT_H))
        return out

    def _hand_parts(self, hand_no: int) -> list[tuple[Flowable, float, float]]:
        t, idw = self.t, _ident_widths(self.t)
        label = _ident_cell(t.label("hand", n=hand_no), idw[3], t)
        return [(self._cell(label, idw[3], IDENT_H, t.font_size + 1), sum(idw[:3]),
                 self.height - IDENT_H)]

    def draw(self, canv, index: int, hand_no: int) -> None:
        table = self.data.tables[index]
        self._form(canv, "slip", self._blank_parts)
        self._form(canv, f"slip-table-{index}", lambda: self._table_parts(table))
        self._form(canv, f"slip-hand-{hand_no}", lambda: self._hand_parts(hand_no))


class SlipFlowable(Flowable):
    """One slip on the page (see :class:`SlipPrinter`)."""

    def __init__(self, printer: SlipPrinter, index: int, hand_no: int) -> None:
        super().__init__()
        self.printer, self.index, self.hand_no = printer, index, hand_no

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return self.printer.width, self.printer.height

    def draw(self) -> None:
        self.printer.draw(self.canv, self.index, self.hand_no)


def slips_per_page(data: SlipsData, t: Template, st) -> int:
    """The template's number, or (0, the default) as many as fit the page."""
    asked = t.option("slips_per_page")
    if asked:
        return asked
    h = sum(fl.wrap(frame_width(t), frame_height(t))[1] + fl.getSpaceBefore()
            + fl.getSpaceAfter() for fl in slip(data, data.tables[0], 1, t, st))
    if t.header:
        h += styles(t).small.leading * 2
    return max(1, int((frame_height(t) + CUT_GAP) // (h + CUT_GAP)))


def render_slips(data: SlipsData, t: Template, out: str | Path | None = None) -> bytes:
    if not data.tables:
        raise ReportDataError.of("round", "report_round_unseated", round=data.round, rounds=[])
    if data.count < 1:
        raise ReportDataError.of("count", "report_slip_count", got=data.count)
    st = styles(t)
    per_page = slips_per_page(data, t, st)
    printer = SlipPrinter(data, t, st)
    story: list[Flowable] = []
    n = 0
    for ti in range(len(data.tables)):
        for i in range(data.count):
            if n:
                if n % per_page == 0:
                    story.append(PageBreak())
                else:
                    story.append(Spacer(1, CUT_GAP / 2 - 0.5))
                    story.append(HRFlowable(width="100%", dash=(3, 3), color=colors.grey,
                                            spaceBefore=0, spaceAfter=0))
                    story.append(Spacer(1, CUT_GAP / 2 - 0.5))
            slip_ = SlipFlowable(printer, ti, data.first_hand(ti) + i)
            if n % per_page == 0 and t.header:
                story.append(KeepTogether([Paragraph(esc(t.header), st.small), slip_]))
            else:
                story.append(slip_)
            n += 1
    sub = t.label("round", n=data.round)
    return build_pdf(story, t, data.meta, subtitle=sub, out=out)
