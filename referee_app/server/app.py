"""The ASGI application: one tournament file behind a JSON API and live results pages.

``create_app(db)`` builds a Starlette app over the same storage library as the desk and
the CLI, so every write goes through the same validation, chain and PIN rules; the server
is never a second implementation of the rules.

SQLite connections belong to one thread: each thread keeps its own :class:`Tournament`
(opened on first use). Saves are made by one writer thread, pages and shared reads by one
results worker, and neither waits for the other (``state.py``; the database's own locking
still orders the server against a CLI on the same file). Backups are the server's: every
``backup_every`` writes, in a background thread, and once more when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import sqlite3
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from referee_app.core import RecordError
from referee_app.storage import (
    AuthError,
    DuplicateHandError,
    HandChangedError,
    HandRuleError,
    NotATournamentError,
    RecordIntegrityError,
    StorageError,
    StorageFault,
    Tournament,
    UnknownHandError,
    UnknownPlayerError,
)
from referee_app.storage.errors import fault_from

from .api import api_routes
from .pages import page_routes
from .state import ApiError, ServerState, error_response, message_response

#: largest request body accepted (a hand record is about 2 KB)
MAX_BODY = 256 * 1024
#: the interpreter's thread switch interval while serving (seconds; Python's default is
#: 0.005): the writer gives up the GIL at each SQLite call and, with the results worker
#: busy, waited a whole interval to get it back each time — tens of intervals per save
SWITCH_INTERVAL = 0.0005
#: the collector's thresholds while serving: a full collection (generation 2) at most once
#: in 50 of generation 1 (Python's default: 10). A full one walks every object the server
#: holds (~170,000 at 256 players: pages and statements kept per revision) with every
#: thread stopped, 100-150 ms on these machines, seven times in 18 s of 8 desks + 200
#: phones; the desks and phones waiting through it were the long tail of their times. Five
#: interleaved runs each: the slowest save 216-302 ms -> 95-191 ms, the phones' p95
#: 83-311 ms -> 71-252 ms, each run better; the cost, cyclic garbage kept a little longer
#: (the server's memory at the end the same, ~290 MiB)
GC_THRESHOLDS = (700, 10, 50)


def status_of(e: Exception) -> int:
    """The HTTP status of a storage or record error."""
    if isinstance(e, HandRuleError):
        return 422
    if isinstance(e, DuplicateHandError | HandChangedError):
        return 409
    if isinstance(e, AuthError):
        return 403
    if isinstance(e, UnknownHandError | UnknownPlayerError):
        return 404
    if isinstance(e, NotATournamentError | RecordIntegrityError | StorageFault):
        # a fault outside the request (busy, disk full, the file replaced by a restore
        # meanwhile, read-only): the desk keeps the hand waiting and sends it again
        return 503
    return 400


async def _storage_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StorageError | RecordError)
    violations = None
    if isinstance(exc, HandRuleError):
        violations = [v.to_data() if hasattr(v, "to_data") else {"message": str(v)}
                      for v in exc.violations]
    status = status_of(exc)
    return error_response(status, exc.field, exc.problem, code=exc.code, params=exc.params,
                          violations=violations,
                          headers={"Retry-After": "1"} if status == 503 else None)


async def _api_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, ApiError)
    return error_response(exc.status, exc.field, exc.problem, code=exc.code,
                          params=exc.params, headers=exc.headers)


async def _internal(request: Request, exc: Exception) -> Response:
    """Anything unexpected: one JSON line, never a traceback to the client."""
    return message_response(500, "server", "api_internal", error=type(exc).__name__)


#: OS errors that are the machine's fault, not the request's: answered 503 like a storage
#: fault (the desk keeps the hand and sends it again), never 500 with a traceback
FAULT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EROFS})


async def _os_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, OSError)
    if exc.errno not in FAULT_ERRNOS:
        raise exc  # a bug: 500, and its traceback in the head desk's terminal
    return await _storage_error(request, fault_from(exc, request.app.state.server.path))


async def _db_busy(request: Request, exc: Exception) -> Response:
    return message_response(503, "db", "api_db_busy", headers={"Retry-After": "1"},
                            detail=str(exc))


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
                resp = message_response(413, "body", "api_body_too_big", limit=self.limit)
                await resp(scope, receive, send)
                return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > self.limit:
                    raise ApiError.of(413, "body", "api_body_too_big", limit=self.limit)
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
    path = Path(db)
    with Tournament.open(path, backup_every=0):
        pass  # refuse a missing or foreign file now, with its clear message
    state = ServerState(path, public_url=public_url, backup_every=backup_every,
                        token_seconds=token_seconds)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        task = asyncio.create_task(state.watch.run())
        switch, thresholds = sys.getswitchinterval(), gc.get_threshold()
        sys.setswitchinterval(SWITCH_INTERVAL)
        gc.set_threshold(*GC_THRESHOLDS)
        try:
            yield
        finally:
            sys.setswitchinterval(switch)
            gc.set_threshold(*thresholds)
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            state.close()
            if state.pending_writes():
                await asyncio.to_thread(state.backup)

    handlers: dict[Any, Callable[[Request, Exception], Awaitable[Response]]] = {
        StorageError: _storage_error, RecordError: _storage_error, ApiError: _api_error,
        sqlite3.OperationalError: _db_busy, OSError: _os_error, Exception: _internal}
    app = Starlette(routes=[*api_routes(), *page_routes()], lifespan=lifespan,
                    exception_handlers=handlers)
    app.state.server = state
    app.add_middleware(SameOrigin)
    app.add_middleware(BodyLimit, limit=max_body)
    return app


