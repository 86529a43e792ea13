"""Reports from the desk: preview of the real PDF pages, print, save (pytest-qt, offscreen)."""

from __future__ import annotations

import io

import gui_helpers
import pytest
from gui_helpers import PLAYERS, example_record
from pypdf import PdfReader
from PySide6.QtCore import Qt
from PySide6.QtGui import QImage
from PySide6.QtPrintSupport import QPrinter

from referee_app.gui.controllers import reports as ctl

desk_window = gui_helpers.desk_window  # the fixture, shared with the other GUI tests
CTRL = Qt.KeyboardModifier.ControlModifier


def _dark_fraction(img: QImage) -> float:
    """Share of pixels darker than mid-grey (0 for a blank white page)."""
    grey = img.convertToFormat(QImage.Format.Format_Grayscale8)
    w, h, stride = grey.width(), grey.height(), grey.bytesPerLine()
    data = bytes(grey.constBits())
    dark = sum(1 for y in range(0, h, 2) for x in data[y * stride:y * stride + w:2] if x < 128)
    return dark / ((w // 2 + 1) * (h // 2 + 1))


def _pdf_text(data: bytes) -> str:
    return "\n".join(p.extract_text() or "" for p in PdfReader(io.BytesIO(data)).pages)


def _save_hand(win, seating) -> int:
    """Store the hand-format.md example as hand 1 of table 1 and select it."""
    h = win.desk.t.hands.add(example_record(seating), round=1, table=1, hand_no=1,
                            referee="Tester")
    win.reload()
    assert win.navigator.select_key(("hand", h.id))
    return h.id


def test_standings_preview_shows_rendered_pages(qtbot, desk_window):
    win, _seating = desk_window()
    dlg = win.menus.reports.open("standings_all")
    assert dlg is not None and dlg.isVisible()
    assert dlg.request == ctl.ReportRequest("standings", {})
    assert dlg.pages.count > 0
    assert dlg.page_of.text() == f"of {dlg.pages.count}"
    img = dlg.page_image()
    assert img.width() > 300 and img.height() > 300
    frac = _dark_fraction(img)
    assert 0.001 < frac < 0.5, frac  # text and rules on a white page, not blank, not black
    shown = dlg.view.pixmap()
    assert not shown.isNull() and shown.width() == img.width()
    # the previewed bytes are the report library's PDF of this tournament
    text = _pdf_text(dlg.pdf)
    assert all(latin in text for _zh, latin in PLAYERS)


def test_save_as_pdf_writes_the_previewed_bytes(qtbot, desk_window, tmp_path):
    win, _seating = desk_window()
    dlg = win.menus.reports.open("standings_all")
    asked: list[str] = []
    target = tmp_path / "out" / "standings"
    target.parent.mkdir()
    dlg.choose_save_path = lambda suggested: asked.append(suggested) or str(target)
    qtbot.mouseClick(dlg.btn_save, Qt.MouseButton.LeftButton)
    assert asked == ["standings.pdf"]
    written = target.with_suffix(".pdf")  # .pdf is added when the name has none
    assert written.read_bytes() == dlg.pdf
    assert "Li Wei" in _pdf_text(written.read_bytes())
    assert [p.name for p in target.parent.iterdir()] == ["standings.pdf"]  # no temp left
    # cancelling writes nothing; an unwritable path is a message, not a traceback
    dlg.choose_save_path = lambda suggested: None
    assert dlg.save_dialog() is False
    shown: list[str] = []
    dlg.show_message = shown.append
    assert dlg.save_as(str(tmp_path / "missing-dir" / "x.pdf")) is False
    assert shown and "missing-dir" in shown[0]


def test_print_to_pdf_printer_without_dialog(qtbot, desk_window, tmp_path):
    win, seating = desk_window()
    _save_hand(win, seating)
    dlg = win.menus.reports.open("hand")
    out = tmp_path / "printed.pdf"
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(out))
    printer.setResolution(150)
    dlg.choose_printer = lambda: printer
    qtbot.mouseClick(dlg.btn_print, Qt.MouseButton.LeftButton)
    assert out.exists() and out.stat().st_size > 10_000
    printed = PdfReader(str(out))
    assert len(printed.pages) == dlg.pages.count > 1  # every page, one sheet each
    # the pages carry the rendered report: the printout's first page is not blank
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(str(out))[0].render(scale=0.5, rev_byteorder=True)
    img = QImage(bytes(page.buffer), page.width, page.height, page.stride,
                 QImage.Format.Format_RGB888).copy()
    assert _dark_fraction(img) > 0.001
    # a chosen page range prints only those pages
    out2 = tmp_path / "page2.pdf"
    printer2 = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer2.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer2.setOutputFileName(str(out2))
    printer2.setResolution(100)
    printer2.setFromTo(2, 2)
    assert ctl.print_pdf(dlg.pages, printer2) == 1
    assert len(PdfReader(str(out2)).pages) == 1


def test_ctrl_p_previews_the_report_of_the_view(qtbot, desk_window):
    win, seating = desk_window()
    hand_id = _save_hand(win, seating)
    win.tabs.setCurrentWidget(win.trace)
    qtbot.keyClick(win, Qt.Key.Key_P, CTRL)
    dlg = win.menus.reports.dialogs[-1]
    assert dlg.request == ctl.ReportRequest("hand", {"hand_id": hand_id})
    assert "§" in _pdf_text(dlg.pdf)  # the ruling sheet cites its clauses
    dlg.close()  # deleted on close: it leaves the list of open previews
    qtbot.waitUntil(lambda: dlg not in win.menus.reports.dialogs, timeout=3000)
    win.tabs.setCurrentWidget(win.standings)
    win.standings.round_box.setCurrentIndex(win.standings.round_box.findData(1))
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    qtbot.keyClick(win, Qt.Key.Key_P, CTRL)
    (dlg2,) = win.menus.reports.dialogs
    assert dlg2.request == ctl.ReportRequest("standings", {"through": 1})
    assert "round 1" in dlg2.windowTitle()
    win.tabs.setCurrentWidget(win.seating)
    seat_dlg = win.menus.reports.preview_current()
    assert seat_dlg.request == ctl.ReportRequest("seating", {"round": 1})
    text = _pdf_text(seat_dlg.pdf)
    assert "Seating chart" in text and all(latin in text for _zh, latin in PLAYERS)


def test_menu_actions_follow_the_selection_and_language(qtbot, desk_window):
    win, _seating = desk_window()
    menu = win.menus.reports
    assert menu.menu.title() == "&Reports"
    win.navigator.select_key(("table", 1, 1))
    menu.retranslate()
    assert menu.actions["table"].text() == "&Table sheets — Round 1 · Table 1…"
    assert menu.actions["standings_round"].text() == "Standings afte&r round 1…"
    dlg = menu.open("slips")
    assert dlg.request == ctl.ReportRequest("slips", {"round": 1, "table": 1})
    win.navigator.select_key(("round", 1))
    assert menu.selection().table is None
    seat_dlg = menu.open("seating")
    assert seat_dlg.request == ctl.ReportRequest("seating", {"round": 1})
    win.show_player(PLAYERS[2][0])
    player_dlg = menu.open("player")
    assert player_dlg.request.params["player"] == PLAYERS[2][0]
    assert PLAYERS[2][1] in _pdf_text(player_dlg.pdf)
    from referee_app.gui.i18n import LANG

    LANG.set("zh")
    assert menu.menu.title() == "报表(&R)"
    assert menu.act_preview.text() == "打印预览(&P)…"
    assert dlg.btn_save.text() == "另存为 PDF(&S)…"


def test_page_navigation_and_zoom(qtbot, desk_window):
    win, _seating = desk_window()
    win.navigator.select_key(("table", 1, 1))
    dlg = win.menus.reports.open("slips")
    assert dlg.pages.count >= 2
    first = dlg.page_image()
    qtbot.mouseClick(dlg.btn_next, Qt.MouseButton.LeftButton)
    assert dlg.page == 1 and dlg.page_box.value() == 2
    assert dlg.page_image() != first  # the next slip's own numbers
    dlg.go_to(99)
    assert dlg.page == dlg.pages.count - 1 and not dlg.btn_next.isEnabled()
    dlg.zoom_box.setCurrentIndex(dlg.zoom_box.findData(100))
    w100 = dlg.view.pixmap().width()
    qtbot.mouseClick(dlg.btn_zoom_in, Qt.MouseButton.LeftButton)
    assert dlg.zoom_box.currentData() == 125
    assert dlg.view.pixmap().width() == pytest.approx(w100 * 1.25, rel=0.02)


def test_missing_selection_and_library_errors_are_messages(qtbot, desk_window):
    win, _seating = desk_window()
    shown: list[str] = []
    win.show_message = shown.append
    win.navigator.select_key(("table", 1, 1))  # a new hand: nothing saved to rule on
    assert win.menus.reports.open("hand") is None
    assert shown[-1] == ("Cannot make this report: select a saved hand in the navigator "
                         "first.")
    assert win.menus.reports.preview(ctl.ReportRequest("table", {"round": 9}), "x") is None
    assert shown[-1].startswith("Cannot make this report: round: round 9 has no seating")
    assert win.menus.reports.preview(ctl.ReportRequest("player", {"player": "Nobody"}), "x") is None
    assert "Nobody" in shown[-1]
    with pytest.raises(ctl.ReportRequestError, match="report: unknown report 'elo'"):
        ctl.ReportRequest("elo")
    with pytest.raises(ctl.PdfPageError, match="pdf: cannot read"):
        ctl.PdfPages(b"not a pdf")
    assert win.menus.reports.dialogs == []
