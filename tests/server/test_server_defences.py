"""Issue 24 on the server: sign-in that a stranger cannot turn into a lock-out (failures
per name and address, the head desk's own use never locked, invented names leave no
chain entry, X-Forwarded-For only behind a proxy), sessions that end at once with a PIN
change or a removal, bounds on every number, verification by a second referee, and a
fault of the server (5xx) that keeps the hand in the desk's outbox.

In process (httpx over ASGI, which also sets each client's address) unless a real
server is needed (the proxy header is uvicorn's)."""

from __future__ import annotations

import asyncio
import errno
import os
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import DESKS, HEAD, HEAD_PIN, ROOT, ServerProcess, http, make_event, records

from referee_app.gui.controllers.desk import Desk
from referee_app.server.app import create_app
from referee_app.server.client import DeskClient
from referee_app.storage import AuthError, Tournament, checks

STRANGER = "203.0.113.66"
HEAD_DESK = "127.0.0.1"
HUGE = 2**63 - 1


Clients = Callable[[str], httpx.AsyncClient]


def in_process(db: Path, steps: Callable[[Clients], Awaitable[Any]]) -> Any:
    """Run ``steps(client)`` against the server's app in process; ``client(address)`` is
    an HTTP client whose requests come from that address."""
    app = create_app(db, backup_every=0)
    made: list[httpx.AsyncClient] = []

    def client(address: str) -> httpx.AsyncClient:
        c = httpx.AsyncClient(transport=httpx.ASGITransport(app=app, client=(address, 40000)),
                              base_url="http://desk")
        made.append(c)
        return c

    async def run() -> Any:
        try:
            return await steps(client)
        finally:
            for c in made:
                await c.aclose()

    return asyncio.run(run())


def sign_in_body(name: str, pin: str) -> dict[str, str]:
    return {"referee": name, "pin": pin}


def chain_length(db: Path) -> int:
    with Tournament.open(db, backup_every=0) as t:
        return len(t.record.log())


@pytest.fixture
def event(tmp_path: Path) -> Path:
    return make_event(tmp_path / "event.sqlite")


# --------------------------------------------------------------------------- sign-in


def test_a_lock_out_from_another_address_never_locks_the_head_desk_out(event: Path) -> None:
    """A stranger guesses the head referee's PIN until the name is locked — for the
    stranger's address only: the head desk signs in over the network, on its CLI and in
    its desk window on the file, and the stranger's guesses stay locked."""
    async def steps(client: Clients) -> list[int]:
        stranger, head = client(STRANGER), client(HEAD_DESK)
        codes = [(await stranger.post("/api/session", json=sign_in_body(HEAD, "000000")))
                 .status_code for _ in range(6)]
        locked = await stranger.post("/api/session", json=sign_in_body(HEAD, HEAD_PIN))
        assert locked.status_code == 429 and locked.json()["error"]["code"] == "referee_locked"
        assert int(locked.headers["retry-after"]) > 0
        ok = await head.post("/api/session", json=sign_in_body(HEAD, HEAD_PIN))
        assert ok.status_code == 201, ok.text
        return codes

    assert in_process(event, steps) == [401] * 4 + [401, 429]
    with Tournament.open(event, backup_every=0) as t:
        lock = [e for e in t.record.log() if e["action"] == "referee.locked"]
        assert [e["detail"]["client"] for e in lock] == [STRANGER]
    # the head desk's own use of the file: the CLI and the desk window
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_PIN": HEAD_PIN}
    r = subprocess.run([sys.executable, "-m", "referee_app", "players", "add", "新选手",
                        "--referee", HEAD, "--db", str(event)], capture_output=True,
                       text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    desk = Desk.open(event, HEAD)
    try:
        assert desk.sign_in(HEAD, HEAD_PIN).name == HEAD
    finally:
        desk.t.close()


def test_a_correct_pin_does_not_buy_more_guesses(event: Path) -> None:
    async def steps(client: Clients) -> list[int]:
        c = client(STRANGER)
        codes = []
        for _ in range(4):
            codes.append((await c.post("/api/session", json=sign_in_body("周", "0"))).status_code)
            codes.append((await c.post("/api/session", json=sign_in_body(*DESKS[3])))
                         .status_code)
        r = await c.post("/api/session", json=sign_in_body("周", "0"))
        assert r.json()["error"]["code"] == "wrong_pin_locked"
        return codes

    assert in_process(event, steps) == [401, 201] * 4


def test_invented_names_leave_no_chain_entry(event: Path) -> None:
    before = chain_length(event)

    async def steps(client: Clients) -> list[str]:
        c = client(STRANGER)
        return [(await c.post("/api/session", json=sign_in_body(f"无名{i % 2}", "0")))
                .json()["error"]["code"] for i in range(10)]

    codes = in_process(event, steps)
    assert codes[:8] == ["unknown_referee"] * 8 and codes[8:] == ["wrong_pin_locked"] * 2
    assert chain_length(event) == before


@pytest.mark.slow  # two real servers: the proxy header is read by uvicorn
def test_x_forwarded_for_is_believed_only_behind_a_proxy(event: Path) -> None:
    def lock_via(s: ServerProcess, forwarded: str) -> None:
        for _ in range(5):
            http.post(s.url + "/api/session", json=sign_in_body("周", "0"),
                      headers={"X-Forwarded-For": forwarded})

    plain = ServerProcess(event).start()
    try:  # without --behind-proxy the header is ignored: the lock is 127.0.0.1's
        lock_via(plain, "198.51.100.1")
        r = http.post(plain.url + "/api/session", json=sign_in_body(*DESKS[3]))
        assert r.status_code == 429
    finally:
        plain.stop()
    with Tournament.open(event, backup_every=0) as t:
        t.db.execute("DELETE FROM auth_failures")
    proxied = ServerProcess(event, None, "--behind-proxy").start()
    try:  # behind a proxy: each forwarded address is counted on its own
        lock_via(proxied, "198.51.100.1")
        r = http.post(proxied.url + "/api/session", json=sign_in_body(*DESKS[3]),
                      headers={"X-Forwarded-For": "198.51.100.1"})
        assert r.status_code == 429
        r = http.post(proxied.url + "/api/session", json=sign_in_body(*DESKS[3]),
                      headers={"X-Forwarded-For": "198.51.100.2"})
        assert r.status_code == 201, r.text
    finally:
        proxied.stop()
    with Tournament.open(event, backup_every=0) as t:
        locks = [e["detail"]["client"] for e in t.record.log()
                 if e["action"] == "referee.locked"]
    assert locks == ["127.0.0.1", "198.51.100.1"]


@pytest.mark.parametrize("change", ["pin", "remove"])
def test_a_pin_change_or_removal_ends_the_referees_sessions_at_once(event: Path,
                                                                   change: str) -> None:
    """Done on the head desk's file while the server runs: the old token is refused at
    its next write and read, without waiting for it to expire."""
    rec = records(event, 4, 2, seed=5)
    name, pin = DESKS[3]

    def on_the_file() -> None:
        with Tournament.open(event, backup_every=0) as t:
            t.referees.sign_in(HEAD, HEAD_PIN)
            if change == "pin":
                t.referees.change_pin(name, "Nw-9876x")
            else:
                t.referees.remove(name)

    async def steps(client: Clients) -> None:
        c = client("192.0.2.40")
        token = (await c.post("/api/session", json=sign_in_body(name, pin))).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        hand = {"round": 1, "table": 4, "hand_no": 1, "record": rec[0]}
        assert (await c.post("/api/hands", json=hand, headers=auth)).status_code == 201
        await asyncio.to_thread(on_the_file)
        r = await c.post("/api/hands", json={**hand, "hand_no": 2, "record": rec[1]},
                         headers=auth)
        code = "session_ended" if change == "pin" else "referee_removed"
        assert r.status_code == 401 and r.json()["error"]["code"] == code
        r = await c.get("/api/log", headers=auth)
        assert r.status_code == 401
        again = await c.post("/api/session", json=sign_in_body(name, "Nw-9876x"))
        if change == "remove":
            assert again.json()["error"].get("code") == "unknown_referee", again.text
            return
        new = {"Authorization": f"Bearer {again.json()['token']}"}  # signed in after it
        r = await c.post("/api/hands", json={**hand, "hand_no": 2, "record": rec[1]},
                         headers=new)
        assert r.status_code == 201, r.text

    in_process(event, steps)


# --------------------------------------------------------------------------- bounds


def test_numbers_beyond_the_bounds_are_refused_by_the_api(event: Path) -> None:
    rec = records(event, 1, 1)[0]

    async def steps(client: Clients) -> None:
        c = client("192.0.2.41")
        token = (await c.post("/api/session", json=sign_in_body(*DESKS[0]))).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        for where, value in (("hand_no", HUGE), ("hand_no", 1000), ("table", 1000)):
            body = {"round": 1, "table": 1, "hand_no": 1, "record": rec, where: value}
            r = await c.post("/api/hands", json=body, headers=auth)
            assert r.status_code == 400, r.text
            err = r.json()["error"]
            assert (err["field"], err["code"], err["params"]["max"]) == (where, "bad_count", 999)
        r = await c.get("/api/hands", params={"table": 1000})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_count"
        r = await c.get("/api/hands/next", params={"round": 1, "table": 1000})
        assert r.status_code == 400

    in_process(event, steps)
    with Tournament.open(event, backup_every=0) as t:
        assert t.hands.list() == []


@pytest.mark.parametrize("timeout", ["nan", "NaN", "inf", "-inf", "-1", "61", "1e309", "abc",
                                     "", "0x10", "1" * 40])
def test_a_long_poll_waits_a_finite_0_to_60_seconds(event: Path, timeout: str) -> None:
    async def steps(client: Clients) -> httpx.Response:
        return await client("192.0.2.42").get("/api/changes",
                                               params={"since": 0, "timeout": timeout})

    r = in_process(event, steps)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_wait"
    assert r.json()["error"]["field"] == "timeout"


def test_a_long_poll_within_bounds_answers(event: Path) -> None:
    async def steps(client: Clients) -> list[httpx.Response]:
        c = client("192.0.2.43")
        return [await c.get("/api/changes", params={"since": s, "timeout": w})
                for s, w in (("-1", "0"), ("0", "0.05"), ("x", "1"), ("9" * 30, "1"))]

    ok, waited, bad, huge = in_process(event, steps)
    assert ok.status_code == 200 and waited.status_code == 200
    assert bad.json()["error"]["code"] == huge.json()["error"]["code"] == "bad_revision"


def test_progress_of_a_file_with_hand_2_63_is_served_at_once(event: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """A file saved before the bound with hand number 2^63-1: /progress and the API's
    progress are answered at once with one run of missing numbers (the server used to
    grow to 3.2 GB listing them, after every restart again)."""
    rec = records(event, 1, 1)[0]
    with Tournament.open(event, backup_every=0) as t, monkeypatch.context() as m:
        m.setattr(checks, "MAX_HAND_NO", checks.MAX_INT)
        t.referees.sign_in(*DESKS[0])
        t.hands.add(rec, round=1, table=1, hand_no=HUGE)

    async def steps(client: Clients) -> tuple[httpx.Response, httpx.Response, float]:
        c = client("192.0.2.44")
        t0 = time.perf_counter()
        api = await c.get("/api/rounds/1/progress")
        page = await c.get("/progress")
        return api, page, time.perf_counter() - t0

    api, page, took = in_process(event, steps)
    assert api.status_code == 200 and page.status_code == 200 and took < 5
    table = api.json()["tables"][0]
    assert table["gaps"] == [[1, HUGE - 1]] and table["missing"] == HUGE - 1
    assert f"1-{HUGE - 1}" in page.text and len(page.text) < 100_000


# --------------------------------------------------------------------------- verification


def test_the_api_refuses_a_referee_verifying_their_own_hand(event: Path) -> None:
    rec = records(event, 1, 1)[0]

    async def steps(client: Clients) -> None:
        c = client("192.0.2.45")
        tokens = {}
        for name, pin in DESKS[:2]:
            r = await c.post("/api/session", json=sign_in_body(name, pin))
            tokens[name] = {"Authorization": f"Bearer {r.json()['token']}"}
        first, second = (n for n, _ in DESKS[:2])
        r = await c.post("/api/hands", headers=tokens[first],
                         json={"round": 1, "table": 1, "hand_no": 1, "record": rec})
        hid = r.json()["id"]
        r = await c.post(f"/api/hands/{hid}/verify", headers=tokens[first])
        assert r.status_code == 403
        assert r.json()["error"]["code"] == "verify_own_hand"
        assert r.json()["error"]["params"] == {"name": first, "hand_id": hid}
        r = await c.post(f"/api/hands/{hid}/verify", headers=tokens[second])
        assert r.status_code == 200 and r.json()["hand"]["status"] == "verified"

    in_process(event, steps)


# --------------------------------------------------------------------------- faults


class Faulty(httpx.HTTPTransport):
    """Forwards to the server, but answers POST /api/hands itself with ``status`` while
    ``fault`` is set (a fault of the server: disk full, a bug, a proxy in between)."""

    def __init__(self) -> None:
        super().__init__()
        self.fault: int | None = None

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.fault is not None and request.method == "POST" and \
                request.url.path == "/api/hands":
            body = {"error": {"field": "server", "problem": "internal error (OSError)"}}
            return httpx.Response(self.fault, json=body, request=request)
        return super().handle_request(request)


@pytest.mark.slow  # a real server process
@pytest.mark.parametrize("status", [500, 502, 503, 507])
def test_a_server_fault_keeps_the_hand_in_the_outbox(event: Path, tmp_path: Path,
                                                     status: int) -> None:
    """Any 5xx is the server failing now, never a refusal of the hand: it stays in the
    outbox and the next send saves it (the keys live in the database: no side file)."""
    rec = records(event, 1, 2)
    s = ServerProcess(event).start()
    faulty = Faulty()
    c = DeskClient(s.url, tmp_path / "outbox", transport=faulty, reauth=lambda: DESKS[0])
    try:
        c.sign_in(*DESKS[0])
        faulty.fault = status
        r = c.add_hand(rec[0], round=1, table=1, hand_no=1)
        assert r.queued and len(c.waiting()) == 1 and not c.conflicts()
        assert "internal error" in r.problem
        assert c.flush().waiting == 1  # still failing: still waiting
        faulty.fault = None
        while c.busy():  # a 503 asked to come back after its Retry-After (1 s)
            time.sleep(0.1)
        rep = c.flush()
        assert rep.waiting == 0 and len(rep.sent) == 1 and not rep.sent[0].replayed
    finally:
        c.close()
        s.stop()
    with Tournament.open(event, backup_every=0) as t:
        assert [(h.table, h.hand_no) for h in t.hands.list()] == [(1, 1)]
        assert t.db.execute("SELECT COUNT(*) FROM hand_keys").fetchone()[0] == 1
    assert not Path(f"{event}.keys").exists()


@pytest.mark.parametrize("err", [errno.ENOSPC, errno.EIO, errno.EDQUOT])
def test_an_os_fault_while_saving_is_a_503(event: Path, monkeypatch: pytest.MonkeyPatch,
                                           err: int) -> None:
    """A fault of the machine outside SQLite (a full disk where the save writes a file) is
    answered 503 with Retry-After, like the database's own faults: never a 500."""
    from referee_app.storage.hands import Hands

    def fails(*args: Any, **kwargs: Any) -> Any:
        raise OSError(err, os.strerror(err))

    monkeypatch.setattr(Hands, "add", fails)
    rec = records(event, 1, 1)[0]

    async def steps(client: Clients) -> httpx.Response:
        c = client("192.0.2.46")
        token = (await c.post("/api/session", json=sign_in_body(*DESKS[0]))).json()["token"]
        return await c.post("/api/hands", headers={"Authorization": f"Bearer {token}"},
                            json={"round": 1, "table": 1, "hand_no": 1, "record": rec})

    r = in_process(event, steps)
    assert r.status_code == 503 and int(r.headers["retry-after"]) >= 1
    assert r.json()["error"]["code"] in ("disk_full", "storage_fault")


def test_rebuilt_errors_of_every_5xx_are_unreachable() -> None:
    from referee_app.server.client import ServerUnreachable, error_from

    for status in (500, 501, 503, 504, 507, 599):
        resp = httpx.Response(status, json={"error": {"field": "db", "problem": "full",
                                                      "code": "disk_full"}})
        assert isinstance(error_from(resp), ServerUnreachable), status
    # a refusal whose message is no class's keeps its code: the desk says it in 中文 too
    resp = httpx.Response(429, json={"error": {
        "field": "referee", "problem": "钱 is locked after 5 wrong PINs; try again in 9 s",
        "code": "referee_locked", "params": {"name": "钱", "failures": 5, "wait": 9}}})
    err = error_from(resp)
    assert isinstance(err, AuthError) and err.code == "referee_locked"
    assert err.text("zh") == "钱 连续 5 次 PIN 码错误，已被锁定；请 9 秒后再试"
