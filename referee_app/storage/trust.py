"""Why a record can be trusted beyond its own hashes: signed heads and published anchors.

Anyone with the file can recompute every hash of a changed record. Two things they cannot
recompute:

* **signatures** — every write's head is signed with the tournament's private key
  (:mod:`.signing`), which is not in the file. :class:`Signatures` checks them entry by
  entry as the chain is read: each entry is signed by the key the record holds once that
  entry is applied (the entry that records a key is signed by it). Entries written before
  the record had a key (files made before signing) are vouched for by the first signed
  entry, whose hash covers them. :func:`check_key` then asks for one given key;
* **anchors** — a digest written down or printed earlier (a posted standings sheet, a
  desk's last answer from the server). :func:`check_anchor` says whether the record
  passed through it, i.e. whether its entry at that point still has that hash (which
  covers everything up to it).
"""

from __future__ import annotations

import contextlib
import functools
import os
import re
import sqlite3
from collections.abc import Iterable
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from . import chain, signing
from .errors import StorageError

#: the keys that signed a record, each (fingerprint, first entry, last entry), and the number
#: of entries written before it had a key (:meth:`Signatures.summary`)
Signed = tuple[tuple[tuple[str, int, int], ...], int]


class Signatures:
    """The signature check of a chain read in order (:meth:`see` each entry, then
    :meth:`finish`).

    Every entry after the record got its key must carry a signature (of the right form)
    by the key it holds then. Which of them are checked with Ed25519: with ``every``, each
    one (about 0.1 ms each); without, the last one of each key's run of entries — the head
    for the current key. That proves as much about the record: each signature signs a
    head, whose hash covers every entry before it, so the last signature of a key vouches
    for every entry it signed (changing any of them changes that head). A signature in
    between signs an earlier head, which only a copy cut short after it would end on — and
    that copy's head is then checked.

    With ``every`` the checks run apart, in batches, while the reader goes on parsing and
    replaying: in a process of their own when there are ``many`` of them (at least
    :data:`PROCESS_FROM`) on more than one core, else on a thread. The Ed25519 library lets
    go of Python's lock while it checks, but a thread must take the lock back after each
    check, and a reader busy in Python gives it up only every few milliseconds: the thread
    hardly advanced until the reader waited, and an import of 9,000 entries paid ~0.25 s for
    checks a process does beside it. :meth:`finish`, or :meth:`first_bad` when the reader
    stops at a problem of its own, waits for them and names the first entry whose signature
    does not hold."""

    #: signatures checked per task
    BATCH = 512

    def __init__(self, *, every: bool = False, many: int = 0) -> None:
        self.every = every
        self.key: signing.PublicKey | None = None
        #: (fingerprint, first entry, last entry) of each key's run of signed entries
        self.keys: list[list[Any]] = []
        self.unsigned = 0
        self._last: tuple[int, str, str] | None = None  # the run's last (seq, hash, sig)
        self._batch: list[tuple[int, str, str]] = []
        #: each batch sent: its check (None: it could not be sent), and what to check here
        #: should that fail
        self._tasks: list[tuple[Future[int | None] | None, bytes,
                                list[tuple[int, str, str]]]] = []
        self._pool: Executor | None = None
        self._processes = every and many >= PROCESS_FROM and (os.cpu_count() or 1) > 1

    def see(self, e: chain.Entry, sig: str | None) -> None:
        """Check entry ``e``'s signature ``sig``; ChainError naming it otherwise."""
        key = self._key_after(e)
        if key is None:
            if sig is not None:
                raise chain.ChainError(e.seq, "chain_signed_without_key")
            self.unsigned += 1
            return
        if key is not self.key:
            self._check_last()  # the previous key's run ends here
            self._send()  # a batch holds one key's signatures
            self.key = key
        fp = key.fingerprint
        if sig is None:
            raise chain.ChainError(e.seq, "chain_unsigned", key=signing.short(fp))
        if not signing.well_formed(sig):
            raise chain.ChainError(e.seq, "chain_bad_signature", key=signing.short(fp))
        if self.every:
            self._batch.append((e.seq, e.hash, sig))
            if len(self._batch) >= self.BATCH:
                self._send()
        else:
            self._last = (e.seq, e.hash, sig)
        if self.keys and self.keys[-1][0] == fp:
            self.keys[-1][2] = e.seq
        else:
            self.keys.append([fp, e.seq, e.seq])

    def finish(self, *, wait: bool = True) -> None:
        """After the last entry: its signature (the head's) is checked, and with ``every``
        all of them (``wait=False``: the last ones sent to be checked, :meth:`first_bad`
        says what was found)."""
        self._check_last()
        self._send()
        bad = self.first_bad() if wait else None
        if bad is not None:
            raise bad

    def first_bad(self, before: int | None = None) -> chain.ChainError | None:
        """With ``every``: wait for the checks sent and give the error of the first entry
        whose signature does not hold (only before entry ``before``, where the reader met a
        problem of its own: the first problem is named), or None."""
        tasks, self._tasks = self._tasks, []
        try:
            seqs = [seq for seq in map(_result, tasks) if seq is not None]
        finally:
            if self._pool is not None:
                self._pool.shutdown(wait=False)
                self._pool = None
        seqs = [seq for seq in seqs if before is None or seq < before]
        if not seqs:
            return None
        return chain.ChainError(min(seqs), "chain_bad_signature",
                                key=signing.short(self.keys_at(min(seqs))))

    def keys_at(self, seq: int) -> str:
        """The fingerprint of the key that signed entry ``seq``."""
        return next(fp for fp, first, last in self.keys if first <= seq <= last)

    def _send(self) -> None:
        if not self._batch:
            return
        if self._pool is None:
            self._pool = _checker(self._processes)
        assert self.key is not None  # a batch holds the signatures of the key held
        batch, self._batch = self._batch, []
        task: Future[int | None] | None = None
        with contextlib.suppress(RuntimeError, OSError):  # a process that cannot start
            task = self._pool.submit(_first_unsigned, self.key.raw, batch)
        self._tasks.append((task, self.key.raw, batch))

    def _check_last(self) -> None:
        if self._last is None or self.key is None:
            return
        seq, digest, sig = self._last
        self._last = None
        if not signing.check_with(_verifier_of(self.key.raw), seq, digest, sig):
            raise chain.ChainError(seq, "chain_bad_signature",
                                   key=signing.short(self.key.fingerprint))

    def _key_after(self, e: chain.Entry) -> signing.PublicKey | None:
        """The record's key once ``e`` is applied (its rows may record a new one)."""
        key = self.key
        for table, op, row in e.rows:
            if table == "meta" and type(row) is dict and row.get("key") == signing.META_KEY:
                if op == "D":
                    key = None
                else:
                    try:
                        key = signing.PublicKey.from_meta(row.get("value"))
                    except (ValueError, TypeError):
                        raise chain.ChainError(e.seq, "chain_key_unreadable") from None
                    if self.key is not None and key == self.key:
                        key = self.key
        if key is None and self.key is not None:
            raise chain.ChainError(e.seq, "chain_key_removed")
        return key

    def summary(self) -> Signed:
        """(keys, unsigned) for the :class:`~.models.VerifyReport` (after :meth:`finish`)."""
        return tuple((fp, a, b) for fp, a, b in self.keys), self.unsigned


#: the entries to check from which they are checked in a process of their own (starting
#: it costs ~0.15 s of the other core's time)
PROCESS_FROM = 2000


def _checker(processes: bool) -> Executor:
    """Where batches of signatures are checked: a spawned process (it imports this module
    and the signing library, nothing of the caller's state) or a thread."""
    if processes:
        import multiprocessing

        try:
            return ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
        except (OSError, ImportError, NotImplementedError):
            pass
    return ThreadPoolExecutor(1, thread_name_prefix="referee-signatures")


def _result(task: tuple[Future[int | None] | None, bytes, list[tuple[int, str, str]]]
            ) -> int | None:
    """A batch's finding; checked here if its process failed (it could not start, or
    died)."""
    future, raw, batch = task
    if future is not None:
        with contextlib.suppress(Exception):
            return future.result()
    return _first_unsigned(raw, batch)


@functools.lru_cache(maxsize=8)
def _verifier_of(raw: bytes) -> Any:
    """A key's loaded verifier, once per key (a chain holds one or a few)."""
    return signing.PublicKey(raw).verifier()


def _first_unsigned(raw: bytes, batch: list[tuple[int, str, str]]) -> int | None:
    """The first entry of ``batch`` whose signature by the key ``raw`` does not sign its
    head, or None."""
    verifier = _verifier_of(raw)
    for seq, digest, sig in batch:
        if not signing.check_with(verifier, seq, digest, sig):
            return seq
    return None


def check_key(keys: Iterable[tuple[str, int, int]], wanted: str
              ) -> tuple[int, dict[str, Any]] | None:
    """Whether the record is signed by the key ``wanted`` (a fingerprint, at least its
    first 16 hex digits): None when it is, else (the first entry that is not, the message
    code's parameters) for :class:`~.errors.RecordIntegrityError`. Entries written before
    the record had a key are vouched for by the first signed one (its hash covers them)."""
    keys = list(keys)
    if not keys:
        return 1, {"code": "not_signed_at_all", "key": signing.short(wanted)}
    for fp, first, _ in keys:
        if not fp.startswith(wanted):
            return first, {"code": "signed_by_other", "seq": first, "key": signing.short(wanted),
                           "other": signing.short(fp)}
    return None


# --------------------------------------------------------------------------- anchors

#: ``DIGEST`` or ``ENTRIES:DIGEST`` (as a report footer prints them: "N entries · DIGEST")
_ANCHOR = re.compile(r"^\s*(?:(\d{1,12})\s*[:/@]\s*)?([0-9a-fA-F]{12,64})\s*$")


@dataclass(frozen=True, slots=True)
class Anchor:
    """A digest published earlier: its first hex digits (12 to 64) and, when known, the
    entry it was the hash of (the count printed beside it)."""

    digest: str
    seq: int | None = None

    @classmethod
    def parse(cls, text: str, field: str = "against") -> Anchor:
        m = _ANCHOR.match(str(text))
        if m is None:
            raise StorageError.of(field, "bad_anchor", got=str(text)[:80])
        return cls(m[2].lower(), int(m[1]) if m[1] else None)


def check_anchor(conn: sqlite3.Connection, anchor: Anchor
                 ) -> tuple[int | None, dict[str, Any]] | None:
    """Whether the file's chain passed through ``anchor`` (None) or where they part: (the
    entry named, the message's parameters). Call it on a chain that verified: an entry's
    hash then covers every entry before it, so one equal hash proves them all unchanged."""
    n, _ = chain.head(conn)
    if anchor.seq is not None:
        if anchor.seq > n:
            return n + 1, {"code": "anchor_beyond", "entries": n, "seq": anchor.seq,
                           "digest": anchor.digest[:12]}
        row = conn.execute("SELECT hash FROM chain WHERE seq=?", (anchor.seq,)).fetchone()
        if row is not None and str(row[0]).startswith(anchor.digest):
            return None
        return anchor.seq, {"code": "anchor_differs", "seq": anchor.seq,
                            "digest": anchor.digest[:12],
                            "found": str(row[0])[:12] if row else "-"}
    row = conn.execute("SELECT seq FROM chain WHERE substr(hash, 1, ?) = ? ORDER BY seq "
                       "LIMIT 1", (len(anchor.digest), anchor.digest)).fetchone()
    if row is not None:
        return None
    return None, {"code": "anchor_not_found", "digest": anchor.digest[:12], "entries": n}


def hash_at(conn: sqlite3.Connection, seq: int) -> str | None:
    """The stored hash of entry ``seq`` (None beyond the chain's end)."""
    row = conn.execute("SELECT hash FROM chain WHERE seq=?", (seq,)).fetchone()
    return str(row[0]) if row else None
