"""How a tournament ranks its players (pure): by chips, or by placement points (比赛分).

Under placement scoring each round's each table gives its players the points of their
place by the chips they won *at that table in that round* (``4,2,1,0`` by default, one
value per seat); players level on chips share the points of the places they cover — two
level first at ``4,2,1,0`` get ``(4+2)/2 = 3`` each, three level first ``7/3`` each.

Points are exact (:class:`~fractions.Fraction`): a third is a third, and ranks compare the
exact values. They are shown with at most two decimals (``2.33``, ``4.5``, ``3``) by
:func:`figure`; in JSON they are numbers (whole ones as integers, others rounded to two
decimals, :func:`json_number`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from .errors import StorageError

#: the ways to rank: the chips won (the default), or the points of each round's places
SCORING_KINDS = ("chips", "placement")
#: the default points of the places, by table size (MCR's table points for four seats;
#: one point for each player beaten for three)
DEFAULT_POINTS: dict[int, tuple[int, ...]] = {4: (4, 2, 1, 0), 3: (2, 1, 0)}
#: the largest value a place may be worth (a typo of 40000 for 4 is refused)
MAX_POINTS = 1000

#: a score figure: whole chips, or an exact fraction (points; chips carried halved)
Number = int | Fraction
#: points are added up as whole numbers of this unit (1/2400 of a point): any place's value
#: (at most two decimals) shared among up to four players level on chips, and halved by a
#: carry, is a whole number of units — exact, and as quick to add and sort as chips
POINT_UNIT = 2400

_DECIMAL = re.compile(r"^-?\d+(\.\d{1,2})?$")


def default_points(table_size: int) -> tuple[Fraction, ...]:
    """The places' points when none are given: 4,2,1,0 at four seats, 2,1,0 at three."""
    values = DEFAULT_POINTS.get(table_size) or tuple(range(table_size - 1, -1, -1))
    return tuple(Fraction(v) for v in values)


def check_scoring(value: Any) -> str:
    if value not in SCORING_KINDS:
        raise StorageError.of("scoring", "unknown_scoring", got=str(value)[:40],
                              known=list(SCORING_KINDS))
    return str(value)


def check_points(value: Any, table_size: int) -> tuple[Fraction, ...]:
    """The points of the places, best first: one number per seat (``"4,2,1,0"`` or a list),
    each with at most two decimals and at most :data:`MAX_POINTS` either way; a better
    place is never worth less than a worse one, and the first is worth more than the last
    (else nothing would be ranked)."""
    if isinstance(value, str):
        items: list[Any] = [v.strip() for v in value.split(",")]
    elif isinstance(value, list | tuple):
        items = list(value)
    else:
        raise StorageError.of("placement_points", "points_not_list", got=type(value).__name__)
    out = []
    for i, v in enumerate(items):
        if isinstance(v, bool) or not isinstance(v, int | float | str | Fraction):
            raise StorageError.of(f"placement_points[{i}]", "bad_points", got=repr(v)[:40],
                                  max=MAX_POINTS)
        if isinstance(v, Fraction):
            f = v
        else:
            text = str(v)
            if isinstance(v, float) and v == int(v):
                text = str(int(v))
            if not _DECIMAL.match(text):
                raise StorageError.of(f"placement_points[{i}]", "bad_points",
                                      got=repr(v)[:40], max=MAX_POINTS)
            f = Fraction(text)
        if abs(f) > MAX_POINTS or (f * 100).denominator != 1:
            raise StorageError.of(f"placement_points[{i}]", "bad_points", got=repr(v)[:40],
                                  max=MAX_POINTS)
        out.append(f)
    if len(out) != table_size:
        raise StorageError.of("placement_points", "points_count", got=len(out),
                              seats=table_size)
    for i in range(1, len(out)):
        if out[i] > out[i - 1]:
            raise StorageError.of(f"placement_points[{i}]", "points_increase",
                                  place=i + 1, value=figure(out[i]), better=figure(out[i - 1]))
    if out[0] == out[-1]:
        raise StorageError.of("placement_points", "points_all_equal")
    return tuple(out)


def points_text(points: Iterable[Number]) -> str:
    """``4,2,1,0``: the places' points as an option takes them."""
    return ",".join(figure(p) for p in points)


def table_points(chips: Mapping[int, int], points: Sequence[Fraction]) -> dict[int, Fraction]:
    """Each player's points at one table in one round, by the chips they won there: the
    places in order of chips (most first), players level on chips sharing the points of
    the places they cover equally. A place beyond the list (more players than seats, which
    a seating never makes) is worth the last place's points."""
    order = sorted(chips.items(), key=lambda kv: -kv[1])
    out: dict[int, Fraction] = {}
    i, n = 0, len(order)
    last = points[-1] if points else Fraction(0)
    while i < n:
        j = i
        while j + 1 < n and order[j + 1][1] == order[i][1]:
            j += 1
        share = sum((points[k] if k < len(points) else last for k in range(i, j + 1)),
                    Fraction(0)) / (j - i + 1)
        for k in range(i, j + 1):
            out[order[k][0]] = share
        i = j + 1
    return out


def units(value: Fraction) -> int:
    """A number of points as whole :data:`POINT_UNIT` units (exact for every share of a
    table of up to four; a finer share, which no ruleset makes, is rounded)."""
    return round(value * POINT_UNIT)


def from_units(value: int | Fraction) -> Fraction:
    """Units back to points (exact)."""
    return Fraction(value) / POINT_UNIT


def figure(value: Number | None, *, signed: bool = False) -> str:
    """A score as people read it: whole numbers as they are, fractions with at most two
    decimals (``7/3`` reads ``2.33``, ``9/2`` ``4.5``); ``signed`` puts ``+`` before a
    positive one. None (no points under chips scoring) reads ``-``."""
    if value is None:
        return "-"
    if isinstance(value, Fraction) and value.denominator != 1:
        text = f"{float(value):.2f}".rstrip("0").rstrip(".")
        if text in ("-0", ""):
            text = "0"
    else:
        text = str(int(value))
    return f"+{text}" if signed and value > 0 else text


def json_number(value: Number) -> int | float:
    """A score in JSON: an integer when whole, else rounded to two decimals."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return int(value)
        return round(float(value), 2)
    return value
