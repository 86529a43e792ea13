"""Violations, trace steps and payment reasons are data, rendered from the catalogue.

The English rendering is what every stored settlement keeps, so it must stay exactly what
the engine wrote before its messages became codes (``fixtures/wording`` holds those lines,
written by the engine of then for every fixture); the 中文 comes from the same entries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from examples import spec_example

from referee_app.core import HandRecord, ruleset_ids, settle
from referee_app.core.generate import random_records
from referee_app.core.i18n import LANGS, keys_under, known
from referee_app.core.wording import reason_text, step_text, trace_key, violation_text

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
BEFORE = json.loads((FIXTURES / "wording" / "english_before_codes.json").read_text("utf-8"))


def _record(seats: dict[str, str], events: list[dict[str, Any]], *,
            exhausted: bool = False, dealer: str = "E") -> dict[str, Any]:
    """A record in tile notation (``"123m456p789s1122s"``), as the hand format writes it."""
    return {"format": "sichuan-hand/1", "ruleset": "ottawa-2009", "dealer": dealer,
            "seats": {s: {"concealed": c} for s, c in seats.items()},
            "events": events, "wall_exhausted": exhausted}


def test_english_is_what_the_engine_wrote_before_codes_on_every_fixture() -> None:
    assert len(BEFORE) > 100
    for rel, was in BEFORE.items():
        s = settle(HandRecord.from_dict(json.loads((FIXTURES / rel).read_text("utf-8"))
                                        ["record"]))
        assert list(s.trace) == was["trace"], rel
        assert [step_text(x, "en") for x in s.steps] == was["trace"], rel
        assert [p.reason for p in s.payments] == was["reasons"], rel
        assert [e.message for e in s.errors] == was["errors"], rel
        assert [violation_text(e.code, e.params, "en") for e in s.errors] == was["errors"]


def test_the_spec_example_reads_in_both_languages() -> None:
    s = settle(HandRecord.from_dict(spec_example()))
    en = [step_text(x, "en") for x in s.steps]
    zh = [step_text(x, "zh") for x in s.steps]
    assert en[0] == "§2.10 S declares a concealed kong of 9s; E, W, N are unwon and pay 2 each"
    assert zh[0] == "§2.10 南暗杠九条；未和的东、西、北各付2"
    assert "§2.6 西打出七筒点炮给北；西付北 1" in zh
    assert "§2.12 南下叫，叫一筒、四筒；最大2番" in zh
    assert "§2.11 西查花猪（三门齐全）；付东、南、北各16" in zh
    assert [reason_text(p, "zh") for p in s.payments][:4] == [
        "暗杠 九条", "暗杠 九条", "暗杠 九条", "点炮 七筒"]
    assert s.steps[0].kind == "concealed_kong" and s.steps[0].seat == "S"
    assert s.steps[0].tile == "9s" and s.steps[0].amount == 2


#: (seats in tile notation, events, wall exhausted) -> (code, English, 中文)
VIOLATIONS = [
    ({"E": "123m456m789m11p22p", "S": "123m", "W": "456p", "N": "789s"},
     [{"type": "win", "seats": ["E"], "tile": "2p", "from": "E"}], True,
     ("win_own_discard", "E cannot win on its own discard of 2p", "东 不能和自己打出的 2p")),
    ({"E": "123m456p789s11s223s", "S": "123m", "W": "456p", "N": "789s"},
     [{"type": "win", "seats": ["E"], "tile": "3s", "from": "S"}], True,
     ("false_win", "E's winning hand holds all three suits (false win, 诈和)",
      "东 的和牌三门齐全（诈和）")),
    ({"E": "123m456m789m11p22p", "S": "123m", "W": "456p", "N": "789s"},
     [{"type": "win", "seats": ["E", "S"], "tile": "2p"}], True,
     ("several_self_drawn",
      "a self-drawn win by several seats (E, S); only one seat can self-draw a tile",
      "多家同时自摸（东、南）；只有一家能自摸")),
    ({"E": "123m456m789m11p22p", "S": "123m", "W": "456p", "N": "789s"}, [], False,
     ("not_finished", "the hand is not finished: E, S, W, N are unwon and wall_exhausted is "
      "not set", "本局未结束：东、南、西、北 未和牌，且未勾选“流局/牌墙摸完”")),
]


@pytest.mark.parametrize(("seats", "events", "exhausted", "want"), VIOLATIONS,
                         ids=[v[3][0] for v in VIOLATIONS])
def test_a_violation_is_a_code_with_params_in_both_languages(
        seats: dict[str, str], events: list[dict[str, Any]], exhausted: bool,
        want: tuple[str, str, str]) -> None:
    s = settle(HandRecord.from_dict(_record(seats, events, exhausted=exhausted)))
    got = [e for e in s.errors if e.code == want[0]]
    assert got, [e.code for e in s.errors]
    v = got[0]
    assert v.message == want[1] == violation_text(v.code, v.params, "en")
    assert violation_text(v.code, v.params, "zh") == want[2]
    data = v.to_data()
    assert data["code"] == want[0] and data["message"] == want[1]
    assert v.to_dict() == {"clause": v.clause, "seat": v.seat, "message": want[1]}


def test_a_desk_names_seats_its_own_way() -> None:
    s = settle(HandRecord.from_dict(_record(
        {"E": "123m456m789m11p22p", "S": "123m", "W": "456p", "N": "789s"},
        [{"type": "win", "seats": ["E"], "tile": "2p", "from": "E"}], exhausted=True)))
    v = next(e for e in s.errors if e.code == "win_own_discard")
    assert violation_text(v.code, v.params, "zh", seat=lambda x: f"[{x}]") == \
        "[E] 不能和自己打出的 2p"


def _corpus() -> list[Any]:
    """Settlements of every fixture and of generated hands (valid and broken) per ruleset."""
    out = []
    for rel in BEFORE:
        out.append(settle(HandRecord.from_dict(
            json.loads((FIXTURES / rel).read_text("utf-8"))["record"])))
    for rid in ruleset_ids():
        for rec in random_records(120, 4, rid, check=False):
            out.append(settle(HandRecord.from_dict(rec)))
            broken = dict(rec, wall_exhausted=not rec.get("wall_exhausted", False),
                          events=rec["events"] + rec["events"][-1:])
            out.append(settle(HandRecord.from_dict(broken)))
    return out


def test_every_code_and_kind_met_has_both_texts_and_renders_without_a_gap() -> None:
    kinds, codes, reasons = set(), set(), set()
    for s in _corpus():
        for st in s.steps:
            kinds.add(trace_key(st.kind, st.all_params()))
            for lang in LANGS:
                assert "⟦" not in step_text(st, lang), st
        for e in s.errors:
            codes.add(e.code)
            for lang in LANGS:
                assert "⟦" not in violation_text(e.code, e.params, lang), e
        for p in s.payments:
            reasons.add(p.code)
            assert "⟦" not in reason_text(p, "zh"), p
    assert len(kinds) >= 15 and len(codes) >= 5 and len(reasons) >= 8
    for key in [*kinds, *(f"violation.{c}" for c in codes), *(f"reason.{c}" for c in reasons)]:
        assert all(known(key, lang) for lang in LANGS), key


def test_every_engine_key_has_both_texts_and_the_same_fields() -> None:
    import string

    def fields(s: str) -> set[str]:
        return {f for _, f, _, _ in string.Formatter().parse(s) if f}

    from referee_app.core.i18n import catalogue
    for prefix in ("violation.", "trace.", "reason."):
        keys = keys_under(prefix)
        assert keys == keys_under(prefix, "zh")
        for k in keys:
            en, zh = catalogue("en").gettext(prefix + k), catalogue("zh").gettext(prefix + k)
            assert fields(en) == fields(zh), k


def test_a_stored_line_is_shown_as_stored() -> None:
    from referee_app.core import TraceStep

    st = TraceStep.of_line("§9 a line an older engine wrote")
    assert st.clause == "§9"
    assert step_text(st, "zh") == step_text(st, "en") == "§9 a line an older engine wrote"


def test_the_json_data_carries_codes_beside_the_stored_words() -> None:
    s = settle(HandRecord.from_dict(spec_example()))
    d = s.data()
    assert {k: v for k, v in d.items() if k != "steps"} | {"errors": [], "payments": [
        {k: v for k, v in p.items() if not k.startswith("reason_")} for p in d["payments"]]} \
        == s.to_dict()
    assert d["steps"][0]["kind"] == "concealed_kong"
    assert d["steps"][0]["params"] == {"s": "S", "t": "9s", "n": 2, "p": ["E", "W", "N"]}
    assert d["steps"][0]["text"] == s.trace[0]
    assert d["payments"][0]["reason_code"] == "concealed_kong"


def test_every_shipped_reading_has_its_chinese_in_the_catalogue() -> None:
    from referee_app.core import get_ruleset
    from referee_app.core.i18n import text
    from referee_app.core.wording import reading_text

    n = 0
    for rid in ruleset_ids():
        rules = get_ruleset(rid)
        for cid in rules.clauses:
            c = rules.clause(cid)
            if not c.reading:
                continue
            n += 1
            assert text(f"reading.{rid}.{cid}", "en") == c.reading, (rid, cid)
            zh = reading_text(rid, cid, c.reading, "zh")
            assert zh and zh != c.reading and "⟦" not in zh, (rid, cid)
            assert reading_text(rid, cid, c.reading, "en") == c.reading
    assert n >= 70
    # a club's file that rewords a Reading under a shipped id keeps its own words
    assert reading_text("ottawa-2009", "§3", "our own reading", "zh") == "our own reading"


def test_the_rules_command_prints_the_chinese_reading() -> None:
    from click.testing import CliRunner

    from referee_app.cli import main

    res = CliRunner().invoke(main, ["rules", "ottawa-2009"])
    assert res.exit_code == 0
    assert "  解读: 规则释义：筹码(番数) = 2^(番数−1)" in res.output
