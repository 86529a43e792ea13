"""Print preview of one report: its real PDF pages, page by page, zoom, print, save as PDF.

The pages shown are the PDF's own, drawn by PDFium (controllers.reports.PdfPages), so the
preview, the printout and the saved file are the same document.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QImage, QKeySequence, QPixmap, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..controllers import reports as ctl
from ..i18n import LANG, tr
from ..messages import exception_text

#: zoom choices: "width"/"page" fit the window, numbers are percent of the printed size
ZOOMS: tuple[str | int, ...] = ("width", "page", 50, 75, 100, 125, 150, 200, 300)


class ReportPreviewDialog(QDialog):
    """One report's pages with navigation, zoom, *Print…* and *Save as PDF…*."""

    def __init__(self, title: str, request: ctl.ReportRequest, pdf: bytes,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("report_preview")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose, True)  # frees its page images
        self.title = title
        self.request = request
        self.pdf = pdf
        self.pages = ctl.PdfPages(pdf)
        self.page = 0
        self._cache: dict[tuple[int, int], QImage] = {}
        #: hooks (tests replace them): message box, save path, printer choice
        self.show_message: Callable[[str], None] = self._message_box
        self.choose_save_path: Callable[[str], str | None] = self._save_dialog
        self.choose_printer: Callable[[], Any] = self._print_dialog
        self.messages: list[str] = []
        self.resize(900, 1000)

        self.btn_prev = QPushButton()
        self.btn_next = QPushButton()
        self.page_box = QSpinBox()
        self.page_box.setObjectName("page_box")
        self.page_box.setRange(1, max(1, self.pages.count))
        self.page_of = QLabel()
        self.zoom_box = QComboBox()
        self.zoom_box.setObjectName("zoom_box")
        self.btn_zoom_out = QPushButton("−")
        self.btn_zoom_in = QPushButton("+")
        for b in (self.btn_zoom_out, self.btn_zoom_in):
            b.setFixedWidth(32)
        self.btn_print = QPushButton()
        self.btn_print.setObjectName("btn_print")
        self.btn_save = QPushButton()
        self.btn_save.setObjectName("btn_save")
        self.btn_close = QPushButton()
        self.lbl_zoom = QLabel()

        self.view = QLabel()
        self.view.setObjectName("page_view")
        self.view.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll = QScrollArea()
        self.scroll.setWidget(self.view)
        self.scroll.setWidgetResizable(True)
        self.scroll.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.scroll.setStyleSheet("QScrollArea, QScrollArea > QWidget > QWidget "
                                  "{ background: #6b6b6b; }")

        bar = QHBoxLayout()
        for w in (self.btn_prev, self.page_box, self.page_of, self.btn_next):
            bar.addWidget(w)
        bar.addSpacing(16)
        for w in (self.lbl_zoom, self.btn_zoom_out, self.zoom_box, self.btn_zoom_in):
            bar.addWidget(w)
        bar.addStretch(1)
        for w in (self.btn_print, self.btn_save, self.btn_close):
            bar.addWidget(w)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(bar)
        lay.addWidget(self.scroll, 1)

        self.btn_prev.clicked.connect(lambda: self.go_to(self.page - 1))
        self.btn_next.clicked.connect(lambda: self.go_to(self.page + 1))
        self.page_box.valueChanged.connect(lambda v: self.go_to(v - 1))
        self.zoom_box.currentIndexChanged.connect(lambda _i: self._show())
        self.btn_zoom_in.clicked.connect(lambda: self.step_zoom(+1))
        self.btn_zoom_out.clicked.connect(lambda: self.step_zoom(-1))
        self.btn_print.clicked.connect(self.print_dialog)
        self.btn_save.clicked.connect(self.save_dialog)
        self.btn_close.clicked.connect(self.close)
        for b in (self.btn_prev, self.btn_next, self.btn_zoom_out, self.btn_zoom_in,
                  self.btn_print, self.btn_save, self.btn_close):
            b.setAutoDefault(False)  # Enter in the page box must not print or close
        self.finished.connect(lambda _r: self.pages.close())
        for keys, fn in (((QKeySequence.StandardKey.MoveToNextPage, "PgDown"),
                          lambda: self.go_to(self.page + 1)),
                         ((QKeySequence.StandardKey.MoveToPreviousPage, "PgUp"),
                          lambda: self.go_to(self.page - 1)),
                         ((QKeySequence.StandardKey.ZoomIn, "Ctrl+="),
                          lambda: self.step_zoom(+1)),
                         ((QKeySequence.StandardKey.ZoomOut,), lambda: self.step_zoom(-1)),
                         ((QKeySequence.StandardKey.Print,), self.print_dialog),
                         ((QKeySequence.StandardKey.Save,), self.save_dialog)):
            for key in keys:
                QShortcut(QKeySequence(key), self, activated=fn)
        self.scroll.viewport().installEventFilter(self)
        LANG.changed.connect(self.retranslate)
        self.retranslate()
        self.zoom_box.setCurrentIndex(ZOOMS.index("width"))
        self._show()

    # ------------------------------------------------------------------ texts

    def retranslate(self, *_args: object) -> None:
        self.setWindowTitle(f"{tr('Print preview')} · {self.title}")
        self.btn_prev.setText(tr("prev_page"))
        self.btn_next.setText(tr("next_page"))
        self.page_of.setText(tr("of_pages", n=self.pages.count))
        self.lbl_zoom.setText(tr("Zoom") + ":")
        self.btn_print.setText(tr("Print…"))
        self.btn_save.setText(tr("Save as PDF…"))
        self.btn_close.setText(tr("Close"))
        keep = max(0, self.zoom_box.currentIndex())
        self.zoom_box.blockSignals(True)
        self.zoom_box.clear()
        for z in ZOOMS:
            self.zoom_box.addItem(tr(f"zoom_{z}") if isinstance(z, str) else f"{z} %", z)
        self.zoom_box.setCurrentIndex(keep)
        self.zoom_box.blockSignals(False)

    # ------------------------------------------------------------------ pages

    def go_to(self, page: int) -> None:
        """Show page ``page`` (0-based; clamped to the document)."""
        self.page = max(0, min(page, self.pages.count - 1))
        self.page_box.blockSignals(True)
        self.page_box.setValue(self.page + 1)
        self.page_box.blockSignals(False)
        self._show()
        self.scroll.verticalScrollBar().setValue(0)  # a new page starts at its top

    def step_zoom(self, step: int) -> None:
        """Next larger/smaller percentage (from a fit mode: the percentage it amounts to)."""
        percent = round(self.zoom_percent())
        numbers = [z for z in ZOOMS if isinstance(z, int)]
        if step > 0:
            target = next((z for z in numbers if z > percent), numbers[-1])
        else:
            target = next((z for z in reversed(numbers) if z < percent), numbers[0])
        self.zoom_box.setCurrentIndex(ZOOMS.index(target))

    def zoom_percent(self) -> float:
        """The current zoom as percent of the printed size (fit modes computed)."""
        z = self.zoom_box.currentData()
        if isinstance(z, int):
            return float(z)
        w_pt, h_pt = self.pages.size_pt(self.page)
        screen_dpi = self.logicalDpiX() or 96
        avail = self.scroll.viewport().size()
        w_px, h_px = max(100, avail.width() - 24), max(100, avail.height() - 24)
        fit_w = w_px / (w_pt / 72 * screen_dpi) * 100
        if z == "page":
            return min(fit_w, h_px / (h_pt / 72 * screen_dpi) * 100)
        return fit_w

    def page_image(self, page: int | None = None) -> QImage:
        """The page as shown now (rendered for the screen's pixels at the current zoom)."""
        page = self.page if page is None else page
        ratio = self.devicePixelRatioF() or 1.0
        dpi = round((self.logicalDpiX() or 96) * self.zoom_percent() / 100 * ratio)
        key = (page, max(dpi, 10))
        if key not in self._cache:
            if len(self._cache) > 8:
                self._cache.clear()
            img = self.pages.image(page, key[1])
            img.setDevicePixelRatio(ratio)
            self._cache[key] = img
        return self._cache[key]

    def _show(self) -> None:
        if self.pages.count == 0:
            self.view.setText(tr("no_pages"))
            return
        self.view.setPixmap(QPixmap.fromImage(self.page_image()))
        self.btn_prev.setEnabled(self.page > 0)
        self.btn_next.setEnabled(self.page < self.pages.count - 1)

    def eventFilter(self, obj: Any, event: Any) -> bool:
        """Fit modes follow the viewport's size (dialog resized, scroll bar shown)."""
        if (obj is self.scroll.viewport() and event.type() == QEvent.Type.Resize
                and isinstance(self.zoom_box.currentData(), str)):
            self._show()
        return super().eventFilter(obj, event)

    # ------------------------------------------------------------------ print / save

    def _message_box(self, text: str) -> None:
        QMessageBox.warning(self, tr("app_title"), text)

    def message(self, text: str) -> None:
        self.messages.append(text)
        self.show_message(text)

    def _save_dialog(self, suggested: str) -> str | None:
        path, _filter = QFileDialog.getSaveFileName(self, tr("Save as PDF…"), suggested,
                                                    "PDF (*.pdf)")
        return path or None

    def _print_dialog(self) -> Any:
        from PySide6.QtPrintSupport import QPrintDialog, QPrinter

        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setDocName(self.title)
        dlg = QPrintDialog(printer, self)
        dlg.setMinMax(1, max(1, self.pages.count))
        dlg.setWindowTitle(tr("Print…"))
        return printer if dlg.exec() == QDialog.DialogCode.Accepted else None

    def save_dialog(self) -> bool:
        """*Save as PDF…*: ask where, then write the previewed bytes there."""
        path = self.choose_save_path(self.request.file_stem() + ".pdf")
        if not path:
            return False
        if not path.lower().endswith(".pdf"):
            path += ".pdf"
        return self.save_as(path)

    def save_as(self, path: str) -> bool:
        try:
            written = ctl.save_pdf(self.pdf, path)
        except OSError as e:
            self.message(tr("cannot_write", path=path, msg=exception_text(e)))
            return False
        self.messages.append(tr("saved_pdf", path=str(written), n=len(self.pdf)))
        return True

    def print_dialog(self) -> bool:
        """*Print…*: the system's print dialog, then every page at the printer's resolution."""
        printer = self.choose_printer()
        return False if printer is None else self.print_to(printer)

    def print_to(self, printer: Any) -> bool:
        try:
            ctl.print_pdf(self.pages, printer)
        except (OSError, ValueError) as e:
            self.message(tr("cannot_print", msg=exception_text(e)))
            return False
        return True
