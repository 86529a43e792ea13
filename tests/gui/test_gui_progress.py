"""Issue 12: round progress — the storage overview, ``round progress N [--json]`` and the tab."""

from __future__ import annotations

import json
from pathlib import Path

import gui_helpers
import pytest
from click.testing import CliRunner
from gui_helpers import example_record, make_tournament

from referee_app.cli import main
from referee_app.storage import StorageError, Tournament
from referee_app.storage.progress import round_progress

desk_window = gui_helpers.desk_window


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """Round 1, table 1: hands 1, 2, 4 and 5 (3 missing); 2 verified, 4 void, 5 override."""
    path = tmp_path / "p.sqlite"
    seating = make_tournament(path)
    rec = example_record(seating)
    broken = json.loads(json.dumps(rec))
    broken["wall_exhausted"] = False  # the hand is not finished: breaks §2.5
    with Tournament.open(path) as t:
        for n in (1, 2, 4):
            t.hands.add(rec, round=1, table=1, hand_no=n, referee="A")
        t.hands.add(broken, round=1, table=1, hand_no=5, referee="A", override_reason="slip",
                    override_totals=dict.fromkeys("ESWN", 0))
        t.hands.set_status(t.hands.find(1, 1, 2).id, "verified", referee="B")
        t.hands.void(t.hands.find(1, 1, 4).id, reason="entered twice", referee="A")
    return path


def test_round_progress_counts(db: Path) -> None:
    with Tournament.open(db) as t:
        p = round_progress(t, 1)
        with pytest.raises(StorageError, match="round: round 2 is not seated yet"):
            round_progress(t, 2)
    (tp,) = p.tables
    assert (tp.hands, tp.entered, tp.verified, tp.overridden, tp.void) == (4, 2, 1, 1, 1)
    assert tp.last_hand == 5 and tp.gaps == ((3, 3),) and tp.missing == 1
    assert tp.gap_text() == "3"
    assert tp.last_entry_at.startswith("20")
    assert (p.hands, p.verified, p.unverified) == (4, 1, 2)


def test_round_progress_cli(db: Path) -> None:
    r = CliRunner().invoke(main, ["round", "progress", "1", "--db", str(db), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["tables"][0]["gaps"] == [[3, 3]] and d["tables"][0]["missing"] == 1
    assert d["tables"][0]["verified"] == 1
    r = CliRunner().invoke(main, ["round", "progress", "1", "--db", str(db)])
    assert r.exit_code == 0
    assert r.output.splitlines()[0] == "round 1: 4 hands, 1 verified, 2 not yet verified"
    r = CliRunner().invoke(main, ["round", "progress", "7", "--db", str(db)])
    assert r.exit_code == 2 and r.output.strip() == "error: round: round 7 is not seated yet"


def test_progress_tab(qtbot, desk_window) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    for n in (1, 3):
        win.desk.t.hands.add(rec, round=1, table=1, hand_no=n)
    win.reload()
    win.tabs.setCurrentWidget(win.progress)
    t = win.progress.table
    assert t.rowCount() == 1
    row = [t.item(0, c).text() for c in range(t.columnCount())]
    assert row[0] == "Table 1" and row[2] == "2" and row[3] == "2" and row[9] == "2"
    assert win.progress.summary.text() == "2 hands, 0 verified, 2 still to verify"
    # Enter on a row opens the table's next hand
    t.setCurrentCell(0, 0)
    t.itemActivated.emit(t.item(0, 0))
    assert win.context == (1, 1, 4, None)


def test_progress_tab_of_a_file_saved_with_hand_2_63(qtbot, desk_window, monkeypatch) -> None:
    """A file saved before hand numbers were bounded, with hand 2^63-1: the desk's progress
    tab shows the missing numbers as one run at once (it used to list them one by one
    until the desk was killed), and the table's next hand cannot be saved beyond 999."""
    from referee_app.storage import checks

    huge = 2**63 - 1
    win, seating = desk_window()
    rec = example_record(seating)
    with monkeypatch.context() as m:
        m.setattr(checks, "MAX_HAND_NO", checks.MAX_INT)
        for n in (1, huge):
            win.desk.t.hands.add(rec, round=1, table=1, hand_no=n)
    win.reload()
    win.tabs.setCurrentWidget(win.progress)
    t = win.progress.table
    assert t.item(0, 9).text() == f"2-{huge - 1}"
    # the next hand of that table would be 2^63: refused by name, in the referee's words
    win.navigator.select_key(("table", 1, 1))
    assert win.context[2] == huge + 1
    win.entry.load(win.desk.form_of(win.desk.hands()[0]), "", "")
    assert not win.save()
    assert win.messages[-1] == ("Cannot save: hand number: expected a whole number 1..999, "
                                f"got {huge + 1}")
    assert len(win.desk.hands()) == 2
