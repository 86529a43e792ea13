"""What the routes share: the server's state (the file, one connection per worker thread,
sign-in tokens, the writer, the results worker and its page cache, the change watch)
and the API's error shape ``{"error": {"field", "problem"}}`` (plus the failure's ``code``
when the store or the record reader refused)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from referee_app.core.errors import FieldError, jsonable, render
from referee_app.storage import StorageError, Tournament, backup_files
from referee_app.storage import db as dbm
from referee_app.storage.models import Referee

from .auth import RateLimiter, Session, SessionStore
from .results import Results
from .watch import ChangeWatch, Pace

#: saves waiting for the writer at most; one more is answered 503 with ``Retry-After`` (a
#: desk keeps the hand in its outbox and sends it again) instead of waiting without end
WRITE_QUEUE = 64
#: pages and shared reads being made by the results worker at most (distinct ones: a
#: hundred phones on the same page wait for the one being made); one more: 503
PAGE_QUEUE = 512
#: requests waiting for a page or a shared read at most, all pages together: 503 beyond
PAGE_WAITING = 4000
#: other reads (a hand, its history, the log) running or waiting at most: 503 beyond
API_READS = 64
#: how often a save looks whether the newest backup is too old (seconds)
STALE_CHECK = 10.0
#: what a 503 of an overloaded server asks the client to wait (seconds)
RETRY_AFTER = "1"
#: rendered pages and answers kept (per key: the last one rendered), and their bytes at
#: most (a standings page of 1,000 players is 200 kB: a flood of distinct searches pushes
#: out the oldest instead of filling the memory)
KEEP_RENDERED = 4096
KEEP_BYTES = 64 * 1024 * 1024
#: rendered rows kept (a 1,000-player event's standings rows and players' hands, twice)
KEEP_FRAGMENTS = 50_000
#: how long a request for a page within PAGE_LAG waits for the idle worker to make it
#: current (seconds) before it is sent the kept one (a quiet event's pages are current: a
#: page is made in a few milliseconds when nothing else runs, and within this on a
#: machine busy with other work: an open page shows a desk's hand within a second)
FRESH_WAIT = 0.25
#: how often the kept pages served behind are made again, all in one go (seconds): each at
#: most once per period, one read of the record and one bringing forward of the results
#: for all of them
REFRESH_EVERY = 0.25
#: a batch of pages made in the background gives the results worker back after this long
#: (seconds): the rest is queued again, behind what waits for the worker meanwhile (a desk's
#: read, a page beyond PAGE_LAG)
BATCH_SLICE = 0.05



class ApiError(Exception):
    """An HTTP error with the API's JSON body ``{"error": {"field", "problem", "code",
    "params"}}``: a message of the catalogue, so a client says it in its own language."""

    def __init__(self, status: int, field: str, problem: str,
                 headers: dict[str, str] | None = None, *, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{field}: {problem}")
        self.status, self.field, self.problem = status, field, problem
        self.headers = headers or {}
        self.code, self.params = code, dict(params or {})

    @classmethod
    def of(cls, status: int, field: str, code: str, /, *,
           headers: dict[str, str] | None = None, **params: Any) -> ApiError:
        """The error of message ``code`` (``error.<code>``) with its ``params``."""
        return cls(status, field, render(code, params, "en"), headers, code=code,
                   params=params)

    @classmethod
    def like(cls, status: int, e: FieldError,
             headers: dict[str, str] | None = None) -> ApiError:
        """A store's or reader's refusal answered with ``status``, its message kept."""
        return cls(status, e.field, e.problem, headers, code=e.code, params=e.params)


def error_response(status: int, field: str, problem: str, *, code: str | None = None,
                   params: Mapping[str, Any] | None = None,
                   violations: list[dict[str, Any]] | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    """The API's error body; ``params`` (with ``code``) let a client say the problem in its
    own language from the catalogue. A value JSON cannot hold is sent as its ``repr``."""
    body: dict[str, Any] = {"field": field, "problem": problem}
    if code is not None:
        body["code"] = code
    if params:  # the values the problem was made from: a client rebuilds the error from them
        body["params"] = json.loads(json.dumps(jsonable(params), default=repr))
    if violations is not None:
        body["violations"] = violations
    return JSONResponse({"error": body}, status_code=status, headers=headers)




def message_response(status: int, field: str, code: str, /, *,
                     headers: dict[str, str] | None = None, **params: Any) -> JSONResponse:
    """The error body of message ``code`` (``error.<code>``) with its ``params``."""
    return error_response(status, field, render(code, params, "en"), code=code, params=params,
                          headers=headers)


@dataclass(frozen=True, slots=True)
class Rendered:
    """A page or a shared read as made at ``revision``: the body is ``head``, the revision's
    number, ``tail`` (a page shows the revision it was made at; a JSON answer has no tail),
    then — on a page — ``stamp``, the record's line of that revision (its digest and
    signing key, which change at every revision though the page's data may not), and
    ``rest``."""

    revision: int
    status: int
    head: bytes
    tail: bytes | None = None
    media_type: str = "text/html; charset=utf-8"
    headers: tuple[tuple[str, str], ...] = ()
    rest: bytes | None = None
    stamp: bytes = b""

    @property
    def size(self) -> int:
        return len(self.head) + len(self.tail or b"") + len(self.rest or b"")

    def response(self) -> Response:
        body = self.head if self.tail is None else \
            self.head + str(self.revision).encode() + self.tail
        if self.rest is not None:
            body += self.stamp + self.rest
        return Response(body, status_code=self.status, media_type=self.media_type,
                        headers={"Cache-Control": "no-store", **dict(self.headers)})


class Renders:
    """The results worker's last rendering of each page with the data it was made from: a
    page whose data are the same as then (the same shared objects, or equal ones) is not
    rendered again at a new revision, only its revision number changes."""

    def __init__(self) -> None:
        self._kept: OrderedDict[Hashable, tuple[dict[str, Any], int, bytes, bytes,
                                                bytes | None]] = \
            OrderedDict()
        self.rendered = 0  # how many times a page was rendered (tests, figures)
        self._bytes = 0
        self._fragments: OrderedDict[Hashable, Any] = OrderedDict()
        self._rows: dict[Hashable, tuple[list[Any], list[Any]]] = {}

    def rows(self, key: Hashable, items: Sequence[Any], fragment: Callable[[Any], Any]
             ) -> list[Any]:
        """``fragment(item)`` for each item of a long list (a page's rows), reusing the last
        call's fragment wherever the same item object is at the same place (a leaderboard
        after a save is the same rows but for a few): only the others are looked up."""
        last = self._rows.get(key)
        if last is None or len(last[0]) != len(items):
            out = [fragment(x) for x in items]
        else:
            old_items, old_out = last
            out = [o if x is y else fragment(x) for x, y, o in zip(items, old_items, old_out,
                                                                   strict=True)]
        self._rows[key] = (list(items), out)
        if len(self._rows) > KEEP_RENDERED:
            self._rows.pop(next(iter(self._rows)))
        return out

    def fragment(self, key: Hashable, make: Callable[[], Any]) -> Any:
        """A part of a page (a standings row, a player's hand) rendered once for what it
        shows (``key``) and kept (the last :data:`KEEP_FRAGMENTS`)."""
        hit = self._fragments.get(key)
        if hit is None:
            hit = self._fragments[key] = make()
            if len(self._fragments) > KEEP_FRAGMENTS:
                self._fragments.popitem(last=False)
        else:
            self._fragments.move_to_end(key)
        return hit

    def page(self, key: Hashable, revision: int, ctx: dict[str, Any], status: int,
             render: Callable[[], str], stamp: bytes = b"") -> Rendered:
        """The page ``key`` at ``revision``: the last rendering if made from the same
        ``ctx``, else rendered now; ``stamp`` (the record's line) goes where the template
        put :data:`RECORD_MARK`."""
        hit = self._kept.get(key)
        if hit is not None and hit[1] == status and hit[0] == ctx:
            self._kept.move_to_end(key)
            return Rendered(revision, status, hit[2], hit[3], rest=hit[4], stamp=stamp)
        html = render().encode("utf-8")
        self.rendered += 1
        head, mark, tail = html.partition(REVISION_MARK)
        if not mark:
            raise RuntimeError("a results page without data-revision")
        tail, marked, rest = tail.partition(RECORD_MARK)
        old = self._kept.pop(key, None)
        self._bytes += len(head) + len(tail) + len(rest) - (
            len(old[2]) + len(old[3]) + len(old[4] or b"") if old else 0)
        self._kept[key] = (ctx, status, head, tail, rest if marked else None)
        while len(self._kept) > KEEP_RENDERED or self._bytes > KEEP_BYTES:
            _, (_, _, h, t, r) = self._kept.popitem(last=False)
            self._bytes -= len(h) + len(t) + len(r or b"")
        return Rendered(revision, status, head, tail, rest=rest if marked else None,
                        stamp=stamp)


#: what a page's template renders where the revision goes (``pages.REVISION_MARK``)
REVISION_MARK = b"<rev/>"
#: and where the record's line goes, after it (``pages.RECORD_MARK``)
RECORD_MARK = b"<rec/>"


class ServerState:
    """What the routes share: the file, sign-in tokens, the writer, the results worker, the
    change watch. Reads and writes never wait for each other:

    * **the writer**: one thread with its own connection makes every save, one at a time, in
      the order they came (SQLite's WAL lets it commit while readers read); at most
      :data:`WRITE_QUEUE` wait, one more is answered 503 with ``Retry-After``;
    * **the results worker**: one thread with its own connection brings :class:`Results`
      forward after each save and makes the pages and the shared reads (standings, progress,
      seating, the tournament), each once per revision for everyone who asked (single
      flight); a page whose revision is current is served from :attr:`answers` without it;
    * **other reads** (a hand, its history, the log) run on Starlette's threads, each with its
      own connection, at most :data:`API_READS` at once.
    """

    def __init__(self, path: Path, *, public_url: str = "", backup_every: int = 25,
                 token_seconds: float | None = None) -> None:
        self.path = path
        self.public_url = public_url
        self.sessions = SessionStore() if token_seconds is None else SessionStore(token_seconds)
        self.sign_in_limiter = RateLimiter()
        #: PIN checks (scrypt: ~0.1 s of a core and 16 MiB each) made one at a time, so a
        #: rush of sign-ins leaves a core to the saves and pages
        self.pin_checks = threading.Semaphore(1)
        self.write_lock = threading.Lock()
        self.watch = ChangeWatch(self.tournament, self.forget_answers)
        self.backup_every = backup_every
        self._local = threading.local()
        self._pools: dict[str, ThreadPoolExecutor] = {}
        self._pools_lock = threading.Lock()
        self.results = Results()  # the results worker's only
        self.pace = Pace()
        self.renders = Renders()  # the results worker's only
        #: the loop's side: the last answer of each page or shared read, and those being made
        self._answers: OrderedDict[Hashable, Rendered] = OrderedDict()
        self._making: dict[Hashable, asyncio.Future[Rendered]] = {}
        #: pages served behind, to be made again at the next refresh
        self._stale: dict[Hashable, Callable[[Results, Tournament], Rendered]] = {}
        self._refresh: asyncio.TimerHandle | None = None
        self._answered_bytes = 0
        self._waiting = 0
        self._writes_waiting = 0
        self._reads = 0
        self._writes = 0
        self._counter_lock = threading.Lock()
        self._stale_checked = -STALE_CHECK
        self._backup_lock = threading.Lock()

    # -- the file, one connection per worker thread
    def tournament(self) -> Tournament:
        """This worker thread's connection; a new one once the file was replaced (a backup
        restored with the CLI while the server runs), so nothing reads or writes the copy
        set aside."""
        t = getattr(self._local, "t", None)
        if t is not None and t.replaced():
            with contextlib.suppress(sqlite3.Error, StorageError):
                t.close()
            t = None
        if t is None:
            t = Tournament.open(self.path, backup_every=0)
            self._local.t = t
        return t

    def _pool(self, name: str) -> ThreadPoolExecutor:
        """The one thread named ``name`` (the writer, the results worker), started once."""
        with self._pools_lock:
            pool = self._pools.get(name)
            if pool is None:
                pool = self._pools[name] = ThreadPoolExecutor(1, thread_name_prefix=name)
            return pool

    # -- writes
    async def submit_write(self, session: Session, fn: Callable[[Tournament, str], Any]
                           ) -> Any:
        """Run ``fn(t, referee)`` on the writer (see :meth:`write`); 503 when
        :data:`WRITE_QUEUE` saves already wait."""
        if self._writes_waiting >= WRITE_QUEUE:
            raise _busy("server_busy_saves", n=self._writes_waiting)
        loop = asyncio.get_running_loop()
        self._writes_waiting += 1
        try:
            result, digest = await loop.run_in_executor(self._pool("referee-writer"),
                                                     self.write_now, session, fn)
        finally:
            self._writes_waiting -= 1
        self.watch.told(digest)  # the long-polls and pages hear of it at once
        return result

    def write_now(self, session: Session, fn: Callable[[Tournament, str], Any]
                  ) -> tuple[Any, tuple[int, str]]:
        """:meth:`write`, and the record's digest (revision, short hash) after it."""
        result = self.write(session, fn)
        return result, self.tournament().record.digest()

    def write(self, session: Session, fn: Callable[[Tournament, str], Any]) -> Any:
        """Run ``fn(t, referee)`` as the session's referee, one write at a time."""
        with self.write_lock:
            t = self.tournament()
            if not t.referees.required():
                raise ApiError.of(403, "referee", "server_read_only")
            ref = next((r for r in t.referees.list() if r.name == session.referee), None)
            if ref is None:
                raise ApiError.of(401, "referee", "referee_removed", name=session.referee)
            t.referees.signed_in = Referee(ref.name, ref.head, ref.added_at)
            try:
                result = fn(t, ref.name)
            finally:
                t.referees.signed_in = None
        self._count_write()
        return result

    # -- the pages and shared reads
    async def answer(self, key: Hashable, make: Callable[[Results, Tournament], Rendered],
                     *, lag: float = 0.0) -> Response:
        """The answer ``key`` as the record stands now — or, with ``lag`` (a results page:
        :data:`PAGE_LAG`) while the results worker is busy with other answers, as it stood
        at most ``lag`` seconds ago: the one kept if it is recent enough (when it lacks a
        save, a newer one is made in the background), else made by the results worker,
        once for all who ask meanwhile."""
        if self._waiting >= PAGE_WAITING:
            raise _busy("server_busy_waiting", n=self._waiting)
        self._waiting += 1
        try:
            for _ in range(2):  # a making started before the last save: once more
                rev = self.watch.revision
                need = self.watch.revision_at(self.watch.clock() - lag) if lag else rev
                hit = self._answers.get(key)
                # (no watch running, as in an app without its lifespan: ask the worker)
                if hit is not None and rev >= 0 and hit.revision >= need and (
                        hit.revision >= rev or self._making):
                    # behind the record only while the worker is making other answers:
                    # idle, it makes this one now
                    self._answers.move_to_end(key)
                    if hit.revision < rev:
                        self._refresh_later(key, make)
                    return hit.response()
                fut = self._making.get(key)
                if fut is None:
                    if len(self._making) >= PAGE_QUEUE:
                        raise _busy("server_busy_making", n=len(self._making))
                    self._stale.pop(key, None)
                    fut = asyncio.get_running_loop().run_in_executor(
                        self._pool("referee-results"), self._make, make)
                    self._making[key] = fut
                    fut.add_done_callback(lambda f, key=key: self._made(key, f))
                if hit is not None and rev >= 0 and hit.revision >= need:
                    # the idle worker makes it now; a page within the bound is not kept
                    # waiting for it past FRESH_WAIT (it lands in the cache all the same)
                    try:
                        got = await asyncio.wait_for(asyncio.shield(fut), FRESH_WAIT)
                    except TimeoutError:
                        self._answers.move_to_end(key)
                        return hit.response()
                else:
                    got = await asyncio.shield(fut)
                if got.revision >= need:
                    break
            return got.response()
        finally:
            self._waiting -= 1

    def _refresh_later(self, key: Hashable, make: Callable[[Results, Tournament], Rendered]
                       ) -> None:
        """Have ``key`` made again at the next refresh (:data:`REFRESH_EVERY`), with every
        other page served behind meanwhile, unless it is being made already."""
        if key in self._making or key in self._stale:
            return
        self._stale[key] = make
        if self._refresh is None:
            self._refresh = asyncio.get_running_loop().call_later(REFRESH_EVERY,
                                                                  self._refresh_now)

    def _refresh_now(self) -> None:
        """On the loop: the pages served behind since the last refresh, handed to the
        results worker as one batch (at most half the queue: what is asked for and not
        kept always has room)."""
        self._refresh = None
        loop = asyncio.get_running_loop()
        batch: list[tuple[Hashable, Callable[[Results, Tournament], Rendered],
                          asyncio.Future[Rendered]]] = []
        for key, make in self._stale.items():
            if key in self._making:
                continue
            if len(self._making) >= PAGE_QUEUE // 2:
                break
            fut: asyncio.Future[Rendered] = loop.create_future()
            self._making[key] = fut
            fut.add_done_callback(lambda f, key=key: self._made(key, f))
            batch.append((key, make, fut))
        self._stale.clear()
        if batch:
            try:
                self._pool("referee-results").submit(self._make_batch, batch, loop)
            except RuntimeError as e:  # the server stops
                for _, _, fut in batch:
                    _settle(fut, None, e)

    def _make_batch(self, batch: list[tuple[Hashable, Callable[[Results, Tournament], Rendered],
                                            asyncio.Future[Rendered]]],
                    loop: asyncio.AbstractEventLoop) -> None:
        """On the results worker: the pages of ``batch`` made in one read transaction
        (the results brought forward once for all); after :data:`BATCH_SLICE` the rest is
        queued again, behind whatever waits for the worker meanwhile."""
        t0 = time.perf_counter()
        t = self.tournament()
        done = 0
        try:
            with dbm.read_transaction(t.db):
                self.results.advance(t)
                for _, make, fut in batch:
                    if done and time.perf_counter() - t0 > BATCH_SLICE:
                        break
                    done += 1
                    try:
                        got = make(self.results, t)
                    except Exception as e:  # answered to whoever waits
                        loop.call_soon_threadsafe(_settle, fut, None, e)
                    else:
                        loop.call_soon_threadsafe(_settle, fut, got, None)
        except Exception as e:  # the read itself failed: every page waits
            for _, _, fut in batch[done:]:
                loop.call_soon_threadsafe(_settle, fut, None, e)
            done = len(batch)
        finally:
            self.pace.worked(time.perf_counter() - t0)
        if done < len(batch):
            with contextlib.suppress(RuntimeError):  # the server stops
                self._pool("referee-results").submit(self._make_batch, batch[done:], loop)

    def forget_answers(self) -> None:
        """Drop every kept answer (on the loop): the file was replaced."""
        self._answers.clear()
        self._answered_bytes = 0

    def _make(self, make: Callable[[Results, Tournament], Rendered]) -> Rendered:
        """On the results worker: the results brought forward, then the answer, all read
        in one read transaction (one state of the file)."""
        t0 = time.perf_counter()
        t = self.tournament()
        try:
            with dbm.read_transaction(t.db):
                self.results.advance(t)
                return make(self.results, t)
        finally:
            self.pace.worked(time.perf_counter() - t0)

    def _made(self, key: Hashable, fut: asyncio.Future[Rendered]) -> None:
        if self._making.get(key) is fut:
            del self._making[key]
        if fut.cancelled() or fut.exception() is not None:
            return
        got = fut.result()
        old = self._answers.get(key)
        if old is None or old.revision <= got.revision:
            self._answered_bytes += got.size - (old.size if old else 0)
            self._answers[key] = got
            self._answers.move_to_end(key)
            while len(self._answers) > KEEP_RENDERED or self._answered_bytes > KEEP_BYTES:
                self._answered_bytes -= self._answers.popitem(last=False)[1].size

    async def read(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` on Starlette's threads (a read that is not shared); 503 beyond
        :data:`API_READS` at once."""
        if self._reads >= API_READS:
            raise _busy("server_busy_reads", n=self._reads)
        self._reads += 1
        try:
            return await run_in_threadpool(fn)
        finally:
            self._reads -= 1

    def close(self) -> None:
        """Let the writer and the results worker go (the server stops)."""
        with self._pools_lock:
            pools, self._pools = list(self._pools.values()), {}
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)

    def _count_write(self) -> None:
        now = time.monotonic()
        stale = False
        if self.backup_every and now >= self._stale_checked + STALE_CHECK:
            # (a listing of the backups folder: not at every save)
            self._stale_checked = now
            stale = backup_files.stale(self.path)
        with self._counter_lock:
            self._writes += 1
            # every backup_every writes, or at once when the newest backup is over ten
            # minutes old (a quiet afternoon must not go hours without one)
            due = self.backup_every and (self._writes >= self.backup_every or stale)
            if due:
                self._writes = 0
        if due and self._backup_lock.acquire(blocking=False):  # skipped if one is running
            try:
                job = self._pool("referee-backup").submit(self._backup_here)
            except RuntimeError:  # the server stops (it writes one last backup)
                self._backup_lock.release()
            else:  # not run at all (the server stopped first): the last backup may go
                job.add_done_callback(lambda f: f.cancelled() and self._backup_lock.release())

    def _backup_here(self) -> None:
        """On the backup thread: a backup point on its own connection, opened once (a
        connection opened for each backup checked the whole file first: 5 % of the
        server's time under a flood of saves)."""
        try:
            self.tournament().backups.write()
        except (OSError, sqlite3.Error, StorageError):
            pass  # the next one tries again; the last is written when the server stops
        finally:
            self._backup_lock.release()

    def backup(self) -> Path | None:
        """A backup now, on a connection of its own (the server stops), after the one
        being written if any."""
        if not self._backup_lock.acquire(timeout=60):
            return None
        try:
            with Tournament.open(self.path, backup_every=0) as t:
                return t.backups.write()
        except (OSError, sqlite3.Error, StorageError):
            return None
        finally:
            self._backup_lock.release()

    def pending_writes(self) -> int:
        return self._writes


def _settle(fut: asyncio.Future[Rendered], got: Rendered | None,
            error: BaseException | None) -> None:
    """On the loop: a page made in the background, or its failure, to whoever waits."""
    if fut.done():
        return
    if error is not None:
        fut.set_exception(error)
    else:
        assert got is not None
        fut.set_result(got)


def _busy(code: str, /, **params: Any) -> ApiError:
    """The overloaded server's answer (message ``code``): 503, and when to ask again."""
    return ApiError.of(503, "server", code, headers={"Retry-After": RETRY_AFTER}, **params)


def state_of(request: Request) -> ServerState:
    return request.app.state.server  # type: ignore[no-any-return]
