"""Sheets that agree with the standings (issue 25): a void hand prints no payments, an
override's chips are not itemised, "hands together" counts what the standings count, ※
only on the rows it explains, an "after round N" sheet lists exactly the penalties it
counts, and PROVISIONAL only where only verified hands count."""

from __future__ import annotations

import io
import random
import re
from datetime import UTC, datetime

import pytest
from pypdf import PdfReader

from referee_app.core.generate import random_record
from referee_app.reports import api, gather
from referee_app.storage import Tournament

WHEN = datetime(2026, 12, 6, 20, 0, tzinfo=UTC)


def text(pdf: bytes) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture
def t(tmp_path):
    """Round 1, table 1: hand 1 counts, hand 2 overridden (E +6, S -6), hand 3 void; a
    penalty in round 1, one given while round 2 is in play, one saved without a round by
    an older version."""
    t = Tournament.create(tmp_path / "a.sqlite", "Agree Open", backup_every=0)
    for i in range(4):
        t.players.add(f"选手{i + 1}")
    row = t.rounds.seat(1, seed=1).tables[1]
    t.rounds.seat(2, seed=2)
    rng = random.Random(5)
    recs = [random_record(rng, t.info.ruleset, players=row) for _ in range(3)]
    t.hands.add(recs[0], round=1, table=1, hand_no=1)
    broken = dict(recs[1], seats={**recs[1]["seats"]})
    broken["seats"]["E"] = {**broken["seats"]["E"], "concealed": "1m"}
    t.hands.add(broken, round=1, table=1, hand_no=2, override_reason="table agreed",
                override_totals={"E": 6, "S": -6, "W": 0, "N": 0})
    void = t.hands.add(recs[2], round=1, table=1, hand_no=3)
    t.hands.void(void.id, reason="entered twice")
    t.penalties.add([row["E"]], 2, "late", round=1)
    t.rounds.start(2)
    t.penalties.add([row["S"]], 3, "phone")  # the round in play: 2
    with t.store.write():  # a penalty as an older version saved it: no round at all
        t.db["penalties"].insert({"players": f"[{t.players.get(row['W']).id}]", "chips": 5,
                                  "reason": "old", "clause": None, "referee": "",
                                  "at": "2026-01-01T00:00:00+00:00", "zero_sum": 0,
                                  "round": None})
        pid = t.db.execute("SELECT max(id) FROM penalties").fetchone()[0]
        t.db["penalty_entries"].insert({"penalty_id": pid,
                                        "player_id": t.players.get(row["W"]).id, "chips": -5})
        t.store.note("", "penalty.add", {"penalty_id": pid}, "2026-01-01T00:00:00+00:00")
    yield t
    t.close()


def test_a_void_hand_and_an_override_itemise_no_payments(t) -> None:
    sheet = gather.table_sheets(t, WHEN, round=1)[0]
    counted, override, void = sheet.hands
    assert counted.details and not override.details and not void.details
    assert void.totals == (0, 0, 0, 0) and override.totals == (6, -6, 0, 0)
    printed = text(api.generate("table", t, generated_at=WHEN, round=1))
    assert "Void: this hand counts nothing" in printed


def test_hands_together_counts_what_the_standings_count(t) -> None:
    row = t.rounds.seating(1).tables[1]
    standing = {r.player: r for r in t.standings.table()}[row["E"]]
    assert standing.hands == 2  # the override counts, the void hand does not
    st = gather.player_statement(t, WHEN, row["E"])
    together = {o.opponent: o.hands for o in st.opponents if o.opponent != "(override)"}
    assert together == {row["S"]: 2, row["W"]: 2, row["N"]: 2}
    assert [o.total for o in st.opponents if o.opponent == "(override)"] == [6]


def test_the_override_mark_and_its_legend_go_together(t) -> None:
    data = gather.standings(t, WHEN)
    marked = {r.name for r in data.rows if r.overrides}
    assert marked == set(t.rounds.seating(1).tables[1].values())
    printed = text(api.generate("standings", t, generated_at=WHEN))
    assert printed.count("※") == len(marked) + 1  # each marked row and the legend
    only2 = text(api.generate("standings", t, generated_at=WHEN, round=2))
    assert "※" not in only2  # no row carries it: no legend


def test_an_after_round_sheet_lists_exactly_the_penalties_it_counts(t) -> None:
    row = t.rounds.seating(1).tables[1]
    for through in (1, 2):
        data = gather.standings(t, WHEN, through=through)
        listed: dict[str, int] = {}
        for p in data.penalties:
            listed[p.player] = listed.get(p.player, 0) + p.chips
        counted = {r.player: r.penalties for r in t.standings.table(through_round=through)
                   if r.penalties}
        assert listed == counted, through
    assert {p.player for p in gather.standings(t, WHEN, through=2).penalties} == \
        {row["E"], row["S"]}  # the penalty without any round: overall only
    assert row["W"] in {p.player for p in gather.standings(t, WHEN).penalties}


def test_provisional_only_where_only_verified_hands_count(t) -> None:
    printed = text(api.generate("standings", t, generated_at=WHEN))
    assert "PROVISIONAL" not in printed and "FINAL" not in printed
    t.update_info(verified_only=True)
    printed = text(api.generate("standings", t, generated_at=WHEN))
    assert re.search(r"PROVISIONAL: 2 hand\(s\)", printed)
    assert t.standings.provisional() == 2


def test_a_void_hands_ruling_sheet_prints_no_payments(t) -> None:
    void = t.hands.find(1, 1, 3)
    printed = text(api.generate("hand", t, generated_at=WHEN, hand_id=void.id))
    assert "Void: this hand counts nothing" in printed and "Payments" not in printed
    counted = text(api.generate("hand", t, generated_at=WHEN, hand_id=t.hands.find(1, 1, 1).id))
    assert "Payments" in counted
