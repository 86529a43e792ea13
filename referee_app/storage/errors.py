"""Errors of the tournament store: each names the field (or input) and the problem.

All are :class:`~referee_app.core.errors.FieldError` subclasses (so ``ValueError``), so
callers can catch one family; ``field`` and ``problem`` let the CLI print
``error: <field>: <problem>`` and the GUI highlight the offending input, and each class's
``code`` names the failure for a machine. A raised error always means *nothing was written*.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from referee_app.core.errors import FieldError, message, render


class StorageError(FieldError):
    """Bad input to the tournament store; nothing was changed."""

    code = "storage"


class NotATournamentError(StorageError):
    """The file is missing, not SQLite, or not a Referee Desk tournament."""

    code = "not_a_tournament"


class TournamentExistsError(StorageError):
    """Creating or importing would overwrite an existing database file."""

    code = "tournament_exists"


class UnknownPlayerError(StorageError):
    """A name or id that matches no registered player."""

    code = "unknown_player"


class DuplicatePlayerError(StorageError):
    """A player name already registered (names identify players on hand records)."""

    code = "duplicate_player"


class SeatingError(StorageError):
    """A seating that cannot be generated or edited as asked (clear options given)."""

    code = "seating"


class SeatMismatchError(StorageError):
    """A hand record's seats do not match the round's seating at that table."""

    code = "seat_mismatch"


class DuplicateHandError(StorageError):
    """The round/table/hand number is already used (amend or void that hand instead)."""

    code = "duplicate_hand"


class UnknownHandError(StorageError):
    """No hand with that id."""

    code = "unknown_hand"


class HandChangedError(StorageError):
    """The hand was changed (by another desk) after the version the caller edited: saving
    would overwrite that change unseen, so nothing was written. ``current`` is the version
    now saved, ``expected`` the one the caller edited."""

    code = "hand_changed"

    def __init__(self, hand_id: int, expected: int, current: int) -> None:
        params = {"hand_id": hand_id, "expected": expected, "current": current}
        super().__init__("hand_id", render("hand_changed", params, "en"), code="hand_changed",
                         params=params)
        self.hand_id, self.expected, self.current = hand_id, expected, current


class HandRuleError(StorageError):
    """The record breaks the ruleset; ``violations`` lists every engine error.

    A head referee may still record it with an explicit ``override_reason``.
    """

    code = "hand_rule"

    def __init__(self, field: str, problem: str, violations: Sequence[Any], *,
                 code: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(field, problem, code=code, params=params)
        self.violations = tuple(violations)

    @classmethod
    def breaking(cls, field: str, violations: Sequence[Any]) -> HandRuleError:
        """The refusal of a record that breaks ``violations`` (the engine's): each rule a
        line of its message (``error.hand_rule``), said in the reader's language."""
        from referee_app.core.wording import violation_line

        params = {"problems": [violation_line(v) for v in violations]}
        return cls(field, render("hand_rule", params, "en"), violations, code="hand_rule",
                   params=params)


class BundleError(StorageError):
    """A tournament bundle that cannot be read; ``field`` is a JSON path."""

    code = "bundle"


class CSVImportError(StorageError):
    """A players CSV that cannot be read; ``field`` is ``line N, column``."""

    code = "csv_import"


class PenaltyError(StorageError):
    """A penalty that cannot be recorded as given."""

    code = "penalty"


class AuthError(StorageError):
    """The change needs a referee's (or the head referee's) PIN that was not given, was
    wrong, or belongs to a referee who may not make it; or that name is locked out."""

    code = "auth"


class RecordIntegrityError(StorageError):
    """The tamper-evident record does not hold: ``seq`` names the first entry that fails
    (None when the failure is not tied to one entry)."""

    code = "record_integrity"

    def __init__(self, field: str, problem: str, seq: int | None = None, *,
                 code: str | None = None, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(field, problem, code=code, params=params)
        self.seq = seq


class StorageFault(StorageError):
    """A fault outside the input (exit code 3): the file is busy, damaged, read-only, or the
    disk is full. ``problem`` says what to do; nothing was written."""

    code = "storage_fault"


class BusyError(StorageFault):
    """Another desk held the write lock longer than the retry allows."""

    code = "busy"


class DiskFullError(StorageFault):
    """The disk (or the file's size limit) is full."""

    code = "disk_full"


class ReadOnlyError(StorageFault):
    """The file (or its directory or ``-shm``) cannot be written: viewing works, changes not."""

    code = "read_only"


class DamagedError(StorageFault):
    """The file fails SQLite's check or holds values that cannot be read."""

    code = "damaged"


class FileReplacedError(StorageFault):
    """The path no longer names the file this connection opened: another process restored a
    backup (which moves the file aside) or moved the file. Reopen the path; nothing was
    written to the file moved aside."""

    code = "file_replaced"


def fault_from(e: BaseException, path: object) -> StorageFault:
    """Name an SQLite/OS failure as the fault the user can act on (one line, what to do)."""
    if isinstance(e, StorageFault):
        return e
    text = str(e).split(" with text ")[0][:160]  # never echo damaged bytes
    msg = text.lower()
    errno = getattr(e, "errno", None)
    if "locked" in msg or "busy" in msg:
        return BusyError.of("db", "busy", path=str(path))
    if "full" in msg or errno == 28 or ("disk i/o" in msg and _disk_full(path)):
        return DiskFullError.of("db", "disk_full", path=str(path))
    if "readonly" in msg or "read-only" in msg or errno in (13, 30):
        return ReadOnlyError.of("db", "read_only", path=str(path), detail=text)
    if "unable to open" in msg:
        folder = _folder(path)
        if folder is not None and not os.access(folder, os.W_OK | os.X_OK):
            return ReadOnlyError.of("db", "folder_read_only", path=str(path),
                                    folder=str(folder))
        return StorageFault.of("db", "cannot_open", path=str(path), detail=text)
    if "malformed" in msg or "not a database" in msg or "decode" in msg or "corrupt" in msg \
            or isinstance(e, ValueError | KeyError | TypeError):
        return DamagedError.of("db", "damaged", path=str(path), detail=text,
                               hint=message("backups_hint", path=str(path)))
    return StorageFault.of("db", "storage_fault", path=str(path), detail=text,
                           hint=message("backups_hint", path=str(path)))


def _folder(path: object) -> Path | None:
    with contextlib.suppress(TypeError, ValueError):
        p = Path(str(path)).parent
        return p if str(p) else Path(".")
    return None


def _disk_full(path: object) -> bool:
    """Whether the folder of ``path`` has (almost) no space left: SQLite reports a full disk
    while opening as a plain "disk I/O error"."""
    import shutil

    with contextlib.suppress(OSError, TypeError):
        return shutil.disk_usage(Path(str(path)).parent).free < 64 * 1024
    return False
