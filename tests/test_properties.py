"""Properties of settlement over generated valid records (referee_app.core.generate).

- totals always sum to zero and equal the net of the payments;
- rotating the seat labels (E→S→W→N→E, in seats, events and dealer) rotates the totals;
- settling is deterministic, and a record survives to_dict/from_dict unchanged;
- a winner never pays for anything that happens after its win (血战到底);
- parse_tiles(format_tiles(x)) == x.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.core import (
    HandRecord,
    Tile,
    format_tiles,
    get_ruleset,
    parse_tiles,
    ruleset_ids,
    settle,
)
from referee_app.core.generate import random_record, random_records

SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(min_value=0, max_value=2**32 - 1)
rulesets = st.sampled_from(ruleset_ids())


def record_of(seed: int, ruleset_id: str = "ottawa-2009") -> dict[str, Any]:
    return random_record(random.Random(seed), ruleset_id, check=False)


def rotate(record: dict[str, Any]) -> tuple[dict[str, Any], dict[str, str]]:
    """Relabel every seat by one step of the ruleset's seat order (E→S→W→N→E)."""
    order = get_ruleset(record["ruleset"]).seats
    nxt = {s: order[(i + 1) % len(order)] for i, s in enumerate(order)}
    r = json.loads(json.dumps(record))
    r["dealer"] = nxt[r["dealer"]]
    r["seats"] = {nxt[s]: v for s, v in record["seats"].items()}
    for e in r["events"]:
        if "seat" in e:
            e["seat"] = nxt[e["seat"]]
        if "seats" in e:
            e["seats"] = [nxt[s] for s in e["seats"]]
        if e.get("from") is not None:
            e["from"] = nxt[e["from"]]
    return r, nxt


def end_check_clauses(ruleset_id: str) -> set[str]:
    ec = get_ruleset(ruleset_id).end_check or {}
    return {v["clause"] for v in ec.values() if isinstance(v, dict) and "clause" in v}


# --------------------------------------------------------------------------- generator


def test_generated_records_are_valid_by_construction() -> None:
    """The generator's records (built without asking the engine) all settle ok."""
    for rid in ruleset_ids():
        rng = random.Random(2009)
        for _ in range(150):
            rec = random_record(rng, rid, check=False)
            s = settle(HandRecord.from_dict(rec))
            assert s.ok, (rid, [e.to_dict() for e in s.errors], rec)


def test_generator_is_deterministic_and_varied() -> None:
    a, b = random_records(300, 7), random_records(300, 7)
    assert a == b and a != random_records(300, 8)
    kinds = {e.get("kind") for r in a for e in r["events"] if e["type"] == "kong"}
    flags = {f for r in a for e in r["events"] for f in e.get("flags", [])}
    assert kinds == {"direct", "added", "concealed"}
    assert {"robbing_kong", "kong_bloom", "kong_discard"} <= flags
    assert any(len(e["seats"]) == 3 for r in a for e in r["events"] if e["type"] == "win")
    ends = [settle(HandRecord.from_dict(r)).end_check for r in a]
    assert any(ec is not None and ec.applies and ec.flower_pigs for ec in ends)
    assert any(ec is not None and ec.applies and ec.xianggong for ec in ends)
    assert any(ec is not None and ec.applies and any(x.ready for x in ec.ready.values())
               for ec in ends)


# --------------------------------------------------------------------------- properties


@SETTINGS
@given(seed=seeds, rid=rulesets)
def test_totals_sum_to_zero(seed: int, rid: str) -> None:
    s = settle(HandRecord.from_dict(record_of(seed, rid)))
    assert s.ok
    assert sum(s.totals.values()) == 0
    net = dict.fromkeys(get_ruleset(rid).seats, 0)
    for p in s.payments:
        assert p.chips > 0 and p.payer != p.payee
        net[p.payer] -= p.chips
        net[p.payee] += p.chips
    assert net == s.totals


@SETTINGS
@given(seed=seeds, rid=rulesets)
def test_rotating_seats_rotates_totals(seed: int, rid: str) -> None:
    rec = record_of(seed, rid)
    rotated, nxt = rotate(rec)
    a = settle(HandRecord.from_dict(rec))
    b = settle(HandRecord.from_dict(rotated))
    assert a.ok and b.ok
    assert b.totals == {nxt[s]: v for s, v in a.totals.items()}
    assert [(nxt[w.seat], w.fan, w.chips) for w in a.wins] == \
        [(w.seat, w.fan, w.chips) for w in b.wins]


@SETTINGS
@given(seed=seeds, rid=rulesets)
def test_settling_is_deterministic_and_round_trips(seed: int, rid: str) -> None:
    rec = record_of(seed, rid)
    first = settle(HandRecord.from_dict(rec)).to_dict()
    assert settle(HandRecord.from_dict(rec)).to_dict() == first
    again = HandRecord.from_dict(HandRecord.from_dict(rec).to_dict())
    assert settle(again).to_dict() == first
    assert json.loads(json.dumps(first, ensure_ascii=False)) == first
    for line in first["trace"]:
        assert line.split()[0] in get_ruleset(rid).clauses or line.startswith(
            ("§", "J", "V", "C", "Z")), line


@SETTINGS
@given(seed=seeds, rid=rulesets)
def test_a_winner_never_pays_after_its_win(seed: int, rid: str) -> None:
    """Split the payments by event (settling each prefix of the events with the wall run
    out) and check no payer had won in an earlier event; end-check payers are unwon."""
    rec = record_of(seed, rid)
    full = settle(HandRecord.from_dict(rec))
    assert full.ok
    ec = end_check_clauses(rid)
    won: set[str] = set()
    done = 0  # payments accounted for so far
    events = rec["events"]
    for k, ev in enumerate(events, start=1):
        prefix = dict(rec, events=events[:k], wall_exhausted=True)
        s = settle(HandRecord.from_dict(prefix))
        assert s.ok, s.errors
        walk = [p for p in s.payments if p.clause not in ec]
        # payments happen in event order: each prefix's payments start the full list
        assert tuple(walk) == full.payments[:len(walk)]
        for p in walk[done:]:
            assert p.payer not in won, (k, p, won)
        done = len(walk)
        if ev["type"] == "win":
            won.update(ev["seats"])
    for p in full.payments[done:]:
        assert p.clause in ec
        assert p.payer not in won, (p, won)


@given(st.lists(st.sampled_from([Tile(i) for i in range(27)]), max_size=40))
def test_parse_format_round_trip(tiles: list[Tile]) -> None:
    assert parse_tiles(format_tiles(tiles)) == tuple(tiles)


@given(st.randoms(use_true_random=False))
@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.large_base_example, HealthCheck.data_too_large,
                                 HealthCheck.too_slow])
def test_generator_accepts_any_random(rng: random.Random) -> None:
    rec = random_record(rng)
    assert settle(HandRecord.from_dict(rec)).ok
