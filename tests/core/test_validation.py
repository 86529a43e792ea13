"""One test per check of the Validation list of ottawa-2009.md, plus unreadable input.

Each test starts from a valid record (worked by hand, see tests/fixtures/golden) and
breaks exactly one rule, so the expected clause and seat follow from the spec sentence.
Records that cannot be read at all (hand-format.md "Details", exit 2) must raise
RecordError naming the field.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from referee_app.core import HandRecord, RecordError, settle

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


def golden(name: str) -> dict[str, Any]:
    return copy.deepcopy(json.loads((GOLDEN / f"{name}.json").read_text("utf-8"))["record"])


def base() -> dict[str, Any]:
    """Worked example 3: S wins 4m on E's discard, W self-draws 3s, N wins 8s on E's discard."""
    return golden("ottawa_ex3_seven_pairs_root")


def errors(record: dict[str, Any]) -> list[tuple[str, str | None]]:
    s = settle(HandRecord.from_dict(record))
    if s.ok:
        return []
    # an invalid record settles nothing (hand-format.md)
    assert s.wins == () and s.payments == () and s.totals == {} and s.end_check is None
    d = s.to_dict()
    assert d["wins"] == [] and d["payments"] == [] and d["totals"] == {}
    assert d["end_check"] is None
    for e in d["errors"]:
        assert set(e) >= {"clause", "seat", "message"} and e["message"]
    return sorted(((e.clause, e.seat) for e in s.errors), key=lambda x: (x[0], x[1] or ""))


def win(seats: list[str] | str, tile: str, frm: str | None = None,
        flags: list[str] | None = None, **kw: Any) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "win", "seats": [seats] if isinstance(seats, str) else seats,
                         "tile": tile}
    if frm:
        e["from"] = frm
    if flags:
        e["flags"] = flags
    e.update(kw)
    return e


def kong(seat: str, tile: str, kind: str, frm: str | None = None) -> dict[str, Any]:
    e = {"type": "kong", "seat": seat, "tile": tile, "kind": kind}
    if frm:
        e["from"] = frm
    return e


def test_base_records_are_valid() -> None:
    for name in ("ottawa_ex3_seven_pairs_root", "heavenly_and_tied_readings", "earthly"):
        assert errors(golden(name)) == [], name


# --------------------------------------------------------------------------- §1


def test_s1_fifth_copy_of_a_tile() -> None:
    r = base()
    r["seats"]["E"]["concealed"] = "11111222333p44p"  # five 1p (E is unwon: count is free)
    assert errors(r) == [("§1", None)]


def test_s1_counts_pongs_and_kongs() -> None:
    r = base()
    r["seats"]["E"]["pongs"] = ["1s"]  # W holds one 1s; 1 + 3 = 4 is fine
    assert errors(r) == []
    r = base()
    r["events"].insert(0, kong("E", "9s", "concealed"))  # W holds one 9s: 1 + 4 = 5
    assert ("§1", None) in errors(r)


def test_s1_tile_won_on_one_discard_counts_once() -> None:
    # W's pong 3 + the robbed 5p = 4; S and N both win on that one physical tile.
    assert errors(golden("robbed_kong_two_robbers")) == []
    # W and N each hold one 6p and three seats win on S's 6p: 1 + 1 + 1 = 3 (counted three
    # times it would be 5)
    r = golden("one_discard_three_winners")
    assert errors(r) == []
    r["seats"]["S"]["concealed"] = "222333444555m6p"  # S's own 6p makes four: still fine
    assert errors(r) == []
    r["seats"]["E"]["concealed"] = "123456789m5796p"  # a fifth 6p
    assert ("§1", None) in errors(r)


# --------------------------------------------------------------------------- §2.1


def test_s2_1_winner_with_wrong_tile_count() -> None:
    r = base()
    r["seats"]["S"]["concealed"] = "11222244m557799p3m"  # 14 before the winning tile
    errs = errors(r)
    assert ("§2.1", "S") in errs
    assert {c for c, _ in errs} <= {"§2.1", "§4"} and {s for _, s in errs} == {"S"}


def test_s2_1_winner_pong_counts_three() -> None:
    r = golden("heavenly_and_tied_readings")
    r["events"][0]["flags"] = []
    r["seats"]["E"]["pongs"] = ["3p"]  # 13 concealed + a pong = 16
    assert ("§2.1", "E") in errors(r)


def test_unwon_seat_with_wrong_count_is_not_an_error() -> None:
    r = base()
    r["seats"]["E"]["concealed"] = "111222333p"  # the last unwon seat: a 相公 is not an error
    assert errors(r) == []


# --------------------------------------------------------------------------- §2.4 / §4


def test_s2_4_three_suit_win_is_false_win() -> None:
    r = base()
    r["seats"]["N"]["concealed"] = "345567m789p678s8s"  # four sets + pair, but m, p and s
    assert errors(r) == [("§2.4", "N")]


def test_s4_no_legal_hand() -> None:
    r = base()
    r["seats"]["N"]["concealed"] = "345567789m678s9s"  # + 8s: 89s is not a set
    assert errors(r) == [("§4", "N")]


# --------------------------------------------------------------------------- §2.5


def test_s2_5_seat_wins_twice() -> None:
    r = base()
    r["events"].insert(1, win("S", "9p"))
    assert errors(r) == [("§2.5", "S")]


def test_s2_5_seat_listed_twice_in_one_win() -> None:
    r = base()
    r["events"][0]["seats"] = ["S", "S"]
    assert errors(r) == [("§2.5", "S")]


def test_s2_5_kong_after_own_win() -> None:
    r = base()
    r["events"].insert(1, kong("S", "8p", "concealed"))
    assert errors(r) == [("§2.5", "S")]


def test_s2_5_event_after_the_hand_is_over() -> None:
    r = base()
    r["events"].append(kong("E", "8p", "concealed"))  # only E is left unwon
    assert errors(r) == [("§2.5", "E")]
    r = base()
    r["events"].append(win("E", "6p"))
    assert [c for c, _ in errors(r)] == ["§2.5"]


def test_s2_5_unfinished_hand_without_wall_exhausted() -> None:
    r = base()
    del r["events"][2]  # E and N unwon, and the wall did not run out
    assert errors(r) == [("§2.5", None)]
    r["wall_exhausted"] = True
    assert errors(r) == []


def test_wall_exhausted_with_one_seat_unwon_is_valid() -> None:
    r = base()
    r["wall_exhausted"] = True
    s = settle(HandRecord.from_dict(r))
    assert s.ok and (s.end_check is None or not s.end_check.applies)


# --------------------------------------------------------------------------- §2.6 / §2.8A


def test_s2_6_win_on_own_discard() -> None:
    r = base()
    r["events"][0]["from"] = "S"
    assert errors(r) == [("§2.6", "S")]


def test_s2_6_discarder_already_won() -> None:
    r = base()
    r["events"][2]["from"] = "S"  # S won in the first event
    assert errors(r) == [("§2.6", "S")]


def test_s2_8a_direct_kong_on_own_discard() -> None:
    r = base()
    r["events"].insert(0, kong("E", "8p", "direct", "E"))
    assert errors(r) == [("§2.8A", "E")]


def test_s2_8a_direct_kong_discarder_already_won() -> None:
    r = base()
    r["events"].insert(1, kong("E", "8p", "direct", "S"))
    assert errors(r) == [("§2.8A", "S")]


# N holds 567m 678m 678s 8s and a direct kong of 9m (10 + 3 = 13 tiles), then self-draws 8s.
# A wrong discarder of the kong's tile is the only problem: the meld is still N's, so N's
# win is not also a §2.1 "10 tiles" / §4 "no legal hand" error.
@pytest.mark.parametrize("ruleset, clause", [("ottawa-2009", "§2.8A"), ("sichuan-jipin", "J6"),
                                             ("sichuan-novel", "V5"),
                                             ("chengdu-platform", "C4")])
@pytest.mark.parametrize("before, discarder, cited", [
    ([], "N", "N"),  # N kongs its own discard
    ([win("S", "4m", "E")], "S", "S"),  # S has already won and discards nothing
])
def test_s2_8a_bad_discarder_keeps_the_kong_in_the_owners_hand(
        ruleset: str, clause: str, before: list[dict[str, Any]], discarder: str,
        cited: str) -> None:
    r = base()
    r["ruleset"] = ruleset
    r["seats"]["N"]["concealed"] = "567m678m678s8s"
    r["events"] = [*before, kong("N", "9m", "direct", "E"), win("N", "8s")]
    r["wall_exhausted"] = True
    assert errors(r) == []
    r["events"][-2]["from"] = discarder
    assert errors(r) == [(clause, cited)]


# --------------------------------------------------------------------------- §2.7 / §2.9


def test_s2_7_self_drawn_win_by_several_seats() -> None:
    r = base()
    r["seats"]["N"]["concealed"] = "345567789m6783s"  # N also completes on 3s
    r["events"] = [r["events"][0], win(["W", "N"], "3s")]
    errs = errors(r)
    assert [c for c, _ in errs] == ["§2.7"]
    assert errs[0][1] in (None, "W", "N")


def test_s2_9_robbing_a_seat_without_that_pong() -> None:
    r = base()
    r["events"][0]["flags"] = ["robbing_kong"]  # E holds no pong of 4m
    assert errors(r) == [("§2.9", "E")]


# --------------------------------------------------------------------------- §5.4 / §5.5


def test_s5_4_kong_bloom_on_a_discard_win() -> None:
    r = base()
    r["events"][0]["flags"] = ["kong_bloom"]
    assert errors(r) == [("§5.4", "S")]


def test_s5_4_kong_bloom_without_own_kong_just_before() -> None:
    r = base()
    r["events"][1]["flags"] = ["kong_bloom"]  # the event before is S's win
    assert errors(r) == [("§5.4", "W")]
    r = base()
    r["events"].insert(1, kong("E", "8p", "concealed"))  # a kong, but not W's
    r["events"][2]["flags"] = ["kong_bloom"]
    assert errors(r) == [("§5.4", "W")]


def test_s5_5_kong_discard_on_a_self_drawn_win() -> None:
    r = base()
    r["events"][1]["flags"] = ["kong_discard"]
    errs = errors(r)
    assert [c for c, _ in errs] == ["§5.5"] and errs[0][1] in (None, "W")


def test_s5_5_kong_discard_without_discarders_kong_just_before() -> None:
    r = base()
    r["events"][2]["flags"] = ["kong_discard"]  # the event before is W's win, not E's kong
    errs = errors(r)
    assert [c for c, _ in errs] == ["§5.5"] and errs[0][1] in ("E", "N")
    r = base()
    r["events"].insert(2, kong("E", "8p", "concealed"))
    r["events"][3]["flags"] = ["kong_discard"]  # now E's own kong is just before: fine
    assert errors(r) == []


# --------------------------------------------------------------------------- §4.7b


def heavenly() -> dict[str, Any]:
    return golden("heavenly_and_tied_readings")


def test_s4_7b_heavenly_needs_the_dealer() -> None:
    r = heavenly()
    r["dealer"] = "S"
    assert errors(r) == [("§4.7b", "E")]


def test_s4_7b_heavenly_needs_a_self_drawn_win() -> None:
    r = heavenly()
    r["events"][0]["from"] = "N"
    assert errors(r) == [("§4.7b", "E")]


def test_s4_7b_heavenly_needs_the_first_event() -> None:
    r = heavenly()
    r["events"] = [r["events"][1], r["events"][0], r["events"][2]]
    assert errors(r) == [("§4.7b", "E")]


def test_s4_7b_heavenly_without_melds() -> None:
    r = heavenly()
    r["seats"]["E"] = {"concealed": "123456789m5p", "pongs": ["3p"]}
    assert errors(r) == [("§4.7b", "E")]
    r["events"][0]["flags"] = []
    assert errors(r) == []  # the same hand is a fine win without the flag


def earthly() -> dict[str, Any]:
    return golden("earthly")


def test_s4_7b_earthly_not_for_the_dealer() -> None:
    r = earthly()
    r["dealer"] = "S"
    assert errors(r) == [("§4.7b", "S")]


def test_s4_7b_earthly_wins_alone() -> None:
    r = earthly()
    r["events"] = [win(["W", "N"], "5p", "E", ["earthly"]), win("S", "5s", "E")]
    assert errors(r) == [("§4.7b", "N"), ("§4.7b", "W")]


def test_s4_7b_earthly_without_melds() -> None:
    r = earthly()
    r["seats"]["S"] = {"concealed": "123456789m5s", "pongs": ["3s"]}
    assert errors(r) == [("§4.7b", "S")]


def test_s4_7b_earthly_after_a_kong() -> None:
    r = earthly()
    r["seats"]["W"]["concealed"] = "1123455678p"  # W's 999p becomes a concealed kong
    r["events"].insert(0, kong("W", "9p", "concealed"))
    assert errors(r) == [("§4.7b", "S")]
    r["events"][1]["flags"] = []
    assert errors(r) == []


# --------------------------------------------------------------------------- §2.15


@pytest.mark.parametrize(("passed", "ok"), [(0, True), (3, True), (4, False), (5, False)])
def test_s2_15_passed_win_needs_more_fan(passed: int, ok: bool) -> None:
    r = base()
    r["events"][0]["passed_fan"] = passed  # S's win is 4 fan (worked example 3)
    assert errors(r) == ([] if ok else [("§2.15", "S")])


def test_s2_15_not_checked_on_self_drawn_wins() -> None:
    r = base()
    r["events"][1]["passed_fan"] = 9  # W self-draws 1 fan: §2.15 limits discard wins only
    assert errors(r) == []


# --------------------------------------------------------------------------- all at once


def test_every_problem_is_reported_at_once() -> None:
    r = base()
    r["seats"]["E"]["concealed"] = "11111222333p44p"  # §1
    r["seats"]["N"]["concealed"] = "345567m789p678s8s"  # §2.4
    r["events"][1]["flags"] = ["kong_bloom"]  # §5.4
    r["events"][0]["passed_fan"] = 6  # §2.15
    r["events"].append(win("E", "6p"))  # §2.5: after the hand is over
    assert errors(r) == [("§1", None), ("§2.15", "S"), ("§2.4", "N"), ("§2.5", None),
                         ("§5.4", "W")]


# --------------------------------------------------------------------------- unreadable


def _field_of(record: Any) -> str:
    with pytest.raises(RecordError) as exc:
        HandRecord.from_dict(record)
    assert exc.value.field in str(exc.value)
    assert exc.value.problem
    return exc.value.field


def test_input_from_on_added_or_concealed_kong() -> None:
    for kind in ("added", "concealed"):
        r = base()
        r["events"].insert(0, kong("E", "8p", kind, "S"))
        assert _field_of(r) == "events[0].from"


def test_input_direct_kong_without_from() -> None:
    r = base()
    r["events"].insert(0, kong("E", "8p", "direct"))
    assert _field_of(r) == "events[0].from"


def test_input_empty_seats_list() -> None:
    r = base()
    r["events"][1]["seats"] = []
    assert _field_of(r) == "events[1].seats"


def test_input_unknown_type_kind_flag() -> None:
    r = base()
    r["events"][0]["type"] = "chow"
    assert _field_of(r) == "events[0].type"
    r = base()
    r["events"].insert(0, kong("E", "8p", "hidden"))
    assert _field_of(r) == "events[0].kind"
    r = base()
    r["events"][2]["flags"] = ["kong_bloom", "declared_ready"]  # a zigong-3p flag
    assert _field_of(r).startswith("events[2].flags")


@pytest.mark.parametrize("key", ["format", "ruleset", "seats", "events"])
def test_input_required_fields(key: str) -> None:
    r = base()
    del r[key]
    assert _field_of(r) == key


@pytest.mark.parametrize(("path", "value", "field"), [
    (("seats", "E", "concealed"), "123x4m", "seats.E.concealed"),
    (("seats", "E", "concealed"), "1234", "seats.E.concealed"),
    (("seats", "E", "concealed"), 1234, "seats.E.concealed"),
    (("seats", "E", "pongs"), ["12p"], "seats.E.pongs[0]"),
    (("seats", "E", "pongs"), "1p", "seats.E.pongs"),
    (("events", 0, "tile"), "44m", "events[0].tile"),
    (("events", 0, "tile"), "", "events[0].tile"),
    (("events", 0, "from"), "X", "events[0].from"),
    (("events", 0, "seats"), ["S", "Q"], "events[0].seats[1]"),
    (("events", 0, "passed_fan"), -1, "events[0].passed_fan"),
    (("events", 0, "passed_fan"), "2", "events[0].passed_fan"),
    (("wall_exhausted",), "yes", "wall_exhausted"),
    (("dealer",), "X", "dealer"),
    (("format",), "sichuan-hand/2", "format"),
    (("ruleset",), "mars-1999", "ruleset"),
])
def test_input_bad_values_name_the_field(path: tuple[Any, ...], value: Any, field: str) -> None:
    r = base()
    target = r
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    assert _field_of(r) == field


def test_input_missing_seat_and_unknown_seat() -> None:
    r = base()
    del r["seats"]["N"]
    assert _field_of(r) == "seats.N"
    r = base()
    r["seats"]["X"] = {"concealed": "1m"}
    assert _field_of(r) == "seats.X"


def test_input_not_an_object() -> None:
    with pytest.raises(RecordError):
        HandRecord.from_dict(["not", "a", "record"])
    with pytest.raises(RecordError):
        HandRecord.from_json("{not json")


def test_defaults_and_null_from() -> None:
    """Defaults: dealer E, pongs [], wall_exhausted false; ``"from": null`` = no from."""
    r = base()
    del r["dealer"], r["wall_exhausted"]
    for s in r["seats"].values():
        del s["pongs"]
    rec = HandRecord.from_dict(r)
    assert rec.dealer == "E" and rec.wall_exhausted is False
    assert all(s.pongs == () for s in rec.seats)
    r2 = base()
    r2["events"][1]["from"] = None
    assert settle(HandRecord.from_dict(r2)).to_dict()["payments"] == \
        settle(HandRecord.from_dict(base())).to_dict()["payments"]


def test_chinese_suits_and_spaces_in_records() -> None:
    r = base()
    r["seats"]["W"]["concealed"] = "123 456 789条 234筒 3索"
    r["events"][2]["tile"] = "8条"
    assert settle(HandRecord.from_dict(r)).to_dict()["totals"] == \
        settle(HandRecord.from_dict(base())).to_dict()["totals"]


def test_identification_fields_carried_through_and_unknown_fields_accepted() -> None:
    """hand-format.md: table/round/hand_no/referee/note are carried through untouched;
    "add fields freely" — an unknown field does not make a record unreadable."""
    r = base()
    extra = {"table": 3, "round": 2, "hand_no": 7, "referee": "Mme Tremblay",
             "note": "E claimed 杠上花, ruled a plain self-draw"}
    r.update(extra)
    r["app_version"] = "0.1"
    rec = HandRecord.from_dict(r)
    again = rec.to_dict()
    for k, v in extra.items():
        assert again[k] == v
    d = settle(rec).to_dict()
    assert d["ok"] is True
    for k, v in extra.items():
        assert d.get(k, v) == v  # if the settlement echoes them, it echoes them unchanged
