"""A desk as a witness of the server's record (Certificate Transparency's consistency check,
in small).

A desk keeps the digests the server gave it — a few *checkpoints*, each an entry number and
that entry's hash — in ``witness.state`` in its outbox folder, so a restarted desk still has
them. At every reconnect (and when the record moves) it asks the server for its hashes at
those entry numbers (``GET /api/chain?seq=…``). Each hash covers every entry before it, so:

* all equal: the server's record extends what this desk saw; its new head becomes the
  newest checkpoint;
* one differs (or is missing): the record on the server was rewritten after the last
  checkpoint that still matches (entry N). The desk stops sending until a head referee
  accepts the record as it now is (a backup restored on purpose): hands saved meanwhile
  wait in the outbox, and the desk shows "the record on the server was rewritten after
  entry N".

The results pages do the same in the phone's ``localStorage`` (``static/live.js``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: checkpoints kept: the newest ones, and older ones ever more thinly (each is one hash)
KEEP = 32
#: the most entry numbers one ``/api/chain`` request asks about
MAX_ASKED = 64

#: (entries, head digest, {entry: its hash, or None beyond the record's end})
Hashes = tuple[int, str, dict[int, str | None]]


def thin(seen: list[tuple[int, str]], keep: int = KEEP) -> list[tuple[int, str]]:
    """At most ``keep`` checkpoints: the newest half as they are, every other one of the
    older (repeatedly), so they reach back to the first entries seen."""
    seen = sorted(dict(seen).items())
    while len(seen) > keep:
        half = len(seen) - keep // 2
        seen = seen[:half:2] + seen[half:]
    return seen


class Witness:
    """The checkpoints of one server's record, kept in ``path`` (None: in memory only)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.seen: list[tuple[int, str]] = []
        #: the last entry whose hash the server still gives as seen, once it gave another
        #: for a later checkpoint (None: its record extends everything seen)
        self.rewritten_after: int | None = None
        #: the server's (entries, digest) when it was found rewritten
        self.found: tuple[int, str] | None = None
        self._load()

    def _load(self) -> None:
        if self.path is None:
            return
        try:
            d = json.loads(self.path.read_text(encoding="utf-8"))
            self.seen = [(int(s), str(h)) for s, h in d.get("seen", [])]
            after = d.get("rewritten_after")
            self.rewritten_after = None if after is None else int(after)
            found = d.get("found")
            self.found = (int(found[0]), str(found[1])) if found else None
        except FileNotFoundError:
            return
        except (OSError, ValueError, TypeError, IndexError, AttributeError):
            # unreadable (a torn write cannot happen: written atomically): start again,
            # from the server's record as it is now
            self.seen, self.rewritten_after, self.found = [], None, None

    def _save(self) -> None:
        if self.path is None:
            return
        from .outbox import write_atomic

        data: dict[str, Any] = {"seen": self.seen, "rewritten_after": self.rewritten_after,
                                "found": list(self.found) if self.found else None}
        write_atomic(self.path, json.dumps(data).encode("utf-8"))

    def check(self, hashes_of: Callable[[list[int]], Hashes]) -> int | None:
        """Ask the server (``hashes_of``: its hashes at the checkpoints) whether its record
        extends what was seen: None if it does (the new head is kept), else the entry it was
        rewritten after (kept, so the answer stays until :meth:`accept`)."""
        if self.rewritten_after is not None:
            return self.rewritten_after
        asked = [s for s, _ in self.seen][-MAX_ASKED:]
        entries, digest, hashes = hashes_of(asked)
        good = 0
        for seq, h in self.seen:
            if hashes.get(seq) != h:
                self.rewritten_after, self.found = good, (entries, digest)
                self._save()
                return good
            good = seq
        if entries and (not self.seen or self.seen[-1] != (entries, digest)):
            self.seen = thin([*self.seen, (entries, digest)])
            self._save()
        return None

    def accept(self) -> None:
        """The head referee's decision: the server's record is the record from now on (the
        next check starts from its head)."""
        self.seen, self.rewritten_after, self.found = [], None, None
        self._save()
