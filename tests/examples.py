"""The hand-format.md example record, shared by the tests.

One copy only: the golden fixture ``fixtures/golden/hand_format_example.json``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

_FIXTURE = Path(__file__).parent / "fixtures" / "golden" / "hand_format_example.json"
_RECORD: dict[str, Any] = json.loads(_FIXTURE.read_text(encoding="utf-8"))["record"]


def spec_example(*, players: bool = False) -> dict[str, Any]:
    """A fresh copy of the example; without ``players`` the seats name nobody, so a
    tournament fills them from its seating."""
    rec = copy.deepcopy(_RECORD)
    if not players:
        for seat in rec["seats"].values():
            seat.pop("player", None)
    return rec


def example_at(t: Any, round: int = 1, table: int = 1) -> dict[str, Any]:
    """The example with its seats naming the players seated at (round, table) of ``t``."""
    rec = spec_example()
    for seat, name in t.rounds.seating(round).tables[table].items():
        rec["seats"][seat]["player"] = name
    return rec
