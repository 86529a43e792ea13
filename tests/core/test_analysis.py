"""Hand analysis and fan, table-driven in tile notation (expected values worked by hand).

A hand is written as its concealed tiles including the winning tile; melds are given
separately, one tile per pong or kong. Expected readings, features, waits and fan follow ottawa-2009.md §4/§5 and the
§2.12 Reading (ready, waits, maximum fan).
"""

from __future__ import annotations

import pytest

from referee_app.core import get_ruleset, parse_tiles
from referee_app.core.analysis import Hand, feature_masks, readings, roots, waits
from referee_app.core.scoring import max_fan, score_hand

RULES = get_ruleset("ottawa-2009")


def counts(text: str) -> list[int]:
    c = [0] * 27
    for t in parse_tiles(text):
        c[t.index] += 1
    return c


def idx(text: str) -> tuple[int, ...]:
    return tuple(t.index for t in parse_tiles(text))


def hand(text: str, pongs: str = "", kongs: str = "") -> Hand:
    return Hand(tuple(counts(text)), idx(pongs), idx(kongs))


def reading_sets(h: Hand) -> set[tuple[str, ...]]:
    return {tuple(sorted(str(g) for g in r.groups)) for r in readings(h)}


# --------------------------------------------------------------------------- readings


@pytest.mark.parametrize(("tiles", "expected"), [
    # worked example 1: 234p 456p 77p 345s 789s
    ("2344567p345789s7p", {("234p", "345s", "456p", "77p", "789s")}),
    # worked example 2: the only reading is 111 123 456 789 99
    ("1112345678999m1m", {("111m", "123m", "456m", "789m", "99m")}),
    # two readings: three triplets or three identical runs
    ("111222333456s99s", {("111s", "222s", "333s", "456s", "99s"),
                          ("123s", "123s", "123s", "456s", "99s")}),
    # seven pairs and a standard reading of the same tiles
    ("11223355778899s", {("11s", "22s", "33s", "55s", "77s", "88s", "99s"),
                         ("123s", "123s", "55s", "789s", "789s")}),
    # four of a kind is two pairs; no standard reading
    ("11222244m557799p", {("11m", "22m", "22m", "44m", "55p", "77p", "99p")}),
    ("123m456m789m12p55s", set()),  # not a winning hand
    ("123m456m789m123p5s", set()),  # 14 tiles, no pair
])
def test_readings(tiles: str, expected: set[tuple[str, ...]]) -> None:
    assert reading_sets(hand(tiles)) == expected
    assert bool(feature_masks(hand(tiles))) == bool(expected)


def test_readings_with_melds() -> None:
    h = hand("444666p888m77m", kongs="3m")  # worked example 4's shape
    (r,) = readings(h)
    assert {"all_pongs", "standard"} <= set(r.feature_names)
    assert "flush" not in r.feature_names
    assert reading_sets(hand("234s789s88m567m", kongs="6s")) == {
        ("234s", "567m", "6666s", "789s", "88m")}


def test_no_seven_pairs_with_a_meld() -> None:
    # 5 pairs + a pong: seven pairs needs no pong or kong meld at all (§4)
    assert readings(hand("1122335577s", pongs="9s")) == []


# --------------------------------------------------------------------------- features


def features(tiles: str, pongs: str = "", kongs: str = "") -> set[frozenset[str]]:
    return {frozenset(r.feature_names) for r in readings(hand(tiles, pongs, kongs))}


@pytest.mark.parametrize(("tiles", "pongs", "kongs", "must", "must_not"), [
    ("2344567p345789s7p", "", "", {"standard"},
     {"all_pongs", "flush", "terminal", "258", "seven_pairs"}),
    ("1112345678999m1m", "", "", {"standard", "flush"}, {"terminal", "all_pongs"}),
    ("222555888m22p888p", "", "", {"all_pongs", "258"}, {"flush", "terminal"}),
    ("123789m123789p11m", "", "", {"terminal"}, {"all_pongs", "flush"}),
    ("111222333p789p99p", "", "", {"flush"}, set()),
    ("11119999m11119p9p", "", "", {"seven_pairs", "terminal"}, {"standard", "flush"}),
    ("1122334455688p6p", "", "", {"flush"}, {"terminal"}),
    # all pongs + terminal needs three suits (impossible to win with under §2.4, but the
    # features are still computed)
    ("111m999m111p999s11s", "", "", {"all_pongs", "terminal"}, {"flush", "258"}),
    ("555m888m22p", "2m", "5p", {"all_pongs", "258"}, {"flush"}),
    ("111m11p999s", "9m", "9p", {"all_pongs", "terminal"}, {"flush"}),
])
def test_features(tiles: str, pongs: str, kongs: str, must: set[str],
                  must_not: set[str]) -> None:
    feats = features(tiles, pongs, kongs)
    assert feats, "expected a winning hand"
    assert any(must <= f for f in feats)
    assert all(not (must_not & f) for f in feats if must <= f)


def test_terminal_needs_every_group_terminal() -> None:
    # 456m has no 1 or 9: worked example 2 is not terminal
    assert all("terminal" not in f for f in features("1112345678999m1m"))
    assert any("terminal" in f for f in features("123m123m789m789m99m"))


# --------------------------------------------------------------------------- fan


def fan_of(tiles: str, pongs: str = "", kongs: str = "", kinds: tuple[str, ...] = (),
           flags: tuple[str, ...] = ()) -> tuple[str, int, list[str], int]:
    h = hand(tiles, pongs, kongs)
    s = score_hand(RULES, h, feature_masks(h), flags=flags, kong_kinds=kinds)
    return s.pattern_clause, s.pattern_fan, sorted(b.name for b in s.bonuses), s.fan


@pytest.mark.parametrize(("tiles", "pongs", "kongs", "kinds", "flags", "expected"), [
    ("2344567p345789s7p", "", "", (), (), ("§4.1", 1, [], 1)),  # worked example 1
    ("1112345678999m1m", "", "", (), (), ("§4.3", 3, ["根"], 4)),  # worked example 2
    ("11222244m557799p", "", "", (), (), ("§4.5", 3, ["根"], 4)),  # worked example 3
    ("444666p888m77m", "", "3m", ("added",), (), ("§4.2", 2, ["刮风"], 3)),  # example 4
    ("111222333s456s99s", "", "", (), (), ("§4.3", 3, [], 3)),  # tie of two readings
    ("11223355778899s", "", "", (), (), ("§4.9", 5, [], 5)),
    ("11112233445566p", "", "", (), (), ("§4.9", 5, ["根"], 6)),  # flush 龙七对
    ("222555888m55p888p", "", "", (), (), ("§4.6b", 4, [], 4)),
    ("222444666888m33m", "", "", (), (), ("§4.6", 4, [], 4)),
    ("123789m123789p11m", "", "", (), (), ("§4.4", 3, [], 3)),
    ("111222333p789p99p", "", "", (), (), ("§4.8", 5, [], 5)),
    ("11119999m11119p9p", "", "", (), (), ("§4.10", 5, ["根", "根", "根"], 8)),
    ("123m678m999p11p", "", "5m", ("concealed",), (), ("§4.1", 1, ["下雨"], 2)),
    ("123m789m11p", "9p", "5m", ("direct",), (), ("§4.1", 1, ["刮风"], 2)),
    # a pong plus the fourth tile concealed is a root (§5.1), not a kong
    ("345m678m789p11p", "5m", "", (), (), ("§4.1", 1, ["根"], 2)),
    ("123456789m234p55p", "", "", (), ("heavenly",), ("§4.7b", 5, [], 5)),
    # §4.7b is reported only when strictly higher (hand-format.md)
    ("11223355778899s", "", "", (), ("heavenly",), ("§4.9", 5, [], 5)),
    ("123456789m234s55s", "", "", (), ("earthly",), ("§4.7b", 5, [], 5)),
    ("34789p111234s99s5p", "", "", (), ("robbing_kong",), ("§4.1", 1, ["抢杠"], 2)),
    ("123s567s789m99m", "", "4s", ("direct",), ("kong_bloom",),
     ("§4.1", 1, ["刮风", "杠上花"], 3)),
    ("123456p123456m88m", "", "", (), ("kong_discard",), ("§4.1", 1, ["杠上炮"], 2)),
])
def test_fan(tiles: str, pongs: str, kongs: str, kinds: tuple[str, ...],
             flags: tuple[str, ...], expected: tuple[str, int, list[str], int]) -> None:
    assert fan_of(tiles, pongs, kongs, kinds, flags) == expected


def test_chips_function() -> None:
    assert [RULES.chips(f) for f in range(1, 9)] == [1, 2, 4, 8, 16, 32, 64, 128]
    assert RULES.chips(12) == 2048  # uncapped (§3)


@pytest.mark.parametrize(("tiles", "pongs", "expected"), [
    ("1112345678999m1m", "", 1),
    ("11222244m557799p", "", 1),
    ("11119999m11119p9p", "", 3),
    ("345m678m789p11p", "5m", 1),
    ("2344567p345789s7p", "", 0),
])
def test_roots(tiles: str, pongs: str, expected: int) -> None:
    assert roots(hand(tiles, pongs)) == expected


# --------------------------------------------------------------------------- waits


def wait_info(tiles: str, pongs: str = "", kongs: str = "",
              kinds: tuple[str, ...] = ()) -> tuple[list[str], int]:
    c = counts(tiles)
    ws = waits(c, idx(pongs), idx(kongs))
    mf = max_fan(RULES, c, idx(pongs), idx(kongs), ws, kinds) if ws else 0
    return [w.name for w in ws], mf


@pytest.mark.parametrize(("tiles", "pongs", "kongs", "kinds", "expected"), [
    ("123456789m23s55s", "", "", (), (["1s", "4s"], 1)),
    ("234678m345567p9p", "", "", (), (["9p"], 1)),
    ("345789m1234678s", "", "", (), (["1s", "4s"], 1)),  # 123s 44s 678s too
    ("3456789p345678s", "", "", (), (["3p", "6p", "9p"], 1)),
    ("2346789p345567s", "", "", (), (["6p", "9p"], 1)),
    # flush all pongs on 9p (4 fan) or flush with 789p on 8p (3 fan): maximum 4
    ("1113335557779p", "", "", (), (["8p", "9p"], 4)),
    # hand-format.md: S is ready on 1p/4p, plain + its concealed kong = 2 fan
    ("2366p456s", "5p", "9s", ("concealed",), (["1p", "4p"], 2)),
    # nine gates: every 1m-9m; 1m or 9m adds a root to the flush: 4 fan
    ("1112345678999m", "", "", (), ([f"{i}m" for i in range(1, 10)], 4)),
    # seven pairs waits (a single), flush seven pairs: §4.9 5
    ("1122334455668p", "", "", (), (["8p"], 5)),
    # not ready: the only completing tile is one the seat holds all four of (§2.12 Reading)
    ("1111m234p567p789p", "", "", (), ([], 0)),
    ("124578m1357s", "", "9s", ("concealed",), ([], 0)),
    ("35579m2468p1357s", "", "", (), ([], 0)),  # three suits: a flower pig is never ready
    ("23456789m234p", "", "1p", ("concealed",), ([], 0)),  # 相公: 11 + 3 tiles
])
def test_waits_and_max_fan(tiles: str, pongs: str, kongs: str, kinds: tuple[str, ...],
                           expected: tuple[list[str], int]) -> None:
    assert wait_info(tiles, pongs, kongs, kinds) == expected


def test_max_fan_never_counts_situational_bonuses() -> None:
    # A ready hand whose only completion would be a kong bloom still counts just §4 + §5.1/2
    names, mf = wait_info("123s567s789m9m", kongs="4s", kinds=("direct",))
    assert names == ["6m", "9m"] and mf == 2  # 678m 99m or 789m 99m, + 刮风
