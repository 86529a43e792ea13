"""What one version of a hand changed against the one before, as lines a referee reads."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from .models import (
    HandVersion,
)


def describe_changes(prev: HandVersion, cur: HandVersion) -> tuple[str, ...]:
    """What a new version changed, as lines a referee can read out: status, the record's
    seats and events, and the payments (``-`` removed, ``+`` added, with clauses)."""
    out: list[str] = []
    if prev.status is not cur.status:
        out.append(f"status {prev.status.value} -> {cur.status.value}")
    a, b = prev.record, cur.record
    if a.get("dealer") != b.get("dealer"):
        out.append(f"dealer {a.get('dealer')} -> {b.get('dealer')}")
    if a.get("wall_exhausted") != b.get("wall_exhausted"):
        out.append(f"wall_exhausted {a.get('wall_exhausted')} -> {b.get('wall_exhausted')}")
    for seat, sa in a.get("seats", {}).items():
        sb = b.get("seats", {}).get(seat, {})
        for key in ("concealed", "pongs"):
            if sa.get(key) != sb.get(key):
                out.append(f"{seat} {key}: {sa.get(key)} -> {sb.get(key)}")

    def ev_text(e: Mapping[str, Any]) -> str:
        if e.get("type") == "kong":
            frm = f" from {e['from']}" if e.get("from") else ""
            return f"kong {e.get('seat')} {e.get('tile')} {e.get('kind')}{frm}"
        frm = f" on {e['from']}'s discard" if e.get("from") else " self-drawn"
        flags = f" [{', '.join(e['flags'])}]" if e.get("flags") else ""
        return f"win {'+'.join(e.get('seats', []))} {e.get('tile')}{frm}{flags}"

    def pay_text(p: Mapping[str, Any]) -> str:
        return f"{p['clause']} {p['from']}->{p['to']} {p['chips']} ({p['reason']})"

    for label, fa, fb in (("event", [ev_text(e) for e in a.get("events", [])],
                           [ev_text(e) for e in b.get("events", [])]),
                          ("payment", [pay_text(p) for p in prev.settlement.get("payments", [])],
                           [pay_text(p) for p in cur.settlement.get("payments", [])])):
        ca, cb = Counter(fa), Counter(fb)
        removed, added = ca - cb, cb - ca
        out += [f"- {label} {x}" for x in removed.elements()]
        out += [f"+ {label} {x}" for x in added.elements()]
    if (prev.override_reason or None) != (cur.override_reason or None):
        out.append(f"override: {prev.override_reason or '-'} -> {cur.override_reason or '-'}")
    return tuple(out)
