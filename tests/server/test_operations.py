"""The one list of operations, the API's routes and the remote client agree.

Every operation of ``storage/operations.py`` names a real storage method and real
arguments, every endpoint is routed (in the listed order) and handled, every result type
goes through JSON and back to an equal object, and a remote tournament answers every
operation a desk makes as the local file does (the API served in-process)."""

from __future__ import annotations

import json
import string
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_helpers import DESKS, HEAD, HEAD_PIN, make_event, records

from referee_app.gui.server_desk import ServerBackend
from referee_app.server.api import api_routes, handlers
from referee_app.server.app import create_app
from referee_app.server.client import DeskClient
from referee_app.server.remote import RemoteTournament, method_name
from referee_app.storage import StorageError, Tournament
from referee_app.storage.operations import ENDPOINT, ENDPOINTS, OPERATIONS, storage_method
from referee_app.storage.wire import from_json, to_json

with warnings.catch_warnings():  # starlette asks for httpx2, which this project does not use
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient


def test_every_endpoint_is_routed_in_order_and_handled() -> None:
    names = [e.name for e in ENDPOINTS]
    assert len(set(names)) == len(names)
    assert set(handlers()) == set(names)
    routes = api_routes()
    assert [(r.path, sorted(r.methods - {"HEAD"})) for r in routes[:-1]] == [  # type: ignore[attr-defined, operator]
        (e.path, [e.method]) for e in ENDPOINTS]
    assert routes[-1].path == "/api/{rest:path}"  # type: ignore[attr-defined]


def test_every_operation_names_a_storage_method_its_arguments_and_an_answer() -> None:
    for op in OPERATIONS:
        params = op.signature().parameters
        assert set(op.args) <= set(params), op.name
        assert callable(storage_method(op)), op.name
        if op.endpoint:
            path = ENDPOINT[op.endpoint].path
            wanted = {f for _, f, _, _ in string.Formatter().parse(path) if f}
            given = {(w.partition(":")[2] or a) for a, w in op.args.items()
                     if w.startswith("path")}
            assert given == wanted or not op.plain, op.name
        # the remote client answers it by one request or by its own method
        assert op.head_desk or op.plain or hasattr(RemoteTournament, method_name(op)), op.name
        assert not (op.head_desk and op.endpoint), op.name


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = make_event(tmp_path_factory.mktemp("ops") / "event.sqlite")
    recs = records(db, 1, 4, seed=3)
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        for n, rec in enumerate(recs[:3]):
            t.hands.add(rec, round=1, table=1, hand_no=n + 1, referee=HEAD)
        first, second, third = (h.id for h in t.hands.list())
        t.referees.sign_in(*DESKS[0])  # a second referee verifies
        t.hands.set_status(first, "verified", referee=DESKS[0][0])
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.hands.amend(second, recs[3], reason="wrong tiles", referee=HEAD)
        t.hands.void(third, reason="wrong table", referee=HEAD)
        p = t.penalties.add("李伟", 3, "late", round=1, zero_sum=True, referee=HEAD)
        t.penalties.add(["张敏"], 2, "noise", referee=HEAD)
        t.penalties.void(p.id, reason="excused", referee=HEAD)
        t.rounds.start(1, minutes=90, referee=HEAD)
        for i, player in enumerate(t.players.list()[:8]):  # a team event: team standings
            t.players.update(player.name, team=("川军", "蓉城")[i % 2], referee=HEAD)
    return db


#: arguments of each read a desk makes (a new read operation gets its line here)
READS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "info": ((), {}),
    "referees.required": ((), {}), "referees.list": ((), {}),
    "players.list": ((), {}), "players.get": (("李伟",), {}),
    "rounds.list": ((), {}), "rounds.seating": ((1,), {}), "rounds.in_play": ((), {}),
    "hands.list": ((), {"round": 1, "table": 1, "status": "void"}),
    "hands.get": ((2,), {}), "hands.find": ((1, 1, 2), {}), "hands.history": ((2,), {}),
    "hands.next_no": ((1, 1), {}), "hands.next_dealer": ((1, 1), {}),
    "penalties.list": ((), {}),
    "standings.table": ((), {"through_round": 1}), "standings.provisional": ((1,), {}),
    "standings.statement": (("李伟",), {}), "standings.stages": ((), {}),
    "standings.teams": ((), {"through_round": 1}),
    "record.log": ((), {"hand": 2}), "record.digest": ((), {}),
}


def call(backend: Any, name: str) -> Any:
    part, _, method = name.rpartition(".")
    target = getattr(getattr(backend, part) if part else backend, method)
    if not callable(target):  # a property (info)
        return target
    args, kwargs = READS[name]
    return target(*args, **kwargs)


def test_every_result_type_goes_through_json_and_back_equal(event: Path) -> None:
    with Tournament.open(event, backup_every=0) as t:
        values = {name: call(t, name) for name in READS}
        values["referees.sign_in"] = t.referees.sign_in(HEAD, HEAD_PIN)
    types = {op.name: op.result for op in OPERATIONS}
    for name, value in values.items():
        text = json.dumps(to_json(value), ensure_ascii=False)
        assert from_json(types[name], json.loads(text)) == value, name
    # the statement is built on a client desk, but its models go through JSON too
    statement = values["standings.statement"]
    assert statement.lines and from_json(type(statement), json.loads(json.dumps(
        to_json(statement)))) == statement


def test_the_json_of_each_model_keeps_the_documented_keys(event: Path) -> None:
    """The bodies phones and desks in the field read (docs/server.md) keep their keys."""
    with Tournament.open(event, backup_every=0) as t:
        hand, seating = to_json(t.hands.get(2)), to_json(t.rounds.seating(1))
        first = t.standings.table()[0]
        row, info = to_json(first), to_json(t.info)
    assert set(hand) == {"id", "round", "table", "hand_no", "version", "status", "flags",
                         "dealer", "players", "totals", "override_reason", "entered_by",
                         "entered_at", "updated_by", "updated_at", "record", "settlement"}
    assert hand["flags"] == ["amended"]
    # team-mates at one table and absent players only when there are (a team event, check-in)
    assert set(seating) - {"team_pairs"} == {"round", "seats", "tables", "byes",
                                             "repeat_pairs", "assignments"}
    assert "absent" not in seating and seating.get("team_pairs", 0) > 0
    assert set(seating["assignments"][0]) == {"table", "seat", "player_id", "player"}
    assert set(seating["tables"]) == {"1", "2", "3", "4"}
    assert set(row) == set(first.to_dict()) and row["per_round"] == first.to_dict()["per_round"]
    assert "templates" not in info and "verified_only" not in info  # only when set
    assert info["table_size"] == 4 and info["seats"] == ["E", "S", "W", "N"]


@pytest.fixture()
def remote(event: Path, tmp_path: Path) -> Iterator[tuple[ServerBackend, Path]]:
    """A client desk over the API served in-process (no server process)."""
    with TestClient(create_app(event, backup_every=0), base_url="http://desk.test") as http:
        client = DeskClient("http://desk.test", tmp_path / "outbox")
        client.http.close()
        client.http = http
        yield ServerBackend(client), event


def test_a_client_desk_answers_every_read_as_the_file(remote: tuple[ServerBackend, Path]
                                                      ) -> None:
    backend, db = remote
    reads = {op.name for op in OPERATIONS if not op.write and not op.head_desk
             and op.result is not type(None) and op.name not in ("rules", "ruleset")}
    # seating problems are the head desk's (none on a client); revision: a token of its own
    assert reads - {"rounds.problems", "revision"} == set(READS)
    backend.referees.sign_in(HEAD, HEAD_PIN)  # the whole log needs a signed-in referee
    with Tournament.open(db, backup_every=0) as t:
        for name in READS:
            if name == "referees.list":  # the server serves names and heads, not dates
                assert sorted((r.name, r.head) for r in call(backend, name)) == sorted(
                    (r.name, r.head) for r in call(t, name))
                continue
            assert call(backend, name) == call(t, name), name
        assert backend.record.log() == t.record.log()
        assert backend.rules().digest() == t.rules().digest()


def test_a_client_desk_writes_through_the_list_and_refuses_administration(
        remote: tuple[ServerBackend, Path]) -> None:
    backend, db = remote
    backend.referees.sign_in(*DESKS[0])
    rec = records(db, 2, 1, seed=5)[0]
    saved = backend.hands.add(rec, round=1, table=2, hand_no=1)
    backend.referees.sign_in(HEAD, HEAD_PIN)
    verified = backend.hands.set_status(saved.id, "verified", expected_version=1)
    back = backend.hands.set_status(saved.id, "entered", reason="recount")
    pen = backend.penalties.add("王芳", 1, "slow play", round=1)
    voided = backend.penalties.void(pen.id, reason="excused")
    started = backend.rounds.start(1, extend=10)  # the head referee's, from any desk
    with Tournament.open(db, backup_every=0) as t:
        assert saved.entered_by == DESKS[0][0] and saved.hand_no == 1
        assert back == t.hands.get(saved.id) and verified.version == 2
        assert voided == t.penalties.get(pen.id) and voided.void
        assert started == t.rounds.in_play() and started.added == 10
    for op in OPERATIONS:
        if op.head_desk:
            part = getattr(backend, op.part) if op.part else backend
            with pytest.raises(StorageError, match="head desk"):
                getattr(part, op.method)()


def test_a_client_desk_reads_placement_points_and_stages_as_the_file(tmp_path: Path) -> None:
    """Under placement scoring, after a cut: the rows (exact points, carried halves, stages),
    one stage alone, the stages and a penalty in points, over the API as from the file."""
    db = make_event(tmp_path / "placed.sqlite")
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.update_info(scoring="placement", referee=HEAD)
        for table in (1, 2, 3, 4):
            for n, rec in enumerate(records(db, table, 2, seed=table)):
                t.hands.add(rec, round=1, table=table, hand_no=n + 1, referee=HEAD)
        rows = t.standings.table(through_round=1)
        top = next(k for k in range(8, 16) if rows[k - 1].rank != rows[k].rank)
        t.stages.cut(1, top, "half", name="final", referee=HEAD)
        t.rounds.seat(2, seed=2, referee=HEAD)
    with TestClient(create_app(db, backup_every=0), base_url="http://desk.test") as http:
        client = DeskClient("http://desk.test", tmp_path / "outbox")
        client.http.close()
        client.http = http
        backend = ServerBackend(client)
        backend.referees.sign_in(HEAD, HEAD_PIN)
        backend.penalties.add(["李伟"], 1, "late", round=1, unit="points")
        with Tournament.open(db, backup_every=0) as t:
            assert backend.standings.stages() == t.standings.stages()
            for kw in ({}, {"stage": "final"}, {"stage": 1}, {"through_round": 1}):
                got = backend.standings.table(**kw)
                assert got == t.standings.table(**kw), kw
            assert any(r.carried is not None for r in got) or kw
            assert backend.penalties.list()[-1].unit == "points"
        body = http.get("/api/standings").json()
        assert list(body[0])[:6] == ["rank", "player", "player_id", "club", "status",
                                     "points"]  # the points before the chips
        assert {"stage", "carried", "per_round_points"} <= set(body[0])
        assert http.get("/api/standings?stage=nosuch").status_code == 400
