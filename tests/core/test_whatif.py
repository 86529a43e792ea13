"""Issue 12: what-if rulings — re-settle a hand under one alternative switch (core) and
``score FILE --what-if SWITCH=VALUE`` (CLI). Nothing is stored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.core import HandRecord, get_ruleset, settle
from referee_app.core.whatif import WhatIfError, parse_setting, touched, what_if, with_switch

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"


def _record(name: str) -> HandRecord:
    return HandRecord.from_dict(json.loads((GOLDEN / f"{name}.json").read_text())["record"])


@pytest.mark.parametrize("name, switches", [
    ("robbed_kong_two_robbers", ["redirect_robbed_tax"]),
    ("kong_bloom_after_direct_and_kong_discard",
     ["bloom_after_direct_kong_paid_by_discarder", "root_counts_kongs"]),
    ("ottawa_ex1_plain_win", []),
])
def test_touched_switches_are_found_by_settling(name, switches) -> None:
    rec = _record(name)
    rules = get_ruleset(rec.ruleset)
    got = touched(rec, rules)
    assert [w.name for w in got] == switches
    for w in got:
        assert sum(w.difference.values()) == 0  # still zero-sum
        assert w.alt.totals == settle(rec, with_switch(rules, w.name, w.value)).totals


def test_robbed_tax_reading_the_other_way() -> None:
    rec = _record("robbed_kong_two_robbers")
    w = what_if(rec, get_ruleset(rec.ruleset), "redirect_robbed_tax", False)
    assert w.base.totals == {"E": -1, "S": 3, "W": -11, "N": 9}
    assert w.difference == {"E": 2, "S": -1, "W": 0, "N": -1}
    assert get_ruleset("ottawa-2009").redirect_robbed_tax is True  # the ruleset is untouched


@pytest.mark.parametrize("text, parsed", [
    ("redirect_robbed_tax=false", ("redirect_robbed_tax", False)),
    ("root_counts_kongs = on", ("root_counts_kongs", True)),
    ("cap_fan=3", ("cap_fan", 3)),
    ("cap_fan=none", ("cap_fan", None)),
])
def test_parse_setting(text, parsed) -> None:
    assert parse_setting(text) == parsed


@pytest.mark.parametrize("text", ["nope=1", "redirect_robbed_tax", "cap_fan=x",
                                  "root_counts_kongs=maybe"])
def test_parse_setting_refuses(text) -> None:
    with pytest.raises(WhatIfError):
        parse_setting(text)


def test_score_what_if_cli(tmp_path: Path) -> None:
    f = tmp_path / "r.json"
    f.write_text(json.dumps(json.loads(
        (GOLDEN / "robbed_kong_two_robbers.json").read_text())["record"]), encoding="utf-8")
    r = CliRunner().invoke(main, ["score", str(f), "--what-if", "redirect_robbed_tax=false"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("what if redirect_robbed_tax = False (now True) [§2.9]")
    assert lines[2].split() == ["E", "-1", "+1", "+2"]
    r = CliRunner().invoke(main, ["score", str(f), "--what-if", "cap_fan=1", "--json"])
    d = json.loads(r.output)
    assert d["switch"] == "cap_fan" and sum(d["difference"].values()) == 0
    r = CliRunner().invoke(main, ["score", str(f), "--what-if", "bogus=1"])
    assert r.exit_code == 2 and "error: what_if:" in r.output
    r = CliRunner().invoke(main, ["score", str(f)])  # without it: the usual settlement
    assert r.exit_code == 0 and r.output.startswith("Ruleset: ottawa-2009")
