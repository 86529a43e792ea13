"""Zigong Z3 validation Readings (other-rulesets.md), one row per way a record meets them.

第一和 (``first_discard``): a non-dealer wins on the dealer's first discard, so nothing was
claimed before it — the winner holds no pong and no kong of any kind, and only the
dealer's own concealed kongs may precede the win. 报调 (``declared_ready``): the declared
hand does not change — no pong and no direct or added kong for the declaring winner; a
concealed kong is allowed. Either otherwise is an error citing Z3, for the winner it
concerns. Hands are tile strings; every row is checked through the API and ``score``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from zigong_cases import CASES, zigong_record

from referee_app.cli import main
from referee_app.core import HandRecord, settle


@pytest.mark.parametrize(("seats", "events", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_z3_readings(seats: dict[str, tuple[str, list[str]]], events: list[dict[str, Any]],
                     expected: list[tuple[str, str]], tmp_path: Path) -> None:
    record = zigong_record(seats, events)
    s = settle(HandRecord.from_dict(record))
    assert sorted((e.clause, e.seat) for e in s.errors) == expected
    assert s.ok is (not expected)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record, ensure_ascii=False), "utf-8")
    out = CliRunner().invoke(main, ["score", "--json", str(path)])
    assert out.exit_code == (1 if expected else 0), out.output
    got = json.loads(out.stdout)
    assert sorted((e["clause"], e["seat"]) for e in got["errors"]) == expected
