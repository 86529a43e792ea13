"""Helpers for the server tests: a tournament with referees, a real server process on a
free loopback port (stopped by its PID), and valid records for a table."""

from __future__ import annotations

import atexit
import os
import random
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from functools import cache
from pathlib import Path
from typing import Any

import certifi
import httpx

ROOT = Path(__file__).resolve().parent.parent
HEAD, HEAD_PIN = "赵建国", "Hd-86q42x"
DESKS = (("钱", "Qn-1111x"), ("孙", "Sn-2222x"), ("李", "Li-3333x"), ("周", "Zh-4444x"))
NAMES_16 = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强",
            "吴昊", "徐静", "马林", "胡波", "郭涛", "何敏", "高飞", "林娜")


def make_event(path: Path, *, referees: bool = True, players: int = 16) -> Path:
    """A tournament of ``players`` seated for round 1 (and, with ``referees``, a head referee
    and four desk referees with PINs), at ``path``: a copy of the one this process built for
    these arguments (six scrypt PIN hashes and a signing key took ~0.4 s CPU a test)."""
    shutil.copyfile(_event_template(referees, players), path)
    return path


@cache
def _event_template(referees: bool, players: int) -> Path:
    """Built once per test process, in a folder of its own (closed: no -wal beside it)."""
    folder = Path(tempfile.mkdtemp(prefix="referee-event-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    path = _build_event(folder / "event.sqlite", referees=referees, players=players)
    assert sorted(p.name for p in folder.iterdir()) == ["event.sqlite"]
    return path


def _build_event(path: Path, *, referees: bool, players: int) -> Path:
    from referee_app.storage import Tournament

    kw: dict[str, Any] = {"head_referee": HEAD, "head_pin": HEAD_PIN} if referees else {}
    with Tournament.create(path, "Server Open", ruleset="ottawa-2009", backup_every=0,
                           **kw) as t:
        if referees:
            t.referees.sign_in(HEAD, HEAD_PIN)
        for i in range(players):
            name = NAMES_16[i] if i < 16 else f"选手{i + 1}"
            t.players.add(name, name_latin=f"Player {i + 1}", club="Ottawa",
                         referee=HEAD if referees else "")
        t.rounds.seat(1, seed=7, referee=HEAD if referees else "")
        if referees:
            for name, pin in DESKS:
                t.referees.add(name, pin=pin, referee=HEAD)
    return path


def records(path: Path, table: int, n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` valid records for ``table`` of round 1 (players named from the seating)."""
    from referee_app.core import get_ruleset, settle
    from referee_app.core.generate import random_record
    from referee_app.core.record import HandRecord
    from referee_app.storage import Tournament

    with Tournament.open(path, backup_every=0) as t:
        seats = t.rounds.seating(1).tables[table]
    rules = get_ruleset("ottawa-2009")
    rng = random.Random(seed * 1000 + table)
    out = []
    while len(out) < n:
        rec = random_record(rng, "ottawa-2009", dealer="E", players=seats)
        if settle(HandRecord.from_dict(rec), rules).ok:
            out.append(rec)
    return out


@cache
def _tls_context() -> ssl.SSLContext:
    """The context httpx makes for ``verify=True`` (certifi's CAs), made once: httpx loads
    the CA bundle afresh for every ``httpx.get``/``httpx.post`` (~45 ms CPU each)."""
    return ssl.create_default_context(cafile=certifi.where())


class _Http:
    """``httpx.get``/``post``/``request`` as they are (a new client and connection for each
    request) but with one TLS context for the whole run unless ``verify`` is given."""

    def request(self, method: str, url: str, **kw: Any) -> httpx.Response:
        kw.setdefault("verify", _tls_context())
        return httpx.request(method, url, **kw)

    def get(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("GET", url, **kw)

    def post(self, url: str, **kw: Any) -> httpx.Response:
        return self.request("POST", url, **kw)


http = _Http()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerProcess:
    """``referee-app serve`` in a child process on 127.0.0.1."""

    def __init__(self, db: Path, port: int | None = None, *extra: str,
                 verify: bool | str = True) -> None:
        self.db, self.port, self.extra = db, port or free_port(), extra
        self.scheme = "https" if "--cert" in extra else "http"
        self.verify = verify
        self.proc: subprocess.Popen[str] | None = None
        self.output = ""

    @property
    def url(self) -> str:
        return f"{self.scheme}://127.0.0.1:{self.port}"

    def start(self, timeout: float = 20.0) -> ServerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "referee_app", "serve", "--db", str(self.db), "--port",
             str(self.port), *self.extra], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            text=True, env=env)
        end = time.monotonic() + timeout
        # one client for the polls (each httpx.get would load the CA bundle again), a new
        # connection each time (no keep-alive held into the test), polled every 20 ms
        verify = _tls_context() if self.verify is True else self.verify
        with httpx.Client(verify=verify, timeout=1,
                          limits=httpx.Limits(max_keepalive_connections=0)) as poll:
            while time.monotonic() < end:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"server exited: {self.proc.stdout.read()}")  # type: ignore[union-attr]
                try:
                    if poll.get(self.url + "/api/tournament").status_code == 200:
                        return self
                except httpx.TransportError:
                    pass
                time.sleep(0.02)
        self.stop()
        raise RuntimeError("server did not start")

    def kill(self) -> None:
        """SIGKILL: the head desk's laptop dies."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> str:
        """SIGTERM (a clean stop, as Ctrl-C) and the server's output."""
        if self.proc is not None:
            if self.proc.poll() is None:
                os.kill(self.proc.pid, signal.SIGTERM)
                try:
                    self.proc.wait(15)
                except subprocess.TimeoutExpired:
                    os.kill(self.proc.pid, signal.SIGKILL)
                    self.proc.wait(5)
            self.output = self.proc.stdout.read() if self.proc.stdout else ""  # type: ignore[union-attr]
        return self.output


class Flaky(httpx.HTTPTransport):
    """A transport that can be switched offline (connect fails) or made to lose the next
    reply to a hand after the server saved it."""

    def __init__(self) -> None:
        super().__init__(verify=_tls_context())
        self.offline = False
        self.lose_next_hand_reply = False

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if self.offline:
            raise httpx.ConnectError("offline", request=request)
        resp = super().handle_request(request)
        if self.lose_next_hand_reply and request.url.path == "/api/hands" and \
                request.method == "POST":
            self.lose_next_hand_reply = False
            resp.read()
            raise httpx.ReadError("connection reset after the save", request=request)
        return resp
