"""A bounded load generator for a real ``referee-app serve``: desks saving hands and phones
reading the results pages, as at an event.

* A desk (:func:`desk_process`, one process each) signs in and posts its table's hands one
  after the other, a pause between them, until it has posted them all or its time is up.
* A phone (:func:`phones_process` runs ``n`` of them on one asyncio loop, in plain HTTP/1.1
  on keep-alive connections) behaves as the
  pages' own ``live.js``: it loads its page, waits until a second has passed since (plus up
  to a quarter second at random; at least 50 ms), long-polls ``/api/changes`` and, as soon
  as the revision moved past the one its page shows, loads the page again, until told to
  stop or its time is up. Only the page loads are timed, not the long-polls.

Everything stops by itself: each desk after ``count`` hands or ``seconds``, each phone at
``seconds`` or when the ``stop`` event is set (the desks are done).
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
import uuid
from typing import Any
from urllib.parse import quote, urlsplit

import httpx

REVISION = re.compile(rb'data-revision="(-?\d+)"')


def desk_process(url: str, login: tuple[str, str], jobs: list[dict[str, Any]], pause: float,
                 seconds: float, q: Any) -> None:
    """Post ``jobs`` (POST /api/hands bodies) ``pause`` s apart (0.5-1.5x, seeded); put
    ``("desk", latencies, statuses, body bytes, this process's CPU seconds)`` on ``q``."""
    rng = random.Random(login[0])
    lat: list[float] = []
    codes: list[int | str] = []
    sizes: list[int] = []
    end = time.monotonic() + seconds
    with httpx.Client(base_url=url, timeout=120) as c:
        tok = c.post("/api/session", json={"referee": login[0], "pin": login[1]}
                     ).json()["token"]
        head = {"Authorization": f"Bearer {tok}"}
        for body in jobs:
            if time.monotonic() >= end:
                break
            t0 = time.perf_counter()
            try:
                r = c.post("/api/hands", json=body,
                           headers={**head, "Idempotency-Key": uuid.uuid4().hex})
                codes.append(r.status_code)
            except httpx.HTTPError as e:
                codes.append(type(e).__name__)
            lat.append(time.perf_counter() - t0)
            sizes.append(len(httpx.Request("POST", url, json=body["record"]).content))
            if pause:
                time.sleep(rng.uniform(0.5, 1.5) * pause)
    q.put(("desk", lat, codes, sizes, time.process_time()))


#: live.js: a page refreshes at most once a second (longer when the server's /api/changes
#: says "every"), a quarter second at random on top
EVERY, SPREAD = 1.0, 0.25


class _Conn:
    """One phone's keep-alive connection, spoken in plain HTTP/1.1 on asyncio's streams: a
    browser's requests cost the server what they cost, but not the machine's cores on the
    client side (httpx costs ~2 ms of CPU a page here, this ~0.15 ms), since the phones share
    the two cores with the server they measure."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def get(self, path: str, timeout: float = 120) -> tuple[int, bytes]:
        """``GET path`` -> (status, body); a connection the server closed is opened again
        once (as a browser retries a reused one)."""
        for attempt in (0, 1):
            if self.streams is None:
                self.streams = await asyncio.open_connection(self.host, self.port)
            rd, wr = self.streams
            try:
                wr.write(f"GET {quote(path, safe='/?=&')} HTTP/1.1\r\nHost: {self.host}\r\n"
                         "Accept: text/html\r\n\r\n".encode())
                await wr.drain()
                head = await asyncio.wait_for(rd.readuntil(b"\r\n\r\n"), timeout)
                low = head.lower()
                i = low.index(b"content-length:")
                size = int(low[i + 15:low.index(b"\r\n", i)])
                body = await rd.readexactly(size)
                if b"connection: close" in low:
                    self.close()
                return int(head[9:12]), body
            except (OSError, asyncio.IncompleteReadError, ValueError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def _phone(conn: _Conn, path: str, end: float, stop: Any,
                 lat: list[float], codes: list[int | str], opened: Any) -> None:
    rev = -1
    every = EVERY  # as live.js: the server's "every" once it said one
    first = True
    rng = random.Random(f"{path} {id(lat)} {time.monotonic_ns()}")
    while time.monotonic() < end and not stop.is_set():
        t0 = time.perf_counter()
        try:
            status, body = await conn.get(path)
            codes.append(status)
            m = REVISION.search(body[:2000])
            rev = int(m.group(1)) if m else rev
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as e:
            codes.append(type(e).__name__)
            await asyncio.sleep(1)
        if first:  # opening the page: counted apart (the desks start once all are open)
            first = False
            with opened.get_lock():
                opened.value += 1
        else:
            lat.append(time.perf_counter() - t0)
        # the page's live.js: not again within a second, then wait for the next revision
        await asyncio.sleep(max(0.05, every - (time.perf_counter() - t0))
                            + rng.uniform(0, SPREAD))
        while time.monotonic() < end and not stop.is_set():
            try:
                status, body = await conn.get(f"/api/changes?since={rev}&timeout=25")
                answer = json.loads(body)
                every = float(answer.get("every") or EVERY)
                if answer["revision"] != rev:
                    break
            except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError, KeyError):
                await asyncio.sleep(1)


async def _phones(url: str, paths: list[str], seconds: float, stop: Any, opened: Any
                  ) -> tuple[list[float], list[int | str]]:
    lat: list[float] = []
    codes: list[int | str] = []
    end = time.monotonic() + seconds
    where = urlsplit(url)
    conns = [_Conn(where.hostname or "127.0.0.1", where.port or 80) for _ in paths]
    tasks = [asyncio.create_task(_phone(c, p, end, stop, lat, codes, opened))
             for c, p in zip(conns, paths, strict=True)]
    while not stop.is_set() and time.monotonic() < end and not all(t.done() for t in tasks):
        await asyncio.sleep(0.2)
    for t in tasks:  # a long-poll in flight is not waited for
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for c in conns:
        c.close()
    return lat, codes


def phones_process(url: str, paths: list[str], seconds: float, stop: Any, opened: Any,
                   q: Any) -> None:
    """``len(paths)`` phones, each on its page (``opened`` counts those open); put
    ``("phones", latencies, statuses, [], this process's CPU seconds)`` of the loads after
    the first on ``q``."""
    lat, codes = asyncio.run(_phones(url, paths, seconds, stop, opened))
    q.put(("phones", lat, codes, [], time.process_time()))


def phone_pages(n: int, players: list[tuple[int, str]], seed: int = 5) -> list[str]:
    """What ``n`` phones have open (seeded): standings, find-your-seat, a player's page,
    the round's progress."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        pid, latin = rng.choice(players)
        kind = i % 10
        if kind < 3:
            out.append("/")
        elif kind < 5:
            out.append(f"/seating?q={latin}")
        elif kind < 8:
            out.append(f"/player/{pid}")
        else:
            out.append("/progress")
    return out
