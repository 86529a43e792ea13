"""What every report PDF shares: page frame, header, "page X of Y" footer, styles, tables.

Every page carries the tournament name, the report title, the time of generation, the
ruleset id, the record's entry count and digest (``Tournament.record.digest``), the short
form of the key that signs it, and its page number out of the total. Documents are built in reportlab's
invariant mode and the time shown is the injected ``ReportMeta.generated_at``, so the
same data and template always give the same bytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import BaseDocTemplate, Flowable, Frame, PageTemplate, Paragraph, Table
from reportlab.platypus import TableStyle as _TableStyle
from reportlab.platypus.doctemplate import LayoutError

from referee_app.core.errors import FieldError
from referee_app.core.scores import Number, figure
from referee_app.fonts import register_reportlab_font

from . import textfit
from .model import ReportMeta
from .template import Template

MARGIN = 14 * mm
HEADER_H = 14 * mm
FOOTER_H = 10 * mm

GRID = colors.HexColor("#9a9a9a")
HEAD_BG = colors.HexColor("#e4e8ee")
ZEBRA = colors.HexColor("#f5f6f8")
MUTED = colors.HexColor("#555555")
MARK_HEX = "#b00020"  # penalties, overrides, rule violations
MARK = colors.HexColor(MARK_HEX)


class ReportLayoutError(FieldError):
    """Something in the tournament is too large to lay out on a page: a name or text longer
    than any report can print, saved before such text was refused (names are at most 200
    characters, reasons 1,000)."""

    code = "report_layout"


def font() -> str:
    """The embedded CJK font (it also covers Latin), registered once per process."""
    return register_reportlab_font()


def signed(n: Number) -> str:
    """Chips as a referee writes them: +5, -3, 0 (a halved carry: +2.5)."""
    return figure(n, signed=True)


def penalty_amount(p: Any, t: Any) -> str:
    """A penalty line's amount: chips as :func:`signed`, points with their unit."""
    return signed(p.chips) + (f" {t.label('points_unit')}" if p.unit == "points" else "")


def esc(text: object) -> str:
    """Escape text for Paragraph markup."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def fit(text: str, width: float, size: float) -> str:
    """Shorten ``text`` with an ellipsis so it fits ``width`` points (never cut a column)."""
    f = font()
    if stringWidth(text, f, size) <= width:
        return text
    while text and stringWidth(text + "…", f, size) > width:
        text = text[:-1]
    return text + "…"


@dataclass(frozen=True)
class Styles:
    body: ParagraphStyle
    small: ParagraphStyle
    title: ParagraphStyle
    h2: ParagraphStyle
    h3: ParagraphStyle
    cell: ParagraphStyle
    mono: ParagraphStyle
    center: ParagraphStyle


def styles(t: Template) -> Styles:
    f = font()
    s = t.font_size
    body = ParagraphStyle("body", fontName=f, fontSize=s, leading=s * 1.35)
    return Styles(
        body=body,
        small=ParagraphStyle("small", parent=body, fontSize=s - 1.5, leading=(s - 1.5) * 1.3,
                             textColor=MUTED),
        title=ParagraphStyle("title", parent=body, fontSize=s + 7, leading=(s + 7) * 1.3,
                             spaceAfter=2 * mm),
        h2=ParagraphStyle("h2", parent=body, fontSize=s + 3, leading=(s + 3) * 1.3,
                          spaceBefore=3 * mm, spaceAfter=1.5 * mm),
        h3=ParagraphStyle("h3", parent=body, fontSize=s + 1, leading=(s + 1) * 1.3,
                          spaceBefore=2 * mm, spaceAfter=1 * mm),
        cell=ParagraphStyle("cell", parent=body, fontSize=s - 0.5, leading=(s - 0.5) * 1.25),
        mono=ParagraphStyle("mono", parent=body, fontSize=s - 0.5, leading=(s - 0.5) * 1.3),
        center=ParagraphStyle("center", parent=body, alignment=TA_CENTER),
    )


def frame_width(t: Template) -> float:
    return t.pagesize[0] - 2 * MARGIN


def frame_height(t: Template) -> float:
    return t.pagesize[1] - 2 * MARGIN - HEADER_H - FOOTER_H


def _numbered_canvas(draw_footer: Callable[[Canvas, int, int], None]) -> type[Canvas]:
    """A canvas that keeps every page until the end so the footer can say "of Y"."""

    class NumberedCanvas(Canvas):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            self._pages: list[dict[str, Any]] = []
            self.page_marks: list[tuple[str, bool]] = []  # (subtitle, at top of page)

        def showPage(self) -> None:
            self._pages.append(dict(self.__dict__))
            self.page_marks = []
            self._startPage()

        def save(self) -> None:
            total = len(self._pages)
            carried = ""
            for state in self._pages:
                self.__dict__.update(state)
                marks = state.get("page_marks", [])
                # what this page shows: the section carried over from the page before
                # (unless a new one starts right at the top), then the ones starting here
                shown = [] if (marks and marks[0][1]) or not carried else [carried]
                shown += [m for m, _ in marks if m not in shown]
                if marks:
                    carried = marks[-1][0]
                draw_footer(self, self._pageNumber, total, " / ".join(shown))
                super().showPage()
            super().save()

    return NumberedCanvas


class PageSubtitle(Flowable):
    """An invisible mark: from here on, the page header names this section (a table of a
    multi-table sheet), so continuation pages still say which table they belong to."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def wrap(self, aw: float, ah: float) -> tuple[float, float]:
        return 0, 0

    def drawOn(self, canvas: Canvas, x: float, y: float, _sW: float = 0) -> None:
        marks = getattr(canvas, "page_marks", None)
        if marks is not None:
            top = canvas._pagesize[1] - MARGIN - HEADER_H
            marks.append((self.text, y >= top - 0.5))

    def draw(self) -> None:
        pass


def build_pdf(story: Sequence[Flowable], t: Template, meta: ReportMeta, *,
              subtitle: str = "", out: str | Path | None = None) -> bytes:
    """Lay out ``story`` on the template's paper with the shared header and footer.

    Returns the PDF bytes (and writes them to ``out`` when given).
    """
    f = font()
    width, height = t.pagesize
    generated = meta.generated_at.strftime("%Y-%m-%d %H:%M")
    if meta.generated_at.tzinfo is not None:
        generated += f" {meta.generated_at.tzname() or ''}".rstrip()
    heading = t.title + (f" · {subtitle}" if subtitle else "")
    signed = (t.label("signing_key", fp=meta.signing_key) if meta.signing_key
              else t.label("unsigned"))
    record = (f"{t.label('record_entries', n=meta.record_entries)} · {meta.record_digest}"
              f" · {signed}" if meta.record_entries is not None else "")

    def draw_header(c: Canvas, doc: BaseDocTemplate) -> None:
        c.saveState()
        top = height - MARGIN
        x = MARGIN
        if t.logo is not None:
            c.drawImage(str(t.logo), MARGIN, top - 10 * mm, width=10 * mm, height=10 * mm,
                        preserveAspectRatio=True, mask="auto")
            x += 12 * mm
        c.setFont(f, 11)
        c.drawString(x, top - 5 * mm, fit(meta.tournament, width * 0.45, 11))
        c.setFont(f, 8)
        c.setFillColor(MUTED)
        sub = " · ".join(v for v in (meta.venue, meta.dates) if v)
        if sub:
            c.drawString(x, top - 9.5 * mm, fit(sub, width * 0.45, 8))
        c.setFillColor(colors.black)
        c.setFont(f, 10)
        c.drawRightString(width - MARGIN, top - 5 * mm, fit(t.title, width * 0.45, 10))
        c.setStrokeColor(GRID)
        c.setLineWidth(0.6)
        c.line(MARGIN, top - HEADER_H + 2 * mm, width - MARGIN, top - HEADER_H + 2 * mm)
        c.restoreState()

    def draw_footer(c: Canvas, page: int, pages: int, marked: str = "") -> None:
        c.saveState()
        shown = marked or subtitle  # the page's own section (PageSubtitle), else the report's
        if shown:
            c.setFont(f, 8)
            size, lines = textfit.fit_lines(shown, width * 0.5, 8, 6)
            c.setFont(f, size)
            c.drawRightString(width - MARGIN, height - MARGIN - 9.5 * mm, lines[0] + (
                " …" if len(lines) > 1 else ""))
        y = MARGIN
        c.setStrokeColor(GRID)
        c.setLineWidth(0.6)
        c.line(MARGIN, y + 7.5 * mm, width - MARGIN, y + 7.5 * mm)
        c.setFont(f, 7.5)
        c.setFillColor(MUTED)
        left = (f"{t.label('generated')}: {generated}   {t.label('ruleset')}: {meta.ruleset_id}")
        if t.footer:
            left += f"   {t.footer}"
        c.drawString(MARGIN, y + 4 * mm, fit(left, width * 0.68, 7.5))
        c.drawRightString(width - MARGIN, y + 4 * mm,
                          t.label("page", sep=" · ", page=page, pages=pages))
        if record:  # second line: what a reader compares with `referee-app verify`
            c.setFont(f, 7)
            c.drawString(MARGIN, y + 0.8 * mm, record)
        c.restoreState()

    buf = io.BytesIO()
    doc = BaseDocTemplate(
        buf, pagesize=t.pagesize, leftMargin=MARGIN, rightMargin=MARGIN,
        topMargin=MARGIN + HEADER_H, bottomMargin=MARGIN + FOOTER_H, invariant=1,
        title=f"{meta.tournament} — {heading}", author="Referee Desk",
        subject=f"{t.title_en}; ruleset {meta.ruleset_id}", creator="Referee Desk",
        keywords=meta.ruleset_id)
    frame = Frame(MARGIN, MARGIN + FOOTER_H, frame_width(t), frame_height(t), id="body",
                  leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate(id="page", frames=[frame], onPage=draw_header)])
    try:
        doc.build(list(story), canvasmaker=_numbered_canvas(draw_footer))
    except LayoutError as e:
        raise ReportLayoutError.of("report", "report_too_large") from e
    data = buf.getvalue()
    if out is not None:
        from referee_app.storage.files import atomic_file  # whole, and only a regular file

        with atomic_file(Path(out), binary=True) as f:
            f.write(data)
    return data


def title_block(t: Template, st: Styles, subtitle: str = "") -> list[Flowable]:
    """The report's big title, an optional subtitle line and the template's header text."""
    out: list[Flowable] = [Paragraph(esc(t.title), st.title)]
    if subtitle:
        out.append(Paragraph(esc(subtitle), st.h3))
    if t.header:
        out.append(Paragraph(esc(t.header).replace("\n", "<br/>"), st.body))
    return out


def grid_table(header: Sequence[str], rows: Sequence[Sequence[Any]], widths: Sequence[float],
               aligns: Sequence[str], t: Template, *, size: float | None = None,
               zebra: bool = True, extra: Sequence[tuple] = (), repeat: bool = True,
               wrap: Sequence[int] = ()) -> Table:
    """A ruled table with a shaded, repeated header row.

    Plain-string cells that do not fit their column shrink (to 75 % of the size, at least
    5 pt) and then wrap (:mod:`.textfit`); ``wrap`` columns wrap at the full size. Nothing
    is ever cut off. Headers shrink until every word fits, so they wrap between words.
    """
    f = font()
    size = size or t.font_size - 0.5
    least = max(5.0, size * 0.75)
    wrap_style = ParagraphStyle("wrap", fontName=f, fontSize=size, leading=size * 1.2)
    fitted: list[list[Any]] = []
    for row in rows:
        cells = []
        for i, (value, w) in enumerate(zip(row, widths, strict=True)):
            if isinstance(value, str) and i in wrap and value:
                value = Paragraph(esc(value), wrap_style)
            elif isinstance(value, str) and "\n" not in value:
                value = textfit.cell(value, w - 4.5, size, least,
                                     aligns[i] if i < len(aligns) else "LEFT")
            cells.append(value)
        fitted.append(cells)
    head: list[Any] = []
    for h, w in zip(header, widths, strict=True):
        if not isinstance(h, str):
            head.append(h)
            continue
        hs = textfit.header_size(h, w - 4.5, size - 1, max(4.5, (size - 1) * 0.7))
        head.append(Paragraph(esc(h).replace("\n", "<br/>"), ParagraphStyle(
            "head", fontName=f, fontSize=hs, leading=hs * 1.15, alignment=TA_CENTER)))
    data = [head, *fitted]
    cmds: list[tuple] = [
        ("FONT", (0, 0), (-1, -1), f, size),
        ("LEADING", (0, 0), (-1, -1), size * 1.2),
        ("FONTSIZE", (0, 0), (-1, 0), size - 1),
        ("LEADING", (0, 0), (-1, 0), (size - 1) * 1.15),
        ("BACKGROUND", (0, 0), (-1, 0), HEAD_BG),
        ("GRID", (0, 0), (-1, -1), 0.4, GRID),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("TOPPADDING", (0, 0), (-1, -1), 1.5),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 1.5),
        ("LEFTPADDING", (0, 0), (-1, -1), 2),
        ("RIGHTPADDING", (0, 0), (-1, -1), 2),
        ("ALIGN", (0, 0), (-1, 0), "CENTER"),
    ]
    for i, a in enumerate(aligns):
        cmds.append(("ALIGN", (i, 1), (i, -1), a))
    if zebra:
        for r in range(2, len(data), 2):
            cmds.append(("BACKGROUND", (0, r), (-1, r), ZEBRA))
    cmds.extend(extra)
    return Table(data, colWidths=list(widths), repeatRows=1 if repeat else 0,
                 style=_TableStyle(cmds), hAlign="LEFT")


def scaled_widths(rel: Sequence[float], total: float) -> list[float]:
    s = sum(rel)
    return [total * r / s for r in rel]


def signature_lines(t: Template, st: Styles, keys: Sequence[str], *,
                    posted: bool = False, raw: bool = False) -> Flowable:
    """Lines to sign (one per label key, or per given text when ``raw``) with a date — or
    "posted at" — line beside each, kept together with a little space above."""
    from reportlab.platypus import KeepTogether, Spacer

    fw = frame_width(t)
    when = t.label("posted") if posted else t.label("date")
    widths = scaled_widths([3.2, 4.5, 1.8, 2.5], fw)
    rows = [[textfit.cell(f"{k if raw else t.label(k)} {t.label('signature')}:",
                          widths[0] - 4.5, t.font_size, max(5.0, t.font_size * 0.7)),
             "", f"{when}:", ""] for k in keys]
    sig = Table(rows, colWidths=widths, rowHeights=[11 * mm] * len(rows), hAlign="LEFT",
                style=_TableStyle([("FONT", (0, 0), (-1, -1), font(), t.font_size),
                                   ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                                   ("LINEBELOW", (1, 0), (1, -1), 0.6, colors.black),
                                   ("LINEBELOW", (3, 0), (3, -1), 0.6, colors.black)]))
    return KeepTogether([Spacer(1, 5 * mm), sig])
