"""Club rulesets (issue 15): ruleset files, their checks, and the club switches.

Every expected number below is worked by hand from the clause texts of the example files
in ``sample_events/`` (the comment of each case says how); none was taken from the engine.
Unwon seats with no tiles are 相公 at the end check: not ready, no flower pig, so they add
no payment unless a case says otherwise.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.cli import main as cli_main
from referee_app.core import (
    HandRecord,
    RecordError,
    Ruleset,
    RulesetFileError,
    diff_rulesets,
    get_ruleset,
    next_dealer,
    payment_kind,
    ruleset_ids,
    settle,
)
from referee_app.core.ruleset_file import (
    format_ruleset_json,
    nearest_shipped,
    ruleset_from_data,
    ruleset_from_file,
)

ROOT = Path(__file__).resolve().parents[2]
CLUB32 = ROOT / "sample_events" / "club-ottawa-32.ruleset.json"
SWITCHES = ROOT / "sample_events" / "club-switches.ruleset.json"
DATA = ROOT / "referee_app" / "data" / "rulesets"


def _data(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def record(ruleset: str, east: str, events: list[dict[str, Any]], *, east_pongs: tuple = (),
           south: str = "", west: str = "", north: str = "", wall: bool = True) -> dict[str, Any]:
    return {"format": "sichuan-hand/1", "ruleset": ruleset, "dealer": "E",
            "seats": {"E": {"concealed": east, "pongs": list(east_pongs)},
                      "S": {"concealed": south}, "W": {"concealed": west},
                      "N": {"concealed": north}},
            "events": events, "wall_exhausted": wall}


def run(rules: Ruleset, rec: dict[str, Any]) -> dict[str, Any]:
    return settle(HandRecord.from_dict(rec, rules), rules).to_dict()


def pays(s: dict[str, Any]) -> list[tuple[str, str, int, str]]:
    return [(p["from"], p["to"], p["chips"], p["clause"]) for p in s["payments"]]


def bonuses(s: dict[str, Any], i: int = 0) -> list[tuple[str, str, int]]:
    return [(b["name"], b["clause"], b["fan"]) for b in s["wins"][i]["bonuses"]]


@pytest.fixture(scope="module")
def switches() -> Ruleset:
    return ruleset_from_file(SWITCHES)


@pytest.fixture(scope="module")
def club32() -> Ruleset:
    return ruleset_from_file(CLUB32)


def _variant(path: Path, change: Any) -> Ruleset:
    d = _data(path)
    change(d)
    return ruleset_from_data(d)


SELF_DRAW = [{"type": "win", "seats": ["E"], "tile": "5p"}]
PLAIN = "123m456m789m234p5p"  # + 5p: 123m 456m 789m 234p 55p, plain (§4.1), 1 and 9 held


# --------------------------------------------------------------------------- the switches


def test_self_drawn_fan_and_concealed_hand(switches: Ruleset) -> None:
    """自摸加番 §6.1 + 门清 §6.4: 基本和 1 + 1 + 1 = 3 fan = 4 chips from each unwon seat."""
    s = run(switches, record("club-switches", PLAIN, SELF_DRAW))
    assert s["ok"], s["errors"]
    assert bonuses(s) == [("自摸", "§6.1", 1), ("门清", "§6.4", 1)]
    assert s["wins"][0]["fan"] == 3 and s["wins"][0]["chips"] == 4
    assert pays(s) == [(x, "E", 4, "§2.7") for x in "SWN"]
    assert "§6.1 E: 自摸 +1 fan" in s["trace"]


def test_all_simples_on_a_discard(switches: Ruleset) -> None:
    """中张 §6.5 + 门清, no 自摸 on a discard: 234m 456m 678m 33p 666p = 1 + 1 + 1 = 3 fan."""
    s = run(switches, record("club-switches", "234m456m678m3366p",
                             [{"type": "win", "seats": ["E"], "tile": "6p", "from": "S"}]))
    assert s["ok"], s["errors"]
    assert bonuses(s) == [("门清", "§6.4", 1), ("中张", "§6.5", 1)]
    assert pays(s) == [("S", "E", 4, "§2.6")]


def test_golden_hook_as_a_bonus(switches: Ruleset) -> None:
    """金钩钓 §6.2: pongs 2m 4m 6p 8p, one 6m left, wins on 6m: 对子和 2 + 金钩钓 1 + 中张 1
    = 4 fan = 8 chips; pongs, so no 门清."""
    s = run(switches, record("club-switches", "6m",
                             [{"type": "win", "seats": ["E"], "tile": "6m", "from": "S"}],
                             east_pongs=("2m", "4m", "6p", "8p")))
    assert s["ok"], s["errors"]
    w = s["wins"][0]
    assert (w["pattern"], w["pattern_clause"], w["pattern_fan"]) == ("对子和", "§4.2", 2)
    assert bonuses(s) == [("金钩钓", "§6.2", 1), ("中张", "§6.5", 1)]
    assert pays(s) == [("S", "E", 8, "§2.6")]


def test_golden_hook_as_a_pattern() -> None:
    """金钩钓 as a 4-fan pattern row (no bonus): the same hand is 金钩钓 4 + 中张 1 = 5 fan
    = 16 chips; a plain hand is untouched."""
    def as_pattern(d: dict[str, Any]) -> None:
        del d["bonuses"]["single_wait"]
        d["patterns"].append({"clause": "§6.2", "name": "金钩钓", "name_en": "Golden hook",
                              "fan": 4, "requires": ["single_wait"]})
    rules = _variant(SWITCHES, as_pattern)
    s = run(rules, record("club-switches", "6m",
                          [{"type": "win", "seats": ["E"], "tile": "6m", "from": "S"}],
                          east_pongs=("2m", "4m", "6p", "8p")))
    w = s["wins"][0]
    assert (w["pattern"], w["pattern_clause"], w["fan"], w["chips"]) == ("金钩钓", "§6.2", 5, 16)
    assert bonuses(s) == [("中张", "§6.5", 1)]
    plain = run(rules, record("club-switches", PLAIN, SELF_DRAW))
    assert plain["wins"][0]["pattern"] == "基本和" and plain["wins"][0]["fan"] == 3


def test_last_tile_self_drawn_and_on_a_discard(switches: Ruleset) -> None:
    """海底捞月: 1 + 自摸 + 海底 + 门清 = 4 fan = 8 each; 海底炮: 1 + 海底 + 门清 + 中张 = 8."""
    flagged = [{"type": "win", "seats": ["E"], "tile": "5p", "flags": ["last_tile"]}]
    s = run(switches, record("club-switches", PLAIN, flagged))
    assert bonuses(s) == [("自摸", "§6.1", 1), ("海底", "§6.3", 1), ("门清", "§6.4", 1)]
    assert pays(s) == [(x, "E", 8, "§2.7") for x in "SWN"]
    s = run(switches, record("club-switches", "234m456m678m3366p", [
        {"type": "win", "seats": ["E"], "tile": "6p", "from": "S", "flags": ["last_tile"]}]))
    assert bonuses(s) == [("海底", "§6.3", 1), ("门清", "§6.4", 1), ("中张", "§6.5", 1)]
    assert pays(s) == [("S", "E", 8, "§2.6")]


def test_last_tile_needs_the_walls_end(switches: Ruleset) -> None:
    """The flag on a win that is not the hand's last event, with the wall not exhausted."""
    events = [{"type": "win", "seats": ["E"], "tile": "5p", "flags": ["last_tile"]},
              {"type": "win", "seats": ["S"], "tile": "9s"}]
    s = run(switches, record("club-switches", PLAIN, events, south="1112223334449s", wall=False))
    assert not s["ok"]
    msgs = [e["message"] for e in s["errors"] if e["clause"] == "§6.3"]
    assert any("wall_exhausted is not set" in m for m in msgs)
    assert any("event 2 comes after it" in m for m in msgs)


def test_last_tile_is_unknown_where_not_switched_on() -> None:
    rec = record("ottawa-2009", PLAIN, [{"type": "win", "seats": ["E"], "tile": "5p",
                                         "flags": ["last_tile"]}])
    with pytest.raises(RecordError, match=r"events\[0\]\.flags\[0\]: unknown flag 'last_tile'"):
        HandRecord.from_dict(rec)


def test_self_drawn_extra_chips() -> None:
    """自摸加底 §6.1 instead of 自摸加番: 基本和 1 + 门清 1 = 2 fan = 2 chips, and each payer
    pays 1 more (cited §6.1); at stake 2 both amounts double."""
    def extra_chip(d: dict[str, Any]) -> None:
        del d["bonuses"]["self_drawn"]
        d["win_payments"]["self_drawn_extra"] = {"clause": "§6.1", "chips": 1}
        d["clauses"]["§6.1"]["title_zh"] = "自摸加底"
    rules = _variant(SWITCHES, extra_chip)
    s = run(rules, record("club-switches", PLAIN, SELF_DRAW))
    assert s["wins"][0]["fan"] == 2
    assert pays(s) == ([(x, "E", 2, "§2.7") for x in "SWN"]
                       + [(x, "E", 1, "§6.1") for x in "SWN"])
    assert s["totals"] == {"E": 9, "S": -3, "W": -3, "N": -3}
    assert "§6.1 E's self-draw adds 1 per payer (自摸加底); S, W, N pay 1 each" in s["trace"]
    assert payment_kind("§6.1", rules) == "win"
    staked = rules.with_settings(stake=2)
    s2 = settle(HandRecord.from_dict(record("club-switches", PLAIN, SELF_DRAW), staked), staked)
    assert [p.chips for p in s2.payments] == [4, 4, 4, 2, 2, 2]
    discard = run(rules, record("club-switches", "234m456m678m3366p",
                                [{"type": "win", "seats": ["E"], "tile": "6p", "from": "S"}]))
    assert pays(discard) == [("S", "E", 4, "§2.6")]  # 中张 + 门清, no extra on a discard


def test_hand_features_count_in_the_ready_check(switches: Ruleset) -> None:
    """W 234m 456m 678m 3366p is ready on 3p/6p: plain 1 + 门清 1 + 中张 1 = 3 (自摸 and
    海底 never count), so the 相公 seats S and N pay W chips(3) = 4 each (§2.12)."""
    s = run(switches, record("club-switches", PLAIN, SELF_DRAW, west="234m456m678m3366p"))
    assert s["ok"], s["errors"]
    assert s["end_check"]["ready"]["W"] == {"ready": True, "max_fan": 3, "waits": ["3p", "6p"]}
    assert pays(s) == ([(x, "E", 4, "§2.7") for x in "SWN"]
                       + [("S", "W", 4, "§2.12"), ("N", "W", 4, "§2.12")])
    assert s["totals"] == {"E": 12, "S": -8, "W": 4, "N": -8}


def test_fan_cap_and_flower_pig_of_the_club_example(club32: Ruleset) -> None:
    """club-ottawa-32: 1111 2222 33 55 66m self-drawn = 清一色带暗七对 5 + 根 2 = 7, capped at
    6 = 32 chips each; S (9m 2p 3s, three suits) is a flower pig paying 32 to E, W, N.
    Under ottawa-2009 the same hand is 64 each and the pig pays 16."""
    events = [{"type": "win", "seats": ["E"], "tile": "6m"}]
    s = run(club32, record("club-ottawa-32", "11112222m3355m6m", events, south="9m2p3s"))
    w = s["wins"][0]
    assert (w["pattern_clause"], w["fan"], w["chips"]) == ("§4.9", 6, 32)
    assert "capped from 7" in s["trace"][0]
    assert pays(s) == ([(x, "E", 32, "§2.7") for x in "SWN"]
                       + [("S", x, 32, "§2.11") for x in "EWN"])
    assert s["totals"] == {"E": 128, "S": -128, "W": 0, "N": 0}
    o = settle(HandRecord.from_dict(record("ottawa-2009", "11112222m3355m6m", events,
                                           south="9m2p3s"))).to_dict()
    assert o["wins"][0]["chips"] == 64 and o["totals"]["S"] == -64 - 48


def test_club_clause_texts_are_cited(club32: Ruleset, switches: Ruleset) -> None:
    assert "32" in club32.clause("§2.11").zh and "六番" in club32.clause("§3").zh
    for cid in ("§6.1", "§6.2", "§6.3", "§6.4", "§6.5"):
        c = switches.clause(cid)
        assert c.zh and c.en and c.reading, cid


def test_next_dealer_and_breakdown_under_a_club_ruleset(switches: Ruleset) -> None:
    rec = HandRecord.from_dict(record("club-switches", PLAIN, SELF_DRAW), switches)
    s = settle(rec, switches)
    assert next_dealer(rec, s, switches) == "E"
    assert s.breakdown("E", switches)["S"] == {"win": 4, "ready": 0, "kong": 0, "other": 0}


# --------------------------------------------------------------------------- files


@pytest.mark.parametrize("rid", ruleset_ids())
def test_shipped_rulesets_are_ruleset_files(rid: str) -> None:
    """Each shipped file is exactly what ``rulesets export`` writes, and passes the checks."""
    text = (DATA / f"{rid}.json").read_text(encoding="utf-8")
    r = ruleset_from_data(json.loads(text), source=f"{rid}.json")
    assert format_ruleset_json(r.to_data()) == text
    assert r.digest() == get_ruleset(rid).digest()


@pytest.mark.parametrize("rid", ruleset_ids())
def test_export_round_trip_settles_identically(rid: str) -> None:
    """Exported and re-read, a shipped ruleset settles 2,000 generated records (those that
    break rules included) exactly as the shipped id does."""
    from referee_app.core.generate import random_records

    shipped = get_ruleset(rid)
    club = ruleset_from_data(json.loads(format_ruleset_json(shipped.to_data())))
    assert club is not shipped and club.digest() == shipped.digest()
    for rec in random_records(2000, 15, rid, check=False):
        a = settle(HandRecord.from_dict(rec))
        b = settle(HandRecord.from_dict(rec, club), club)
        assert a == b, (rid, rec)


def test_digest_is_canonical_and_follows_every_change() -> None:
    d = _data(CLUB32)
    r = ruleset_from_data(d)
    reordered = dict(reversed(list(d.items())))
    assert ruleset_from_data(reordered).digest() == r.digest()
    assert len(r.digest()) == 64 and int(r.digest(), 16) >= 0
    d2 = copy.deepcopy(d)
    d2["clauses"]["§2.11"]["en"] += " "
    assert ruleset_from_data(d2).digest() != r.digest()
    assert r.with_settings(stake=2).digest() != r.digest()


def test_diff_lists_every_difference(club32: Ruleset) -> None:
    diffs = {p: (a, b) for p, a, b in diff_rulesets(get_ruleset("ottawa-2009"), club32)}
    assert diffs["end_check.flower_pig.chips"] == (16, 32)
    assert diffs["chips.cap_fan"] == (None, 6)
    rules_part = {p for p in diffs if not p.startswith("clauses.")}
    assert rules_part == {"id", "name", "name_zh", "source", "spec", "based_on",
                          "chips.cap_fan", "chips.cap_name", "chips.cap_clause",
                          "end_check.flower_pig.chips"}
    assert nearest_shipped(club32)[0] == "ottawa-2009"
    assert diff_rulesets(club32, club32) == []


# --------------------------------------------------------------------------- errors


def _error(change: Any, path: Path = CLUB32) -> RulesetFileError:
    d = _data(path)
    change(d)
    with pytest.raises(RulesetFileError) as e:
        ruleset_from_data(d, source="club.json")
    return e.value


def test_schema_error_names_path_and_range() -> None:
    e = _error(lambda d: d["patterns"][3].update(fan=14))
    assert (e.field, e.problem) == ("patterns[3].fan", "must be a whole number from 0 to 13")
    assert str(e) == "club.json: patterns[3].fan: must be a whole number from 0 to 13"
    assert isinstance(e, RecordError)


def test_schema_error_minimum() -> None:
    e = _error(lambda d: d["end_check"]["flower_pig"].update(chips=-1))
    assert (e.field, e.problem) == ("end_check.flower_pig.chips", "must be ≥ 0")


def test_schema_error_unknown_field() -> None:
    e = _error(lambda d: d["chips"].update(fan_cap=6))
    assert e.field == "chips.fan_cap" and e.problem.startswith("unknown field")


def test_consistency_error_clause_without_text() -> None:
    e = _error(lambda d: d["clauses"].pop("§2.11"))
    assert (e.field, e.problem) == ("clauses",
                                    "§2.11 is cited by end_check.flower_pig but has no text")


def test_consistency_error_switches_that_exclude_each_other() -> None:
    e = _error(lambda d: d["win_payments"].update(
        self_drawn_extra={"clause": "§6.1", "chips": 1}), SWITCHES)
    assert e.field == "win_payments.self_drawn_extra" and "alternatives" in e.problem


def test_consistency_error_bonus_without_its_flag() -> None:
    e = _error(lambda d: d["flags"].remove("last_tile"), SWITCHES)
    assert e.field == "validation_clauses" or e.field == "bonuses.last_tile"
    assert "last_tile" in e.problem


def test_bad_files_are_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(RulesetFileError, match=r"bad\.json: not valid JSON"):
        ruleset_from_file(bad)
    with pytest.raises(RulesetFileError, match="cannot read it"):
        ruleset_from_file(tmp_path / "missing.json")


# --------------------------------------------------------------------------- CLI


def test_cli_export_check_rules_and_score(tmp_path: Path) -> None:
    cli = CliRunner()
    out = tmp_path / "club.json"
    r = cli.invoke(cli_main, ["rulesets", "export", "ottawa-2009", "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_text(encoding="utf-8") == (DATA / "ottawa-2009.json").read_text("utf-8")
    r = cli.invoke(cli_main, ["rulesets", "check", str(CLUB32)])
    assert r.exit_code == 0 and ruleset_from_file(CLUB32).digest() in r.output
    r = cli.invoke(cli_main, ["rules", "--file", str(CLUB32), "--diff", "ottawa-2009"])
    assert r.exit_code == 0
    assert "  end_check.flower_pig.chips: 16 -> 32" in r.output.splitlines()
    line = next(x for x in r.output.splitlines() if x.startswith("  clauses.§2.11.en: "))
    assert "pay 16 chips" in line.split(" -> ")[0] and "pay 32 chips" in line.split(" -> ")[1]
    r = cli.invoke(cli_main, ["rules", "--file", str(CLUB32), "--clause", "§3"])
    assert r.exit_code == 0 and "六番封顶" in r.output
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(record("club-ottawa-32", "11112222m3355m6m",
                                      [{"type": "win", "seats": ["E"], "tile": "6m"}])))
    r = cli.invoke(cli_main, ["score", str(hand), "--json", "--ruleset-file", str(CLUB32)])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["wins"][0]["chips"] == 32


def test_cli_refuses_bad_ruleset_files(tmp_path: Path) -> None:
    cli = CliRunner()
    d = _data(CLUB32)
    d["patterns"][3]["fan"] = 14
    d["end_check"]["flower_pig"]["chips"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(d, ensure_ascii=False), encoding="utf-8")
    r = cli.invoke(cli_main, ["rulesets", "check", str(bad)])
    assert r.exit_code == 2
    assert "  end_check.flower_pig.chips: must be ≥ 0" in r.output
    assert "  patterns[3].fan: must be a whole number from 0 to 13" in r.output
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(record("ottawa-2009", PLAIN, SELF_DRAW)))
    r = cli.invoke(cli_main, ["score", str(hand), "--ruleset-file", str(bad)])
    assert r.exit_code == 2 and "bad.json: end_check.flower_pig.chips: must be ≥ 0" in r.output
    r = cli.invoke(cli_main, ["score", str(hand), "--ruleset-file", str(CLUB32)])
    assert r.exit_code == 2
    assert "ruleset: the record is under 'ottawa-2009', but the ruleset given is " \
           "'club-ottawa-32'" in r.output


# --------------------------------------------------------------------------- property


def _records(rid: str) -> list[dict[str, Any]]:
    from referee_app.core.generate import random_records

    if rid not in _RECORDS:
        _RECORDS[rid] = random_records(40, 2024, rid, check=False)
    return _RECORDS[rid]


_RECORDS: dict[str, list[dict[str, Any]]] = {}


@st.composite
def club_rulesets(draw: st.DrawFn) -> dict[str, Any]:
    """A shipped ruleset with amounts, cap, stake and switches drawn from their ranges."""
    rid = draw(st.sampled_from(ruleset_ids()))
    d = get_ruleset(rid).to_data()
    d["id"] = "club-random"
    fan = st.integers(0, 4)
    cap = draw(st.none() | st.integers(1, 13))
    d["chips"].update(stake=draw(st.integers(1, 5)), cap_fan=cap, zero_based=draw(st.booleans()))
    d["pattern_mode"] = draw(st.sampled_from(["highest", "additive"]))
    if cap is None:
        d["chips"].update(cap_name=None, cap_clause=None)
    for p in d["patterns"]:
        p["fan"] = draw(st.integers(0, 8))
    d["bonuses"]["root"]["fan"] = draw(fan)
    for v in d["kong_payments"].values():
        v["chips"] = draw(st.integers(0, 4))
    clause = d["win_payments"]["self_drawn"]
    extras = draw(st.sets(st.sampled_from(
        ["self_drawn", "single_wait", "concealed_hand", "all_simples", "single_wait_row",
         "last_tile"])))
    for k in extras - {"single_wait_row"}:
        d["bonuses"][k] = {"clause": clause, "name": k, "name_en": k, "fan": draw(fan)}
    if "last_tile" in extras:
        d["flags"].append("last_tile")
        d["validation_clauses"]["last_tile"] = clause
    if "single_wait_row" in extras and "single_wait" not in extras:
        d["patterns"].append({"clause": clause, "name": "金钩钓", "fan": draw(st.integers(0, 8)),
                              "requires": ["single_wait"]})
    if "self_drawn" not in extras and draw(st.booleans()):
        d["win_payments"]["self_drawn_extra"] = {"clause": clause, "chips": draw(st.integers(1, 3))}
    d["win_payments"]["bloom_after_direct_kong_paid_by_discarder"] = draw(st.booleans())
    d["robbed_kong"]["redirect_tax"] = draw(st.booleans())
    ec = d["end_check"]
    if ec:
        if "flower_pig" in ec:
            ec["flower_pig"].update(chips=draw(st.integers(0, 64)),
                                    pays_ready_check=draw(st.booleans()))
        for part in ("price_difference", "refund"):
            if draw(st.booleans()):
                ec.pop(part, None)
    return d


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(club_rulesets())
def test_random_club_rulesets_settle_zero_sum_and_deterministically(d: dict[str, Any]) -> None:
    rules = ruleset_from_data(d)
    again = ruleset_from_data(json.loads(json.dumps(d)))
    base = next(r for r in ruleset_ids() if get_ruleset(r).seats == rules.seats
                and get_ruleset(r).flags <= rules.flags and d["patterns"][0]["clause"]
                == get_ruleset(r).patterns[0].clause)
    for raw in _records(base):
        rec = dict(raw, ruleset="club-random")
        last = rec["events"][-1] if rec["events"] else None
        if "last_tile" in rules.flags and rec["wall_exhausted"] and last and last["type"] == "win":
            rec["events"] = [*rec["events"][:-1],
                             dict(last, flags=[*last.get("flags", []), "last_tile"])]
        s = settle(HandRecord.from_dict(rec, rules), rules)
        if s.ok:
            assert sum(s.totals.values()) == 0
            assert all(p.chips > 0 for p in s.payments)
        assert settle(HandRecord.from_dict(rec, again), again).to_dict() == s.to_dict()


def test_club_trace_lines_have_chinese(switches: Ruleset) -> None:
    """The 自摸加底 line and the new bonus lines render in 中文 like every other line."""
    from referee_app.core.wording import reason_text, step_text

    def extra_chip(d: dict[str, Any]) -> None:
        del d["bonuses"]["self_drawn"]
        d["win_payments"]["self_drawn_extra"] = {"clause": "§6.1", "chips": 1}
    rules = _variant(SWITCHES, extra_chip)
    s = settle(HandRecord.from_dict(record("club-switches", PLAIN, [
        {"type": "win", "seats": ["E"], "tile": "5p", "flags": ["last_tile"]}]), rules), rules)
    zh = [step_text(x, "zh") for x in s.steps]
    assert "§6.1 东自摸加底：每家另付1；南、西、北各付1" in zh
    assert not [x for x in zh if "⟦" in x], zh
    assert reason_text(s.payments[-1], "zh") == "自摸加底 五筒"


@pytest.mark.parametrize("extra_chip", [False, True], ids=["zimo-fan", "zimo-chip"])
def test_generated_hands_under_the_club_switches(switches: Ruleset, extra_chip: bool) -> None:
    """500 generated hands under club-switches (and its 自摸加底 variant): all valid (the
    generator builds valid hands), zero-sum, every trace line in 中文, and the switches show."""
    from collections import Counter

    from referee_app.core.generate import random_records
    from referee_app.core.wording import step_text

    rules = switches
    if extra_chip:
        def chip(d: dict[str, Any]) -> None:
            del d["bonuses"]["self_drawn"]
            d["win_payments"]["self_drawn_extra"] = {"clause": "§6.1", "chips": 1}
        rules = _variant(SWITCHES, chip)
    seen: Counter[str] = Counter()
    for rec in random_records(500, 6, rules, check=False):
        assert rec["ruleset"] == "club-switches"
        s = settle(HandRecord.from_dict(rec, rules), rules)
        assert s.ok, (rec, s.errors)
        assert sum(s.totals.values()) == 0
        assert not [x for x in s.steps if "⟦" in step_text(x, "zh")], s.steps
        seen.update(b.name for w in s.wins for b in w.score.bonuses)
        seen.update(p.clause for p in s.payments)
    assert seen["门清"] and seen["中张"] and seen["金钩钓"]
    assert (seen["§6.1"] > 0) == extra_chip and (seen["自摸"] > 0) != extra_chip


def test_schema_names_what_the_engine_knows() -> None:
    """The published schema's lists are the engine's: a new switch cannot drift from it."""
    from referee_app.core import ruleset as rs
    from referee_app.core.ruleset_file import schema

    p = schema()["properties"]
    assert p["flags"]["items"]["enum"] == list(rs.KNOWN_FLAGS)
    assert p["validation_clauses"]["propertyNames"]["enum"] == list(rs.VALIDATION_CHECKS)
    assert p["patterns"]["items"]["properties"]["requires"]["items"]["enum"] == list(
        rs.PATTERN_FEATURES)
    assert list(p["bonuses"]["properties"]) == ["root", "kong", *rs.SITUATIONAL_KEYS]
    assert list(p["end_check"]["properties"]) == list(rs.END_CHECK_PARTS)
    assert set(p) == set(get_ruleset("ottawa-2009").to_data()) | {"source_note", "based_on"}
