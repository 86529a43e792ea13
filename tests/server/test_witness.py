"""Issue 24: desks and results pages are witnesses of the server's record.

A desk keeps the digests the server gave it (beside its outbox) and checks at each
reconnect that the server's record still passes through them (``GET /api/chain``); when it
does not, the desk stops sending — hands wait in the outbox — and says the record was
rewritten after entry N, until a head referee accepts it. The pages show the digest and
the signing key."""

from __future__ import annotations

import os
import re
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from forgery import forge
from server_helpers import DESKS, HEAD, HEAD_PIN, make_event, records

from referee_app.gui.server_desk import HandQueued, ServerBackend
from referee_app.server.app import create_app
from referee_app.server.client import DeskClient
from referee_app.server.witness import KEEP, Witness, thin
from referee_app.storage import Tournament

with warnings.catch_warnings():  # starlette asks for httpx2, which this project does not use
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


# --------------------------------------------------------------------------- the witness alone

def test_checkpoints_are_thinned_reaching_back_to_the_first() -> None:
    seen: list[tuple[int, str]] = []
    for n in range(1, 500):
        seen = thin([*seen, (n, f"h{n}")])
        assert len(seen) <= KEEP
    seqs = [s for s, _ in seen]
    assert seqs == sorted(seqs) and seqs[0] == 1 and seqs[-KEEP // 2:] == list(
        range(500 - KEEP // 2, 500))


def test_a_witness_keeps_the_heads_and_names_where_the_record_parts(tmp_path: Path) -> None:
    chain = {n: f"{n:064x}" for n in range(1, 41)}
    answers: list[int] = []

    def server(upto: int, rewritten_from: int | None = None) -> Any:
        hashes = {n: (h if rewritten_from is None or n < rewritten_from else "f" * 64)
                  for n, h in chain.items() if n <= upto}

        def hashes_of(seqs: list[int]) -> tuple[int, str, dict[int, str | None]]:
            answers.append(len(seqs))
            return upto, hashes[upto], {s: hashes.get(s) for s in seqs}
        return hashes_of

    w = Witness(tmp_path / "witness.state")
    for upto in (5, 9, 20, 30):
        assert w.check(server(upto)) is None
    assert [s for s, _ in w.seen] == [5, 9, 20, 30]
    assert Witness(tmp_path / "witness.state").seen == w.seen  # a restarted desk has them
    assert w.check(server(40, rewritten_from=25)) == 20  # rewritten after entry 20
    assert w.found == (40, "f" * 64)
    again = Witness(tmp_path / "witness.state")
    assert again.rewritten_after == 20
    n = len(answers)
    assert again.check(server(40)) == 20 and len(answers) == n  # kept until accepted
    again.accept()
    assert again.check(server(40)) is None and again.seen == [(40, chain[40])]
    # cut short (entries removed): rewritten after the last checkpoint it still has
    w = Witness()
    assert w.check(server(30)) is None
    assert w.check(server(12)) == 0


# --------------------------------------------------------------------------- over the API

@pytest.fixture()
def desk(tmp_path: Path) -> Iterator[tuple[ServerBackend, Path, Any]]:
    """A desk over the API served in-process, on a tournament with hands."""
    db = make_event(tmp_path / "event.sqlite")
    recs = records(db, 1, 6, seed=4)
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        for n, rec in enumerate(recs[:3]):
            t.hands.add(rec, round=1, table=1, hand_no=n + 1, referee=HEAD)
    with TestClient(create_app(db, backup_every=0), base_url="http://desk.test") as http:
        yield _desk_on(http, tmp_path), db, http


def _desk_on(http: Any, tmp_path: Path) -> ServerBackend:
    """A desk signed in as the first desk referee, over the API served in-process."""
    client = DeskClient("http://desk.test", tmp_path / "outbox")
    client.http.close()
    client.http = http
    backend = ServerBackend(client)
    backend.referees.sign_in(*DESKS[0])
    return backend


def _rewrite(db: Path, tmp_path: Path, seq: int) -> None:
    """The server's file replaced by a perfect forgery changed from entry ``seq`` on."""
    def change(entries: list[dict[str, Any]]) -> None:
        entries[seq - 1]["at"] = "2000-01-01T00:00:00+00:00"

    forged = tmp_path / "forged.sqlite"
    with Tournament.open(db, backup_every=0) as t:
        t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    forge(db, forged, change, key="keep")
    for suffix in ("-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    os.replace(forged, db)


def test_the_chain_endpoint_answers_hashes_at_entries(desk: Any) -> None:
    backend, db, http = desk
    with Tournament.open(db, backup_every=0) as t:
        n, head = t.record.head()
        two = t.record.hash_at(2)
    r = http.get("/api/chain?seq=2&seq=99999")
    assert r.status_code == 200
    assert r.json() == {"entries": n, "digest": head, "hashes": {"2": two, "99999": None}}
    assert http.get("/api/chain?seq=0").status_code == 400
    assert http.get("/api/chain?seq=x").status_code == 400
    assert http.get("/api/chain?" + "&".join(["seq=1"] * 65)).status_code == 400
    info = http.get("/api/tournament").json()
    assert info["record"]["head"] == head and len(info["record"]["signing_key"]) == 16


def test_a_desk_stops_sending_to_a_rewritten_record(desk: Any, tmp_path: Path) -> None:
    backend, db, http = desk
    client = backend.client
    recs = records(db, 2, 4, seed=9)
    assert client.check_record() is None
    seen_first = client.witness.seen[-1][0]
    backend.hands.add(recs[0], round=1, table=2, hand_no=1)
    assert client.check_record() is None
    seen_second = client.witness.seen[-1][0]
    backend.hands.add(recs[1], round=1, table=2, hand_no=2)
    assert client.check_record() is None
    assert [s for s, _ in client.witness.seen] == [seen_first, seen_second,
                                                   seen_second + 1]
    # someone rewrites the server's file from the entry after the second checkpoint
    _rewrite(db, tmp_path, seen_second + 1)
    client._witness_due = True  # as after a reconnect
    with pytest.raises(HandQueued) as e:
        backend.hands.add(recs[2], round=1, table=2, hand_no=3)
    assert e.value.code == "record_rewritten" and e.value.params == {"after": seen_second}
    assert f"rewritten after entry {seen_second}" in e.value.problem
    assert client.rewritten_after == seen_second
    assert len(client.waiting()) == 1
    assert client.flush().sent == []  # nothing is sent meanwhile
    with Tournament.open(db, backup_every=0) as t:
        assert [h.hand_no for h in t.hands.list(round=1, table=2)] == [1, 2]
    # a desk started again knows it too (kept beside the outbox)
    again = DeskClient("http://desk.test", tmp_path / "outbox")
    assert again.rewritten_after == seen_second
    again.close()
    # the head referee accepts the record as it is: the desk witnesses it afresh and sends
    client.accept_record()
    assert len(client.flush().sent) == 1
    assert client.rewritten_after is None and client.witness.seen
    with Tournament.open(db, backup_every=0) as t:
        assert [h.hand_no for h in t.hands.list(round=1, table=2)] == [1, 2, 3]


def test_the_pages_show_the_digest_and_the_signing_key(desk: Any) -> None:
    backend, db, http = desk
    with Tournament.open(db, backup_every=0) as t:
        n, head = t.record.head()
        short = t.info.signing_key_short
    for path in ("/?lang=en", "/seating?lang=en", "/progress?lang=en", "/player/1?lang=en"):
        page = http.get(path).text
        assert (f'<div id="record" class="record" data-entries="{n}" data-digest="{head[:12]}">'
                f"record {n} entries · {head[:12]} · key {short}</div>") in page, path
        assert 'id="rewritten"' in page
    zh = http.get("/?lang=zh").text
    assert f"记录 {n} 条 · {head[:12]} · 签名密钥 {short}" in zh
    assert "服务器上的记录在第 {n} 条之后被改写过" in zh  # the banner's text, for live.js
    projector = http.get("/projector?lang=en").text
    assert re.search(rf"record {n} entries · {head[:12]} · key {short}", projector)
    # the line follows every revision, though the page's data (the seating) did not change
    assert f"record {n} entries" in http.get("/seating?lang=en").text  # made and kept
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.penalties.add(["李伟"], 1, "noise", referee=HEAD)  # a save that seats no one
        n2, head2 = t.record.head()
    end = time.monotonic() + 5
    while f"record {n2} entries" not in http.get("/seating?lang=en").text \
            and time.monotonic() < end:  # the change watch looks 5 times a second
        time.sleep(0.1)
    again = http.get("/seating?lang=en").text
    assert f"record {n2} entries · {head2[:12]} · key {short}" in again


def test_a_server_without_the_key_keeps_desks_hands_waiting(tmp_path: Path,
                                                            monkeypatch) -> None:
    """A standby serving a copy whose private key it did not import: reads go on, every
    write is a 503 naming `key import`, and a desk's hand waits in its outbox (not a
    refusal, not a conflict) until the key is there."""
    from referee_app.storage import signing

    db = make_event(tmp_path / "event.sqlite")
    recs = records(db, 1, 2, seed=6)
    head_desk = os.environ[signing.KEYS_ENV]
    monkeypatch.setenv(signing.KEYS_ENV, str(tmp_path / "standby-keys"))
    monkeypatch.setattr(signing, "_loaded", {})
    with TestClient(create_app(db, backup_every=0), base_url="http://desk.test") as http:
        backend = _desk_on(http, tmp_path)
        client = backend.client
        assert http.get("/api/standings").status_code == 200
        with pytest.raises(HandQueued) as e:
            backend.hands.add(recs[0], round=1, table=1, hand_no=1)
        assert e.value.code == "key_missing" and "key import" in e.value.problem
        assert len(client.waiting()) == 1 and not client.conflicts()
        token = http.post("/api/session", json={"referee": HEAD, "pin": HEAD_PIN}).json()
        r = http.post("/api/penalties", json={"players": ["李伟"], "chips": 1, "reason": "x"},
                      headers={"Authorization": f"Bearer {token['token']}"})
        assert r.status_code == 503 and r.json()["error"]["code"] == "key_missing"
        # the key is imported on the standby: the waiting hand goes
        monkeypatch.setenv(signing.KEYS_ENV, head_desk)
        monkeypatch.setattr(signing, "_loaded", {})
        end = time.monotonic() + 5
        while client.busy() and time.monotonic() < end:  # the 503's Retry-After
            time.sleep(0.1)
        assert len(client.flush().sent) == 1
