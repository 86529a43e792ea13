"""The projector never cuts a name (issue 13, item 1): a long name shrinks, then wraps."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

from referee_app.gui.i18n import tr
from referee_app.gui.views.projector import ProjectorWindow

LONG = "O'Brien & <Co> O'Brien, Seán Patrick Fitzgerald-Montgomery"


def test_long_name_shrinks_instead_of_an_ellipsis(qtbot) -> None:
    rows = [SimpleNamespace(rank=1, tied=False, player=LONG, chips=12, wins=3, hands=8),
            SimpleNamespace(rank=2, tied=False, player="周强", chips=-12, wins=1, hands=8)]
    win = ProjectorWindow(lambda: ("Open", rows), interval_ms=60_000)
    qtbot.addWidget(win)
    win.resize(640, 480)
    win.show()
    qtbot.waitExposed(win)
    win._layout_page()
    table = win.table
    assert table.textElideMode() == Qt.TextElideMode.ElideNone and table.wordWrap()
    long_item, short_item = table.item(0, 1), table.item(1, 1)
    assert long_item.text() == LONG  # the whole name, never "…"
    assert long_item.font().pixelSize() < short_item.font().pixelSize()
    width = table.horizontalHeader().sectionSize(1) - 12
    fm = QFontMetrics(long_item.font())
    lines = -(-fm.horizontalAdvance(LONG) // width)
    assert lines >= 2  # too long even shrunk: it wraps, and its row is tall enough for it
    assert table.rowHeight(0) >= lines * fm.lineSpacing()
    assert table.rowHeight(1) < table.rowHeight(0)


def test_pages_under_placement_fit_with_the_points_column(qtbot) -> None:
    """Under placement scoring the points column narrows the names' column: the pages are
    cut by the heights the names wrap to there (also on the refresh that follows a switch
    from chips, the table still laid out for six columns), so every page fits the screen
    and every player is shown once."""
    rows = [SimpleNamespace(rank=i + 1, tied=False, points=None, chips=40 - 7 * i, wins=2,
                            hands=8,
                            player=(f"{i:02d} {LONG}" if i % 2 else f"选手{i:02d} 王小明"))
            for i in range(30)]
    win = ProjectorWindow(lambda: ("Open", rows), interval_ms=60_000)
    qtbot.addWidget(win)
    win.resize(900, 700)
    win.show()
    qtbot.waitExposed(win)
    table = win.table
    assert table.columnCount() == 6
    for i, r in enumerate(rows):  # the event now scores by placement
        r.points = 30 - i
    win.refresh()
    room = table.viewport().height()
    seen: list[str] = []
    for page in range(win.standings_pages()):
        win.page = page
        win._show_page()
        assert table.columnCount() == 7 and table.horizontalHeaderItem(2).text() == tr("Points")
        assert sum(table.rowHeight(r) for r in range(table.rowCount())) <= room, page
        seen += [table.item(r, 1).text() for r in range(table.rowCount())]
    assert seen == [r.player for r in rows]
