"""Several desks on one server (issue 14): 4 desks x 100 hands at once, the server killed
with SIGKILL mid-run and restarted (outboxes resend: nothing lost, nothing doubled), a
reply lost after the save, a hand number taken while a desk was offline (a conflict kept
for the referee), and a desk client and the CLI seeing each other's writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from server_helpers import (
    DESKS,
    HEAD,
    HEAD_PIN,
    ROOT,
    Flaky,
    ServerProcess,
    http,
    make_event,
    records,
)

from referee_app.server.client import DeskClient, ServerUnreachable
from referee_app.storage import DuplicateHandError, HandRuleError, Tournament

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]


def saved_hands(db: Path) -> list[tuple[int, int, int]]:
    with Tournament.open(db, backup_every=0) as t:
        return [(h.round, h.table, h.hand_no) for h in t.hands.list()]


def verify_ok(db: Path) -> int:
    with Tournament.open(db, backup_every=0) as t:
        return t.record.verify().entries


def test_four_desks_at_once(tmp_path: Path) -> None:
    """4 desks x 100 hands concurrently: 400/400 saved, no duplicate, the record verifies."""
    db = make_event(tmp_path / "event.sqlite")
    per_desk = 100
    recs = {i + 1: records(db, i + 1, per_desk, seed=i) for i in range(4)}
    s = ServerProcess(db).start()
    errors: list[BaseException] = []
    results: dict[int, list[Any]] = {}

    def desk(i: int) -> None:
        name, pin = DESKS[i]
        table = i + 1
        try:
            with DeskClient(s.url, tmp_path / f"outbox{table}") as c:
                c.sign_in(name, pin)
                results[table] = [c.add_hand(rec, round=1, table=table, hand_no=n + 1)
                                  for n, rec in enumerate(recs[table])]
        except BaseException as e:
            errors.append(e)

    t0 = time.perf_counter()
    threads = [threading.Thread(target=desk, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    elapsed = time.perf_counter() - t0
    try:
        assert not errors, errors
        hands = http.get(s.url + "/api/hands").json()
    finally:
        s.stop()
    assert all(not r.queued and r.id for rs in results.values() for r in rs)
    keys = [(h["round"], h["table"], h["hand_no"]) for h in hands]
    assert len(keys) == 4 * per_desk and len(set(keys)) == len(keys)
    for table in range(1, 5):
        assert sorted(k[2] for k in keys if k[1] == table) == list(range(1, per_desk + 1))
        assert not list((tmp_path / f"outbox{table}").glob("*.json"))
        assert len(list((tmp_path / f"outbox{table}" / "sent").glob("*.json"))) == per_desk
    assert sorted(keys) == sorted(saved_hands(db))
    assert verify_ok(db) > 4 * per_desk
    print(f"4 desks x {per_desk} hands: {elapsed:.1f} s")


def test_server_killed_mid_run_outboxes_resend(tmp_path: Path) -> None:
    """SIGKILL the server while 4 desks are saving, restart it: the hands that waited in the
    outboxes are sent, none is lost and none is doubled."""
    db = make_event(tmp_path / "event.sqlite")
    per_desk = 25
    recs = {i + 1: records(db, i + 1, per_desk, seed=10 + i) for i in range(4)}
    s = ServerProcess(db).start()
    port = s.port
    given = Counter[str]()
    lock = threading.Lock()
    errors: list[BaseException] = []
    clients: dict[int, DeskClient] = {}
    killed = threading.Event()

    def desk(i: int) -> None:
        name, pin = DESKS[i]
        table = i + 1
        c = DeskClient(s.url, tmp_path / f"outbox{table}", timeout=3,
                       reauth=lambda: (name, pin))
        clients[table] = c
        try:
            c.sign_in(name, pin)
            c.ruleset()
            for n, rec in enumerate(recs[table]):
                r = c.add_hand(rec, round=1, table=table, hand_no=n + 1)
                with lock:
                    given["queued" if r.queued else "saved"] += 1
                time.sleep(0.01)
        except BaseException as e:
            errors.append(e)

    def killer() -> None:
        while True:
            with lock:
                if given["saved"] >= 30:
                    break
            time.sleep(0.005)
        s.kill()
        killed.set()
        time.sleep(1.5)

    kt = threading.Thread(target=killer)
    kt.start()
    threads = [threading.Thread(target=desk, args=(i,)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    kt.join(60)
    assert not errors, errors
    assert killed.is_set() and given["queued"] > 0  # hands did wait in the outboxes
    waiting = sum(len(c.waiting()) for c in clients.values())
    assert waiting == given["queued"] or waiting >= 1
    s2 = ServerProcess(db, port).start()
    try:
        reports = [c.flush() for c in clients.values()]
        assert all(r.waiting == 0 and not r.conflicts for r in reports), reports
    finally:
        s2.stop()
        for c in clients.values():
            c.close()
    keys = saved_hands(db)
    assert len(keys) == 4 * per_desk and len(set(keys)) == len(keys)  # 0 lost, 0 doubled
    for table in range(1, 5):
        assert sorted(k[2] for k in keys if k[1] == table) == list(range(1, per_desk + 1))
    verify_ok(db)


def test_lost_reply_is_not_doubled_even_across_a_restart(tmp_path: Path) -> None:
    db = make_event(tmp_path / "event.sqlite")
    recs = records(db, 1, 3, seed=3)
    s = ServerProcess(db).start()
    flaky = Flaky()
    c = DeskClient(s.url, tmp_path / "outbox", transport=flaky,
                   reauth=lambda: DESKS[0])
    try:
        c.sign_in(*DESKS[0])
        flaky.lose_next_hand_reply = True
        r = c.add_hand(recs[0], round=1, table=1, hand_no=1)
        assert r.queued and len(c.waiting()) == 1  # saved on the server, reply lost
        rep = c.flush()
        assert [x.replayed for x in rep.sent] == [True] and rep.waiting == 0
        # again, but the server dies before the resend: the key is on disk beside the db
        flaky.lose_next_hand_reply = True
        assert c.add_hand(recs[1], round=1, table=1, hand_no=2).queued
        s.kill()
        s = ServerProcess(db, s.port).start()
        rep = c.flush()  # the token is gone with the old process: reauth signs in again
        assert [x.replayed for x in rep.sent] == [True] and rep.waiting == 0
        # the same key with another hand is refused, never taken as a replay
        key = rep.sent[0].key
        resp = http.post(s.url + "/api/hands", headers={
            "Idempotency-Key": key, "Authorization": f"Bearer {c.session.token}"},
            json={"round": 1, "table": 1, "hand_no": 3, "record": recs[2]})
        assert resp.status_code == 409 and resp.json()["error"]["field"] == "idempotency_key"
        # re-entering a saved hand by hand (a new key) is a plain 409
        with pytest.raises(DuplicateHandError):
            c.add_hand(recs[0], round=1, table=1, hand_no=1)
    finally:
        c.close()
        s.stop()
    assert saved_hands(db) == [(1, 1, 1), (1, 1, 2)]


def test_conflict_while_offline_is_kept_for_the_referee(tmp_path: Path) -> None:
    db = make_event(tmp_path / "event.sqlite")
    recs = records(db, 2, 4, seed=4)
    s = ServerProcess(db).start()
    flaky = Flaky()
    a = DeskClient(s.url, tmp_path / "a", transport=flaky)
    b = DeskClient(s.url, tmp_path / "b")
    try:
        a.sign_in(*DESKS[0])
        b.sign_in(*DESKS[1])
        a.ruleset()
        flaky.offline = True
        with pytest.raises(ServerUnreachable):
            a.hands()
        r1 = a.add_hand(recs[0], round=1, table=2, hand_no=1)
        r2 = a.add_hand(recs[1], round=1, table=2, hand_no=2)
        assert r1.queued and r2.queued and len(a.waiting()) == 2  # "2 hands waiting"
        # offline, a hand that breaks the rules is refused at once and never queued
        bad = json.loads(json.dumps(recs[2]))
        win = next((e for e in bad["events"] if e["type"] == "win"), None)
        if win is not None:
            bad["seats"][win["seats"][0]]["concealed"] = "1357m1357p135s"
            with pytest.raises(HandRuleError):
                a.add_hand(bad, round=1, table=2, hand_no=3)
            assert len(a.waiting()) == 2
        # meanwhile another desk takes hand 2 of table 2
        assert not b.add_hand(recs[2], round=1, table=2, hand_no=2).queued
        flaky.offline = False
        rep = a.flush()
        assert len(rep.sent) == 1 and rep.waiting == 0
        assert [(c.hand_no, c.error_field) for c in rep.conflicts] == [(2, "hand_no")]
        conflict = a.conflicts()[0]
        assert "already saved" in conflict.problem
        saved = a.resolve(conflict.key, hand_no=3)
        assert saved is not None and not saved.queued and saved.hand["hand_no"] == 3
        assert a.conflicts() == [] and a.waiting() == []
        # a conflict dropped by the referee is kept aside, not deleted
        flaky.offline = True
        a.add_hand(recs[3], round=1, table=2, hand_no=1)
        flaky.offline = False
        key = a.flush().conflicts[0].key
        a.resolve(key, drop=True)
        assert list((tmp_path / "a" / "dropped").glob(f"*{key}.json"))
    finally:
        a.close()
        b.close()
        s.stop()
    assert sorted(saved_hands(db)) == [(1, 2, 1), (1, 2, 2), (1, 2, 3)]


def test_client_and_cli_see_each_others_writes(tmp_path: Path) -> None:
    db = make_event(tmp_path / "event.sqlite")
    recs = records(db, 4, 2, seed=6)
    s = ServerProcess(db).start()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "REFEREE_PIN": HEAD_PIN}
    try:
        with DeskClient(s.url, tmp_path / "outbox") as c:
            c.sign_in(*DESKS[2])
            first = c.add_hand(recs[0], round=1, table=4, hand_no=1)
            listed = subprocess.run([sys.executable, "-m", "referee_app", "hand", "list",
                                     "--json", "--db", str(db)], capture_output=True,
                                    text=True, env=env, check=True)
            assert [(h["id"], h["entered_by"]) for h in json.loads(listed.stdout)] == [
                (first.id, DESKS[2][0])]
            f = tmp_path / "h2.json"
            f.write_text(json.dumps(recs[1], ensure_ascii=False), encoding="utf-8")
            subprocess.run([sys.executable, "-m", "referee_app", "hand", "add", str(f),
                            "--round", "1", "--table", "4", "--hand", "2", "--referee", HEAD,
                            "--db", str(db)], capture_output=True, text=True, env=env,
                           check=True)
            hands = c.hands(round=1, table=4)
            assert [(h["hand_no"], h["entered_by"]) for h in hands] == [(1, DESKS[2][0]),
                                                                        (2, HEAD)]
            assert c.next_hand(1, 4)["hand_no"] == 3
    finally:
        s.stop()


def test_remote_tournament_reads_equal_the_local_file(tmp_path: Path) -> None:
    """RemoteTournament returns the storage dataclasses: every read equals the same call on
    the local file, and writes come back as the same HandInfo the file then holds."""
    from referee_app.server.remote import HandQueued, RemoteTournament

    db = make_event(tmp_path / "event.sqlite")
    recs = records(db, 2, 4, seed=8)
    s = ServerProcess(db).start()
    flaky = Flaky()
    head = RemoteTournament(DeskClient(s.url, tmp_path / "h"))
    desk = RemoteTournament(DeskClient(s.url, tmp_path / "d", transport=flaky))
    try:
        head.referees.sign_in(HEAD, HEAD_PIN)
        assert desk.referees.sign_in(*DESKS[1]).head is False
        saved = [desk.hands.add(r, round=1, table=2, hand_no=n + 1) for n, r in
                 enumerate(recs[:3])]
        head.hands.set_status(saved[0].id, "verified")
        head.hands.amend(saved[1].id, recs[3], reason="wrong tiles")
        head.hands.void(saved[2].id, reason="wrong table")
        pen = head.penalties.add("李伟", 3, "late", round=1, zero_sum=True)
        head.penalties.void(pen.id, reason="excused")
        bad = json.loads(json.dumps(recs[0]))
        bad["seats"]["E"]["concealed"] = "1357m1357p135s"
        bad["events"] = [{"type": "win", "seats": ["E"], "tile": "9s"}]
        with pytest.raises(HandRuleError):
            desk.hands.add(bad, round=1, table=2, hand_no=9)
        flaky.offline = True
        with pytest.raises(HandQueued, match="1 waiting"):
            desk.hands.add(recs[0], round=1, table=3, hand_no=1)
        flaky.offline = False
        with Tournament.open(db, backup_every=0) as t:
            assert head.info == t.info
            assert head.players.list() == t.players.list()
            assert head.rounds.list() == t.rounds.list()
            assert head.rounds.seating(1) == t.rounds.seating(1)
            assert head.hands.list() == t.hands.list()
            assert head.hands.list(round=1, table=2, status="void") == t.hands.list(
                round=1, table=2, status="void")
            for h in saved:
                assert head.hands.get(h.id) == t.hands.get(h.id)
                assert head.hands.history(h.id) == t.hands.history(h.id)
            assert head.standings.table() == t.standings.table()
            assert head.standings.table(1) == t.standings.table(1)
            assert head.penalties.list() == t.penalties.list()
            assert head.hands.next_no(1, 2) == t.hands.next_no(1, 2)
            assert head.hands.next_dealer(1, 2) == t.hands.next_dealer(1, 2)
            assert head.record.digest() == t.record.digest()
            assert t.hands.history(saved[0].id)[0].record == saved[0].record
    finally:
        head.close()
        desk.close()
        s.stop()
