"""What-if rulings for disputes: settle a hand again under one alternative ruleset switch
(a Reading decided the other way, a different cap) and compare the totals.

Pure: the ruleset is copied with :func:`dataclasses.replace` (or
:meth:`Ruleset.with_settings` for the cap); nothing is stored. A switch is *touched* by a
hand when flipping it changes the hand's settlement — found by settling, not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .errors import FieldError
from .record import HandRecord
from .ruleset import Ruleset
from .settle import Settlement, settle


@dataclass(frozen=True)
class Switch:
    """A named ruleset switch; ``clause`` says where the ruleset cites it."""

    name: str
    kind: type
    about: str

    def clause(self, rules: Ruleset) -> str:
        return {
            "redirect_robbed_tax": rules.robbed_kong_clause,
            "bloom_after_direct_kong_paid_by_discarder": rules.self_drawn_clause,
            "passed_win_higher_fan_allows": rules.passed_win_clause or "",
            "root_counts_kongs": rules.root.clause,
            "root_concealed_only": rules.root.clause,
            "cap_fan": rules.cap_name or "",
        }.get(self.name, "")


#: the switches a what-if may flip (Ruleset field -> meaning), the Readings first
SWITCHES: dict[str, Switch] = {s.name: s for s in (
    Switch("redirect_robbed_tax", bool,
           "a robbed added kong's tax goes to the robber (§2.9 Reading)"),
    Switch("bloom_after_direct_kong_paid_by_discarder", bool,
           "a kong bloom after a direct kong is paid by the kong's discarder alone"),
    Switch("passed_win_higher_fan_allows", bool,
           "after passing a win, a later discard win with more fan is allowed"),
    Switch("root_counts_kongs", bool, "declared kongs count as roots (根)"),
    Switch("root_concealed_only", bool, "only concealed fours count as roots"),
    Switch("cap_fan", int, "the cap on a win's total fan (none: uncapped)"),
)}


class WhatIfError(FieldError):
    """``SWITCH=VALUE`` that names no switch or a value of the wrong kind."""

    code = "what_if"


def parse_setting(text: str) -> tuple[str, Any]:
    """``redirect_robbed_tax=false`` → ("redirect_robbed_tax", False); ``cap_fan=none``."""
    name, sep, raw = text.partition("=")
    name, raw = name.strip(), raw.strip().lower()
    if not sep or name not in SWITCHES:
        raise WhatIfError.of("what_if", "bad_switch", switches=", ".join(SWITCHES), got=text)
    kind = SWITCHES[name].kind
    if kind is bool:
        if raw not in ("true", "false", "yes", "no", "1", "0", "on", "off"):
            raise WhatIfError.of("what_if", "switch_takes_bool", name=name, got=raw)
        return name, raw in ("true", "yes", "1", "on")
    if raw in ("none", "null", ""):
        return name, None
    if not raw.isdigit():
        raise WhatIfError.of("what_if", "switch_takes_number", name=name, got=raw)
    return name, int(raw)


def with_switch(rules: Ruleset, name: str, value: Any) -> Ruleset:
    """``rules`` with one switch set to ``value`` (the same object if nothing changes)."""
    if name not in SWITCHES:
        raise WhatIfError.of("what_if", "unknown_switch", name=name)
    if getattr(rules, name) == value:
        return rules
    if name == "cap_fan" and value is not None:
        return rules.with_settings(cap_fan=value)
    return replace(rules, **{name: value})


@dataclass(frozen=True)
class WhatIf:
    """The hand as ruled (``base``) and under ``name = value`` (``alt``)."""

    name: str
    current: Any
    value: Any
    base: Settlement
    alt: Settlement

    @property
    def difference(self) -> dict[str, int]:
        """Per seat: the alternative total minus the total as ruled (both must settle)."""
        if not (self.base.ok and self.alt.ok):
            return {}
        return {s: self.alt.totals.get(s, 0) - self.base.totals.get(s, 0)
                for s in self.base.totals}

    @property
    def changes(self) -> bool:
        return self.base.ok != self.alt.ok or self.base.totals != self.alt.totals

    def to_dict(self) -> dict[str, Any]:
        return {"switch": self.name, "current": self.current, "what_if": self.value,
                "as_ruled": self.base.to_dict(), "alternative": self.alt.to_dict(),
                "difference": self.difference}


def what_if(record: HandRecord, rules: Ruleset, name: str, value: Any) -> WhatIf:
    return WhatIf(name, getattr(rules, name), value, settle(record, rules),
                  settle(record, with_switch(rules, name, value)))


def touched(record: HandRecord, rules: Ruleset) -> list[WhatIf]:
    """The switches whose other setting would settle this hand differently (bool switches
    flipped; the cap lifted when the ruleset has one)."""
    out = []
    base = settle(record, rules)
    for sw in SWITCHES.values():
        current = getattr(rules, sw.name)
        if sw.kind is bool:
            alt_value: Any = not current
        elif current is not None:
            alt_value = None
        else:
            continue
        alt = settle(record, with_switch(rules, sw.name, alt_value))
        w = WhatIf(sw.name, current, alt_value, base, alt)
        if w.changes:
            out.append(w)
    return out
