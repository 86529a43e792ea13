"""The parts write through sqlite-utils' ``Table`` methods (insert, insert_all, update,
delete, delete_where) inside the store's one ``BEGIN IMMEDIATE`` transaction. Those methods
wrap their statements in ``Database.atomic()``, which inside an open transaction is a
savepoint: they must neither commit nor leave a transaction of their own, so a save that
fails after its rows were written leaves the file exactly as it was (no row, no chain entry).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from referee_app.storage import Tournament

Op = Callable[[Any, Callable[..., dict[str, Any]]], object]


def _add_hand(t: Any, record_for: Callable[..., dict[str, Any]]) -> object:
    return t.hands.add(record_for(t, 1, 2, seed=5), round=1, table=2, hand_no=1)


def _swap_seat(t: Any, record_for: Callable[..., dict[str, Any]]) -> object:
    other = t.rounds.seating(1).tables[3]["S"]
    return t.rounds.set_seat(1, 2, "E", other)


OPS: dict[str, Op] = {
    "players.add": lambda t, _: t.players.add("新人", club="Ottawa"),
    "players.import_csv": lambda t, _: t.players.import_csv(
        __import__("io").StringIO("name,club\nA1,x\nA2,y\n")),
    "players.update": lambda t, _: t.players.update(t.players.list()[0].id, club="X",
                                                    name_latin="Y"),
    "players.set_status": lambda t, _: t.players.set_status(t.players.list()[1].id,
                                                            "withdrawn"),
    "rounds.seat": lambda t, _: t.rounds.seat(3, seed=3),
    "rounds.seat again": lambda t, _: t.rounds.seat(2, seed=4, replace_existing=True),
    "rounds.set_seat": _swap_seat,
    "plan.make": lambda t, _: t.plan.make(4, seed=2),
    "hands.add": _add_hand,
    "hands.amend": lambda t, rf: t.hands.amend(1, rf(t, 1, 1, seed=9), reason="typo"),
    "hands.void": lambda t, _: t.hands.void(1, reason="wrong table"),
    "hands.set_status": lambda t, _: t.hands.set_status(1, "verified"),
    "penalties.add": lambda t, _: t.penalties.add([t.players.list()[2].id], 4, "late",
                                                  zero_sum=True, round=1),
    "penalties.void": lambda t, _: t.penalties.void(1, reason="mistake"),
    "update_info": lambda t, _: t.update_info(venue="Hall", stake=2),
    "referees.add": lambda t, _: t.referees.add("裁判", pin="123456", head=True),
}


@pytest.fixture
def event(make_tournament: Callable[..., Any], record_for: Callable[..., dict[str, Any]]
          ) -> Any:
    t = make_tournament(16, rounds=2)
    t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    t.penalties.add([t.players.list()[0].id], 2, "noise")
    return t


@pytest.mark.parametrize("name", OPS)
def test_a_failing_save_writes_nothing(name: str, event: Any, monkeypatch: pytest.MonkeyPatch,
                                       record_for: Callable[..., dict[str, Any]],
                                       db_dump: Callable[[Path], str]) -> None:
    before = db_dump(event.path)

    def fail(*args: object) -> None:  # after every row of the save was written
        assert event.db.conn.in_transaction, "a Table method committed inside the save"
        raise RuntimeError("the save fails at its end")

    monkeypatch.setattr(event.store, "note", fail)
    with pytest.raises(RuntimeError, match="fails at its end"):
        OPS[name](event, record_for)
    assert not event.db.conn.in_transaction
    assert db_dump(event.path) == before
    monkeypatch.undo()
    # the same change, not failing, is saved (so the check above could see a write)
    entries = event.record.verify().entries
    OPS[name](event, record_for)
    assert db_dump(event.path) != before
    assert event.record.verify().entries == entries + 1
    event.close()
    assert Tournament.open(event.path).record.verify().entries == entries + 1
