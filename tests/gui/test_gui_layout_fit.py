"""Issue 25: no text cut off at 1280×800 and 1920×1080, in 中文 and English.

Each view of the desk (the tabs, a hand that breaks rules — long problem lines in its
seat panels —, History, Penalties, the seat-round form, the reason and PIN prompts) is
rendered offscreen on the demo tournament at both sizes in both languages; every label,
group title, button, field hint, tab, table cell and tree row must fit the room it is
given (``gui_helpers.cut_texts``). The checker itself is tested on texts that do not fit.
"""

from __future__ import annotations

from pathlib import Path

import gui_helpers
import pytest
from gui_helpers import cut_texts
from PySide6.QtWidgets import QApplication, QGroupBox, QLabel, QPushButton, QVBoxLayout, QWidget

desk_window = gui_helpers.desk_window
SIZES = ((1280, 800), (1920, 1080))
#: the hand of docs/gui.md's "An invalid hand": E one tile short, W kongs its own discard
INVALID = {"format": "sichuan-hand/1", "ruleset": "ottawa-2009", "dealer": "E",
           "seats": {"E": {"concealed": "111234567899m"},
                     "S": {"concealed": "2366p456s", "pongs": ["5p"]},
                     "W": {"concealed": "35579m2468p1357s"},
                     "N": {"concealed": "2344567p345678s"}},
           "events": [{"type": "kong", "seat": "S", "tile": "9s", "kind": "concealed"},
                      {"type": "win", "seats": ["N"], "tile": "7p", "from": "W"},
                      {"type": "win", "seats": ["E"], "tile": "1m"},
                      {"type": "kong", "seat": "W", "tile": "5m", "kind": "direct",
                       "from": "W"}],
           "wall_exhausted": True}


def _settle() -> None:
    for _ in range(3):
        QApplication.processEvents()


@pytest.fixture(scope="module")
def demo_db(tmp_path_factory) -> Path:
    from referee_app.storage import demo_db_path

    return demo_db_path(tmp_path_factory.mktemp("demo"))


def test_the_checker_finds_cut_texts(qtbot) -> None:
    """A label, a group title and a button each too narrow for their text are named; the
    same texts given room are not."""
    from referee_app.fonts import register_qt_font
    from referee_app.gui.views.style import use_desk_style

    register_qt_font()
    use_desk_style()
    w = QWidget()
    qtbot.addWidget(w)
    lay = QVBoxLayout(w)
    label = QLabel("假如…（用于争议；不保存）")
    box = QGroupBox("假如…（用于争议；不保存）")
    QVBoxLayout(box).addWidget(QLabel("x"))
    button = QPushButton("作为裁判长裁定记录…")
    for x in (label, box, button):
        lay.addWidget(x)
    w.show()
    w.resize(600, 200)
    _settle()
    assert cut_texts(w) == []
    for x in (label, box, button):
        x.setFixedWidth(60)
    _settle()
    found = cut_texts(w)
    assert [line.split(" ", 1)[0] for line in found] == ["label", "group", "button"], found


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_text_is_cut(qtbot, demo_db, lang, size) -> None:
    from referee_app.fonts import register_qt_font
    from referee_app.gui.app import prepare_view
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.i18n import LANG
    from referee_app.gui.views.manage import SeatRoundDialog
    from referee_app.gui.views.prompts import ReasonDialog
    from referee_app.gui.views.signin import AddRefereeDialog, PinDialog

    register_qt_font()
    LANG.set(lang)
    desk = Desk.open(demo_db)
    win = None
    try:
        from referee_app.gui.views.main_window import MainWindow

        win = MainWindow(desk)
        qtbot.addWidget(win)
        win.confirm_discard = lambda: True
        win.resize(*size)
        win.show()
        cut: list[str] = []
        for view in ("entry", "trace", "standings", "seating", "players", "progress",
                     "history", "whatif"):
            target = prepare_view(win, view)
            _settle()
            cut += [f"{view}: {line}" for line in cut_texts(target)]
            if target is not win:
                target.close()
        prepare_view(win, "entry", INVALID)
        _settle()
        assert any(p.has_problem for p in win.entry.panels.values())
        cut += [f"invalid hand: {line}" for line in cut_texts(win)]
        pen = win.show_penalties()
        _settle()
        cut += [f"penalties: {line}" for line in cut_texts(pen)]
        pen.close()
        for name, dlg in (
                ("seat round", SeatRoundDialog(5, 18, 4, lambda d: None, lambda m: None, win)),
                ("reason", ReasonDialog("Amend hand", "Why is the hand changed?",
                                        "E +30 → +24", win)),
                ("void reason", ReasonDialog("Void hand", "Why is it void?", "", win,
                                             multiline=False)),
                ("sign-in", PinDialog("Sign in", "Choose your name and type your PIN.",
                                      ["李裁判", "Zhao Jianguo"], "", win)),
                ("add referee", AddRefereeDialog(True, win))):
            qtbot.addWidget(dlg)
            dlg.show()
            _settle()
            cut += [f"{name}: {line}" for line in cut_texts(dlg)]
            dlg.close()
        assert cut == []
    finally:
        LANG.set("zh")
        if win is not None:
            win.close()
            win.impact_timer.stop()
            win.faults.follower.stop()
        desk.close()


def test_a_seat_keeps_the_room_its_message_needed(qtbot, desk_window) -> None:
    """A long problem gets its lines (not cut at the top and bottom); while the hand is in
    the form the panel keeps that room, so a typo that comes and goes does not make the
    form jump; another hand starts again with two lines."""
    from gui_keys import Keyboard
    from PySide6.QtCore import Qt

    from referee_app.gui.controllers.entry import EntryForm

    win, _ = desk_window()
    win.resize(1280, 800)
    win.navigator.select_key(("table", 1, 1))
    panel = win.entry.panels["E"]
    two_lines = panel.message.height()
    win.entry.load(EntryForm.from_record(INVALID, win.desk.rules()), "", "")
    _settle()
    grown = panel.message.height()
    assert grown > two_lines and cut_texts(panel) == []
    heights = set()
    field = panel.concealed
    field.setFocus()
    field.end(False)
    kb = Keyboard()
    for key in (Qt.Key.Key_9, Qt.Key.Key_M, Qt.Key.Key_Backspace, Qt.Key.Key_Backspace) * 2:
        kb.key(key)
        _settle()
        heights.add(panel.height())
        assert cut_texts(panel) == []
    assert len(heights) == 1
    win.navigator.select_key(("table", 1, 1))  # a new hand: two lines again
    _settle()
    assert panel.message.height() == two_lines
