"""Issue 23: after a save the desk rewrites only what changed, and measures nothing a referee
cannot see. The standings lines of the hand's four players show their new figures while
the lines that did not change are not told to the view again; the standings columns are
measured only while the tab is shown (a hidden tab when it is opened) and grow to a wider
figure; a saved hand is settled and drawn once when the form reopens it."""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

import gui_helpers
import pytest
from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QRegion

from referee_app.core.generate import random_record
from referee_app.gui.controllers.entry import EntryForm
from referee_app.gui.i18n import LANG
from referee_app.gui.views.main_window import MainWindow
from referee_app.gui.views.preview import PreviewPanel
from referee_app.gui.views.standings import StandingsModel
from referee_app.storage import Tournament

desk_window = gui_helpers.desk_window
PLAYERS = [(f"选手{i:02d}", f"Player {i}") for i in range(16)]


def _save_here(win: MainWindow, table: int, rng: random.Random) -> None:
    """Type (load) a random valid hand of round 1 at ``table`` into the form and save it."""
    win.navigator.select_key(("table", 1, table))
    with Tournament.open(win.desk.t.path, backup_every=0) as t:
        rec = random_record(rng, "ottawa-2009", players=t.rounds.seating(1).tables[table])
    form = EntryForm.from_record(rec)
    form.extra.update(win.entry.form.extra)
    win.entry.load(form, "", "")
    win.entry.undo_stack.resetClean()
    assert win.save(), win.messages[-1:]


def _texts(model: StandingsModel) -> list[list[Any]]:
    return [[model.data(model.index(r, c)) for c in range(model.columnCount())]
            for r in range(model.rowCount())]


def _store_chips(win: MainWindow) -> dict[str, Any]:
    with Tournament.open(win.desk.t.path, backup_every=0) as t:
        return {r.player: r.chips for r in t.standings.table()}


def _fits(win: MainWindow, rows: list[int]) -> list[str]:
    """The cells of these lines, and every title, wider than their column (none: fits)."""
    table, model = win.standings.table, win.standings.model
    head = table.horizontalHeader()
    bad = []
    for c in range(model.columnCount() - 1):  # the last column takes what is left
        if head.sectionSizeFromContents(c).width() > head.sectionSize(c):
            bad.append(f"title {model.headerData(c, Qt.Orientation.Horizontal)!r}")
        for r in rows:
            if table.sizeHintForIndex(model.index(r, c)).width() > head.sectionSize(c):
                bad.append(f"cell [{r},{c}] {model.data(model.index(r, c))!r}")
    return bad


@pytest.mark.parametrize("seed", [1, 5])
def test_a_save_tells_the_standings_only_the_lines_it_changed(qtbot, desk_window,
                                                              seed: int) -> None:
    win, _ = desk_window(players=PLAYERS)
    rng = random.Random(seed)
    for table in (1, 2, 3, 4, 1, 3):  # players spread out, some lines tied
        _save_here(win, table, rng)
    model = win.standings.model
    before = _texts(model)
    told: list[tuple[int, int]] = []
    resets: list[bool] = []
    model.dataChanged.connect(lambda a, b, _roles=(): told.append((a.row(), b.row())))
    model.modelReset.connect(lambda: resets.append(True))
    _save_here(win, 2, rng)
    after = _texts(model)
    assert not resets  # same players, same rounds: nothing made again from scratch
    said = {r for a, b in told for r in range(a, b + 1)}
    differ = {r for r in range(len(after)) if after[r] != before[r]}
    assert said == differ  # every changed line is told, and no unchanged one
    # the four players' lines show what the store adds up
    store = _store_chips(win)
    shown = win.standings.chips_by_player()
    with Tournament.open(win.desk.t.path, backup_every=0) as t:
        four = list(t.rounds.seating(1).tables[2].values())
    assert {p: shown[p] for p in four} == {p: store[p] for p in four}
    assert shown == store


class _Paints(QObject):
    """The regions a widget is asked to paint."""

    def __init__(self) -> None:
        super().__init__()
        self.regions: list[QRegion] = []

    def eventFilter(self, _obj: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.regions.append(QRegion(event.region()))
        return False


def test_the_shown_standings_repaint_only_the_lines_that_changed(qtbot, desk_window) -> None:
    """With the standings on screen, lines that changed off screen repaint nothing, and
    two changed lines on screen repaint those two, not the lines between them (a change
    told as one range of lines repainted those between, or past ~200 cells the whole
    table)."""
    many = [(f"选手{i:02d}", f"Player {i}") for i in range(64)]
    win, _ = desk_window(players=many)
    _save_here(win, 1, random.Random(2))
    win.tabs.setCurrentWidget(win.standings)
    qtbot.wait(20)
    table, model = win.standings.table, win.standings.model
    rows = list(model.rows)
    on_screen = table.rowAt(table.viewport().height() - 1)
    assert 8 < on_screen < 40 < len(rows)  # lines 40 on are off screen
    paints = _Paints()
    table.viewport().installEventFilter(paints)

    def changed(lines: range | tuple[int, ...]) -> QRegion:
        table.viewport().repaint()  # what was waiting to be painted, painted now
        qtbot.wait(10)
        paints.regions.clear()
        new = list(model.rows)
        for i in lines:  # a figure of these lines changed (as a save changes them)
            new[i] = replace(new[i], wins=new[i].wins + 1)
        win.standings.set_rows(new)
        qtbot.wait(20)
        painted = QRegion()
        for region in paints.regions:
            painted = painted.united(region)
        return painted

    assert changed(range(40, 64)).isEmpty()  # 24 lines x 11 columns, none on screen
    painted = changed((2, 6))
    line = [table.visualRect(model.index(r, 1)).adjusted(0, 2, 0, -2) for r in range(8)]
    assert painted.intersects(line[2]) and painted.intersects(line[6])
    assert not any(painted.intersects(line[r]) for r in (0, 1, 3, 4, 5, 7))


def test_hidden_standings_are_not_measured_until_shown(qtbot, desk_window,
                                                       monkeypatch) -> None:
    asked: list[int] = []
    mine: list[StandingsModel] = []  # (other tests' windows may still be painted)
    real = StandingsModel.data

    def counted(self: StandingsModel, index: QModelIndex, role: int = 0) -> Any:
        if self in mine:
            asked.append(role)
        return real(self, index, role)

    monkeypatch.setattr(StandingsModel, "data", counted)
    win, _ = desk_window(players=PLAYERS)
    mine.append(win.standings.model)
    rng = random.Random(3)
    _save_here(win, 4, rng)  # the round's first hand: a round column (the table made anew)
    qtbot.wait(10)
    asked.clear()
    for table in (1, 2, 3):
        _save_here(win, table, rng)
        qtbot.wait(10)  # the window repainted
    assert asked == []  # the hidden table was neither painted nor measured
    assert win.standings.chips_by_player() == _store_chips(win)  # yet its lines are current
    win.tabs.setCurrentWidget(win.standings)  # shown: measured (and painted) now
    qtbot.wait(10)
    assert asked
    assert _fits(win, list(range(win.standings.model.rowCount()))) == []


def test_a_column_grows_to_a_wider_figure_after_a_change(qtbot, desk_window) -> None:
    win, _ = desk_window(players=PLAYERS)
    rng = random.Random(4)
    _save_here(win, 1, rng)
    win.tabs.setCurrentWidget(win.standings)
    qtbot.wait(10)
    model, head = win.standings.model, win.standings.table.horizontalHeader()
    chips = model.column_of("chips")
    wide_before = head.sectionSize(chips)
    name = PLAYERS[5][0]
    with Tournament.open(win.desk.t.path, backup_every=0) as t:  # another desk's ruling
        t.penalties.add([name], 999_999, "late", round=1)
    assert win.faults.follower.poll()
    qtbot.wait(10)
    row = next(r for r in range(model.rowCount()) if model.rows[r].player == name)
    assert model.data(model.index(row, chips)).startswith("-9")
    assert head.sectionSize(chips) > wide_before  # it did not fit before: it grew
    assert _fits(win, [row]) == []


def test_the_standings_titles_fit_in_both_languages(qtbot, desk_window) -> None:
    win, _ = desk_window(players=PLAYERS)
    _save_here(win, 1, random.Random(2))
    win.tabs.setCurrentWidget(win.standings)
    for lang in ("zh", "en", "zh"):
        LANG.set(lang)
        qtbot.wait(10)
        assert _fits(win, list(range(win.standings.model.rowCount()))) == [], lang


def test_a_saved_hand_is_settled_and_drawn_once_when_it_reopens(qtbot, desk_window,
                                                                 monkeypatch) -> None:
    win, _ = desk_window(players=PLAYERS)
    _save_here(win, 1, random.Random(6))
    drawn: list[Any] = []
    real = PreviewPanel.show_evaluation
    mine = win.entry.preview  # (other tests' windows may still hear the language change)
    monkeypatch.setattr(PreviewPanel, "show_evaluation", lambda self, ev, *a, **k: (
        drawn.append(ev) if self is mine else None) or real(self, ev, *a, **k))
    hid = win.context[3]
    win.open_hand(hid)
    assert len(drawn) == 1 and drawn[0].settlement.totals == win.entry.preview.totals()
    LANG.set("zh")  # a language change still draws it again, in the new language
    assert len(drawn) == 2 and win.entry.btn_save.text().startswith("保存")


def test_the_same_settlement_is_not_written_again(qtbot, desk_window) -> None:
    """The form reopening the hand it saved shows the same wins and payments: their cells
    stay as they are; a language change or another hand writes them again."""
    win, _ = desk_window(players=PLAYERS)
    rng = random.Random(7)
    _save_here(win, 1, rng)
    pays = win.entry.preview.payments

    def cells() -> list[Any]:
        return [pays.item(r, c) for r in range(pays.rowCount()) for c in range(5)]

    shown = cells()
    assert shown and all(shown)
    texts = [it.text() for it in shown]
    win.open_hand(win.context[3])
    assert all(a is b for a, b in zip(cells(), shown, strict=True))
    LANG.set("zh")  # the reasons in Chinese: written again
    assert [it.text() for it in cells()] != texts
    assert not any(a is b for a, b in zip(cells(), shown, strict=False))
    LANG.set("en")
    assert [it.text() for it in cells()] == texts
    _save_here(win, 2, rng)  # another table's hand
    assert [it.text() for it in cells()] != texts


def test_the_hidden_seating_is_drawn_when_shown(qtbot, desk_window) -> None:
    """The form moving to another round's hand moves the seating tab to that round; while
    the tab is hidden its grid is not read or drawn, and a seat selected in the earlier
    round's grid is no longer a seat of the round shown. Shown, it is that round's."""
    def seat_round_two(t: Tournament) -> None:
        t.rounds.seat(2, seed=9)

    win, _ = desk_window(players=PLAYERS, setup=seat_round_two)
    asked: list[int] = []
    real = win.desk.seating
    win.desk.seating = lambda r: asked.append(r) or real(r)  # type: ignore[method-assign]
    win.tabs.setCurrentWidget(win.seating)
    win.seating.round_box.setCurrentIndex(win.seating.round_box.findData(1))
    qtbot.wait(10)
    assert win.seating.current_round() == 1
    win.seating.table.setCurrentCell(0, 1)
    assert win.seating.selected_seat() is not None
    win.tabs.setCurrentWidget(win.entry)
    asked.clear()
    win.navigator.select_key(("table", 2, 3))  # a round 2 table's form
    qtbot.wait(10)
    assert win.seating.current_round() == 2 and asked == []  # not read while hidden
    assert win.seating.selected_seat() is None  # round 1's seat is not round 2's
    win.tabs.setCurrentWidget(win.seating)
    qtbot.wait(10)
    assert asked == [2]
    with Tournament.open(win.desk.t.path, backup_every=0) as t:
        two = t.rounds.seating(2).tables
    t1 = win.seating.table
    shown = {int(t1.item(r, 0).text().split()[-1]): [t1.item(r, c).text()
                                                   for c in range(1, t1.columnCount())]
             for r in range(t1.rowCount())}
    assert shown == {n: list(row.values()) for n, row in two.items()}
