"""Fuzzing the tile parser, the record loader and settlement with hypothesis.

Bad input must always end in a clear error: TileParseError from the parser, RecordError
(naming a field) from the loader — never another exception — and settle() never raises
for a record that could be read.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.core import (
    HandRecord,
    RecordError,
    TileParseError,
    get_ruleset,
    parse_tiles,
    ruleset_ids,
    settle,
)
from referee_app.core.generate import random_record

FUZZ = settings(max_examples=150, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

TILE_CHARS = "123456789mpsMPS万筒饼条索萬條餅0xz中 \t\n-,"


# --------------------------------------------------------------------------- parser


@FUZZ
@given(st.one_of(st.text(), st.text(alphabet=TILE_CHARS)))
def test_parse_tiles_only_raises_tile_parse_error(text: str) -> None:
    try:
        tiles = parse_tiles(text)
    except TileParseError as e:
        assert str(e)
        if e.position is not None:
            assert 1 <= e.position <= len(text)
            assert e.char == text[e.position - 1]
        return
    # what parses holds only digits, suit characters and whitespace
    assert len(tiles) == sum(ch in "123456789" for ch in text)


# --------------------------------------------------------------------------- loader

junk = st.one_of(
    st.none(), st.booleans(), st.integers(min_value=-5, max_value=10**12),
    st.floats(allow_nan=True), st.text(max_size=12), st.text(alphabet=TILE_CHARS, max_size=8),
    st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.sampled_from(["", "E", "S", "X", "1m", "5p", "44m", "0m", "direct", "added",
                     "concealed", "win", "kong", "ottawa-2009", "zigong-3p",
                     "sichuan-hand/1", "kong_bloom", "robbing_kong", "heavenly",
                     "declared_ready"]),
)


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix] if prefix else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, prefix + (i,))
    return out


def _mutate(record: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    r = copy.deepcopy(record)
    for _ in range(data.draw(st.integers(1, 4))):
        paths = _paths(r)
        if not paths:
            break
        path = data.draw(st.sampled_from(paths))
        parent: Any = r
        for k in path[:-1]:
            parent = parent[k]
        key = path[-1]
        action = data.draw(st.sampled_from(["delete", "replace", "replace", "add"]))
        if action == "delete":
            del parent[key]
        elif action == "replace":
            parent[key] = data.draw(junk)
        elif isinstance(parent, dict):
            parent[data.draw(st.text(max_size=6))] = data.draw(junk)
        else:
            parent.append(data.draw(junk))
    return r


def _load_or_record_error(obj: Any) -> HandRecord | None:
    try:
        return HandRecord.from_dict(obj)
    except RecordError as e:
        assert str(e)
        return None


@FUZZ
@given(seed=st.integers(0, 2**32 - 1), rid=st.sampled_from(ruleset_ids()), data=st.data())
def test_mutated_records_give_record_error_or_settle(seed: int, rid: str,
                                                     data: st.DataObject) -> None:
    record = random_record(random.Random(seed), rid, check=False)
    mutated = _mutate(record, data)
    rec = _load_or_record_error(mutated)
    if rec is not None:
        s = settle(rec)  # never raises for a readable record
        json.dumps(s.to_dict(), ensure_ascii=False)
        # settled, or refused with the broken rules named (and then nothing is paid)
        assert s.ok is not bool(s.errors)
        assert s.ok or not s.payments


@pytest.mark.parametrize("value", [[], [1], {}, {"id": "ottawa-2009"}])
def test_ruleset_of_wrong_type_is_a_record_error(value: Any) -> None:
    """Regression (fuzz finding): an unhashable ruleset once raised TypeError."""
    record = random_record(random.Random(1))
    record["ruleset"] = value
    with pytest.raises(RecordError) as exc:
        HandRecord.from_dict(record)
    assert exc.value.field == "ruleset"


@FUZZ
@given(st.one_of(junk, st.lists(junk, max_size=3), st.dictionaries(st.text(max_size=8), junk)))
def test_non_records_give_record_error(obj: Any) -> None:
    _load_or_record_error(obj)


@FUZZ
@given(st.text(max_size=200))
def test_from_json_of_any_text(text: str) -> None:
    try:
        HandRecord.from_json(text)
    except RecordError:
        pass


# --------------------------------------------------------------------------- settlement


def _readable_garbage(rid: str) -> st.SearchStrategy[dict[str, Any]]:
    """Records that load fine but break any rule: random tiles, seats, events and flags."""
    rules = get_ruleset(rid)
    seat = st.sampled_from(rules.seats)
    suits = rules.suits
    tile = st.builds(lambda r, s: f"{r}{s}", st.integers(1, 9), st.sampled_from(suits))
    tiles = st.lists(tile, max_size=16).map("".join)
    kong = st.fixed_dictionaries(
        {"type": st.just("kong"), "seat": seat, "tile": tile,
         "kind": st.sampled_from(["direct", "added", "concealed"]), "from": seat}
    ).map(lambda e: e if e["kind"] == "direct" else {k: v for k, v in e.items()
                                                      if k != "from"})
    win = st.fixed_dictionaries(
        {"type": st.just("win"), "seats": st.lists(seat, min_size=1, max_size=4), "tile": tile},
        optional={"from": seat, "flags": st.lists(st.sampled_from(sorted(rules.flags)),
                                                  max_size=3),
                  "passed_fan": st.integers(0, 12)})
    return st.fixed_dictionaries({
        "format": st.just("sichuan-hand/1"), "ruleset": st.just(rid),
        "dealer": seat,
        "seats": st.fixed_dictionaries({s: st.fixed_dictionaries(
            {"concealed": tiles, "pongs": st.lists(tile, max_size=4)}) for s in rules.seats}),
        "events": st.lists(st.one_of(kong, win), max_size=7),
        "wall_exhausted": st.booleans(),
    })


@pytest.mark.parametrize("rid", ruleset_ids())
def test_settle_never_raises_on_readable_records(rid: str) -> None:
    @FUZZ
    @given(_readable_garbage(rid))
    def check(record: dict[str, Any]) -> None:
        s = settle(HandRecord.from_dict(record))
        d = s.to_dict()
        json.dumps(d, ensure_ascii=False)
        if s.ok:
            assert sum(s.totals.values()) == 0
        else:
            assert d["payments"] == [] and d["totals"] == {} and d["errors"]

    check()
