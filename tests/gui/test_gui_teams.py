"""The desk in a team event and at check-in (issue 26): the Teams view of the standings
(what it shows is the store's team rows), the projector's team page, the player editor's
team, the check-in list driven from the keyboard alone, absent players on the seating."""

from __future__ import annotations

from typing import Any

import gui_helpers
from gui_helpers import PLAYERS, commit_text, example_record
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialog

from referee_app.gui.views.checkin import CheckInDialog

desk_window = gui_helpers.desk_window  # the fixture, shared with the other GUI tests

TEAMS = {"李伟": "川军", "张敏": "蓉城", "陈杰": "川军", "王芳": "蓉城"}


def _teams(t: Any) -> None:
    for name, team in TEAMS.items():
        t.players.update(name, team=team)


def test_the_teams_view_shows_the_stores_team_rows(desk_window, qtbot) -> None:
    win, seating = desk_window(setup=_teams)
    win.desk.t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    win.reload()
    view = win.standings
    assert not view.teams_box.isHidden()  # a team event offers the view
    view.teams_box.setFocus()
    qtbot.keyClick(view.teams_box, Qt.Key.Key_Space)  # from the keyboard
    assert view.showing_teams()
    want = {r.team: r.chips for r in win.desk.team_standings()}
    assert view.chips_by_team() == want and sum(want.values()) == 0
    players = {r.player: r.chips for r in win.desk.standings()}
    assert want["川军"] == players["李伟"] + players["陈杰"]
    # the Teams view follows the round filter like the players' view
    view.round_box.setCurrentIndex(view.round_box.findData(-1))
    assert view.chips_by_team() == {r.team: r.chips for r in win.desk.team_standings(1)}
    view.teams_box.setChecked(False)
    assert set(view.chips_by_player()) == set(players)


def test_no_teams_no_teams_view(desk_window) -> None:
    win, _ = desk_window()
    assert win.standings.teams_box.isHidden() and not win.standings.showing_teams()


def test_the_projector_turns_to_the_team_page(desk_window, qtbot) -> None:
    win, seating = desk_window(setup=_teams)
    win.desk.t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    proj = win.projector.open()
    qtbot.waitUntil(proj.isVisible)
    assert proj.team_pages() == 1 and proj.pages() == proj.standings_pages() + 1
    proj.turn(proj.standings_pages())
    assert proj.on_team_page()
    shown = {proj.table.item(r, 1).text(): proj.table.item(r, 2).text()
             for r in range(proj.table.rowCount())}
    assert shown == {r.team: f"{r.chips:+d}" for r in win.desk.team_standings()}
    qtbot.keyClick(proj, Qt.Key.Key_T)  # T takes the team pages out
    assert proj.team_pages() == 0 and not proj.on_team_page()
    win.projector.close()


def test_the_player_editor_sets_a_team(desk_window) -> None:
    win, _ = desk_window()
    win.players.select_player("李伟")

    def run(dlg: QDialog) -> bool:
        dlg.show()
        assert dlg.team.text() == "" and dlg.name.text() == "李伟"
        commit_text(dlg.team, "川军")
        dlg.accept()
        return dlg.result() == QDialog.DialogCode.Accepted

    win.run_dialog = run
    assert win.menus.act_edit_player.isEnabled()
    win.menus.act_edit_player.trigger()
    assert win.desk.t.players.get("李伟").team == "川军"
    assert win.players.team_lbl.text().endswith("川军")
    assert win.desk.t.record.log()[-1]["action"] == "players.update"
    assert not win.standings.teams_box.isHidden()  # now a team event


def test_check_in_from_the_keyboard_alone(desk_window, qtbot) -> None:
    win, _ = desk_window()
    opened: list[CheckInDialog] = []

    def run(dlg: QDialog) -> bool:
        opened.append(dlg)  # type: ignore[arg-type]
        dlg.show()
        qtbot.waitUntil(lambda: dlg.line.hasFocus())
        qtbot.keyClicks(dlg.line, "wf")  # 王芳 by her initials
        assert dlg.selected().name == "王芳"
        qtbot.keyClick(dlg.line, Qt.Key.Key_Return)
        assert dlg.line.text() == ""  # ready for the next name
        qtbot.keyClicks(dlg.line, "an")  # Zhang Min and Wang Fang: Down picks the second
        names = [dlg.table.item(r, 0).text() for r in range(dlg.table.rowCount())]
        assert [n.split()[0] for n in names] == ["张敏", "王芳"]
        qtbot.keyClick(dlg.line, Qt.Key.Key_Down)
        assert dlg.selected().name == "王芳"
        qtbot.keyClick(dlg.line, Qt.Key.Key_Return)  # she is back
        commit_text(dlg.line, "张敏")  # characters work too
        qtbot.keyClick(dlg.line, Qt.Key.Key_Return)
        dlg.reject()
        return False

    win.run_dialog = run
    win.menus.act_checkin.trigger()
    t = win.desk.t
    status = {p.name: p.status.value for p in t.players.list()}
    absent = [n for n, s in status.items() if s == "absent"]
    assert status["王芳"] == "active" and absent == ["张敏"]
    assert opened[0].counts.text() == "Present 3 of 4 · absent 1"
    # every change a status entry of the record
    entries = [e["detail"]["status"] for e in t.record.log() if e["action"] == "players.status"]
    assert entries == ["absent", "active", "absent"]
    assert win.menus.act_checkin.shortcut().toString() == "Ctrl+Shift+K"


def test_absent_players_on_the_desks_seating(desk_window) -> None:
    win, seating = desk_window()
    who = seating["E"]
    win.desk.set_present(who, False)
    win.reload()
    win.tabs.setCurrentWidget(win.seating)
    cells = [win.seating.table.item(0, c).text() for c in range(1, 5)]
    assert f"{who} (absent)" in cells
    assert "is absent" in win.seating.problems.text()
    assert [p for p, _ in PLAYERS if p == who]


def test_the_teams_view_follows_a_save(desk_window, qtbot) -> None:
    """A save refreshes only what it changed (issue 23): in the team view that is the
    teams' rows, read again from the store — and the players' view comes back as before."""
    win, seating = desk_window(setup=_teams)
    t = win.desk.t
    t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    win.reload()
    view = win.standings
    view.teams_box.setChecked(True)
    before = view.chips_by_team()
    t.hands.add(example_record(seating), round=1, table=1, hand_no=2)  # another desk's
    win.refresh()
    want = {r.team: r.chips for r in win.desk.team_standings()}
    assert view.chips_by_team() == want != before
    assert view.player_at(0) is None  # a team's line opens no player
    view.teams_box.setChecked(False)
    assert view.chips_by_player() == {r.player: r.chips for r in t.standings.table()}
