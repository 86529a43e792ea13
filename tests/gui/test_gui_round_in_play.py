"""The round in play on the desk (issues 25 and 26): its clock in the status bar, Start
round… by the head referee, the default round of the seating and progress tabs, and the
dealer warning shown before a hand with another dealer than the rules' is saved."""

from __future__ import annotations

import re
from typing import Any

import gui_helpers
import pytest
from gui_helpers import enter_spec_example
from gui_keys import CTRL
from PySide6.QtCore import Qt

from referee_app.storage import Tournament

desk_window = gui_helpers.desk_window


def _three_rounds(t: Tournament) -> None:
    t.rounds.seat(2, seed=4)
    t.rounds.seat(3, seed=5)


def _started(t: Tournament) -> None:
    _three_rounds(t)
    t.rounds.start(2, minutes=90)


@pytest.mark.parametrize(("lang", "pattern"), [
    ("en", r"^Round 2 · 1:(29|30):\d\d left$"),
    ("zh", r"^第2轮 · 剩余 1:(29|30):\d\d$"),
])
def test_the_status_bar_counts_down_the_round_in_play(desk_window, lang, pattern) -> None:
    win, _ = desk_window(lang=lang, setup=_started)
    label = win.round_clock.label
    assert re.match(pattern, label.text()), label.text()
    assert win.round_clock.timer.isActive()  # ticks each second
    # the views open on the round in play, not the first or the last round
    assert win.seating.current_round() == 2
    assert win.progress.current_round() == 2
    assert "·" in win.navigator.item_text(("round", 2))
    assert "·" not in win.navigator.item_text(("round", 1))


def test_without_a_start_the_first_round_and_no_clock(desk_window) -> None:
    win, _ = desk_window(setup=_three_rounds)
    assert win.round_clock.label.text() == "Round 1 in play"
    assert not win.round_clock.timer.isActive()
    assert win.seating.current_round() == 1


def test_start_round_from_the_desk(desk_window) -> None:
    win, _ = desk_window(setup=_three_rounds)

    def run(dlg: Any) -> bool:  # the form as the head referee fills it in
        dlg.round.setCurrentIndex(dlg.round.findData(3))
        dlg.clock.setCurrentIndex(dlg.clock.findData("minutes"))
        dlg.minutes.setValue(45)
        dlg.accept()
        return dlg.result() == dlg.DialogCode.Accepted

    win.run_dialog = run
    assert win.round_clock.start()
    state = win.desk.in_play()
    assert (state.round, state.minutes) == (3, 45) and state.timed
    assert win.round_clock.label.text().startswith("Round 3 · 4")
    assert win.messages[-1] == win.round_clock.label.text()
    assert win.desk.t.record.log()[-1]["action"] == "round.start"

    def extend(dlg: Any) -> bool:
        assert dlg.round.currentData() == 3  # the form opens on the round in play
        dlg.clock.setCurrentIndex(dlg.clock.findData("extend"))
        dlg.minutes.setValue(10)
        dlg.accept()
        return True

    win.run_dialog = extend
    assert win.round_clock.start()
    assert win.desk.in_play().added == 10


def test_a_refused_start_keeps_the_form_and_writes_nothing(desk_window) -> None:
    win, _ = desk_window(setup=_three_rounds)
    before = win.desk.record_digest()
    shown: list[str] = []

    def run(dlg: Any) -> bool:
        dlg.round.setCurrentIndex(dlg.round.findData(2))
        dlg.clock.setCurrentIndex(dlg.clock.findData("extend"))  # round 2 has no clock
        win.show_message = shown.append
        dlg.accept()
        assert dlg.isVisible() or dlg.result() != dlg.DialogCode.Accepted
        return False

    win.run_dialog = run
    assert not win.round_clock.start()
    assert any("no clock to extend" in m for m in shown)
    assert win.desk.record_digest() == before


def test_a_dealer_other_than_the_rules_is_said_before_saving(qtbot, desk_window) -> None:
    win, _ = desk_window()
    enter_spec_example(qtbot, win)  # hand 1, dealer E as the rules have it
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    assert win.dealer_warnings == [] and len(win.desk.hands()) == 1
    win.next_hand()
    enter_spec_example(qtbot, win)  # hand 2: the rules' dealer is hand 1's first winner
    suggested = win.desk.t.hands.next_dealer(1, 1)
    other = next(s for s in "ESWN" if s != suggested)
    win.entry.form.dealer = other
    win.confirm_dealer = lambda text: win.dealer_warnings.append(text) and False
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    assert len(win.desk.hands()) == 1  # not saved: the referee looks at the dealer again
    said = win.dealer_warnings[0]
    assert said.startswith(f"The dealer is {other} ") and f"rules suggest {suggested} " in said
    win.confirm_dealer = lambda text: True
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    hands = win.desk.hands()
    assert len(hands) == 2 and hands[1].dealer == other
