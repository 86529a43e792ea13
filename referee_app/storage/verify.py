"""``verify``: the whole record checked end to end.

1. ``PRAGMA integrity_check`` (the file itself);
2. the chain: every entry's hash, its link to the one before, the head;
3. every table rebuilt from the chain's rows and compared with the file, row by row;
4. every saved version settled again under the settings stored with it (the ruleset
   snapshot of that digest, its cap and stake) and compared with the stored settlement.
The first thing that does not hold is named (its chain entry where there is one).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from typing import Any

from referee_app.core import HandRecord, RecordError, settle

from . import chain
from . import db as dbm
from .base import TournamentBase, _dump
from .errors import RecordIntegrityError, StorageError
from .models import VerifyReport


class VerifyMixin(TournamentBase):
    """:meth:`verify` and the pieces a bundle import reuses."""

    def verify(self, *, parallel: bool | None = None) -> VerifyReport:
        """Check everything (see the module doc); raise RecordIntegrityError naming the first
        entry that does not hold, or return the counts and the record's digest.

        ``parallel`` (default: when it pays and is safe — fork available, one thread, many
        versions): settlements are re-settled in a forked child while this process checks
        the chain, the two halves of the work on two cores."""
        if parallel is None:
            parallel = (hasattr(os, "fork") and threading.active_count() == 1
                        and (os.cpu_count() or 1) > 1 and self._version_count() >= 2000)
        conn = self.db.conn
        conn.execute("ATTACH DATABASE ':memory:' AS rebuilt")
        try:
            for stmt in dbm.SCHEMA.split(";"):
                if stmt.strip():
                    conn.execute(stmt.replace("CREATE TABLE ", "CREATE TABLE rebuilt.", 1)
                                 .replace("CREATE INDEX ", "CREATE INDEX rebuilt.", 1))
            with dbm.read_transaction(self.db):
                res = str(conn.execute("PRAGMA main.integrity_check").fetchone()[0])
                if res != "ok":
                    raise RecordIntegrityError("db", f"the file is damaged ({res}); restore a "
                                               "backup (referee-app backup list)")
                rows, rules_of = self._settlement_inputs()
                job = _start_in_child(rows, rules_of) if parallel else None
                entries = self._verify_chain()
                found = job() if job is not None else check_settlements(rows, rules_of)
                if found is not None:
                    hid, version, problem = found
                    seq = chain.last_writer(entries, "hand_versions", (hid, version),
                                            ["hand_id", "version"])
                    raise RecordIntegrityError("hand_versions", f"entry {seq}: hand {hid} "
                                               f"version {version}: {problem}", seq)
                versions = len(rows)
                n, digest = chain.head(conn)
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            conn.execute("DETACH DATABASE rebuilt")
        return VerifyReport(n, versions, digest)

    def _verify_chain(self) -> list[chain.Entry]:
        conn = self.db.conn
        rows = conn.execute("SELECT seq, entry, hash, at, referee, action FROM main.chain "
                            "ORDER BY seq").fetchall()
        head_n, head_hash = chain.head(conn)
        try:
            entries = list(chain.read_entries((r[1], r[2]) for r in rows))
            for (seq, _, _, at, who, action), e in zip(rows, entries, strict=True):
                if seq != e.seq:
                    raise chain.ChainError(e.seq, f"is stored as entry {seq}")
                if (at, who, action) != (e.at, e.referee, e.action):
                    raise chain.ChainError(e.seq, "its listed time, referee or action differs "
                                           "from the entry (the chain table was edited)")
            last = entries[-1].hash if entries else chain.GENESIS
            if head_n != len(entries) or head_hash != last:
                raise chain.ChainError(head_n if head_n > len(entries) else len(entries),
                                       f"the record ends at entry {head_n} but the chain holds "
                                       f"{len(entries)} (an entry was removed or added)")
            chain.replay(entries, conn, "rebuilt")
            chain.compare(conn, "rebuilt", entries)
        except chain.ChainError as e:
            raise RecordIntegrityError("chain", str(e), e.seq) from None
        return entries

    def _version_count(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM hand_versions").fetchone()[0])

    def _settlement_inputs(self) -> tuple[list[tuple[Any, ...]], dict[str, Any]]:
        """Every version's (hand, version, record, settlement, settings) and the Ruleset of
        each distinct settings text (None: marked unverifiable by a migration)."""
        rows = self.db.execute("SELECT hand_id, version, record, settlement, settings FROM "
                               "hand_versions ORDER BY hand_id, version").fetchall()
        rules_of: dict[str, Any] = {}
        for text in {r[4] for r in rows}:
            try:
                st = json.loads(text)
                rules_of[text] = None if st.get("unverifiable") else self.rules_for(st)
            except (ValueError, KeyError, TypeError, AttributeError, StorageError) as e:
                rules_of[text] = e
        return rows, rules_of


def check_settlements(rows: list[tuple[Any, ...]], rules_of: dict[str, Any]
                      ) -> tuple[int, int, str] | None:
    """Settle every version again under its stored settings; the first (hand, version,
    problem) that does not reproduce its stored settlement, or None."""
    checked: set[tuple[str, str, str]] = set()  # a status change copies its version
    for hid, version, record, settlement, settings in rows:
        if (record, settlement, settings) in checked:
            continue
        checked.add((record, settlement, settings))
        rules = rules_of.get(settings)
        if rules is None:
            continue
        if isinstance(rules, Exception):
            return hid, version, f"its stored settings cannot be read ({rules})"
        try:
            again = settle(HandRecord.from_dict(json.loads(record), rules), rules).to_dict()
        except (RecordError, ValueError, KeyError, TypeError) as e:
            return hid, version, f"cannot be settled again ({e})"
        # stored as _dump(settlement): the same text unless something changed it
        if _dump(again) != settlement and again != json.loads(settlement):
            return hid, version, ("its stored settlement differs from settling its record "
                                  "under its stored settings")
    return None


def _start_in_child(rows: list[tuple[Any, ...]], rules_of: dict[str, Any]
                    ) -> Callable[[], tuple[int, int, str] | None]:
    """Run :func:`check_settlements` in a forked child (it inherits the data, nothing is
    pickled but the answer); returns a function that waits for the answer."""
    import multiprocessing  # only when verifying (not on every open)

    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def work() -> None:
        try:
            send.send(("ok", check_settlements(rows, rules_of)))
        except BaseException as e:  # noqa: BLE001 - reported to the parent, never lost
            send.send(("error", repr(e)))
        finally:
            send.close()

    proc = ctx.Process(target=work, daemon=True)
    proc.start()
    send.close()

    def wait() -> tuple[int, int, str] | None:
        try:
            kind, value = recv.recv()
        except EOFError:
            kind, value = "error", "the checking process ended without an answer"
        finally:
            proc.join()
            recv.close()
        if kind == "error":  # fall back to checking here: a verdict is never skipped
            return check_settlements(rows, rules_of)
        return value

    return wait
