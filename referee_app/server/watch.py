"""What open pages are told, and how far behind they may be: the change watch (the
record's revision, announced to long-polls the moment this server's writer saves, and looked
for every 0.2 s for other writers) with the moment each revision became known, and the pace
(how often open pages should refresh, from how busy the results worker is), which also says
how far behind the record a results page may be sent (``ServerState.answer``)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections import deque
from collections.abc import Callable

from referee_app.storage import StorageError, Tournament

#: how often the change watch looks at the record (seconds)
WATCH_INTERVAL = 0.2
#: how often an open results page refreshes at most (seconds) while the server has time;
#: when the results worker is busier than PACE_BUSY of the last PACE_WINDOW seconds, the
#: pages are told to wait longer, in proportion, up to PACE_MAX (``/api/changes`` says it)
PACE_EVERY = 1.0
PACE_BUSY = 0.25
PACE_WINDOW = 2.0
PACE_MAX = 5.0
#: how far behind the record a results page may be when served (seconds): a kept page that
#: lacks only saves announced less than PAGE_LAG ago is sent at once, and a newer one is made
#: in the background; one that lacks an older save is made (or waited for) first. The API's
#: reads are never served behind (a desk reads its own write)
PAGE_LAG = 2.0
#: and at most, while the pages are paced (see Pace.lag): what every page says
MOST_BEHIND = PAGE_LAG + PACE_MAX - PACE_EVERY


class Pace:
    """How long open pages should wait between refreshes, from how busy the results worker
    was lately: a hundred phones each on its own page cost a page each per save, so under a
    flood of saves they refresh less often instead of queueing behind one another (results
    a few seconds old rather than pages that take seconds to load)."""

    def __init__(self) -> None:
        self._spans: deque[tuple[float, float]] = deque()  # (ended at, seconds busy)
        self._busy = 0.0  # the seconds of the spans kept
        #: (when, every) told above PACE_EVERY, each larger than every one told after it:
        #: the first one still recent is the longest (one told later that is as long or
        #: longer makes the earlier ones irrelevant, so the longest is found at once rather
        #: than over every answer of the last seconds, hundreds a second under load)
        self._told: deque[tuple[float, float]] = deque()

    def worked(self, seconds: float, now: float | None = None) -> None:
        """The results worker spent ``seconds`` making a page or an answer."""
        self._spans.append((time.monotonic() if now is None else now, seconds))
        self._busy += seconds

    def busy(self, now: float | None = None) -> float:
        """The share of the last :data:`PACE_WINDOW` seconds the worker was working."""
        now = time.monotonic() if now is None else now
        spans = self._spans
        while spans and spans[0][0] < now - PACE_WINDOW:
            self._busy -= spans.popleft()[1]
        if not spans:
            self._busy = 0.0  # (no rounding left over from the sums)
        return self._busy / PACE_WINDOW

    def every(self, now: float | None = None) -> float:
        """Seconds an open page should let pass between its refreshes."""
        return round(min(PACE_MAX, PACE_EVERY * max(1.0, self.busy(now) / PACE_BUSY)), 2)

    def tell(self, now: float | None = None) -> float:
        """:meth:`every`, as told to an open page now (kept for :meth:`lag`)."""
        now = time.monotonic() if now is None else now
        every = self.every(now)
        if every > PACE_EVERY:
            told = self._told
            while told and told[-1][1] <= every:
                told.pop()
            told.append((now, every))
        return every

    def lag(self, now: float | None = None) -> float:
        """How far behind the record a results page may be sent (seconds): PAGE_LAG, and
        what pages were lately told to wait beyond PACE_EVERY on top (a phone told to wait
        3 s comes back with a page 3 s old: it is sent that one, not kept waiting for a
        newer one) — at most PAGE_LAG + PACE_MAX - PACE_EVERY."""
        now = time.monotonic() if now is None else now
        told = self._told
        while told and told[0][0] < now - PACE_MAX - PAGE_LAG:
            told.popleft()
        longest = told[0][1] if told else PACE_EVERY
        return PAGE_LAG + max(0.0, longest - PACE_EVERY)


class ChangeWatch:
    """The record's revision (its chain length), watched for every writer — this server,
    the CLI, another process — and announced to long-polling clients. Read through a
    worker thread's own :class:`Tournament` (``tournament()``, no SQL here); a record
    replaced by another file (a backup restored) calls ``replaced()``."""

    def __init__(self, tournament: Callable[[], Tournament],
                 replaced: Callable[[], None]) -> None:
        self.tournament, self.replaced = tournament, replaced
        self.revision = -1
        self.read_only = False
        self._event = asyncio.Event()
        self._told = 0  # revisions told by this server's writer (see run)
        self.digest: tuple[int, str] | None = None  # the record's (entries, short hash)
        self.clock: Callable[[], float] = time.monotonic
        #: (when, revision) of each revision announced, the last PAGE_LAG seconds' and the
        #: one before them (see revision_at)
        self._seen: deque[tuple[float, int]] = deque()

    def read(self) -> tuple[tuple[int, str], bool]:
        t = self.tournament()
        return t.record.digest(), not t.referees.required()

    def update(self, rev: int) -> None:
        if rev != self.revision:
            now = self.clock()
            if rev < self.revision:  # another file: nothing before it counts
                self._seen.clear()
            self._seen.append((now, rev))
            while len(self._seen) > 1 and self._seen[1][0] <= now - PAGE_LAG:
                self._seen.popleft()
            self.revision = rev
            self._event.set()
            self._event = asyncio.Event()

    def revision_at(self, when: float) -> int:
        """The revision this server knew at ``when`` (a moment of :attr:`clock` within the
        last :data:`PAGE_LAG` seconds): a page made at it or later lacks only saves
        announced after ``when``."""
        at = self._seen[0][1] if self._seen else self.revision
        for t, rev in self._seen:
            if t > when:
                break
            at = rev
        return at

    def told(self, digest: tuple[int, str]) -> None:
        """This server's writer saved the record up to ``digest`` (entries, short hash):
        announced at once, not at the next look."""
        self._told += 1
        if digest[0] > self.revision:
            self.digest = digest
            self.update(digest[0])

    async def run(self) -> None:
        while True:
            with contextlib.suppress(sqlite3.Error, StorageError):
                told = self._told
                digest, self.read_only = await asyncio.to_thread(self.read)
                # a look that began before the writer told of a newer revision is older
                # than what was told (the file replaced by an older backup: a later look)
                if told == self._told or digest[0] >= self.revision:
                    if self.digest is not None and (
                            digest[0] < self.digest[0]
                            or digest[0] == self.digest[0] and digest != self.digest):
                        # another file (a backup restored): nothing made from the old one
                        # may be served for it, even at the same or a lower revision
                        self.replaced()
                    self.digest = digest
                    self.update(digest[0])
            await asyncio.sleep(WATCH_INTERVAL)

    async def wait_change(self, since: int, timeout: float) -> int:
        """The revision once it differs from ``since``, or the current one at ``timeout``."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.revision == since or self.revision < 0:
            left = end - loop.time()
            if left <= 0:
                break
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), left)
        return self.revision
