"""Sign-in tokens for the server: random, expiring, held only in this process's memory.

A token is handed out by ``POST /api/session`` after :meth:`Tournament.referees.sign_in` checked the
referee's PIN (the same scrypt hashes and five-wrong-PINs lock-out as the CLI). Only a
SHA-256 of each token is kept, so not even a memory dump shows a usable token; a restart
of the server forgets every token (desks sign in again). Sign-in attempts are also limited
per client address, so one laptop cannot try PINs for every referee in turn.
"""

from __future__ import annotations

import hashlib
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

#: how long a token is good for: a tournament day
TOKEN_SECONDS = 12 * 3600
#: sign-in attempts one client address may make per window (on top of the per-name lock)
ATTEMPTS_PER_WINDOW = 10
WINDOW_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Session:
    """Who a token belongs to, until when (``time.time()`` seconds), and the record's
    revision (chain entries) before the PIN was checked: a PIN change or removal of the
    referee after it ends the session (:meth:`SessionStore.sync`)."""

    referee: str
    head: bool
    expires: float
    since: int = 0
    key: str = ""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class SessionStore:
    """Tokens -> sessions, thread-safe (endpoints run in a thread pool)."""

    def __init__(self, ttl: float = TOKEN_SECONDS) -> None:
        self.ttl = ttl
        self._lock = threading.Lock()
        self._sessions: dict[str, Session] = {}
        self._seen = 0  # the newest chain entry :meth:`sync` has looked at

    def issue(self, referee: str, head: bool, since: int = 0) -> tuple[str, Session]:
        """A new token for ``referee``, whose PIN was checked at revision ``since``."""
        token = secrets.token_urlsafe(32)
        key = _digest(token)
        s = Session(referee, head, time.time() + self.ttl, since, key)
        with self._lock:
            self._drop_expired()
            self._sessions[key] = s
        return token, s

    def alive(self, session: Session) -> bool:
        """Whether ``session`` still stands (not signed out, expired or ended)."""
        with self._lock:
            return self._sessions.get(session.key) is session and \
                session.expires > time.time()

    def sync(self, changes: Callable[[int], tuple[int, list[tuple[int, str]]]]) -> None:
        """End the sessions of every referee whose PIN changed, or who was removed, after
        they signed in. ``changes(seq)`` gives the newest entry and the (entry, name) of
        each such change after entry ``seq`` (``t.referees.changed_since``); each entry
        is looked at once."""
        with self._lock:
            seen = self._seen
        newest, found = changes(seen)
        with self._lock:
            for seq, name in found:
                for k in [k for k, s in self._sessions.items()
                          if s.referee == name and s.since < seq]:
                    del self._sessions[k]
            self._seen = max(self._seen, newest)

    def get(self, token: str) -> Session | None:
        """The live session of ``token``, or None (unknown or expired)."""
        if not token or len(token) > 200:
            return None
        key = _digest(token)
        with self._lock:
            s = self._sessions.get(key)
            if s is not None and s.expires <= time.time():
                del self._sessions[key]
                s = None
        return s

    def revoke(self, token: str) -> bool:
        with self._lock:
            return self._sessions.pop(_digest(token), None) is not None

    def _drop_expired(self) -> None:
        now = time.time()
        for k in [k for k, s in self._sessions.items() if s.expires <= now]:
            del self._sessions[k]


class RateLimiter:
    """At most ``limit`` events per ``window`` seconds per key (a client address)."""

    def __init__(self, limit: int = ATTEMPTS_PER_WINDOW, window: float = WINDOW_SECONDS) -> None:
        self.limit = limit
        self.window = window
        self._lock = threading.Lock()
        self._events: dict[str, deque[float]] = {}

    def hit(self, key: str) -> float:
        """Count one attempt; 0 when allowed, else the seconds to wait before the next."""
        now = time.monotonic()
        with self._lock:
            q = self._events.setdefault(key, deque())
            while q and q[0] <= now - self.window:
                q.popleft()
            if len(q) >= self.limit:
                return max(q[0] + self.window - now, 0.1)
            q.append(now)
            if len(self._events) > 10_000:  # forget idle addresses
                for k in [k for k, v in self._events.items() if not v]:
                    del self._events[k]
            return 0.0
