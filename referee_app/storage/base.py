"""What every part of a :class:`~referee_app.storage.tournament.Tournament` shares: the
connection, the audit log, automatic backups, and the small checks of stored values."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import unicodedata
import warnings
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Self

from referee_app.core import (
    Ruleset,
)
from referee_app.core.ruleset import MAX_CAP_FAN, MAX_STAKE

from . import backup_files, chain, ruleset_store
from . import db as dbm
from .errors import AuthError, FileReplacedError, StorageError, StorageFault
from .models import DEFAULT_TIE_BREAK, TIE_BREAK_KEYS, Referee, TournamentInfo

PlayerRef = int | str


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


#: SQLite's INTEGER range: ids, round, table and hand numbers are checked against it
MAX_INT = 2**63 - 1
#: chips in one penalty or override entry; stake per unit
MAX_CHIPS = 1_000_000


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
    """A tournament cap on total fan (V2 "可以临时协商"): a whole number 1..99, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CAP_FAN:
        raise StorageError("cap_fan", f"expected a whole number of fan 1..{MAX_CAP_FAN} or "
                           f"none, got {_shown(value)}")
    return value


#: invisible format characters a name may hold: the joiners some scripts and emoji need
_JOINERS = frozenset("\u200c\u200d")


def _bad_char(text: str) -> str | None:
    """A control character, line separator or lone surrogate: these break every listing,
    CSV and PDF (a name is one line of printable text). Likewise an invisible format
    character (a right-to-left override U+202E turns the rest of a listing's line around; a
    zero-width space U+200B or BOM makes two names that look the same, or one that looks
    empty), except the joiners U+200C/U+200D."""
    if text.isprintable():  # the common case, at C speed
        return None
    for c in text:
        cat = unicodedata.category(c)
        if cat in ("Cc", "Cs", "Zl", "Zp") or (cat == "Cf" and c not in _JOINERS):
            return f"U+{ord(c):04X}"
    return None


#: Longest name, club, venue, referee or clause (characters): far beyond any real one, and
#: short enough for every printed report (a 1,000-character name broke their page layout,
#: a 10,000-character event name kept the seating chart busy for minutes).
MAX_TEXT = 200
#: Longest reason (a void, an amendment, an override, a penalty): a few sentences.
MAX_REASON = 1000


def _text(value: Any, field: str, *, required: bool = False, limit: int = MAX_TEXT) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise StorageError(field, f"expected text, got {type(value).__name__}")
    value = value.strip()
    if required and not value:
        raise StorageError(field, "is required and may not be empty")
    if len(value) > limit:
        raise StorageError(field, f"is {len(value):,} characters long; at most {limit:,}")
    bad = _bad_char(value)
    if bad:
        raise StorageError(field, f"contains a control character ({bad}); use one line of "
                           "printable text")
    return value


def _date(value: Any, field: str) -> str:
    """A tournament date: '' (none) or YYYY-MM-DD, a real day (printed on every report)."""
    text = _text(value, field)
    if text:
        import datetime  # here: only a command that sets a date pays for it

        try:
            ok = len(text) == 10 and datetime.date.fromisoformat(text).isoformat() == text
        except ValueError:
            ok = False
        if not ok:
            raise StorageError(field, f"expected a date YYYY-MM-DD, got {_shown(text)}")
    return text


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


def _file_identity(path: Path) -> tuple[int, int] | None:
    """The file a path names (device, inode), or None if it names none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class TournamentBase:
    """State and services every part of a tournament uses: the open file (``db``), the audit
    log, the tournament's settings and ruleset, and automatic backups.

    ``backup_every`` changes (and on :meth:`close`) a copy is written with SQLite's backup
    API to ``<file>.backups/``, keeping the newest ``backup_keep`` and the last of each round
    (``backup_files.py``; list and restore them with ``backups.py``). ``backup_every=0``
    turns automatic backups off (tests, benchmarks).
    """

    def __init__(self, path: Path, db: dbm.Database, *, backup_every: int = 25,
                 backup_keep: int = backup_files.KEEP_NEWEST) -> None:
        self.path = path
        self.db = db
        self.backup_every = backup_every
        self.backup_keep = backup_keep
        self._changes = 0
        self._closed = False
        #: which file the path named when opened (a restore elsewhere replaces it)
        self._file_id = _file_identity(path)
        self.backup_error: str | None = None  # the last automatic backup's failure, if any
        self.read_only: str | None = None  # why the file is open for viewing only, if it is
        self._pending: tuple[str, str, dict[str, Any], str] | None = None
        #: the referee whose PIN was checked on this connection (:meth:`sign_in`)
        self.signed_in: Referee | None = None
        #: the row-capturing triggers are created at the first save (:meth:`_write`), so a
        #: command that only reads (standings, a listing) never pays for their 39 statements
        self._capturing = False

    def close(self) -> None:
        """Back up (if anything changed) and close the file."""
        if self._closed:
            return
        try:
            # a file replaced meanwhile (a restore elsewhere): this connection reads the
            # copy set aside, which must not become the newest backup
            if self.backup_every and self._changes and not self.replaced() \
                    and self._backup_due():
                self._try_backup()
        finally:
            self.db.close()
            self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def backup(self) -> Path:
        """Write a backup now (SQLite backup API); returns its path. Refused
        (:class:`FileReplacedError`) once the path names another file than the one open."""
        self.check_same_file()
        p = backup_files.write_backup(self.db, self.path, self.backup_keep)
        self._changes = 0
        return p

    def _backup_due(self) -> bool:
        """On closing after changes: see :func:`backup_files.backup_due` (a failure to tell
        means yes)."""
        try:
            entries = chain.head(self.db.conn)[0]
            row = self.db.execute("SELECT MAX(number) FROM rounds").fetchone()
        except sqlite3.Error:
            return True
        rnd = int(row[0]) if row and row[0] is not None else 0

        def hash_at(seq: int) -> str | None:
            found = self.db.execute("SELECT hash FROM chain WHERE seq=?", (seq,)).fetchone()
            return str(found[0]) if found else None

        try:
            return backup_files.backup_due(self.path, entries, rnd, self.backup_every, hash_at)
        except (sqlite3.Error, ValueError):
            return True

    def backups(self) -> list[Path]:
        return backup_files.list_backups(self.path)

    def _saved(self) -> None:
        """Count a committed change; back up every ``backup_every``, and at once when there
        is no backup yet or the newest is over ten minutes old (a desk open all day that
        saves a hand now and then would otherwise go hours without one). A failing backup
        never turns a committed save into an error: it is kept in ``backup_error`` and
        warned; after a failure the next try waits for ``backup_every`` changes."""
        self._changes += 1
        if self.backup_every and (self._changes >= self.backup_every
                                  or (self.backup_error is None
                                      and backup_files.stale(self.path))):
            self._try_backup()

    def _try_backup(self) -> None:
        try:
            self.backup()
            self.backup_error = None
        except StorageFault as e:  # already says the change is unchanged / saved
            self.backup_error = f"backup failed: {e.problem}"
            warnings.warn(self.backup_error, RuntimeWarning, stacklevel=3)
        except (OSError, sqlite3.Error) as e:
            self.backup_error = f"backup failed: {e} (the change itself was saved)"
            warnings.warn(self.backup_error, RuntimeWarning, stacklevel=3)

    def has_referees(self) -> bool:
        """Whether changes need a referee's PIN (once the first referee is added)."""
        return self.db.execute("SELECT 1 FROM referees LIMIT 1").fetchone() is not None

    def _authorize(self, referee: str, *, head: bool = False, action: str = "this change",
                   override: str | None = None) -> str:
        """The name to record for a change, after checking who may make it.

        A tournament with referees: the change needs a signed-in referee (PIN checked by
        :meth:`sign_in`), and the head referee for ``head`` changes. Without referees (the
        demo, older files) names are taken as given, as before referees existed; only an
        override is still refused to anyone but the named head referee."""
        referee = _text(referee, "referee")
        if not self.has_referees():
            head_name = self.info.head_referee
            if override and head_name and referee != head_name:
                who = f"referee {referee!r}" if referee else "no referee was named"
                raise StorageError("referee", f"only the head referee ({head_name}) may record "
                                   f"a hand that breaks the rules; {who} (give the head "
                                   "referee's name)")
            return referee
        who = self.signed_in
        if who is None:
            raise AuthError("referee", f"{action} needs a referee's name and PIN (this "
                            "tournament has referees): --referee NAME, and the PIN at the "
                            "prompt or in REFEREE_PIN")
        if referee and referee != who.name:
            raise AuthError("referee", f"signed in as {who.name}, not {referee}")
        if head and not who.head:
            raise AuthError("referee", f"{action} needs the head referee's PIN; {who.name} is "
                            "not a head referee")
        return who.name

    @contextlib.contextmanager
    def _write(self) -> Iterator[None]:
        """One save: a write transaction that ends with exactly one chain entry holding every
        row it wrote (the caller says what it was with :meth:`_log`)."""
        conn = self.db.conn
        if not self._capturing:
            chain.install_capture(conn)
            # created inside an outer transaction, they would go with its rollback: again then
            self._capturing = not conn.in_transaction
        with dbm.write_transaction(self.db, self.path, self.read_only):
            self.check_same_file()  # under the write lock: never into a file moved aside
            chain.clear_captured(self.db.conn)  # nothing from before this save
            self._pending = None
            yield
            rows = chain.take_captured(self.db.conn)
            if self._pending is None:
                if rows:
                    raise RuntimeError("a save wrote rows without saying what it was (_log)")
                return
            referee, action, detail, at = self._pending
            self._pending = None
            chain.append(self.db.conn, referee=referee, action=action, detail=detail, at=at,
                         rows=rows)

    def _log(self, referee: str, action: str, detail: Mapping[str, Any], at: str) -> None:
        """Name the save in progress (who, what, when); written as its chain entry."""
        self._pending = (referee, action, json.loads(_dump(detail)), at)

    def log(self, limit: int | None = None, *, hand: int | None = None,
            referee: str | None = None) -> list[dict[str, Any]]:
        """Who did what and when, read from the chain (oldest first); ``hand`` keeps the
        entries that wrote that hand, ``referee`` those of one referee."""
        sql = "SELECT seq, at, referee, action, entry FROM chain"
        params: list[Any] = []
        if referee is not None:
            sql += " WHERE referee=?"
            params.append(referee)
        rows = []
        for seq, at, who, action, text in self.db.execute(sql + " ORDER BY seq", params):
            e = json.loads(text)
            if hand is not None and not any(
                    t in ("hands", "hand_versions") and (r.get("id") if t == "hands"
                                                         else r.get("hand_id")) == hand
                    for t, _, r in e["rows"]):
                continue
            rows.append({"id": seq, "at": at, "referee": who, "action": action,
                         "detail": e["detail"]})
        return rows[-limit:] if limit else rows

    def record_digest(self) -> tuple[int, str]:
        """(entries, short digest): the chain's length and the first 12 hex digits of its
        last hash. Printed on every report and in the desk's status bar, so a posted sheet can
        be matched to the database it came from."""
        n, h = chain.head(self.db.conn)
        return n, h[:12]

    def _meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}

    @property
    def info(self) -> TournamentInfo:
        meta = self._meta()
        rules = self._base_rules(meta)
        refs = self.db.execute("SELECT name, head FROM referees ORDER BY added_at, name").fetchall()
        heads = [n for n, h in refs if h]
        return TournamentInfo(
            name=meta["name"], ruleset=rules.id, seats=tuple(rules.seats),
            start_date=meta.get("start_date", ""), end_date=meta.get("end_date", ""),
            venue=meta.get("venue", ""), stake=int(meta.get("stake", 1)),
            tie_break=tuple(meta.get("tie_break", DEFAULT_TIE_BREAK)),
            referees=tuple(n for n, _ in refs) if refs else tuple(meta.get("referees", ())),
            head_referee=heads[0] if heads else meta.get("head_referee", ""),
            created_at=meta.get("created_at", ""), cap_fan=meta.get("cap_fan"),
            templates=meta.get("templates", ""), results_url=meta.get("results_url", ""),
            verified_only=bool(meta.get("verified_only", False)))

    def ruleset(self) -> Ruleset:
        """The tournament's own ruleset as stored inside it (a shipped one, or a club's file):
        its seats, switches and clause texts, for traces, ruling sheets and help. Settle
        with :meth:`rules`, which adds the tournament's cap and stake."""
        return self._base_rules()

    def _base_rules(self, meta: Mapping[str, Any] | None = None) -> Ruleset:
        """The tournament's own ruleset, from the snapshot stored inside the tournament."""
        meta = self._meta() if meta is None else meta
        return self._ruleset_by_digest(meta["ruleset_digest"])

    def _ruleset_by_digest(self, digest: str) -> Ruleset:
        def load() -> str | None:
            r = self.db.execute("SELECT data FROM rulesets WHERE digest=?", (digest,)).fetchone()
            return r[0] if r else None

        try:
            return ruleset_store.by_digest(digest, load)
        except KeyError:
            raise StorageError("ruleset", f"the ruleset {str(digest)[:12]} is not stored in "
                               "this tournament") from None
        except ValueError as e:
            raise StorageError("ruleset", str(e)) from None

    def settings(self) -> dict[str, Any]:
        """What settles a hand saved now: ruleset id and digest, cap and stake. Stored with
        every version, which is settled under exactly these forever after."""
        meta = self._meta()
        return {"ruleset": meta["ruleset"], "ruleset_digest": meta["ruleset_digest"],
                "cap_fan": meta.get("cap_fan"), "stake": int(meta.get("stake", 1))}

    def rules_for(self, settings: Mapping[str, Any]) -> Ruleset:
        """The ruleset under stored settings (a saved version's, or :meth:`settings`)."""
        return self._ruleset_by_digest(settings["ruleset_digest"]).with_settings(
            cap_fan=settings.get("cap_fan"), stake=settings.get("stake"))

    def rules(self) -> Ruleset:
        """The tournament's ruleset under its current settings: what every new settlement and
        every preview uses."""
        return self.rules_for(self.settings())

    def _seats(self) -> tuple[str, ...]:
        return tuple(self._base_rules().seats)

    def _ruleset_id(self) -> str:
        return json.loads(self.db.execute("SELECT value FROM meta WHERE key='ruleset'")
                          .fetchone()[0])

    def replaced(self) -> bool:
        """Whether the path now names another file than the one open here: a backup restored
        by another process moves this one aside (``restore_backup``), and this connection
        would go on reading and writing the copy set aside. Reopen the path."""
        return self._file_id is not None and _file_identity(self.path) != self._file_id

    def check_same_file(self) -> None:
        """Raise :class:`FileReplacedError` if :meth:`replaced`."""
        if self.replaced():
            raise FileReplacedError("db", f"{self.path} was replaced since it was opened here "
                                    "(a backup restored by another desk, or the file moved); "
                                    "nothing was changed: open it again")

    def revision(self) -> tuple[int, int]:
        """A cheap token that changes whenever the file changes — by this object or by another
        process (the CLI while the GUI is open). Poll it (e.g. once a second) and refresh
        views when it differs from the last value seen. Raises :class:`FileReplacedError`
        once the path names another file (a backup restored elsewhere): reopen it."""
        self.check_same_file()
        other = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        return other, self.db.conn.total_changes

    def integrity_check(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


