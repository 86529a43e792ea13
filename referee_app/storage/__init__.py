"""Tournament storage: players, rounds, seating, hands (append-only), penalties, standings.

One tournament = one SQLite file (WAL, ``synchronous=FULL``, busy timeout) reached only
through :class:`Tournament`, which holds one part per concern over a shared ``Store``
(``t.players``, ``t.rounds``, ``t.plan``, ``t.hands``, ``t.penalties``, ``t.standings``,
``t.referees``, ``t.record``, ``t.backups``; the map is in ``tournament.py`` and
docs/tournament.md); depends on :mod:`referee_app.core`, never the reverse, and imports no
Qt or reportlab. Public API (see docs/tournament.md for the full contract)::

    t = Tournament.create(path, "Ottawa Open", ruleset="ottawa-2009")   # or Tournament.open(path)
    t.info                                    # TournamentInfo (seats from the ruleset)
    t.players.add("李伟", name_latin="Li Wei", club="Ottawa") / t.players.import_csv(path)
    t.rounds.seat(1, seed=7) -> Seating   # t.rounds.seating(1), .set_seat(...), .set_seating(...)
    t.plan.make(8, seed=7) -> (Plan, [Seating])   # whole event; t.plan.stored(); then
    t.plan.seat(3) / t.plan.reseat(3) -> (Repair, Seating)   # fewest seat changes
    h = t.hands.add(record_dict, round=1, table=2, hand_no=3, referee="Zhao")   # HandInfo
    t.hands.amend(h.id, record, reason=..., referee=...); t.hands.void(h.id, reason=...)
    t.hands.set_status(h.id, "verified"); t.hands.get(h.id); t.hands.list(round=1)
    t.hands.history(h.id); t.record.verify(); t.record.log(); t.record.digest()
    t.penalties.add(["李伟"], 10, "late arrival", zero_sum=False, round=1)
    t.standings.table(round=None) -> list[StandingRow]; t.standings.statement("李伟")
    t.hands.next_dealer(round, table); t.write_bundle(path); Tournament.import_bundle(b, db)
    t.standings.export_csv(path); t.hands.export_csv(path); t.backups.write(); t.close()

Every method that changes something is one transaction: it happens completely or raises
a :class:`StorageError` subclass (field + problem) and changes nothing.
"""

from __future__ import annotations

from .backups import BackupInfo
from .demo import data_dir, default_db_path, demo_bundle_path, demo_db_path
from .errors import (
    AuthError,
    BundleError,
    BusyError,
    CSVImportError,
    DamagedError,
    DiskFullError,
    DuplicateHandError,
    DuplicatePlayerError,
    FileReplacedError,
    HandChangedError,
    HandRuleError,
    NotATournamentError,
    PenaltyError,
    ReadOnlyError,
    RecordIntegrityError,
    SeatingError,
    SeatMismatchError,
    StorageError,
    StorageFault,
    TournamentExistsError,
    UnknownHandError,
    UnknownPlayerError,
)
from .models import (
    DEFAULT_TIE_BREAK,
    TIE_BREAK_KEYS,
    HandInfo,
    HandStatus,
    HandVersion,
    InPlay,
    Penalty,
    Player,
    PlayerStatement,
    PlayerStatus,
    Referee,
    RoundInfo,
    RoundState,
    SeatAssignment,
    Seating,
    StandingRow,
    StatementLine,
    TournamentInfo,
    VerifyReport,
    VersionAction,
)
from .tournament import Tournament

__all__ = [
    "AuthError", "RecordIntegrityError", "Referee", "VerifyReport", "BackupInfo",
    "BusyError", "DamagedError", "DiskFullError", "ReadOnlyError", "StorageFault",
    "FileReplacedError",
    "DEFAULT_TIE_BREAK", "TIE_BREAK_KEYS", "BundleError", "CSVImportError",
    "DuplicateHandError", "DuplicatePlayerError", "HandChangedError", "HandInfo", "HandRuleError", "HandStatus",
    "HandVersion", "NotATournamentError", "Penalty", "PenaltyError", "Player",
    "PlayerStatement", "PlayerStatus", "RoundInfo", "RoundState", "InPlay", "SeatAssignment", "Seating",
    "SeatingError", "SeatMismatchError", "StandingRow", "StatementLine", "StorageError",
    "Tournament", "TournamentExistsError", "TournamentInfo", "UnknownHandError",
    "UnknownPlayerError", "VersionAction", "data_dir", "default_db_path", "demo_bundle_path",
    "demo_db_path",
]
