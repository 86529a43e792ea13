"""What every part of a :class:`~referee_app.storage.tournament.Tournament` shares: the
connection, the audit log, automatic backups, and the small checks of stored values."""

from __future__ import annotations

import json
import sqlite3
import unicodedata
import warnings
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, Self

import sqlite_utils

from referee_app.core import (
    Ruleset,
    get_ruleset,
)

from . import backup_files
from .errors import (
    StorageError,
)
from .models import (
    DEFAULT_TIE_BREAK,
    TIE_BREAK_KEYS,
    TournamentInfo,
)

PlayerRef = int | str




PlayerRef = int | str


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


#: SQLite's INTEGER range: ids, round, table and hand numbers are checked against it
MAX_INT = 2**63 - 1
#: chips in one penalty or override entry; stake per unit
MAX_CHIPS = 1_000_000
MAX_STAKE = 1_000_000


def _shown(value: Any) -> str:
    """A value for an error message (a 5,000-digit number is not repeated back)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**24:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)[:60]


def _positive_int(value: Any, field: str, maximum: int = MAX_INT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise StorageError(field, f"expected a whole number 1..{maximum}, got {_shown(value)}")
    return value


def _lookup_int(value: Any, field: str) -> int:
    """A number to look something up by: any whole number SQLite can hold (none matches
    beyond; a 20-digit one is refused here rather than overflowing in the query)."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INT:
        raise StorageError(field, f"expected a whole number up to {MAX_INT}, got "
                           f"{_shown(value)}")
    return value


def _stake(value: Any) -> int:
    """Chips per unit: a whole number 1..1,000,000 (beyond that chips lose precision)."""
    return _positive_int(value, "stake", MAX_STAKE)


def _chips(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_CHIPS:
        raise StorageError(field, f"expected whole chips from -{MAX_CHIPS:,} to "
                           f"{MAX_CHIPS:,}, got {_shown(value)}")
    return value


def _cap(value: Any) -> int | None:
    """A tournament cap on total fan (V2 "可以临时协商"): a whole number >= 1, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_INT:
        raise StorageError("cap_fan", f"expected a whole number of fan >= 1 or none, got "
                           f"{_shown(value)}")
    return value


def _bad_char(text: str) -> str | None:
    """A control character, line separator or lone surrogate: these break every listing,
    CSV and PDF (a name is one line of printable text)."""
    for c in text:
        cat = unicodedata.category(c)
        if cat in ("Cc", "Cs", "Zl", "Zp"):
            return f"U+{ord(c):04X}"
    return None


def _text(value: Any, field: str, *, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise StorageError(field, f"expected text, got {type(value).__name__}")
    value = value.strip()
    if required and not value:
        raise StorageError(field, "is required and may not be empty")
    bad = _bad_char(value)
    if bad:
        raise StorageError(field, f"contains a control character ({bad}); use one line of "
                           "printable text")
    return value


def _names(value: Any, field: str) -> list[str]:
    """A list of names (referees): each one line of text."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise StorageError(field, f"expected a list of names, got {type(value).__name__}")
    out = []
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise StorageError(f"{field}[{i}]", f"expected a name (text), got "
                               f"{type(v).__name__}")
        name = _text(v, f"{field}[{i}]")
        if name:
            out.append(name)
    return out


def _check_tie_break(order: Iterable[str]) -> tuple[str, ...]:
    if isinstance(order, str) or not isinstance(order, Iterable):
        raise StorageError("tie_break", f"expected a list of keys, got {type(order).__name__}")
    out = tuple(order)
    for key in out:
        if not isinstance(key, str) or key.lstrip("-") not in TIE_BREAK_KEYS:
            raise StorageError("tie_break", f"unknown key {key!r} (known: "
                               f"{', '.join(TIE_BREAK_KEYS)}; prefix '-' for fewer-is-better)")
    if not out:
        raise StorageError("tie_break", "needs at least one key")
    return out


class TournamentBase:
    """State and services every part of a tournament uses: the open file (``db``), the audit
    log, the tournament's settings and ruleset, and automatic backups.

    ``backup_every`` changes (and on :meth:`close`) a copy is written with SQLite's backup
    API to ``<file>.backups/``, keeping the newest ``backup_keep`` and the last of each round
    (``backup_files.py``; list and restore them with ``backups.py``). ``backup_every=0``
    turns automatic backups off (tests, benchmarks).
    """

    def __init__(self, path: Path, db: sqlite_utils.Database, *, backup_every: int = 25,
                 backup_keep: int = backup_files.KEEP_NEWEST) -> None:
        self.path = path
        self.db = db
        self.backup_every = backup_every
        self.backup_keep = backup_keep
        self._changes = 0
        self._closed = False
        self.backup_error: str | None = None  # the last automatic backup's failure, if any
        self.read_only: str | None = None  # why the file is open for viewing only, if it is

    def close(self) -> None:
        """Back up (if anything changed) and close the file."""
        if self._closed:
            return
        try:
            if self.backup_every and self._changes:
                self._try_backup()
        finally:
            self.db.close()
            self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def backup(self) -> Path:
        """Write a backup now (SQLite backup API); returns its path."""
        p = backup_files.write_backup(self.db, self.path, self.backup_keep)
        self._changes = 0
        return p

    def backups(self) -> list[Path]:
        return backup_files.list_backups(self.path)

    def _saved(self) -> None:
        """Count a committed change; back up every ``backup_every``. A failing backup never
        turns a committed save into an error: it is kept in ``backup_error`` and warned."""
        self._changes += 1
        if self.backup_every and self._changes >= self.backup_every:
            self._try_backup()

    def _try_backup(self) -> None:
        try:
            self.backup()
            self.backup_error = None
        except (OSError, sqlite3.Error) as e:
            self.backup_error = f"backup failed: {e} (the change itself was saved)"
            warnings.warn(self.backup_error, RuntimeWarning, stacklevel=3)

    def _log(self, referee: str, action: str, detail: Mapping[str, Any], at: str) -> None:
        self.db.execute("INSERT INTO log(at, referee, action, detail) VALUES (?,?,?,?)",
                        (at, referee, action, _dump(detail)))

    def log(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The audit log (every change, who and when), newest last."""
        sql = "SELECT id, at, referee, action, detail FROM log ORDER BY id"
        rows = [{"id": r[0], "at": r[1], "referee": r[2], "action": r[3],
                 "detail": json.loads(r[4])} for r in self.db.execute(sql).fetchall()]
        return rows[-limit:] if limit else rows

    @property
    def info(self) -> TournamentInfo:
        meta = {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}
        rules = get_ruleset(meta["ruleset"])
        return TournamentInfo(
            name=meta["name"], ruleset=rules.id, seats=tuple(rules.seats),
            start_date=meta.get("start_date", ""), end_date=meta.get("end_date", ""),
            venue=meta.get("venue", ""), stake=int(meta.get("stake", 1)),
            tie_break=tuple(meta.get("tie_break", DEFAULT_TIE_BREAK)),
            referees=tuple(meta.get("referees", ())),
            head_referee=meta.get("head_referee", ""), created_at=meta.get("created_at", ""),
            cap_fan=meta.get("cap_fan"))

    def rules(self) -> Ruleset:
        """The tournament's ruleset under its own settings (cap), used for every settlement."""
        info = self.info
        return get_ruleset(info.ruleset).with_settings(cap_fan=info.cap_fan)

    def _seats(self) -> tuple[str, ...]:
        return tuple(get_ruleset(self._ruleset_id()).seats)

    def _ruleset_id(self) -> str:
        return json.loads(self.db.execute("SELECT value FROM meta WHERE key='ruleset'")
                          .fetchone()[0])

    def revision(self) -> tuple[int, int]:
        """A cheap token that changes whenever the file changes — by this object or by another
        process (the CLI while the GUI is open). Poll it (e.g. once a second) and refresh
        views when it differs from the last value seen."""
        other = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        return other, self.db.conn.total_changes

    def integrity_check(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


