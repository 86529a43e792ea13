"""Tile notation (hand-format.md "Tiles"), table-driven in the notation referees write."""

from __future__ import annotations

import pytest

from referee_app.core import Tile, TileParseError, canonical, format_tiles, parse_tiles


def names(text: str) -> list[str]:
    return [str(t) for t in parse_tiles(text)]


@pytest.mark.parametrize(("text", "expected"), [
    ("123m456p789s", "1m 2m 3m 4p 5p 6p 7s 8s 9s"),
    ("123m456p789s11m", "1m 2m 3m 4p 5p 6p 7s 8s 9s 1m 1m"),  # order as written
    ("23445677筒345789条", "2p 3p 4p 4p 5p 6p 7p 7p 3s 4s 5s 7s 8s 9s"),  # seed's own example
    ("19万", "1m 9m"),
    ("5筒5饼", "5p 5p"),
    ("3条3索", "3s 3s"),
    ("1M2P3S", "1m 2p 3s"),  # either case
    ("1 2 3 m", "1m 2m 3m"),  # whitespace anywhere
    (" 5p\t6p\n", "5p 6p"),
    ("1m2万3筒", "1m 2m 3p"),
    ("", ""),
    ("   ", ""),
])
def test_parse(text: str, expected: str) -> None:
    assert names(text) == (expected.split() if expected else [])


@pytest.mark.parametrize(("text", "char", "position"), [
    ("12x3m", "x", 3),
    ("0m", "0", 1),
    ("10m", "0", 2),
    ("m", "m", 1),
    ("12m p", "p", 5),
    ("12筒x", "x", 4),  # positions count characters, not bytes
    ("123m4z", "z", 6),
    ("5中", "中", 2),
    ("5p-6p", "-", 3),
])
def test_parse_error_names_char_and_position(text: str, char: str, position: int) -> None:
    with pytest.raises(TileParseError) as exc:
        parse_tiles(text)
    e = exc.value
    assert isinstance(e, ValueError)
    assert e.position == position and e.char == char
    assert str(position) in str(e) and char in str(e)


@pytest.mark.parametrize("text", ["123", "5p6", "12m 34"])
def test_digits_without_suit(text: str) -> None:
    with pytest.raises(TileParseError) as exc:
        parse_tiles(text)
    e = exc.value
    assert e.position is not None and text[e.position - 1].isdigit()
    assert str(e.position) in str(e)


@pytest.mark.parametrize("value", [None, 5, ["1m"], b"1m"])
def test_non_string_is_a_parse_error(value: object) -> None:
    with pytest.raises(TileParseError):
        parse_tiles(value)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "expected"), [
    ("123m456p789s", "123m456p789s"),
    ("1m2m3m", "123m"),
    ("1m1p1m", "1m1p1m"),  # order kept: only consecutive same-suit tiles share a letter
    ("23445677筒345789条", "23445677p345789s"),
    ("5M 5万", "55m"),
    ("", ""),
])
def test_format(text: str, expected: str) -> None:
    assert format_tiles(parse_tiles(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("5m1m2p", "15m2p"),
    ("9s1m5p1m", "11m5p9s"),
    ("321条", "123s"),
])
def test_canonical(text: str, expected: str) -> None:
    assert canonical(parse_tiles(text)) == expected


@pytest.mark.parametrize(("text", "rank", "suit", "chinese", "terminal"), [
    ("1m", 1, "m", "一万", True),
    ("5p", 5, "p", "五筒", False),
    ("9条", 9, "s", "九条", True),
])
def test_single_tile(text: str, rank: int, suit: str, chinese: str, terminal: bool) -> None:
    t = Tile.from_str(text)
    assert (t.rank, t.suit.value, t.chinese, t.is_terminal) == (rank, suit, chinese, terminal)
    assert str(t) == f"{rank}{suit}"


@pytest.mark.parametrize("text", ["", "55p", "5", "x"])
def test_single_tile_must_be_exactly_one(text: str) -> None:
    with pytest.raises(TileParseError):
        Tile.from_str(text)


def test_tile_order_and_identity() -> None:
    a, b, c = parse_tiles("9m1p1s")
    assert a < b < c
    assert parse_tiles("5p")[0] == Tile.from_str("5饼")
    assert len(set(parse_tiles("123456789m123456789p123456789s"))) == 27


def test_round_trip_every_tile() -> None:
    every = parse_tiles("123456789m123456789p123456789s")
    assert parse_tiles(format_tiles(every)) == every
    assert parse_tiles(format_tiles(every[::-1])) == every[::-1]
