"""A perfect forger, for the tests of the signed record and its anchors.

:func:`forge` rebuilds a tournament file from scratch out of its own chain with one change
made, recomputing every hash, link and the head with full knowledge of the code (the
storage layer's own functions). What the forger cannot have is the tournament's private
key, so it either signs with a key of its own (``key="own"``: the record's key replaced in
its first entry), strips the signatures and the key (``"strip"``: the record looks made
before signing), or keeps the old signatures (``"keep"``)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee_app.storage import chain, signing
from referee_app.storage import db as dbm

Entries = list[dict[str, Any]]


def entries_of(path: Path) -> list[tuple[dict[str, Any], str | None]]:
    """Every chain entry of the file (parsed) with its stored signature."""
    conn = sqlite3.connect(path)
    try:
        cols = [r[1] for r in conn.execute("PRAGMA table_info(chain)")]
        sig = "sig" if "sig" in cols else "NULL"  # a file made before signed records
        return [(json.loads(text), s) for text, s in
                conn.execute(f"SELECT entry, {sig} FROM chain ORDER BY seq")]
    finally:
        conn.close()


def penalty_chips(entries: Entries, new: int) -> None:
    """The change of the issue: a penalty's chips rewritten (e.g. -5 to -50)."""
    for e in entries:
        for table, op, row in e["rows"]:
            if table == "penalties" and op == "I":
                row["chips"] = new
            if table == "penalty_entries" and op == "I":
                row["chips"] = new
                return


def forge(src: Path, dst: Path, change: Callable[[Entries], None], *, key: str = "own"
          ) -> signing.SigningKey | None:
    """Write ``dst``: ``src``'s record with ``change`` made, every hash recomputed."""
    pairs = entries_of(src)
    entries = [e for e, _ in pairs]
    change(entries)
    own = signing.SigningKey.generate() if key == "own" else None
    for e in entries:
        kept = []
        for table, op, row in e["rows"]:
            if table == "meta" and row.get("key") == signing.META_KEY:
                if key == "strip":
                    continue
                if own is not None:
                    row = {**row, "value": own.public.meta_value()}
            kept.append([table, op, row])
        e["rows"] = kept
    conn = sqlite3.connect(dst)
    try:
        conn.executescript(dbm.SCHEMA)
        conn.execute(f"PRAGMA user_version={dbm.SCHEMA_VERSION}")
        prev = chain.GENESIS
        texts = []
        for e, (_, sig) in zip(entries, pairs, strict=True):
            e["prev"] = prev
            text = chain.canonical({k: v for k, v in e.items() if k != "hash"})
            prev = chain.sha256(text)
            texts.append((text, prev, sig))
        parsed = list(chain.read_entries((t, h) for t, h, _ in texts))
        conn.execute("BEGIN")
        chain.replay(parsed, conn)
        for e, (text, h, sig) in zip(parsed, texts, strict=True):
            signature = (own.sign(e.seq, h) if own is not None
                         else None if key == "strip" else sig)
            conn.execute("INSERT INTO chain(seq, at, referee, action, entry, hash, sig) "
                         "VALUES (?,?,?,?,?,?,?)", (e.seq, e.at, e.referee, e.action, text, h,
                                                    signature))
        conn.execute("INSERT INTO chain_head(id, entries, hash) VALUES (1, ?, ?)",
                     (len(parsed), prev))
        src_conn = sqlite3.connect(src)
        for row in src_conn.execute("SELECT name, hash, set_at FROM pins"):
            conn.execute("INSERT INTO pins VALUES (?,?,?)", row)
        src_conn.close()
        conn.execute("COMMIT")
    finally:
        conn.close()
    return own
