"""Running a tournament from the window: new tournament, players, seating (pytest-qt, offscreen).

The forms are filled as a referee would (text set in the fields, Chinese committed through an
input-method event) and confirmed with accept(); the file choosers are replaced by hooks.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import gui_helpers
import pytest
from gui_helpers import commit_text
from PySide6.QtWidgets import QDialog

from referee_app.storage import Tournament

desk_window = gui_helpers.desk_window  # the fixture, shared with the other GUI tests

NAMES = [("李伟", "Li Wei"), ("张敏", "Zhang Min"), ("陈杰", "Chen Jie"), ("王芳", "Wang Fang"),
         ("刘洋", "Liu Yang"), ("赵磊", "Zhao Lei"), ("孙丽", "Sun Li"), ("周强", "Zhou Qiang")]


def dump(path: Path) -> list[str]:
    """Everything stored in a tournament file except the audit log and WAL details."""
    con = sqlite3.connect(path)
    try:
        return [line for line in con.iterdump() if "INSERT INTO \"log\"" not in line]
    finally:
        con.close()


def filler(fill, result: list[QDialog]):
    """A ``run_dialog`` hook: fill the form, press OK (accept), report whether it closed."""

    def run(dlg: QDialog) -> bool:
        dlg.show()
        fill(dlg)
        dlg.accept()
        result.append(dlg)
        return dlg.result() == QDialog.DialogCode.Accepted

    return run


@pytest.fixture
def fresh(desk_window, tmp_path: Path, qtbot):
    """A window switched, through File → New tournament…, to a new Ottawa tournament."""
    win, _seating = desk_window()
    shown: list[QDialog] = []
    path = tmp_path / "new-open.sqlite"

    def fill(d):
        d.path.setText(str(path))
        commit_text(d.name, "渥太华公开赛 Ottawa Open")
        d.ruleset.setCurrentIndex(d.ruleset.findData("ottawa-2009"))
        d.venue.setText("Ottawa")
        d.start_date.setText("2026-11-29")
        d.stake.setValue(2)
        d.cap.setValue(8)

    win.run_dialog = filler(fill, shown)
    assert win.event_admin.new_tournament()
    return win, path


def add_player(win, name: str, latin: str = "", club: str = "", chinese: bool = False) -> bool:
    shown: list[QDialog] = []

    def fill(d):
        if chinese:
            commit_text(d.name, name)
        else:
            d.name.setText(name)
        d.name_latin.setText(latin)
        d.club.setText(club)

    win.run_dialog = filler(fill, shown)
    return win.event_admin.add_player()


def grid(win) -> dict[tuple[int, str], str]:
    """The seating grid as shown: (table, seat) -> the text of the cell."""
    out = {}
    t = win.seating.table
    for r in range(t.rowCount()):
        table = int(t.item(r, 0).text().split()[-1])
        for c in range(1, t.columnCount()):
            seat = t.horizontalHeaderItem(c).text().split()[0]
            out[(table, seat)] = t.item(r, c).text()
    return out


def test_new_tournament_is_created_and_opened(fresh):
    win, path = fresh
    t = Tournament.open(path)
    try:
        info = t.info
        assert (info.name, info.ruleset, info.venue, info.start_date, info.stake,
                info.cap_fan) == ("渥太华公开赛 Ottawa Open", "ottawa-2009", "Ottawa",
                                  "2026-11-29", 2, 8)
    finally:
        t.close()
    assert win.desk.t.path == path
    assert "渥太华公开赛 Ottawa Open" in win.windowTitle()
    assert win.navigator.topLevelItem(0).text(0) == "渥太华公开赛 Ottawa Open"
    assert win.seating.table.rowCount() == 0
    assert win.seating.btn_seat.text() == "Seat round 1…"
    texts = [a.text() for a in win.menus.menu_file.actions() if a.text()]
    assert texts[:2] == ["&New tournament…", "&Open database…"]
    assert {"&Import bundle…", "&Export bundle…"} <= set(texts)
    from referee_app.gui.i18n import LANG

    LANG.set("zh")
    assert win.menus.act_new_tournament.text() == "新建赛事(&N)…"
    assert win.seating.btn_seat.text() == "排第1轮座位…"
    assert win.players.btn_add.text() == "添加选手…"


def test_new_tournament_over_an_existing_file_is_refused(desk_window, tmp_path: Path):
    win, _ = desk_window()
    old = win.desk.t.path
    existing = tmp_path / "taken.sqlite"
    Tournament.create(existing, "Already here", backup_every=0).close()
    before = dump(existing)
    boxes: list[str] = []
    win.show_message = boxes.append
    shown: list[QDialog] = []

    def fill(d):
        d.path.setText(str(existing))
        d.name.setText("Second")

    win.run_dialog = filler(fill, shown)
    assert not win.event_admin.new_tournament()
    assert shown[0].isVisible()  # the form stays open with what was typed
    assert len(boxes) == 1 and "database:" in boxes[0] and "already exists" in boxes[0]
    assert dump(existing) == before
    assert win.desk.t.path == old  # the window still shows the tournament it had


def test_players_seating_swap_and_errors(fresh, qtbot):
    win, path = fresh
    assert add_player(win, "李伟", "Li Wei", "Ottawa", chinese=True)
    assert win.players.player_box.findText("李伟") >= 0
    assert win.players.current_player() == "李伟"
    for name, latin in NAMES[1:]:
        assert add_player(win, name, latin, "Toronto", chinese=True)
    assert [p.name for p in win.desk.players()] == [n for n, _ in NAMES]
    assert win.desk.t.players.get("Li Wei").club == "Ottawa"

    # a duplicate name: one message box naming the field, nothing stored
    boxes: list[str] = []
    win.show_message = boxes.append
    before = dump(path)
    assert not add_player(win, "李伟", "Li Wei again", chinese=True)
    assert len(boxes) == 1
    assert "name: player '李伟' is already registered" in boxes[0]
    assert "Traceback" not in boxes[0]
    assert dump(path) == before
    assert win.players.player_box.count() == 8

    # seat round 1 with a seed: the grid shows the store's seating
    shown: list[QDialog] = []

    def seed(d):
        assert not d.fill.isEnabled()  # 8 players fill two tables of 4
        d.seed.setText("7")

    win.run_dialog = filler(seed, shown)
    win.seating.btn_seat.click()
    assert shown and shown[0].result() == QDialog.DialogCode.Accepted
    stored = win.desk.t.rounds.seating(1)
    assert win.desk.t.db.execute("SELECT seed FROM rounds WHERE number=1").fetchone()[0] == 7
    expected = {(t, s): p for t, row in stored.tables.items() for s, p in row.items()}
    assert grid(win) == expected and len(expected) == 8
    assert win.tabs.currentWidget() is win.seating
    assert win.seating.btn_seat.text() == "Seat round 2…"
    assert win.seating.problems.text() == "Seating problems: none."
    assert win.navigator.item_text(("table", 1, 1)).endswith(" ".join(stored.tables[1].values()))

    # swap: put table 2's E player into table 1's S seat
    a, b = stored.tables[1]["S"], stored.tables[2]["E"]
    assert win.seating.select_seat(1, "S")
    assert win.seating.btn_swap.isEnabled()

    def choose(d):
        assert d.player.findData(a) < 0  # the current occupant is not offered
        d.player.setCurrentIndex(d.player.findData(b))

    win.run_dialog = filler(choose, shown)
    win.seating.btn_swap.click()
    now = grid(win)
    assert (now[(1, "S")], now[(2, "E")]) == (b, a)
    assert win.desk.t.rounds.seating(1).tables[1]["S"] == b
    assert b in win.navigator.item_text(("table", 1, 1))
    assert a in win.navigator.item_text(("table", 1, 2))

    # withdraw a seated player: the status is stored and the problem shows under the grid
    win.players.select_player(a)
    box = win.players.status_box
    box.setCurrentIndex(box.findData("withdrawn"))
    box.activated.emit(box.currentIndex())
    assert win.desk.t.players.get(a).status.value == "withdrawn"
    assert f"{a} has withdrawn" in win.seating.problems.text()


def test_seat_round_with_a_short_table_offers_byes(fresh):
    win, path = fresh
    for name, latin in NAMES[:5]:
        assert add_player(win, name, latin)
    boxes: list[str] = []
    win.show_message = boxes.append
    shown: list[QDialog] = []

    def pick(d):
        assert d.fill.isEnabled()
        assert "5 players to seat at tables of 4: 1 left over" in d.note.text()
        d.fill.setCurrentIndex(d.fill.findData("substitutes"))  # none registered

    win.run_dialog = filler(pick, shown)
    before = dump(path)
    assert not win.event_admin.seat_round()
    assert len(boxes) == 1 and "fill: 3 substitute(s) needed" in boxes[0]
    assert dump(path) == before and win.desk.rounds() == []

    def byes(d):
        d.seed.setText("11")
        d.fill.setCurrentIndex(d.fill.findData("byes"))

    win.run_dialog = filler(byes, shown)
    assert win.event_admin.seat_round()
    s = win.desk.t.rounds.seating(1)
    assert len(s.byes) == 1 and s.byes[0] in win.seating.byes.text()
    assert len(grid(win)) == 4


def test_bad_seed_and_swap_into_a_table_with_hands(desk_window):
    win, seating = desk_window()  # four players seated in round 1, table 1
    boxes: list[str] = []
    win.show_message = boxes.append
    path = win.desk.t.path
    # round 2 with a seed that is not a number: refused before the store is asked
    shown: list[QDialog] = []
    win.run_dialog = filler(lambda d: d.seed.setText("abc"), shown)
    before = dump(path)
    assert not win.event_admin.seat_round()
    assert "seed: expected a whole number" in boxes[-1]
    assert dump(path) == before
    # a table with a saved hand keeps its seats
    win.desk.t.hands.add(gui_helpers.example_record(seating), round=1, table=1, hand_no=1)
    win.reload()
    before = dump(path)
    win.run_dialog = filler(lambda d: d.player.setCurrentIndex(
        d.player.findData(seating["S"])), shown)
    assert not win.event_admin.swap_seat(1, 1, "E")
    assert "table: table 1 of round 1 already has hands entered" in boxes[-1]
    assert dump(path) == before


def test_import_and_export_bundle_and_players_csv(fresh, tmp_path: Path):
    win, path = fresh
    csv = tmp_path / "players.csv"
    csv.write_text("name,name_latin,club\n" + "".join(f"{n},{la},Ottawa\n" for n, la in NAMES),
                   encoding="utf-8")
    win.ask_open_file = lambda title, filt: str(csv)
    assert win.event_admin.import_players()
    assert win.players.player_box.count() == 8
    # importing the same file again: the store names the line, nothing is added
    boxes: list[str] = []
    win.show_message = boxes.append
    assert not win.event_admin.import_players()
    assert "line 2, name: player '李伟' is already registered" in boxes[-1]
    assert len(win.desk.players()) == 8

    bundle = tmp_path / "event.json"
    win.ask_save_file = lambda title, filt, name: str(bundle)
    assert win.event_admin.export_bundle()
    assert bundle.exists()

    copy = tmp_path / "copy.sqlite"
    win.ask_open_file = lambda title, filt: str(bundle)
    win.ask_save_file = lambda title, filt, name: str(copy)
    assert win.event_admin.import_bundle()
    assert win.desk.t.path == copy
    assert [p.name for p in win.desk.players()] == [n for n, _ in NAMES]
    # importing over an existing file is refused and leaves both files alone
    before = dump(copy)
    assert not win.event_admin.import_bundle()
    assert "already exists" in boxes[-1]
    assert dump(copy) == before


def test_swap_candidates_are_every_other_player_not_withdrawn(desk_window):
    """The swap form's list comes from the desk controller: the seat's occupant and
    withdrawn players are left out; everyone else comes with their seat this round (None
    when not seated) and whether they have the bye."""
    win, seating = desk_window()  # four players seated in round 1, table 1
    win.desk.add_player("New Player")
    win.desk.add_player("Gone Player")
    win.desk.set_player_status("Gone Player", "withdrawn")
    current, candidates = win.desk.swap_candidates(1, 1, "E")
    assert current == seating["E"]
    assert sorted(candidates) == sorted(
        [(seating[s], (1, s), False) for s in ("S", "W", "N")] + [("New Player", None, False)])
    assert win.desk.swap_candidates(1, 2, "E")[0] == "—"  # no such table: an empty seat
