"""How a tournament ranks its players: by chips, or by placement points (比赛分) — the
settings and their checks. The points themselves (a table's places, exact fractions, how
a score is shown) are pure, in :mod:`referee_app.core.scores`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from referee_app.core.scores import Number, figure

from .errors import StorageError

#: the ways to rank: the chips won (the default), or the points of each round's places
SCORING_KINDS = ("chips", "placement")
#: the default points of the places, by table size (MCR's table points for four seats;
#: one point for each player beaten for three)
DEFAULT_POINTS: dict[int, tuple[int, ...]] = {4: (4, 2, 1, 0), 3: (2, 1, 0)}
#: the largest value a place may be worth (a typo of 40000 for 4 is refused)
MAX_POINTS = 1000


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


