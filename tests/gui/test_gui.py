"""The referee desk window, driven by keyboard (pytest-qt, offscreen)."""

from __future__ import annotations

import gui_helpers
from gui_helpers import (
    SPEC_TOTALS,
    add_kong_s_9s,
    commit_text,
    drive_dialog,
    enter_spec_example,
    example_record,
)
from PySide6.QtCore import Qt

from referee_app.core import HandRecord, get_ruleset, settle

desk_window = gui_helpers.desk_window  # the fixture, shared with the other GUI tests
CTRL = Qt.KeyboardModifier.ControlModifier


def test_enter_complete_hand_by_keyboard_shows_expected_totals(qtbot, desk_window):
    win, seating = desk_window()
    enter_spec_example(qtbot, win)
    entry = win.entry
    assert [e["type"] for e in entry.form.events] == ["kong", "win", "win"]
    assert entry.form.events[1] == {"type": "win", "seats": ["N"], "tile": "7p", "from": "W"}
    assert entry.form.wall_exhausted is True
    assert entry.evaluation is not None and entry.evaluation.ok
    assert entry.preview.totals() == SPEC_TOTALS
    # the preview is the engine's own settlement of the same record
    assert entry.preview.payments.rowCount() == 10
    # tiles are drawn as typed: 13 concealed of E; S has 7 concealed + pong + kong
    assert entry.panels["E"].tiles.tile_count() == 13
    assert entry.panels["S"].tiles.tile_count() == 7 + 3 + 4
    # Ctrl+S saves to the database
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    hands = win.desk.hands()
    assert len(hands) == 1, win.messages
    assert hands[0].totals == SPEC_TOTALS
    assert hands[0].players == seating
    assert win.context == (1, 1, 1, hands[0].id)
    assert win.entry.undo_stack.isClean()


def test_chinese_suits_typed_through_input_method(qtbot, desk_window):
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    panel = win.entry.panels["W"]
    commit_text(panel.concealed, "23445677筒345789条")
    assert panel.concealed.text() == "23445677筒345789条"
    assert win.entry.form.seats["W"].concealed == "23445677筒345789条"
    assert panel.tiles.tile_count() == 14
    suits = {t.suit.value for g in panel.tiles.groups() for t in g.tiles}
    assert suits == {"p", "s"}


def test_invalid_hand_shows_clause_errors_and_needs_override_reason(qtbot, desk_window):
    win, _ = desk_window()
    enter_spec_example(qtbot, win)
    entry = win.entry
    # E loses a tile: its win no longer has 13 tiles before the winning one
    e_field = entry.panels["E"].concealed
    e_field.setFocus()
    e_field.end(False)
    qtbot.keyClick(e_field, Qt.Key.Key_Left)
    qtbot.keyClick(e_field, Qt.Key.Key_Backspace)
    assert e_field.text() == "111234567899m"
    ev = entry.evaluation
    assert ev is not None and not ev.ok
    rules = get_ruleset("ottawa-2009")
    clauses = {p.clause for p in ev.problems if p.seat == "E"}
    assert rules.vclause("hand_size") in clauses
    assert entry.panels["E"].has_problem and not entry.panels["N"].has_problem
    shown = [entry.preview.problems.item(i).text() for i in range(entry.preview.problems.count())]
    assert any(rules.vclause("hand_size") in s and "13" in s for s in shown)
    assert all(v is None for v in entry.preview.totals().values())
    # Ctrl+S without a reason: nothing is saved
    win.ask_text.queue = [None]
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    assert win.desk.hands() == []
    assert win.ask_text.asked  # it asked for the override reason
    # with a reason and every seat's chips it is recorded, marked override, counting those
    win.ask_text.queue = [("head referee: table agreed E's hand",
                           {"E": 8, "S": -8, "W": 0, "N": 0})]
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    hands = win.desk.hands()
    assert len(hands) == 1 and hands[0].override
    assert hands[0].override_reason == "head referee: table agreed E's hand"
    assert hands[0].totals == {"E": 8, "S": -8, "W": 0, "N": 0}
    assert "⚠" in win.navigator.item_text(("hand", hands[0].id))


def test_amend_with_reason_creates_version_and_history(qtbot, desk_window):
    win, _ = desk_window()
    enter_spec_example(qtbot, win)
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    hid = win.desk.hands()[0].id
    # the referee corrects N's win: self-drawn, not on W's discard
    entry = win.entry
    entry.events.setFocus()
    entry.events.setCurrentRow(1)
    _edit_from = drive_dialog(qtbot, lambda dlg: [qtbot.keyClick(dlg.frm, Qt.Key.Key_Up)
                                                  for _ in range(3)])
    entry.exec_dialog = _edit_from
    qtbot.keyClick(entry.events, Qt.Key.Key_Return)
    assert "from" not in entry.form.events[1]
    expected = settle(HandRecord.from_dict(entry.form.to_record_dict())).totals
    assert entry.preview.totals() == expected != SPEC_TOTALS
    # saving a saved hand asks for a reason; without one nothing changes
    win.ask_text.queue = [""]
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    assert win.desk.hand(hid).version == 1
    win.ask_text.queue = ["N drew 7p himself (table's account)"]
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    h = win.desk.hand(hid)
    assert h.version == 2 and h.amended and h.totals == expected
    dlg = win.show_history()
    qtbot.addWidget(dlg)
    assert dlg.table.rowCount() == 2
    assert "N drew 7p himself" in dlg.table.item(1, 4).text()
    change = dlg.table.item(1, 6).text()
    for seat in ("E", "S", "W", "N"):
        delta = expected[seat] - SPEC_TOTALS[seat]
        if delta:
            assert f"{seat} " in change and f"{delta:+d}" in change
    assert "✎" in win.navigator.item_text(("hand", hid))


def test_standings_update_when_a_hand_is_saved(qtbot, desk_window):
    win, seating = desk_window()
    assert set(win.standings.chips_by_player().values()) == {0}
    enter_spec_example(qtbot, win)
    assert set(win.standings.chips_by_player().values()) == {0}  # not saved yet
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    shown = win.standings.chips_by_player()
    assert shown == {seating[s]: SPEC_TOTALS[s] for s in SPEC_TOTALS}
    leader = win.standings.player_at(0)
    assert leader == seating["E"]


def test_next_hand_suggests_next_dealer(qtbot, desk_window):
    win, _ = desk_window()
    enter_spec_example(qtbot, win)
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    qtbot.keyClick(win, Qt.Key.Key_N, CTRL)
    assert win.context == (1, 1, 2, None)
    # Ottawa: the first winner (N, on W's discard) deals next
    assert win.entry.form.dealer == "N" == win.desk.t.hands.next_dealer(1, 1)
    assert "【" in win.entry.panels["N"].title() and "【" not in win.entry.panels["E"].title()
    assert win.entry.form.events == [] and win.entry.form.seats["E"].concealed == ""


def test_undo_redo_in_entry_form(qtbot, desk_window):
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    field = win.entry.panels["E"].concealed
    field.setFocus()
    qtbot.keyClicks(field, "123m")
    add_kong_s_9s(qtbot, win)
    assert len(win.entry.form.events) == 1
    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)  # undoes the kong
    assert win.entry.form.events == []
    assert field.text() == "123m"
    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL)  # undoes the typing (merged into one step)
    assert field.text() == "" and win.entry.form.seats["E"].concealed == ""
    qtbot.keyClick(field, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert field.text() == "123m"
    qtbot.keyClick(field, Qt.Key.Key_Y, CTRL)
    assert len(win.entry.form.events) == 1


def test_event_list_move_and_delete(qtbot, desk_window):
    win, _ = desk_window()
    enter_spec_example(qtbot, win)
    entry = win.entry
    entry.events.setFocus()
    entry.events.setCurrentRow(2)
    qtbot.keyClick(entry.events, Qt.Key.Key_Up, CTRL)
    assert [e.get("seats") for e in entry.form.events] == [None, ["E"], ["N"]]
    assert entry.events.currentRow() == 1
    qtbot.keyClick(entry.events, Qt.Key.Key_Delete)
    assert [e.get("seats") for e in entry.form.events] == [None, ["N"]]
    assert entry.events.count() == 2


def test_trace_shows_clause_texts(qtbot, desk_window):
    win, _ = desk_window()
    enter_spec_example(qtbot, win)
    win.tabs.setCurrentWidget(win.trace)
    assert win.trace.payments.rowCount() == 10
    win.trace.select_payment(0)
    clause = get_ruleset("ottawa-2009").clause(win.trace.payments.item(0, 3).text())
    html = win.trace.clause.toPlainText()
    assert clause.zh and clause.zh[:12] in html
    assert clause.en[:20] in html and clause.reading[:20] in html


def test_language_switch_retranslates(qtbot, desk_window):
    win, _ = desk_window(lang="en")
    win.navigator.select_key(("table", 1, 1))
    assert win.tabs.tabText(0) == "Hand entry"
    assert win.entry.panels["E"].title().startswith("E 东")
    win.menus.lang_box.setCurrentIndex(win.menus.lang_box.findData("zh"))
    assert win.tabs.tabText(0) == "录入"
    assert win.entry.panels["E"].title().startswith("东 E")
    assert win.entry.header.text().startswith("第1轮")


def test_three_seat_ruleset_gets_three_panels(qtbot, desk_window):
    win, _ = desk_window(ruleset="zigong-3p")
    win.navigator.select_key(("table", 1, 1))
    assert list(win.entry.panels) == ["E", "S", "W"]
    assert list(win.entry.preview.total_labels) == ["E", "S", "W"]


def test_penalty_dialog_changes_standings(qtbot, desk_window):
    win, seating = desk_window()
    dlg = win.show_penalties()
    qtbot.addWidget(dlg)
    assert not dlg.submit()  # nobody selected: the store's error is shown, nothing saved
    assert "players" in dlg.message.text()
    dlg.players.item([dlg.players.item(i).text() for i in range(dlg.players.count())]
                     .index(seating["W"])).setSelected(True)
    dlg.chips.setValue(5)
    qtbot.keyClicks(dlg.reason, "late arrival")
    assert dlg.round.currentData() == 1  # the round in play
    assert dlg.submit()
    assert dlg.table.rowCount() == 1
    assert dlg.message.text() == "✔ recorded; it counts in round 1"
    assert win.standings.chips_by_player()[seating["W"]] == -5


def test_projector_refreshes_itself(qtbot, desk_window):
    win, seating = desk_window()
    proj = win.projector.open()
    qtbot.addWidget(proj)
    proj.timer.setInterval(20)
    before = proj.refreshes
    # a hand saved elsewhere (say, the CLI) shows up without anyone telling the projector
    win.desk.t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    qtbot.waitUntil(lambda: proj.refreshes > before + 1, timeout=2000)
    top = proj.table.item(0, 1).text()
    assert top == seating["E"] and proj.table.item(0, 2).text() == "+30"


def test_verify_and_void_keep_the_hand_listed(qtbot, desk_window):
    win, seating = desk_window()
    enter_spec_example(qtbot, win)
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    hid = win.context[3]
    # the referee who entered it may not verify it: the desk says why, nothing changes
    qtbot.keyClick(win, Qt.Key.Key_V, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert win.desk.hand(hid).status.value == "entered"
    assert win.messages[-1].endswith(f"Tester entered or last amended hand {hid} as it "
                                     "stands: a second referee verifies it"), win.messages[-1]
    win.desk.referee = "Second"  # a second referee at the desk
    qtbot.keyClick(win, Qt.Key.Key_V, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert win.desk.hand(hid).status.value == "verified"
    assert "✔" in win.navigator.item_text(("hand", hid))
    win.ask_text.queue = [""]
    assert not win.void_hand()  # no reason, nothing changes
    assert win.desk.hand(hid).status.value == "verified"
    win.ask_text.queue = ["wrong table"]
    assert win.void_hand()
    h = win.desk.hand(hid)
    assert h.void and h.totals == {s: 0 for s in SPEC_TOTALS}
    assert "⊘" in win.navigator.item_text(("hand", hid))
    assert set(win.standings.chips_by_player().values()) == {0}
    # verifying a void hand: refused in the desk's words (its menu), not the command line's
    qtbot.keyClick(win, Qt.Key.Key_V, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert win.messages[-1].endswith(f"hand {hid} is void; restore it first "
                                     "(Hand → Restore hand…)"), win.messages[-1]


def test_alt_number_jumps_to_a_seat(qtbot, desk_window):
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    qtbot.keyClick(win.entry, Qt.Key.Key_3, Qt.KeyboardModifier.AltModifier)
    assert win.entry.panels["W"].concealed.hasFocus()


def test_unsaved_edits_are_not_dropped_silently(qtbot, desk_window):
    win, seating = desk_window()
    win.desk.t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    win.reload()
    win.navigator.select_key(("table", 1, 1))
    assert win.context == (1, 1, 2, None)
    qtbot.keyClicks(win.entry.panels["E"].concealed, "123m")
    asked = []
    win.confirm_discard = lambda: asked.append(1) or False
    hid = win.desk.hands()[0].id
    win.navigator.select_key(("hand", hid))
    assert asked and win.context == (1, 1, 2, None)  # stayed on the new hand
    assert win.entry.form.seats["E"].concealed == "123m"
    assert win.navigator.current_key() == ("table", 1, 1)
    win.confirm_discard = lambda: True
    win.navigator.select_key(("hand", hid))
    assert win.context == (1, 1, 1, hid)
    assert win.entry.form.seats["E"].concealed == "1112345678999m"


def test_the_override_dialog_needs_a_reason_and_chips_summing_to_zero(qtbot, desk_window):
    """The dialog itself, by keyboard: OK stays off until the reason is given and the
    seats' chips sum to 0; Ctrl+Enter submits then."""
    from referee_app.gui.views.override_dialog import OverrideDialog

    win, _ = desk_window()
    dlg = OverrideDialog({"E": "李伟", "S": "张敏", "W": "陈杰", "N": "王芳"}, win)
    qtbot.addWidget(dlg)
    dlg.show()
    dlg.activateWindow()
    qtbot.waitUntil(dlg.isActiveWindow, timeout=3000)
    assert not dlg.ok.isEnabled() and "0" in dlg.sum_label.text()
    qtbot.keyClicks(dlg.reason, "table agreed")
    dlg.chips["E"].setValue(5)
    assert not dlg.ok.isEnabled() and "+5" in dlg.sum_label.text()
    qtbot.keyClick(dlg, Qt.Key.Key_Return, CTRL)
    assert dlg.result() != dlg.DialogCode.Accepted
    dlg.chips["N"].setValue(-5)
    assert dlg.ok.isEnabled()
    qtbot.keyClick(dlg, Qt.Key.Key_Return, CTRL)
    assert dlg.result() == dlg.DialogCode.Accepted
    assert dlg.ruling() == ("table agreed", {"E": 5, "S": 0, "W": 0, "N": -5})
