"""What the routes share: the server's state (the file, one connection per worker thread,
sign-in tokens, the write lock, the change watch, idempotency keys, the per-revision memo)
and the API's error shape ``{"error": {"field", "problem"}}`` (plus the failure's ``code``
when the store or the record reader refused)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import Callable, Hashable, Mapping
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse

from referee_app.core.errors import FieldError, jsonable, render
from referee_app.storage import StorageError, Tournament, backup_files
from referee_app.storage.models import Referee

from .auth import RateLimiter, Session, SessionStore

#: how often the change watch looks at the record (seconds)
WATCH_INTERVAL = 0.2
#: threads that read and render the results pages: few and long-lived, so each opens its
#: connection once (the pool Starlette runs other work on drops a thread idle for 10 s, and
#: its replacement opened and checked the whole file again), and a crowd of phones cannot
#: take every thread the desks' saves need
PAGE_THREADS = 4


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
    def like(cls, status: int, e: FieldError) -> ApiError:
        """A store's or reader's refusal answered with ``status``, its message kept."""
        return cls(status, e.field, e.problem, code=e.code, params=e.params)


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


class ChangeWatch:
    """The record's revision (its chain length), watched for every writer — this server,
    the CLI, another process — and announced to long-polling clients. Read through a
    worker thread's own :class:`Tournament` (no SQL here)."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self.revision = -1
        self.read_only = False
        self._event = asyncio.Event()

    def read(self) -> tuple[int, bool]:
        t = self.state.tournament()
        return t.record.digest()[0], not t.referees.required()

    def update(self, rev: int) -> None:
        if rev != self.revision:
            self.revision = rev
            self._event.set()
            self._event = asyncio.Event()

    async def run(self) -> None:
        while True:
            with contextlib.suppress(sqlite3.Error, StorageError):
                rev, self.read_only = await asyncio.to_thread(self.read)
                self.update(rev)
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


class KeyLog:
    """Idempotency keys of the hands desks sent, appended (fsync) to ``<db>.keys`` *before*
    the hand is saved: after a lost reply, even across a crash of the server, a resend with
    the same key finds its attempt here and, if the hand was saved, is answered as then
    instead of as a conflict. One JSON line per hand: key, referee, round, table, hand."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._keys: dict[str, tuple[str, int, int, int]] = {}
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            text = ""
        for line in text.splitlines():
            try:
                d = json.loads(line)
                self._keys[str(d["key"])] = (str(d["referee"]), int(d["round"]),
                                             int(d["table"]), int(d["hand_no"]))
            except (ValueError, KeyError, TypeError):
                continue  # a line cut short by a crash: its hand was never saved

    def get(self, key: str) -> tuple[str, int, int, int] | None:
        with self._lock:
            return self._keys.get(key)

    def add(self, key: str, referee: str, round: int, table: int, hand_no: int) -> None:
        line = json.dumps({"key": key, "referee": referee, "round": round, "table": table,
                           "hand_no": hand_no}, ensure_ascii=False) + "\n"
        with self._lock:
            if self._keys.get(key) == (referee, round, table, hand_no):
                return
            with open(self.path, "a", encoding="utf-8") as f:
                f.write(line)
                f.flush()
                os.fsync(f.fileno())
            self._keys[key] = (referee, round, table, hand_no)


class Flight:
    """One computation of a memo key at revision ``rev``, which other workers wait for."""

    def __init__(self, rev: int) -> None:
        self.rev = rev
        self._done = threading.Event()
        self.ok = False
        self.value: Any = None

    def finish(self, *, ok: bool, value: Any = None) -> None:
        self.ok, self.value = ok, value
        self._done.set()

    def wait(self) -> bool:
        """Whether the value came (False: the computation failed)."""
        self._done.wait()
        return self.ok


class ServerState:
    """What the routes share: the file, sign-in tokens, the write lock, the change watch."""

    def __init__(self, path: Path, *, public_url: str = "", backup_every: int = 25,
                 token_seconds: float | None = None) -> None:
        self.path = path
        self.public_url = public_url
        self.sessions = SessionStore() if token_seconds is None else SessionStore(token_seconds)
        self.sign_in_limiter = RateLimiter()
        self.write_lock = threading.Lock()
        self.watch = ChangeWatch(self)
        self.backup_every = backup_every
        self._local = threading.local()
        self._memo: dict[Hashable, tuple[int, Any]] = {}
        self._memo_lock = threading.Lock()
        self._pages: ThreadPoolExecutor | None = None
        self._flights: dict[Hashable, Flight] = {}
        self._writes = 0
        self._counter_lock = threading.Lock()
        self._backup_lock = threading.Lock()
        #: idempotency keys of hands sent to this server (kept beside the database)
        self.keys = KeyLog(Path(str(path) + ".keys"))

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

    # -- writes
    def write(self, session: Session, fn: Callable[[Tournament, str], Any]) -> Any:
        """Run ``fn(t, referee)`` as the session's referee, one write at a time."""
        with self.write_lock:
            t = self.tournament()
            if not t.referees.required():
                raise ApiError.of(403, "referee", "server_read_only")
            ref = next((r for r in t.referees.list() if r.name == session.referee), None)
            if ref is None:
                raise ApiError.of(401, "referee", "no_longer_referee", name=session.referee)
            t.referees.signed_in = Referee(ref.name, ref.head, ref.added_at)
            try:
                result = fn(t, ref.name)
            finally:
                t.referees.signed_in = None
        self._count_write()
        return result

    def memo(self, key: Hashable, fn: Callable[[Tournament], Any]) -> Any:
        """``fn(t)`` computed once per revision of the record: a hundred phones asking for
        the standings between two hands cost one computation. *Single flight*: one worker
        at a time computes a key; the others asking for it wait for that value (each write
        used to set every waiting phone recomputing the same page at once). One that asked
        at a newer revision than the value's waits, then computes once for all who asked
        meanwhile — so desks saving faster than a page is computed cost one computation at
        a time, not one per revision in parallel. Values are frozen rows, shared by threads."""
        t = self.tournament()
        rev = t.record.digest()[0]
        while True:
            with self._memo_lock:
                hit = self._memo.get(key)
                if hit is not None and hit[0] == rev:
                    return hit[1]
                flight = self._flights.get(key)
                leader = flight is None
                if flight is None:
                    flight = self._flights[key] = Flight(rev)
            if leader:
                return self._compute(key, flight, fn, t)
            if flight.wait() and flight.rev >= rev:
                return flight.value
            # an older revision's value, or a failed computation (its error went to its own
            # request): look again at the revision now
            rev = t.record.digest()[0]

    def _compute(self, key: Hashable, flight: Flight, fn: Callable[[Tournament], Any],
                 t: Tournament) -> Any:
        """The one computation of ``key`` at ``flight.rev``, handed to the workers waiting."""
        rev = flight.rev
        try:
            value = fn(t)
        except BaseException:
            with self._memo_lock:
                if self._flights.get(key) is flight:
                    del self._flights[key]
            flight.finish(ok=False)
            raise
        with self._memo_lock:
            if len(self._memo) > 4000:  # what an older revision left first
                for k in [k for k, (r, _) in self._memo.items() if r < rev]:
                    del self._memo[k]
                if len(self._memo) > 4000:
                    self._memo.clear()
            old = self._memo.get(key)
            if old is None or old[0] <= rev:
                self._memo[key] = (rev, value)
            if self._flights.get(key) is flight:
                del self._flights[key]
        flight.finish(ok=True, value=value)
        return value

    async def run_page(self, fn: Callable[[], Any]) -> Any:
        """``fn()`` (read and render a results page) on one of the page threads."""
        with self._memo_lock:
            if self._pages is None:
                self._pages = ThreadPoolExecutor(PAGE_THREADS, thread_name_prefix="referee-page")
            pool = self._pages
        return await asyncio.get_running_loop().run_in_executor(pool, fn)

    def close(self) -> None:
        """Let the page threads go (the server stops)."""
        with self._memo_lock:
            pool, self._pages = self._pages, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)

    def _count_write(self) -> None:
        stale = bool(self.backup_every) and backup_files.stale(self.path)
        with self._counter_lock:
            self._writes += 1
            # every backup_every writes, or at once when the newest backup is over ten
            # minutes old (a quiet afternoon must not go hours without one)
            due = self.backup_every and (self._writes >= self.backup_every or stale)
            if due:
                self._writes = 0
        if due:
            threading.Thread(target=self.backup, name="referee-backup", daemon=True).start()

    def backup(self) -> Path | None:
        """A backup now, on a connection of its own (skipped if one is running)."""
        if not self._backup_lock.acquire(blocking=False):
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


def state_of(request: Request) -> ServerState:
    return request.app.state.server  # type: ignore[no-any-return]
