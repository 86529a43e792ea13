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


def drive_dialog(qtbot, actions: Callable[[QDialog], None]) -> Callable[[QDialog], bool]:
    """An ``exec_dialog`` replacement that operates the dialog by keyboard, then Enter."""

    def run(dlg: QDialog) -> bool:
        dlg.show()
        dlg.activateWindow()
        qtbot.waitUntil(dlg.isActiveWindow, timeout=3000)
        actions(dlg)
        qtbot.keyClick(dlg, Qt.Key.Key_Return)
        # a window manager hands activation back to the main window; offscreen Qt does not
        main = dlg.parentWidget().window() if dlg.parentWidget() else None
        if main is not None:
            main.activateWindow()
            qtbot.waitUntil(main.isActiveWindow, timeout=3000)
        return dlg.result() == QDialog.DialogCode.Accepted

    return run


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
