"""A tournament's own cap on total fan (sichuan-novel V2: "可以临时协商", default none)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee_app.core import HandRecord, get_ruleset, settle
from referee_app.core.generate import random_record
from referee_app.storage import StorageError, Tournament


def _big_record(players: dict[str, str], at_least: int) -> dict[str, Any]:
    """A valid sichuan-novel record with a win of at least ``at_least`` fan (uncapped)."""
    rng = random.Random(5)
    for _ in range(5000):
        rec = random_record(rng, "sichuan-novel", dealer="E", players=players)
        s = settle(HandRecord.from_dict(rec))
        if s.ok and any(w.fan >= at_least for w in s.wins):
            return rec
    raise AssertionError("no big hand generated")


def test_cap_applies_to_saved_hands(make_tournament: Any) -> None:
    capped = make_tournament(n=4, ruleset="sichuan-novel", cap_fan=4)
    free = make_tournament(n=4, ruleset="sichuan-novel")
    assert capped.info.cap_fan == 4 and free.info.cap_fan is None
    rec = _big_record(capped.rounds.seating(1).tables[1], at_least=6)
    h = capped.hands.add(rec, round=1, table=1, hand_no=1)
    assert max(w["fan"] for w in h.settlement["wins"]) == 4
    assert h.settlement["totals"] == settle(HandRecord.from_dict(rec),
                                            get_ruleset("sichuan-novel")
                                            .with_settings(cap_fan=4)).to_dict()["totals"]
    rec2 = _big_record(free.rounds.seating(1).tables[1], at_least=6)
    h2 = free.hands.add(rec2, round=1, table=1, hand_no=1)
    assert max(w["fan"] for w in h2.settlement["wins"]) >= 6


def test_cap_survives_a_bundle_round_trip(make_tournament: Any, tmp_path: Any) -> None:
    t = make_tournament(n=4, ruleset="sichuan-novel", cap_fan=5)
    t.write_bundle(tmp_path / "b.json")
    with Tournament.import_bundle(tmp_path / "b.json", tmp_path / "c.sqlite") as u:
        assert u.info.cap_fan == 5


@pytest.mark.parametrize("bad", [0, -1, True, "6", 2.5])
def test_bad_cap_is_refused(fresh_db: Any, bad: object) -> None:
    with pytest.raises(StorageError) as e:
        Tournament.create(fresh_db, "X", ruleset="sichuan-novel", cap_fan=bad)
    assert e.value.field == "cap_fan"
    assert not fresh_db.exists()


def test_cap_can_be_set_later(make_tournament: Any) -> None:
    t = make_tournament(n=4, ruleset="sichuan-novel")
    assert t.update_info(cap_fan=6).cap_fan == 6
    assert t.rules().cap_fan == 6
    assert t.rules() is get_ruleset("sichuan-novel").with_settings(cap_fan=6)
