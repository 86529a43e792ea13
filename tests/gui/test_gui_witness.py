"""Issue 24: a server desk that finds the server's record rewritten says so in red, keeps
its hands in the outbox, and sends again only once a head referee accepts the record."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import test_gui_server as desk_tests  # the window on a served event, as those tests make it
from forgery import forge
from server_helpers import HEAD, HEAD_PIN, ServerProcess, records
from test_gui_server import open_window, server_hands, type_hand

from referee_app.gui.i18n import LANG
from referee_app.storage import Tournament

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

#: their fixtures: the event served by a real server process, the watchers stopped after
served = desk_tests.served
_stop_watchers = desk_tests._stop_watchers


def _rewrite_from(db: Path, tmp_path: Path, seq: int) -> None:
    with Tournament.open(db, backup_every=0) as t:
        t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    def change(entries: list[dict[str, Any]]) -> None:
        entries[seq - 1]["at"] = "2000-01-01T00:00:00+00:00"

    forged = tmp_path / "forged.sqlite"
    forge(db, forged, change, key="keep")
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    os.replace(forged, db)


def test_a_rewritten_record_stops_the_desk_with_a_red_banner(qtbot: Any, tmp_path: Path,
                                                            served: ServerProcess) -> None:
    win = open_window(qtbot, served.url, tmp_path / "outbox", watch=False)
    client = win.desk.t.client
    recs = records(served.db, 1, 3)
    type_hand(win, recs[0], 1)
    assert win.save()
    assert client.check_record() is None
    good = client.witness.seen[-1][0]
    assert win.faults.banners.banner("rewritten") is None

    _rewrite_from(served.db, tmp_path, good)  # entry `good` and all after it rewritten
    client._witness_due = True  # as after a reconnect
    assert client.check_record() == good - 1
    win.remote.refresh()
    text = win.faults.banners.texts()["rewritten"]
    assert text.startswith(f"The record on the server was rewritten after entry {good - 1}")
    win.resize(1100, 640)
    win.grab().save(str(tmp_path / "rewritten-en.png"))
    LANG.set("zh")
    assert win.faults.banners.texts()["rewritten"].startswith(
        f"服务器上的记录在第 {good - 1} 条之后被改写过")
    win.grab().save(str(tmp_path / "rewritten-zh.png"))
    LANG.set("en")

    # a hand saved now waits in the outbox: nothing goes to the rewritten record
    type_hand(win, recs[1], 1)
    assert win.save()
    assert "rewritten after entry" in win.messages[-1]
    assert server_hands(served.url, 1) == [1] and win.desk.t.waiting() == 1

    # the head referee accepts the record as it is: the waiting hand is sent
    class Pins:
        def __call__(self, *_: Any) -> tuple[str, str]:
            return HEAD, HEAD_PIN

    asked: list[str] = []
    win.remote.confirm = lambda text, action: asked.append(text) or True
    win.session.ask_pin = Pins()
    assert win.remote.accept_record()
    assert asked[0].startswith("Accept the record on the server as it is now")
    assert win.faults.banners.banner("rewritten") is None
    assert server_hands(served.url, 1) == [1, 2] and win.desk.t.waiting() == 0
    if os.environ.get("REFEREE_SCREENSHOTS"):  # for a person to look at
        for lang in ("en", "zh"):
            png = tmp_path / f"rewritten-{lang}.png"
            Path(os.environ["REFEREE_SCREENSHOTS"], png.name).write_bytes(png.read_bytes())
