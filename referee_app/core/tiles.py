"""Tiles and the tile notation referees write: ``123m456p789s`` or ``23445677筒345789条``.

A tile is one of 27 kinds: 1-9 of 万 (m), 筒 (p) and 条 (s). Internally a tile is its
index 0..26 (m 0-8, p 9-17, s 18-26) so that hand analysis can work on count vectors;
:class:`Tile` is the public, readable face of that index.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any

from .errors import FieldError


class Suit(Enum):
    """The three suits, in the order the notation and all counts use."""

    M = "m"  # 万 characters
    P = "p"  # 筒 dots
    S = "s"  # 条 bamboo

    @property
    def index(self) -> int:
        return _SUIT_ORDER.index(self)

    @property
    def chinese(self) -> str:
        return {"m": "万", "p": "筒", "s": "条"}[self.value]


_SUIT_ORDER = (Suit.M, Suit.P, Suit.S)

#: Characters accepted for each suit (letters in either case, and the Chinese names).
SUIT_CHARS: dict[str, Suit] = {
    "m": Suit.M, "M": Suit.M, "万": Suit.M, "萬": Suit.M,
    "p": Suit.P, "P": Suit.P, "筒": Suit.P, "饼": Suit.P, "餅": Suit.P,
    "s": Suit.S, "S": Suit.S, "条": Suit.S, "條": Suit.S, "索": Suit.S,
}

NUM_KINDS = 27


class TileParseError(FieldError):
    """A tile string could not be read; names the offending character and its position
    (a message of the catalogue: ``error.tile_char`` and its kin)."""

    code = "tiles"
    #: the notation that could not be read (``text`` is the message in a language)
    notation: str = ""
    #: 1-based, None when the problem is the string as a whole
    position: int | None = None
    char: str | None = None

    @classmethod
    def at(cls, code: str, source: str, position: int | None = None, bad: str | None = None,
           /, **params: Any) -> TileParseError:
        """The error of message ``code`` about ``source`` (at ``position``, character
        ``bad``)."""
        e = cls.of("", code, **params)
        e.notation, e.position, e.char = source, position, bad
        return e


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One tile kind, e.g. ``Tile.from_str("5p")``; ordered m < p < s, then by rank."""

    index: int

    def __post_init__(self) -> None:
        if not 0 <= self.index < NUM_KINDS:
            raise ValueError(f"tile index {self.index} is not in 0..26")

    @classmethod
    def of(cls, rank: int, suit: Suit) -> Tile:
        if not 1 <= rank <= 9:
            raise ValueError(f"tile rank {rank} is not in 1..9")
        return TILES[suit.index * 9 + rank - 1]

    @classmethod
    def from_str(cls, text: str) -> Tile:
        """Read exactly one tile (``"5p"``, ``"5筒"``); anything else is a TileParseError."""
        tiles = parse_tiles(text)
        if len(tiles) != 1:
            raise TileParseError.at("one_tile", text, n=len(tiles), got=text)
        return tiles[0]

    @property
    def suit(self) -> Suit:
        return _SUIT_ORDER[self.index // 9]

    @property
    def rank(self) -> int:
        return self.index % 9 + 1

    @property
    def is_terminal(self) -> bool:
        return self.rank in (1, 9)

    @property
    def chinese(self) -> str:
        return f"{'一二三四五六七八九'[self.rank - 1]}{self.suit.chinese}"

    def __str__(self) -> str:
        return _NAMES[self.index]

    def __repr__(self) -> str:
        return f"Tile({str(self)!r})"


_NAMES = tuple(f"{i % 9 + 1}{'mps'[i // 9]}" for i in range(NUM_KINDS))
TILES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
_BY_NAME: dict[str, int] = {str(t): t.index for t in TILES}


_SIMPLE = re.compile(r"(?:[1-9]+[mps])*")
_GROUP = re.compile(r"([1-9]+)([mps])")
_SUIT_BASE = {"m": -1, "p": 8, "s": 17}


def parse_indices(text: str) -> list[int]:
    """Parse notation into tile indices, in the order written (the fast path of parse_tiles)."""
    if not isinstance(text, str):
        raise TileParseError.at("tiles_not_text", str(text), type=type(text).__name__)
    if _SIMPLE.fullmatch(text):  # the common case: plain lower-case notation, no spaces
        return [_SUIT_BASE[suit] + ord(d) - 48 for digits, suit in _GROUP.findall(text)
                for d in digits]
    out: list[int] = []
    pending: list[tuple[int, int]] = []  # (rank, 1-based position) awaiting a suit
    for pos, ch in enumerate(text, start=1):
        if ch.isspace():
            continue
        if "1" <= ch <= "9":
            pending.append((ord(ch) - 48, pos))
            continue
        suit = SUIT_CHARS.get(ch)
        if suit is None:
            if ch == "0":
                raise TileParseError.at("tile_zero", text, pos, ch, pos=pos)
            raise TileParseError.at("tile_char", text, pos, ch, char=ch, pos=pos)
        if not pending:
            raise TileParseError.at("tile_suit_alone", text, pos, ch, char=ch, pos=pos)
        base = suit.index * 9 - 1
        out.extend(base + rank for rank, _ in pending)
        pending.clear()
    if pending:
        pos = pending[0][1]
        raise TileParseError.at("tile_no_suit", text, pos, text[pos - 1], pos=pos)
    return out


#: per suit letter, digit character -> Tile (for the plain-notation fast path)
_DIGIT_TILE = {suit: {str(r): TILES[base + r] for r in range(1, 10)}.__getitem__
               for suit, base in _SUIT_BASE.items()}
_find_groups = _GROUP.findall


def parse_plain(text: str) -> tuple[Tile, ...] | None:
    """Plain lower-case notation (``"123m45p"``) in one regex pass; None for anything else.

    The record loader's fast path: None means "use :func:`parse_tiles`", which accepts the
    other spellings and names the bad character.
    """
    out: list[Tile] = []
    n = 0
    for digits, suit in _find_groups(text):
        out += map(_DIGIT_TILE[suit], digits)
        n += len(digits) + 1
    # the groups are disjoint substrings, so they cover the text exactly when lengths agree
    return tuple(out) if n == len(text) else None


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """``"123m45p"`` -> (1m, 2m, 3m, 4p, 5p), in the order written."""
    if type(text) is str:
        tiles = parse_plain(text)
        if tiles is not None:
            return tiles
    return tuple(map(TILES.__getitem__, parse_indices(text)))


def format_tiles(tiles: Iterable[Tile | int]) -> str:
    """Write tiles in notation, keeping their order; consecutive tiles of a suit share a letter.

    ``parse_tiles(format_tiles(x)) == x`` for every tuple of tiles.
    """
    parts: list[str] = []
    current: int | None = None
    for t in tiles:
        i = t if isinstance(t, int) else t.index
        suit = i // 9
        if current is not None and suit != current:
            parts.append("mps"[current])
        parts.append(str(i % 9 + 1))
        current = suit
    if current is not None:
        parts.append("mps"[current])
    return "".join(parts)


def canonical(tiles: Iterable[Tile | int]) -> str:
    """Sorted notation: ``"5m1m2p"`` -> ``"15m2p"``."""
    return format_tiles(sorted(t if isinstance(t, int) else t.index for t in tiles))


def tile_name(index: int) -> str:
    return _NAMES[index]


def counts_of(indices: Iterable[int]) -> list[int]:
    counts = [0] * NUM_KINDS
    for i in indices:
        counts[i] += 1
    return counts
