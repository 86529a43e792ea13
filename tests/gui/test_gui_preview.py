"""Issue 12: a typo in one seat does not blank the preview; seat panels keep their size."""

from __future__ import annotations

import gui_helpers
from gui_helpers import SPEC_TOTALS, commit_text, example_record

from referee_app.gui.controllers.entry import EntryForm

desk_window = gui_helpers.desk_window


def _spec_form(win, seating) -> None:
    win.navigator.select_key(("table", 1, 1))
    form = EntryForm.from_record(example_record(seating))
    form.extra.update(round=1, table=1, hand_no=1)
    win.entry.load(form, "", "")
    for p in win.entry.panels.values():  # the last good tiles are the ones the form shows
        p._redraw()


def test_typo_keeps_last_good_tiles_and_the_preview(qtbot, desk_window) -> None:
    win, seating = desk_window()
    _spec_form(win, seating)
    entry = win.entry
    assert entry.preview.totals() == SPEC_TOTALS
    widths = {s: p.width() for s, p in entry.panels.items()}
    s_panel = entry.panels["S"]
    tiles_before = s_panel.tiles.tile_count()
    s_panel.concealed.end(False)
    commit_text(s_panel.concealed, "z")  # "2366p456sz": S cannot be read
    qtbot.wait(10)
    ev = entry.evaluation
    assert ev.read_error is not None
    # S keeps its tiles, faded, with the message under them in words
    assert s_panel.tiles.tile_count() == tiles_before and s_panel.tiles.stale
    assert s_panel.message.text() == "S 南 concealed tiles: unexpected character 'z' at position 10"
    # the wins (N's and E's: S's tiles are not theirs) still show, not dimmed
    assert entry.preview.wins.rowCount() == 2
    assert entry.preview.wins.item(0, 0).toolTip() != ""
    assert entry.preview.payments.rowCount() > 0
    # every total involves S here (kong tax, self-drawn win): shown as ≈, not as "—"
    labels = {s: lbl.text() for s, lbl in entry.preview.total_labels.items()}
    assert all("≈" in t for t in labels.values()), labels
    assert f"≈{SPEC_TOTALS['E']:+d}" in labels["E"]
    # the seat panels did not move or resize
    qtbot.wait(10)
    assert {s: p.width() for s, p in entry.panels.items()} == widths
    # fixing the typo brings the live preview back
    s_panel.concealed.end(False)
    from PySide6.QtCore import Qt
    qtbot.keyClick(s_panel.concealed, Qt.Key.Key_Backspace)
    assert not s_panel.tiles.stale
    assert entry.preview.totals() == SPEC_TOTALS


def test_a_win_of_the_broken_seat_is_dimmed(qtbot, desk_window) -> None:
    win, seating = desk_window()
    _spec_form(win, seating)
    n = win.entry.panels["N"]
    n.concealed.end(False)
    commit_text(n.concealed, "q")
    rows = {win.entry.preview.wins.item(r, 0).text(): win.entry.preview.wins.item(r, 0)
            for r in range(win.entry.preview.wins.rowCount())}
    n_row = next(it for t, it in rows.items() if t.startswith("N"))
    e_row = next(it for t, it in rows.items() if t.startswith("E"))
    assert n_row.foreground().color().name() == "#9a9a9a"
    assert e_row.foreground().color().name() != "#9a9a9a"
