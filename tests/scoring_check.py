"""An independent computation of each player's score, round by round, from the hands and
penalties as the store lists them (not from its sums): what the placement and stage
tests compare the standings with."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from typing import Any

#: player -> round (None: a penalty outside any round) -> [points, chips]
Scores = dict[str, dict[int | None, list[Any]]]


def scores_by_round(t: Any) -> Scores:
    """Per player and round: the placement points of their table (places by the chips of
    the counted hands there, level players averaging the points of the places they
    cover) and their chips, with each penalty in its round and unit."""
    points = t.info.placement_points
    chips_at: dict[tuple[int, int], dict[str, int]] = defaultdict(lambda: defaultdict(int))
    out: Scores = defaultdict(lambda: defaultdict(lambda: [Fraction(0), 0]))
    for h in t.hands.list():
        if h.void or (t.info.verified_only and h.status.value != "verified"):
            continue
        for seat, name in h.players.items():
            chips_at[(h.round, h.table)][name] += h.totals[seat]
            out[name][h.round][1] += h.totals[seat]
    if t.info.placement:
        for (rnd, _), table in chips_at.items():
            for name, c in table.items():
                better = sum(1 for x in table.values() if x > c)
                level = sum(1 for x in table.values() if x == c)
                out[name][rnd][0] += sum(points[better:better + level], Fraction(0)) / level
    for pen in t.penalties.list():
        if not pen.void:
            for name, n in pen.entries.items():
                out[name][pen.round][0 if pen.unit == "points" else 1] += n
    return out


def total(scores: Scores, name: str, first: int = 1, last: int | None = None,
          roundless: bool = True) -> tuple[Fraction, int]:
    """A player's (points, chips) over rounds first..last (and the penalties outside any
    round when ``roundless``)."""
    pts, chips = Fraction(0), 0
    for rnd, (p, c) in scores.get(name, {}).items():
        if (rnd is None and roundless) or (rnd is not None and rnd >= first
                                           and (last is None or rnd <= last)):
            pts += p
            chips += c
    return pts, chips
