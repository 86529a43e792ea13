"""Server pieces without a server: tokens expire and are kept only as digests, sign-in
rate limit, the outbox's atomic files and order, API errors mapped back to storage
errors, and the QR code helper."""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import pytest

from referee_app.server.auth import RateLimiter, SessionStore
from referee_app.server.client import ServerUnreachable, error_from
from referee_app.server.outbox import CONFLICT, Outbox
from referee_app.server.qr import results_qr_png, results_qr_svg
from referee_app.storage import (
    AuthError,
    DuplicateHandError,
    HandChangedError,
    HandRuleError,
    SeatMismatchError,
    UnknownHandError,
    UnknownPlayerError,
)


def test_tokens_expire_and_are_not_kept_in_clear() -> None:
    store = SessionStore(ttl=0.3)
    token, s = store.issue("钱", False)
    assert store.get(token) == s and s.referee == "钱"
    assert token not in repr(store._sessions)  # only digests are held
    assert store.get(token + "x") is None and store.get("") is None
    time.sleep(0.35)
    assert store.get(token) is None
    t2, _ = store.issue("孙", True)
    assert store.revoke(t2) and store.get(t2) is None


def test_rate_limiter_per_address() -> None:
    rl = RateLimiter(limit=3, window=0.3)
    assert [rl.hit("a") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert rl.hit("a") > 0 and rl.hit("b") == 0.0
    time.sleep(0.32)
    assert rl.hit("a") == 0.0


def test_outbox_files_are_whole_and_ordered(tmp_path: Path) -> None:
    box = Outbox(tmp_path / "out")
    items = [box.new_item(round=1, table=1, hand_no=n, record={"n": n}, referee="钱")
             for n in (3, 1, 2)]
    assert [i.hand_no for i in box.waiting()] == [3, 1, 2]  # the order they were saved in
    assert not list((tmp_path / "out").glob(".*tmp"))  # no temporary file left behind
    c = box.update(items[0], state=CONFLICT, problem="taken", error_field="hand_no")
    assert [i.hand_no for i in box.waiting()] == [1, 2] and box.conflicts() == [c]
    renamed = box.update(c, key=box.new_key(), state="waiting")
    assert box.get(c.key) is None and box.get(renamed.key).hand_no == 3  # type: ignore[union-attr]
    assert [i.hand_no for i in box.waiting()] == [3, 1, 2]  # it keeps its place
    box.move(items[1].key, "sent")
    assert [i.hand_no for i in box.waiting()] == [3, 2]
    assert json.loads(next((tmp_path / "out" / "sent").glob("*.json")).read_text())["hand_no"] == 1
    (tmp_path / "out" / "00000000000000000000-broken.json").write_text("{", encoding="utf-8")
    assert len(box.items()) == 2 and [p.name for p in box.damaged] == [
        "00000000000000000000-broken.json"]


@pytest.mark.parametrize("status,body,kind", [
    (422, {"error": {"field": "record", "problem": "breaks", "violations": [
        {"clause": "§2.4", "seat": "E", "message": "false win"}]}}, HandRuleError),
    (409, {"error": {"field": "hand_no", "problem": "taken"}}, DuplicateHandError),
    (401, {"error": {"field": "token", "problem": "sign in"}}, AuthError),
    (403, {"error": {"field": "referee", "problem": "head only"}}, AuthError),
    (404, {"error": {"field": "hand_id", "problem": "no hand"}}, UnknownHandError),
    (503, {"error": {"field": "db", "problem": "busy"}}, ServerUnreachable),
])
def test_api_errors_become_storage_errors(status: int, body: dict, kind: type) -> None:
    err = error_from(httpx.Response(status, json=body))
    assert type(err) is kind
    assert (err.field, err.problem) == (body["error"]["field"], body["error"]["problem"])
    if kind is HandRuleError:
        v = err.violations[0]  # type: ignore[attr-defined]
        assert (v.clause, v.seat, v.message) == ("§2.4", "E", "false win")


def test_error_without_json_body_still_one_line() -> None:
    err = error_from(httpx.Response(500, text="<html>oops</html>"))
    assert err.field == "server" and "500" in err.problem


def test_results_qr() -> None:
    png = results_qr_png("http://192.168.1.10:8787/")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    longer = results_qr_png("http://192.168.1.10:8787/" + "x" * 200)
    assert len(longer) > len(png)  # a longer address needs a bigger symbol
    assert results_qr_svg("http://a/").lstrip().startswith("<svg")
    with pytest.raises(ValueError):
        results_qr_png("")


def test_a_desk_must_sign_in_before_saving(tmp_path: Path) -> None:
    from referee_app.server.client import DeskClient

    with DeskClient("http://127.0.0.1:9", tmp_path / "out") as c, \
            pytest.raises(AuthError, match="sign in"):
        c.add_hand({"format": "sichuan-hand/1"}, round=1, table=1, hand_no=1)
    assert not list((tmp_path / "out").glob("*.json"))


def test_a_worker_reopens_the_file_after_a_restore_elsewhere(tmp_path: Path) -> None:
    """The server keeps a connection per worker thread; a backup restored with the CLI
    meanwhile must be what the next request reads and writes, not the copy set aside."""
    from server_helpers import HEAD, HEAD_PIN, make_event

    from referee_app.server.state import ServerState
    from referee_app.storage import Tournament

    path = make_event(tmp_path / "s.sqlite")
    with Tournament.open(path, backup_every=0) as t:
        t.backups.write()
    state = ServerState(path, backup_every=0)
    first = state.tournament()
    assert state.tournament() is first
    with Tournament.open(path, backup_every=0) as t:  # a change after the backup
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.players.add("Late", referee=HEAD)
    assert len(first.players.list()) == 17
    Tournament.restore_backup(path, 1, referee=HEAD, pin=HEAD_PIN)
    again = state.tournament()
    assert again is not first and not again.replaced()
    assert len(again.players.list()) == 16  # the restored record
    again.close()


def test_the_server_backs_up_a_write_when_the_newest_backup_is_old(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server backed up every 25 writes (and on stopping): a quiet afternoon of a few
    hands went hours with no backup of them. A write now starts one when the newest backup
    is over ten minutes old (looked at once every STALE_CHECK seconds: here at every write)."""
    import os

    from referee_app.server import state as state_mod

    monkeypatch.setattr(state_mod, "STALE_CHECK", 0.0)

    from server_helpers import HEAD, HEAD_PIN, make_event

    from referee_app.server.state import ServerState
    from referee_app.storage import Tournament, backup_log
    from referee_app.storage.backup_files import list_logs

    def points() -> list[backup_log.Point]:
        return backup_log.read_points(list_logs(path)[-1])[0]

    path = make_event(tmp_path / "s.sqlite")
    with Tournament.open(path, backup_every=0) as t:
        t.backups.write()
    state = ServerState(path, backup_every=25)
    t = state.tournament()
    t.referees.sign_in(HEAD, HEAD_PIN)
    t.players.add("Early", referee=HEAD)
    state._count_write()
    time.sleep(0.3)
    assert len(points()) == 1  # a fresh backup: wait for 25 writes
    old = list_logs(path)[-1].stat().st_mtime - 601
    os.utime(list_logs(path)[-1], (old, old))
    t.players.add("Late", referee=HEAD)
    state._count_write()
    for _ in range(100):
        if len(points()) == 2:
            break
        time.sleep(0.05)
    assert Tournament.backup_list(path)[0].hands == 0
    backup_log.materialise(points()[-1], tmp_path / "newest.sqlite")
    with Tournament.open(tmp_path / "newest.sqlite", backup_every=0) as b:
        assert "Late" in {p.name for p in b.players.list()}
    t.close()


def test_a_fault_on_the_server_keeps_the_desks_hand_waiting(tmp_path: Path,
                                                            monkeypatch) -> None:
    """A save that met a fault outside the request (the file replaced by a restore at that
    instant, busy beyond the wait, disk full) answered 400: the desk took it as a refusal
    and dropped the hand from its outbox. It is now 503 with Retry-After, which the desk
    reads as "try again" (the hand stays waiting); the next request reopens the file."""
    import asyncio

    from server_helpers import DESKS, make_event, records

    from referee_app.server.app import create_app
    from referee_app.storage import FileReplacedError
    from referee_app.storage.store import Store

    db = make_event(tmp_path / "event.sqlite")
    rec = records(db, 1, 1)[0]
    real = Store.check_same_file
    faults = [FileReplacedError("db", f"{db} was replaced since it was opened here")]

    def once(self):  # a restore elsewhere, between the reopen check and the save
        if faults:
            raise faults.pop()
        return real(self)

    monkeypatch.setattr(Store, "check_same_file", once)
    body = {"round": 1, "table": 1, "hand_no": 1, "record": rec}

    async def run() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=create_app(db, backup_every=0))
        async with httpx.AsyncClient(transport=transport, base_url="http://desk") as c:
            r = await c.post("/api/session", json={"referee": DESKS[0][0], "pin": DESKS[0][1]})
            headers = {"Authorization": f"Bearer {r.json()['token']}"}
            return [await c.post("/api/hands", json=body, headers=headers) for _ in range(2)]

    first, second = asyncio.run(run())
    assert first.status_code == 503 and first.headers.get("Retry-After") == "1", first.text
    assert isinstance(error_from(first), ServerUnreachable)  # the desk keeps it waiting
    assert second.status_code in (200, 201), second.text


def test_errors_are_rebuilt_from_their_code_not_their_sentence() -> None:
    changed = error_from(httpx.Response(409, json={"error": {
        "field": "hand_id", "problem": "any wording", "code": "hand_changed",
        "params": {"hand_id": 7, "expected": 2, "current": 3}}}))
    assert type(changed) is HandChangedError
    assert (changed.hand_id, changed.expected, changed.current) == (7, 2, 3)
    assert changed.problem == "any wording" and changed.code == "hand_changed"
    seat = error_from(httpx.Response(400, json={"error": {
        "field": "record", "problem": "seats", "code": "seat_mismatch"}}))
    assert type(seat) is SeatMismatchError
    player = error_from(httpx.Response(404, json={"error": {
        "field": "player", "problem": "no such", "code": "unknown_player"}}))
    assert type(player) is UnknownPlayerError
    # a fault of the server's file is still "unreachable" for the desk: the hand waits
    busy = error_from(httpx.Response(503, json={"error": {
        "field": "db", "problem": "busy", "code": "busy"}}))
    assert type(busy) is ServerUnreachable


@pytest.mark.parametrize("worked,every", [
    ([], 1.0),                       # idle: a page refreshes at most every second
    ([0.2], 1.0),                    # 10 % busy over the window: no change
    ([0.25, 0.25], 1.0),             # exactly PACE_BUSY
    ([0.5, 0.5], 2.0),               # half the time making pages: twice as long
    ([0.5] * 3, 3.0),
    ([1.0] * 4, 5.0),                # fully busy (and more): at most PACE_MAX
])
def test_pages_are_paced_by_how_busy_the_results_worker_was(worked: list[float],
                                                            every: float) -> None:
    from referee_app.server.watch import PACE_MAX, PACE_WINDOW, Pace

    pace = Pace()
    for d in worked:
        pace.worked(d, now=100.0)
    assert pace.every(now=100.0) == every <= PACE_MAX
    # work older than the window no longer counts
    assert pace.every(now=100.0 + PACE_WINDOW + 0.01) == 1.0


def test_full_collections_are_rarer_while_serving_and_as_before_after(tmp_path: Path) -> None:
    """A full collection stops every thread for 100-150 ms at an event's size: while the
    server runs, one at most in 50 of the generation below (Python's default: 10); the
    interpreter's own settings come back when it stops (and the switch interval with them)."""
    import gc
    import sys
    import warnings

    from server_helpers import make_event

    with warnings.catch_warnings():  # starlette's note on httpx; the client works as it is
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from referee_app.server.app import GC_THRESHOLDS, SWITCH_INTERVAL, create_app

    before = gc.get_threshold(), sys.getswitchinterval()
    assert before[0] != GC_THRESHOLDS
    db = make_event(tmp_path / "event.sqlite")
    with TestClient(create_app(db, backup_every=0)) as client:
        assert client.get("/").status_code == 200
        assert gc.get_threshold() == GC_THRESHOLDS and GC_THRESHOLDS[2] > before[0][2]
        assert sys.getswitchinterval() == pytest.approx(SWITCH_INTERVAL)
    assert (gc.get_threshold(), sys.getswitchinterval()) == before
