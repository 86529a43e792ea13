"""Issue 12, keyboard flow: the navigator does not steal the focus, Ctrl+G / Ctrl+F, type-
ahead, kept expansion, Tab order, the events line, the event dialogs' keys, and prompts
that default to Cancel. Every key goes to whatever has the focus (tests/gui_keys.py)."""

from __future__ import annotations

from typing import Any

import gui_helpers
import pytest
from gui_helpers import SPEC_TOTALS, drive_dialog, example_record
from gui_keys import HANDS, Keyboard, golden_record, type_hand
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QMessageBox

from referee_app.core import HandRecord, settle
from referee_app.gui.controllers.event_line import EventLineError, parse_event_line
from referee_app.gui.controllers.navigation import GoToError, find_players, parse_goto

desk_window = gui_helpers.desk_window


def _focus() -> str:
    w = QApplication.focusWidget()
    return w.objectName() if w is not None else ""


def _saved_window(desk_window, hands: int = 3, **make):
    """A window with ``hands`` saved hands at round 1 table 1 (the spec example)."""
    win, seating = desk_window(**make)
    rec = example_record(seating)
    for n in range(1, hands + 1):
        win.desk.t.hands.add(rec, round=1, table=1, hand_no=n)
    win.reload()
    return win, seating


# ------------------------------------------------------------------ pure parts


@pytest.mark.parametrize("line, events, wall", [
    ("ks9s;wn7pw;we1m;x",
     [{"type": "kong", "seat": "S", "tile": "9s", "kind": "concealed"},
      {"type": "win", "seats": ["N"], "tile": "7p", "from": "W"},
      {"type": "win", "seats": ["E"], "tile": "1m"}], True),
    ("k S 9s c; w N 7p W; w E 1m",
     [{"type": "kong", "seat": "S", "tile": "9s", "kind": "concealed"},
      {"type": "win", "seats": ["N"], "tile": "7p", "from": "W"},
      {"type": "win", "seats": ["E"], "tile": "1m"}], False),
    ("kN3md W", [{"type": "kong", "seat": "N", "tile": "3m", "kind": "direct", "from": "W"}],
     False),
    ("w S N 5p W +r", [{"type": "win", "seats": ["S", "N"], "tile": "5p", "from": "W",
                        "flags": ["robbing_kong"]}], False),
    ("wE6s+b+t", [{"type": "win", "seats": ["E"], "tile": "6s",
                   "flags": ["kong_bloom", "declared_ready"]}], False),
    ("杠南9条；和北7筒西", [{"type": "kong", "seat": "S", "tile": "9条", "kind": "concealed"},
                        {"type": "win", "seats": ["N"], "tile": "7筒", "from": "W"}], False),
])
def test_event_line_reads(line, events, wall) -> None:
    got = parse_event_line(line)
    assert got.events == events and got.wall_exhausted is wall


@pytest.mark.parametrize("line, part, msg", [
    ("ks9s; q", 2, "line_unreadable"),
    ("kSN9s", 1, "line_kong_seat"),
    ("w7p", 1, "line_win_seats"),
    ("wE7p+z", 1, "line_flag"),
    ("kS9s+r", 1, "line_kong_flags"),
])
def test_event_line_names_the_bad_part(line, part, msg) -> None:
    with pytest.raises(EventLineError) as e:
        parse_event_line(line)
    assert (e.value.part, e.value.msg_id) == (part, msg)


def test_goto_and_find_parsing() -> None:
    assert parse_goto("4 1 9") == (4, 1, 9) and parse_goto("4-1") == (4, 1)
    with pytest.raises(GoToError):
        parse_goto("a b")

    class P:
        def __init__(self, name: str, latin: str) -> None:
            self.name, self.name_latin = name, latin

    ps = [P("李伟", "Li Wei"), P("李伟东", "Li Weidong"), P("张敏", "Zhang Min")]
    assert [p.name for p in find_players("li wei", ps)] == ["李伟", "李伟东"]
    assert [p.name for p in find_players("敏", ps)] == ["张敏"]
    assert find_players("  ", ps) == []


# ------------------------------------------------------------------ navigator


def test_arrowing_the_navigator_opens_nothing_enter_does(qtbot, desk_window) -> None:
    win, _ = _saved_window(desk_window, hands=2)
    nav = win.navigator
    nav.setFocus()
    nav.setCurrentItem(nav.topLevelItem(0))
    kb = Keyboard()
    for _ in range(4):  # tournament → round 1 → table 1 → (expand) …
        kb.key(Qt.Key.Key_Down)
        kb.key(Qt.Key.Key_Right)
    assert win.context is None, "moving must not open a form"
    assert _focus() == "navigator"
    # to table 1, then Enter opens its next (new) hand with the focus in E's tiles
    nav.setCurrentItem(nav._items[("table", 1, 1)])
    kb.key(Qt.Key.Key_Return)
    assert win.context == (1, 1, 3, None)
    assert _focus() == "concealed_E"


def test_ctrl_g_opens_a_saved_hand_in_at_most_8_keys(qtbot, desk_window) -> None:
    win, _ = _saved_window(desk_window, hands=3)
    win.navigator.setFocus()
    kb = Keyboard()
    kb.chord("Ctrl+G")
    assert _focus() == "jump_bar"
    kb.type("1 1 2\n")
    h = win.desk.find_hand(1, 1, 2)
    assert win.context == (1, 1, 2, h.id)
    assert win.navigator.current_key() == ("hand", h.id)
    assert kb.total <= 8, kb.log
    # the table's next number opens a new hand; a missing one is named, nothing changes
    kb.chord("Ctrl+G")
    kb.type("1 1 4\n")
    assert win.context == (1, 1, 4, None)
    shown = []
    win.show_message = shown.append
    kb.chord("Ctrl+G")
    kb.type("1 1 9\n")
    assert shown[-1] == "Go to: round 1, table 1 has no hand 9."
    assert win.context == (1, 1, 4, None)


def test_ctrl_f_finds_a_player(qtbot, desk_window) -> None:
    win, seating = desk_window()
    kb = Keyboard()
    win.navigator.setFocus()
    kb.chord("Ctrl+F")
    assert _focus() == "jump_bar"
    kb.type("zhang min")  # the Latin name
    win.jump_bar.completer().popup().hide()
    kb.type("\n")
    assert win.tabs.currentWidget() is win.players
    assert win.players.current_player() == "张敏"
    seat = next(s for s, p in seating.items() if p == "张敏")
    assert win.messages[-1] == f"张敏: Round 1 sits at Table 1 {seat} " + \
        {"E": "东", "S": "南", "W": "西", "N": "北"}[seat]


def test_go_to_after_find_keeps_the_bar_working(qtbot, desk_window) -> None:
    """Find, then go to: the line once dropped (and Qt deleted) the find mode's completer,
    so Enter in go-to mode raised inside Qt's event loop and found nothing."""
    win, _ = _saved_window(desk_window, hands=2)
    kb = Keyboard()
    win.navigator.setFocus()
    kb.chord("Ctrl+F")
    kb.type("zhang")
    win.jump_bar.completer().popup().hide()
    kb.type("\n")
    win.navigator.setFocus()
    kb.chord("Ctrl+G")
    kb.type("1 1 2\n")
    assert win.context == (1, 1, 2, win.desk.find_hand(1, 1, 2).id)
    win.navigator.setFocus()
    kb.chord("Ctrl+F")  # find mode has its completer again
    assert win.jump_bar.completer() is not None


def test_type_ahead_digits_and_kept_expansion(qtbot, desk_window) -> None:
    win, seating = _saved_window(desk_window, hands=3)
    nav = win.navigator
    h1, h3 = win.desk.find_hand(1, 1, 1), win.desk.find_hand(1, 1, 3)
    nav.select_key(("hand", h1.id), emit=False)
    nav.setFocus()
    Keyboard().type("3")
    assert nav.current_key() == ("hand", h3.id)
    assert win.context is None  # type-ahead moves, does not open
    # the referee collapses the table and stands on the round: a reload (as after every
    # save) keeps the tree as it was instead of re-expanding everything
    win.navigator.select_key(("hand", h1.id))
    nav._items[("table", 1, 1)].setExpanded(False)
    nav.select_key(("round", 1), emit=False)
    before = nav.expanded_keys()
    assert ("table", 1, 1) not in before
    win.reload()
    assert nav.expanded_keys() == before


def test_navigator_follows_ctrl_n(qtbot, desk_window) -> None:
    win, _ = _saved_window(desk_window, hands=2)
    h2 = win.desk.find_hand(1, 1, 2)
    win.navigator.select_key(("hand", h2.id))
    Keyboard().chord("Ctrl+N")
    assert win.context == (1, 1, 3, None)
    assert win.navigator.current_key() == ("table", 1, 1)


# ------------------------------------------------------------------ entry form


def test_tab_order_follows_the_screen(qtbot, desk_window) -> None:
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    win.entry.dealer.setFocus()
    names = [_focus()]
    for _ in range(18):
        Keyboard().key(Qt.Key.Key_Tab)
        names.append(_focus())
    assert names == ["dealer", "concealed_E", "pongs_E", "concealed_S", "pongs_S",
                     "concealed_W", "pongs_W", "concealed_N", "pongs_N", "events_line",
                     "events", "add_kong", "add_win", "edit_event", "delete_event",
                     "move_up", "move_down", "wall_exhausted", "save_button"]
    assert win.menus.lang_box.focusPolicy() == Qt.FocusPolicy.NoFocus


@pytest.mark.parametrize("name", list(HANDS))
def test_three_hands_by_keyboard_within_22_other_keys(qtbot, desk_window, name) -> None:
    golden, line = HANDS[name]
    record = golden_record(golden)
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    assert _focus() == "concealed_E"
    kb = Keyboard()
    type_hand(kb, record, line)
    hands = win.desk.hands()
    assert len(hands) == 1, win.messages
    expected = settle(HandRecord.from_dict(record)).totals
    assert hands[0].settlement["totals"] == expected
    assert kb.others <= 22, (kb.others, kb.log)
    if name == "README hand":
        assert expected == SPEC_TOTALS
        assert kb.tiles == 56 + 6  # the seats' 56 tile characters and the events' three tiles


def test_events_line_error_changes_nothing(qtbot, desk_window) -> None:
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    win.entry.events_line.setFocus()
    Keyboard().type("ks9s; wq7p\n")
    assert win.entry.form.events == []
    assert win.entry.line_message.text().startswith("Events line, part 2 (wq7p)")


def test_win_dialog_keys_robbed_kong(qtbot, desk_window) -> None:
    """The robbed-kong win through the dialog: seat keys, Tab, tile, discarder key, Alt+R."""
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    kb = Keyboard()

    def keys(dlg) -> None:
        assert _focus() == "winner_E"
        kb.type("sn\t")
        kb.type("5p", tiles=True)
        kb.type("\tw")
        kb.chord("Alt+R")

    win.entry.exec_dialog = drive_dialog(qtbot, keys)
    win.entry.focus_seat(0)
    kb.chord("Alt+W")
    assert win.entry.form.events == [{"type": "win", "seats": ["S", "N"], "tile": "5p",
                                      "from": "W", "flags": ["robbing_kong"]}]
    assert kb.others + 1 <= 8  # + the Enter drive_dialog presses


def test_kong_dialog_keys(qtbot, desk_window) -> None:
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))

    def keys(dlg) -> None:
        assert _focus() == "event_seat"
        Keyboard().type("3d\t")  # seat 3 = W, kind: direct
        Keyboard().type("9s\t\tn")  # tile, (kind), discarder N

    win.entry.exec_dialog = drive_dialog(qtbot, keys)
    win.entry.add_kong()
    assert win.entry.form.events == [{"type": "kong", "seat": "W", "tile": "9s",
                                      "kind": "direct", "from": "N"}]


@pytest.mark.parametrize("lang, go, cancel", [("en", "&Discard changes", "Cancel"),
                                              ("zh", "放弃修改(&D)", "取消")])
def test_discard_prompt_defaults_to_cancel(qtbot, desk_window, lang, go, cancel) -> None:
    from referee_app.gui.views.prompts import destructive_box

    win, _ = desk_window(lang=lang)
    box = destructive_box(win, "x", go)
    qtbot.addWidget(box)
    assert box.defaultButton().text() == cancel
    assert box.escapeButton() is box.defaultButton()
    texts = sorted(b.text() for b in box.buttons())
    assert texts == sorted([go, cancel])
    assert not any(b == box.button(QMessageBox.StandardButton.Yes) and b for b in box.buttons())


@pytest.mark.parametrize("lang, hint, kind", [("en", "Keys: E S W N or 1–4", "concealed"),
                                              ("zh", "按键：E S W N 或 1–4", "暗杠")])
def test_event_dialogs_show_their_keys(qtbot, lang, hint, kind) -> None:
    """Every key the dialogs take is written on them: seats, kinds, flags (most common
    first, each with its underlined letter)."""
    from referee_app.gui.i18n import LANG
    from referee_app.gui.views.event_dialog import EventDialog

    LANG.set(lang)
    try:
        win = EventDialog("ottawa-2009", {"type": "win"})
        qtbot.addWidget(win)
        assert win.keys_hint.text().startswith(hint) and "Alt+" in win.keys_hint.text()
        flags = list(win.flags)
        assert flags[:3] == ["robbing_kong", "kong_bloom", "kong_discard"]
        assert all("(&" in cb.text() for cb in win.flags.values())
        kong = EventDialog("ottawa-2009", {"type": "kong"})
        qtbot.addWidget(kong)
        assert kong.keys_hint.text().startswith(hint)
        assert [kong.kind.itemText(i) for i in range(3)][0].startswith(kind)
        assert [kong.kind.itemText(i)[-3:] for i in range(3)] == ["(c)", "(a)", "(d)"]
    finally:
        LANG.set("zh")


# ------------------------------------------------------------------ issue 25: the desk from the keyboard

SHIFT = Qt.KeyboardModifier.ShiftModifier
CTRL = Qt.KeyboardModifier.ControlModifier


def _active(kind: type) -> Any:
    w = QApplication.activeWindow()
    assert isinstance(w, kind), w
    return w


def _wait_active(qtbot, kind: type) -> Any:
    qtbot.waitUntil(lambda: isinstance(QApplication.activeWindow(), kind), timeout=3000)
    return QApplication.activeWindow()


def _back_to(qtbot, win) -> None:
    """A window manager gives the activation back to the main window; offscreen Qt does not."""
    win.activateWindow()
    qtbot.waitUntil(win.isActiveWindow, timeout=3000)


def _views_with_tables(win) -> list[tuple[Any, Any]]:
    """(view, table) of every table with rows in the window's views."""
    return [(win.entry, win.entry.preview.wins), (win.entry, win.entry.preview.payments),
            (win.trace, win.trace.payments), (win.standings, win.standings.table),
            (win.seating, win.seating.table), (win.players, win.players.table),
            (win.progress, win.progress.table)]


def test_tab_leaves_every_table(qtbot, desk_window) -> None:
    """Issue 25: Tab was trapped in every table with rows (400 Tabs never left); now Tab and
    Shift+Tab leave each one at once, right after a save included."""
    golden, line = HANDS["README hand"]
    win, seating = desk_window()
    win.desk.add_penalty([seating["E"]], 2, "slow play", clause=None, zero_sum=False,
                         round_no=1)
    win.navigator.select_key(("table", 1, 1))
    kb = Keyboard()
    type_hand(kb, golden_record(golden), line)  # Ctrl+S: the saved hand stays in the form
    assert win.context is not None and win.context[3] is not None
    win.show_player(seating["E"])
    win.tabs.setCurrentWidget(win.progress)
    for view, table in _views_with_tables(win):
        win.tabs.setCurrentWidget(view)
        name = table.objectName()
        assert table.model().rowCount() > 0, name  # a widget's or a view's model
        table.setFocus(Qt.FocusReason.TabFocusReason)
        assert _focus() == name
        kb.key(Qt.Key.Key_Tab)
        assert _focus() != name, f"Tab stayed in {name}"
        table.setFocus(Qt.FocusReason.TabFocusReason)
        kb.key(Qt.Key.Key_Backtab, SHIFT)
        assert _focus() != name, f"Shift+Tab stayed in {name}"
    from PySide6.QtWidgets import QAbstractItemView

    views = win.findChildren(QAbstractItemView)
    assert views and not [v.objectName() for v in views if v.tabKeyNavigation()]
    # the two dialogs with tables
    win.navigator.select_key(("hand", win.context[3]))
    for dlg in (win.show_history(), win.show_penalties()):
        qtbot.addWidget(dlg)
        assert not [v.objectName() for v in dlg.findChildren(QAbstractItemView)
                    if v.tabKeyNavigation()]
        dlg.close()


def test_ctrl_tab_switches_views_from_anywhere(qtbot, desk_window) -> None:
    """Ctrl+Tab moved the cell of a table; now it (and Ctrl+PgDown) is the next view from
    any field, table or text, Ctrl+Shift+Tab (and Ctrl+PgUp) the previous one; the focus
    lands in the view, and back where it was when the referee returns."""
    win, _ = _saved_window(desk_window, hands=2)
    win.navigator.select_key(("hand", win.desk.find_hand(1, 1, 1).id))
    kb = Keyboard()
    for start in (win.entry.panels["E"].concealed, win.entry.events_line, win.entry.events,
                  win.entry.preview.payments, win.navigator):
        win.tabs.setCurrentWidget(win.entry)
        start.setFocus()
        kb.chord("Ctrl+Tab")
        assert win.tabs.currentWidget() is win.trace, start.objectName()
        assert win.trace.isAncestorOf(QApplication.focusWidget())
    for start in (win.trace.payments, win.trace.lines, win.trace.clause):
        win.tabs.setCurrentWidget(win.trace)
        start.setFocus()
        kb.chord("Ctrl+Tab")
        assert win.tabs.currentWidget() is win.standings, start.objectName()
        assert _focus() == "standings_table"
    kb.key(Qt.Key.Key_Backtab, CTRL | SHIFT)  # what a keyboard sends for Ctrl+Shift+Tab
    assert win.tabs.currentWidget() is win.trace
    kb.key(Qt.Key.Key_Tab, CTRL | SHIFT)
    assert win.tabs.currentWidget() is win.entry
    kb.chord("Ctrl+PgDown")
    assert win.tabs.currentWidget() is win.trace
    kb.chord("Ctrl+PgUp")
    assert win.tabs.currentWidget() is win.entry
    win.entry.events_line.setFocus()
    for _ in range(win.tabs.count()):  # all the way round
        kb.chord("Ctrl+Tab")
    assert win.tabs.currentWidget() is win.entry and _focus() == "events_line"


def _window_shortcuts(win) -> list[str]:
    """Every key sequence of the window's actions and shortcuts."""
    from PySide6.QtGui import QAction, QKeySequence, QShortcut

    seqs: list[QKeySequence] = []
    for a in win.findChildren(QAction):
        seqs += a.shortcuts()
    seqs += [sc.key() for sc in win.findChildren(QShortcut)]
    # Ctrl+N (a new hand) and Quit last: the keys before them act on a saved hand
    last = [s.toString() for a in (win.menus.act_next, win.menus.act_quit)
            for s in a.shortcuts()]
    out = list(dict.fromkeys(s.toString() for s in seqs if not s.isEmpty()))
    return [s for s in out if s not in last] + last


def _close_what_opened(qtbot, win, before: set[int]) -> list[str]:
    """Esc on every window a key opened (each must close on it); the names closed."""
    from PySide6.QtTest import QTest

    closed = []
    for w in QApplication.topLevelWidgets():
        if w is win or id(w) in before or not w.isVisible() or not w.isWindow():
            continue
        if w.windowType() in (Qt.WindowType.Popup, Qt.WindowType.ToolTip):
            w.hide()
            continue
        w.activateWindow()
        qtbot.waitUntil(w.isActiveWindow, timeout=3000)
        QTest.keyClick(QApplication.focusWidget() or w, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda w=w: not w.isVisible(), timeout=3000)
        closed.append(w.objectName() or type(w).__name__)
    if win.jump_bar.isVisible():
        QTest.keyClick(win.jump_bar, Qt.Key.Key_Escape)
        assert not win.jump_bar.isVisible()
    if win.isVisible():
        _back_to(qtbot, win)
    return closed


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_shortcut_in_sequence_raises_nothing(qtbot, desk_window, tmp_path, lang) -> None:
    """Issue 25: Ctrl+F, Esc, Ctrl+G gave "发生了意外错误（RuntimeError）" and every later
    Ctrl+G failed. Every key of the window pressed in turn, in both languages (the
    language key switches it midway), every window it opens closed with Esc: no error
    dialog, nothing logged; Quit last closes the window."""
    from referee_app.gui.faults import ErrorGuard
    from referee_app.gui.i18n import tr

    win, _ = _saved_window(desk_window, hands=3, lang=lang)
    shown: list[str] = []
    win.show_message = shown.append
    win.run_dialog = lambda dlg: False  # every form asked for is cancelled
    win.ask_open_file = lambda *a: ""
    win.ask_save_file = lambda *a: ""
    win.session.ask_pin = lambda *a: None
    win.blind.resolve_differences = lambda *a: None
    log = tmp_path / "errors.log"
    guard = ErrorGuard(shown.append, log=log).install()
    before = {id(w) for w in QApplication.topLevelWidgets() if w.isVisible()} - {id(win)}
    closed: list[str] = []
    try:
        win.navigator.select_key(("hand", win.desk.find_hand(1, 1, 2).id))
        win.navigator.setFocus()
        kb = Keyboard()
        kb.chord("Ctrl+F")
        kb.chord("Esc")
        for n in (3, 1):  # the first Ctrl+G after Ctrl+F and Esc, and a later one
            kb.chord("Ctrl+G")
            kb.type(f"1 1 {n}\n")
            assert win.context[2] == n
        keys = _window_shortcuts(win)
        assert {"Ctrl+G", "Ctrl+F", "Ctrl+Shift+X", "Ctrl+Shift+R", "Ctrl+Shift+L",
                "Ctrl+Tab", "F11", "Ctrl+P", "Alt+1"} <= set(keys)
        for seq in keys:
            if not win.isVisible():
                break
            kb.chord(seq)
            closed += _close_what_opened(qtbot, win, before)
    finally:
        guard.uninstall()
    assert not win.isVisible()  # Quit came last
    assert {"HistoryDialog", "PenaltiesDialog", "projector",
            "report_preview"} <= set(closed), closed
    unexpected = [tr("unexpected_error", kind="", file="")[:8]]
    assert guard.shown == [] and not log.exists(), guard.shown
    assert not [s for s in shown if s.startswith(unexpected[0])], shown


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_menu_action_has_its_key(qtbot, desk_window, lang) -> None:
    """Every menu entry has an underlined letter, unique in its menu (the same letter in
    both languages); the actions a referee repeats have a shortcut; no two actions share
    one (Qt would run neither)."""
    from PySide6.QtGui import QAction

    from referee_app.gui.views.keyboard import mnemonic_of

    win, _ = desk_window(lang=lang)
    win.menus.reports.retranslate()

    def walk(menu) -> list[str]:
        letters = []
        for a in menu.actions():
            if a.isSeparator():
                continue
            text = a.menu().title() if a.menu() else a.text()
            assert mnemonic_of(text), f"{menu.title()!r}: {text!r} has no underlined letter"
            letters.append(mnemonic_of(text))
            if a.menu():
                walk(a.menu())
        assert len(letters) == len(set(letters)), (menu.title(), letters)
        return letters

    menus = [a.menu() for a in win.menuBar().actions() if a.menu()]
    titles = [mnemonic_of(m.title()) for m in menus]
    assert all(titles) and len(titles) == len(set(titles)), titles
    letters = {m.objectName() or m.title(): walk(m) for m in menus}
    assert sum(len(v) for v in letters.values()) >= 35
    m = win.menus
    for a in (m.act_void, m.act_restore, m.act_switch_lang, m.act_history, m.act_penalties,
              m.act_verify, m.act_verify_blind, m.act_sign_in, m.act_lock, m.act_goto,
              m.act_find, m.act_next_view, m.act_prev_view, m.act_projector, m.act_save,
              m.act_next, m.act_undo, m.act_redo, m.act_quit, m.act_open,
              m.reports.act_preview):
        assert not a.shortcut().isEmpty(), a.objectName()
    seqs = [s.toString() for a in win.findChildren(QAction) for s in a.shortcuts()]
    assert len(seqs) == len(set(seqs)), sorted(s for s in seqs if seqs.count(s) > 1)
    # the toolbar shows the names without the letter: 保存牌局, not 保存牌局(S)
    assert "(" not in m.act_save.iconText() and "&" not in m.act_save.iconText()


def test_language_key_switches_the_desk(qtbot, desk_window) -> None:
    from referee_app.gui.i18n import LANG

    win, _ = desk_window(lang="en")
    Keyboard().chord("Ctrl+Shift+L")
    assert LANG.code == "zh" and win.menus.act_void.text() == "作废本局(&D)…"
    Keyboard().chord("Ctrl+Shift+L")
    assert LANG.code == "en" and win.menus.act_void.text() == "Voi&d hand…"


def test_penalty_added_by_keyboard_when_one_exists(qtbot, desk_window) -> None:
    """The dialog opens in its form (not in the list), each field has its Alt+letter,
    Enter in a field adds nothing, Ctrl+Enter adds; the list is one Alt+T away and Tab
    leaves it."""
    from referee_app.gui.views.dialogs import PenaltiesDialog

    win, seating = desk_window()
    win.desk.add_penalty([seating["E"]], 3, "slow play", clause=None, zero_sum=False,
                         round_no=None)
    win.reload()
    kb = Keyboard()
    kb.chord("Ctrl+Shift+P")
    dlg = _wait_active(qtbot, PenaltiesDialog)
    qtbot.addWidget(dlg)
    assert dlg.table.rowCount() == 1 and _focus() == "penalty_players"
    assert "Ctrl+Enter" in dlg.keys.text()
    first = dlg.players.item(0).text()
    kb.key(Qt.Key.Key_Down)
    kb.key(Qt.Key.Key_Space)
    assert [it.text() for it in dlg.players.selectedItems()] == [first]
    kb.chord("Alt+M")  # the amount (chips, or points under placement scoring)
    assert _focus() == "" or dlg.chips.hasFocus()
    kb.type("5")
    kb.chord("Alt+R")
    assert _focus() == "penalty_reason"
    kb.type("late arrival\n")  # Enter: nothing added (a field's Enter is no submit)
    assert dlg.table.rowCount() == 1
    kb.chord("Alt+L")
    kb.type("2.2")
    kb.chord("Alt+O")
    kb.key(Qt.Key.Key_Down)
    assert dlg.round.currentData() == 1
    kb.key(Qt.Key.Key_Return, CTRL)
    assert dlg.table.rowCount() == 2, dlg.message.text()
    p = win.desk.penalties()[-1]
    assert (list(p.players), p.chips, p.reason, p.clause, p.round) == \
        ([first], 5, "late arrival", "2.2", 1)
    kb.chord("Alt+T")
    assert _focus() == "penalties_table"
    kb.key(Qt.Key.Key_Tab)
    assert _focus() != "penalties_table"
    kb.chord("Esc")
    assert not dlg.isVisible()


def test_history_versions_payments_trace_and_clause_by_keyboard(qtbot, desk_window) -> None:
    from referee_app.gui.views.dialogs import HistoryDialog

    win, _ = _saved_window(desk_window, hands=1)
    h = win.desk.find_hand(1, 1, 1)
    form = win.desk.form_of(win.desk.hand(h.id))
    form.dealer = "S"
    win.desk.amend_hand(h.id, form, "slip re-read")
    win.reload()
    win.navigator.select_key(("hand", h.id))
    kb = Keyboard()
    kb.chord("Ctrl+H")
    dlg = _wait_active(qtbot, HistoryDialog)
    qtbot.addWidget(dlg)
    assert _focus() == "history_table" and dlg.trace.title.text() == "v2"
    kb.key(Qt.Key.Key_Up)
    assert dlg.trace.title.text() == "v1"
    seen = []
    for _ in range(4):  # Tab: record entries, wins, payments
        kb.key(Qt.Key.Key_Tab)
        seen.append(_focus())
        if _focus() == "trace_payments":
            break
    assert seen[-1] == "trace_payments", seen
    kb.key(Qt.Key.Key_Down)  # the first Down: payment 1, its clause shown
    row = dlg.trace.payments.selectionModel().selectedRows()[0].row()
    clause = dlg.trace.payments.item(0, 3).text()
    assert row == 0 and clause in dlg.trace.clause.toPlainText()
    kb.chord("Alt+T")
    assert _focus() == "trace_lines"
    kb.key(Qt.Key.Key_Down)
    assert dlg.trace.lines.currentRow() == 0
    kb.chord("Alt+C")
    assert _focus() == "clause_text"
    kb.chord("Alt+V")
    assert _focus() == "history_table"
    kb.chord("Esc")
    assert not dlg.isVisible()


def test_the_first_down_selects_the_first_row(qtbot, desk_window) -> None:
    win, _ = _saved_window(desk_window, hands=2)
    win.navigator.select_key(("hand", win.desk.find_hand(1, 1, 1).id))
    kb = Keyboard()
    for view, table in _views_with_tables(win):
        win.tabs.setCurrentWidget(view)
        if table.model().rowCount() == 0 or view is win.players:
            continue
        table.clearSelection()
        from referee_app.gui.views.keyboard import start_above_rows

        start_above_rows(table)
        table.setFocus(Qt.FocusReason.TabFocusReason)
        kb.key(Qt.Key.Key_Down)
        rows = {i.row() for i in table.selectedIndexes()} or {table.currentIndex().row()}
        assert rows == {0}, table.objectName()
    # the trace as it opens: the first Down is payment 1, whose clause is shown
    win.navigator.select_key(("hand", win.desk.find_hand(1, 1, 2).id))
    win.tabs.setCurrentWidget(win.trace)
    win.trace.payments.setFocus(Qt.FocusReason.TabFocusReason)
    kb.key(Qt.Key.Key_Down)
    assert win.trace.payments.currentRow() == 0
    assert win.trace.payments.item(0, 3).text() in win.trace.clause.toPlainText()


@pytest.mark.parametrize("view", ["standings", "seating"])
def test_ctrl_g_from_standings_or_seating_opens_the_hand(qtbot, desk_window, view) -> None:
    win, _ = _saved_window(desk_window, hands=3)
    page = getattr(win, view)
    win.tabs.setCurrentWidget(page)
    page.table.setFocus()
    kb = Keyboard()
    kb.chord("Ctrl+G")
    kb.type("1 1 2\n")
    h = win.desk.find_hand(1, 1, 2)
    assert win.context == (1, 1, 2, h.id)
    assert win.tabs.currentWidget() is win.entry  # the hand is shown, not only selected
    assert win.entry.header.text() == "Round 1 · Table 1 · Hand 2"


@pytest.mark.parametrize("lang, hint", [("en", "Enter or Ctrl+Enter: OK"),
                                        ("zh", "回车键或 Ctrl+Enter：确定")])
def test_reason_prompts_ctrl_enter_submits_and_esc_is_no_error(qtbot, desk_window, lang,
                                                               hint) -> None:
    """Esc on the void prompt showed "a reason is required"; Ctrl+Enter did nothing in the
    reason dialog, which did not say how to confirm (and its Enter made a line break the
    store refuses: "reason: contains a control character")."""
    from gui_helpers import keys_dialog

    win, _ = _saved_window(desk_window, hands=1, lang=lang)
    h = win.desk.find_hand(1, 1, 1)
    win.navigator.select_key(("hand", h.id))
    shown: list[str] = []
    win.show_message = shown.append
    win.ask_text = win._ask_text_dialog  # the real prompts
    win.ask_reason = win._reason_dialog
    kb = Keyboard()

    win.run_dialog = keys_dialog(qtbot, lambda dlg: kb.chord("Esc"))
    kb.chord("Ctrl+Shift+X")  # void: Esc
    assert shown == [] and win.desk.hand(h.id).status.value != "void"

    def empty_enter(dlg) -> None:
        assert _focus() == "reason_text" and hint in dlg.keys.text()
        kb.type("\n")

    win.run_dialog = keys_dialog(qtbot, empty_enter)
    kb.chord("Ctrl+Shift+X")  # OK with no reason: said once, nothing changes
    assert len(shown) == 1 and win.desk.hand(h.id).status.value != "void"

    reason = "slip re-read with the table: N's 7p came from W, " * 3

    def amend(dlg) -> None:  # the wrapping box of an amendment, under its summary
        assert hint in dlg.keys.text()
        kb.type(reason)
        kb.key(Qt.Key.Key_Return, CTRL)

    win.run_dialog = keys_dialog(qtbot, amend)
    win.entry.dealer.setFocus()
    kb.key(Qt.Key.Key_Down)  # a change: saving it is an amendment
    kb.chord("Ctrl+S")
    assert win.desk.hand(h.id).version == 2, shown
    assert win.desk.history(h.id)[-1].reason == reason.strip()

    def void(dlg) -> None:
        kb.type("wrong table")
        kb.key(Qt.Key.Key_Enter, CTRL | Qt.KeyboardModifier.KeypadModifier)

    win.run_dialog = keys_dialog(qtbot, void)
    kb.chord("Ctrl+Shift+X")
    assert win.desk.hand(h.id).status.value == "void"
    assert len(shown) == 1


def test_seat_round_enter_cancels_and_alt_s_seats(qtbot, desk_window) -> None:
    """One Enter seated a round irreversibly: Cancel is now the default, the dialog says
    so, and Alt+S (the button's letter) seats."""
    from gui_helpers import keys_dialog

    win, _ = desk_window()
    kb = Keyboard()

    def enter(dlg) -> None:
        assert _focus() == "sr_seed"
        assert "Alt+S" in dlg.findChild(QLabel, "irreversible_note").text()
        kb.type("7\n")

    win.run_dialog = keys_dialog(qtbot, enter)
    assert not win.event_admin.seat_round()
    assert win.desk.rounds() == [1]
    win.run_dialog = keys_dialog(qtbot, lambda dlg: (kb.type("7"), kb.chord("Alt+S")))
    assert win.event_admin.seat_round()
    assert win.desk.rounds() == [1, 2]


def test_adding_a_referee_defaults_to_cancel(qtbot, desk_window) -> None:
    from gui_helpers import keys_dialog

    win, _ = desk_window()
    kb = Keyboard()

    def enter(dlg) -> None:
        assert _focus() == "referee_name"
        kb.type("Zhao\t123456\t123456\n")

    win.run_dialog = keys_dialog(qtbot, enter)
    assert not win.session.add_referee() and not win.desk.has_referees()

    def alt_a(dlg) -> None:
        kb.type("Zhao\t123456\t123456")
        kb.chord("Alt+A")

    win.run_dialog = keys_dialog(qtbot, alt_a)
    assert win.session.add_referee() and win.desk.referee_names() == ["Zhao"]


def test_sign_in_focuses_the_pin_and_never_shows_it(qtbot, desk_window) -> None:
    """The PIN typed at once went into the name and came back as "no referee named
    '482107'" in a message box, the status bar and the name field."""
    from gui_helpers import keys_dialog

    from referee_app.storage import Tournament

    def with_referee(t: Tournament) -> None:
        t.referees.add("李裁判", pin="567890", referee="赵建国")

    win, _ = desk_window(head_referee="赵建国", head_pin="123456", setup=with_referee)
    kb = Keyboard()
    seen: list[tuple[str, str]] = []
    pins = iter(["482107", "567890"])

    def type_at_once(dlg) -> None:
        seen.append((_focus(), dlg.name.currentText()))
        kb.type(next(pins) + "\n")

    win.desk.referee = "李裁判"  # as `referee-app gui --referee 李裁判`
    win.run_dialog = keys_dialog(qtbot, type_at_once)
    assert win.session.start_session()
    assert seen == [("pin_field", "李裁判"), ("pin_field", "李裁判")]
    assert win.desk.signed_in.name == "李裁判"
    # no name set (several referees, none named): the name first; digits typed there
    # choose nobody, and nothing typed is ever said back
    win.desk.sign_out()
    win.desk.referee = ""
    seen.clear()
    answers = iter(["482107\n", None])

    def no_name(dlg) -> None:
        seen.append((_focus(), dlg.name.currentText()))
        step = next(answers)
        if step is None:
            kb.chord("Esc")
            return
        kb.type(step)

    win.run_dialog = keys_dialog(qtbot, no_name)
    assert not win.session.start_session()
    assert seen == [("pin_name", ""), ("pin_name", "")]
    said = win.messages + [win.status_label.text()]
    assert not [m for m in said if "482107" in m], said
    assert "Choose your name from the list of referees" in said[-2]


def test_messages_of_one_hand_do_not_stay_on_the_next(qtbot, desk_window) -> None:
    win, _ = _saved_window(desk_window, hands=2)
    kb = Keyboard()
    kb.chord("Ctrl+G")
    kb.type("1 1 1\n")
    win.entry.events_line.setFocus()
    kb.type("q\n")
    assert win.entry.line_message.isVisible()
    win.message("Hand 1 looked at", error=False)
    kb.chord("Ctrl+G")
    kb.type("1 1 2\n")
    assert win.context[2] == 2
    assert not win.entry.line_message.isVisible() and win.entry.events_line.text() == ""
    assert win.status_label.text() == ""


@pytest.mark.parametrize("key", ["Esc", "Ctrl+W"])
def test_the_projector_closes_on_esc_and_ctrl_w(qtbot, desk_window, key) -> None:
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest

    win, _ = desk_window()
    Keyboard().chord("F11")
    proj = win.projector.window
    assert proj is not None and proj.isVisible()
    combo = QKeySequence(key)[0]
    QTest.keyClick(proj, combo.key(), combo.keyboardModifiers())
    assert not proj.isVisible() and not proj.timer.isActive()
    _back_to(qtbot, win)
    Keyboard().chord("F11")  # shown again from the desk
    assert win.projector.window is proj and proj.isVisible()
    proj.close()
