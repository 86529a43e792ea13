"""Reports from the desk: which report fits the selection, its PDF, its pages, print, save.

The PDF is the reports library's (``referee_app.reports.api``), byte for byte the one the
CLI writes, so what the referee previews, prints and saves is the same document. Pages
are drawn for the screen and the printer by PDFium (``pypdfium2``) from those bytes;
nothing here lays out a report itself.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QRectF
from PySide6.QtGui import QImage, QPainter

from referee_app.core.errors import FieldError

#: the reports library (reportlab and the templates) is imported when a report is made,
#: not when the window opens (launch time, issue 12)
REPORTS = ("standings", "table", "player", "hand", "seating", "slips", "teams")

if TYPE_CHECKING:
    from PySide6.QtPrintSupport import QPrinter

    from .desk import Desk


class ReportRequestError(FieldError):
    """A report cannot be made from the current selection (field names what is missing)."""

    code = "report_request"


class PdfPageError(FieldError):
    """The PDF bytes cannot be read, a page number is out of range, or the printer cannot
    start."""

    code = "pdf_page"


@dataclass(frozen=True)
class ReportRequest:
    """One report and its parameters as ``api.gather_data`` takes them."""

    report: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.report not in REPORTS:
            raise ReportRequestError.of("report", "unknown_report", got=self.report,
                                        known=list(REPORTS))
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def file_stem(self) -> str:
        """A default file name for Save as PDF: ``standings-r2``, ``table-r1-t3``, …"""
        parts = [self.report]
        for key, tag in (("round", "r"), ("through", "after"), ("table", "t"), ("hand_id", "h"),
                         ("player", "")):
            value = self.params.get(key)
            if value is not None:
                parts.append(f"{tag}{value}")
        return "-".join(str(p).replace(os.sep, "_") for p in parts)


@dataclass(frozen=True)
class Selection:
    """What the referee has selected in the window, from which each report takes its part."""

    round: int | None = None
    table: int | None = None
    hand_id: int | None = None
    player: str | None = None
    standings_round: int | None = None  # the standings filter: after round N (rounds 1..N)
    standings_only: int | None = None  # … or round N alone


def standings_request(only: int | None = None, through: int | None = None,
                      report: str = "standings", stage: int | None = None) -> ReportRequest:
    """The standings as the filter shows them: round N alone (``round``), after round N
    (``through``), or overall — the meanings of ``report standings --round/--through``;
    ``stage``: one stage alone (``--stage``); ``report="teams"``: the team standings in
    that scope."""
    params = {k: v for k, v in (("round", only), ("through", through), ("stage", stage))
              if v is not None}
    return ReportRequest(report, params)


def request_for(report: str, sel: Selection) -> ReportRequest:
    """The request of ``report`` for the selection; names what is missing when it cannot."""
    if report in ("standings", "teams"):
        return standings_request(sel.standings_only, sel.standings_round, report)
    if report == "hand":
        if sel.hand_id is None:
            raise ReportRequestError.of("hand", "no_hand_selected")
        return ReportRequest("hand", {"hand_id": sel.hand_id})
    if report == "player":
        if not sel.player:
            raise ReportRequestError.of("player", "no_player_selected")
        return ReportRequest("player", {"player": sel.player})
    if sel.round is None:
        raise ReportRequestError.of("round", "no_round_selected")
    if report == "seating":
        return ReportRequest("seating", {"round": sel.round})
    if report in ("table", "slips"):
        return ReportRequest(report, {"round": sel.round, "table": sel.table})
    raise ReportRequestError.of("report", "unknown_report", got=report, known=list(REPORTS))


def gather(desk: Desk, req: ReportRequest, generated_at: datetime | None = None) -> Any:
    """The report's data from the open tournament (the reports library's gather step)."""
    when = generated_at or datetime.now(UTC).replace(microsecond=0)
    from referee_app.reports import api

    return api.gather_data(req.report, desk.t, when, **req.params)


def render(req: ReportRequest, data: Any, desk: Desk | None = None) -> bytes:
    """The PDF bytes of gathered data, laid out by the report's template (from the open
    tournament's template folder when it names one)."""
    from referee_app.reports import api
    from referee_app.reports.template import load_template

    folder = api.templates_folder(desk.t) if desk is not None else None
    return api.render(req.report, data, load_template(req.report, folder=folder))


def make_pdf(desk: Desk, req: ReportRequest, generated_at: datetime | None = None) -> bytes:
    """Gather then render: the same PDF ``referee-app report`` writes."""
    return render(req, gather(desk, req, generated_at), desk)


def save_pdf(pdf: bytes, path: str | Path) -> Path:
    """Write the PDF bytes to ``path`` via a temporary file beside it, so a failure never
    leaves a half-written file or clobbers an existing one."""
    from referee_app.reports.api import write_atomic

    return write_atomic(path, pdf)


class PdfPages:
    """The pages of a PDF as images, drawn by PDFium at any resolution."""

    def __init__(self, pdf: bytes) -> None:
        import pypdfium2 as pdfium

        try:
            self._doc = pdfium.PdfDocument(pdf)
        except pdfium.PdfiumError as e:
            raise PdfPageError.of("pdf", "pdf_unreadable", detail=str(e)) from None
        self.count = len(self._doc)

    def close(self) -> None:
        self._doc.close()

    def size_pt(self, index: int) -> tuple[float, float]:
        """Page size in points (1/72 inch)."""
        w, h = self._page(index).get_size()
        return float(w), float(h)

    def image(self, index: int, dpi: float) -> QImage:
        """Page ``index`` (0-based) as an RGB image at ``dpi`` dots per inch."""
        bitmap = self._page(index).render(scale=dpi / 72.0, rev_byteorder=True)
        try:
            # default format: 3-byte BGR, reversed to RGB; rows are ``stride`` bytes apart
            img = QImage(bytes(bitmap.buffer), bitmap.width, bitmap.height, bitmap.stride,
                         QImage.Format.Format_RGB888)
            img = img.copy()  # own the pixels: the buffer dies with the bitmap
        finally:
            bitmap.close()
        dots_per_metre = round(dpi / 0.0254)
        img.setDotsPerMeterX(dots_per_metre)
        img.setDotsPerMeterY(dots_per_metre)
        return img

    def _page(self, index: int) -> Any:
        if not 0 <= index < self.count:
            raise PdfPageError.of("page", "pdf_no_page", page=index + 1, count=self.count)
        return self._doc[index]


def print_pdf(pages: PdfPages, printer: QPrinter) -> int:
    """Print every page on ``printer``, each rendered at the printer's own resolution and
    fitted (aspect kept, centred) to its printable area. A page range chosen in the print
    dialog (``printer.fromPage()``/``toPage()``, 1-based, 0 = all) is kept. Returns the
    number of pages printed."""
    first = max(1, printer.fromPage() or 1)
    last = min(pages.count, printer.toPage() or pages.count)
    if first > last:
        raise PdfPageError.of("pages", "pdf_no_pages", first=first, last=last,
                              count=pages.count)
    # capped at 300 dpi: sharp text and tiles, while an A4 page stays a 26 MB bitmap
    dpi = max(72, min(printer.resolution(), 300))
    painter = QPainter()
    if not painter.begin(printer):
        raise PdfPageError.of("printer", "printer_not_started")
    try:
        for i in range(first - 1, last):
            if i > first - 1:
                printer.newPage()
            img = pages.image(i, dpi)
            area = painter.viewport()
            scale = min(area.width() / img.width(), area.height() / img.height())
            w, h = img.width() * scale, img.height() * scale
            target = QRectF((area.width() - w) / 2, (area.height() - h) / 2, w, h)
            painter.drawImage(target, img)
    finally:
        painter.end()
    return last - first + 1
