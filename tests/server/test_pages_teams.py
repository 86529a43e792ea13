"""A team event and check-in on the phones, the projector and the API (issue 26): the team
standings page and answer add up the members, the projector turns to the team page, and a
player looking for their seat is told they are absent (or on a bye) rather than nothing."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

from referee_app.core.generate import random_record
from referee_app.server.app import create_app
from referee_app.storage import Tournament

with warnings.catch_warnings():  # starlette's note on httpx; the test client works as it is
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient

NAMES = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强")
TEAMS = ("川军", "蓉城")


def _event(tmp_path: Path) -> Path:
    path = tmp_path / "teams.sqlite"
    with Tournament.create(path, "Team Open", backup_every=0) as t:
        for i, name in enumerate(NAMES):
            t.players.add(name, name_latin=f"Player {i + 1}", team=TEAMS[i % 2])
        t.rounds.seat(1, seed=4)
        rng = random.Random(5)
        for table, seats in t.rounds.seating(1).tables.items():
            for n in (1, 2):
                t.hands.add(random_record(rng, t.info.ruleset, players=seats), round=1,
                            table=table, hand_no=n)
        t.rounds.seat(2, seed=6)
        t.players.set_status("王芳", "absent")
    return path


def test_team_standings_on_the_api_and_the_phones(tmp_path: Path) -> None:
    path = _event(tmp_path)
    with TestClient(create_app(path)) as client:
        players = client.get("/api/standings").json()
        r = client.get("/api/standings/teams")
        teams = r.json()
        assert r.headers["X-Provisional-Hands"] == "0"
        zh = client.get("/teams?lang=zh").text
        en = client.get("/teams?lang=en").text
        home = client.get("/?lang=zh").text
        proj = client.get("/projector?lang=en").text
    team_of = {n: TEAMS[i % 2] for i, n in enumerate(NAMES)}
    assert sorted(t["team"] for t in teams) == sorted(TEAMS)
    for row in teams:
        mine = [p for p in players if team_of[p["player"]] == row["team"]]
        assert row["chips"] == sum(p["chips"] for p in mine)
        assert sorted(row["members"]) == sorted(p["player"] for p in mine)
    assert "团体排名" in zh and all(name in zh for name in NAMES)
    assert f"{teams[0]['chips']:+d}" in en and "Team" in en
    assert 'href="/teams?lang=zh"' in home  # the page is offered in a team event
    assert 'class="page teams"' in proj and "Teams" in proj


def test_a_plain_event_offers_no_team_page(make_tournament) -> None:
    t = make_tournament(4)
    path = t.path
    t.close()
    with TestClient(create_app(path)) as client:
        assert client.get("/api/standings/teams").json() == []
        assert "/teams" not in client.get("/?lang=en").text
        assert "nobody is in a team" in client.get("/teams?lang=en").text
        assert 'class="page teams"' not in client.get("/projector").text


def test_find_your_seat_says_absent(tmp_path: Path) -> None:
    path = _event(tmp_path)
    with TestClient(create_app(path)) as client:
        seated = client.get("/seating?round=2&q=王芳&lang=zh").text
        assert "缺席" in seated  # seated before check-in: marked, to be re-seated
    with Tournament.open(path, backup_every=0) as t:
        t.plan.reseat(2, fill="byes")
        byes = t.rounds.seating(2).byes
    with TestClient(create_app(path)) as client:
        zh = client.get("/seating?round=2&q=王芳&lang=zh").text
        en = client.get("/seating?round=2&q=Player 4&lang=en").text
        bye = client.get(f"/seating?round=2&q={byes[0]}&lang=en").text
        page = client.get(f"/player/{4}?lang=en").text
    assert "王芳：本轮缺席" in zh
    assert "absent this round" in en
    assert "bye this round" in bye
    assert "absent" in page and "蓉城" in page  # 王芳's team and status on her page
