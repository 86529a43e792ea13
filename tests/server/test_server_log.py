"""Issue 14: ``GET /api/log`` — the record's chain entries over the API, as
``referee-app log --json`` prints them, and never a PIN, a PIN hash or a token.

In process (httpx over ASGI): the entries equal ``Tournament.record.log`` for the whole log, one
hand and one referee; the whole log needs a signed-in referee, one hand's entries do not
(the same who/when ``/history`` shows); referee additions, PIN changes and a lock-out are in
the log by name only.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner
from server_helpers import DESKS, HEAD, HEAD_PIN, make_event, records

from referee_app.cli import main
from referee_app.server.api import scrub
from referee_app.storage import AuthError, Tournament


def _calls(db: Path, *paths: str, sign_in: tuple[str, str] | None = None
           ) -> tuple[list[httpx.Response], str]:
    """GET each path from the server's app in process (with a token when ``sign_in``)."""
    from referee_app.server.app import create_app

    async def run() -> tuple[list[httpx.Response], str]:
        transport = httpx.ASGITransport(app=create_app(db, backup_every=0))
        async with httpx.AsyncClient(transport=transport, base_url="http://desk") as c:
            headers, token = {}, ""
            if sign_in is not None:
                r = await c.post("/api/session", json={"referee": sign_in[0], "pin": sign_in[1]})
                assert r.status_code == 201, r.text
                token = r.json()["token"]
                headers = {"Authorization": f"Bearer {token}"}
            return [await c.get(p, headers=headers) for p in paths], token

    return asyncio.run(run())


@pytest.fixture
def event(tmp_path: Path) -> tuple[Path, int]:
    """A tournament with a hand entered, verified and voided, a PIN change and a lock-out."""
    db = make_event(tmp_path / "event.sqlite")
    rec = records(db, 1, 1)[0]
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(*DESKS[0])
        h = t.hands.add(rec, round=1, table=1, hand_no=1, referee=DESKS[0][0])
        t.referees.sign_in(*DESKS[1])
        t.hands.set_status(h.id, "verified", referee=DESKS[1][0])
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.hands.void(h.id, reason="wrong table", referee=HEAD)
        t.referees.change_pin(DESKS[2][0], "Nw-5555x", referee=HEAD)
        for _ in range(5):  # from a desk's address: the head desk's own use never locks
            with pytest.raises(AuthError):
                t.referees.sign_in(DESKS[3][0], "wrong", client="192.0.2.7")
    return db, h.id


def test_log_is_the_chain_as_the_cli_prints_it(event: tuple[Path, int]) -> None:
    db, hid = event
    (whole, one, ref), _ = _calls(db, "/api/log", f"/api/log?hand={hid}",
                                  f"/api/log?referee={HEAD}", sign_in=(HEAD, HEAD_PIN))
    assert [r.status_code for r in (whole, one, ref)] == [200, 200, 200]
    with Tournament.open(db, backup_every=0) as t:
        assert whole.json() == t.record.log()
        assert one.json() == t.record.log(hand=hid)
        assert ref.json() == t.record.log(referee=HEAD)
    assert [e["action"] for e in one.json()] == ["hand.add", "hand.status", "hand.voided"]
    actions = {e["action"] for e in whole.json()}
    assert {"referee.add", "referee.pin", "referee.locked"} <= actions
    cli = CliRunner().invoke(main, ["log", "--json", "--db", str(db)])
    assert cli.exit_code == 0, cli.output
    assert json.loads(cli.output) == whole.json()


def test_no_pin_hash_or_token_is_ever_served(event: tuple[Path, int]) -> None:
    db, _ = event
    (whole,), token = _calls(db, "/api/log", sign_in=(HEAD, HEAD_PIN))
    with Tournament.open(db, backup_every=0) as t:
        hashes = [r[0] for r in t.db.execute("SELECT hash FROM pins")]
    assert len(hashes) == 1 + len(DESKS) and all(len(h) > 20 for h in hashes)
    secrets = [*hashes, token, HEAD_PIN, "Nw-5555x", *(pin for _, pin in DESKS)]
    for secret in secrets:
        assert secret not in whole.text
    for e in whole.json():
        assert not {"pin", "pin_hash", "token"} & set(e["detail"])


def test_scrub_drops_secret_keys_at_any_depth() -> None:
    detail: Any = {"name": "钱", "pin_hash": "scrypt$x", "more": [{"token": "t", "ok": 1}],
                   "PIN": "1234"}
    assert scrub(detail) == {"name": "钱", "more": [{"ok": 1}]}


def test_one_hand_needs_no_token_the_whole_log_does(event: tuple[Path, int]) -> None:
    db, hid = event
    (one, whole, bad, long), _ = _calls(db, f"/api/log?hand={hid}", "/api/log",
                                        "/api/log?hand=x", f"/api/log?referee={'x' * 201}")
    assert one.status_code == 200 and len(one.json()) == 3
    assert whole.status_code == 401 and whole.json()["error"]["field"] == "token"
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "hand"
    assert long.status_code == 400 and long.json()["error"]["field"] == "referee"
    (everyone,), _ = _calls(db, f"/api/log?hand={hid}&referee=")  # empty: no filter
    assert everyone.json() == one.json()


def test_a_refusal_of_the_store_names_its_code(event: tuple[Path, int]) -> None:
    """An error the store raised carries its message code and parameters beside field and
    problem (a client renders it in its own language);
    the API's own refusals (a bad query) name theirs too."""
    db, hid = event
    (missing, bad), _ = _calls(db, f"/api/hands/{hid + 1000}", "/api/log?hand=x")
    assert missing.status_code == 404
    assert missing.json()["error"] == {"field": "hand_id", "code": "unknown_hand",
                                       "params": {"hand_id": hid + 1000},
                                       "problem": f"no hand with id {hid + 1000}"}
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "bad_count"


def test_a_read_only_tournament_serves_its_whole_log(tmp_path: Path) -> None:
    db = make_event(tmp_path / "open.sqlite", referees=False, players=4)
    (whole,), _ = _calls(db, "/api/log")
    assert whole.status_code == 200
    with Tournament.open(db, backup_every=0) as t:
        assert whole.json() == t.record.log() and len(whole.json()) >= 2
