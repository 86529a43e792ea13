"""Tournament storage: players, rounds, seating, hands (append-only), penalties, standings.

One tournament = one SQLite file (WAL, ``synchronous=FULL``, busy timeout) reached only
through :class:`Tournament` (one module per concern mixed into it: players, rounds, hands,
hand_queries, penalties, standings, bundle, csv_io; see docs/tournament.md); depends on :mod:`referee_app.core`, never the reverse, and
imports no Qt or reportlab. Public API (see docs/tournament.md for the full contract)::

    t = Tournament.create(path, "Ottawa Open", ruleset="ottawa-2009")   # or Tournament.open(path)
    t.info                                    # TournamentInfo (seats from the ruleset)
    t.add_player("李伟", name_latin="Li Wei", club="Ottawa") / t.import_players_csv(path)
    t.seat_round(1, seed=7) -> Seating        # t.seating(1), t.set_seat(...), t.set_seating(...)
    t.plan_rounds(8, seed=7) -> (Plan, [Seating])   # whole event; t.stored_plan(); then
    t.seat_from_plan(3) / t.reseat_round(3) -> (Repair, Seating)   # fewest seat changes
    h = t.add_hand(record_dict, round=1, table=2, hand_no=3, referee="Zhao")   # HandInfo
    t.amend_hand(h.id, record, reason=..., referee=...); t.void_hand(h.id, reason=...)
    t.set_status(h.id, "verified"); t.hand(h.id); t.hands(round=1); t.hand_history(h.id)
    t.add_penalty(["李伟"], 10, "late arrival", zero_sum=False, round=1)
    t.standings(round=None) -> list[StandingRow]; t.player_statement("李伟")
    t.next_dealer(round, table); t.export_bundle(path); Tournament.import_bundle(b, db)
    t.export_standings_csv(path); t.export_hands_csv(path); t.backup(); t.close()

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
    Penalty,
    Player,
    PlayerStatement,
    PlayerStatus,
    Referee,
    RoundInfo,
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
    "PlayerStatement", "PlayerStatus", "RoundInfo", "SeatAssignment", "Seating",
    "SeatingError", "SeatMismatchError", "StandingRow", "StatementLine", "StorageError",
    "Tournament", "TournamentExistsError", "TournamentInfo", "UnknownHandError",
    "UnknownPlayerError", "VersionAction", "data_dir", "default_db_path", "demo_bundle_path",
    "demo_db_path",
]
