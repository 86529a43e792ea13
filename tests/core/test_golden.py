"""Golden settlements: every worked example of the specs plus hand-worked cases.

Each fixture in ``tests/fixtures/golden`` is ``{"source", "record", "expected"}``; the
expected settlement was worked out by hand from ``ottawa-2009.md`` and
``hand-format.md`` (never copied from the engine's output). The comparison covers ok,
errors' clauses, wins, end check, payments (in order) and totals; trace lines are checked
for form (each starts with a clause id) and plausible length, not for wording.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee_app.cli import main as cli_main
from referee_app.core import HandRecord, settle

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
FIXTURES = sorted(GOLDEN.glob("*.json"))
CLAUSE_ID = re.compile(r"^§\d+(\.\d+)?[A-Za-z]?\b")

#: Keys of a win that hand-format.md defines (the engine may add more, e.g. pattern_en).
WIN_KEYS = ("seat", "order", "tile", "from", "pattern", "pattern_clause", "pattern_fan",
            "fan", "chips")


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _bonus_key(b: dict[str, Any]) -> tuple[str, str, int]:
    return (b["name"], b["clause"], b["fan"])


def assert_settlement_matches(actual: dict[str, Any], expected: dict[str, Any], *,
                              compare_reasons: bool = False) -> None:
    """Field-by-field comparison with readable failure messages."""
    assert actual["format"] == "sichuan-settlement/1"
    assert actual["ruleset"] == expected["ruleset"]
    assert actual["ok"] is expected["ok"], actual.get("errors")
    assert [e["clause"] for e in actual["errors"]] == [e["clause"] for e in expected["errors"]]
    assert len(actual["wins"]) == len(expected["wins"])
    for got, want in zip(actual["wins"], expected["wins"], strict=True):
        assert {k: got[k] for k in WIN_KEYS} == {k: want[k] for k in WIN_KEYS}
        # hand-format.md fixes the bonus items, not their order
        assert sorted(map(_bonus_key, got["bonuses"])) == sorted(map(_bonus_key,
                                                                     want["bonuses"]))
    assert actual["end_check"] == expected["end_check"]
    keys = ("from", "to", "chips", "clause") + (("reason",) if compare_reasons else ())
    got_p = [tuple(p[k] for k in keys) for p in actual["payments"]]
    want_p = [tuple(p[k] for k in keys) for p in expected["payments"]]
    assert got_p == want_p
    assert actual["totals"] == expected["totals"]
    assert sum(actual["totals"].values()) == 0


def assert_trace_plausible(actual: dict[str, Any]) -> None:
    trace = actual["trace"]
    for line in trace:
        assert CLAUSE_ID.match(line), f"trace line does not start with a clause id: {line!r}"
    if not actual["ok"]:
        return
    starts = {line.split()[0] for line in trace}
    # every clause that moved chips is read out, and so is every win's pattern
    for p in actual["payments"]:
        assert p["clause"] in starts, f"no trace line for {p['clause']}"
    for w in actual["wins"]:
        assert w["pattern_clause"] in starts
    n_steps = len({(p["clause"], p["reason"]) for p in actual["payments"]}) + len(actual["wins"])
    assert len(trace) >= len(actual["wins"])
    assert len(trace) <= 3 * n_steps + 12


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_golden_settle(path: Path) -> None:
    case = _load(path)
    actual = settle(HandRecord.from_dict(case["record"])).to_dict()
    assert_settlement_matches(actual, case["expected"],
                              compare_reasons=case.get("compare_reasons", False))
    assert_trace_plausible(actual)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda p: p.stem)
def test_golden_cli_json(path: Path, tmp_path: Path) -> None:
    """``referee-app score FILE --json`` prints the same settlement, exit code 0."""
    case = _load(path)
    f = tmp_path / "record.json"
    f.write_text(json.dumps(case["record"], ensure_ascii=False), encoding="utf-8")
    result = CliRunner().invoke(cli_main, ["score", str(f), "--json"])
    assert result.exit_code == (0 if case["expected"]["ok"] else 1), result.output
    assert_settlement_matches(json.loads(result.output), case["expected"],
                              compare_reasons=case.get("compare_reasons", False))


def test_every_worked_example_has_a_fixture() -> None:
    """The spec has five worked examples and one hand-format example: all are covered."""
    names = {p.stem for p in FIXTURES}
    for i in range(1, 6):
        assert any(n.startswith(f"ottawa_ex{i}_") for n in names), i
    assert "hand_format_example" in names


def test_fixture_totals_are_consistent() -> None:
    """Guard against typos in the hand-worked fixtures: totals follow from payments."""
    for p in FIXTURES:
        exp = _load(p)["expected"]
        totals = dict.fromkeys(exp["totals"], 0)
        for pay in exp["payments"]:
            totals[pay["from"]] -= pay["chips"]
            totals[pay["to"]] += pay["chips"]
        assert totals == exp["totals"], p.stem
        for w in exp["wins"]:
            assert w["fan"] == w["pattern_fan"] + sum(b["fan"] for b in w["bonuses"])
            assert w["chips"] == 2 ** (w["fan"] - 1)


def test_example_record_round_trips() -> None:
    """HandRecord.to_dict keeps what the spec example says."""
    case = _load(GOLDEN / "hand_format_example.json")
    rec = HandRecord.from_dict(case["record"])
    again = HandRecord.from_dict(rec.to_dict())
    assert settle(again).to_dict()["totals"] == case["expected"]["totals"]
    assert str(rec.seat("S").pongs[0]) == "5p"
