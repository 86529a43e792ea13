"""Rulesets as data: one JSON file of numbers and switches plus one of clause texts.

The engine never asks *which* ruleset it runs; it asks the ruleset for amounts, clause
ids and a few named switches, so a new ruleset is a new data file.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from .analysis import FEATURE_BITS

DEFAULT_RULESET = "ottawa-2009"
#: Tournament settings accepted by Ruleset.with_settings (issue 11: a cap of 0 zeroes every
#: win; a stake of 10^20 overflows every report).
MAX_CAP_FAN = 99
MAX_STAKE = 1_000_000


class UnknownRulesetError(ValueError):
    """The record or command names a ruleset the app does not ship."""

    def __init__(self, ruleset_id: object) -> None:
        known = ", ".join(ruleset_ids())
        super().__init__(f"unknown ruleset {ruleset_id!r} (known: {known})")
        self.ruleset_id = ruleset_id


_SETTINGS: dict[tuple[str, int | None, int], Ruleset] = {}


@dataclass(frozen=True, slots=True)
class Clause:
    """A clause of a ruleset: original Chinese, English rendering and the app's Reading."""

    id: str
    title_zh: str = ""
    title_en: str = ""
    zh: str = ""
    en: str = ""
    reading: str | None = None


@dataclass(frozen=True, slots=True)
class Pattern:
    """A row of a base-fan table: applies when the reading has every required feature."""

    clause: str
    name: str
    name_en: str
    fan: int
    requires: int  # feature bit set
    situational: bool = False  # 天和/地和: reported only when strictly higher
    consumes_root: int = 0  # 龙七对: its own four-of-a-kind is not also a root
    index: int = 0


@dataclass(frozen=True, slots=True)
class Bonus:
    clause: str
    name: str
    fan: int
    name_en: str = ""


@dataclass(frozen=True)
class Ruleset:
    """Everything the engine needs to know about one ruleset."""

    id: str
    name: str
    name_zh: str
    source: str
    seats: tuple[str, ...]
    suits: tuple[str, ...]
    max_suits_in_win: int
    blood_battle: bool
    max_winners: int
    zero_based: bool
    stake: int
    cap_fan: int | None
    cap_name: str | None
    pattern_mode: str
    patterns: tuple[Pattern, ...]
    root: Bonus
    root_counts_kongs: bool
    root_concealed_only: bool
    kong_bonus: Bonus | None
    kong_bonus_names: dict[str, str]
    situational_bonuses: dict[str, Bonus]
    flags: frozenset[str]
    kong_payments: dict[str, tuple[str, int]]
    discard_win_clause: str
    self_drawn_clause: str
    bloom_after_direct_kong_paid_by_discarder: bool
    robbed_kong_clause: str
    redirect_robbed_tax: bool
    kong_discard_transfer: str | None
    end_check: dict[str, Any] | None
    passed_win_clause: str | None
    passed_win_higher_fan_allows: bool
    next_dealer: str
    validation: dict[str, str]
    clauses: dict[str, Clause] = field(default_factory=dict)
    raw: dict[str, Any] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ chips

    def chips(self, fan: int) -> int:
        """Chip value of a total fan (already capped): 2^(f-1), or stake x 2^f when 0-based."""
        if self.zero_based:
            return self.stake * (1 << fan)
        return self.stake * (1 << (fan - 1)) if fan >= 1 else 0

    def cap(self, fan: int) -> int:
        return fan if self.cap_fan is None else min(fan, self.cap_fan)

    def with_settings(self, *, cap_fan: int | None = None, stake: int | None = None) -> Ruleset:
        """The same ruleset under a tournament's own cap and stake (V2, C2, Z2 settings).

        ``None`` keeps the ruleset's default. Pattern tables are unchanged.
        """
        if cap_fan is not None and (isinstance(cap_fan, bool) or not isinstance(cap_fan, int)
                                    or not 1 <= cap_fan <= MAX_CAP_FAN):
            # a cap of 0 would make every win worth nothing
            raise ValueError(f"cap_fan must be a whole number 1…{MAX_CAP_FAN}, got {cap_fan!r}")
        if stake is not None and (isinstance(stake, bool) or not isinstance(stake, int)
                                  or not 1 <= stake <= MAX_STAKE):
            raise ValueError(f"stake must be a whole number 1…{MAX_STAKE:,}, got {stake!r}")
        cap = self.cap_fan if cap_fan is None else cap_fan
        st = self.stake if stake is None else stake
        if cap == self.cap_fan and st == self.stake:
            return self
        key = (self.id, cap, st)
        hit = _SETTINGS.get(key)
        if hit is None or hit.raw is not self.raw:  # one shared object per setting (memos)
            hit = _SETTINGS[key] = replace(self, cap_fan=cap, stake=st)
        return hit

    # ------------------------------------------------------------------ clauses

    def clause(self, clause_id: str) -> Clause:
        """The clause's texts; an id without a text entry still gets a bare Clause."""
        return self.clauses.get(clause_id) or Clause(clause_id)

    def vclause(self, check: str) -> str:
        """Clause id that a named validation check cites under this ruleset."""
        return self.validation[check]

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(FEATURE_BITS)


def _bits(names: list[str]) -> int:
    mask = 0
    for n in names:
        if n not in FEATURE_BITS:
            raise ValueError(f"ruleset pattern requires unknown feature {n!r}")
        mask |= FEATURE_BITS[n]
    return mask


def _bonus(d: dict[str, Any] | None) -> Bonus | None:
    if not d:
        return None
    return Bonus(d["clause"], d.get("name", ""), int(d.get("fan", 1)), d.get("name_en", ""))


def ruleset_from_dict(d: dict[str, Any], clause_texts: dict[str, Any] | None = None) -> Ruleset:
    """Build a Ruleset from its data file (and optional clause-text file) contents."""
    chips = d.get("chips", {})
    patterns = tuple(
        Pattern(p["clause"], p["name"], p.get("name_en", ""), int(p["fan"]), _bits(p["requires"]),
                bool(p.get("situational", False)), int(p.get("consumes_root", 0)), i)
        for i, p in enumerate(d["patterns"]))
    bonuses = d.get("bonuses", {})
    root = bonuses["root"]
    kong = bonuses.get("kong")
    situational = {k: b for k in ("robbing_kong", "kong_bloom", "kong_discard", "declared_ready",
                                  "first_discard", "heavenly", "earthly", "middle_two")
                   if (b := _bonus(bonuses.get(k)))}
    win = d.get("win_payments", {})
    robbed = d.get("robbed_kong", {})
    clauses: dict[str, Clause] = {}
    for cid, c in ((clause_texts or {}).get("clauses") or {}).items():
        clauses[cid] = Clause(cid, c.get("title_zh", ""), c.get("title_en", ""), c.get("zh", ""),
                              c.get("en", ""), c.get("reading"))
    return Ruleset(
        id=d["id"], name=d.get("name", d["id"]), name_zh=d.get("name_zh", ""),
        source=d.get("source", ""), seats=tuple(d["seats"]), suits=tuple(d["suits"]),
        max_suits_in_win=int(d.get("max_suits_in_win", 2)),
        blood_battle=bool(d.get("blood_battle", True)),
        max_winners=int(d.get("max_winners", len(d["seats"]) - 1)),
        zero_based=bool(chips.get("zero_based", False)), stake=int(chips.get("stake", 1)),
        cap_fan=chips.get("cap_fan"), cap_name=chips.get("cap_name"),
        pattern_mode=d.get("pattern_mode", "highest"), patterns=patterns,
        root=_bonus(root), root_counts_kongs=bool(root.get("counts_kongs", False)),
        root_concealed_only=bool(root.get("concealed_only", False)),
        kong_bonus=_bonus(kong), kong_bonus_names=dict((kong or {}).get("names", {})),
        situational_bonuses=situational, flags=frozenset(d.get("flags", [])),
        kong_payments={k: (v["clause"], int(v["chips"]))
                       for k, v in d.get("kong_payments", {}).items()},
        discard_win_clause=win.get("discard", ""), self_drawn_clause=win.get("self_drawn", ""),
        bloom_after_direct_kong_paid_by_discarder=bool(
            win.get("bloom_after_direct_kong_paid_by_discarder", False)),
        robbed_kong_clause=robbed.get("clause", ""),
        redirect_robbed_tax=bool(robbed.get("redirect_tax", False)),
        kong_discard_transfer=d.get("kong_discard_transfer"),
        end_check=d.get("end_check"), passed_win_clause=(d.get("passed_win") or {}).get("clause"),
        passed_win_higher_fan_allows=bool((d.get("passed_win") or {}).get("higher_fan_allows",
                                                                          True)),
        next_dealer=d.get("next_dealer", "first_winner"),
        validation=dict(d["validation_clauses"]), clauses=clauses, raw=d,
    )


def _data_dir():
    # a plain path, not importlib.resources: that import alone costs ~10 ms of every CLI
    # start-up (issue 11), and the package is always installed as files
    return Path(__file__).resolve().parent.parent / "data" / "rulesets"


@cache
def ruleset_ids() -> tuple[str, ...]:
    """Ids of every ruleset shipped in the package, default first."""
    ids = sorted(p.name[:-5] for p in _data_dir().iterdir()
                 if p.name.endswith(".json") and not p.name.endswith(".clauses.json"))
    if DEFAULT_RULESET in ids:
        ids.remove(DEFAULT_RULESET)
        ids.insert(0, DEFAULT_RULESET)
    return tuple(ids)


def get_ruleset(ruleset_id: str = DEFAULT_RULESET) -> Ruleset:
    """Load a shipped ruleset by id (cached); UnknownRulesetError names the known ones."""
    if not isinstance(ruleset_id, str) or ruleset_id not in ruleset_ids():
        raise UnknownRulesetError(ruleset_id)
    return _load_ruleset(ruleset_id)


@cache
def _load_ruleset(ruleset_id: str) -> Ruleset:
    base = _data_dir()
    data = json.loads(base.joinpath(f"{ruleset_id}.json").read_text(encoding="utf-8"))
    texts_file = base.joinpath(f"{ruleset_id}.clauses.json")
    texts = json.loads(texts_file.read_text(encoding="utf-8")) if texts_file.is_file() else None
    return ruleset_from_dict(data, texts)


def list_rulesets() -> list[Ruleset]:
    return [get_ruleset(i) for i in ruleset_ids()]
