"""Rulesets as data: one self-contained JSON file (``sichuan-ruleset/1``) per ruleset.

The engine never asks *which* ruleset it runs; it asks the ruleset for amounts, clause
ids and a few named switches, so a new ruleset is a new data file. The five shipped
rulesets are such files (``referee_app/data/rulesets/<id>.json``); a club writes its own
and the app checks it (:mod:`.ruleset_file`: JSON Schema plus the engine's consistency
checks) before settling anything under it.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from .analysis import FEATURE_BITS
from .errors import FieldError, render

DEFAULT_RULESET = "ottawa-2009"
#: Tournament settings accepted by Ruleset.with_settings (issue 11: a cap of 0 zeroes every
#: win; a stake of 10^20 overflows every report).
MAX_CAP_FAN = 99
MAX_STAKE = 1_000_000

RULESET_FORMAT = "sichuan-ruleset/1"

#: Hand-level features (the same for every reading of a hand). Settlement ORs them into a
#: winner's feature sets when the ruleset uses them, so a pattern row can require them
#: (金钩钓 as a pattern) and a bonus of the same name can add fan (金钩钓 +1, 门清, 中张).
SINGLE_WAIT = 1 << 12  # 金钩钓: every set a pong or kong meld; the winning tile pairs the last
CONCEALED_HAND = 1 << 13  # 门清: no pong and no direct or added kong
ALL_SIMPLES = 1 << 14  # 中张: no 1 and no 9 anywhere in the hand
HAND_FEATURES: dict[str, int] = {
    "single_wait": SINGLE_WAIT,
    "concealed_hand": CONCEALED_HAND,
    "all_simples": ALL_SIMPLES,
}
#: every name a pattern row may require
PATTERN_FEATURES: dict[str, int] = {**FEATURE_BITS, **HAND_FEATURES}

#: optional +fan bonuses besides 根 and the kong bonus, in the order a win lists them
SITUATIONAL_KEYS = ("robbing_kong", "kong_bloom", "kong_discard", "middle_two",
                    "declared_ready", "first_discard", "heavenly", "earthly",
                    "self_drawn", "last_tile", "single_wait", "concealed_hand", "all_simples")
#: win flags a record may carry, when the ruleset lists them
KNOWN_FLAGS = ("kong_bloom", "kong_discard", "robbing_kong", "heavenly", "earthly",
               "declared_ready", "first_discard", "last_tile")
#: the checks of validation, each citing the clause the ruleset names for it
VALIDATION_CHECKS = ("tile_count", "hand_size", "missing_suit", "legal_hand", "blood_battle",
                     "discard_win", "direct_kong", "self_drawn", "robbing_kong", "kong_bloom",
                     "kong_discard", "heavenly_earthly", "passed_win", "first_discard",
                     "declared_ready", "middle_two", "last_tile")
END_CHECK_PARTS = ("flower_pig", "ready_check", "price_difference", "refund")


class UnknownRulesetError(FieldError):
    """The record or command names a ruleset the app does not ship."""

    code = "unknown_ruleset"

    def __init__(self, ruleset_id: object) -> None:
        params = {"ruleset": ruleset_id, "known": list(ruleset_ids())}
        super().__init__("", render("unknown_ruleset", params, "en"), code="unknown_ruleset",
                         params=params)
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
    source: str | None = None  # the seed (or rule sheet) it quotes, when not the ruleset's


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
    features: tuple[str, ...] = ()  # ``requires`` by name, as the data file writes it


@dataclass(frozen=True, slots=True)
class Bonus:
    """A bonus fan a ruleset grants (its clause, name and fan)."""

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
    # -- added with club rulesets (issue 15); defaults keep older constructors working
    source_note: str | None = None
    spec: str | None = None
    based_on: str | None = None
    cap_clause: str | None = None
    self_drawn_extra: tuple[str, int] | None = None  # 自摸加底: (clause, chips per payer)
    hand_features: int = 0  # HAND_FEATURES bits that a pattern row or a bonus uses
    # the canonical JSON of the data it was built from: the scoring memos' key (equal data,
    # equal key, interned: one object, so memo lookups never compare the long text)
    key: str = ""

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
        key = (self.key or self.id, cap, st)
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

    # ------------------------------------------------------------------ as data

    def to_data(self) -> dict[str, Any]:
        """The complete, self-contained ``sichuan-ruleset/1`` document of this ruleset.

        Every switch is written out (optional bonuses and end-check parts are present
        exactly when they apply); clause texts are included, so the document alone
        reproduces the ruleset: ``ruleset_from_data(r.to_data())`` (``core.ruleset_file``)
        settles like ``r``.
        """
        d: dict[str, Any] = {"format": RULESET_FORMAT, "id": self.id, "name": self.name,
                             "name_zh": self.name_zh, "source": self.source}
        for k in ("source_note", "spec", "based_on"):
            if getattr(self, k) is not None:
                d[k] = getattr(self, k)
        d["seats"] = list(self.seats)
        d["suits"] = list(self.suits)
        d["max_suits_in_win"] = self.max_suits_in_win
        d["blood_battle"] = self.blood_battle
        d["max_winners"] = self.max_winners
        d["chips"] = {"zero_based": self.zero_based, "stake": self.stake,
                      "cap_fan": self.cap_fan, "cap_name": self.cap_name,
                      "cap_clause": self.cap_clause}
        d["pattern_mode"] = self.pattern_mode
        d["patterns"] = [{"clause": p.clause, "name": p.name, "name_en": p.name_en,
                          "fan": p.fan, "requires": list(p.features),
                          "situational": p.situational, "consumes_root": p.consumes_root}
                         for p in self.patterns]
        r = self.root
        bonuses: dict[str, Any] = {"root": {
            "clause": r.clause, "name": r.name, "name_en": r.name_en, "fan": r.fan,
            "counts_kongs": self.root_counts_kongs, "concealed_only": self.root_concealed_only}}
        if self.kong_bonus is not None:
            k = self.kong_bonus
            bonuses["kong"] = {"clause": k.clause, "names": dict(self.kong_bonus_names),
                               "name_en": k.name_en, "fan": k.fan}
        for key in SITUATIONAL_KEYS:
            b = self.situational_bonuses.get(key)
            if b is not None:
                bonuses[key] = {"clause": b.clause, "name": b.name, "name_en": b.name_en,
                                "fan": b.fan}
        d["bonuses"] = bonuses
        d["flags"] = [f for f in KNOWN_FLAGS if f in self.flags]
        d["kong_payments"] = {k: {"clause": c, "chips": n}
                              for k, (c, n) in self.kong_payments.items()}
        extra = self.self_drawn_extra
        d["win_payments"] = {
            "discard": self.discard_win_clause, "self_drawn": self.self_drawn_clause,
            "bloom_after_direct_kong_paid_by_discarder":
                self.bloom_after_direct_kong_paid_by_discarder,
            "self_drawn_extra": None if extra is None else {"clause": extra[0],
                                                            "chips": extra[1]}}
        d["robbed_kong"] = {"clause": self.robbed_kong_clause,
                            "redirect_tax": self.redirect_robbed_tax}
        d["kong_discard_transfer"] = self.kong_discard_transfer
        d["end_check"] = None if self.end_check is None else {
            k: dict(v) for k, v in self.end_check.items()}
        d["passed_win"] = None if self.passed_win_clause is None else {
            "clause": self.passed_win_clause,
            "higher_fan_allows": self.passed_win_higher_fan_allows}
        d["next_dealer"] = self.next_dealer
        d["validation_clauses"] = {k: self.validation[k] for k in VALIDATION_CHECKS
                                   if k in self.validation}
        clauses: dict[str, Any] = {}
        for cid, c in self.clauses.items():
            entry: dict[str, Any] = {"title_zh": c.title_zh, "title_en": c.title_en,
                                     "zh": c.zh, "en": c.en, "reading": c.reading}
            if c.source is not None:
                entry["source"] = c.source
            clauses[cid] = entry
        d["clauses"] = clauses
        return d

    def digest(self) -> str:
        """sha256 (hex) of the canonical JSON of :meth:`to_data`: names this exact ruleset.

        Canonical: keys sorted, no whitespace, UTF-8. Equal data, equal digest, whatever
        the file's layout; any change of an amount, switch or clause text changes it.
        """
        return data_digest(self.to_data())


def canonical_json(data: dict[str, Any]) -> str:
    """A ruleset document as canonical JSON: keys sorted, no whitespace, not ASCII-escaped."""
    return json.dumps(data, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def data_digest(data: dict[str, Any]) -> str:
    """sha256 hex of a ruleset document's canonical JSON (see :meth:`Ruleset.digest`)."""
    import hashlib  # on first use: loading OpenSSL would slow every cold ``score``

    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def _bits(names: list[str]) -> int:
    mask = 0
    for n in names:
        if n not in PATTERN_FEATURES:
            raise ValueError(f"ruleset pattern requires unknown feature {n!r}")
        mask |= PATTERN_FEATURES[n]
    return mask


def _bonus(d: dict[str, Any] | None) -> Bonus | None:
    if not d:
        return None
    return Bonus(d["clause"], d.get("name", ""), int(d.get("fan", 1)), d.get("name_en", ""))


def ruleset_from_dict(d: dict[str, Any], clause_texts: dict[str, Any] | None = None) -> Ruleset:
    """Build a Ruleset from a document that passed the checks (no checking here).

    ``clause_texts`` (``{"clauses": {...}}``) overrides the document's own ``clauses``.
    """
    chips = d.get("chips", {})
    patterns = tuple(
        Pattern(p["clause"], p["name"], p.get("name_en", ""), int(p["fan"]), _bits(p["requires"]),
                bool(p.get("situational", False)), int(p.get("consumes_root", 0)), i,
                tuple(p["requires"]))
        for i, p in enumerate(d["patterns"]))
    bonuses = d.get("bonuses", {})
    root = bonuses["root"]
    kong = bonuses.get("kong")
    situational = {k: b for k in SITUATIONAL_KEYS if (b := _bonus(bonuses.get(k)))}
    hand_features = 0
    for p in patterns:
        hand_features |= p.requires & (SINGLE_WAIT | CONCEALED_HAND | ALL_SIMPLES)
    for k, bit in HAND_FEATURES.items():
        if k in situational:
            hand_features |= bit
    win = d.get("win_payments", {})
    extra = win.get("self_drawn_extra")
    robbed = d.get("robbed_kong", {})
    texts = (clause_texts or {}).get("clauses") if clause_texts else d.get("clauses")
    clauses: dict[str, Clause] = {}
    for cid, c in (texts or {}).items():
        clauses[cid] = Clause(cid, c.get("title_zh", ""), c.get("title_en", ""), c.get("zh", ""),
                              c.get("en", ""), c.get("reading"), c.get("source"))
    end_check = d.get("end_check")
    if end_check is not None:
        end_check = {k: dict(end_check[k]) for k in END_CHECK_PARTS if end_check.get(k)}
        if "flower_pig" in end_check:
            end_check["flower_pig"].setdefault("pays_ready_check", True)
    passed = d.get("passed_win") or {}
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
        end_check=end_check, passed_win_clause=passed.get("clause"),
        passed_win_higher_fan_allows=bool(passed.get("higher_fan_allows", True)),
        next_dealer=d.get("next_dealer", "first_winner"),
        validation=dict(d["validation_clauses"]), clauses=clauses, raw=d,
        source_note=d.get("source_note"), spec=d.get("spec"), based_on=d.get("based_on"),
        cap_clause=chips.get("cap_clause"),
        self_drawn_extra=None if not extra else (extra["clause"], int(extra["chips"])),
        hand_features=hand_features, key=sys.intern(canonical_json(d)),
    )


def _data_dir():
    # a plain path, not importlib.resources: that import alone costs ~10 ms of every CLI
    # start-up (issue 11), and the package is always installed as files
    return Path(__file__).resolve().parent.parent / "data" / "rulesets"


@cache
def ruleset_ids() -> tuple[str, ...]:
    """Ids of every ruleset shipped in the package, default first."""
    ids = sorted(p.name[:-5] for p in _data_dir().iterdir() if p.name.endswith(".json"))
    if DEFAULT_RULESET in ids:
        ids.remove(DEFAULT_RULESET)
        ids.insert(0, DEFAULT_RULESET)
    return tuple(ids)


def get_ruleset(ruleset_id: str = DEFAULT_RULESET) -> Ruleset:
    """Load a shipped ruleset by id (cached); UnknownRulesetError names the known ones."""
    if not isinstance(ruleset_id, str) or ruleset_id not in ruleset_ids():
        raise UnknownRulesetError(ruleset_id)
    return _load_ruleset(ruleset_id)


def shipped_data(ruleset_id: str) -> dict[str, Any]:
    """The shipped ruleset file's document as it is stored (a fresh copy)."""
    if ruleset_id not in ruleset_ids():
        raise UnknownRulesetError(ruleset_id)
    text = _data_dir().joinpath(f"{ruleset_id}.json").read_text(encoding="utf-8")
    return json.loads(text)


@cache
def _load_ruleset(ruleset_id: str) -> Ruleset:
    # Shipped files pass the schema and the consistency checks (a test holds them to it);
    # loading them skips the validator so that a one-record ``score`` starts fast.
    return ruleset_from_dict(shipped_data(ruleset_id))


def list_rulesets() -> list[Ruleset]:
    return [get_ruleset(i) for i in ruleset_ids()]
