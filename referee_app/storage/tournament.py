"""The tournament store: one SQLite file per tournament, reached only through this class.

:class:`Tournament` is the one entry point; each concern lives in its own module and is
mixed in here: players (``players.py``), rounds and seating (``rounds.py``), the whole-event
seating plan (``planning.py``), writing hands
(``hands.py``), reading hands (``hand_queries.py``), penalties (``penalties.py``),
standings and statements (``standings.py``), bundles (``bundle.py``), CSV (``csv_io.py``);
the connection, audit log and backups are in ``base.py``, the schema in ``db.py``.

The GUI, the reports and the CLI all call :class:`Tournament`; they never run SQL.
Every mutating method is one durable transaction that either fully happens or changes
nothing; every read returns frozen dataclasses (``models.py``). Hands are append-only:
an amendment, a status change or a void writes a new *version*; standings are always
recomputed from the current versions on each call (never a stored running total).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee_app.core import (
    DEFAULT_RULESET,
    RecordError,
    Ruleset,
    UnknownRulesetError,
    get_ruleset,
)

from . import chain, migrations, opening, ruleset_store
from . import db as dbm
from .backups import BackupsMixin
from .base import _cap, _check_tie_break, _date, _dump, _names, _stake, _text
from .bundle import BundleMixin
from .csv_io import CsvMixin
from .errors import (
    ReadOnlyError,
    StorageError,
    TournamentExistsError,
)
from .hand_queries import HandQueriesMixin
from .hands import HandsMixin
from .models import (
    DEFAULT_TIE_BREAK,
)
from .penalties import PenaltiesMixin
from .planning import PlanningMixin
from .players import PlayersMixin
from .referees import RefereesMixin
from .rounds import RoundsMixin
from .settings import SettingsMixin
from .standings import StandingsMixin
from .verify import VerifyMixin


class Tournament(SettingsMixin, RefereesMixin, PlayersMixin, RoundsMixin, PlanningMixin,
                 HandsMixin, HandQueriesMixin, PenaltiesMixin, StandingsMixin, BundleMixin,
                 CsvMixin, VerifyMixin, BackupsMixin):
    """One tournament in one SQLite file. Use :meth:`create` or :meth:`open`.

    ``backup_every`` changes (and on :meth:`close`) a copy is written with SQLite's backup
    API to ``<file>.backups/``, keeping the newest ``backup_keep`` (20) and each round's
    last (list and restore them with :meth:`backup_list`, :meth:`restore_backup`).
    ``backup_every=0`` turns automatic backups off (tests, benchmarks).
    """

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | Path, name: str, *, ruleset: str | Ruleset = DEFAULT_RULESET,
               start_date: str = "", end_date: str = "", venue: str = "",
               stake: int | None = None, tie_break: Sequence[str] = DEFAULT_TIE_BREAK,
               referees: Sequence[str] = (), head_referee: str = "",
               cap_fan: int | None = None, head_pin: str | None = None,
               verified_only: bool = False, **kwargs: Any) -> Tournament:
        """Create a new tournament file; refuses to overwrite an existing database.

        ``ruleset``: a shipped id, or a :class:`Ruleset` read from a club's file
        (``core.ruleset_from_file``). Its complete data is stored inside the tournament (its digest goes with
        every saved version). With ``head_pin`` the head referee is registered with that PIN,
        and from then on every change needs a referee's PIN. ``verified_only``: standings
        count only verified hands (provisional until all are; ``update_info`` changes it).
        """
        path = Path(path)
        name = _text(name, "name", required=True)
        if isinstance(ruleset, Ruleset):  # a club's own ruleset file, already checked
            rules = ruleset
        else:
            try:
                rules = get_ruleset(ruleset)
            except UnknownRulesetError as e:
                raise StorageError("ruleset", str(e)) from None
        tb = _check_tie_break(tie_break)
        if stake is not None:
            stake = _stake(stake)
        referees = _names(referees, "referees")
        cap_fan = _cap(cap_fan)
        head_referee = _text(head_referee, "head_referee")
        start_date, end_date = _date(start_date, "start_date"), _date(end_date, "end_date")
        if head_pin is not None and not head_referee:
            raise StorageError("head_referee", "a PIN was given but no head referee's name")
        if path.exists() and not path.is_file():  # a folder, /dev/null, a pipe
            raise TournamentExistsError("db", f"{path} exists and is not a file; choose a file "
                                        "name for the new tournament")
        if path.exists() and path.stat().st_size > 0:
            raise TournamentExistsError("db", f"{path} already exists; choose another file "
                                        "or open it instead")
        path.parent.mkdir(parents=True, exist_ok=True)
        db = dbm.connect(path)
        try:
            dbm.create_schema(db)
            t = cls(path, db, **kwargs)
            snap = ruleset_store.snapshot(rules)
            digest = ruleset_store.digest(snap)
            info = {"app": dbm.APP_ID, "name": name, "ruleset": rules.id,
                    "ruleset_digest": digest,
                    "start_date": start_date, "end_date": end_date,
                    "venue": _text(venue, "venue"),
                    "stake": rules.stake if stake is None else stake,
                    "tie_break": list(tb), "referees": list(referees),
                    "head_referee": head_referee,
                    "cap_fan": cap_fan, "created_at": dbm.now()}
            if verified_only is not False:
                if verified_only is not True:
                    raise StorageError("verified_only", "expected true or false, got "
                                       f"{verified_only!r}")
                info["verified_only"] = True
            with t._write():
                db.execute("INSERT INTO rulesets(digest, id, data) VALUES (?,?,?)",
                           (digest, rules.id, chain.canonical(snap)))
                for k, v in info.items():
                    db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (k, _dump(v)))
                if head_pin is not None:
                    t._insert_referee(head_referee, head=True, pin=head_pin,
                                      at=info["created_at"])
                t._log(head_referee, "event.create", {"name": name, "ruleset": rules.id,
                                                      "ruleset_digest": digest},
                       info["created_at"])
        except BaseException:
            db.close()
            for suffix in ("", "-wal", "-shm"):  # leave no half-made tournament behind
                Path(str(path) + suffix).unlink(missing_ok=True)
            raise
        return t

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> Tournament:
        """Open an existing tournament file (see :mod:`.opening` for what is checked).

        Not a tournament: :class:`NotATournamentError` (bad input); damaged:
        :class:`DamagedError`; a file that cannot be written opens for viewing
        (``read_only`` says why) and every change raises :class:`ReadOnlyError`.

        A file of schema 1 (before the chain) is brought up to date on open: its ruleset is
        stored inside it, each saved version gets the settings it was settled under, and the
        chain starts with one entry holding everything the file held (``event.migrate``)."""
        path = Path(path)
        read_only, version = opening.check_file(path)
        db = dbm.connect(path, read_only=read_only,
                         uri=opening.ro_uri(path) if read_only else None)
        try:
            opening.quick_check(db, path)
            if version < dbm.SCHEMA_VERSION:
                if read_only:
                    raise ReadOnlyError("db", f"{path} was written by an older Referee Desk "
                                        f"and must be upgraded, but {read_only}; make it "
                                        "writable and open it again")
                migrations.upgrade(db, path)
        except BaseException:
            db.close()
            raise
        t = cls(path, db, **kwargs)
        t.read_only = read_only
        return t


__all__ = ["Tournament", "RecordError"]
