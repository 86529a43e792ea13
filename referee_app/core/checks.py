"""The physical checks of a hand, shared by settlement (``score``) and ``analyse``.

§1 (four copies of each tile, only the ruleset's suits), §2.1 (a winner holds 13 tiles
before its winning tile, each pong/kong counting as 3) and §2.4 (a winning hand may not
hold more suits than the ruleset allows, 诈和 otherwise) are worded once here, so the
engine and the desk's analysis can never disagree about them. Each check returns
:class:`Problem` items naming the ruleset's *validation check*; ``rules.vclause(check)``
gives the clause each ruleset cites for it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .ruleset import Ruleset
from .tiles import tile_name

_SUIT_LETTERS = "mps"
_NUMBER_WORDS = {1: "one", 2: "two", 3: "three"}


class Problem(NamedTuple):
    """One failed check: ``check`` names it (see the rulesets' ``validation_clauses``)."""

    check: str
    message: str

    def clause(self, rules: Ruleset) -> str:
        return rules.vclause(self.check)


def tile_count_problems(counts: Sequence[int], rules: Ruleset,
                        where: str = "in the record") -> list[Problem]:
    """§1: more than four copies of a tile, or a tile of a suit the ruleset does not play.

    ``counts`` is a 27-long count vector of every tile in play (concealed, pong melds as 3,
    kongs as 4, winning tiles).
    """
    allowed = {_SUIT_LETTERS.index(x) for x in rules.suits}
    out: list[Problem] = []
    for i, c in enumerate(counts):
        if c > 4:
            out.append(Problem("tile_count", f"{tile_name(i)} appears {c} times {where}; "
                               "there are only four of each tile"))
        elif c and i // 9 not in allowed:
            out.append(Problem("tile_count", f"{tile_name(i)} is not a tile of this ruleset "
                               f"(suits {', '.join(rules.suits)})"))
    return out


def hand_size_problem(who: str, concealed: int, pongs: int, kongs: int) -> Problem | None:
    """§2.1: a winner holds 13 tiles before its winning tile (a pong or kong counts 3)."""
    held = concealed + 3 * (pongs + kongs)
    if held == 13:
        return None
    return Problem("hand_size", f"{who} holds {held} tiles before its winning tile "
                   f"({concealed} concealed, {pongs} pong(s) and {kongs} kong(s) at 3 each); "
                   "a winner holds 13")


def suits_problem(whose: str, suits: int, rules: Ruleset) -> Problem | None:
    """§2.4: a winning hand touches at most ``rules.max_suits_in_win`` suits (诈和 else).

    ``whose`` names the hand, e.g. "E's winning hand"; ``suits`` counts the suits it uses,
    melds included.
    """
    if suits <= rules.max_suits_in_win:
        return None
    n = _NUMBER_WORDS.get(suits, str(suits))
    held = f"all {n} suits" if suits == 3 else f"{n} suits"
    return Problem("missing_suit", f"{whose} holds {held} (false win, 诈和)")


__all__ = ["Problem", "hand_size_problem", "suits_problem", "tile_count_problems"]
