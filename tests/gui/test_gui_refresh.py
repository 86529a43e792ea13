"""Issue 23: the desk refreshes only what a save changed — the hand's row in the navigator,
its players' standings, its table's progress — and what it shows is never stale: after any
sequence of saves (here, at another desk, on the command line) the window shows exactly
what a window opened afresh on the file shows."""

from __future__ import annotations

import random
from typing import Any

import gui_helpers
import pytest

from referee_app.core.generate import random_record
from referee_app.gui.controllers.desk import Desk
from referee_app.gui.controllers.entry import EntryForm
from referee_app.gui.views.main_window import MainWindow
from referee_app.storage import Tournament
from referee_app.storage.changes import to_show

desk_window = gui_helpers.desk_window
PLAYERS = [(f"选手{i:02d}", f"Player {i}") for i in range(16)]


def _snapshot(win: MainWindow) -> dict[str, Any]:
    """What the window shows: every hand's row and every table's, the standings cells, the
    round's progress and the player's statement as their tabs show them when looked at
    (the open tab as it is: refreshed in place), the record's digest."""
    model = win.standings.model
    prog, pv = win.progress.table, win.players
    tab = win.tabs.currentWidget()
    out = {
        "hands": {h.id: win.navigator.item_text(("hand", h.id)) for h in win.desk.hand_index()},
        "tables": {k: win.navigator.item_text(k) for k in sorted(win.navigator._items)
                   if k[0] in ("round", "table")},
        "standings": [[model.data(model.index(r, c)) for c in range(model.columnCount())]
                      for r in range(model.rowCount())],
        "provisional": win.standings.provisional.text(),
        "digest": win.session.record_label.text()}
    for lazy in sorted((win.progress, win.players), key=lambda w: w is not tab):
        win.tabs.setCurrentWidget(lazy)  # a tab not open is read as it opens
        if lazy is win.progress:
            out["progress"] = [[prog.item(r, c).text() for c in range(prog.columnCount())]
                               for r in range(prog.rowCount())]
            out["summary"] = win.progress.summary.text()
        else:
            out["statement"] = [[pv.table.item(r, c).text() if pv.table.item(r, c) else ""
                                 for c in range(pv.table.columnCount())]
                                for r in range(pv.table.rowCount())]
            out["total"] = pv.total.text()
    win.tabs.setCurrentWidget(tab)
    return out


def _fresh(qtbot, win: MainWindow) -> dict[str, Any]:
    """The same tabs, on a window opened afresh on the file."""
    desk = Desk.open(win.desk.t.path, referee="Tester")
    other = MainWindow(desk)
    qtbot.addWidget(other)
    try:
        other.standings.round_box.setCurrentIndex(win.standings.round_box.currentIndex())
        other.progress.round_box.setCurrentIndex(win.progress.round_box.currentIndex())
        if win.players.current_player():
            other.players.select_player(win.players.current_player())
        return _snapshot(other)
    finally:
        other.faults.follower.stop()
        other.close()
        desk.close()


def _record(t: Any, rnd: int, table: int, rng: random.Random) -> dict[str, Any]:
    return random_record(rng, "ottawa-2009", players=t.rounds.seating(rnd).tables[table])


@pytest.mark.parametrize("seed", [3, 8])
def test_after_random_saves_the_window_shows_what_a_fresh_one_shows(qtbot, desk_window,
                                                                    seed: int) -> None:
    win, _ = desk_window(players=PLAYERS, setup=lambda t: t.rounds.seat(2, seed=9))
    path = win.desk.t.path
    rng = random.Random(seed)
    reloads: list[str] = []
    real_reload = win.reload

    def counted() -> None:
        reloads.append("reload")
        real_reload()

    win.reload = counted  # type: ignore[method-assign]
    actions = ["here_add", "here_add", "here_amend", "other_add", "other_add", "other_amend",
               "other_void", "other_verify", "penalty", "tab_progress", "tab_players",
               "tab_entry", "scope", "other_player"]
    done: list[str] = []
    # first with the progress and player tabs open while hands are saved, then at random
    start = ["tab_progress", "other_add", "here_add", "other_verify", "other_void",
             "tab_players", "other_add", "here_amend", "penalty", "tab_entry"]
    for step in range(30):
        action = start[step] if step < len(start) else rng.choice(actions)
        other = Tournament.open(path, backup_every=0)
        hands = [h for h in other.hands.list() if not h.void]  # a void one: restore first
        rnd = rng.choice([1, 2]) if step >= len(start) else 1
        table = rng.randint(1, 4) if step >= len(start) else 1
        if action == "here_add":
            win.navigator.select_key(("table", rnd, table))
            form = EntryForm.from_record(_record(other, rnd, table, rng))
            form.extra.update(win.entry.form.extra)
            win.entry.load(form, "", "")
            win.entry.undo_stack.resetClean()
            assert win.save(), win.messages[-1:]
        elif action == "here_amend" and hands:
            h = rng.choice(hands)
            win.navigator.select_key(("hand", h.id))
            form = EntryForm.from_record(_record(other, h.round, h.table, rng))
            form.extra.update(win.entry.form.extra)
            win.entry.load(form, "", "")
            win.entry.undo_stack.resetClean()
            win.ask_text.queue.append("a correction")
            assert win.save(), win.messages[-1:]
        elif action == "other_add":
            n = other.hands.next_no(rnd, table)
            other.hands.add(_record(other, rnd, table, rng), round=rnd, table=table,
                            hand_no=n, referee="B")
        elif action == "other_amend" and hands:
            h = rng.choice(hands)
            other.hands.amend(h.id, _record(other, h.round, h.table, rng), reason="fix",
                              referee="B")
        elif action == "other_void" and hands:
            h = rng.choice(hands)
            other.hands.void(h.id, reason="wrong table", referee="B")
        elif action == "other_verify" and [h for h in hands if h.status.value == "entered"]:
            h = rng.choice([h for h in hands if h.status.value == "entered"])
            other.hands.set_status(h.id, "verified", referee="C")
        elif action == "penalty":
            who = rng.choice(other.players.list()).name
            other.penalties.add([who], rng.randint(1, 9), "late", round=rnd,
                                zero_sum=rng.random() < 0.5)
        elif action == "tab_progress":
            win.tabs.setCurrentWidget(win.progress)
            win.progress.round_box.setCurrentIndex(rnd - 1 if step >= len(start) else 0)
        elif action == "tab_players":  # a player of round 1's table 1 (the saves' table)
            win.tabs.setCurrentWidget(win.players)
            win.players.select_player(rng.choice(list(
                other.rounds.seating(1).tables[1].values()) if step < len(start)
                else [p for p, _ in PLAYERS]))
        elif action == "tab_entry":
            win.tabs.setCurrentWidget(win.entry)
        elif action == "scope":
            win.standings.round_box.setCurrentIndex(rng.randrange(win.standings.round_box.count()))
        elif action == "other_player":  # reshapes what is shown: everything is read again
            p = rng.choice(other.players.list())
            other.players.update(p.id, club=f"Club {rng.randint(1, 9)}")
        other.close()
        win.faults.follower.poll()  # the one-second look, now
        done.append(action)
        assert _snapshot(win) == _fresh(qtbot, win), done
    # saves and hand changes refreshed in place; only the players' change read everything
    assert len(reloads) <= done.count("other_player"), (reloads, done)


def test_what_a_save_changed_is_read_from_the_record(tmp_path) -> None:
    """to_show: the hands, players and tables an entry wrote; a change to the tournament's
    shape (a player's club, a round seated) or a shorter record is everything (None)."""
    gui_helpers.make_tournament(tmp_path / "c.sqlite", players=PLAYERS)
    with Tournament.open(tmp_path / "c.sqlite", backup_every=0) as t:
        conn = t.db.conn
        start = t.record.digest()[0]
        assert to_show(conn, start).none
        rng = random.Random(1)
        h = t.hands.add(_record(t, 1, 3, rng), round=1, table=3, hand_no=1)
        ch = to_show(conn, start)
        seated = {t.players.get(n).id for n in t.rounds.seating(1).tables[3].values()}
        assert (ch.hands, ch.players, ch.tables) == ({h.id}, seated, {(1, 3)})
        assert not ch.penalties and ch.upto == start + 1
        t.penalties.add([PLAYERS[0][0]], 5, "late", round=1)
        assert to_show(conn, start + 1).penalties
        t.players.update(t.players.get(PLAYERS[1][0]).id, club="X")
        assert to_show(conn, start + 2) is None
        assert to_show(conn, start + 99) is None  # a shorter record: restored
