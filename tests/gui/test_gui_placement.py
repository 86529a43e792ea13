"""The desk under placement scoring and stages (issue 26): the standings tab shows the stage,
the points first and what was carried, one stage alone on request; the projector shows the
points before the chips; a penalty may be in points — on the placement demo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from referee_app.gui.controllers.desk import Desk
from referee_app.gui.i18n import LANG
from referee_app.gui.views.main_window import MainWindow
from referee_app.gui.views.projector import ProjectorWindow
from referee_app.storage import Tournament

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_events" / "demo-placement.json"


@pytest.fixture
def window(qtbot: Any, tmp_path: Path) -> Any:
    db = tmp_path / "placement.sqlite"
    Tournament.import_bundle(DEMO, db, backup_every=0).close()
    LANG.set("en")
    desk = Desk.open(db, referee="赵建国")
    win = MainWindow(desk)
    win.show_message = lambda text: None
    qtbot.addWidget(win)
    win.show()
    yield win
    LANG.set("en")


def _headers(table: Any) -> list[str]:
    model = table.model()
    return [str(model.headerData(c, Qt.Orientation.Horizontal))
            for c in range(model.columnCount())]


def _cell(table: Any, row: int, col: int) -> str:
    model = table.model()
    return str(model.data(model.index(row, col)))


def test_the_standings_tab_shows_the_points_first_and_the_stages(window: Any) -> None:
    view = window.standings
    window.tabs.setCurrentWidget(view)
    store = window.desk.standings()
    assert _headers(view.table)[:6] == ["Rank", "Player", "Stage", "Points", "Carried", "Chips"]
    assert view.column_by_player("points") == {r.player: r.points for r in store}
    assert view.chips_by_player() == {r.player: r.chips for r in store}
    assert _cell(view.table, 0, 2) == "决赛" and _cell(view.table, 15, 2) == "Qualifying"
    assert _cell(view.table, 1, 3) == "6.5"  # a shared place: halves
    assert view.stage_box.count() == 3 and not view.stage_box.isHidden()
    view.stage_box.setCurrentIndex(view.stage_box.findData(2))
    assert view.model.rowCount() == 8 and view.column_by_player("points") == {
        r.player: r.points for r in window.desk.standings(stage=2)}
    LANG.set("zh")
    assert _headers(view.table)[:6] == ["名次", "选手", "阶段", "比赛分", "带入", "筹码"]
    assert view.stage_box.currentText() == "阶段：决赛"


def test_the_projector_shows_the_points_before_the_chips(qtbot: Any, window: Any) -> None:
    proj = ProjectorWindow(lambda: window.desk.projector_data("Standings"), page_seconds=60)
    qtbot.addWidget(proj)
    proj.resize(1600, 900)
    proj.show()
    heads = _headers(proj.table)
    assert heads[:4] == ["Rank", "Player", "Points", "Chips"]
    top = window.desk.standings(through=4)[0]
    assert [_cell(proj.table, 0, c) for c in range(3)] == ["1", top.player, "8"]
    assert "决赛 · top 8" in proj.subtitle.text()


def test_a_penalty_in_points_from_the_desk(window: Any, monkeypatch: Any) -> None:
    dlg = window.show_penalties()
    assert [dlg.unit.itemData(i) for i in range(dlg.unit.count())] == ["chips", "points"]
    dlg.unit.setCurrentIndex(1)
    assert not dlg.zero_sum.isEnabled()
    dlg.players.item(0).setSelected(True)
    dlg.chips.setValue(1)
    dlg.reason.setText("slow play")
    before = {r.player: r.points for r in window.desk.standings()}
    name = dlg.players.item(0).text()
    assert dlg.submit(), dlg.message.text()
    pen = window.desk.penalties()[-1]
    assert (pen.unit, pen.entries) == ("points", {name: -1})
    after = {r.player: r.points for r in window.desk.standings()}
    assert after[name] == before[name] - 1
    assert any(dlg.table.item(r, 2).text() == "1 points" for r in range(dlg.table.rowCount()))
