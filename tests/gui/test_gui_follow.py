"""Issue 11 in the GUI: the desk follows other writers (another Tournament object on the same
file stands in for the CLI or a second desk), never saves over a change made meanwhile, and
reads a loaded or pasted hand record as the CLI does (typo'd keys refused, others warned)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import gui_helpers
import pytest
from gui_helpers import example_record

from referee_app.gui.app import GuiError, LaunchOptions, run
from referee_app.gui.controllers.entry import EntryForm
from referee_app.gui.controllers.follow import Follower, open_hand_state
from referee_app.gui.controllers.record_input import NearMissError, read_record_text
from referee_app.gui.i18n import LANG
from referee_app.storage import HandChangedError, Tournament

desk_window = gui_helpers.desk_window


def _other(win: Any) -> Tournament:
    """Another writer on the window's file (a second desk, the CLI)."""
    return Tournament.open(win.desk.t.path, backup_every=0)


def _saved_hand(win: Any, seating: dict[str, str]) -> int:
    with _other(win) as t:
        h = t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee="B")
    assert win.faults.follower.poll()
    return h.id


def _amend_elsewhere(win: Any, hid: int, seating: dict[str, str]) -> dict[str, Any]:
    rec = example_record(seating)
    rec["events"] = rec["events"][:-1]
    with _other(win) as t:
        t.hands.amend(hid, rec, reason="other desk", referee="B")
    return rec


def _edit(win: Any) -> None:
    """Change the open form (drop the first event): an amendment being typed."""
    win.entry.set_events(win.entry.form.events[1:], "edit")
    assert not win.entry.undo_stack.isClean()


def test_the_timer_notices_a_cli_write_within_about_a_second(qtbot, desk_window) -> None:
    win, seating = desk_window()
    assert win.faults.follower.timer.isActive() and win.faults.follower.timer.interval() == 1000
    def shown_chips() -> dict[str, str]:
        m = win.standings.model
        return {m.index(r, 1).data(256): m.index(r, 2).data() for r in range(m.rowCount())}

    assert set(shown_chips().values()) == {"+0"}
    with _other(win) as t:
        t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee="CLI")
        expected = {r.player: r.chips for r in t.standings.table()}
    qtbot.waitUntil(lambda: win.navigator.item_text(("hand", 1)) != "", timeout=3000)
    assert {p: int(v) for p, v in shown_chips().items()} == expected
    assert sorted(expected.values()) == sorted(gui_helpers.SPEC_TOTALS.values())
    assert win.status_label.text() == "Updated: another desk saved changes."


def test_own_saves_do_not_count_as_another_writer(qtbot, desk_window) -> None:
    win, seating = desk_window()
    win.navigator.select_key(("table", 1, 1))
    form = EntryForm.from_record(example_record(seating))
    form.extra.update(win.entry.form.extra)
    win.entry.load(form, "", "")
    assert win.save()
    assert not win.faults.follower.poll()  # the window refreshed itself already
    assert win.faults.banners.texts() == {}


def test_nothing_is_refreshed_under_a_modal_dialog(qtbot, desk_window) -> None:
    """A reason prompt or a message box is up: the window is not changed under it; the
    first poll after it closes picks the change up."""
    from PySide6.QtWidgets import QDialog

    win, seating = desk_window()
    dlg = QDialog(win)
    dlg.setModal(True)
    dlg.show()
    with _other(win) as t:
        t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee="B")
    assert not win.faults.follower.poll()
    assert win.navigator.item_text(("hand", 1)) == ""
    dlg.close()
    assert win.faults.follower.poll()
    assert win.navigator.item_text(("hand", 1)) != ""


def test_follower_survives_a_file_it_cannot_read(qtbot) -> None:
    class Broken:
        class t:
            @staticmethod
            def revision() -> tuple[int, int]:
                raise OSError("gone")

    failed: list[Any] = []
    f = Follower(lambda: Broken)
    f.failed.connect(failed.append)
    f.start()
    assert not f.poll() and not f.poll()
    f.stop()
    assert len(failed) == 1  # said once, not every second


def test_open_hand_refreshes_when_unedited(qtbot, desk_window) -> None:
    win, seating = desk_window()
    hid = _saved_hand(win, seating)
    win.navigator.select_key(("hand", hid))
    assert win.shown.version == 1
    theirs = _amend_elsewhere(win, hid, seating)
    assert win.faults.follower.poll()
    assert win.shown.version == 2  # the form shows their version
    assert win.entry.form.events == theirs["events"]
    assert "changed at another desk" in win.faults.banners.texts()["changed"]
    assert win.entry.undo_stack.isClean()


def test_edited_hand_changed_elsewhere_shows_a_banner_and_refuses_to_save(
        qtbot, desk_window) -> None:
    win, seating = desk_window()
    hid = _saved_hand(win, seating)
    win.navigator.select_key(("hand", hid))
    _edit(win)
    mine = win.entry.form.to_record_dict()
    _amend_elsewhere(win, hid, seating)
    assert win.faults.follower.poll()
    text = win.faults.banners.texts()["changed"]
    assert "while you were editing" in text and "version 2" in text
    assert win.entry.form.to_record_dict() == mine  # the edit is kept
    seen: list[Any] = []

    def look(dlg: Any) -> str | None:
        seen.append([[dlg.table.item(r, c).text() for c in range(3)]
                     for r in range(dlg.table.rowCount())])
        return None  # keep looking

    win.faults.resolve_conflict = look
    win.ask_text.queue[:] = ["my reason"]
    assert not win.save()
    assert seen and seen[0]  # both versions were shown, field by field
    assert win.ask_text.asked == []  # refused before asking for a reason
    assert win.desk.hand(hid).version == 2  # their change stands
    # keep my edit on top of theirs: the next save amends version 2
    win.faults.resolve_conflict = lambda dlg: "mine"
    assert win.faults.compare_versions() == "mine"
    assert "changed" not in win.faults.banners.texts() and win.shown.version == 2
    assert win.save()
    h = win.desk.hand(hid)
    assert h.version == 3 and h.record["events"] == mine["events"]


def test_take_their_version_drops_the_edit(qtbot, desk_window) -> None:
    win, seating = desk_window()
    hid = _saved_hand(win, seating)
    win.navigator.select_key(("hand", hid))
    _edit(win)
    theirs = _amend_elsewhere(win, hid, seating)
    win.faults.follower.poll()
    win.faults.resolve_conflict = lambda dlg: "theirs"
    assert not win.save()
    assert win.entry.undo_stack.isClean() and win.shown.version == 2
    assert win.entry.form.events == theirs["events"]
    assert win.faults.banners.texts() == {}


def test_a_save_racing_the_poll_is_refused_by_the_store(qtbot, desk_window) -> None:
    """Another desk saves between two polls: the store's version check refuses the save."""
    win, seating = desk_window()
    hid = _saved_hand(win, seating)
    win.navigator.select_key(("hand", hid))
    _edit(win)
    _amend_elsewhere(win, hid, seating)  # no poll
    shown: list[str] = []
    win.show_message = shown.append
    compared: list[Any] = []
    win.faults.resolve_conflict = lambda dlg: compared.append(dlg) or None
    win.ask_text.queue[:] = ["my reason"]
    assert not win.save()
    assert win.desk.hand(hid).version == 2 and len(compared) == 1
    assert "changed" in win.faults.banners.texts()
    assert any("another desk" in m for m in win.messages)
    # the same for a status change (verify) of a version the referee has not seen
    win.faults.resolve_conflict = lambda dlg: "theirs"
    win.faults.compare_versions()
    _amend_elsewhere(win, hid, seating)
    win.faults.resolve_conflict = lambda dlg: None
    assert not win.verify_hand()
    assert win.desk.hand(hid).version == 3 and win.desk.hand(hid).status.value == "entered"


def test_store_refuses_a_stale_version_itself(tmp_path: Path) -> None:
    seating = gui_helpers.make_tournament(tmp_path / "t.sqlite")
    with Tournament.open(tmp_path / "t.sqlite", backup_every=0) as t:
        h = t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee="A")
        t.hands.amend(h.id, h.record, reason="r", referee="A", expected_version=1)
        with pytest.raises(HandChangedError) as e:
            t.hands.amend(h.id, h.record, reason="r", referee="A", expected_version=1)
        assert (e.value.expected, e.value.current) == (1, 2)
        with pytest.raises(HandChangedError):
            t.hands.set_status(h.id, "verified", referee="A", expected_version=1)
        with pytest.raises(HandChangedError):
            t.hands.void(h.id, reason="r", referee="A", expected_version=1)
        assert t.hands.get(h.id).version == 2
        assert t.hands.set_status(h.id, "verified", expected_version=2).version == 3


def test_new_hand_number_taken_elsewhere(qtbot, desk_window) -> None:
    win, seating = desk_window()
    win.navigator.select_key(("table", 1, 1))
    assert win.context == (1, 1, 1, None)
    with _other(win) as t:
        t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee="B")
    assert win.faults.follower.poll()
    assert win.context == (1, 1, 2, None)  # an untouched form moves to the next number
    assert open_hand_state(win.desk, win.context, None).kind == "same"
    form = EntryForm.from_record(example_record(seating))
    form.extra.update(win.entry.form.extra)
    win.entry.load(form, "", "")
    win.entry.undo_stack.resetClean()
    with _other(win) as t:
        t.hands.add(example_record(seating), round=1, table=1, hand_no=2, referee="B")
    assert win.faults.follower.poll()
    assert win.context == (1, 1, 2, None)  # typed work stays where it is
    assert "Hand 2 of this table" in win.faults.banners.texts()["taken"]
    win.show_message = lambda text: None
    assert not win.save()  # the store refuses the duplicate number
    assert len(win.desk.hands()) == 2


# ---------------------------------------------------------------- loaded / pasted records


def test_record_reader_is_the_clis() -> None:
    rec = example_record({"E": "a", "S": "b", "W": "c", "N": "d"})
    rec["events"][0]["flag"] = ["kong_bloom"]
    with pytest.raises(NearMissError) as e:
        read_record_text(json.dumps(rec))
    assert (e.value.where, e.value.key, e.value.near) == ("events[0]", "flag", "flags")
    rec = example_record({"E": "a", "S": "b", "W": "c", "N": "d"})
    rec["wall_exausted"] = True
    with pytest.raises(NearMissError, match="did you mean 'wall_exhausted'"):
        read_record_text(json.dumps(rec))
    rec = example_record({"E": "a", "S": "b", "W": "c", "N": "d"})
    rec["scorer"] = "Ann"
    rec["seats"]["E"]["seat_note"] = 1
    got = read_record_text("\ufeff" + json.dumps(rec))  # a BOM is fine
    assert got.unknown == (("scorer", True), ("seats.E.seat_note", False))


def test_loading_a_record_with_a_typo_is_refused(qtbot, desk_window, tmp_path: Path) -> None:
    win, seating = desk_window()
    shown: list[str] = []
    win.show_message = shown.append
    win.navigator.select_key(("table", 1, 1))
    before = win.entry.form.to_record_dict()
    rec = example_record(seating)
    rec["events"][-1]["flag"] = []
    path = tmp_path / "typo.json"
    path.write_text(json.dumps(rec), encoding="utf-8")
    win.ask_open_file = lambda title, filt: str(path)
    assert not win.faults.load_record_file()
    assert shown == ["Refused: 'flag' at event 3 is not a field of a hand record; did you mean "
                     "'flags'? Nothing was loaded."]
    assert win.entry.form.to_record_dict() == before
    LANG.set("zh")
    assert not win.faults.load_record_file()
    assert "您是想写 'flags' 吗" in shown[-1]


def test_loading_a_record_with_unknown_keys_warns(qtbot, desk_window, tmp_path: Path) -> None:
    win, seating = desk_window()
    win.navigator.select_key(("table", 1, 1))
    rec = example_record(seating)
    rec["scorer"] = "Ann"
    rec["events"][0]["comment"] = "late"
    win.faults.read_clipboard = lambda: json.dumps(rec, ensure_ascii=False)
    assert win.faults.paste_record()
    text = win.faults.banners.texts()["unknown"]
    assert text == ("Warning, unknown fields in this record: scorer (kept with the record), "
                    "events[0].comment (ignored).")
    assert win.entry.evaluation is not None
    assert win.entry.form.evaluate().ok
    assert win.entry.form.extra["scorer"] == "Ann"
    assert win.context == (1, 1, 1, None)
    LANG.set("zh")
    assert "未知字段" in win.faults.banners.texts()["unknown"]  # the banner follows the language
    LANG.set("en")
    assert win.save()
    assert "unknown" not in win.faults.banners.texts()  # the saved hand is shown: banner gone
    assert win.desk.hands()[0].record["scorer"] == "Ann"


def test_bad_pasted_text_is_one_line(qtbot, desk_window) -> None:
    win, _seating = desk_window()
    shown: list[str] = []
    win.show_message = shown.append
    win.navigator.select_key(("table", 1, 1))
    for text in ("", "[1, 2]", "{", "null", '"x"', "[" * 5000):
        win.faults.read_clipboard = lambda text=text: text
        assert not win.faults.paste_record()
    assert len(shown) == 6 and not any("Traceback" in s for s in shown)
    assert shown[0] == "The clipboard holds no text to read as a hand record."
    assert "JSON object, got list" in shown[1] and "nested too deeply" in shown[5]


def test_gui_record_option_refuses_typos_and_warns(tmp_path: Path, qtbot) -> None:
    db = tmp_path / "t.sqlite"
    seating = gui_helpers.make_tournament(db)
    rec = example_record(seating)
    bad = copy.deepcopy(rec)
    bad["dealr"] = "E"
    (tmp_path / "bad.json").write_text(json.dumps(bad), encoding="utf-8")
    with pytest.raises(GuiError, match="did you mean 'dealer'"):
        run(LaunchOptions(db=db, record=tmp_path / "bad.json",
                          screenshot=tmp_path / "x.png"))
    rec["scorer"] = "Ann"
    (tmp_path / "ok.json").write_text(json.dumps(rec), encoding="utf-8")
    assert run(LaunchOptions(db=db, record=tmp_path / "ok.json", lang="en",
                             screenshot=tmp_path / "ok.png")) == 0
    assert (tmp_path / "ok.png").stat().st_size > 0
    LANG.set("zh")


def test_a_backup_restored_elsewhere_is_reopened_and_the_form_kept(qtbot, desk_window) -> None:
    """The CLI restores a backup while the desk is open: the desk must not go on reading and
    saving into the file set aside; it opens the path again and says so."""
    win, seating = desk_window()
    _saved_hand(win, seating)
    with _other(win) as t:
        t.backups.write()
        h2 = t.hands.add(example_record(seating), round=1, table=1, hand_no=2, referee="B")
    assert win.faults.follower.poll()
    win.navigator.select_key(("hand", h2.id))
    _edit(win)  # the referee is typing an amendment of hand 2
    old = win.desk.t
    Tournament.restore_backup(old.path, 1, referee="B")  # "referee-app backup restore 1"
    assert old.replaced()
    win.faults.follower.poll()
    assert win.desk.t is not old and not win.desk.t.replaced()
    assert [h.hand_no for h in win.desk.t.hands.list()] == [1]  # what the restored file holds
    texts = win.faults.banners.texts()
    assert "was replaced by another program" in texts["replaced"]
    assert f"#{h2.id} is not in the tournament file any more" in texts["changed"]
    assert not win.entry.undo_stack.isClean()  # what was typed is still in the form
    with _other(win) as t:  # the reopened desk follows the new file like any other
        t.hands.add(example_record(seating), round=1, table=1, hand_no=3, referee="B")
    assert win.faults.follower.poll()
