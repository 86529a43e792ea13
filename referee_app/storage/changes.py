"""What the record's newest entries changed: what a window showing the tournament must show
again, and what it need not.

Every change is one chain entry holding the rows it wrote (``chain.py``), so the entries
after the last one a window showed say exactly which hands, players' figures and rounds
moved — here or in another process (another desk, the command line). A save of one hand
at a 1,000-player event then costs the window that hand, its four players' standings and
its table's progress, not a reload of everything.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import chain
from .tournament import Tournament

#: tables whose rows change only hands and the figures counted from them
HAND_TABLES = frozenset({"hands", "hand_versions", "hand_seats"})
#: tables whose rows change only penalties (the standings of the players they name)
PENALTY_TABLES = frozenset({"penalties", "penalty_entries", "penalty_voids"})


@dataclass(frozen=True)
class Changes:
    """The entries after ``since`` up to ``entries`` (the chain's length now): the hands
    they wrote (ids), the players whose standings they changed, the (round, table) of
    those hands, and ``everything`` when they wrote anything else (players, rounds and
    seats, settings, referees, rulesets: a change that reshapes what is shown)."""

    since: int
    entries: int
    hands: frozenset[int] = field(default_factory=frozenset)
    players: frozenset[int] = field(default_factory=frozenset)
    tables: frozenset[tuple[int, int]] = field(default_factory=frozenset)
    penalties: bool = False
    everything: bool = False

    @property
    def none(self) -> bool:
        """Nothing shown changed (no entry, or entries that wrote no row)."""
        return not (self.hands or self.penalties or self.everything)


def changes_since(t: Tournament, since: int) -> Changes:
    """What the entries after entry ``since`` wrote (``since`` beyond the chain's length, or
    a chain that is shorter than it, means the record went another way — a backup restored:
    ``everything``)."""
    entries = chain.head(t.db.conn)[0]
    if since > entries or since < 0:
        return Changes(since, entries, everything=True)
    hands: set[int] = set()
    players: set[int] = set()
    tables: set[tuple[int, int]] = set()
    penalties = everything = False
    # the rows of each entry, read by SQLite's JSON functions (no entry parsed in Python)
    for table, hand_id, hid, rnd, tbl, player in t.db.execute(
            "SELECT json_extract(r.value, '$[0]'), json_extract(r.value, '$[2].hand_id'), "
            "json_extract(r.value, '$[2].id'), json_extract(r.value, '$[2].round'), "
            "json_extract(r.value, '$[2].table_no'), json_extract(r.value, '$[2].player_id') "
            "FROM chain c, json_each(c.entry, '$.rows') r WHERE c.seq > ?", (since,)):
        if table in HAND_TABLES:
            hands.add(int(hand_id if table != "hands" else hid))
            if table == "hands":
                tables.add((int(rnd), int(tbl)))
            if table == "hand_seats":
                players.add(int(player))
        elif table in PENALTY_TABLES:
            penalties = True
            if player is not None:
                players.add(int(player))
        else:
            everything = True
    return Changes(since, entries, frozenset(hands), frozenset(players), frozenset(tables),
                   penalties, everything)
