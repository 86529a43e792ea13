"""An overloaded server's 503 seen from a desk: the hand is kept in the outbox and sent
again after ``Retry-After`` — never refused, never doubled (issue 23). The server runs in
this process (uvicorn on a thread, 127.0.0.1, a free port) so its write queue can be filled
for real: with ``WRITE_QUEUE`` at 0 every save is answered 503 by the server's own code."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import uvicorn
from server_helpers import DESKS, free_port, http, make_event, records

from referee_app.server import state as state_mod
from referee_app.server.app import create_app
from referee_app.server.client import DeskClient
from referee_app.server.remote import HandQueued, RemoteTournament
from referee_app.storage import Tournament

pytestmark = pytest.mark.slow  # a real server (in this process)


@contextlib.contextmanager
def served(db: Path) -> Iterator[str]:
    """The server of ``db`` on a thread of this process; its address."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(db, backup_every=0), host="127.0.0.1",
                                           port=port, log_level="warning"))
    th = threading.Thread(target=server.run, daemon=True)
    th.start()
    end = time.monotonic() + 20
    while not server.started and time.monotonic() < end:
        time.sleep(0.02)
    assert server.started, "the server did not start"
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        th.join(15)


def test_a_busy_server_keeps_the_hand_in_the_outbox_until_retry_after(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = make_event(tmp_path / "e.sqlite")
    recs = records(db, 1, 2)
    with served(db) as url, DeskClient(url, tmp_path / "outbox") as client:
        client.sign_in(*DESKS[0])
        monkeypatch.setattr(state_mod, "WRITE_QUEUE", 0)  # every save: 503, Retry-After: 1
        first = client.add_hand(recs[0], round=1, table=1, hand_no=1)
        assert first.queued and "busy" in first.problem
        assert [i.hand_no for i in client.waiting()] == [1] and client.conflicts() == []
        # the desk's other way in (the window's backend): the hand waits, it is not refused
        desk = RemoteTournament(client)
        with pytest.raises(HandQueued):
            desk.hands.add(recs[1], round=1, table=1, hand_no=2)
        assert [i.hand_no for i in client.waiting()] == [1, 2]
        # the server is not asked again before the time it gave, even when it has room
        monkeypatch.setattr(state_mod, "WRITE_QUEUE", 64)
        early = client.flush()
        assert early.sent == [] and early.waiting == 2 and "busy" in early.problem
        time.sleep(1.1)
        late = client.flush()
        assert len(late.sent) == 2 and late.waiting == 0 and late.conflicts == []
    with Tournament.open(db, backup_every=0) as t:
        assert sorted(h.hand_no for h in t.hands.list()) == [1, 2]  # each once
        t.record.verify()


def test_a_backup_restored_while_serving_is_what_the_pages_show(tmp_path: Path) -> None:
    """Pages kept for the record as it was are not served for a backup restored meanwhile
    (its revision may be lower, or even the same as the kept pages')."""
    from server_helpers import HEAD, HEAD_PIN

    db = make_event(tmp_path / "e.sqlite")
    with Tournament.open(db, backup_every=0) as t:
        t.backups.write()
    with served(db) as url:
        def page() -> str:
            time.sleep(0.6)  # the change watch looks every 0.2 s
            return http.get(url + "/?lang=en").text

        assert "Latecomer" not in page()
        with Tournament.open(db, backup_every=0) as t:
            t.referees.sign_in(HEAD, HEAD_PIN)
            t.players.add("Latecomer", referee=HEAD)
        assert "Latecomer" in page()
        Tournament.restore_backup(db, 1, referee=HEAD, pin=HEAD_PIN)
        assert "Latecomer" not in page()
