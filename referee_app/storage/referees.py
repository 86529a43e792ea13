"""Referees and their PINs: who may change the record.

PINs are kept only as salted ``hashlib.scrypt`` hashes, in the ``pins`` table *outside* the
record: the chain says "referee added" and "PIN changed", never anything derived from a PIN,
and no bundle or answer carries them. A new PIN has at least :data:`PIN_MIN` characters;
one set before that rule (4 or 5) keeps working until it is changed. A tournament imported
from a bundle has no PINs but the head referee's, given at the import: every other referee
sets their own (``referee pin NAME``, on the head desk) before their first change.

Over the network, five wrong PINs for one name from one address lock that name for that
address for five minutes; the lock is written to the chain (who tried, from where, when).
The head desk's own use of the file is never locked (:meth:`Referees.sign_in`).
A tournament without referees (the demo, older files) works on names alone until its
first referee is added; that first referee must be a head referee.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import time

from . import db as dbm
from .checks import check_text
from .errors import AuthError, StorageError
from .models import Referee
from .store import Store

SCRYPT_N, SCRYPT_R, SCRYPT_P = 2 ** 14, 8, 1
MAX_FAILURES = 5
LOCK_SECONDS = 300
PIN_MIN, PIN_MAX = 6, 64
#: PINs set before new ones needed 6 characters had at least this many (they still work)
OLD_PIN_MIN = 4


def hash_pin(pin: str, *, salt: bytes | None = None) -> str:
    salt = os.urandom(16) if salt is None else salt
    h = hashlib.scrypt(pin.encode("utf-8"), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P,
                       dklen=32)
    return f"scrypt${SCRYPT_N}${SCRYPT_R}${SCRYPT_P}${salt.hex()}${h.hex()}"


def check_pin(pin: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, want = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(pin.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r),
                             p=int(p), dklen=len(want) // 2)
    except (ValueError, TypeError, MemoryError):
        return False
    return hmac.compare_digest(got.hex(), want)


def store_pin(db: dbm.Database, name: str, pin: str, at: str) -> None:
    """Keep ``name``'s new PIN (its hash) on this desk, outside the record; inside the
    caller's transaction."""
    db.execute("INSERT OR REPLACE INTO pins(name, hash, set_at) VALUES (?,?,?)",
               (name, hash_pin(check_new_pin(pin)), at))


def check_new_pin(pin: object) -> str:
    """``pin`` if it may be a new PIN (:data:`PIN_MIN` to :data:`PIN_MAX` characters, no
    space or control character), else StorageError naming the rule: a form checks it
    before the work that needs it (an import asks the head referee's PIN at its end)."""
    if not isinstance(pin, str):
        raise StorageError.of("pin", "pin_not_text")
    if not PIN_MIN <= len(pin) <= PIN_MAX:
        raise StorageError.of("pin", "pin_length", min=PIN_MIN, max=PIN_MAX)
    if any(c.isspace() or ord(c) < 32 for c in pin):
        raise StorageError.of("pin", "pin_characters")
    return pin


class Referees:
    """``t.referees``: adding referees, changing PINs, signing in on this connection."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    @property
    def signed_in(self) -> Referee | None:
        """The referee whose PIN was checked on this connection (:meth:`sign_in`)."""
        return self.store.signed_in

    @signed_in.setter
    def signed_in(self, who: Referee | None) -> None:
        self.store.signed_in = who

    def required(self) -> bool:
        """Whether changes need a referee's PIN (once the first referee is added)."""
        return self.store.has_referees()

    def list(self) -> list[Referee]:
        return [Referee(n, bool(h), at) for n, h, at in self.db.execute(
            "SELECT name, head, added_at FROM referees ORDER BY added_at, name")]

    def insert(self, name: str, *, head: bool, pin: str, at: str) -> None:
        """Inside a save: register a referee (the head referee at creation, :meth:`add`)."""
        name = check_text(name, "name", required=True)
        if any(ord(c) < 32 for c in name):
            raise StorageError.of("name", "referee_name_characters")
        pin = check_new_pin(pin)
        if self.db.execute("SELECT 1 FROM referees WHERE name=?", (name,)).fetchone():
            raise StorageError.of("name", "duplicate_referee", name=name)
        self.db.execute("INSERT INTO referees(name, head, added_at) VALUES (?,?,?)",
                        (name, int(head), at))
        store_pin(self.db, name, pin, at)

    def has_pin(self, name: str) -> bool:
        """Whether ``name`` has a PIN on this desk (after an import only the head has)."""
        return self.db.execute("SELECT 1 FROM pins WHERE name=?", (name,)).fetchone() \
            is not None

    def without_pin(self) -> list[str]:
        """The referees who have no PIN on this desk yet (they set it before their first
        change: ``referee pin NAME``)."""
        return [n for (n,) in self.db.execute(
            "SELECT name FROM referees WHERE name NOT IN (SELECT name FROM pins) "
            "ORDER BY added_at, name")]

    def add(self, name: str, *, pin: str, head: bool = False,
                    referee: str = "") -> Referee:
        """Register a referee with their PIN (head referee's change). The first referee of a
        tournament that has none must be a head referee; from then on every change needs a
        referee's PIN."""
        first = not self.store.has_referees()
        if first and not head:
            raise StorageError.of("head", "first_referee_head")
        by = check_text(referee, "referee") if first else self.store.authorize(
            referee, head=True, action="adding a referee")
        at = dbm.now()
        with self.store.write():
            self.insert(name, head=head, pin=pin, at=at)
            self.store.note(by or name.strip(), "referee.add", {"name": name.strip(), "head": head}, at)
        self.store.saved()
        return next(r for r in self.list() if r.name == name.strip())

    def change_pin(self, name: str, new_pin: str, *, referee: str = "") -> None:
        """A referee changes their own PIN (signed in as themselves), or the head referee
        sets anyone's. A referee who has no PIN on this desk yet (a tournament imported
        from a bundle) sets their first one without signing in: on the head desk's own
        file only (the server offers no way to). The chain says "PIN changed" (or "set"),
        nothing more."""
        name = check_text(name, "name", required=True)
        if not self.db.execute("SELECT 1 FROM referees WHERE name=?", (name,)).fetchone():
            raise StorageError.of("name", "no_referee", name=name)
        who = self.store.signed_in
        first = not self.has_pin(name) and who is None
        if first:
            by = name
            if check_text(referee, "referee") not in ("", name):
                raise AuthError.of("referee", "signed_in_as_other", name=name, referee=referee)
        else:
            head = who is None or who.name != name
            by = self.store.authorize(referee, head=head,
                                      action="changing another referee's PIN")
        new_pin = check_new_pin(new_pin)
        at = dbm.now()
        with self.store.write():
            store_pin(self.db, name, new_pin, at)
            self.store.note(by, "referee.pin", {"name": name, **({"first": True} if first
                                                                  else {})}, at)
        self.store.saved()

    def _failures(self, name: str, client: str) -> list[float]:
        since = time.time() - LOCK_SECONDS
        return [r[0] for r in self.db.execute(
            "SELECT at FROM auth_failures WHERE name=? AND client=? AND at>? ORDER BY at",
            (name, client, since))]

    def sign_in(self, name: str, pin: str, *, client: str | None = None) -> Referee:
        """Check a referee's PIN; every change on this connection is then theirs.

        ``client``: the address a sign-in over the network came from (the server's). Wrong
        PINs are counted per name *and* address over a window of five minutes: five lock
        that name for that address only, until the oldest of them is five minutes old (the
        lock is written to the chain, with the address); a correct PIN does not erase
        them, so it cannot buy more guesses. Names no referee has are counted the same way
        but leave nothing in the chain. ``None``: the head desk's own use of the file (the
        CLI, the desk window): never locked and never counted — whoever holds the file
        needs no PIN to read it, and a stranger's lock-out must not reach them."""
        name = check_text(name, "referee", required=True)
        fails: list[float] = []
        if client is not None:
            client = str(client)[:100]
            fails = self._failures(name, client)
            if len(fails) >= MAX_FAILURES:
                wait = int(fails[-MAX_FAILURES] + LOCK_SECONDS - time.time()) + 1
                raise AuthError.of("referee", "referee_locked", name=name,
                                   failures=MAX_FAILURES, wait=max(wait, 1))
        r = self.db.execute("SELECT r.name, r.head, p.hash, r.added_at FROM referees r "
                            "LEFT JOIN pins p ON p.name = r.name WHERE r.name=?",
                            (name,)).fetchone()
        if r is not None and r[2] is None:
            raise AuthError.of("referee", "no_pin_yet", name=name)
        if r is not None and check_pin(str(pin), r[2]):
            self.store.signed_in = Referee(r[0], bool(r[1]), r[3])
            return self.store.signed_in
        if client is None:
            if r is None:
                raise AuthError.of("referee", "unknown_referee", name=name)
            raise AuthError.of("referee", "wrong_pin_here", name=name)
        now = time.time()
        with dbm.write_transaction(self.db, self.store.path, self.store.read_only):
            self.db.execute("DELETE FROM auth_failures WHERE at<?", (now - LOCK_SECONDS,))
            self.db.execute("INSERT INTO auth_failures(name, at, client) VALUES (?,?,?)",
                            (name, now, client))
        left = MAX_FAILURES - len(fails) - 1
        if left <= 0:
            if r is not None:  # an invented name writes nothing to the record
                at = dbm.now()
                with self.store.write():
                    self.store.note(name, "referee.locked", {
                        "name": name, "failures": MAX_FAILURES, "seconds": LOCK_SECONDS,
                        "client": client}, at)
            raise AuthError.of("referee", "wrong_pin_locked", name=name,
                               minutes=LOCK_SECONDS // 60, failures=MAX_FAILURES)
        if r is None:
            raise AuthError.of("referee", "unknown_referee", name=name)
        raise AuthError.of("referee", "wrong_pin", name=name, left=left,
                           minutes=LOCK_SECONDS // 60)

    def sign_out(self) -> None:
        self.store.signed_in = None

    def remove(self, name: str, *, referee: str = "") -> None:
        """Take NAME off the referees (head referee's change, recorded): they can no longer
        sign in or write, and a server ends their sessions. Their history stays: every
        version and chain entry they made still names them. The last head referee cannot
        be removed (nobody could then add referees or override)."""
        name = check_text(name, "name", required=True)
        row = self.db.execute("SELECT head FROM referees WHERE name=?", (name,)).fetchone()
        if row is None:
            raise StorageError.of("name", "no_referee", name=name)
        by = self.store.authorize(referee, head=True, action="removing a referee")
        at = dbm.now()
        with self.store.write():
            heads = self.db.execute("SELECT COUNT(*) FROM referees WHERE head=1 AND name<>?",
                                    (name,)).fetchone()[0]
            if row[0] and not heads:
                raise StorageError.of("name", "last_head_referee", name=name)
            self.db.execute("DELETE FROM referees WHERE name=?", (name,))
            self.db.execute("DELETE FROM pins WHERE name=?", (name,))  # outside the record
            self.store.note(by, "referee.remove", {"name": name}, at)
        if self.store.signed_in is not None and self.store.signed_in.name == name:
            self.store.signed_in = None
        self.store.saved()

    def changed_since(self, seq: int) -> tuple[int, list[tuple[int, str]]]:
        """The record's newest entry, and (entry, name) of every PIN change and removal
        after entry ``seq``: a server ends the sessions that referee signed in before."""
        with dbm.read_transaction(self.db):
            newest = int(self.db.execute("SELECT COALESCE(MAX(seq), 0) FROM chain")
                         .fetchone()[0])
            found = [(int(n), str(who)) for n, who in self.db.execute(
                "SELECT seq, json_extract(entry, '$.detail.name') FROM chain WHERE seq>? "
                "AND seq<=? AND action IN ('referee.pin', 'referee.remove') ORDER BY seq",
                (seq, newest)) if who is not None]
        return newest, found
