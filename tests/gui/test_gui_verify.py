"""Issue 12: double-entry (blind) verification — the comparison, ``hand verify ID --record
FILE`` and the blind form in the window."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import gui_helpers
import pytest
from click.testing import CliRunner
from gui_helpers import commit_text, example_record, make_tournament

from referee_app.cli import main
from referee_app.gui.controllers.entry import EntryForm
from referee_app.storage import StorageError, Tournament
from referee_app.storage.verification import compare_records, verify_hand

desk_window = gui_helpers.desk_window


def _rec(**seats: str) -> dict:
    return {"dealer": "E", "wall_exhausted": True,
            "seats": {s: {"concealed": c, "pongs": []} for s, c in seats.items()},
            "events": [{"type": "win", "seats": ["N", "S"], "tile": "7p", "from": "W",
                        "flags": ["robbing_kong"]}]}


@pytest.mark.parametrize("second, fields", [
    (_rec(E="1m2m3m"), []),  # the same tiles written another way
    (_rec(E="321m"), []),  # another order
    (_rec(E="124m"), ["seats.E.concealed"]),
    ({**_rec(E="123m"), "dealer": "S"}, ["dealer"]),
    ({**_rec(E="123m"), "wall_exhausted": False}, ["wall_exhausted"]),
    ({**_rec(E="123m"), "events": [{"type": "win", "seats": ["S", "N"], "tile": "7筒",
                                    "from": "W", "flags": ["robbing_kong"]}]}, []),
    ({**_rec(E="123m"), "events": []}, ["events[0]"]),
])
def test_compare_records(second, fields) -> None:
    assert [d.field for d in compare_records(_rec(E="123m"), second)] == fields


@pytest.fixture
def db(tmp_path: Path) -> tuple[Path, dict]:
    path = tmp_path / "v.sqlite"
    rec = example_record(make_tournament(path))
    with Tournament.open(path) as t:
        t.hands.add(rec, round=1, table=1, hand_no=1, referee="A")
    return path, rec


def test_verify_hand(db) -> None:
    path, rec = db
    other = json.loads(json.dumps(rec))
    other["seats"]["S"]["concealed"] = "2367p456s"
    with Tournament.open(path) as t:
        res = verify_hand(t, 1, other, referee="B")
        assert not res.verified and [d.to_dict() for d in res.differences] == [
            {"field": "seats.S.concealed", "first": "2366p456s", "second": "2367p456s"}]
        assert t.hands.get(1).status.value == "entered"  # nothing written
        assert verify_hand(t, 1, rec, referee="B").verified
        h = t.hands.get(1)
        assert h.status.value == "verified" and h.updated_by == "B"
        t.hands.void(1, reason="duplicate")
        with pytest.raises(StorageError, match="void"):
            verify_hand(t, 1, rec)


def test_hand_verify_record_cli(db, tmp_path: Path) -> None:
    path, rec = db
    other = json.loads(json.dumps(rec))
    other["events"][2]["from"] = "S"
    (tmp_path / "b.json").write_text(json.dumps(other), encoding="utf-8")
    (tmp_path / "a.json").write_text(json.dumps(rec), encoding="utf-8")
    r = CliRunner().invoke(main, ["hand", "verify", "1", "--record", str(tmp_path / "b.json"),
                                  "--db", str(path)])
    assert r.exit_code == 1
    assert "events[2]" in r.output and "win E 1m self-drawn" in r.output \
        and "win E 1m from S" in r.output
    r = CliRunner().invoke(main, ["hand", "verify", "1", "--record", str(tmp_path / "a.json"),
                                  "--referee", "B", "--db", str(path)])
    assert r.exit_code == 0 and "verified" in r.output
    r = CliRunner().invoke(main, ["hand", "verify", "1", "--record", str(tmp_path / "x.json"),
                                  "--db", str(path)])
    assert r.exit_code == 2 and r.output.startswith("error: record: cannot read")


def test_hand_amend_dry_run_writes_nothing(db, tmp_path: Path) -> None:
    path, rec = db
    other = json.loads(json.dumps(rec))
    other["events"][2]["from"] = "S"
    f = tmp_path / "b.json"
    f.write_text(json.dumps(other), encoding="utf-8")
    r = CliRunner().invoke(main, ["hand", "amend", "1", str(f), "--reason", "re-read",
                                  "--dry-run", "--db", str(path)])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0] == "amending hand 1: v1 -> v2"
    assert lines[1].startswith("totals: E +30 -> ")
    assert "dry run: nothing was written" in lines[-1]
    with Tournament.open(path) as t:
        assert t.hands.get(1).version == 1


def _key_in(win, rec: dict) -> None:
    """The second referee types the slip into the blind form."""
    form = EntryForm.from_record(rec)
    for s, p in win.entry.panels.items():
        commit_text(p.concealed, form.seats[s].concealed)
        commit_text(p.pongs, form.seats[s].pongs)
    win.entry.set_events(form.events, "events")
    win.entry.wall.setChecked(form.wall_exhausted)


def test_blind_form_verifies_a_matching_entry(qtbot, desk_window) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    assert win.blind.verify_blind()
    # the saved version is hidden: an empty form, the status says blind
    assert all(not p.concealed.text() for p in win.entry.panels.values())
    assert win.entry.status.text().startswith("blind entry")
    _key_in(win, rec)
    assert win.save()
    assert win.desk.hand(h.id).status.value == "verified"
    assert win.blind.hand_id is None and win.entry.status.text() == "v2 · verified"


@pytest.mark.parametrize("choice, version, s_concealed, status", [
    ("first", 2, "2366p456s", "verified"),  # kept: v2 is the status change
    # amended to the second entry, as the desk's referee who keyed it: they may not verify
    # their own version, so it waits for a second referee (the window says why)
    ("second", 2, "2367p456s", "entered"),
    (None, 1, "2366p456s", "entered"),  # cancelled: nothing written, the blind form stays
])
def test_blind_form_lists_differences(qtbot, desk_window, choice, version, s_concealed,
                                      status) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    win.blind.verify_blind()
    other = json.loads(json.dumps(rec))
    other["seats"]["S"]["concealed"] = "2367p456s"
    _key_in(win, other)
    seen = []
    win.blind.resolve_differences = lambda title, diffs: seen.append(list(diffs)) or choice
    win.ask_text.queue.append("slip re-read with the table")
    assert win.save() is (choice is not None)
    assert [d.field for d in seen[0]] == ["seats.S.concealed"]
    stored = win.desk.hand(h.id)
    assert stored.version == version
    assert stored.record["seats"]["S"]["concealed"] == s_concealed
    assert stored.status.value == status
    assert (win.blind.hand_id is not None) is (choice is None)
    if choice == "second":
        assert stored.updated_by == "Tester"
        assert win.messages[-1] == ("Round 1 · Table 1 · Hand 1: the second entry is saved, "
                                    f"not verified: referee: Tester entered or last amended "
                                    f"hand {h.id} as it stands: a second referee verifies it")


def test_differences_dialog_side_by_side(qtbot, desk_window) -> None:
    from referee_app.gui.views.blind import DifferencesDialog
    from referee_app.storage.verification import Difference

    win, _ = desk_window(lang="zh")
    dlg = DifferencesDialog("第1轮", [Difference("seats.S.concealed", "2366p456s", "2367p456s")],
                            win)
    qtbot.addWidget(dlg)
    row = [dlg.table.item(0, c).text() for c in range(3)]
    assert row == ["南 S的手牌", "2366p456s", "2367p456s"]
    assert not dlg.btn_first.isDefault() and not dlg.btn_second.isDefault()


def _blind_entry_that_differs(desk_window, entered_by: str = "") -> tuple[Any, Any]:
    """A window of a tournament naming a head referee, keyed blind with S's hand differing
    from hand 1 as saved (by ``entered_by``)."""
    win, seating = desk_window()
    win.desk.t.update_info(head_referee="总裁判")
    rec = example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1, referee=entered_by)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    win.blind.verify_blind()
    other = json.loads(json.dumps(rec))
    other["seats"]["S"]["concealed"] = "2367p456s"
    _key_in(win, other)
    return win, h


def test_differences_are_resolved_by_the_head_referee(qtbot, desk_window) -> None:
    """When the tournament names a head referee, only their name resolves a difference."""
    win, h = _blind_entry_that_differs(desk_window)
    win.blind.resolve_differences = lambda title, diffs: "first"
    win.ask_text.queue = [""]  # no name given: nothing is written
    assert not win.save()
    assert win.desk.hand(h.id).status.value == "entered"
    win.ask_text.queue = ["总裁判"]
    assert win.save()
    stored = win.desk.hand(h.id)
    assert stored.status.value == "verified" and stored.updated_by == "总裁判"


def test_the_head_referee_verifies_the_second_entry_they_took(qtbot, desk_window) -> None:
    """The head referee takes the blind entry: it is saved as the desk referee's who keyed
    it, and the head referee, who wrote no version of it, verifies it."""
    win, h = _blind_entry_that_differs(desk_window, entered_by="钱")
    win.blind.resolve_differences = lambda title, diffs: "second"
    win.ask_text.queue = ["总裁判", "slip re-read with the table"]
    assert win.save()
    versions = win.desk.history(h.id)
    assert [(v.action.value, v.referee) for v in versions] == [
        ("entered", "钱"), ("amended", "Tester"), ("status", "总裁判")]
    assert versions[-1].status.value == "verified"
