"""Fan of a hand under a ruleset: pattern (from the readings' features) plus bonuses."""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import EARTHLY, HEAVENLY, Hand, Wait, feature_masks, roots
from .ruleset import (
    ALL_SIMPLES,
    CONCEALED_HAND,
    HAND_FEATURES,
    SINGLE_WAIT,
    SITUATIONAL_KEYS,
    Pattern,
    Ruleset,
)
from .tiles import tile_name


@dataclass(frozen=True, slots=True)
class BonusItem:
    """One +fan occurrence on a win (two roots are two items)."""

    name: str
    clause: str
    fan: int

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "clause": self.clause, "fan": self.fan}


@dataclass(frozen=True, slots=True)
class HandScore:
    """Pattern and bonuses of one win, the uncapped sum and the fan that is paid."""

    pattern: str
    pattern_en: str
    pattern_clause: str
    pattern_fan: int
    bonuses: tuple[BonusItem, ...]
    raw_fan: int
    fan: int  # after the ruleset's cap




def _applicable(rules: Ruleset, mask: int) -> list[Pattern]:
    return [p for p in rules.patterns if p.requires & mask == p.requires]


_PATTERN_CACHE: dict[tuple[str, int, int], tuple[tuple, str, str, str, int, int]] = {}


def _pattern_for(rules: Ruleset, mask: int, nroots: int) -> tuple[tuple, str, str, str, int, int]:
    """Best pattern of one reading (memoised per ruleset, features and root count)."""
    key = (rules.key, mask, nroots)  # pattern tables never change with tournament settings
    hit = _PATTERN_CACHE.get(key)
    if hit is None:
        hit = _PATTERN_CACHE[key] = _pattern_uncached(rules, mask, nroots)
    return hit


def _pattern_uncached(rules: Ruleset, mask: int, nroots: int
                      ) -> tuple[tuple, str, str, str, int, int]:
    """Best pattern of one reading: (sort key, name, name_en, clause, fan, roots consumed)."""
    rows = [p for p in _applicable(rules, mask) if p.consumes_root <= nroots]
    root_fan = rules.root.fan
    if rules.pattern_mode == "additive":
        # A listed combination replaces its parts; features with no combined row add.
        keep = [p for p in rows if not any(q is not p and p.requires & q.requires == p.requires
                                           and q.requires != p.requires for q in rows)]
        keep.sort(key=lambda p: p.index)
        fan = sum(p.fan for p in keep)
        consumed = sum(p.consumes_root for p in keep)
        eff = fan - consumed * root_fan
        first = keep[0] if keep else None
        name = "+".join(p.name for p in keep if p.fan or len(keep) == 1)
        name_en = " + ".join(p.name_en for p in keep if p.fan or len(keep) == 1)
        clause = "+".join(dict.fromkeys(p.clause for p in keep if p.fan or len(keep) == 1))
        return ((eff, True, 0, 0), name or (first.name if first else ""), name_en, clause, fan, consumed)
    # On equal total fan: a non-situational row (§4.7b only when strictly higher), then the
    # more specific row (清龙七对 rather than 清七对 + 根), then table order.
    def key(p: Pattern) -> tuple[int, bool, int, int]:
        return (p.fan - p.consumes_root * root_fan, not p.situational,
                p.requires.bit_count(), -p.index)

    best = max(rows, key=key)
    return (key(best), best.name, best.name_en, best.clause, best.fan, best.consumes_root)


#: order in which situational bonuses are listed on a win (clause order of §5.3-§5.5, Z3,
#: then the club switches 自摸加番, 海底, 金钩钓, 门清, 中张)
_SITUATIONAL_ORDER = SITUATIONAL_KEYS


class _Items:
    """A ruleset's bonus items, built once: BonusItem is immutable, so wins share them."""

    def __init__(self, rules: Ruleset) -> None:
        root = rules.root
        self.root = BonusItem(root.name, root.clause, root.fan)
        kb = rules.kong_bonus
        self.kong: dict[str, BonusItem] | None = None if kb is None else {
            k: BonusItem(rules.kong_bonus_names.get(k, kb.name), kb.clause, kb.fan)
            for k in ("direct", "added", "concealed")}
        self.situational = tuple(
            (key, BonusItem(b.name, b.clause, b.fan)) for key in _SITUATIONAL_ORDER
            if (b := rules.situational_bonuses.get(key)) is not None)
        # (masks, roots, flags, kong kinds, extra bonuses) -> HandScore; scores are immutable
        # and depend on nothing else under this ruleset object, so equal inputs share one
        self.scores: dict[tuple, HandScore] = {}


# id(rules) -> (rules, items); holding the ruleset keeps its id from being reused
_ITEMS: dict[int, tuple[Ruleset, _Items]] = {}


def _items_of(rules: Ruleset) -> _Items:
    hit = _ITEMS.get(id(rules))
    if hit is not None and hit[0] is rules:
        return hit[1]
    if len(_ITEMS) > 64:  # tournaments' with_settings copies: keep the table small
        _ITEMS.clear()
    items = _Items(rules)
    _ITEMS[id(rules)] = (rules, items)
    return items


# (ruleset key, masks, situational bits, roots) -> best pattern row, for interned mask sets
_BEST: dict[tuple[str, frozenset[int], int, int], tuple[tuple, str, str, str, int, int]] = {}


def score_hand(rules: Ruleset, hand: Hand, masks: set[int] | frozenset[int], *,
               flags: tuple[str, ...] = (), kong_kinds: tuple[str, ...] = (),
               extra_bonuses: tuple[str, ...] = ()) -> HandScore:
    """Score a legal hand: the best pattern over its readings plus every bonus.

    ``flags`` are the win's situational flags (counted only for an actual win, never in
    the ready check); ``kong_kinds`` are the kinds of the winner's declared kongs in order.
    """
    nroots = roots(hand) if not rules.root_concealed_only else hand.counts.count(4)
    if rules.root_counts_kongs:
        nroots += len(hand.kongs)
    return score_masks(rules, masks, nroots, flags, kong_kinds, extra_bonuses)


def score_masks(rules: Ruleset, masks: set[int] | frozenset[int], nroots: int,
                flags: tuple[str, ...] = (), kong_kinds: tuple[str, ...] = (),
                extra_bonuses: tuple[str, ...] = ()) -> HandScore:
    """:func:`score_hand` once the hand's roots are counted (the settlement's fast path)."""
    situ = ((HEAVENLY if "heavenly" in flags else 0) | (EARTHLY if "earthly" in flags else 0)
            if flags else 0)
    known = _items_of(rules)
    interned = type(masks) is frozenset  # mask sets from analysis repeat across hands
    if interned:
        skey = (masks, nroots, flags, kong_kinds, extra_bonuses)
        hit = known.scores.get(skey)
        if hit is not None:
            return hit
    # Situational pattern rows are not in the table of additive rulesets' bonuses.
    if interned:
        key = (rules.key, masks, situ, nroots)
        best = _BEST.get(key)
        if best is None:
            best = _BEST[key] = max(_pattern_for(rules, m | situ, nroots) for m in masks)
    else:
        best = max(_pattern_for(rules, m | situ, nroots) for m in masks)
    _, name, name_en, clause, pfan, consumed = best
    items = [known.root] * (nroots - consumed) if nroots > consumed else []
    if known.kong is not None and kong_kinds:
        kb = rules.kong_bonus
        assert kb is not None
        items.extend(known.kong.get(k) or BonusItem(rules.kong_bonus_names.get(k, kb.name),
                                                    kb.clause, kb.fan) for k in kong_kinds)
    if flags or extra_bonuses:
        for key, item in known.situational:
            if key in flags or key in extra_bonuses:
                items.append(item)
    raw = pfan
    for i in items:
        raw += i.fan
    score = HandScore(name, name_en, clause, pfan, tuple(items), raw, rules.cap(raw))
    if interned:
        if len(known.scores) > 100_000:  # unusual flag spellings could grow it; stay bounded
            known.scores.clear()
        known.scores[skey] = score
    return score


# id(score) -> (score, fan text, bonus line parts); holding the score keeps its id unique
_FAN_TEXTS: dict[int, tuple[HandScore, str, tuple[tuple[str, str], ...]]] = {}


def _texts(score: HandScore) -> tuple[HandScore, str, tuple[tuple[str, str], ...]]:
    hit = _FAN_TEXTS.get(id(score))
    if hit is not None and hit[0] is score:
        return hit
    text = f"{score.pattern} {score.pattern_fan}"
    if score.bonuses:
        text = " + ".join([text] + [f"{b.name} {b.fan}" for b in score.bonuses])
    parts = tuple((f"{b.clause} ", f": {b.name} +{b.fan} fan") for b in score.bonuses)
    if len(_FAN_TEXTS) > 10_000:
        _FAN_TEXTS.clear()
    hit = _FAN_TEXTS[id(score)] = (score, text, parts)
    return hit


def fan_text(score: HandScore) -> str:
    """``"清一色 2 + 根 1"``: a win's pattern and bonuses as the trace writes them.

    Memoised per score object, which :func:`score_hand` shares between equal wins.
    """
    return _texts(score)[1]


def bonus_lines(score: HandScore, seat: str) -> list[str]:
    """The trace lines of a win's bonuses, ``"§5.1 E: 根 +1 fan"`` (parts memoised)."""
    return [head + seat + tail for head, tail in _texts(score)[2]]


_TERMINAL_KINDS = tuple(i for i in range(27) if i % 9 in (0, 8))


def hand_features(rules: Ruleset, counts: list[int] | tuple[int, ...], pongs: tuple[int, ...],
                  kongs: tuple[int, ...], kong_kinds: tuple[str, ...]) -> int:
    """The hand-level features (金钩钓, 门清, 中张) of a winning hand that the ruleset uses.

    ``counts`` are the concealed tiles with the winning tile. Only bits in
    ``rules.hand_features`` are computed, so a ruleset without these switches pays nothing.
    """
    used = rules.hand_features
    f = 0
    if used & SINGLE_WAIT and len(pongs) + len(kongs) == 4:
        f |= SINGLE_WAIT  # four melds: the winning tile pairs the single concealed tile
    if used & CONCEALED_HAND and not pongs and all(k == "concealed" for k in kong_kinds):
        f |= CONCEALED_HAND
    if used & ALL_SIMPLES and not any(counts[i] for i in _TERMINAL_KINDS) and not any(
            t % 9 in (0, 8) for t in pongs + kongs):
        f |= ALL_SIMPLES
    return f


def hand_bonus_keys(rules: Ruleset, features: int) -> tuple[str, ...]:
    """The +fan bonuses (by key) that a hand's hand-level features earn under the ruleset."""
    return tuple(k for k, bit in HAND_FEATURES.items()
                 if features & bit and k in rules.situational_bonuses)


def _max_fan_hand(rules: Ruleset, concealed: list[int], pongs: tuple[int, ...],
                  kongs: tuple[int, ...], ws: list[Wait], kong_kinds: tuple[str, ...]) -> int:
    """:func:`max_fan` for rulesets with hand-level features: each wait scored in full.

    金钩钓, 门清 and 中张 are properties the would-be hand carries, so they count in the
    ready check (situational bonuses such as 自摸加番 and 海底 never do).
    """
    top = None
    for w in ws:
        if not w.masks:
            continue
        c = list(concealed)
        c[w.tile] += 1
        hf = hand_features(rules, c, pongs, kongs, kong_kinds)
        masks = frozenset(m | hf for m in w.masks) if hf else w.masks
        sc = score_hand(rules, Hand(tuple(c), pongs, kongs), masks, kong_kinds=kong_kinds,
                        extra_bonuses=hand_bonus_keys(rules, hf))
        if top is None or sc.raw_fan > top:
            top = sc.raw_fan
    return 0 if top is None else max(0, rules.cap(top))


def max_fan(rules: Ruleset, concealed: list[int], pongs: tuple[int, ...],
            kongs: tuple[int, ...], ws: list[Wait], kong_kinds: tuple[str, ...]) -> int:
    """§2.12 maximum fan over the waits: pattern plus root and kong bonuses, capped.

    Situational bonuses never count here, so only the fan number is computed.
    """
    if rules.hand_features:
        return _max_fan_hand(rules, concealed, pongs, kongs, ws, kong_kinds)
    if pongs:
        c = list(concealed)
        for t in pongs:
            c[t] += 3
    else:
        c = concealed
    base_roots = c.count(4)
    kong_fan = rules.kong_bonus.fan * len(kongs) if rules.kong_bonus is not None else 0
    if rules.root_counts_kongs:
        base_roots += len(kongs)
    concealed_only = rules.root_concealed_only
    if concealed_only:
        concealed_fours = concealed.count(4)
    rid = rules.key
    top = None  # best uncapped fan; the cap is monotone, so capping it once is the same
    for w in ws:
        if not w.masks:
            continue
        if concealed_only:
            nroots = concealed_fours + (concealed[w.tile] == 3)
        else:
            nroots = base_roots + (c[w.tile] == 3)
        key = (rid, w.masks, nroots)
        fan = _READY_FAN.get(key)
        if fan is None:
            fan = _READY_FAN[key] = _ready_fan(rules, w.masks, nroots)
        if top is None or fan > top:
            top = fan
    return 0 if top is None else max(0, rules.cap(top + kong_fan))


# (ruleset key, masks, roots) -> best pattern fan plus root fan over the masks, uncapped
_READY_FAN: dict[tuple[str, frozenset[int], int], int] = {}


def _ready_fan(rules: Ruleset, masks: frozenset[int], nroots: int) -> int:
    root_fan = rules.root.fan
    return max(pfan + root_fan * (nroots - consumed)
               for _, _, _, _, pfan, consumed in (_pattern_for(rules, m, nroots) for m in masks))


def wait_names(ws: list[Wait]) -> list[str]:
    return [tile_name(w.tile) for w in ws]


def legal_masks(hand: Hand) -> set[int]:
    return feature_masks(hand)


# id(score) -> (score, rules, chips, text); holding both keeps the id from being reused
_WIN_TEXTS: dict[int, tuple[HandScore, Ruleset, int, str]] = {}


def win_text(sc: HandScore, rules: Ruleset) -> tuple[int, str]:
    """Chips of a win and the end of its trace line (memoised per shared score)."""
    hit = _WIN_TEXTS.get(id(sc))
    if hit is not None and hit[0] is sc and hit[1] is rules:
        return hit[2], hit[3]
    chips = rules.chips(sc.fan)
    capped = f" (capped from {sc.raw_fan})" if sc.raw_fan != sc.fan else ""
    text = (f": {fan_text(sc)} = {sc.fan} fan{capped} = "
            f"{chips} chip{'s' if chips != 1 else ''}")
    if len(_WIN_TEXTS) > 10_000:
        _WIN_TEXTS.clear()
    _WIN_TEXTS[id(sc)] = (sc, rules, chips, text)
    return chips, text
