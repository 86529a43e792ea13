"""Issue 22: the desk driven from the keyboard in 中文 shows no English.

A referee works through the main actions by keys alone — a new hand typed with a typo, a
bad events line and a broken rule, saved; go-to and find; every tab; history, penalties,
the print preview; and every file chooser (Qt's own, not the system's) — and every text of
every window, dialog and chooser on the way is read: none may hold an English word outside
the allow-list of proper nouns, names, file types, ids and tile notation (tests/gui_words.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gui_helpers
import pytest
from gui_keys import Keyboard, golden_record, seat_keys
from gui_words import english_words, visible_texts
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialog, QFileDialog, QWidget

desk_window = gui_helpers.desk_window


@pytest.fixture
def qt_dialogs():
    """Qt's own file choosers (as on a system without native ones): their words are the
    desk's to translate."""
    attr = Qt.ApplicationAttribute.AA_DontUseNativeDialogs
    before = QCoreApplication.testAttribute(attr)
    QCoreApplication.setAttribute(attr, True)
    yield
    QCoreApplication.setAttribute(attr, before)


class Reader:
    """Reads every window it is shown; ``english`` names each English word and where."""

    def __init__(self) -> None:
        self.english: list[str] = []
        self.seen: list[str] = []

    def read(self, where: str, w: QWidget) -> list[str]:
        QApplication.processEvents()
        texts = visible_texts(w)
        self.seen.append(where)
        self.english += [f"{where}: {bad}" for bad in sorted(english_words(texts))]
        return texts

    def modal(self, where: str, trigger: Callable[[], Any], *, kind: type = QFileDialog,
              then: Callable[[QWidget], None] | None = None) -> list[str]:
        """Start ``trigger`` (which opens a modal dialog and waits for it), read the dialog
        once it is up, then close it with Escape (a chooser returns nothing)."""
        got: list[str] = []
        tries = [0]

        def probe() -> None:
            dlg = QApplication.activeModalWidget()
            if not isinstance(dlg, kind) or not dlg.isVisible():
                tries[0] += 1
                if tries[0] < 200:
                    QTimer.singleShot(20, probe)
                return
            got.extend(self.read(where, dlg))
            if then is not None:
                then(dlg)
            QTest.keyClick(dlg, Qt.Key.Key_Escape)

        QTimer.singleShot(0, probe)
        trigger()
        assert got, f"{where}: no {kind.__name__} came up"
        return got


def test_the_desk_in_chinese_from_the_keyboard_shows_no_english(qtbot, desk_window,
                                                                qt_dialogs) -> None:
    win, seating = desk_window(lang="zh")
    win.show_message = lambda text: None
    read = Reader()
    kb = Keyboard()
    record = golden_record("hand_format_example")
    seats = tuple(record["seats"])

    # a new hand of table 1, typed: a typo in S's tiles, then a bad events line
    win.navigator.setFocus()
    kb.chord("Ctrl+G")
    kb.type("1 1\n")
    assert QApplication.focusWidget() is win.entry.panels["E"].concealed
    seat_keys(kb, record, seats)
    win.entry.panels["S"].concealed.setFocus()
    kb.key(Qt.Key.Key_End)
    kb.type("z")
    texts = read.read("a typo", win)
    assert any("不是牌" in t for t in texts), texts
    kb.key(Qt.Key.Key_Backspace)
    win.entry.events_line.setFocus()
    kb.type("ks9s; wq7p\n")
    texts = read.read("a bad events line", win)
    assert any("事件" in t for t in texts)
    kb.key(Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    kb.type("ks9s;wn7pw;we1m;x\n", tiles=True)
    kb.chord("Ctrl+S")
    assert len(win.desk.hands()) == 1, win.messages
    read.read("saved", win)

    # the next hand breaks a rule: E one tile short
    kb.chord("Ctrl+N")
    short = dict(record, seats={**record["seats"], "E": {"concealed": "111234567899m"}})
    seat_keys(kb, short, seats)
    win.entry.events_line.setFocus()
    kb.type("ks9s;wn7pw;we1m;x\n", tiles=True)
    texts = read.read("a broken rule", win)
    assert win.entry.evaluation.problems and any("§" in t for t in texts)
    kb.chord("Ctrl+S")  # refused: the message says why
    read.read("refused", win)

    # the saved hand, every tab, find a player
    kb.chord("Ctrl+G")
    kb.type("1 1 1\n")
    for tab in (win.trace, win.standings, win.seating, win.players, win.progress, win.entry):
        win.tabs.setCurrentWidget(tab)
        read.read(f"tab {win.tabs.tabText(win.tabs.indexOf(tab))}", win)
    win.navigator.setFocus()
    kb.chord("Ctrl+F")
    kb.type("zhang")
    win.jump_bar.completer().popup().hide()
    kb.type("\n")
    assert win.tabs.currentWidget() is win.players
    win.players.table.selectRow(0)
    read.read("a player's statement", win)

    # dialogs: history, penalties, the print preview and its save chooser
    kb.chord("Ctrl+G")
    kb.type("1 1 1\n")
    assert win.context is not None and win.context[3] is not None, (win.context, win.messages)
    for chord, name in (("Ctrl+H", "history"), ("Ctrl+Shift+P", "penalties")):
        win.navigator.setFocus()  # a tile field takes Ctrl+H as a backspace
        before = set(QApplication.topLevelWidgets())
        kb.key(*_keys(chord), label=chord)
        dlg = next(w for w in QApplication.topLevelWidgets()
                   if w not in before and isinstance(w, QDialog) and w.isVisible())
        read.read(name, dlg)
        dlg.close()
        _back(qtbot, win)
    win.tabs.setCurrentWidget(win.trace)
    kb.chord("Ctrl+P")
    preview = win.menus.reports.dialogs[-1]
    qtbot.waitUntil(lambda: preview.isVisible(), timeout=5000)
    read.read("print preview", preview)
    read.modal("Save as PDF", preview.btn_save.click)
    preview.close()
    _back(qtbot, win)

    # every file chooser of the desk
    read.modal("open a tournament", lambda: kb.chord("Ctrl+O"))
    read.modal("load a hand record", win.faults.act_load_record.trigger)
    read.modal("import a bundle", win.menus.act_import_bundle.trigger)
    read.modal("export the bundle", win.menus.act_export_bundle.trigger)
    read.modal("import players", win.players.btn_import.click)
    read.modal("report templates", win.menus.reports.act_templates.trigger)

    def new_tournament(dlg: QDialog) -> bool:
        read.read("new tournament", dlg)
        read.modal("ruleset from file", dlg.ruleset_file.button.click)
        read.modal("tournament file", dlg.browse.click)
        return False

    win.run_dialog = new_tournament
    win.menus.act_new_tournament.trigger()

    assert len(read.seen) >= 25, read.seen
    assert read.english == [], "\n".join(read.english)


def _keys(chord: str) -> tuple[Qt.Key, Qt.KeyboardModifier]:
    mods = Qt.KeyboardModifier.NoModifier
    *held, key = chord.split("+")
    for m in held:
        mods |= {"Ctrl": Qt.KeyboardModifier.ControlModifier,
                 "Shift": Qt.KeyboardModifier.ShiftModifier}[m]
    return getattr(Qt.Key, f"Key_{key.upper()}"), mods


def _back(qtbot, win: Any) -> None:
    """The main window active again with the navigator focused (offscreen Qt hands
    activation back to nobody when a dialog closes)."""
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)
    win.navigator.setFocus()
