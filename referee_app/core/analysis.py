"""Hand analysis: every reading of a winning hand, its features, and readiness.

Speed comes from per-suit decomposition tables: a suit's nine counts decompose
independently of the other suits, so each distinct count vector is decomposed once
(memoised) and a hand's readings are combinations of its suits' summaries. Fan is
never decided here: :mod:`referee_app.core.scoring` maps features to fan per ruleset.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from functools import cache
from itertools import combinations_with_replacement, product

from .tiles import NUM_KINDS, tile_name

# Feature bits of a reading (patterns in ruleset data name them by these strings).
STANDARD = 1
SEVEN_PAIRS = 2
ALL_PONGS = 4
FLUSH = 8
TERMINAL = 16
TWO_FIVE_EIGHT = 32
HEAVENLY = 64
EARTHLY = 128
DRAGON = 256  # seven pairs holding a four-of-a-kind (龙七对 in rulesets that name it)

FEATURE_BITS: dict[str, int] = {
    "standard": STANDARD,
    "seven_pairs": SEVEN_PAIRS,
    "all_pongs": ALL_PONGS,
    "flush": FLUSH,
    "terminal": TERMINAL,
    "258": TWO_FIVE_EIGHT,
    "heavenly": HEAVENLY,
    "earthly": EARTHLY,
    "dragon": DRAGON,
}

_TERMINAL_RANKS = (0, 8)
_258_RANKS = (1, 4, 7)


class GroupKind(Enum):
    PAIR = "pair"
    TRIPLET = "triplet"
    RUN = "run"
    PONG = "pong"  # exposed meld
    KONG = "kong"  # declared kong meld


@dataclass(frozen=True, slots=True)
class Group:
    """One set or the pair of a reading; ``first`` is the lowest tile's index."""

    kind: GroupKind
    first: int

    @property
    def tiles(self) -> tuple[int, ...]:
        if self.kind is GroupKind.RUN:
            return (self.first, self.first + 1, self.first + 2)
        n = {GroupKind.PAIR: 2, GroupKind.KONG: 4}.get(self.kind, 3)
        return (self.first,) * n

    @property
    def is_terminal(self) -> bool:
        return any(t % 9 in _TERMINAL_RANKS for t in self.tiles)

    def __str__(self) -> str:
        return "".join(str(t % 9 + 1) for t in self.tiles) + "mps"[self.first // 9]


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand; ``features`` is a bit set of the constants above."""

    groups: tuple[Group, ...]
    features: int

    @property
    def feature_names(self) -> tuple[str, ...]:
        return tuple(n for n, b in FEATURE_BITS.items() if self.features & b)

    def __str__(self) -> str:
        return " ".join(str(g) for g in self.groups)


# --------------------------------------------------------------------------- per suit


@cache
def _suit_decompositions(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], ...]:
    """All ways to split one suit's counts into triplets, runs and at most one pair.

    Groups are (kind, rank) with kind 0 pair, 1 triplet, 2 run. Memoised per vector.
    """
    i = next((r for r in range(9) if counts[r]), None)
    if i is None:
        return ((),)
    out: list[tuple[tuple[int, int], ...]] = []
    c = list(counts)
    if c[i] >= 3:
        c[i] -= 3
        out.extend(((1, i),) + rest for rest in _suit_decompositions(tuple(c)))
        c[i] += 3
    if i <= 6 and c[i + 1] and c[i + 2]:
        c[i] -= 1
        c[i + 1] -= 1
        c[i + 2] -= 1
        out.extend(((2, i),) + rest for rest in _suit_decompositions(tuple(c)))
        c[i] += 1
        c[i + 1] += 1
        c[i + 2] += 1
    if c[i] >= 2:
        c[i] -= 2
        out.extend(((0, i),) + rest for rest in _suit_decompositions(tuple(c))
                   if all(k != 0 for k, _ in rest))
    return tuple(out)


@cache
def _complete_table() -> dict[tuple[int, ...], frozenset[tuple[int, int, bool, bool]]]:
    """Every suit vector that splits into at most four sets and at most one pair, with the
    summaries of its splits — built once, on first use (about 30k vectors, some 50 ms), so
    scoring never searches: a suit vector is complete exactly when it is a key here. Its
    summaries agree with the splits :func:`_suit_decompositions` gives the readings (a test
    checks every vector it meets)."""
    shapes = [(r, r, r, False, r in _TERMINAL_RANKS) for r in range(9)] + [
        (r, r + 1, r + 2, True, r in (0, 6)) for r in range(7)]
    table: dict[tuple[int, ...], frozenset[tuple[int, int, bool, bool]]] = {}
    # almost every vector has a single summary: share one frozenset per summary
    single: dict[tuple[int, int, bool, bool], frozenset[tuple[int, int, bool, bool]]] = {}
    for k in range(5):
        for combo in combinations_with_replacement(shapes, k):
            vec = [0] * 9
            has_run = False
            term = True
            for a, b, c, run, t in combo:
                vec[a] += 1
                vec[b] += 1
                vec[c] += 1
                has_run = has_run or run
                term = term and t
            if max(vec) > 4:
                continue
            items = [((0, k, has_run, term), tuple(vec))]
            for p in range(9):
                if vec[p] <= 2:
                    vec[p] += 2
                    items.append(((1, k, has_run, term and p in _TERMINAL_RANKS), tuple(vec)))
                    vec[p] -= 2
            for item, key in items:
                cur = table.get(key)
                if cur is None:
                    fs = single.get(item)
                    if fs is None:
                        fs = single[item] = frozenset((item,))
                    table[key] = fs
                elif item not in cur:
                    table[key] = cur | {item}
    return table


_EMPTY: frozenset[tuple[int, int, bool, bool]] = frozenset()


def _suit_summaries(counts: tuple[int, ...]) -> frozenset[tuple[int, int, bool, bool]]:
    """(pairs, sets, has_run, all_groups_terminal) of every split with at most one pair."""
    return _complete_table().get(counts, _EMPTY)


# --------------------------------------------------------------------------- hands


@dataclass(frozen=True, slots=True)
class Hand:
    """A complete hand: the 14-tile count vector of concealed tiles + winning tile, plus melds.

    ``pongs`` and ``kongs`` are tile indices of exposed pongs and declared kongs.
    """

    counts: tuple[int, ...]
    pongs: tuple[int, ...] = ()
    kongs: tuple[int, ...] = ()

    @property
    def melds(self) -> int:
        return len(self.pongs) + len(self.kongs)

    def all_counts(self) -> list[int]:
        c = list(self.counts)
        for t in self.pongs:
            c[t] += 3
        for t in self.kongs:
            c[t] += 4
        return c


def suits_used(counts: list[int] | tuple[int, ...]) -> int:
    """How many suits a count vector (concealed + melds) touches."""
    return (any(counts[0:9]) + any(counts[9:18]) + any(counts[18:27]))


def tile_features(all_counts: list[int] | tuple[int, ...]) -> tuple[bool, bool, bool]:
    """(flush, all tiles terminal, all tiles 2/5/8) of the whole hand including melds."""
    flush = suits_used(all_counts) == 1
    all_term = all(all_counts[i] == 0 for i in range(NUM_KINDS) if i % 9 not in _TERMINAL_RANKS)
    all_258 = all(all_counts[i] == 0 for i in range(NUM_KINDS) if i % 9 not in _258_RANKS)
    return flush, all_term, all_258


#: interned summary sets (the table holds only a few dozen distinct ones) -> small ids
_SUMMARY_IDS: dict[frozenset[tuple[int, int, bool, bool]], int] = {}
_SUMMARY_TUPLES: list[tuple[tuple[int, int, bool, bool], ...]] = []  # by id, shared by infos


@cache
def _suit_info(key: tuple[int, ...]) -> tuple[tuple[tuple[int, int, bool, bool], ...], int,
                                                bool, bool, bool, bool, int, bool, int]:
    """Per-suit facts, memoised: (decomposition summaries with at most one pair, tile count,
    only terminals, only 2/5/8, all counts even, holds a four-of-a-kind, summary-set id,
    usable in a win: decomposable or all pairs, and a code of everything feature sets depend
    on: summary-set id, has tiles, terminals, 2/5/8, even, four-of-a-kind)."""
    summ = _suit_summaries(key)
    sid = _SUMMARY_IDS.get(summ)
    if sid is None:
        sid = _SUMMARY_IDS[summ] = len(_SUMMARY_IDS)
        _SUMMARY_TUPLES.append(tuple(summ))
    k0, k1, k2, k3, k4, k5, k6, k7, k8 = key
    even = not (k0 | k1 | k2 | k3 | k4 | k5 | k6 | k7 | k8) & 1
    n = k0 + k1 + k2 + k3 + k4 + k5 + k6 + k7 + k8
    term = not (k1 or k2 or k3 or k4 or k5 or k6 or k7)
    t258 = not (k0 or k2 or k3 or k5 or k6 or k8)
    four = 4 in key
    code = (sid << 5) | ((n > 0) | (term << 1) | (t258 << 2) | (even << 3) | (four << 4))
    return (_SUMMARY_TUPLES[sid], n, term, t258, even, four, sid, bool(summ) or even, code)


_NO_SUMMARY: tuple = ()


def _masks_from(infos: list[tuple], melds: tuple[int, ...], fixed_run: int | None = None
                ) -> set[int]:
    """Feature sets of all readings, from the three suits' infos and the meld tiles.

    ``fixed_run`` (lowest tile of a run already taken out of the counts) restricts the
    result to readings that contain that run — 卡二条 needs "2s as the middle of 123s".
    """
    masks: set[int] = set()
    n = infos[0][1] + infos[1][1] + infos[2][1]
    nmelds = len(melds)
    extra = 0 if fixed_run is None else 3
    if n + 3 * nmelds + extra != 14:
        return masks
    suits = {s for s in range(3) if infos[s][1]}
    suits.update(m // 9 for m in melds)
    if fixed_run is not None:
        suits.add(fixed_run // 9)
    base = FLUSH if len(suits) == 1 else 0
    melds_term = all(m % 9 in _TERMINAL_RANKS for m in melds) and (
        fixed_run is None or fixed_run % 9 in (0, 6))
    all_term = melds_term and infos[0][2] and infos[1][2] and infos[2][2] and fixed_run is None
    if nmelds == 0 and fixed_run is None and infos[0][4] and infos[1][4] and infos[2][4]:
        m = SEVEN_PAIRS | base
        if all_term:
            m |= TERMINAL
        if infos[0][5] or infos[1][5] or infos[2][5]:
            m |= DRAGON
        masks.add(m)
    sa, sb, sc = infos[0][0], infos[1][0], infos[2][0]
    if not (sa and sb and sc):
        return masks
    all_258 = (infos[0][3] and infos[1][3] and infos[2][3] and fixed_run is None
               and all(m % 9 in _258_RANKS for m in melds))
    need_sets = 4 - nmelds - (fixed_run is not None)
    forced_run = fixed_run is not None
    for a in sa:
        for b in sb:
            if a[0] + b[0] > 1:
                continue
            for c in sc:
                if a[0] + b[0] + c[0] != 1 or a[1] + b[1] + c[1] != need_sets:
                    continue
                m = STANDARD | base
                if not (forced_run or a[2] or b[2] or c[2]):
                    m |= ALL_PONGS
                    if all_258:
                        m |= TWO_FIVE_EIGHT
                if a[3] and b[3] and c[3] and melds_term:
                    m |= TERMINAL
                masks.add(m)
    return masks


@cache
def _meld_facts(melds: tuple[int, ...]) -> tuple[int, int, bool, bool, int]:
    """(number of melds, bit set of their suits, all terminal, all 2/5/8, a code of all four),
    memoised."""
    suits = 0
    term = t258 = True
    for m in melds:
        suits |= 1 << (m // 9)
        rank = m % 9
        term = term and rank in _TERMINAL_RANKS
        t258 = t258 and rank in _258_RANKS
    return (len(melds), suits, term, t258, ((len(melds) * 8 + suits) * 2 + term) * 2 + t258)


def meld_suits(melds: tuple[int, ...]) -> int:
    """Bit set of the suits of some meld tiles (bit 0 m, 1 p, 2 s)."""
    return _meld_facts(melds)[1]


_MASKS: dict[tuple, frozenset[int]] = {}
_NO_MASKS: frozenset[int] = frozenset()


def _masks_fast(i0: tuple, i1: tuple, i2: tuple, melds: tuple[int, ...],
                facts: tuple[int, int, bool, bool, int]) -> frozenset[int]:
    """:func:`_masks_from` without a fixed run, memoised on everything it depends on.

    The key is the suits' info codes (summary-set id and a few booleans) and the melds'
    code, so it repeats across hands (a few hundred keys cover thousands of hands); a miss
    asks ``_masks_from``.
    """
    if i0[1] + i1[1] + i2[1] + 3 * facts[0] != 14:
        return _NO_MASKS
    key = (i0[8], i1[8], i2[8], facts[4])
    hit = _MASKS.get(key)
    if hit is None:
        hit = _MASKS[key] = _masks_by_features(i0, i1, i2, melds, facts)
    return hit


# the same, keyed by the combined facts only (fewer keys, so fewer calls of _masks_from)
_MASKS_BY_FEATURES: dict[tuple, frozenset[int]] = {}


def _masks_by_features(i0: tuple, i1: tuple, i2: tuple, melds: tuple[int, ...],
                       facts: tuple[int, int, bool, bool, int]) -> frozenset[int]:
    nmelds, suits, mterm, m258, _ = facts
    if i0[1]:
        suits |= 1
    if i1[1]:
        suits |= 2
    if i2[1]:
        suits |= 4
    key = (i0[6], i1[6], i2[6], nmelds, suits in (1, 2, 4), mterm,
           mterm and i0[2] and i1[2] and i2[2], m258 and i0[3] and i1[3] and i2[3],
           i0[4] and i1[4] and i2[4], i0[5] or i1[5] or i2[5])
    hit = _MASKS_BY_FEATURES.get(key)
    if hit is None:
        hit = _MASKS_BY_FEATURES[key] = frozenset(_masks_from([i0, i1, i2], melds))
    return hit


def masks_of_suits(k0: tuple[int, ...], k1: tuple[int, ...], k2: tuple[int, ...],
                   melds: tuple[int, ...]) -> tuple[frozenset[int], int]:
    """Feature sets of a hand given as its three per-suit count keys (concealed tiles and the
    winning tile) plus meld tiles, and the bit set of the suits it uses, melds included.

    The settlement's fast path of :func:`feature_masks`: the keys come precomputed per seat
    and the returned set is shared (interned), so callers must not change it.
    """
    i0 = _suit_info(k0)
    i1 = _suit_info(k1)
    i2 = _suit_info(k2)
    facts = _meld_facts(melds)
    suits = facts[1] | (i0[1] > 0) | ((i1[1] > 0) << 1) | ((i2[1] > 0) << 2)
    return _masks_fast(i0, i1, i2, melds, facts), suits


def masks_with_run(hand: Hand, first: int) -> set[int]:
    """Feature sets of the readings of ``hand`` that use the run first, first+1, first+2."""
    c = list(hand.counts)
    for t in (first, first + 1, first + 2):
        if c[t] < 1:
            return set()
        c[t] -= 1
    infos = [_suit_info(tuple(c[0:9])), _suit_info(tuple(c[9:18])), _suit_info(tuple(c[18:27]))]
    return _masks_from(infos, hand.pongs + hand.kongs, first)


def feature_masks(hand: Hand) -> set[int]:
    """The distinct feature sets of every reading of ``hand`` (empty: not a legal hand).

    Fast path used for scoring: it never builds group lists.
    """
    c = hand.counts
    melds = hand.pongs + hand.kongs
    return set(_masks_fast(_suit_info(tuple(c[0:9])), _suit_info(tuple(c[9:18])),
                           _suit_info(tuple(c[18:27])), melds, _meld_facts(melds)))


def readings(hand: Hand) -> list[Reading]:
    """Every reading of a winning hand, with its groups (for display and tests)."""
    counts = hand.counts
    allc = hand.all_counts()
    flush, all_term, all_258 = tile_features(allc)
    out: list[Reading] = []
    if sum(counts) + 3 * hand.melds != 14:
        return out
    base = FLUSH if flush else 0
    melds = tuple(Group(GroupKind.PONG, t) for t in hand.pongs) + tuple(
        Group(GroupKind.KONG, t) for t in hand.kongs)
    if hand.melds == 0 and all(c % 2 == 0 for c in counts):
        groups = tuple(Group(GroupKind.PAIR, i) for i in range(NUM_KINDS)
                       for _ in range(counts[i] // 2))
        m = SEVEN_PAIRS | base | (TERMINAL if all_term else 0)
        if any(c == 4 for c in counts):
            m |= DRAGON
        out.append(Reading(groups, m))
    kinds = (GroupKind.PAIR, GroupKind.TRIPLET, GroupKind.RUN)
    per_suit = [_suit_decompositions(tuple(counts[s * 9:(s + 1) * 9])) for s in range(3)]
    seen: set[tuple[tuple[int, int], ...]] = set()
    for combo in product(*per_suit):
        # the search can find one split in several orders: list each split once, sorted
        key = tuple(sorted((s * 9 + r, k) for s, dec in enumerate(combo) for k, r in dec))
        if key in seen:
            continue
        seen.add(key)
        groups = tuple(Group(kinds[k], t) for t, k in key)
        pairs = sum(1 for g in groups if g.kind is GroupKind.PAIR)
        if pairs != 1 or len(groups) - 1 + hand.melds != 4:
            continue
        allg = groups + melds
        m = STANDARD | base
        if not any(g.kind is GroupKind.RUN for g in allg):
            m |= ALL_PONGS
            if all_258:
                m |= TWO_FIVE_EIGHT
        if all(g.is_terminal for g in allg):
            m |= TERMINAL
        out.append(Reading(allg, m))
    return out


def roots(hand: Hand) -> int:
    """Tile kinds held four times (concealed, pongs and winning tile) that are not kongs."""
    c = list(hand.counts)
    for t in hand.pongs:
        c[t] += 3
    return c.count(4)


@dataclass(frozen=True, slots=True)
class Wait:
    tile: int
    masks: frozenset[int]

    @property
    def name(self) -> str:
        return tile_name(self.tile)




def waits(concealed: list[int] | tuple[int, ...], pongs: tuple[int, ...] = (),
          kongs: tuple[int, ...] = (), *, max_suits: int = 2) -> list[Wait]:
    """Tiles that complete a 13-tile hand into a legal win with at most ``max_suits`` suits.

    A tile of which the seat itself holds all four copies cannot be waited on (§2.12
    Reading). ``concealed`` is a 27-count vector.
    """
    if sum(concealed) + 3 * (len(pongs) + len(kongs)) != 13:
        return []
    held = list(concealed)
    for t in pongs:
        held[t] += 3
    for t in kongs:
        held[t] += 4
    used = (any(held[0:9]) | (any(held[9:18]) << 1) | (any(held[18:27]) << 2))
    keys = (tuple(concealed[0:9]), tuple(concealed[9:18]), tuple(concealed[18:27]))
    return waits_of_suits(keys, held, used, pongs + kongs, max_suits)


_SUITS_IN = tuple(bin(b).count("1") for b in range(8))  # suit bit set -> number of suits
_SUITS_OF = tuple(tuple(s for s in range(3) if b >> s & 1) for b in range(8))  # bit set -> suits


def waits_of_suits(keys: tuple[tuple[int, ...], ...], held: list[int], used: int,
                   melds: tuple[int, ...], max_suits: int) -> list[Wait]:
    """:func:`waits` of a 13-tile hand given as its per-suit concealed keys, its held counts
    (concealed and melds), the bit set of suits it uses and its meld tiles.

    The settlement's fast path: the seat's keys are computed once per hand.
    """
    nused = _SUITS_IN[used]
    if nused > max_suits:
        return []
    facts = _meld_facts(melds)
    i0 = _suit_info(keys[0])
    i1 = _suit_info(keys[1])
    i2 = _suit_info(keys[2])
    out: list[Wait] = []
    # a suit that is neither decomposable nor all pairs ([7]) rules out waits in the others
    for s in range(3) if nused < max_suits else _SUITS_OF[used]:
        if s == 0:
            if not (i1[7] and i2[7]):
                continue
        elif s == 1:
            if not (i0[7] and i2[7]):
                continue
        elif not (i0[7] and i1[7]):
            continue
        base = s * 9
        for r, info in _suit_extensions(keys[s]):
            t = base + r
            if held[t] >= 4:
                continue
            if s == 0:
                masks = _masks_fast(info, i1, i2, melds, facts)
            elif s == 1:
                masks = _masks_fast(i0, info, i2, melds, facts)
            else:
                masks = _masks_fast(i0, i1, info, melds, facts)
            if masks:
                out.append(Wait(t, masks))
    return out


@cache
def _suit_extensions(key: tuple[int, ...]) -> tuple[tuple[int, tuple], ...]:
    """Ranks whose addition leaves the suit decomposable (or all pairs), with the new info."""
    odd = [r for r in range(9) if key[r] & 1]
    even_rank = odd[0] if len(odd) == 1 else -1  # the one rank that would make all pairs
    if (sum(key) + 1) % 3 == 1:  # sets and at most one pair hold 3k or 3k + 2 tiles
        if even_rank < 0 or key[even_rank] >= 4:
            return ()
        k = list(key)
        k[even_rank] += 1
        return ((even_rank, _suit_info(tuple(k))),)
    out = []
    vec = list(key)
    pad = (0, 0, *key, 0, 0)  # pad[r + 2] is key[r]
    for r in range(9):
        c = vec[r]
        if c >= 4:
            continue
        if not c and not ((pad[r + 1] and (pad[r] or pad[r + 3])) or (pad[r + 3] and pad[r + 4])):
            continue  # a lone new tile with no run around it: no set or pair holds it
        vec[r] = c + 1
        k = tuple(vec)
        vec[r] = c
        if r == even_rank or _suit_summaries(k):  # only then is the info needed
            out.append((r, _suit_info(k)))
    return tuple(out)
