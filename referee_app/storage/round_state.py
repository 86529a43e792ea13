"""The round in play and each started round's clock, as stored in ``round_state``
(written by :meth:`Rounds.start <.rounds.Rounds.start>`, read by every part that follows
the round in play: rounds, penalties, the pages and the desk)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from sqlite_utils import Database

from .models import InPlay, RoundState

#: the longest a round's clock may run, in minutes (given at the start or added at once)
MAX_MINUTES = 24 * 60

#: the columns a :class:`RoundState` is read from, in its field order after ``source``
COLUMNS = "round, in_play, started_at, started_by, ends_at, minutes, added"


def _state(row: Sequence[object]) -> RoundState:
    rnd, in_play_, started_at, by, ends_at, minutes, added = row
    return RoundState(int(str(rnd)), InPlay.STARTED, bool(in_play_), str(started_at),
                      str(by), None if ends_at is None else str(ends_at),
                      None if minutes is None else int(str(minutes)), int(str(added or 0)))


def later(at: str, minutes: int) -> str:
    """``at`` (ISO 8601) plus ``minutes``, to the second."""
    return (datetime.fromisoformat(at).replace(microsecond=0)
            + timedelta(minutes=minutes)).isoformat()


def state(db: Database, number: int) -> RoundState | None:
    """Round ``number`` as ``round start`` left it (None: never started)."""
    row = db.execute(f"SELECT {COLUMNS} FROM round_state WHERE round=?", (number,)).fetchone()
    return None if row is None else _state(row)


def in_play(db: Database) -> RoundState:
    """The round in play: the round last started (``round start``), unless a later round
    already has hands (a start forgotten); without a start, the latest round with a hand;
    else round 1. Its ``source`` says which; only a started round has a clock."""
    row = db.execute(f"SELECT {COLUMNS} FROM round_state WHERE in_play<>0 "
                     "ORDER BY round DESC LIMIT 1").fetchone()
    latest = db.execute("SELECT MAX(round) FROM hands").fetchone()[0]
    if row is not None and (latest is None or latest <= row[0]):
        return _state(row)
    if latest is not None:
        return RoundState(int(latest), InPlay.HANDS)
    return RoundState(1, InPlay.FIRST)
