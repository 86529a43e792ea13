"""Issue 12, launch to a usable window: the navigator lists hands from a light index and
builds a table's hand rows only when the table is opened (or a hand in it is asked for);
the reports library is not imported until a report is made."""

from __future__ import annotations

import subprocess
import sys

import gui_helpers
from gui_helpers import example_record

from referee_app.gui.controllers import reports as ctl
from referee_app.reports.template import REPORTS

desk_window = gui_helpers.desk_window


def test_hand_index_matches_hands(qtbot, desk_window) -> None:
    win, seating = desk_window()
    t = win.desk.t
    rec = example_record(seating)
    for n in (1, 2, 3):
        t.hands.add(rec, round=1, table=1, hand_no=n)
    t.hands.void(t.hands.find(1, 1, 2).id, reason="twice")
    t.hands.set_status(t.hands.find(1, 1, 3).id, "verified")
    full = [(h.id, h.round, h.table, h.hand_no, h.status, h.flags) for h in t.hands.list()]
    light = [(h.id, h.round, h.table, h.hand_no, h.status, h.flags) for h in t.hands.index()]
    assert light == full


def test_navigator_builds_hand_rows_when_a_table_opens(qtbot, desk_window) -> None:
    win, seating = desk_window()
    t = win.desk.t
    rec = example_record(seating)
    ids = [t.hands.add(rec, round=1, table=1, hand_no=n).id for n in (1, 2, 3)]
    win.reload()
    nav = win.navigator
    table = nav._items[("table", 1, 1)]
    table.setExpanded(False)
    win.reload()
    assert table is not nav._items[("table", 1, 1)]
    table = nav._items[("table", 1, 1)]
    assert not table.isExpanded() and table.childCount() == 0  # not built yet
    assert table.childIndicatorPolicy() == table.ChildIndicatorPolicy.ShowIndicator
    table.setExpanded(True)  # the referee opens it (Right arrow, click)
    assert table.childCount() == 3
    assert [nav._number(table.child(i).data(0, 256)) for i in range(3)] == [1, 2, 3]
    table.setExpanded(False)
    win.reload()
    assert "Hand 2" in nav.item_text(("hand", ids[1]))  # asked for: built with its table
    assert nav.select_key(("hand", ids[2]), emit=False)
    assert nav.current_key() == ("hand", ids[2])


def test_reports_library_not_imported_at_launch() -> None:
    code = ("import sys, referee_app.gui.views.main_window; "
            "print(any(m.startswith('referee_app.reports') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"},
                         check=True).stdout
    assert out.strip() == "False"
    assert ctl.REPORTS == REPORTS  # the desk's list of reports is the library's


def test_tile_strip_draws_from_cached_tiles(qtbot) -> None:
    from referee_app.core import parse_tiles
    from referee_app.gui.views import tiles as tv

    strip = tv.TileStrip(34)
    qtbot.addWidget(strip)
    strip.resize(400, 40)
    tv._PIXMAPS.clear()
    strip.set_groups([tv.TileGroup(tuple(parse_tiles("123m"))),
                      tv.TileGroup(tuple(parse_tiles("555p")), exposed=True)])
    img = strip.grab().toImage()
    assert len(tv._PIXMAPS) == 4  # 1m 2m 3m, exposed 5p once
    ivory = img.pixelColor(2 + 12, 20)  # inside the first tile's face
    assert ivory.red() > 200 and ivory.green() > 190
    strip.grab()
    assert len(tv._PIXMAPS) == 4  # drawn from the cache


def test_seat_problem_flips_a_property_not_the_style_sheet(qtbot, desk_window) -> None:
    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    panel = win.entry.panels["E"]
    sheet = panel.styleSheet()
    panel.set_problems(["§2.5: x"])
    assert panel.has_problem and panel.property("problem") is True
    panel.set_problems([])
    assert not panel.has_problem and panel.property("problem") is False
    assert panel.styleSheet() == sheet


def test_tab_guard_drops_only_requests_that_change_nothing(qtbot, desk_window) -> None:
    """Typing in a seat no longer re-lays out (and repaints) the whole tab widget; a
    language switch, a resize or another tab still do."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    from referee_app.gui.i18n import LANG

    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    field = win.entry.panels["E"].concealed
    field.setFocus()
    for key in (Qt.Key.Key_1, Qt.Key.Key_M, Qt.Key.Key_Backspace, Qt.Key.Key_Backspace) * 3:
        QTest.keyClick(field, key)
        qtbot.wait(1)
    assert win.tab_guard.dropped > 0
    stack = win.tab_guard.stack
    LANG.set("zh")  # the tab texts get wider: the tab bar must be laid out again
    qtbot.wait(10)
    bar = win.tabs.tabBar()
    assert bar.width() >= bar.sizeHint().width() - 2
    assert stack.geometry().top() >= bar.geometry().bottom()
    win.resize(1300, 820)
    qtbot.wait(10)
    assert stack.geometry().right() <= win.tabs.width()
    assert win.entry.geometry().size() == stack.contentsRect().size()
    win.tabs.setCurrentWidget(win.standings)
    qtbot.wait(10)
    assert win.standings.isVisible() and win.standings.width() > 0
    LANG.set("en")
