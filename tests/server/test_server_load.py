"""The server under many readers (issue 23): page data is computed once per revision by one
worker while the others wait for it (single flight), also when that worker fails and when
writes come faster than it is computed; a player's page is read once per revision; answers
on a kept-alive connection come without the delayed-ACK stall."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import make_event

from referee_app.server.app import create_app
from referee_app.server.state import ServerState
from referee_app.storage import Tournament
from referee_app.storage.penalties import Penalties
from referee_app.storage.standings import Standings


def _at_once(n: int, fn: Any) -> list[Any]:
    """``fn()`` in ``n`` threads started together; their results (or errors)."""
    barrier = threading.Barrier(n)
    out: list[Any] = [None] * n

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = fn()
        except Exception as e:
            out[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(30)
    return out


def test_one_worker_computes_a_key_per_revision_the_others_wait(tmp_path: Path) -> None:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    state = ServerState(db, backup_every=0)
    calls: list[int] = []

    def slow(t: Tournament) -> tuple[int, int]:
        calls.append(1)
        time.sleep(0.2)  # long enough for every other thread to ask meanwhile
        return (t.record.digest()[0], len(calls))

    first = _at_once(12, lambda: state.memo("k", slow))
    assert len(calls) == 1 and len(set(first)) == 1  # one computation, one shared value
    assert _at_once(12, lambda: state.memo("k", slow)) == first and len(calls) == 1
    with Tournament.open(db, backup_every=0) as t:
        t.players.update(t.players.list()[0].id, club="Elsewhere")  # a new revision
    second = _at_once(12, lambda: state.memo("k", slow))
    assert len(calls) == 2 and len(set(second)) == 1 and second[0][0] == first[0][0] + 1


def test_a_failed_computation_is_raised_to_its_request_and_tried_again(tmp_path: Path) -> None:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    state = ServerState(db, backup_every=0)
    calls: list[int] = []
    lock = threading.Lock()

    def flaky(t: Tournament) -> str:
        with lock:
            calls.append(1)
            n = len(calls)
        time.sleep(0.2)
        if n == 1:
            raise RuntimeError("the first computation fails")
        return "value"

    got = _at_once(8, lambda: state.memo("k", flaky))
    errors = [g for g in got if isinstance(g, Exception)]
    assert len(errors) == 1 and str(errors[0]) == "the first computation fails"
    assert got.count("value") == 7 and len(calls) == 2  # one retry, shared by the waiters


def test_phones_loading_a_page_after_a_write_compute_standings_once(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    calls: list[int] = []
    real = Standings.table

    def counted(self: Standings, *a: Any, **kw: Any) -> Any:
        calls.append(1)
        time.sleep(0.1)
        return real(self, *a, **kw)

    monkeypatch.setattr(Standings, "table", counted)
    app = create_app(db, backup_every=0)

    async def phones(n: int) -> list[httpx.Response]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            return list(await asyncio.gather(*(c.get("/") for _ in range(n))))

    pages = asyncio.run(phones(20))
    assert [r.status_code for r in pages] == [200] * 20 and len(calls) == 1
    with Tournament.open(db, backup_every=0) as t:
        t.players.update(t.players.list()[0].id, club="Elsewhere")
    pages = asyncio.run(phones(20))
    assert [r.status_code for r in pages] == [200] * 20 and len(calls) == 2
    assert all(r.text == pages[0].text for r in pages)


@pytest.mark.slow  # a real server process
def test_answers_on_a_kept_alive_connection_do_not_wait_for_a_delayed_ack(
        tmp_path: Path) -> None:
    """The listening socket says TCP, so asyncio turns Nagle off on every connection: a
    response (headers, then body) used to wait ~40 ms for the client's delayed ACK, on every
    request of a kept-alive connection."""
    import socket

    from server_helpers import ServerProcess

    s = ServerProcess(make_event(tmp_path / "e.sqlite", referees=False)).start()
    times = []
    try:
        with socket.create_connection(("127.0.0.1", s.port), timeout=10) as c:
            for _ in range(20):
                t0 = time.perf_counter()
                c.sendall(b"GET /static/style.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                buf = b""
                while b"\r\n\r\n" not in buf:
                    buf += c.recv(65536)
                head, _, body = buf.partition(b"\r\n\r\n")
                length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                              if line.lower().startswith(b"content-length:"))
                while len(body) < length:
                    body += c.recv(65536)
                times.append(time.perf_counter() - t0)
                assert head.startswith(b"HTTP/1.1 200")
    finally:
        s.stop()
    # a new connection acknowledges at once for a while (quick-ACK); after that, with the
    # stall, every answer took 40 ms or more
    assert sorted(times[5:])[2] < 0.02, times


def test_a_players_page_is_read_once_per_revision(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    calls: list[str] = []
    real = Penalties.list

    def counted(self: Penalties, *a: Any, **kw: Any) -> Any:
        calls.append("penalties")
        return real(self, *a, **kw)

    monkeypatch.setattr(Penalties, "list", counted)
    app = create_app(db, backup_every=0)

    async def reloads(n: int) -> list[str]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            return [(await c.get("/player/1?lang=en")).text for _ in range(n)]

    first = asyncio.run(reloads(1))
    once = len(calls)  # what one computation of the page reads (the statement's too)
    pages = asyncio.run(reloads(5))
    assert len(calls) == once and set(pages) == set(first) and "Player 1" in first[0]
    with Tournament.open(db, backup_every=0) as t:
        t.penalties.add([t.players.get(1).name], 5, "late")
    mark = len(calls)
    pages = asyncio.run(reloads(5))
    assert len(calls) == mark + once and len(set(pages)) == 1 and "late" in pages[0]


def test_writes_faster_than_a_page_cost_one_computation_at_a_time(tmp_path: Path) -> None:
    """Phones asking at a newer revision while the key is being computed wait for it, then
    one computation serves them all (not one per revision, side by side)."""
    db = make_event(tmp_path / "e.sqlite", referees=False)
    state = ServerState(db, backup_every=0)
    calls: list[int] = []
    lock = threading.Lock()
    running = threading.Event()

    def slow(t: Tournament) -> int:
        with lock:
            calls.append(1)
        running.set()
        time.sleep(1.0)  # longer than the three writes below take
        return t.record.digest()[0]

    first = threading.Thread(target=lambda: state.memo("k", slow))
    first.start()
    running.wait(10)
    got: list[int] = []
    askers = []
    with Tournament.open(db, backup_every=0) as t:
        for n in range(3):  # three writes while the value is computed, phones after each
            t.players.update(t.players.list()[0].id, club=f"Elsewhere {n}")
            for _ in range(3):
                askers.append(threading.Thread(target=lambda: got.append(state.memo("k", slow))))
                askers[-1].start()
            time.sleep(0.03)
        rev = t.record.digest()[0]
    for th in [first, *askers]:
        th.join(10)
    assert got == [rev] * 9 and len(calls) == 2  # the first, then one for all 9
