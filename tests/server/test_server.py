"""``referee-app serve`` against a real server process on 127.0.0.1 (issue 14): sessions,
hands through the API (201/409/422/401/403), head-referee actions, standings equal to the
CLI's, read-only tournaments, cross-origin and size limits, long-poll changes, the results
pages, and that no PIN or token shows up in a page or the server's output."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import DESKS, HEAD, HEAD_PIN, ROOT, ServerProcess, http, make_event, records

from referee_app.core.wording import params_from_data, violation_text
from referee_app.server.client import error_from
from referee_app.storage import HandRuleError, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerProcess, Path]]:
    db = make_event(tmp_path_factory.mktemp("srv") / "event.sqlite")
    s = ServerProcess(db).start()
    yield s, db
    s.stop()


def sign_in(url: str, name: str, pin: str) -> str:
    r = http.post(url + "/api/session", json={"referee": name, "pin": pin})
    assert r.status_code == 201, r.text
    return str(r.json()["token"])


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def broken(rec: dict[str, Any]) -> dict[str, Any]:
    """The record with its first winner holding 11 tiles of three suits (§2.1, §2.4)."""
    b = copy.deepcopy(rec)
    win = next(e for e in b["events"] if e["type"] == "win")
    b["seats"][win["seats"][0]]["concealed"] = "1357m1357p135s"
    return b


def with_win(recs: list[dict[str, Any]]) -> dict[str, Any]:
    return next(r for r in recs if any(e["type"] == "win" for e in r["events"]))


def test_session_tokens_and_pins(served: tuple[ServerProcess, Path]) -> None:
    s, _ = served
    r = http.post(s.url + "/api/session", json={"referee": "钱", "pin": "Wr-9999x"})
    assert r.status_code == 401
    assert r.json()["error"]["field"] == "referee"
    assert "wrong PIN for 钱" in r.json()["error"]["problem"]
    r = http.post(s.url + "/api/session", json={"referee": "钱", "pin": "Qn-1111x"})
    assert r.status_code == 201
    body = r.json()
    assert body["head"] is False and body["referee"] == "钱" and len(body["token"]) >= 40
    head = http.post(s.url + "/api/session", json={"referee": HEAD, "pin": HEAD_PIN}).json()
    assert head["head"] is True and head["token"] != body["token"]
    # a write without a token, with a made-up token, with a signed-out token: 401
    rec = records(served[1], 4, 1, seed=9)[0]
    hand = {"round": 1, "table": 4, "hand_no": 90, "record": rec}
    for headers in ({}, auth("x" * 43)):
        r = http.post(s.url + "/api/hands", json=hand, headers=headers)
        assert r.status_code == 401 and r.json()["error"]["field"] == "token"
    tok = sign_in(s.url, "孙", "Sn-2222x")
    assert http.request("DELETE", s.url + "/api/session", headers=auth(tok)).status_code == 200
    assert http.post(s.url + "/api/hands", json=hand, headers=auth(tok)).status_code == 401
    # bodies that are not what the API reads: one clear line each
    r = http.post(s.url + "/api/session", content=b"[1]")
    assert r.status_code == 400 and "JSON object" in r.json()["error"]["problem"]
    r = http.post(s.url + "/api/session", json={"referee": "钱"})
    assert r.status_code == 400 and r.json()["error"]["field"] == "pin"


def test_hands_through_the_api(served: tuple[ServerProcess, Path]) -> None:
    s, db = served
    desk, head = sign_in(s.url, "钱", "Qn-1111x"), sign_in(s.url, HEAD, HEAD_PIN)
    recs = records(db, 2, 3, seed=1)
    r = http.post(s.url + "/api/hands", json={"round": 1, "table": 2, "hand_no": 1,
                                              "record": recs[0]}, headers=auth(desk))
    assert r.status_code == 201, r.text
    hid = r.json()["id"]
    assert r.json()["settlement"]["ok"] is True
    assert sum(r.json()["settlement"]["totals"].values()) == 0
    # the same number again: 409, nothing written
    r = http.post(s.url + "/api/hands", json={"round": 1, "table": 2, "hand_no": 1,
                                              "record": recs[1]}, headers=auth(desk))
    assert r.status_code == 409 and r.json()["error"]["field"] == "hand_no"
    assert r.json()["error"]["code"] == "duplicate_hand"
    # a record that breaks the rules: 422 with every violation and its clause
    r = http.post(s.url + "/api/hands", json={"round": 1, "table": 2, "hand_no": 2,
                                              "record": broken(with_win(recs))},
                  headers=auth(desk))
    assert r.status_code == 422 and r.json()["error"]["code"] == "hand_rule"
    clauses = {v["clause"] for v in r.json()["error"]["violations"]}
    assert {"§2.1", "§2.4"} <= clauses
    # each violation carries its code and params beside the English (issue 22), and the
    # desk's client rebuilds them from the codes: said in 中文 without reading the English
    body = r.json()["error"]
    assert all(v["code"] and isinstance(v["params"], dict) and v["message"]
               for v in body["violations"])
    err = error_from(r)
    assert isinstance(err, HandRuleError) and err.message_code == "hand_rule"
    assert [v.code for v in err.violations] == [v["code"] for v in body["violations"]]
    zh = [violation_text(v.code, v.params, "zh") for v in err.violations]
    assert zh == [violation_text(v["code"], params_from_data(v["params"]), "zh")
                  for v in body["violations"]]
    assert all(re.search("[\u4e00-\u9fff]", z) for z in zh)
    said = err.text("zh")  # the refusal and each rule in it, in 中文
    assert err.text("en") == body["problem"] and said.startswith("违反规则（")
    assert all(z in said for z in zh)
    # a player not seated at that table: 400 naming the seat
    wrong = copy.deepcopy(recs[1])
    wrong["seats"]["E"]["player"] = "nobody"
    r = http.post(s.url + "/api/hands", json={"round": 1, "table": 2, "hand_no": 2,
                                              "record": wrong}, headers=auth(desk))
    assert r.status_code == 400 and r.json()["error"]["field"] == "seats.E.player"
    # verify, amend, void (head only), restore, history
    r = http.post(f"{s.url}/api/hands/{hid}/verify", headers=auth(desk))  # their own
    assert r.status_code == 403 and r.json()["error"]["code"] == "verify_own_hand"
    r = http.post(f"{s.url}/api/hands/{hid}/verify", headers=auth(head))  # a second referee
    assert r.status_code == 200 and r.json()["hand"]["status"] == "verified"
    r = http.post(f"{s.url}/api/hands/{hid}/amend", headers=auth(desk),
                  json={"record": recs[1], "reason": "wrong tiles"})
    assert r.status_code == 403 and "head referee" in r.json()["error"]["problem"]
    r = http.post(f"{s.url}/api/hands/{hid}/amend", headers=auth(head),
                  json={"record": recs[1], "reason": "wrong tiles"})
    assert r.status_code == 200 and r.json()["hand"]["version"] == 3
    r = http.post(f"{s.url}/api/hands/{hid}/void", headers=auth(desk), json={"reason": "x"})
    assert r.status_code == 403
    r = http.post(f"{s.url}/api/hands/{hid}/void", headers=auth(head), json={})
    assert r.status_code == 400 and r.json()["error"]["field"] == "reason"
    r = http.post(f"{s.url}/api/hands/{hid}/void", headers=auth(head),
                  json={"reason": "wrong table"})
    assert r.json()["hand"]["status"] == "void"
    r = http.post(f"{s.url}/api/hands/{hid}/restore", headers=auth(head),
                  json={"reason": "it was right"})
    assert r.json()["hand"]["status"] == "entered"
    hist = http.get(f"{s.url}/api/hands/{hid}/history").json()
    assert [v["action"] for v in hist] == ["entered", "status", "amended", "voided", "restored"]
    assert [v["referee"] for v in hist] == ["钱", HEAD, HEAD, HEAD, HEAD]
    listed = http.get(s.url + "/api/hands", params={"round": 1, "table": 2}).json()
    assert [h["id"] for h in listed] == [hid] and "record" not in listed[0]
    assert http.get(f"{s.url}/api/hands/999999").status_code == 404
    assert http.get(f"{s.url}/api/hands/abc").status_code == 404
    r = http.get(s.url + "/api/hands", params={"round": "-1"})
    assert r.status_code == 400 and r.json()["error"]["field"] == "round"
    # penalties: head only
    pen = {"players": ["李伟"], "chips": 5, "reason": "late"}
    assert http.post(s.url + "/api/penalties", json=pen, headers=auth(desk)).status_code == 403
    r = http.post(s.url + "/api/penalties", json=pen, headers=auth(head))
    assert r.status_code == 201 and r.json()["entries"] == {"李伟": -5}
    r = http.post(f"{s.url}/api/penalties/{r.json()['id']}/void", json={"reason": "excused"},
                  headers=auth(head))
    assert r.json()["void"] is True
    # the record holds: verify over the API
    assert http.get(s.url + "/api/record", headers=auth(desk)).json()["ok"] is True


def test_standings_are_the_clis(served: tuple[ServerProcess, Path]) -> None:
    s, db = served
    for params, args in (({}, []), ({"round": 1}, ["--round", "1"]),
                         ({"through": 1}, ["--through", "1"])):
        api = http.get(s.url + "/api/standings", params=params).json()
        cli = subprocess.run([sys.executable, "-m", "referee_app", "standings", "--json",
                              "--db", str(db), *args], capture_output=True, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True)
        assert api == json.loads(cli.stdout)
    seating = http.get(s.url + "/api/rounds/1/seating").json()
    assert sorted(seating["tables"]) == ["1", "2", "3", "4"]
    assert http.get(s.url + "/api/rounds/7/seating").status_code == 404
    assert http.get(s.url + "/api/rounds/7/progress").status_code == 404
    from referee_app.storage import ruleset_store
    rs = http.get(s.url + "/api/ruleset").json()
    assert rs["ruleset"] == "ottawa-2009"
    assert ruleset_store.from_snapshot(rs["document"]).id == "ottawa-2009"
    info = http.get(s.url + "/api/tournament").json()
    assert info["name"] == "Server Open" and info["read_only"] is False
    assert info["seats"] == ["E", "S", "W", "N"]


def test_cross_origin_and_body_limit(served: tuple[ServerProcess, Path]) -> None:
    s, _ = served
    r = http.post(s.url + "/api/session", json={"referee": "钱", "pin": "Qn-1111x"},
                  headers={"Origin": "http://evil.example"})
    assert r.status_code == 403 and r.json()["error"]["field"] == "origin"
    r = http.post(s.url + "/api/session", json={"referee": "钱", "pin": "Qn-1111x"},
                  headers={"Origin": s.url})
    assert r.status_code == 201  # the server's own pages may post
    r = http.post(s.url + "/api/hands", content=b"{" + b" " * 300_000 + b"}",
                  headers={"Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["error"]["field"] == "body"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted while reading
        for _ in range(40):
            yield b" " * 10_000

    r = http.post(s.url + "/api/session", content=chunks())
    assert r.status_code == 413
    page = http.get(s.url + "/")
    assert "access-control-allow-origin" not in page.headers
    assert "default-src 'self'" in page.headers["content-security-policy"]


def test_changes_long_poll_sees_cli_writes_within_a_second(
        served: tuple[ServerProcess, Path]) -> None:
    s, db = served
    rev = http.get(s.url + "/api/tournament").json()["revision"]
    assert http.get(s.url + "/api/changes", params={"since": rev, "timeout": 0.3}).json() == {
        "revision": rev, "every": 1.0}  # an idle server: pages may refresh every second
    got: dict[str, Any] = {}

    def wait() -> None:
        r = http.get(s.url + "/api/changes", params={"since": rev, "timeout": 20}, timeout=30)
        got["revision"], got["at"] = r.json()["revision"], time.monotonic()

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.3)
    rec_file = db.parent / "cli-hand.json"
    rec_file.write_text(json.dumps(records(db, 3, 1, seed=5)[0], ensure_ascii=False),
                        encoding="utf-8")
    cli = subprocess.run([sys.executable, "-m", "referee_app", "hand", "add", str(rec_file),
                          "--round", "1", "--table", "3", "--hand", "1", "--referee", "李",
                          "--db", str(db)], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_PIN": "Li-3333x"})
    done = time.monotonic()
    assert cli.returncode == 0, cli.stderr
    waiter.join(30)
    assert got["revision"] > rev
    assert got["at"] - done < 1.0
    # and the desk's client sees the CLI's hand
    listed = http.get(s.url + "/api/hands", params={"round": 1, "table": 3}).json()
    assert [(h["hand_no"], h["entered_by"]) for h in listed] == [(1, "李")]


def test_results_pages(tmp_path: Path) -> None:
    """On a server of its own with one hand saved (it used to read the hands earlier tests of
    this module saved, and failed when run alone or on another worker)."""
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db).start()
    try:
        token = sign_in(s.url, *DESKS[0])
        rec = with_win(records(db, 1, 4))
        r = http.post(s.url + "/api/hands", json={"round": 1, "table": 1, "hand_no": 1,
                                                  "record": rec}, headers=auth(token))
        assert r.status_code == 201, r.text
        check_results_pages(s)
    finally:
        s.stop()


def check_results_pages(s: ServerProcess) -> None:
    standings = http.get(s.url + "/api/standings").json()
    top = standings[0]
    zh = http.get(s.url + "/?lang=zh").text
    en = http.get(s.url + "/?lang=en").text
    assert "排名" in zh and top["player"] in zh and f'href="/player/{top["player_id"]}' in zh
    assert "Standings" in en and "Chips" in en
    player = http.get(f"{s.url}/player/{top['player_id']}?lang=zh").text
    assert top["player"] in player and "§" in player  # each hand's trace with its clauses
    assert http.get(f"{s.url}/player/99999").status_code == 404
    seats = http.get(s.url + "/api/rounds/1/seating").json()["tables"]["2"]
    found = http.get(s.url + "/seating", params={"q": seats["W"], "lang": "en"}).text
    assert f"{seats['W']}: Table 2, seat W" in found
    assert "Table 2" in http.get(s.url + "/progress?lang=en").text
    proj = http.get(s.url + "/projector?lang=en").text
    assert 'id="projector-rows"' in proj and top["player"] in proj
    assert proj.count('<tr><td>') == len(standings)  # every row: live.js pages what fits
    qr = http.get(s.url + "/qr.png")
    assert qr.headers["content-type"] == "image/png" and qr.content[:8] == b"\x89PNG\r\n\x1a\n"


def test_no_pin_or_token_in_pages_or_output(tmp_path: Path) -> None:
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db).start()
    try:
        token = sign_in(s.url, "钱", "Qn-1111x")
        http.post(s.url + "/api/session", json={"referee": "孙", "pin": "Wr-0000x"})
        rec = records(db, 1, 1)[0]
        http.post(s.url + "/api/hands", json={"round": 1, "table": 1, "hand_no": 1,
                                              "record": rec}, headers=auth(token))
        pages = "".join(http.get(s.url + p).text for p in (
            "/", "/player/1", "/seating", "/progress", "/projector", "/api/tournament",
            "/api/hands/1/history"))
    finally:
        out = s.stop()
    secrets = [token, HEAD_PIN, "Wr-0000x", *(pin for _, pin in DESKS)]
    for secret in secrets:
        assert secret not in pages
        assert secret not in out
    assert "writes need a referee's PIN" in out
    assert not (db.parent / "event.sqlite.keys").exists()  # the keys are in the file
    with Tournament.open(db, backup_every=0) as t:
        keys = t.db.execute("SELECT * FROM hand_keys").fetchall()
    assert all(x not in repr(keys) for x in secrets)


def test_read_only_tournament(tmp_path: Path) -> None:
    db = make_event(tmp_path / "open.sqlite", referees=False)
    with Tournament.open(db, backup_every=0) as t:  # a name that is markup stays text
        t.players.add('<script>alert("x")</script>', name_latin="<b>bold</b>")
    s = ServerProcess(db).start()
    try:
        r = http.post(s.url + "/api/session", json={"referee": "x", "pin": "1234"})
        assert r.status_code == 403 and "read-only" in r.json()["error"]["problem"]
        r = http.post(s.url + "/api/hands", json={})
        assert r.status_code == 403 and "read-only" in r.json()["error"]["problem"]
        assert http.get(s.url + "/api/tournament").json()["read_only"] is True
        page = http.get(s.url + "/").text
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in page
        assert "<script>alert" not in page
        seating = http.get(s.url + "/seating", params={"q": "bold"}).text
        assert "<b>bold</b>" not in seating
    finally:
        out = s.stop()
    assert "READ-ONLY" in out


def test_sign_in_rate_limit_and_lockout(tmp_path: Path) -> None:
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db).start()
    try:
        codes = [http.post(s.url + "/api/session", json={"referee": "周", "pin": "Wr-0000x"}
                           ).status_code for _ in range(5)]
        assert codes == [401] * 5
        r = http.post(s.url + "/api/session", json={"referee": "周", "pin": "Zh-4444x"})
        assert r.status_code == 429 and "locked" in r.json()["error"]["problem"]
        assert r.json()["error"]["code"] == "referee_locked"
        assert 0 < int(r.headers["retry-after"]) <= 300
        codes = [http.post(s.url + "/api/session", json={"referee": "钱", "pin": "Qn-1111x"}
                           ).status_code for _ in range(5)]
        assert codes[:4] == [201] * 4 and codes[4] == 429  # 10 attempts a minute per address
    finally:
        s.stop()


def test_serve_refuses_clearly(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "referee_app", "serve", "--db",
                        str(tmp_path / "none.sqlite")], capture_output=True, text=True, env=env)
    assert r.returncode == 2 and r.stderr.startswith("error: db:")
    assert "Traceback" not in r.stderr
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db).start()
    try:
        r = subprocess.run([sys.executable, "-m", "referee_app", "serve", "--db", str(db),
                            "--port", str(s.port)], capture_output=True, text=True, env=env,
                           timeout=30)
        assert r.returncode == 3 and "cannot listen" in r.stderr
        r = subprocess.run([sys.executable, "-m", "referee_app", "serve", "--db", str(db),
                            "--cert", str(db)], capture_output=True, text=True, env=env)
        assert r.returncode == 2 and "--cert and --key go together" in r.stderr
    finally:
        s.stop()


@pytest.mark.skipif(shutil.which("openssl") is None, reason="openssl is not installed")
def test_tls_with_cert_and_key(tmp_path: Path) -> None:
    """--cert/--key: the API over https; a desk trusting that certificate signs in and saves
    a hand, and a client that does not trust it is refused by TLS."""
    from referee_app.server.client import DeskClient, ServerUnreachable

    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=referee-desk", "-addext", "subjectAltName=IP:127.0.0.1",
                    "-keyout", str(key), "-out", str(cert)], check=True, capture_output=True)
    db = make_event(tmp_path / "event.sqlite")
    s = ServerProcess(db, None, "--cert", str(cert), "--key", str(key), verify=str(cert)).start()
    try:
        assert s.url.startswith("https://")
        with DeskClient(s.url, tmp_path / "outbox", verify=str(cert)) as c:
            c.sign_in(*DESKS[0])
            assert not c.add_hand(records(db, 1, 1)[0], round=1, table=1, hand_no=1).queued
        with DeskClient(s.url) as untrusting, pytest.raises(ServerUnreachable,
                                                            match="certificate is not trusted"):
            untrusting.tournament()
        with pytest.raises(httpx.TransportError):
            http.get(s.url.replace("https", "http") + "/api/tournament", timeout=3)
    finally:
        out = s.stop()
    assert f"https://127.0.0.1:{s.port}/" in out
