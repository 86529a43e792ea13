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
import sqlite3

from referee_app.core import HandRecord, RecordError, settle

from . import chain
from . import db as dbm
from .base import TournamentBase
from .errors import RecordIntegrityError, StorageError
from .models import VerifyReport


def _blank_record() -> sqlite3.Connection:
    mem = sqlite3.connect(":memory:")
    mem.executescript(dbm.SCHEMA)
    return mem


class VerifyMixin(TournamentBase):
    """:meth:`verify` and the pieces a bundle import reuses."""

    def verify(self) -> VerifyReport:
        """Check everything (see the module doc); raise RecordIntegrityError naming the first
        entry that does not hold, or return the counts and the record's digest."""
        with dbm.read_transaction(self.db):
            res = str(self.db.execute("PRAGMA integrity_check").fetchone()[0])
            if res != "ok":
                raise RecordIntegrityError("db", f"the file is damaged ({res}); restore a "
                                           "backup (referee-app backup list)")
            n, written = self._verify_chain()
            versions = self._verify_settlements(written)
            entries, digest = chain.head(self.db.conn)
        return VerifyReport(entries, versions, digest)

    def _verify_chain(self) -> tuple[int, dict[tuple[str, str], int]]:
        conn = self.db.conn
        rows = conn.execute("SELECT seq, entry, hash, at, referee, action FROM chain "
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
            mem = _blank_record()
            try:
                written = chain.replay(entries, mem)
                chain.compare(conn, mem, written)
            finally:
                mem.close()
        except chain.ChainError as e:
            raise RecordIntegrityError("chain", str(e), e.seq) from None
        return len(entries), written

    def _verify_settlements(self, written: dict[tuple[str, str], int]) -> int:
        count = 0
        for hid, version, record, settlement, settings in self.db.execute(
                "SELECT hand_id, version, record, settlement, settings FROM hand_versions "
                "ORDER BY hand_id, version").fetchall():
            seq = written.get(("hand_versions", chain.canonical([hid, version])))
            where = f"hand {hid} version {version}"
            try:
                st = json.loads(settings)
                if st.get("unverifiable"):
                    count += 1
                    continue
                rules = self.rules_for(st)
                again = settle(HandRecord.from_dict(json.loads(record)), rules).to_dict()
            except (RecordError, StorageError, ValueError, KeyError, TypeError) as e:
                raise RecordIntegrityError("hand_versions", f"entry {seq}: {where} cannot be "
                                           f"settled again ({e})", seq) from None
            if again != json.loads(settlement):
                raise RecordIntegrityError("hand_versions", f"entry {seq}: {where}'s stored "
                                           "settlement differs from settling its record under "
                                           "its stored settings", seq)
            count += 1
        return count
