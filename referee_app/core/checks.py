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
from .wording import Params, violation_text

_SUIT_LETTERS = "mps"


class Problem(NamedTuple):
    """One failed check: ``check`` names it (see the rulesets' ``validation_clauses``);
    ``code`` and ``params`` say what is wrong (``violation.<code>`` in the catalogue)."""

    check: str
    code: str
    params: Params

    def clause(self, rules: Ruleset) -> str:
        return rules.vclause(self.check)

    @property
    def message(self) -> str:
        """The English message (what the settlement document stores)."""
        return violation_text(self.code, self.params, "en")


def tile_count_problems(counts: Sequence[int], rules: Ruleset,
                        in_hand: bool = False) -> list[Problem]:
    """§1: more than four copies of a tile, or a tile of a suit the ruleset does not play.

    ``counts`` is a 27-long count vector of every tile in play (concealed, pong melds as 3,
    kongs as 4, winning tiles); ``in_hand``: they are one hand's (the desk's analysis), not
    the whole record's.
    """
    allowed = {_SUIT_LETTERS.index(x) for x in rules.suits}
    out: list[Problem] = []
    many = "too_many_copies_hand" if in_hand else "too_many_copies"
    for i, c in enumerate(counts):
        if c > 4:
            out.append(Problem("tile_count", many, (("t", tile_name(i)), ("c", c))))
        elif c and i // 9 not in allowed:
            out.append(Problem("tile_count", "tile_not_in_ruleset",
                               (("t", tile_name(i)), ("suits", ", ".join(rules.suits)))))
    return out


def hand_size_problem(seat: str | None, concealed: int, pongs: int,
                      kongs: int) -> Problem | None:
    """§2.1: a winner holds 13 tiles before its winning tile (a pong or kong counts 3).

    ``seat``: the winner's; None for a hand under analysis ("the hand")."""
    held = concealed + 3 * (pongs + kongs)
    if held == 13:
        return None
    params: Params = (("held", held), ("concealed", concealed), ("pongs", pongs),
                      ("kongs", kongs))
    if seat is None:
        return Problem("hand_size", "hand_size_hand", params)
    return Problem("hand_size", "hand_size", (("s", seat), *params))


def suits_problem(seat: str | None, suits: int, rules: Ruleset) -> Problem | None:
    """§2.4: a winning hand touches at most ``rules.max_suits_in_win`` suits (诈和 else).

    ``seat``: the winner's, None for a hand under analysis; ``suits`` counts the suits it
    uses, melds included.
    """
    if suits <= rules.max_suits_in_win:
        return None
    code = "false_win" if suits == 3 else "false_win_two"  # suits > max_suits_in_win >= 1
    if seat is None:
        return Problem("missing_suit", code + "_hand", ())
    return Problem("missing_suit", code, (("s", seat),))


__all__ = ["Problem", "hand_size_problem", "suits_problem", "tile_count_problems"]
