"""Scores as numbers (pure): placement points per table, exact, and how scores are shown.

Under placement scoring each round's each table gives its players the points of their
place by the chips they won *at that table in that round*; players level on chips share
the points of the places they cover — two level first at ``4,2,1,0`` get ``(4+2)/2 = 3``
each, three level first ``7/3`` each (:func:`table_points`).

Points are exact (:class:`~fractions.Fraction`): a third is a third, and ranks compare the
exact values. They are added up as whole :data:`POINT_UNIT` units (as quick as chips) and
shown with at most two decimals (``2.33``, ``4.5``, ``3``) by :func:`figure`; in JSON they
are numbers (whole ones as integers, others rounded to two decimals, :func:`json_number`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

#: a score figure: whole chips, or an exact fraction (points; chips carried halved)
Number = int | Fraction
#: points are added up as whole numbers of this unit (1/2400 of a point): any place's value
#: (at most two decimals) shared among up to four players level on chips, and halved by a
#: carry, is a whole number of units — exact, and as quick to add and sort as chips
POINT_UNIT = 2400


def table_points(chips: Mapping[int, int], points: Sequence[Fraction]) -> dict[int, Fraction]:
    """Each player's points at one table in one round, by the chips they won there: the
    places in order of chips (most first), players level on chips sharing the points of
    the places they cover equally. A place beyond the list (more players than seats, which
    a seating never makes) is worth the last place's points."""
    return {pid: Fraction(u, POINT_UNIT)
            for pid, u in table_units(chips, [units(p) for p in points]).items()}


def table_units(chips: Mapping[int, int], points: Sequence[int]) -> dict[int, int]:
    """:func:`table_points` in whole units (``points``: the places' points in units), as the
    standings add them up: integers only, so placing two thousand tables takes
    milliseconds. A share that is not a whole number of units (more than four players
    level, which no table seats) is rounded."""
    order = sorted(chips.items(), key=lambda kv: -kv[1])
    out: dict[int, int] = {}
    i, n = 0, len(order)
    last = points[-1] if points else 0
    while i < n:
        j = i
        while j + 1 < n and order[j + 1][1] == order[i][1]:
            j += 1
        total = sum(points[k] if k < len(points) else last for k in range(i, j + 1))
        share, rest = divmod(total, j - i + 1)
        if rest:
            share = round(total / (j - i + 1))
        for k in range(i, j + 1):
            out[order[k][0]] = share
        i = j + 1
    return out


def units(value: Fraction) -> int:
    """A number of points as whole :data:`POINT_UNIT` units (exact for every share of a
    table of up to four; a finer share, which no ruleset makes, is rounded)."""
    return round(value * POINT_UNIT)


def from_units(value: int | Fraction) -> Number:
    """Units back to points, exact: an ``int`` when whole (most are), else a Fraction."""
    if isinstance(value, int):
        whole, rest = divmod(value, POINT_UNIT)
        return whole if not rest else Fraction(value, POINT_UNIT)
    out = value / POINT_UNIT
    return int(out) if out.denominator == 1 else out


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
        return round(float(value), 2) + 0.0  # never -0.0 (a tiny negative share)
    return value
