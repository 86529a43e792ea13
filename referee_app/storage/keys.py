"""``t.keys``: the tournament's signing key as a desk uses it — which key signs the record,
whether its private key is on this desk, exporting it for a standby or a new head desk,
and replacing it (a key lost with its desk).

The key material itself (folder, files, signatures) is :mod:`.signing`; the checks of a
record's signatures are :mod:`.trust`.
"""

from __future__ import annotations

from pathlib import Path

from . import db as dbm
from . import signing
from .checks import MAX_REASON, check_text
from .errors import StorageError
from .store import Store


class Keys:
    """The record's signing key on this desk (see the module doc)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    @property
    def fingerprint(self) -> str:
        """The record's key ("" for a file made before signing, until its next write)."""
        public = self.store.public_key()
        return public.fingerprint if public else ""

    def here(self) -> bool:
        """Whether this desk holds the record's private key (and can therefore write)."""
        fp = self.fingerprint
        return bool(fp) and signing.load(fp) is not None

    def export(self, path: str | Path, passphrase: str) -> Path:
        """Write the private key to ``path``, encrypted with ``passphrase`` (for
        ``referee-app key import`` on a standby or a new head desk)."""
        fp = self.fingerprint
        if not fp:
            raise StorageError.of("key", "record_unsigned_no_key")
        return signing.export_key(fp, Path(path), passphrase)

    def replace(self, *, referee: str = "", reason: str) -> str:
        """A new key pair for the record, its public key recorded in the chain (the head
        referee's decision, with a reason): for a record whose private key was lost with its
        desk, or may have been copied. Entries from here on are signed with the new key, so
        ``verify --key OLD`` names this entry; the record before it stays as signed. The
        old key is not needed. Returns the new fingerprint."""
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        by = self.store.authorize(referee, head=True, action="replacing the signing key")
        old = self.fingerprint
        key = signing.SigningKey.generate()
        signing.save(key)
        at = dbm.now()
        try:
            with self.store.write(signer=key):
                self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                (signing.META_KEY, key.public.meta_value()))
                self.store.note(by, "record.key", {"fingerprint": key.fingerprint,
                                                   "previous": old, "reason": reason}, at)
        except BaseException:
            signing.forget(key.fingerprint)
            raise
        self.store.saved()
        return key.fingerprint
