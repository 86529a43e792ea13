"""Issue 12: one meaning of rounds — the standings filter offers "after round N" (rounds
1…N, what the printout says) and "round N only"; Ctrl+P prints what is shown or says why
it cannot."""

from __future__ import annotations

import gui_helpers
from gui_helpers import example_record

desk_window = gui_helpers.desk_window


def test_round_filter_scopes_and_print(qtbot, desk_window) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    win.desk.t.add_hand(rec, round=1, table=1, hand_no=1)
    win.reload()
    box = win.standings.round_box
    texts = [box.itemText(i) for i in range(box.count())]
    assert texts == ["All rounds", "After round 1 (rounds 1–1)", "Round 1 only"]
    win.tabs.setCurrentWidget(win.standings)
    box.setCurrentIndex(box.findData(1))
    assert win.standings.selected_scope() == (None, 1)
    through = win.standings.chips_by_player()
    assert through == {r.player: r.chips for r in win.desk.t.standings(through_round=1)}
    dlg = win.reports.preview_current()
    assert dlg.request.params == {"round": 1}  # printed as shown: after round 1
    dlg.close()
    box.setCurrentIndex(box.findData(-1))
    assert win.standings.selected_scope() == (1, None)
    assert win.standings.chips_by_player() == {r.player: r.chips
                                               for r in win.desk.t.standings(1)}
    shown = []
    win.show_message = shown.append
    assert win.reports.preview_current() is None
    assert shown[-1].startswith("The standings report prints cumulative standings")
