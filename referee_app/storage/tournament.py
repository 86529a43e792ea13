"""The tournament store: one SQLite file per tournament, reached only through this class.

:class:`Tournament` is the one entry point; each concern lives in its own module and is
mixed in here: players (``players.py``), rounds and seating (``rounds.py``), writing hands
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
    UnknownRulesetError,
    get_ruleset,
)

from . import db as dbm
from . import opening
from .backups import BackupsMixin
from .base import _cap, _check_tie_break, _dump, _names, _stake, _text
from .bundle import BundleMixin
from .csv_io import CsvMixin
from .errors import (
    StorageError,
    TournamentExistsError,
)
from .hand_queries import HandQueriesMixin
from .hands import HandsMixin
from .models import (
    DEFAULT_TIE_BREAK,
    TournamentInfo,
)
from .penalties import PenaltiesMixin
from .players import PlayersMixin
from .rounds import RoundsMixin
from .standings import StandingsMixin


class Tournament(PlayersMixin, RoundsMixin, HandsMixin, HandQueriesMixin, PenaltiesMixin,
                 StandingsMixin, BundleMixin, CsvMixin, BackupsMixin):
    """One tournament in one SQLite file. Use :meth:`create` or :meth:`open`.

    ``backup_every`` changes (and on :meth:`close`) a copy is written with SQLite's backup
    API to ``<file>.backups/``, keeping the newest ``backup_keep`` (20) and each round's
    last (list and restore them with :meth:`backup_list`, :meth:`restore_backup`).
    ``backup_every=0`` turns automatic backups off (tests, benchmarks).
    """

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | Path, name: str, *, ruleset: str = DEFAULT_RULESET,
               start_date: str = "", end_date: str = "", venue: str = "",
               stake: int | None = None, tie_break: Sequence[str] = DEFAULT_TIE_BREAK,
               referees: Sequence[str] = (), head_referee: str = "",
               cap_fan: int | None = None,
               _log_create: bool = True, **kwargs: Any) -> Tournament:
        """Create a new tournament file; refuses to overwrite an existing database."""
        path = Path(path)
        name = _text(name, "name", required=True)
        try:
            rules = get_ruleset(ruleset)
        except UnknownRulesetError as e:
            raise StorageError("ruleset", str(e)) from None
        tb = _check_tie_break(tie_break)
        if stake is not None:
            stake = _stake(stake)
        referees = _names(referees, "referees")
        cap_fan = _cap(cap_fan)
        if path.exists() and path.stat().st_size > 0:
            raise TournamentExistsError("db", f"{path} already exists; choose another file "
                                        "or open it instead")
        path.parent.mkdir(parents=True, exist_ok=True)
        db = dbm.connect(path)
        try:
            dbm.create_schema(db)
            info = {"app": dbm.APP_ID, "name": name, "ruleset": rules.id,
                    "start_date": _text(start_date, "start_date"),
                    "end_date": _text(end_date, "end_date"), "venue": _text(venue, "venue"),
                    "stake": rules.stake if stake is None else stake,
                    "tie_break": list(tb), "referees": list(referees),
                    "head_referee": _text(head_referee, "head_referee"),
                    "cap_fan": cap_fan, "created_at": dbm.now()}
            with dbm.write_transaction(db):
                for k, v in info.items():
                    db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (k, _dump(v)))
                if _log_create:
                    db.execute("INSERT INTO log(at, referee, action, detail) VALUES (?,?,?,?)",
                               (info["created_at"], head_referee or "", "event.create",
                                _dump({"name": name, "ruleset": rules.id})))
        except BaseException:
            db.close()
            for suffix in ("", "-wal", "-shm"):  # leave no half-made tournament behind
                Path(str(path) + suffix).unlink(missing_ok=True)
            raise
        return cls(path, db, **kwargs)

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> Tournament:
        """Open an existing tournament file (see :mod:`.opening` for what is checked).

        Not a tournament: :class:`NotATournamentError` (bad input); damaged:
        :class:`DamagedError`; a file that cannot be written opens for viewing
        (``read_only`` says why) and every change raises :class:`ReadOnlyError`.
        """
        path = Path(path)
        read_only = opening.check_file(path)
        db = dbm.connect(path, read_only=read_only,
                         uri=opening.ro_uri(path) if read_only else None)
        try:
            opening.quick_check(db, path)
        except BaseException:
            db.close()
            raise
        t = cls(path, db, **kwargs)
        t.read_only = read_only
        return t

    def update_info(self, *, referee: str = "", **fields: Any) -> TournamentInfo:
        """Change name, dates, venue, stake, cap_fan, tie_break, referees or head_referee.

        A changed cap applies to hands saved from then on; saved versions keep their
        settlement (amend a hand to settle it again).
        """
        allowed = {"name", "start_date", "end_date", "venue", "stake", "tie_break", "referees",
                   "head_referee", "cap_fan"}
        for k in fields:
            if k not in allowed:
                raise StorageError(k, f"cannot be changed (changeable: {', '.join(sorted(allowed))})")
        if "tie_break" in fields:
            fields["tie_break"] = list(_check_tie_break(fields["tie_break"]))
        if "name" in fields:
            fields["name"] = _text(fields["name"], "name", required=True)
        if "referees" in fields:
            fields["referees"] = _names(fields["referees"], "referees")
        if "stake" in fields:
            fields["stake"] = _stake(fields["stake"])
        for k in ("venue", "start_date", "end_date", "head_referee"):
            if k in fields:
                fields[k] = _text(fields[k], k)
        if "cap_fan" in fields:
            fields["cap_fan"] = _cap(fields["cap_fan"])
        at = dbm.now()
        with dbm.write_transaction(self.db):
            for k, v in fields.items():
                self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                (k, _dump(v)))
            self._log(referee, "event.update", fields, at)
        self._saved()
        return self.info


__all__ = ["Tournament", "RecordError"]
