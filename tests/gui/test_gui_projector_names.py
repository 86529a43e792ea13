"""The projector never cuts a name (issue 13, item 1): a long name shrinks, then wraps."""

from __future__ import annotations

from types import SimpleNamespace

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics

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
