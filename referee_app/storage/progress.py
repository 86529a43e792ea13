"""Round progress: per table, how many hands are entered, verified, overridden and void,
when the last one came in, and which hand numbers are missing — the director's overview of
a round (what Bridgemate/ACBLscore show per section).

Built only from :class:`~referee_app.storage.tournament.Tournament`'s public reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from .errors import StorageError
from .models import HandSummary
from .tournament import Tournament

#: runs of missing hand numbers a listing shows before "…"
GAPS_SHOWN = 12


def gap_runs(numbers: set[int]) -> tuple[tuple[int, int], ...]:
    """The runs of whole numbers from 1 up to ``max(numbers)`` not in ``numbers``, as
    (first, last): computed from the numbers present (a few per table), never by counting
    through the missing ones."""
    out, prev = [], 0
    for n in sorted(numbers):
        if n > prev + 1:
            out.append((prev + 1, n - 1))
        prev = n
    return tuple(out)


@dataclass(frozen=True)
class TableProgress:
    table: int
    players: dict[str, str]  # seat -> player
    hands: int  # hands stored (void ones included)
    entered: int  # not yet verified (and not void)
    verified: int
    overridden: int
    void: int
    amended: int
    last_hand: int  # the highest hand number stored (0: none)
    last_entry_at: str  # when the newest hand version was saved ("" if none)
    #: the runs of hand numbers below last_hand with no hand, as (first, last): a run is
    #: one pair however long (a hand saved as number 2^63-1 leaves one run, not 2^63 numbers)
    gaps: tuple[tuple[int, int], ...] = ()

    @property
    def missing(self) -> int:
        """How many hand numbers below ``last_hand`` have no hand."""
        return sum(b - a + 1 for a, b in self.gaps)

    def gap_text(self, most: int = GAPS_SHOWN) -> str:
        """The gaps as a referee reads them: ``3, 5-9`` (the first ``most`` runs, then …)."""
        runs = [str(a) if a == b else f"{a}-{b}" for a, b in self.gaps[:most]]
        return ", ".join(runs) + (", …" if len(self.gaps) > most else "")

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "players": dict(self.players), "hands": self.hands,
                "entered": self.entered, "verified": self.verified,
                "overridden": self.overridden, "void": self.void, "amended": self.amended,
                "last_hand": self.last_hand, "last_entry_at": self.last_entry_at,
                "gaps": [list(g) for g in self.gaps], "missing": self.missing}


@dataclass(frozen=True)
class RoundProgress:
    round: int
    tables: tuple[TableProgress, ...] = field(default_factory=tuple)

    @property
    def hands(self) -> int:
        return sum(t.hands for t in self.tables)

    @property
    def verified(self) -> int:
        return sum(t.verified for t in self.tables)

    @property
    def unverified(self) -> int:
        """Hands that count but no second referee has confirmed yet."""
        return sum(t.entered for t in self.tables)

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "hands": self.hands, "verified": self.verified,
                "unverified": self.unverified, "tables": [t.to_dict() for t in self.tables]}

    def with_tables(self, tables: Sequence[TableProgress]) -> RoundProgress:
        """This round with the rows of ``tables`` replaced (or added), tables in order: what
        saves at those tables changed of it."""
        rows = {tp.table: tp for tp in self.tables}
        rows.update((tp.table, tp) for tp in tables)
        return replace(self, tables=tuple(rows[k] for k in sorted(rows)))


def round_progress(t: Tournament, round_no: int) -> RoundProgress:
    """The progress of round ``round_no`` (a StorageError names it if it is not seated)."""
    if round_no not in {r.number for r in t.rounds.list()}:
        raise StorageError.of("round", "round_not_seated_yet", round=round_no)
    seating = t.rounds.seating(round_no)
    by_table: dict[int, list[Any]] = {tbl: [] for tbl in seating.tables}
    for h in t.hands.index(round=round_no):
        by_table.setdefault(h.table, []).append(h)
    return RoundProgress(round_no, tuple(_table(tbl, seating.tables.get(tbl, {}), by_table[tbl])
                                         for tbl in sorted(by_table)))


def table_progress(t: Tournament, round_no: int, table: int) -> TableProgress:
    """One table of :func:`round_progress` (what a save at that table changes of it)."""
    seating = t.rounds.seating(round_no)
    return _table(table, seating.tables.get(table, {}),
                  t.hands.index(round=round_no, table=table))


def _table(tbl: int, players: dict[str, str], hs: list[HandSummary]) -> TableProgress:
    """A table's row from its hands' summaries (no record or settlement is read: a save
    at a table of 64 hands reads 64 short rows, not 64 records)."""
    numbers = {h.hand_no for h in hs}
    last = max(numbers, default=0)
    return TableProgress(
        table=tbl,
        players=dict(players),
        hands=len(hs),
        entered=sum(1 for h in hs if h.status.value == "entered"),
        verified=sum(1 for h in hs if h.status.value == "verified"),
        overridden=sum(1 for h in hs if h.override),
        void=sum(1 for h in hs if h.void),
        amended=sum(1 for h in hs if h.amended),
        last_hand=last,
        last_entry_at=max((h.at for h in hs), default=""),
        gaps=gap_runs(numbers))
