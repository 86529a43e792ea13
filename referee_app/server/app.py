"""The ASGI application: one tournament file behind a JSON API and live results pages.

``create_app(db)`` builds a Starlette app over the same storage library as the desk and
the CLI, so every write goes through the same validation, chain and PIN rules; the server
is never a second implementation of the rules.

SQLite connections belong to one thread: each worker thread keeps its own
:class:`Tournament` (opened on first use), and one process-wide lock lets one write run at
a time (the database's own locking still orders the server against a CLI on the same
file). Backups are the server's: every ``backup_every`` writes, in a background thread,
and once more when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee_app.core import RecordError
from referee_app.storage import (
    AuthError,
    DuplicateHandError,
    HandRuleError,
    NotATournamentError,
    RecordIntegrityError,
    StorageError,
    Tournament,
    UnknownHandError,
    UnknownPlayerError,
)
from referee_app.storage.models import Referee

from .auth import RateLimiter, Session, SessionStore

#: largest request body accepted (a hand record is about 2 KB)
MAX_BODY = 256 * 1024
#: how often the change watcher looks at the record (seconds)
WATCH_INTERVAL = 0.2


class ApiError(Exception):
    """An HTTP error with the API's JSON body ``{"error": {"field", "problem"}}``."""

    def __init__(self, status: int, field: str, problem: str,
                 headers: dict[str, str] | None = None) -> None:
        super().__init__(f"{field}: {problem}")
        self.status, self.field, self.problem = status, field, problem
        self.headers = headers or {}


def error_response(status: int, field: str, problem: str, *,
                   violations: list[dict[str, Any]] | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    body: dict[str, Any] = {"field": field, "problem": problem}
    if violations is not None:
        body["violations"] = violations
    return JSONResponse({"error": body}, status_code=status, headers=headers)


READ_ONLY_PROBLEM = ("this tournament has no referees, so the server is read-only; add a head "
                     "referee with a PIN on the head desk (referee-app referee add NAME "
                     "--head) and writes are accepted from then on")


def status_of(e: Exception) -> int:
    """The HTTP status of a storage or record error."""
    if isinstance(e, HandRuleError):
        return 422
    if isinstance(e, DuplicateHandError):
        return 409
    if isinstance(e, AuthError):
        return 403
    if isinstance(e, UnknownHandError | UnknownPlayerError):
        return 404
    if isinstance(e, NotATournamentError | RecordIntegrityError):
        return 503
    return 400


async def _storage_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StorageError | RecordError)
    violations = None
    if isinstance(exc, HandRuleError):
        violations = [v.to_dict() if hasattr(v, "to_dict") else {"message": str(v)}
                      for v in exc.violations]
    return error_response(status_of(exc), exc.field, exc.problem, violations=violations)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.field, exc.problem, headers=exc.headers)


async def _internal(request: Request, exc: Exception) -> Response:
    """Anything unexpected: one JSON line, never a traceback to the client."""
    return error_response(500, "server", f"internal error ({type(exc).__name__}); the "
                          "head desk's terminal has the details")


async def _db_busy(request: Request, exc: Exception) -> Response:
    return error_response(503, "db", f"the database is busy or unavailable ({exc}); retry in a "
                          "moment", headers={"Retry-After": "1"})


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
        return t.record_digest()[0], not t.has_referees()

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
        self._writes = 0
        self._counter_lock = threading.Lock()
        self._backup_lock = threading.Lock()
        #: idempotency keys of hands sent to this server (kept beside the database)
        self.keys = KeyLog(Path(str(path) + ".keys"))

    # -- the file, one connection per worker thread
    def tournament(self) -> Tournament:
        t = getattr(self._local, "t", None)
        if t is None:
            t = Tournament.open(self.path, backup_every=0)
            self._local.t = t
        return t

    # -- writes
    def write(self, session: Session, fn: Callable[[Tournament, str], Any]) -> Any:
        """Run ``fn(t, referee)`` as the session's referee, one write at a time."""
        with self.write_lock:
            t = self.tournament()
            if not t.has_referees():
                raise ApiError(403, "referee", READ_ONLY_PROBLEM)
            ref = next((r for r in t.referees() if r.name == session.referee), None)
            if ref is None:
                raise ApiError(401, "referee", f"{session.referee} is no longer a referee "
                               "of this tournament; sign in again")
            t.signed_in = Referee(ref.name, ref.head, ref.added_at)
            try:
                result = fn(t, ref.name)
            finally:
                t.signed_in = None
        self._count_write()
        return result

    def memo(self, key: Hashable, fn: Callable[[Tournament], Any]) -> Any:
        """``fn(t)`` computed once per revision of the record: a hundred phones asking for
        the standings between two hands cost one computation. Values are frozen rows, so
        threads can share them."""
        t = self.tournament()
        rev = t.record_digest()[0]
        with self._memo_lock:
            hit = self._memo.get(key)
        if hit is not None and hit[0] == rev:
            return hit[1]
        value = fn(t)
        with self._memo_lock:
            if len(self._memo) > 2000:
                self._memo.clear()
            self._memo[key] = (rev, value)
        return value

    def _count_write(self) -> None:
        with self._counter_lock:
            self._writes += 1
            due = self.backup_every and self._writes >= self.backup_every
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
                return t.backup()
        except (OSError, sqlite3.Error, StorageError):
            return None
        finally:
            self._backup_lock.release()

    def pending_writes(self) -> int:
        return self._writes


class BodyLimit:
    """Refuse request bodies over ``limit`` bytes (413), by header and while reading."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None:
            try:
                n = int(length)
            except ValueError:
                n = self.limit + 1
            if n > self.limit:
                resp = error_response(413, "body", f"the request body is over {self.limit} "
                                      "bytes")
                await resp(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise ApiError(413, "body", f"the request body is over {self.limit} bytes")
            return msg

        await self.app(scope, limited, send)


SAFE_METHODS = {"GET", "HEAD", "OPTIONS"}


class SameOrigin:
    """Refuse cross-origin writes: a browser page of another site may not post here (403).

    Desks (httpx) send no ``Origin``; a browser always does on a POST, and it must be this
    server's own origin. No CORS headers are ever sent, so other sites cannot read either.
    Also sets the pages' security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers") or []}
        if scope["method"] not in SAFE_METHODS:
            origin = headers.get("origin")
            site = headers.get("sec-fetch-site")
            host = headers.get("host", "")
            own = {f"{scope.get('scheme', 'http')}://{host}"}
            if (origin is not None and origin not in own) or site == "cross-site":
                resp = error_response(403, "origin", "cross-origin requests are refused; "
                                      "use the desk app or this server's own pages")
                await resp(scope, receive, send)
                return

        async def send_with_headers(msg: Message) -> None:
            if msg["type"] == "http.response.start":
                extra = [(b"x-content-type-options", b"nosniff"),
                         (b"referrer-policy", b"no-referrer"),
                         (b"x-frame-options", b"DENY"),
                         (b"content-security-policy",
                          b"default-src 'self'; img-src 'self' data:; style-src 'self'; "
                          b"script-src 'self'; frame-ancestors 'none'")]
                msg["headers"] = list(msg.get("headers", [])) + extra
            await send(msg)

        await self.app(scope, receive, send_with_headers)


def create_app(db: str | Path, *, public_url: str = "", backup_every: int = 25,
               max_body: int = MAX_BODY, token_seconds: float | None = None) -> Starlette:
    """The server over the tournament file ``db`` (which must exist).

    ``public_url``: the results address players scan (QR on the projector page); default
    the address the browser used."""
    from .api import api_routes
    from .pages import page_routes

    path = Path(db)
    with Tournament.open(path, backup_every=0):
        pass  # refuse a missing or foreign file now, with its clear message
    state = ServerState(path, public_url=public_url, backup_every=backup_every,
                        token_seconds=token_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(state.watch.run())
        try:
            yield
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            if state.pending_writes():
                await asyncio.to_thread(state.backup)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        StorageError: _storage_error, RecordError: _storage_error, ApiError: _api_error,
        sqlite3.OperationalError: _db_busy, Exception: _internal}
    app = Starlette(routes=[*api_routes(), *page_routes()], lifespan=lifespan,
                    exception_handlers=handlers)
    app.state.server = state
    app.add_middleware(SameOrigin)
    app.add_middleware(BodyLimit, limit=max_body)
    return app


def state_of(request: Request) -> ServerState:
    return request.app.state.server  # type: ignore[no-any-return]
