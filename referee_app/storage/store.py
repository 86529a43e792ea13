"""The services every part of a :class:`~referee_app.storage.tournament.Tournament` shares,
as one object each part is given: the open file (``db``, ``path``), the durable write
that ends in exactly one chain entry (:meth:`Store.write` with :meth:`Store.note`), who
may make a change (:meth:`Store.authorize`), the tournament's settings and rulesets, and
the automatic backup points written by :meth:`Store.saved`."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import warnings
from collections.abc import Iterator, Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from referee_app.core import Ruleset
from referee_app.core.errors import FieldError, Message, nested, os_reason

from . import backup_files, backup_log, chain, ruleset_store, signing
from . import db as dbm
from .checkpoints import Checkpoints
from .checks import check_text, dump
from .errors import AuthError, FileReplacedError, StorageError, StorageFault, fault_from
from .models import DEFAULT_TIE_BREAK, Referee, TournamentInfo


def _file_identity(path: Path) -> tuple[int, int] | None:
    """The file a path names (device, inode), or None if it names none."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


class Store:
    """State and services every part of a tournament uses: the open file (``db``), the audit
    log, the tournament's settings and ruleset, and automatic backups.

    Every ``backup_every`` changes, after a save when the newest backup point is over a
    minute old, and on :meth:`close` after changes, a backup point is appended to the
    file's backup log in ``<file>.backups/``: the chain entries written since the last
    point, compressed (``backup_log.py``; the folder's size limit: ``backup_files.py``;
    list and restore: ``backups.py``). ``backup_every=0`` turns automatic backups off
    (tests, benchmarks).
    """

    def __init__(self, path: Path, db: dbm.Database, *, backup_every: int = 25) -> None:
        self.path = path
        self.db = db
        self.backup_every = backup_every
        #: bytes this connection wrote into backups
        self.backup_written = 0
        self.changes = 0
        self.closed = False
        #: which file the path named when opened (a restore elsewhere replaces it)
        self._file_id = _file_identity(path)
        self.backup_error: str | None = None  # the last automatic backup's failure, if any
        self.read_only: str | None = None  # why the file is open for viewing only, if it is
        self._pending: tuple[str, str, dict[str, Any], str] | None = None
        #: the referee whose PIN was checked on this connection (``t.referees.sign_in``)
        self.signed_in: Referee | None = None
        #: the row-capturing triggers are created at the first save (:meth:`write`), so a
        #: command that only reads (standings, a listing) never pays for their 39 statements
        self._capturing = False
        #: the record's public key as last read (its meta text, the key)
        self._public: tuple[str, signing.PublicKey] | None = None
        #: the decoded meta table and the change token it was read at (:meth:`meta`)
        self._meta: tuple[tuple[int, int], dict[str, Any]] | None = None
        #: a save is in progress on this connection: what it wrote is not in the chain yet,
        #: so caches checked against the chain (``changes.py``) must not be trusted meanwhile
        self.writing = False
        #: the WAL copied back into the file on a thread of its own, never in a save
        self.checkpoints = Checkpoints(path)
        dbm.checkpoint_behind(db)

    def close(self) -> None:
        """Back up what changed (if anything) and close the file."""
        if self.closed:
            return
        try:
            # a file replaced meanwhile (a restore elsewhere): this connection reads the
            # copy set aside, which must not go into the backups
            if self.backup_every and self.changes and not self.replaced():
                self.try_backup()
        finally:
            self.checkpoints.close()
            self.db.close()
            self.closed = True

    def backup(self) -> Path:
        """Append a backup point now: what changed since the log's last point, under the
        file's write lock (``backup_log.append_point``); then prune the folder to its size
        limit. Returns the log. Refused (:class:`FileReplacedError`) once the path names
        another file than the one open."""
        self.check_same_file()
        folder = backup_files.writable_backup_dir(self.path)
        backup_files.clean_temp_files(self.path)
        try:
            point, written = backup_log.append_point(
                self.db.conn, folder, self.path.stem, read_only=bool(self.read_only),
                check=self.check_same_file)
        except OSError as e:  # the folder vanished, the disk is full
            raise StorageFault.of("backup", "backup_not_written", folder=str(folder),
                                  detail=os_reason(e)) from None
        except sqlite3.Error as e:
            raise fault_from(e, self.path) from e
        self.backup_written += written
        backup_files.prune(self.path, self.size())
        self.changes = 0
        return point.log

    def size(self) -> int:
        """The database's bytes (its pages: the file as it is once checkpointed)."""
        (count,), = self.db.execute("PRAGMA page_count").fetchall()
        (size,), = self.db.execute("PRAGMA page_size").fetchall()
        return int(count) * int(size)

    def saved(self) -> None:
        """Count a committed change; write a backup point every ``backup_every``, and at
        once when there is none yet or the newest is over a minute old (a desk open all day
        that saves a hand now and then). A point holds only what changed, so it costs about
        the saves it covers, not the file. A failing backup never turns a committed save
        into an error: it is kept in ``backup_error`` and warned; after a failure the next
        try waits for ``backup_every`` changes. Every few saves a checkpoint is started on
        its own thread (:mod:`.checkpoints`)."""
        self.changes += 1
        self.checkpoints.saved()
        if self.backup_every and (self.changes >= self.backup_every
                                  or (self.backup_error is None
                                      and backup_files.stale(self.path))):
            self.try_backup()

    def try_backup(self) -> None:
        try:
            self.backup()
            self.backup_error = None
        except StorageFault as e:  # already says the change is unchanged / saved
            self.backup_error = Message.of("backup_failed", why=nested(e))
            warnings.warn(self.backup_error, RuntimeWarning, stacklevel=3)
        except (OSError, sqlite3.Error) as e:
            why = os_reason(e) if isinstance(e, OSError) else str(e)
            self.backup_error = Message.of("backup_failed_saved", why=why)
            warnings.warn(self.backup_error, RuntimeWarning, stacklevel=3)

    def has_referees(self) -> bool:
        """Whether changes need a referee's PIN (once the first referee is added)."""
        return self.db.execute("SELECT 1 FROM referees LIMIT 1").fetchone() is not None

    def authorize(self, referee: str, *, head: bool = False, action: str = "this change",
                   override: str | None = None) -> str:
        """The name to record for a change, after checking who may make it.

        A tournament with referees: the change needs a signed-in referee (PIN checked by
        ``t.referees.sign_in``), and the head referee for ``head`` changes. Without referees (the
        demo, older files) names are taken as given, as before referees existed; only an
        override is still refused to anyone but the named head referee."""
        referee = check_text(referee, "referee")
        if not self.has_referees():
            head_name = self.info.head_referee
            if override and head_name and referee != head_name:
                if referee:
                    raise StorageError.of("referee", "override_not_head", head=head_name,
                                          referee=referee)
                raise StorageError.of("referee", "override_no_referee", head=head_name)
            return referee
        who = self.signed_in
        if who is None:
            raise AuthError.of("referee", "needs_referee", action=action)
        if referee and referee != who.name:
            raise AuthError.of("referee", "signed_in_as_other", name=who.name, referee=referee)
        # as the file says now: removed meanwhile (by another desk), no change is theirs
        row = self.db.execute("SELECT head FROM referees WHERE name=?", (who.name,)).fetchone()
        if row is None:
            self.signed_in = None
            raise AuthError.of("referee", "referee_removed", name=who.name)
        if head and not row[0]:
            raise AuthError.of("referee", "needs_head", action=action, name=who.name)
        return who.name

    @contextlib.contextmanager
    def write(self, *, signer: signing.SigningKey | None = None,
              start_with: signing.SigningKey | None = None) -> Iterator[None]:
        """One save: a write transaction that ends with exactly one chain entry holding every
        row it wrote (the caller says what it was with :meth:`note`), its head signed with
        the record's key.

        The key must be on this desk: a signed record whose private key is not here refuses
        the save at once (:class:`~.signing.KeyMissingError`, naming ``referee-app key
        import``), before anything is done. A record made before signing gets its key at
        its first save: a new key pair (kept in the key folder) whose public key goes into
        the record in an entry of its own (``record.key``), just before the save's.
        ``signer``: the key that signs instead of the record's (a new tournament's, or a
        new key replacing the record's: ``t.keys.replace``). ``start_with``: the key a record
        made before signing starts with, instead of a new one (a backup from before signing
        restored in place of a signed file goes on with that file's key)."""
        conn = self.db.conn
        if not self._capturing:
            chain.install_capture(conn)
            # created inside an outer transaction, they would go with its rollback: again then
            self._capturing = not conn.in_transaction
        started: signing.SigningKey | None = None
        try:
            with dbm.write_transaction(self.db, self.path, self.read_only), \
                    self._writing():
                self.check_same_file()  # under the write lock: never into a file moved aside
                key = signer if signer is not None else self.signing_key()
                chain.clear_captured(self.db.conn)  # nothing from before this save
                self._pending = None
                yield
                rows = chain.take_captured(self.db.conn)
                if self._pending is None:
                    if rows:
                        raise RuntimeError("a save wrote rows without saying what it was "
                                           "(note)")
                    return
                referee, action, detail, at = self._pending
                self._pending = None
                if key is None and start_with is not None:
                    key = self._start_signing(referee, at, start_with)
                elif key is None:
                    key = started = self._start_signing(referee, at)
                chain.append(self.db.conn, referee=referee, action=action, detail=detail,
                             at=at, rows=rows, signer=key)
        except BaseException:
            if started is not None:  # rolled back: the key signs nothing that was kept
                signing.forget(started.fingerprint)
            raise

    def public_key(self) -> signing.PublicKey | None:
        """The record's public key (None: made before signing, not written since)."""
        row = self.db.execute("SELECT value FROM meta WHERE key=?",
                              (signing.META_KEY,)).fetchone()
        if row is None:
            return None
        cached = self._public
        if cached is None or cached[0] != row[0]:
            cached = self._public = (row[0], signing.PublicKey.from_meta(row[0]))
        return cached[1]

    def signing_key(self) -> signing.SigningKey | None:
        """This desk's private key of the record (None: the record has no key yet);
        :class:`~.signing.KeyMissingError` when the record has one that is not here."""
        public = self.public_key()
        if public is None:
            return None
        key = signing.load(public.fingerprint)
        if key is None:
            raise signing.KeyMissingError.of("key", "key_missing",
                                             key=signing.short(public.fingerprint),
                                             folder=str(signing.key_dir()))
        return key

    def _start_signing(self, referee: str, at: str,
                       key: signing.SigningKey | None = None) -> signing.SigningKey:
        """A record made before signing, at its first save: a new key (kept in the key
        folder first) or the one given, its public key in an entry of its own."""
        if key is None:
            key = signing.SigningKey.generate()
            signing.save(key)
        self.db.execute("INSERT INTO meta(key, value) VALUES (?, ?)",
                        (signing.META_KEY, key.public.meta_value()))
        chain.append(self.db.conn, referee=referee, action="record.key",
                     detail={"fingerprint": key.fingerprint, "started": True}, at=at,
                     rows=chain.take_captured(self.db.conn), signer=key)
        return key

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        self.writing = True
        try:
            yield
        finally:
            self.writing = False

    def note(self, referee: str, action: str, detail: Mapping[str, Any], at: str) -> None:
        """Name the save in progress (who, what, when); written as its chain entry."""
        self._pending = (referee, action, json.loads(dump(detail)), at)

    def meta(self) -> dict[str, Any]:
        """The meta table decoded (the event's settings, the seat plan among them: 43 kB at
        1,000 players). Read again only when the file changed since — here (SQLite's
        ``total_changes``, which a rolled-back change moves too) or in another process
        (``data_version``) — not on every hand read, which made ``event export`` spend 6.6 s
        of 10.5 s decoding it at 1,000 players."""
        token = (int(self.db.execute("PRAGMA data_version").fetchone()[0]),
                 self.db.conn.total_changes)
        if self._meta is None or self._meta[0] != token:
            self._meta = (token, {k: json.loads(v) for k, v in
                                  self.db.execute("SELECT key, value FROM meta")})
        return dict(self._meta[1])

    @property
    def info(self) -> TournamentInfo:
        meta = self.meta()
        rules = self.base_rules(meta)
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
            verified_only=bool(meta.get("verified_only", False)),
            self_verify=bool(meta.get("self_verify", False)),
            scoring=meta.get("scoring", "chips"),
            placement_points=tuple(Fraction(str(v)) for v in meta.get("placement_points", ())),
            signing_key=(signing.PublicKey.from_meta(meta[signing.META_KEY]).fingerprint
                         if signing.META_KEY in meta else ""))

    def ruleset(self) -> Ruleset:
        """The tournament's own ruleset as stored inside it (a shipped one, or a club's file):
        its seats, switches and clause texts, for traces, ruling sheets and help. Settle
        with :meth:`rules`, which adds the tournament's cap and stake."""
        return self.base_rules()

    def base_rules(self, meta: Mapping[str, Any] | None = None) -> Ruleset:
        """The tournament's own ruleset, from the snapshot stored inside the tournament."""
        meta = self.meta() if meta is None else meta
        return self.ruleset_by_digest(meta["ruleset_digest"])

    def ruleset_by_digest(self, digest: str) -> Ruleset:
        def load() -> str | None:
            r = self.db.execute("SELECT data FROM rulesets WHERE digest=?", (digest,)).fetchone()
            return r[0] if r else None

        try:
            return ruleset_store.by_digest(digest, load)
        except KeyError:
            raise StorageError.of("ruleset", "ruleset_not_stored",
                                  digest=str(digest)[:12]) from None
        except ValueError as e:
            raise StorageError.of("ruleset", "stored_ruleset_unreadable",
                                  detail=nested(e) if isinstance(e, FieldError) else str(e)
                                  ) from None

    def settings(self) -> dict[str, Any]:
        """What settles a hand saved now: ruleset id and digest, cap and stake. Stored with
        every version, which is settled under exactly these forever after."""
        meta = self.meta()
        return {"ruleset": meta["ruleset"], "ruleset_digest": meta["ruleset_digest"],
                "cap_fan": meta.get("cap_fan"), "stake": int(meta.get("stake", 1))}

    def rules_for(self, settings: Mapping[str, Any]) -> Ruleset:
        """The ruleset under stored settings (a saved version's, or :meth:`settings`)."""
        return self.ruleset_by_digest(settings["ruleset_digest"]).with_settings(
            cap_fan=settings.get("cap_fan"), stake=settings.get("stake"))

    def rules(self) -> Ruleset:
        """The tournament's ruleset under its current settings: what every new settlement and
        every preview uses."""
        return self.rules_for(self.settings())

    def seats(self) -> tuple[str, ...]:
        return tuple(self.base_rules().seats)

    def ruleset_id(self) -> str:
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
            raise FileReplacedError.of("db", "file_replaced", path=str(self.path))

    def revision(self) -> tuple[int, int]:
        """A cheap token that changes whenever the file changes — by this object or by another
        process (the CLI while the GUI is open). Poll it (e.g. once a second) and refresh
        views when it differs from the last value seen. Raises :class:`FileReplacedError`
        once the path names another file (a backup restored elsewhere): reopen it."""
        self.check_same_file()
        other = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        return other, self.db.conn.total_changes
