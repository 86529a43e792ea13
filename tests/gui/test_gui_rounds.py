"""Issue 12: one meaning of rounds — the standings filter offers "after round N" (rounds
1…N) and "round N only"; Ctrl+P prints exactly what is shown (``report standings
--through N`` / ``--round N``). With "only verified hands count" the standings say they
are provisional."""

from __future__ import annotations

import gui_helpers
from gui_helpers import example_record

desk_window = gui_helpers.desk_window


def test_round_filter_scopes_and_print(qtbot, desk_window) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    win.desk.t.hands.add(rec, round=1, table=1, hand_no=1)
    win.reload()
    box = win.standings.round_box
    texts = [box.itemText(i) for i in range(box.count())]
    assert texts == ["All rounds", "After round 1 (rounds 1–1)", "Round 1 only"]
    win.tabs.setCurrentWidget(win.standings)
    box.setCurrentIndex(box.findData(1))
    assert win.standings.selected_scope() == (None, 1)
    through = win.standings.chips_by_player()
    assert through == {r.player: r.chips for r in win.desk.t.standings.table(through_round=1)}
    dlg = win.menus.reports.preview_current()
    assert dlg.request.params == {"through": 1}  # printed as shown: after round 1
    assert "After round 1" in _pdf_text(dlg.pdf)
    dlg.close()
    box.setCurrentIndex(box.findData(-1))
    assert win.standings.selected_scope() == (1, None)
    assert win.standings.chips_by_player() == {r.player: r.chips
                                               for r in win.desk.t.standings.table(1)}
    dlg = win.menus.reports.preview_current()
    assert dlg.request.params == {"round": 1}  # round 1 alone, as shown
    assert dlg.request.file_stem() == "standings-r1"
    assert "Round 1 only" in _pdf_text(dlg.pdf)
    dlg.close()
    box.setCurrentIndex(box.findData(0))
    dlg = win.menus.reports.preview_current()
    assert dlg.request.params == {}
    dlg.close()


def _pdf_text(pdf: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def test_verified_only_marks_gui_standings_and_projector_provisional(qtbot, desk_window
                                                                       ) -> None:
    win, seating = desk_window()
    t = win.desk.t
    h1 = t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    win.reload()
    assert not win.standings.provisional.isVisibleTo(win.standings)
    counted = win.standings.chips_by_player()
    assert any(counted.values())
    t.update_info(verified_only=True)
    win.reload()
    win.refresh_standings()
    assert win.standings.provisional.isVisibleTo(win.standings)
    assert "1 hand(s) not yet verified" in win.standings.provisional.text()
    assert not any(win.standings.chips_by_player().values())  # the entered hand waits
    proj = win.projector.open()
    assert "provisional (1 to verify)" in proj.subtitle.text()
    t.hands.set_status(h1.id, "verified")
    win.refresh_standings()
    assert not win.standings.provisional.isVisibleTo(win.standings)
    assert win.standings.chips_by_player() == counted
    proj.refresh()
    assert "provisional" not in proj.subtitle.text()
    proj.close()
