"""The server under many readers (issue 23): page data is computed once per revision by the
results worker while the others wait for it (single flight), also when it fails; a player's
page is read once per revision; answers on a kept-alive connection come without the
delayed-ACK stall; a save is made while the results worker is busy (writes never wait for
readers); a full queue answers 503 with Retry-After."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import make_event

from referee_app.server.app import create_app
from referee_app.storage import Tournament
from referee_app.storage.penalties import Penalties
from referee_app.storage.standings import Standings


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




def _phones(app: Any, paths: list[str]) -> list[httpx.Response]:
    async def run() -> list[httpx.Response]:
        # an error is answered as the server answers it (500), not raised here
        async with httpx.AsyncClient(transport=httpx.ASGITransport(
                app=app, raise_app_exceptions=False), base_url="http://test") as c:
            return list(await asyncio.gather(*(c.get(p) for p in paths)))

    return asyncio.run(run())


def test_a_failed_page_is_answered_as_an_error_and_made_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    calls: list[int] = []
    real = Standings.table

    def flaky(self: Standings, *a: Any, **kw: Any) -> Any:
        calls.append(1)
        time.sleep(0.1)  # the other phones ask meanwhile
        if len(calls) == 1:
            raise RuntimeError("the first computation fails")
        return real(self, *a, **kw)

    monkeypatch.setattr(Standings, "table", flaky)
    app = create_app(db, backup_every=0)
    first = _phones(app, ["/"] * 8)
    assert [r.status_code for r in first] == [500] * 8 and len(calls) == 1  # shared error
    again = _phones(app, ["/"] * 8)
    assert [r.status_code for r in again] == [200] * 8 and len(calls) == 2


class _Gate:
    """Holds the results worker in its next page until opened (a saturated reader pool)."""

    def __init__(self) -> None:
        import threading

        self.entered, self.open = threading.Event(), threading.Event()

    def hold(self, real: Any) -> Any:
        def held(*a: Any, **kw: Any) -> Any:
            self.entered.set()
            assert self.open.wait(30), "the gate was never opened"
            return real(*a, **kw)
        return held


def _desk_body(db: Path, hand_no: int) -> dict[str, Any]:
    from server_helpers import records

    return {"round": 1, "table": 1, "hand_no": hand_no, "record": records(db, 1, 1,
                                                                          seed=hand_no)[0]}


def test_a_save_is_made_while_every_reader_waits(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The results worker is held inside a page while a hundred phones wait for pages: a
    desk's save is still made and answered — before the worker is let go — and the phones
    then get pages that show it."""
    from server_helpers import DESKS

    db = make_event(tmp_path / "e.sqlite")
    app = create_app(db, backup_every=0)
    gate = _Gate()
    monkeypatch.setattr(app.state.server, "_make", gate.hold(app.state.server._make))

    async def run() -> tuple[httpx.Response, bool, list[httpx.Response]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            token = (await c.post("/api/session", json={"referee": DESKS[0][0],
                                                        "pin": DESKS[0][1]})).json()["token"]
            phones = [asyncio.create_task(c.get(p)) for p in
                      ["/", "/progress", "/seating", "/player/1"] * 25]
            await asyncio.to_thread(gate.entered.wait, 10)
            saved = await c.post("/api/hands", json=_desk_body(db, 1),
                                 headers={"Authorization": f"Bearer {token}"})
            still_held = not gate.open.is_set() and not any(p.done() for p in phones)
            gate.open.set()
            return saved, still_held, list(await asyncio.gather(*phones))

    saved, still_held, pages = asyncio.run(run())
    assert saved.status_code == 201, saved.text
    assert still_held  # answered while every page was still waiting for the worker
    assert {r.status_code for r in pages} == {200}
    with Tournament.open(db, backup_every=0) as t:
        assert len(t.hands.list()) == 1


def test_a_full_page_queue_answers_503_with_retry_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from referee_app.server import state as state_mod

    db = make_event(tmp_path / "e.sqlite", referees=False)
    app = create_app(db, backup_every=0)
    gate = _Gate()
    monkeypatch.setattr(app.state.server, "_make", gate.hold(app.state.server._make))
    monkeypatch.setattr(state_mod, "PAGE_QUEUE", 3)

    async def run() -> tuple[list[httpx.Response], list[httpx.Response]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            # three different pages being made (the first holds the worker), many phones
            # waiting for each: the queue is full; a fourth page is refused at once
            waiting = [asyncio.create_task(c.get(p)) for p in ["/", "/progress", "/seating"]
                       for _ in range(10)]
            await asyncio.to_thread(gate.entered.wait, 10)
            await asyncio.sleep(0.05)
            refused = [await c.get("/player/1"), await c.get("/api/standings")]
            gate.open.set()
            return refused, list(await asyncio.gather(*waiting))

    refused, served = asyncio.run(run())
    assert [r.status_code for r in refused] == [503, 503]
    assert all(r.headers["Retry-After"] == "1" for r in refused)
    assert refused[0].json()["error"]["field"] == "server"
    assert {r.status_code for r in served} == {200}
    assert _phones(app, ["/player/1"])[0].status_code == 200  # and served once there is room


def test_a_full_write_queue_answers_503_and_the_hand_is_not_saved(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from server_helpers import DESKS

    from referee_app.server import state as state_mod

    db = make_event(tmp_path / "e.sqlite")
    app = create_app(db, backup_every=0)
    gate = _Gate()
    state = app.state.server
    monkeypatch.setattr(state, "write_now", gate.hold(state.write_now))
    monkeypatch.setattr(state_mod, "WRITE_QUEUE", 2)

    async def run() -> tuple[httpx.Response, list[httpx.Response]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            token = (await c.post("/api/session", json={"referee": DESKS[0][0],
                                                        "pin": DESKS[0][1]})).json()["token"]
            head = {"Authorization": f"Bearer {token}"}
            first = [asyncio.create_task(c.post("/api/hands", json=_desk_body(db, n),
                                                headers=head)) for n in (1, 2)]
            await asyncio.to_thread(gate.entered.wait, 10)
            await asyncio.sleep(0.05)
            refused = await c.post("/api/hands", json=_desk_body(db, 3), headers=head)
            gate.open.set()
            return refused, list(await asyncio.gather(*first))

    refused, saved = asyncio.run(run())
    assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
    assert "send it again" in refused.json()["error"]["problem"]
    assert [r.status_code for r in saved] == [201, 201]
    with Tournament.open(db, backup_every=0) as t:
        assert sorted(h.hand_no for h in t.hands.list()) == [1, 2]  # the refused one: not


def test_pages_are_kept_once_whatever_other_parameters_a_link_carries(tmp_path: Path) -> None:
    """A flood of made-up parameters (``/?x=1``, ``/?x=2``, …) is the same page, rendered and
    kept once: only a page's own parameters (lang, round, q, hand) make another copy."""
    db = make_event(tmp_path / "e.sqlite", referees=False)
    app = create_app(db, backup_every=0)
    pages = _phones(app, [f"/?lang=en&x={i}" for i in range(30)] + ["/?lang=en&round=1"])
    assert {r.status_code for r in pages} == {200}
    assert len({r.text for r in pages[:30]}) == 1 and "x=" not in pages[0].text
    assert app.state.server.renders.rendered == 2  # "/" once, and round 1
