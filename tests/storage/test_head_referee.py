"""Overrides are the head referee's ruling (issue 3): when the tournament names a head
referee, only that referee may record a hand that breaks the rules."""

from __future__ import annotations

from typing import Any

import gui_helpers
import pytest
from gui_helpers import enter_spec_example
from PySide6.QtCore import Qt

from referee_app.storage import StorageError

desk_window = gui_helpers.desk_window  # the fixture, shared with the other GUI tests
CTRL = Qt.KeyboardModifier.ControlModifier


def _broken(record: dict[str, Any]) -> dict[str, Any]:
    """The same record with a winner one tile short (a §2.1 problem)."""
    out = {**record, "seats": {k: dict(v) for k, v in record["seats"].items()}}
    winner = next(e for e in record["events"] if e["type"] == "win")["seats"][0]
    out["seats"][winner]["concealed"] = out["seats"][winner]["concealed"][1:]
    return out


RULING = {"E": 2, "S": -2, "W": 0, "N": 0}


def test_only_the_head_referee_may_override(make_tournament: Any, record_for: Any,
                                            db_dump: Any) -> None:
    t = make_tournament(n=4, head_referee="赵建国")
    bad = _broken(record_for(t, 1, 1, seed=3))
    before = db_dump(t.path)
    with pytest.raises(StorageError) as e:
        t.hands.add(bad, round=1, table=1, hand_no=1, referee="钱文", override_reason="ruling",
                    override_totals=RULING)
    assert e.value.field == "referee" and "赵建国" in str(e.value)
    assert db_dump(t.path) == before
    h = t.hands.add(bad, round=1, table=1, hand_no=1, referee="赵建国", override_reason="ruling",
                    override_totals=RULING)
    assert h.override and t.hands.history(h.id)[-1].referee == "赵建国"


def test_without_a_head_referee_any_named_referee_may_override(make_tournament: Any,
                                                               record_for: Any) -> None:
    t = make_tournament(n=4)
    bad = _broken(record_for(t, 1, 1, seed=3))
    h = t.hands.add(bad, round=1, table=1, hand_no=1, referee="钱文", override_reason="ruling",
                    override_totals=RULING)
    assert h.override


def test_gui_asks_for_the_head_referee_on_an_override(qtbot: Any, desk_window: Any) -> None:
    win, _ = desk_window()
    win.desk.t.update_info(head_referee="Head Ref")
    enter_spec_example(qtbot, win)
    e_field = win.entry.panels["E"].concealed
    e_field.setFocus()
    e_field.end(False)
    qtbot.keyClick(e_field, Qt.Key.Key_Left)
    qtbot.keyClick(e_field, Qt.Key.Key_Backspace)
    win.ask_text.queue = [("table agreed", RULING), "Someone Else"]
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    assert win.desk.hands() == []  # refused: not the head referee, nothing saved
    win.ask_text.queue = [("table agreed", RULING), "Head Ref"]
    qtbot.keyClick(win, Qt.Key.Key_S, CTRL)
    hands = win.desk.hands()
    assert len(hands) == 1 and hands[0].override
    assert win.desk.t.hands.history(hands[0].id)[-1].referee == "Head Ref"
