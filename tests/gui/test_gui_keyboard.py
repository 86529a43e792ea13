"""Issue 12, keyboard flow: the navigator does not steal the focus, Ctrl+G / Ctrl+F, type-
ahead, kept expansion, Tab order, the events line, the event dialogs' keys, and prompts
that default to Cancel. Every key goes to whatever has the focus (tests/gui_keys.py)."""

from __future__ import annotations

import gui_helpers
import pytest
from gui_helpers import SPEC_TOTALS, drive_dialog, example_record
from gui_keys import HANDS, Keyboard, golden_record, type_hand
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from referee_app.core import HandRecord, settle
from referee_app.gui.controllers.event_line import EventLineError, parse_event_line
from referee_app.gui.controllers.navigation import GoToError, find_players, parse_goto

desk_window = gui_helpers.desk_window


def _focus() -> str:
    w = QApplication.focusWidget()
    return w.objectName() if w is not None else ""


def _saved_window(desk_window, hands: int = 3):
    """A window with ``hands`` saved hands at round 1 table 1 (the spec example)."""
    win, seating = desk_window()
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
                     "events", "add_kong", "add_win", "edit_event", "move_up", "move_down",
                     "delete_event", "wall_exhausted", "save_button"]
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
