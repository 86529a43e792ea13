"""Hand analysis a referee can ask for directly: readings of a win, or waits of a hand.

Settlement uses the fast paths of :mod:`.analysis`; this module puts the same analysis in
readable form ("is this 14-tile hand a win, read how, worth what?", "is this 13-tile hand
ready, on what, for how much?") for the CLI's ``analyse`` command, the GUI and tests.
"""

from __future__ import annotations

from dataclasses import dataclass

from .analysis import FEATURE_BITS, Hand, readings, suits_used, waits
from .checks import Problem, hand_size_problem, suits_problem, tile_count_problems
from .errors import Message
from .results import RuleViolation
from .ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from .scoring import HandScore, score_hand
from .tiles import NUM_KINDS, TileParseError, parse_indices, tile_name


@dataclass(frozen=True, slots=True)
class ReadingView:
    """One reading: its groups in notation, features, and the pattern it scores alone."""

    groups: tuple[str, ...]
    features: tuple[str, ...]
    pattern: str
    pattern_clause: str
    fan: int


@dataclass(frozen=True, slots=True)
class WinAnalysis:
    """A complete hand: every reading and the best total (base + §5.1/§5.2 bonuses)."""

    tiles: str
    legal: bool
    #: the rules the tiles break, as data (clause, code, params; no seat)
    violations: tuple[RuleViolation, ...]
    readings: tuple[ReadingView, ...]
    best: HandScore | None
    #: §1 fails (five copies of a tile, a suit not played): no table can hold these tiles
    impossible: bool = False

    @property
    def problems(self) -> tuple[str, ...]:
        """Each violation as an English line, ``"§2.4 the hand holds all three suits …"``."""
        return tuple(f"{v.clause} {v.message}" for v in self.violations)


@dataclass(frozen=True, slots=True)
class WaitView:
    tile: str
    fan: int
    pattern: str


@dataclass(frozen=True, slots=True)
class ReadyAnalysis:
    """A 13-tile hand at the wall's end: ready or not, its waits and §2.12 maximum fan."""

    tiles: str
    tile_count: int
    xianggong: bool
    flower_pig: bool
    ready: bool
    waits: tuple[WaitView, ...]
    max_fan: int
    #: §1 problems (five copies of a tile, a suit the ruleset does not play): not ready then
    violations: tuple[RuleViolation, ...] = ()

    @property
    def problems(self) -> tuple[str, ...]:
        """Each violation as an English line."""
        return tuple(f"{v.clause} {v.message}" for v in self.violations)


def _counts(text: str) -> list[int]:
    c = [0] * NUM_KINDS
    for i in parse_indices(text):
        c[i] += 1
    return c


def _indices(tiles: tuple[str, ...] | list[str], role: str = "meld") -> tuple[int, ...]:
    """Each tile's index; ``role`` (meld, pong, kong, winning) names them in a refusal."""
    out = []
    for t in tiles:
        what = Message.of(f"tile_role_{role}")
        try:
            idx = parse_indices(t)
        except TileParseError as e:
            raise TileParseError.like(what, e) from None
        if len(idx) != 1:
            raise TileParseError.at("one_tile_as", t, what=what, n=len(idx), got=t)
        out.append(idx[0])
    return tuple(out)


def analyse_win(concealed: str, winning_tile: str | None = None, *, pongs: tuple[str, ...] = (),
                kongs: tuple[str, ...] = (), ruleset: str = DEFAULT_RULESET) -> WinAnalysis:
    """Every reading of ``concealed`` (+ ``winning_tile``) with melds, and the best score.

    Raises TileParseError (a ValueError) for bad notation.
    """
    rules = get_ruleset(ruleset)
    c = _counts(concealed)
    if winning_tile is not None:  # a single-tile field holds exactly one tile (hand-format.md)
        c[_indices((winning_tile,), "winning")[0]] += 1
    p, k = _indices(pongs, "pong"), _indices(kongs, "kong")
    hand = Hand(tuple(c), p, k)
    # the same §1/§2.1/§2.4 checks (and words) as settlement: one shared validation
    found: list[Problem | None] = list(tile_count_problems(_in_play(c, p, k), rules,
                                                           in_hand=True))
    impossible = bool(found)  # tiles that cannot all be on the table: no reading to show
    found.append(hand_size_problem(None, max(sum(c) - 1, 0), len(p), len(k)))
    found.append(suits_problem(None, suits_used(hand.all_counts()), rules))
    problems = [_violation(x, rules) for x in found if x is not None]
    views = []
    for r in () if impossible else readings(hand):
        sc = score_hand(rules, hand, {r.features})
        views.append(ReadingView(tuple(str(g) for g in r.groups), r.feature_names,
                                 sc.pattern, sc.pattern_clause, sc.pattern_fan))
    if not views and not impossible:
        problems.append(_violation(Problem("legal_hand", "no_reading", ()), rules))
    best = score_hand(rules, hand, {r.features for r in readings(hand)},
                      kong_kinds=("concealed",) * len(k)) if views else None
    return WinAnalysis(concealed + (winning_tile or ""), not problems, tuple(problems),
                       tuple(views), best, impossible)


def analyse_ready(concealed: str, *, pongs: tuple[str, ...] = (), kongs: tuple[str, ...] = (),
                  ruleset: str = DEFAULT_RULESET) -> ReadyAnalysis:
    """Readiness of an unwon seat as §2.12 reads it (its Reading): waits and maximum fan."""
    rules = get_ruleset(ruleset)
    c = _counts(concealed)
    p, k = _indices(pongs, "pong"), _indices(kongs, "kong")
    held = _in_play(c, p, k)
    n = sum(c) + 3 * (len(p) + len(k))
    pig = suits_used(held) == 3
    problems = tuple(_violation(x, rules)
                     for x in tile_count_problems(held, rules, in_hand=True))
    ws = waits(c, p, k, max_suits=rules.max_suits_in_win) if n == 13 and not problems else []
    views = []
    for w in ws:
        c[w.tile] += 1
        sc = score_hand(rules, Hand(tuple(c), p, k), w.masks, kong_kinds=("concealed",) * len(k))
        c[w.tile] -= 1
        views.append(WaitView(tile_name(w.tile), sc.fan, sc.pattern))
    return ReadyAnalysis(concealed, n, n != 13, pig, bool(views), tuple(views),
                         max((v.fan for v in views), default=0), problems)


def _violation(p: Problem, rules: Ruleset) -> RuleViolation:
    return RuleViolation(p.clause(rules), None, p.message, p.code, p.params)


def _in_play(counts: list[int], pongs: tuple[int, ...], kongs: tuple[int, ...]) -> list[int]:
    """Every tile the hand holds: concealed, a pong as three, a kong as four."""
    held = list(counts)
    for t in pongs:
        held[t] += 3
    for t in kongs:
        held[t] += 4
    return held


__all__ = ["FEATURE_BITS", "ReadingView", "ReadyAnalysis", "WaitView", "WinAnalysis",
           "analyse_ready", "analyse_win"]
