"""The demo's amendments tell the truth (issue 13): each v2 holds the change its reason
names, and the demo file is what tools/make_demo_event.py makes (deterministic)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_events" / "demo-ottawa-2009.json"


def _kongs(record: dict) -> list[tuple]:
    return sorted((e["seat"], e["tile"], e["kind"]) for e in record["events"]
                  if e["type"] == "kong")


def test_every_amendment_matches_its_reason() -> None:
    bundle = json.loads(DEMO.read_text(encoding="utf-8"))
    amended = 0
    for h in bundle["hands"]:
        for before, after in zip(h["versions"], h["versions"][1:], strict=False):
            if after["action"] != "amended":
                continue
            amended += 1
            reason = after["reason"]
            assert reason, f"hand {h['id']}: amendment without a reason"
            if "kong was missed" in reason:
                k1, k2 = _kongs(before["record"]), _kongs(after["record"])
                assert len(k2) == len(k1) + 1, f"hand {h['id']}: {k1} -> {k2}"
                assert all(k in k2 for k in k1)
            else:  # a new kind of amendment needs its own check here
                raise AssertionError(f"hand {h['id']}: unchecked amendment reason {reason!r}")
    assert amended >= 1
