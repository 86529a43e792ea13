"""Issue 12: the projector scales — pages of at most 24 rows ≥ 36 px at 1080p that turn by
themselves, "after round N · updated HH:MM", ▲▼ for rank changes since the round before."""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt

from referee_app.core.generate import random_record
from referee_app.gui.controllers.desk import Desk
from referee_app.gui.controllers.projector import ProjectorData
from referee_app.gui.i18n import LANG
from referee_app.gui.views.projector import ProjectorWindow, rank_move
from referee_app.storage import Tournament


@dataclass
class Row:
    rank: int
    player: str
    chips: int
    wins: int = 0
    hands: int = 0
    tied: bool = False


def test_96_players_at_1080p_page_through(qtbot) -> None:
    LANG.set("en")
    rows = [Row(i + 1, f"P{i + 1:02d}", 100 - i) for i in range(96)]
    prev = {f"P{i + 1:02d}": i + 1 for i in range(96)}
    prev["P01"], prev["P02"] = 2, 1  # P01 rose one place, P02 fell one
    proj = ProjectorWindow(lambda: ProjectorData("Open · Standings", rows, 3, prev),
                           page_seconds=1)
    qtbot.addWidget(proj)
    proj.resize(1920, 1080)
    proj.show()
    qtbot.waitExposed(proj)
    qtbot.wait(20)
    t = proj.table
    assert proj.per_page <= 24 and proj.pages() * proj.per_page >= 96
    assert t.rowCount() == proj.per_page
    assert all(t.rowHeight(r) >= 36 for r in range(t.rowCount()))
    # every row of the page is on screen (none cut off)
    last = t.rowCount() - 1
    assert t.rowViewportPosition(last) + t.rowHeight(last) <= t.viewport().height()
    assert proj.subtitle.text().startswith("after round 3 · updated ")
    assert proj.subtitle.text().endswith(f"page 1/{proj.pages()}")
    assert t.item(0, 5).text() == "▲1" and t.item(1, 5).text() == "▼1"
    assert t.item(2, 5).text() == "–"
    # the page turns by itself; all 96 players come round
    first = t.item(0, 1).text()
    qtbot.waitUntil(lambda: proj.page == 1, timeout=2500)
    assert t.item(0, 1).text() != first
    seen = set()
    for _ in range(proj.pages()):
        seen |= {t.item(r, 1).text() for r in range(t.rowCount())}
        proj.turn(1)
    assert len(seen) == 96
    proj.close()
    LANG.set("zh")


def test_rank_move_texts() -> None:
    LANG.set("en")
    assert rank_move("a", 3, {"a": 5}) == ("▲2", "#8fe0a0")
    assert rank_move("a", 5, {"a": 3})[0] == "▼2"
    assert rank_move("a", 3, {"b": 1})[0] == "new"
    assert rank_move("a", 3, {}) == ("", "#f4f1e6")
    LANG.set("zh")
    assert rank_move("a", 3, {"b": 1})[0] == "新"


def test_desk_projector_data_after_the_last_round(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite"
    t = Tournament.create(path, "P", backup_every=0)
    rng = random.Random(3)
    for n in ["李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强"]:
        t.players.add(n)
    for rnd in (1, 2):
        for table, row in t.rounds.seat(rnd, seed=rnd).tables.items():
            t.hands.add(random_record(rng, players=row), round=rnd, table=table, hand_no=1)
    t.rounds.seat(3, seed=3)  # seated, nothing played yet: "after round 2"
    t.close()
    desk = Desk.open(path)
    try:
        d = desk.projector_data("P")
        assert d.after_round == 2
        assert [r.player for r in d.rows] == [r.player for r in
                                              desk.t.standings.table(through_round=2)]
        assert d.previous == {r.player: r.rank for r in desk.t.standings.table(through_round=1)}
        assert d.progress is not None and d.progress.round == 2  # the round in play
        assert [tp.hands for tp in d.progress.tables] == [1, 1]
    finally:
        desk.close()


def _progress_tournament(path: Path, players: int = 96) -> Tournament:
    """``players`` players over 3 rounds; round 3 in play with hand 2 missing at table 1."""
    t = Tournament.create(path, "大厅 Hall Open", backup_every=0)
    rng = random.Random(7)
    for i in range(players):
        t.players.add(f"选手{i + 1:02d}", name_latin=f"Player {i + 1}")
    for rnd in (1, 2, 3):
        for table, row in t.rounds.seat(rnd, seed=rnd).tables.items():
            for n in (1, 2, 3):
                if rnd == 3 and n == (2 if table == 1 else 3):
                    continue
                h = t.hands.add(random_record(rng, players=row), round=rnd, table=table,
                               hand_no=n)
                if rnd < 3 or table % 2:
                    t.hands.set_status(h.id, "verified")
    return t


def test_projector_shows_round_progress_in_its_rotation(qtbot, tmp_path: Path) -> None:
    LANG.set("en")
    _progress_tournament(tmp_path / "h.sqlite").close()
    desk = Desk.open(tmp_path / "h.sqlite")
    proj = ProjectorWindow(lambda: desk.projector_data("Hall · Standings"), page_seconds=60)
    qtbot.addWidget(proj)
    proj.resize(1920, 1080)
    proj.show()
    qtbot.waitExposed(proj)
    assert not proj.show_progress and proj.pages() == proj.standings_pages() == 4
    qtbot.keyClick(proj, Qt.Key.Key_P)  # P puts the progress page in the rotation
    assert proj.show_progress and proj.pages() == 5
    for _ in range(4):
        proj.turn(1)
    assert proj.on_progress_page()
    t = proj.table
    assert t.rowCount() == 24  # 96 players, 24 tables: one page
    assert t.horizontalHeaderItem(5).text() == "Missing hands"
    assert [t.item(0, c).text() for c in (0, 2, 3, 4, 5)] == ["1", "2", "2/2", "3", "2"]
    assert [t.item(1, c).text() for c in (0, 2, 3, 4, 5)] == ["2", "2", "0/2", "2", "–"]
    assert all(t.rowHeight(r) >= 36 for r in range(t.rowCount()))
    last = t.rowCount() - 1
    assert t.rowViewportPosition(last) + t.rowHeight(last) <= t.viewport().height()
    assert proj.subtitle.text().startswith("round 3 progress: 24 of 48 hands verified · ")
    assert proj.title.text() == "大厅 Hall Open · Round progress"
    proj.turn(1)
    assert proj.page == 0 and not proj.on_progress_page()
    assert proj.title.text() == "Hall · Standings"
    assert proj.subtitle.text().startswith("after round 3 · updated ")
    qtbot.keyClick(proj, Qt.Key.Key_P)
    assert proj.pages() == 4
    proj.close()
    desk.close()
    LANG.set("zh")


def test_projector_settings_dialog_applies_and_is_kept(qtbot, tmp_path: Path) -> None:
    import gui_helpers
    from PySide6.QtCore import QSettings

    from referee_app.gui.views.main_window import MainWindow
    from referee_app.gui.views.projector import projector_settings

    LANG.set("en")
    st = QSettings("RefereeDesk", "referee-app")
    old = {k: st.value(k) for k in ("projector/page_seconds", "projector/show_progress")}
    gui_helpers.make_tournament(tmp_path / "s.sqlite")
    desk = Desk.open(tmp_path / "s.sqlite")
    win = MainWindow(desk)
    qtbot.addWidget(win)
    try:
        proj = win.projector.open()

        def fill(dlg) -> bool:
            assert dlg.windowTitle() == "Projector settings"
            dlg.seconds.setValue(7)
            dlg.progress.setChecked(True)
            return True

        win.run_dialog = fill
        win.menus.act_projector_settings.trigger()
        assert projector_settings() == (7, True)
        assert proj.page_timer.interval() == 7000 and proj.show_progress
        win.close()
        win = MainWindow(desk)  # the next session starts with them
        qtbot.addWidget(win)
        assert win.projector.page_seconds == 7
        assert win.projector.open().show_progress
    finally:
        win.close()
        for k, v in old.items():
            if v is None:
                st.remove(k)
            else:
                st.setValue(k, v)
        desk.close()
        LANG.set("zh")


def test_every_page_fits_the_screen_at_any_size_with_its_counter(qtbot) -> None:
    """Issue 25: rows paged by what fits (names that wrap included), at 720p to 4K and a
    tall 1920×1500, the page counter always shown; every player comes round once."""
    LANG.set("en")
    rows = [Row(i + 1, ("Fitzgerald-Montgomery, Seán Patrick " if i % 7 == 3 else "")
                + f"选手{i + 1:02d}", 100 - i) for i in range(40)]
    proj = ProjectorWindow(lambda: ProjectorData("Open · Standings", rows, 3),
                           page_seconds=600)
    qtbot.addWidget(proj)
    proj.show()
    qtbot.waitExposed(proj)
    for w, h in ((1280, 720), (1920, 1080), (1920, 1500), (3840, 2160)):
        proj.resize(w, h)
        qtbot.wait(30)
        t = proj.table
        seen: list[str] = []
        for p in range(proj.pages()):
            assert proj.page == p
            assert proj.subtitle.text().endswith(f"page {p + 1}/{proj.pages()}"), (w, h)
            last = t.rowCount() - 1
            assert t.rowViewportPosition(last) + t.rowHeight(last) <= t.viewport().height(), \
                (w, h, p)
            seen += [t.item(r, 1).text() for r in range(t.rowCount())]
            proj.turn(1)
        assert seen == [r.player for r in rows], (w, h)
    proj.close()
    LANG.set("zh")
