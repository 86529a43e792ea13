"""Round progress for the results pages and desks: hands entered and verified per table.

Computed from :meth:`Tournament.hands` (storage has no progress query of its own yet), so
it always agrees with the hand listings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee_app.storage import HandStatus, Tournament


@dataclass(frozen=True, slots=True)
class TableProgress:
    table: int
    players: dict[str, str]
    hands: int  # counted (not void)
    verified: int
    void: int
    last_hand_no: int
    last_at: str

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "players": self.players, "hands": self.hands,
                "verified": self.verified, "void": self.void,
                "last_hand_no": self.last_hand_no, "last_at": self.last_at}


@dataclass(frozen=True, slots=True)
class RoundProgress:
    round: int
    tables: tuple[TableProgress, ...] = field(default_factory=tuple)

    @property
    def hands(self) -> int:
        return sum(t.hands for t in self.tables)

    @property
    def verified(self) -> int:
        return sum(t.verified for t in self.tables)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "hands": self.hands, "verified": self.verified,
                "tables": [t.to_dict() for t in self.tables]}


def round_progress(t: Tournament, number: int) -> RoundProgress:
    """Per table of round ``number``: hands that count, verified, void, last hand number."""
    seating = t.seating(number)
    by_table: dict[int, list[Any]] = {n: [] for n in seating.tables}
    for h in t.hands(round=number):
        by_table.setdefault(h.table, []).append(h)
    rows = []
    for n in sorted(by_table):
        hs = by_table[n]
        live = [h for h in hs if h.status is not HandStatus.VOID]
        rows.append(TableProgress(
            n, seating.tables.get(n, {}), len(live),
            sum(h.status is HandStatus.VERIFIED for h in hs), len(hs) - len(live),
            max((h.hand_no for h in hs), default=0),
            max((h.updated_at for h in hs), default="")))
    return RoundProgress(number, tuple(rows))
