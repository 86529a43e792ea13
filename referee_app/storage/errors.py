"""Errors of the tournament store: each names the field (or input) and the problem.

All are ``ValueError`` subclasses so callers can catch one family; ``field`` and
``problem`` let the CLI print ``error: <field>: <problem>`` and the GUI highlight the
offending input. A raised error always means *nothing was written*.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class StorageError(ValueError):
    """Bad input to the tournament store; nothing was changed."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem


class NotATournamentError(StorageError):
    """The file is missing, not SQLite, or not a Referee Desk tournament."""


class TournamentExistsError(StorageError):
    """Creating or importing would overwrite an existing database file."""


class UnknownPlayerError(StorageError):
    """A name or id that matches no registered player."""


class DuplicatePlayerError(StorageError):
    """A player name already registered (names identify players on hand records)."""


class SeatingError(StorageError):
    """A seating that cannot be generated or edited as asked (clear options given)."""


class SeatMismatchError(StorageError):
    """A hand record's seats do not match the round's seating at that table."""


class DuplicateHandError(StorageError):
    """The round/table/hand number is already used (amend or void that hand instead)."""


class UnknownHandError(StorageError):
    """No hand with that id."""


class HandRuleError(StorageError):
    """The record breaks the ruleset; ``violations`` lists every engine error.

    A head referee may still record it with an explicit ``override_reason``.
    """

    def __init__(self, field: str, problem: str, violations: Sequence[Any]) -> None:
        super().__init__(field, problem)
        self.violations = tuple(violations)


class BundleError(StorageError):
    """A tournament bundle that cannot be read; ``field`` is a JSON path."""


class CSVImportError(StorageError):
    """A players CSV that cannot be read; ``field`` is ``line N, column``."""


class PenaltyError(StorageError):
    """A penalty that cannot be recorded as given."""


class AuthError(StorageError):
    """The change needs a referee's (or the head referee's) PIN that was not given, was
    wrong, or belongs to a referee who may not make it; or that name is locked out."""


class RecordIntegrityError(StorageError):
    """The tamper-evident record does not hold: ``seq`` names the first entry that fails
    (None when the failure is not tied to one entry)."""

    def __init__(self, field: str, problem: str, seq: int | None = None) -> None:
        super().__init__(field, problem)
        self.seq = seq
