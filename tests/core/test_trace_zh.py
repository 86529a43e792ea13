"""Chinese renderings of trace lines and payment reasons (core.trace_zh)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from examples import spec_example

from referee_app.core import HandRecord, ruleset_ids, settle
from referee_app.core.generate import random_records
from referee_app.core.trace_zh import is_translated, reason_zh, trace_line_zh

EXAMPLE = spec_example()


def test_hand_format_example_reads_in_chinese() -> None:
    s = settle(HandRecord.from_dict(EXAMPLE))
    zh = [trace_line_zh(line) for line in s.trace]
    assert zh[0] == "§2.10 南暗杠九条；未和的东、西、北各付2"
    assert "§2.6 西打出七筒点炮给北；西付北 1" in zh
    assert "§2.12 南下叫，叫一筒、四筒；最大2番" in zh
    assert "§2.11 西查花猪（三门齐全）；付东、南、北各16" in zh
    assert [reason_zh(p.reason) for p in s.payments][:4] == [
        "暗杠 九条", "暗杠 九条", "暗杠 九条", "点炮 七筒"]


@pytest.mark.parametrize("ruleset", ruleset_ids())
def test_every_generated_trace_line_and_reason_translates(ruleset: str) -> None:
    for record in random_records(300, 11, ruleset, check=False):
        s = settle(HandRecord.from_dict(record))
        for line in s.trace:
            assert is_translated(line), line
            zh = trace_line_zh(line)
            assert zh.split(" ")[0] == line.split(" ")[0]  # the clause id stays first
            assert not any(w in zh for w in (" pays ", " wins ", " declares ")), zh
        for p in s.payments:
            assert reason_zh(p.reason) != p.reason, p.reason


def test_golden_fixture_traces_translate() -> None:
    root = Path(__file__).resolve().parents[1] / "fixtures"
    for path in sorted(root.rglob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        record = data.get("record") if isinstance(data, dict) else None
        if not isinstance(record, dict):
            continue
        s = settle(HandRecord.from_dict(record))
        for line in s.trace:
            assert is_translated(line), (path.name, line)


def test_unknown_text_is_left_alone() -> None:
    assert trace_line_zh("§9 something new") == "§9 something new"
    assert reason_zh("a new reason") == "a new reason"
