"""The tournament store: one SQLite file per tournament, reached only through this class.

:class:`Tournament` holds one part per concern, each a small class over the same
:class:`~.store.Store` (the open file, the durable write that ends in one chain entry,
who may make a change, the settings and rulesets, automatic backups), which every part is
given; a part that needs another is given it too. The map::

    Tournament.create(path, name, ...) / Tournament.open(path)     -> Tournament
    Tournament.import_bundle(bundle, db)  t.write_bundle(path)     whole tournament as JSON
    Tournament.backup_list(path)          Tournament.restore_backup(path, number, ...)
    t.info  t.update_info(...)  t.ruleset()  t.rules()  t.settings()  t.rules_for(s)
    t.settled_differently()  t.resettle(...)                        event settings
    t.close()  t.revision()  t.replaced()  t.check_same_file()  t.read_only  t.path  t.db
    t.referees  list  add  change_pin  sign_in  sign_out  required()  signed_in
    t.players   list  get  add  update  set_status  import_csv  id_of
    t.rounds    list  seat  set_seating  set_seat  seating  problems
    t.plan      make  stored  seat  reseat                          (whole-event seating plan)
    t.hands     add  amend  void  restore  set_status  get  find  list  index  history
                next_no  next_dealer  versions  export_csv
    t.penalties add  void  get  list
    t.standings table  stages  statement  provisional  unverified  seat_rows  export_csv
    t.stages    list  get  of_round  cut  cancel  check              (qualifying → final)
    t.record    log  digest  verify  integrity                      (the tamper-evident chain)
    t.keys      fingerprint  here  export  replace                   (the key that signs it)
    t.backups   write  paths  error  written
    t.store     the shared services (parts and bundle import use them; callers rarely do)

Modules: players (``players.py``), rounds (``rounds.py``, stored seats in
``round_seats.py``), the plan (``planning.py``), hands (``hands.py``), penalties, standings,
the stages (``stages.py``; ranked together in ``stage_board.py``, the leaderboards
themselves in ``leaderboard.py``, placement points in ``placement.py`` and ``scoring.py``),
the record (``verify.py``; its signatures and anchors ``trust.py``), the signing key
(``keys.py``, its material ``signing.py``), backups (``backups.py``), bundles (``bundle.py``, ``bundle_import.py``), CSV
(``csv_io.py``), settings (``settings.py``), checks of values (``checks.py``); the schema is
in ``db.py``.

The GUI, the reports and the CLI all call :class:`Tournament`; they never run SQL.
Every mutating method is one durable transaction that either fully happens or changes
nothing; every read returns frozen dataclasses (``models.py``). Hands are append-only:
an amendment, a status change or a void writes a new *version*; standings are always
those of the current versions (never a stored running total): the sums per player are kept
in memory between calls and, after a save, added up again from the hands for the players
it touched, as the chain's entries since tell (``changes.py``; the seatings likewise).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Self

from referee_app.core import (
    DEFAULT_RULESET,
    RecordError,
    Ruleset,
    UnknownRulesetError,
    get_ruleset,
)

from . import backups, bundle, bundle_import, chain, migrations, opening, ruleset_store, signing
from . import db as dbm
from .backups import BackupInfo, Backups
from .checks import (
    check_cap,
    check_date,
    check_names,
    check_stake,
    check_text,
    check_tie_break,
    dump,
)
from .errors import (
    ReadOnlyError,
    StorageError,
    TournamentExistsError,
)
from .hands import Hands
from .keys import Keys
from .models import DEFAULT_TIE_BREAK, HandInfo, TournamentInfo
from .penalties import Penalties
from .planning import Plan
from .players import Players
from .referees import Referees
from .round_seats import RoundSeats
from .rounds import Rounds
from .settings import Settings, scoring_fields
from .stages import Stages
from .standings import Standings
from .store import Store
from .verify import Record


class Tournament:
    """One tournament in one SQLite file, as parts (see the module doc). Use :meth:`create`
    or :meth:`open`.

    Every ``backup_every`` changes (and after a save when the newest backup point is over a
    minute old, and on :meth:`close` after changes) a backup point holding what changed is
    appended to the file's backup log in ``<file>.backups/`` (list and restore them with
    :meth:`backup_list`, :meth:`restore_backup`). ``backup_every=0`` turns automatic backups
    off (tests, benchmarks).
    """

    def __init__(self, path: Path, db: dbm.Database, *, backup_every: int = 25) -> None:
        self.store = store = Store(path, db, backup_every=backup_every)
        self.path = path
        self.db = db
        self.referees = Referees(store)
        self.players = Players(store)
        seats = RoundSeats(store, self.players)
        self.plan = Plan(store, self.players, seats)
        self.rounds = Rounds(store, self.players, seats, self.plan)
        self.hands = Hands(store, self.players)
        self.penalties = Penalties(store, self.players)
        self.standings = Standings(store, self.players, self.penalties)
        self.stages = Stages(store, self.players, seats, self.standings)
        self.record = Record(store)
        self.keys = Keys(store)
        self.backups = Backups(store)
        self._settings = Settings(store, self.hands)

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | Path, name: str, *, ruleset: str | Ruleset = DEFAULT_RULESET,
               start_date: str = "", end_date: str = "", venue: str = "",
               stake: int | None = None, tie_break: Sequence[str] = DEFAULT_TIE_BREAK,
               referees: Sequence[str] = (), head_referee: str = "",
               cap_fan: int | None = None, head_pin: str | None = None,
               verified_only: bool = False, scoring: str = "chips",
               placement_points: Any = None, **kwargs: Any) -> Tournament:
        """Create a new tournament file; refuses to overwrite an existing database.

        ``ruleset``: a shipped id, or a :class:`Ruleset` read from a club's file
        (``core.ruleset_from_file``). Its complete data is stored inside the tournament (its digest goes with
        every saved version). With ``head_pin`` the head referee is registered with that PIN,
        and from then on every change needs a referee's PIN. ``verified_only``: standings
        count only verified hands (provisional until all are; ``update_info`` changes it).
        """
        path = Path(path)
        name = check_text(name, "name", required=True)
        if isinstance(ruleset, Ruleset):  # a club's own ruleset file, already checked
            rules = ruleset
        else:
            try:
                rules = get_ruleset(ruleset)
            except UnknownRulesetError as e:
                raise StorageError.like("ruleset", e) from None
        tb = check_tie_break(tie_break)
        if stake is not None:
            stake = check_stake(stake)
        referees = check_names(referees, "referees")
        cap_fan = check_cap(cap_fan)
        head_referee = check_text(head_referee, "head_referee")
        start_date, end_date = check_date(start_date, "start_date"), check_date(end_date, "end_date")
        if head_pin is not None and not head_referee:
            raise StorageError.of("head_referee", "pin_without_head")
        scored = scoring_fields(TournamentInfo("", rules.id, tuple(rules.seats)), scoring,
                                placement_points)
        if path.exists() and not path.is_file():  # a folder, /dev/null, a pipe
            raise TournamentExistsError.of("db", "path_not_a_file", path=str(path))
        if path.exists() and path.stat().st_size > 0:
            raise TournamentExistsError.of("db", "tournament_exists", path=str(path))
        path.parent.mkdir(parents=True, exist_ok=True)
        key = signing.SigningKey.generate()
        signing.save(key)  # kept before anything is signed with it
        db = dbm.connect(path)
        try:
            dbm.create_schema(db)
            t = cls(path, db, **kwargs)
            snap = ruleset_store.snapshot(rules)
            digest = ruleset_store.digest(snap)
            info = {"app": dbm.APP_ID, "name": name, "ruleset": rules.id,
                    "ruleset_digest": digest,
                    "start_date": start_date, "end_date": end_date,
                    "venue": check_text(venue, "venue"),
                    "stake": rules.stake if stake is None else stake,
                    "tie_break": list(tb), "referees": list(referees),
                    "head_referee": head_referee,
                    "cap_fan": cap_fan, "created_at": dbm.now()}
            if verified_only is not False:
                if verified_only is not True:
                    raise StorageError.of("verified_only", "not_bool", got=verified_only)
                info["verified_only"] = True
            if scored["scoring"] != "chips":  # a chips event's meta stays as it always was
                info.update(scored)
            with t.store.write(signer=key):
                db["rulesets"].insert({"digest": digest, "id": rules.id,
                                       "data": chain.canonical(snap)})
                db["meta"].insert_all({"key": k, "value": dump(v)} for k, v in info.items())
                db["meta"].insert({"key": signing.META_KEY,
                                   "value": key.public.meta_value()})
                if head_pin is not None:
                    t.referees.insert(head_referee, head=True, pin=head_pin,
                                      at=info["created_at"])
                t.store.note(head_referee, "event.create", {"name": name, "ruleset": rules.id,
                                                      "ruleset_digest": digest},
                       info["created_at"])
        except BaseException:
            db.close()
            for suffix in ("", "-wal", "-shm"):  # leave no half-made tournament behind
                Path(str(path) + suffix).unlink(missing_ok=True)
            signing.forget(key.fingerprint)
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
                    raise ReadOnlyError.of("db", "upgrade_read_only", path=str(path),
                                           reason=read_only)
                migrations.upgrade(db, path)
        except BaseException:
            db.close()
            raise
        t = cls(path, db, **kwargs)
        t.store.read_only = read_only
        return t

    @classmethod
    def import_bundle(cls, source: str | Path | Mapping[str, Any], db_path: str | Path, *,
                      legacy: bool = False, key: str | None = None,
                      head_pin: bundle_import.HeadPin = None, **kwargs: Any) -> Self:
        """Create ``db_path`` from a bundle after verifying all of it (hashes, signatures,
        settlements); all or nothing (nothing is left on failure). ``legacy``: accept a
        bundle from before the chain. ``key``: refuse a bundle not signed by that key.
        ``head_pin``: the head referee's PIN on this desk (or a function asked with the
        name), needed when the tournament has referees (no PIN travels in a bundle)."""
        return bundle_import.import_bundle(cls, source, Path(db_path), legacy=legacy,  # type: ignore[no-any-return]
                                    key=key, head_pin=head_pin, **kwargs)

    @staticmethod
    def backup_list(path: str | Path) -> list[BackupInfo]:
        """The backups of ``path``, newest first, each with its time, hand count and digest."""
        return backups.backup_list(path)

    @classmethod
    def restore_backup(cls, path: str | Path, number: int, *, referee: str = "",
                       pin: Callable[[], str] | str | None = None) -> tuple[BackupInfo, Path]:
        """Put backup ``number`` (1 = newest) in place of ``path`` (see
        :func:`.backups.restore_backup`: checked, the current file moved aside, the head
        referee's decision)."""
        return backups.restore_backup(cls.open, path, number, referee=referee, pin=pin)

    def close(self) -> None:
        """Back up (if anything changed) and close the file."""
        self.store.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def read_only(self) -> str | None:
        """Why the file is open for viewing only (every change raises ReadOnlyError), or None."""
        return self.store.read_only

    def revision(self) -> tuple[int, int]:
        """A cheap token that changes whenever the file changes, here or in another process
        (see :meth:`Store.revision <.store.Store.revision>`)."""
        return self.store.revision()

    def replaced(self) -> bool:
        """Whether the path now names another file than the one open here (reopen it)."""
        return self.store.replaced()

    def check_same_file(self) -> None:
        """Raise :class:`FileReplacedError` if :meth:`replaced`."""
        self.store.check_same_file()

    def export_bundle(self) -> dict[str, Any]:
        """The whole tournament as one JSON document (its values)."""
        return bundle.export_bundle(self)

    def write_bundle(self, path: str | Path) -> bundle.BundleWritten:
        """The whole tournament written to ``path`` as one JSON document (atomically)."""
        return bundle.write_bundle(self, path)

    # ------------------------------------------------------------------ event settings

    @property
    def info(self) -> TournamentInfo:
        return self.store.info

    def ruleset(self) -> Ruleset:
        """The tournament's own ruleset as stored inside it (a shipped one, or a club's file):
        its seats, switches and clause texts. Settle with :meth:`rules`."""
        return self.store.ruleset()

    def rules(self) -> Ruleset:
        """The ruleset under the tournament's current cap and stake: what every new
        settlement and every preview uses."""
        return self.store.rules()

    def settings(self) -> dict[str, Any]:
        """What settles a hand saved now: ruleset id and digest, cap and stake."""
        return self.store.settings()

    def rules_for(self, settings: Mapping[str, Any]) -> Ruleset:
        """The ruleset under stored settings (a saved version's, or :meth:`settings`)."""
        return self.store.rules_for(settings)

    def update_info(self, *, referee: str = "", **fields: Any) -> TournamentInfo:
        """Change the event's settings (see :meth:`.settings.Settings.update`)."""
        return self._settings.update(referee=referee, **fields)

    def settled_differently(self) -> list[int]:
        """Ids of the hands whose current version would settle differently now."""
        return self._settings.settled_differently()

    def resettle(self, *, referee: str = "", reason: str | None = None) -> list[HandInfo]:
        """A new version of every hand :meth:`settled_differently` names (head referee)."""
        return self._settings.resettle(referee=referee, reason=reason)


__all__ = ["Tournament", "RecordError"]
