"""Issue 12: the what-if panel of the trace tab — touched switches listed, the alternative
settled side by side, recorded only by the head referee as an override with a reason."""

from __future__ import annotations

import json
from pathlib import Path

import gui_helpers

from referee_app.gui.controllers.entry import EntryForm

desk_window = gui_helpers.desk_window
GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


def _robbed(win, seating) -> None:
    rec = json.loads((GOLDEN / "robbed_kong_two_robbers.json").read_text())["record"]
    for s, p in seating.items():
        rec["seats"][s]["player"] = p
    win.navigator.select_key(("table", 1, 1))
    form = EntryForm.from_record(rec)
    form.extra.update(round=1, table=1, hand_no=1)
    win.entry.load(form, "", "")


def test_whatif_panel_shows_and_records(qtbot, desk_window) -> None:
    win, seating = desk_window()
    _robbed(win, seating)
    win.tabs.setCurrentWidget(win.trace)
    panel = win.trace.whatif
    assert panel.switches.count() == 1
    assert panel.switches.item(0).text() == (
        "§2.9  robbed kong's tax goes to the robber: yes → no")
    assert panel.table.rowCount() == 0 and not panel.btn_record.isEnabled()
    panel.tick(0)
    rows = [[panel.table.item(r, c).text() for c in range(4)] for r in range(4)]
    assert rows[0] == ["E 东", "-1", "+1", "+2"]
    assert win.desk.hands() == []  # nothing is saved by looking
    # the head referee records it: a reason is required, the totals are the alternative's
    asked = []
    win.ask_reason = lambda title, prompt, summary: asked.append(summary) or "ruled at table"
    assert panel.btn_record.isEnabled()
    panel.btn_record.click()
    (h,) = win.desk.hands()
    assert h.override and h.totals == {"E": 1, "S": 2, "W": -11, "N": 8}
    assert asked[0].startswith("E 东 -1 → +1")
    assert "robbed kong's tax goes to the robber: ruled at table" in h.override_reason


def test_whatif_refused_without_reason(qtbot, desk_window) -> None:
    win, seating = desk_window()
    _robbed(win, seating)
    win.tabs.setCurrentWidget(win.trace)
    win.trace.whatif.tick(0)
    win.ask_reason = lambda *a: ""
    assert not win.record_ruling(win.trace.whatif.current)
    assert win.desk.hands() == []
    assert win.messages[-1] == "A reason is required; nothing was saved."
