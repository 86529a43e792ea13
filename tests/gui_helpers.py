"""Fixtures and keyboard helpers shared by the GUI tests (pytest-qt, offscreen)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from examples import spec_example
from PySide6.QtCore import Qt
from PySide6.QtGui import QInputMethodEvent
from PySide6.QtWidgets import QApplication, QDialog, QWidget

from referee_app.core import Ruleset, get_ruleset
from referee_app.storage import Tournament

SPEC_EXAMPLE = spec_example()
#: the totals hand-format.md gives for SPEC_EXAMPLE
SPEC_TOTALS = {"E": 30, "S": 16, "W": -61, "N": 15}

PLAYERS = [("李伟", "Li Wei"), ("张敏", "Zhang Min"), ("陈杰", "Chen Jie"), ("王芳", "Wang Fang")]


def make_tournament(path: Path, ruleset: str | Ruleset = "ottawa-2009",
                    players: list[tuple[str, str]] | None = None,
                    setup: Callable[[Tournament], None] | None = None,
                    **create: Any) -> dict[str, str]:
    """A tournament file with one seated round; returns table 1's seat -> player.

    ``ruleset``: a shipped id or a club's Ruleset; ``create``: more ``Tournament.create``
    arguments (``cap_fan``, ``head_referee``/``head_pin``); ``setup`` runs last (a cap
    change, referees)."""
    t = Tournament.create(path, "测试赛 Test Open", ruleset=ruleset, backup_every=0, **create)
    try:
        if create.get("head_pin"):
            t.referees.sign_in(create["head_referee"], create["head_pin"])
        seats = (ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)).seats
        for name, latin in players or PLAYERS[:len(seats)]:
            t.players.add(name, name_latin=latin)
        seating = t.rounds.seat(1, seed=3)
        if setup is not None:
            setup(t)
        return dict(seating.tables[1])
    finally:
        t.close()


def example_record(seating: dict[str, str]) -> dict[str, Any]:
    rec = json.loads(json.dumps(SPEC_EXAMPLE))
    for seat, player in seating.items():
        rec["seats"][seat]["player"] = player
    return rec


def commit_text(widget: QWidget, text: str) -> None:
    """Type text as an input method commits it (keyClicks aborts on non-ASCII text)."""
    widget.setFocus()
    ev = QInputMethodEvent("", [])
    ev.setCommitString(text)
    QApplication.sendEvent(widget, ev)


class Answers:
    """Stands in for the reason prompts: pops prepared answers, records what was asked."""

    def __init__(self) -> None:
        self.queue: list[str | None] = []
        self.asked: list[str] = []

    def __call__(self, title: str, prompt: str) -> str | None:
        self.asked.append(title)
        return self.queue.pop(0) if self.queue else None


@pytest.fixture
def desk_window(qtbot, tmp_path: Path) -> Callable[..., Any]:
    """Factory: ``win, seating = desk_window()`` — a main window on a fresh tournament."""
    from referee_app.fonts import register_qt_font
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.i18n import LANG
    from referee_app.gui.views.main_window import MainWindow

    opened: list[Any] = []

    def make(ruleset: str | Ruleset = "ottawa-2009", lang: str = "en",
             setup: Callable[[Tournament], None] | None = None,
             **create: Any) -> tuple[Any, dict[str, str]]:
        path = tmp_path / f"t-{len(opened)}.sqlite"
        seating = make_tournament(path, ruleset, setup=setup, **create)
        register_qt_font()
        LANG.set(lang)
        desk = Desk.open(path, referee="Tester")
        win = MainWindow(desk)
        win.ask_text = Answers()
        # the multi-line reason dialog answers from the same prepared answers
        win.ask_reason = lambda title, prompt, summary: win.ask_text(title, prompt)
        # the override: a prepared (reason, {seat: chips}) answer from the same queue
        win.ask_override = lambda players: win.ask_text("override", ", ".join(players))
        win.show_message = lambda text: None
        win.confirm_discard = lambda: True
        win.dealer_warnings = []  # the dealer warnings shown before saving; saved anyway
        win.confirm_dealer = lambda text: win.dealer_warnings.append(text) or True
        qtbot.addWidget(win)
        win.show()
        win.activateWindow()
        qtbot.waitUntil(win.isActiveWindow, timeout=3000)
        opened.append((win, desk))
        return win, seating

    yield make
    LANG.set("zh")
    for win, desk in opened:
        win.close()
        # a test that left the form unsaved may have had the close refused: its timers must
        # not fire into the next test once the file is closed
        win.impact_timer.stop()
        win.faults.follower.stop()
        desk.close()


def _operate(qtbot, actions: Callable[[QDialog], None], enter: bool) -> Callable[[QDialog], bool]:
    def run(dlg: QDialog) -> bool:
        dlg.show()
        dlg.activateWindow()
        qtbot.waitUntil(dlg.isActiveWindow, timeout=3000)
        actions(dlg)
        if enter:
            qtbot.keyClick(dlg, Qt.Key.Key_Return)
        else:
            qtbot.waitUntil(lambda: not dlg.isVisible(), timeout=3000)
        # a window manager hands activation back to the main window; offscreen Qt does not
        main = dlg.parentWidget().window() if dlg.parentWidget() else None
        if main is not None:
            main.activateWindow()
            qtbot.waitUntil(main.isActiveWindow, timeout=3000)
        return dlg.result() == QDialog.DialogCode.Accepted

    return run


def drive_dialog(qtbot, actions: Callable[[QDialog], None]) -> Callable[[QDialog], bool]:
    """An ``exec_dialog`` replacement that operates the dialog by keyboard, then Enter."""
    return _operate(qtbot, actions, enter=True)


def keys_dialog(qtbot, actions: Callable[[QDialog], None]) -> Callable[[QDialog], bool]:
    """A ``run_dialog`` replacement that shows the dialog and operates it by the keys of
    ``actions`` alone (which must end it: Enter, Esc, Ctrl+Enter, an Alt+letter); a dialog
    still open after them fails the test."""
    return _operate(qtbot, actions, enter=False)


# --------------------------------------------------------------------------- typing the spec example


def type_seats(qtbot, win, concealed: dict[str, str], pongs: dict[str, str]) -> None:
    """Type each seat's tiles, moving between fields with Tab as a referee would."""
    entry = win.entry
    first = entry.panels["E"].concealed
    first.setFocus()
    for seat in entry.form.seat_labels:
        panel = entry.panels[seat]
        assert panel.concealed.hasFocus()
        qtbot.keyClicks(panel.concealed, concealed[seat])
        qtbot.keyClick(panel.concealed, Qt.Key.Key_Tab)
        assert panel.pongs.hasFocus()
        if pongs.get(seat):
            qtbot.keyClicks(panel.pongs, pongs[seat])
        qtbot.keyClick(panel.pongs, Qt.Key.Key_Tab)


def add_kong_s_9s(qtbot, win) -> None:
    def kong(dlg):
        qtbot.keyClick(dlg.seat, Qt.Key.Key_Down)  # E -> S
        dlg.tile.setFocus()
        qtbot.keyClicks(dlg.tile, "9s")  # kind defaults to concealed

    win.entry.exec_dialog = drive_dialog(qtbot, kong)
    qtbot.keyClick(win.entry.btn_kong, Qt.Key.Key_Space)


def add_win(qtbot, win, winner: str, tile: str, discarder_downs: int) -> None:
    def w(dlg):
        dlg.winners[winner].setFocus()
        qtbot.keyClick(dlg.winners[winner], Qt.Key.Key_Space)
        dlg.tile.setFocus()
        qtbot.keyClicks(dlg.tile, tile)
        for _ in range(discarder_downs):  # self-drawn, E, S, W, N
            qtbot.keyClick(dlg.frm, Qt.Key.Key_Down)

    win.entry.exec_dialog = drive_dialog(qtbot, w)
    qtbot.keyClick(win.entry.btn_win, Qt.Key.Key_Space)


def enter_spec_example(qtbot, win) -> None:
    win.navigator.select_key(("table", 1, 1))
    type_seats(qtbot, win,
                {"E": "1112345678999m", "S": "2366p456s", "W": "35579m2468p1357s",
                 "N": "2344567p345678s"},
                {"S": "5p"})
    add_kong_s_9s(qtbot, win)
    add_win(qtbot, win, "N", "7p", 3)  # from W
    add_win(qtbot, win, "E", "1m", 0)  # self-drawn
    win.entry.wall.setFocus()
    qtbot.keyClick(win.entry.wall, Qt.Key.Key_Space)


# --------------------------------------------------------------------------- texts that do not fit


def _where(w: QWidget) -> str:
    names = []
    while w is not None and len(names) < 4:
        names.append(w.objectName() or type(w).__name__)
        w = w.parentWidget()
    return "/".join(names)


def _wrapped_height(text: str, font: Any, width: int) -> float:
    """The height of ``text`` wrapped at ``width`` as Qt lays it out (fallback fonts'
    taller lines included)."""
    from PySide6.QtGui import QTextLayout, QTextOption

    layout = QTextLayout(text, font)
    opt = QTextOption()
    opt.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    layout.setTextOption(opt)
    layout.beginLayout()
    height = 0.0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(max(1, width))
        height += line.height()
    layout.endLayout()
    return height


def cut_texts(root: QWidget) -> list[str]:
    """Every text shown cut in ``root`` (issue 25), one line each: a label whose size hint
    (or, word-wrapped, whose height for its width) exceeds its geometry; a group box title
    wider than its title box or its box; a button, check box or tab narrower than its text;
    a line edit's hint wider than the field; a table header or cell narrower than its text
    (a word-wrapped cell: taller than its row); a tree row past its column (elided)."""
    from PySide6.QtWidgets import (
        QAbstractButton,
        QGroupBox,
        QLabel,
        QLineEdit,
        QStyle,
        QStyleOptionGroupBox,
        QTabBar,
        QTableWidget,
        QToolButton,
        QTreeWidget,
    )

    from referee_app.gui.views.keyboard import plain

    bad: list[str] = []
    for lbl in root.findChildren(QLabel):
        if not lbl.isVisible() or not lbl.text() or not lbl.pixmap().isNull():
            continue
        if lbl.wordWrap():
            need = lbl.heightForWidth(lbl.width())
            if need > lbl.height() + 1:
                bad.append(f"label {_where(lbl)} {lbl.text()[:50]!r}: {need} px high needed, "
                           f"{lbl.height()} given")
        else:
            sh = lbl.sizeHint()
            if sh.width() > lbl.width() + 1 or sh.height() > lbl.height() + 1:
                bad.append(f"label {_where(lbl)} {lbl.text()[:50]!r}: {sh.width()}x"
                           f"{sh.height()} needed, {lbl.width()}x{lbl.height()} given")
    for g in root.findChildren(QGroupBox):
        if not g.isVisible() or not g.title():
            continue
        opt = QStyleOptionGroupBox()
        g.initStyleOption(opt)
        r = g.style().subControlRect(QStyle.ComplexControl.CC_GroupBox, opt,
                                     QStyle.SubControl.SC_GroupBoxLabel, g)
        need = g.fontMetrics().horizontalAdvance(plain(g.title()))
        if r.width() < need or r.right() > g.width():
            bad.append(f"group title {_where(g)} {g.title()!r}: {need} px needed, {r.width()} "
                       f"given (box {g.width()})")
    for b in root.findChildren(QAbstractButton):
        if b.isVisible() and b.text() and not isinstance(b, QToolButton) \
                and b.sizeHint().width() > b.width() + 1:
            bad.append(f"button {_where(b)} {b.text()!r}: {b.sizeHint().width()} px needed, "
                       f"{b.width()} given")
    for e in root.findChildren(QLineEdit):
        if e.isVisible() and not e.text() and e.placeholderText() and \
                e.fontMetrics().horizontalAdvance(e.placeholderText()) > e.width() - 12:
            bad.append(f"hint {_where(e)} {e.placeholderText()!r}: wider than {e.width()} px")
    for bar in root.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            need = bar.fontMetrics().horizontalAdvance(plain(bar.tabText(i)))
            if bar.tabRect(i).width() < need + 8:
                bad.append(f"tab {bar.tabText(i)!r}: {need} px needed")
    for t in root.findChildren(QTableWidget):
        if not t.isVisible():
            continue
        head = t.horizontalHeader()
        margin = 2 * (t.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, t) + 1)
        for c in range(t.columnCount()):
            w = head.sectionSize(c)
            if t.isColumnHidden(c) or w == 0:
                continue
            title = t.horizontalHeaderItem(c)
            if head.isVisible() and head.sectionSizeFromContents(c).width() > w:
                bad.append(f"header {_where(t)} {title.text() if title else c!r}: "
                           f"{head.sectionSizeFromContents(c).width()} px needed, {w} given")
            for r in range(t.rowCount()):
                it = t.item(r, c)
                if it is None or not it.text() or t.isRowHidden(r):
                    continue
                if t.sizeHintForIndex(t.model().index(r, c)).width() <= w:
                    continue  # one line that fits
                # wrapped: its lines must fit the row (Qt elides a last line that does not
                # fit with room to spare: 4 px)
                if t.wordWrap() and \
                        _wrapped_height(it.text(), it.font(), w - margin) + 4 <= t.rowHeight(r):
                    continue
                bad.append(f"cell {_where(t)} [{r},{c}] {it.text()[:40]!r}: wider than {w} px "
                           f"(row {t.rowHeight(r)} px)")
    for tree in root.findChildren(QTreeWidget):
        if not tree.isVisible():
            continue
        right = tree.header().sectionPosition(0) + tree.header().sectionSize(0)
        todo = [tree.topLevelItem(i) for i in range(tree.topLevelItemCount())]
        while todo:
            it = todo.pop()
            rect = tree.visualItemRect(it)
            need = tree.fontMetrics().horizontalAdvance(it.text(0))
            if rect.isValid() and rect.x() + tree.horizontalOffset() + need > right + 2:
                bad.append(f"tree row {it.text(0)[:40]!r}: past its column ({right} px)")
            if it.isExpanded():
                todo += [it.child(i) for i in range(it.childCount())]
    return bad
