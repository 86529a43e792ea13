"""``verify``: the whole record checked end to end.

1. ``PRAGMA integrity_check`` (the file itself);
2. the chain: every entry's hash, its link to the one before, the head, and its signature
   by the tournament's key (:mod:`.trust`: every one there; the last of each key checked
   with Ed25519, which vouches for all before it, or each one with ``every_signature``);
3. every table rebuilt from the chain's rows and compared with the file, row by row;
4. every saved version settled again under the settings stored with it (the ruleset
   snapshot of that digest, its cap and stake) and compared with the stored settlement.
The first thing that does not hold is named (its chain entry where there is one). Then,
when asked: that a given key signed it (``key``), and that it passed through a digest
published earlier (``against``).
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

from referee_app.core import recheck
from referee_app.core.errors import render

from . import chain, signing, trust
from . import db as dbm
from .errors import RecordIntegrityError, StorageError
from .models import VerifyReport
from .store import Store


class _NotSo(Exception):
    """The streamed chain check met something that does not hold (named by the exact one)."""


#: the detail keys of a chain entry that hold player ids, by action, and the key their
#: names are shown under (:meth:`Record.log` with ``names``)
PLAYER_IDS: dict[str, dict[str, str]] = {
    "penalty.add": {"players": "players"},
    "players.status": {"player_id": "player"},
    "players.update": {"player_id": "player"},
    "round.set_seat": {"player_id": "player", "replaced": "replaced"},
}


def named(action: str, detail: dict[str, Any], names: dict[int, str]) -> dict[str, Any]:
    """An entry's detail with the player ids it holds replaced by the players' names (an id
    no longer known stays ``#id``)."""
    keys = PLAYER_IDS.get(action)
    if not keys:
        return detail

    def name(v: Any) -> Any:
        return names.get(v, f"#{v}") if isinstance(v, int) and not isinstance(v, bool) else v

    out: dict[str, Any] = {}
    for k, v in detail.items():
        if k in keys:
            out[keys[k]] = [name(x) for x in v] if isinstance(v, list) else name(v)
        else:
            out[k] = v
    return out


class Record:
    """``t.record``: the tamper-evident record — who did what (:meth:`log`), its digest,
    and the check of all of it (:meth:`verify`)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    def log(self, limit: int | None = None, *, hand: int | None = None,
            referee: str | None = None, names: bool = False) -> list[dict[str, Any]]:
        """Who did what and when, read from the chain (oldest first); ``hand`` keeps the
        entries that wrote that hand, ``referee`` those of one referee. ``names``: the
        players a detail names by id (a penalty's ``players``) named by their names, as
        people read them; without it the detail is as stored (``log --json``, the API)."""
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
        if names:
            known = {pid: n for pid, n in self.db.execute("SELECT id, name FROM players")}
            rows = [{**r, "detail": named(r["action"], r["detail"], known)} for r in rows]
        return rows[-limit:] if limit else rows

    def digest(self) -> tuple[int, str]:
        """(entries, short digest): the chain's length and the first 12 hex digits of its
        last hash. Printed on every report and in the desk's status bar, so a posted sheet can
        be matched to the database it came from."""
        n, h = chain.head(self.db.conn)
        return n, h[:12]

    def head(self) -> tuple[int, str]:
        """(entries, digest): the chain's length and its last hash in full (64 hex digits),
        the anchor ``verify --against`` takes and a witness desk keeps."""
        return chain.head(self.db.conn)

    def hash_at(self, seq: int) -> str | None:
        """The hash of entry ``seq`` (None beyond the end): whether this record still passes
        through a digest published at that entry (a witness desk asks it)."""
        return trust.hash_at(self.db.conn, seq)

    def integrity(self) -> str:
        """SQLite's ``integrity_check`` of the file ("ok" when sound)."""
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])

    def verify(self, *, parallel: bool | None = None, key: str | None = None,
               against: str | trust.Anchor | None = None,
               every_signature: bool = False, replayed: trust.Signed | None = None,
               meanwhile: Callable[[], object] | None = None) -> VerifyReport:
        """Check everything (see the module doc); raise RecordIntegrityError naming the first
        entry that does not hold, or return the counts, the record's digest and the keys
        that signed it.

        ``key``: the record must also be signed by this key (its fingerprint, at least 16 hex
        digits), else the error names the first entry that is not. ``against``: a digest
        published earlier (``DIGEST`` or ``ENTRIES:DIGEST``): the record must have passed
        through it unchanged, else the error says where they part.

        Signatures: each entry's must be there, of the right form, by the key the record
        holds then; the last of each key's run is checked with Ed25519 (which vouches for
        every entry before it, see :class:`.trust.Signatures`); ``every_signature``: each
        one is.

        ``parallel`` (default: when it pays — two cores, many versions): a worker process
        settles versions again while this process checks the chain, then both take the
        versions left in chunks, the work on two cores. ``replayed``: the file was just
        built by replaying its chain, every hash, link and signature checked on the way in
        (bundle import; what those signatures were, :meth:`.trust.Signatures.summary`): its
        tables are the replayed chain by construction, so step 3 is not done twice (a third
        of an import's time at 8,000 hands). ``meanwhile``: work of the caller's done here
        once the worker has started and the chain is checked, before this process settles
        its share (an import compares the bundle's readable sections while the worker
        settles); it reads the file as verify does, in the same read transaction."""
        wanted = signing.normalise_fingerprint(key) if key is not None else None
        anchor = (against if isinstance(against, trust.Anchor) or against is None
                  else trust.Anchor.parse(against))
        report = self._verify(parallel, every_signature, replayed, meanwhile)
        if wanted is not None:
            found = trust.check_key(report.keys, wanted)
            if found is not None:
                self._untrusted("key", *found)
        if anchor is not None:
            parted = trust.check_anchor(self.db.conn, anchor)
            if parted is not None:
                self._untrusted("against", *parted)
        return report

    @staticmethod
    def _untrusted(field: str, seq: int | None, params: dict[str, Any]) -> None:
        p = dict(params)
        code = p.pop("code")
        raise RecordIntegrityError(field, render(code, p, "en"), seq, code=code, params=p)

    def _verify(self, parallel: bool | None, every: bool, replayed: trust.Signed | None,
                meanwhile: Callable[[], object] | None = None) -> VerifyReport:
        if parallel is None:
            parallel = (os.cpu_count() or 1) > 1 and self._version_count() >= 2000
        conn = self.db.conn
        # the rebuilt copy is compared with the file, which enforces its foreign keys, so
        # checking them again while replaying into the copy would prove nothing new
        fk = int(conn.execute("PRAGMA foreign_keys").fetchone()[0])
        if not conn.in_transaction:
            conn.execute("PRAGMA foreign_keys=OFF")
        conn.execute("ATTACH DATABASE ':memory:' AS rebuilt")
        pool: _Pool | None = None
        try:
            for stmt in dbm.SCHEMA.split(";"):
                if stmt.strip().startswith("CREATE TABLE"):  # the lookup indexes: not needed
                    conn.execute(stmt.replace("CREATE TABLE ", "CREATE TABLE rebuilt.", 1))
            with dbm.read_transaction(self.db):
                rows, rules_of = self._settlement_inputs()
                if parallel:
                    pool = _Pool.start(rows, rules_of)
                res = str(conn.execute("PRAGMA main.integrity_check").fetchone()[0])
                if res != "ok":
                    p = {"detail": res}
                    raise RecordIntegrityError("db", render("file_damaged", p, "en"),
                                               code="file_damaged", params=p)
                entries, signed = ((self._read_all_entries, replayed) if replayed is not None
                                   else self._verify_chain(every))
                if meanwhile is not None:
                    meanwhile()
                found = (pool.check() if pool is not None
                         else recheck.check_range(rows, rules_of, 0, len(rows), set()))
                if found is not None:
                    _, hid, version, problem = found
                    seq = chain.last_writer(entries(), "hand_versions", (hid, version),
                                            ["hand_id", "version"])
                    p = {"seq": seq, "hand_id": hid, "version": version, "detail": problem}
                    raise RecordIntegrityError("hand_versions",
                                               render("version_not_reproduced", p, "en"), seq,
                                               code="version_not_reproduced", params=p)
                versions = len(rows)
                n, digest = chain.head(conn)
        finally:
            if pool is not None:
                pool.close()
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.execute("DETACH DATABASE rebuilt")
            conn.execute(f"PRAGMA foreign_keys={'ON' if fk else 'OFF'}")
        keys, unsigned = signed
        return VerifyReport(n, versions, digest, keys, unsigned)

    def _verify_chain(self, every: bool
                      ) -> tuple[Callable[[], list[chain.Entry]], trust.Signed]:
        """Check the chain (hashes, links, signatures) and the tables against it; returns a
        function giving the entries (read again only if a settlement problem must be traced
        to its entry) and the keys that signed it (:meth:`.trust.Signatures.summary`).

        The usual case streams: one entry read, checked and replayed at a time, so the
        10,000s of parsed entries are never all held (their memory is reused instead of
        faulted in page by page). Anything that does not hold sends it to
        :meth:`_verify_chain_exactly`, which reads everything first and names the same
        entry the checks always named (a bad hash further on before a bad row here)."""
        conn = self.db.conn
        try:
            signed = self._verify_chain_streamed(conn, every)
        except (chain.ChainError, _NotSo, sqlite3.Error, ValueError):
            for table in chain.RECORD_TABLES:
                conn.execute(f"DELETE FROM rebuilt.{table}")
            entries, signed = self._verify_chain_exactly(every)
            return (lambda: entries), signed
        return self._read_all_entries, signed

    def _read_all_entries(self) -> list[chain.Entry]:
        rows = dbm.fetch_all(self.db.conn, "SELECT CAST(entry AS BLOB), hash FROM main.chain "
                          "ORDER BY seq")
        return list(chain.read_entries(((r[0], r[1]) for r in rows),
                                       chain.stored_redaction_map(self.db.conn)))

    def _verify_chain_streamed(self, conn: sqlite3.Connection, every: bool) -> trust.Signed:
        head_n, head_hash = chain.head(conn)
        redacted = chain.stored_redaction_map(conn)
        signatures = trust.Signatures(every=every, many=head_n)
        factory = conn.text_factory
        conn.text_factory = str  # SQLite decodes; a damaged text raises, and is retried
        try:
            cur = conn.execute("SELECT seq, CAST(entry AS BLOB), hash, at, referee, action, "
                               "sig FROM main.chain ORDER BY seq")
            current: list[tuple[Any, ...]] = []
            count, last = 0, chain.GENESIS

            def texts() -> Iterator[tuple[bytes, str]]:
                for row in cur:
                    current[:] = [row]
                    yield row[1], row[2]

            def checked() -> Iterator[chain.Entry]:
                nonlocal count, last
                for e in chain.read_entries(texts(), redacted):
                    seq, _, _, at, who, action, sig = current[0]
                    if seq != e.seq or (at, who, action) != (e.at, e.referee, e.action):
                        raise _NotSo
                    signatures.see(e, sig)
                    count, last = count + 1, e.hash
                    yield e

            try:
                chain.replay(checked(), conn, "rebuilt", pooled=True)
            except BaseException:
                signatures.first_bad()  # its checks are not waited for: read again exactly
                raise
            finally:
                cur.close()  # stopped early, it would keep DETACH from running
        finally:
            conn.text_factory = factory
        if (head_n, head_hash) != (count, last):
            raise _NotSo
        signatures.finish()
        chain.compare(conn, "rebuilt", [])
        return signatures.summary()

    def _verify_chain_exactly(self, every: bool) -> tuple[list[chain.Entry], trust.Signed]:
        conn = self.db.conn
        # the entry as the bytes stored: hashed as they are, decoded once by the JSON parser
        rows = dbm.fetch_all(conn, "SELECT seq, CAST(entry AS BLOB), hash, at, referee, "
                             "action, sig FROM main.chain ORDER BY seq")
        head_n, head_hash = chain.head(conn)
        signatures = trust.Signatures(every=every, many=len(rows))
        try:
            try:
                redacted = chain.stored_redaction_map(conn)
            except (ValueError, AttributeError):
                redacted = {}  # an upgrade entry that is not JSON: its hash check names it
            entries = list(chain.read_entries(((r[1], r[2]) for r in rows), redacted))
            for (seq, _, _, at, who, action, sig), e in zip(rows, entries, strict=True):
                if seq != e.seq:
                    raise chain.ChainError(e.seq, "chain_stored_as", seq=seq)
                if (at, who, action) != (e.at, e.referee, e.action):
                    raise chain.ChainError(e.seq, "chain_listing_differs")
                signatures.see(e, sig)
            signatures.finish()
            last = entries[-1].hash if entries else chain.GENESIS
            if head_n != len(entries) or head_hash != last:
                raise chain.ChainError(head_n if head_n > len(entries) else len(entries),
                                       "chain_length", head=head_n, count=len(entries))
            chain.replay(entries, conn, "rebuilt")
            chain.compare(conn, "rebuilt", entries)
        except chain.ChainError as e:
            e = signatures.first_bad(before=e.seq) or e  # a signature before it: named first
            if e.seq is not None and 0 < e.seq <= len(rows) and isinstance(rows[e.seq - 1][1],
                                                                             bytes):
                # bytes that are not UTF-8: the file is damaged, said as reading it says so
                conn.text_factory(rows[e.seq - 1][1])
            p = {"seq": e.seq, "why": {"code": e.code, "params": e.params}}
            raise RecordIntegrityError("chain", str(e), e.seq,
                                       code="chain_entry" if e.seq is not None else "chain_record",
                                       params=p) from None
        return entries, signatures.summary()

    def _version_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM hand_versions").fetchone()[0])

    def _settlement_inputs(self) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
        """Every version's (hand, version, record, settlement, settings) and the Ruleset of
        each distinct settings text (None: marked unverifiable by a migration)."""
        rows = dbm.fetch_all(self.db.conn, "SELECT hand_id, version, record, settlement, "
                          "settings FROM hand_versions ORDER BY hand_id, version")
        rules_of: dict[str, Any] = {}
        for text in {r[4] for r in rows}:
            try:
                st = json.loads(text)
                rules_of[text] = None if st.get("unverifiable") else self.store.rules_for(st)
            except (ValueError, KeyError, TypeError, AttributeError, StorageError) as e:
                rules_of[text] = e
        return rows, rules_of


#: versions settled per task: small enough that the two processes finish together (at the
#: end this process waits for the chunk the worker is in: 90-190 ms with 250, 20-60 ms with
#: 100, at 8,000 versions; each task costs the pool well under a millisecond)
CHUNK = 100


def check_settlements(rows: list[tuple[Any, ...]], rules_of: dict[str, Any]
                      ) -> tuple[int, int, str] | None:
    """Settle every version again under its stored settings; the first (hand, version,
    problem) that does not reproduce its stored settlement, or None."""
    found = recheck.check_range(rows, rules_of, 0, len(rows), set())
    return None if found is None else found[1:]


class _Pool:
    """Chunks of versions settled again in a worker process (a fresh interpreter: nothing of
    this process, its open database least of all, is copied into it; the chunks and the
    rulesets are sent pickled). The worker takes the chunks from the end, this process from
    the start once the chain is checked (a chunk the worker has not begun is cancelled and
    done here), so the chunks are met in order and the first problem is the first.

    As with any spawned process, the worker imports the program's main module: a script
    that calls verify on a big record keeps its own work under ``if __name__ ==
    "__main__":`` (the console scripts do)."""

    def __init__(self, rows: list[tuple[Any, ...]], rules_of: dict[str, Any]) -> None:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        self._rows, self._rules = rows, rules_of
        # an unreadable settings text as a plain exception: its message is all that is used
        portable = {k: RuntimeError(str(v)) if isinstance(v, Exception) else v
                    for k, v in rules_of.items()}
        self._pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"),
                                         initializer=recheck.worker_start, initargs=(portable,))
        self._futures = {lo: self._pool.submit(recheck.worker_check, lo, rows[lo:lo + CHUNK])
                         for lo in reversed(range(0, len(rows), CHUNK))}

    @classmethod
    def start(cls, rows: list[tuple[Any, ...]], rules_of: dict[str, Any]) -> _Pool | None:
        """The pool, or None where no process can be started (then all is checked here)."""
        try:
            return cls(rows, rules_of)
        except (OSError, ImportError, NotImplementedError):
            return None

    def check(self) -> recheck.Found | None:
        """The first problem over all the chunks, each settled here or by the worker."""
        checked: set[tuple[str, str, str]] = set()
        total = len(self._rows)
        for lo in range(0, total, CHUNK):
            future = self._futures[lo]
            if future.cancel():
                found = recheck.check_range(self._rows, self._rules, lo, min(lo + CHUNK, total),
                                     checked)
            else:
                try:
                    found = future.result()
                except Exception:
                    found = recheck.check_range(self._rows, self._rules, lo,
                                         min(lo + CHUNK, total), checked)
            if found is not None:
                return found
        return None

    def close(self) -> None:
        """Stop the worker (after the check, or when the chain check failed first). Its
        exit is not waited for: a worker that settled 8,000 versions took 0.2 s to end,
        while this process has its answer already (the executor joins it in the end)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
