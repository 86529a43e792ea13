"""The phones' pages and the API under placement scoring and stages (issue 26), on the
placement demo: the points column before the chips, each row's stage, one stage alone, the
projector and a player's page."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import httpx
import pytest

from referee_app.core.scores import figure
from referee_app.server.app import create_app
from referee_app.storage import Tournament

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_events" / "demo-placement.json"


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, httpx.Response]:
    db = tmp_path_factory.mktemp("pages") / "placement.sqlite"
    with Tournament.import_bundle(DEMO, db, backup_every=0) as t:  # a team event too
        for i, p in enumerate(t.players.list()):
            t.players.update(p.name, team=("川军", "蓉城")[i % 2], referee="赵建国")
    wanted = ["/?lang=en", "/?lang=zh", "/?stage=2&lang=en", "/?stage=9&lang=en",
              "/projector?lang=zh", "/player/1?lang=zh", "/api/standings",
              "/api/standings?stage=2", "/api/stages", "/teams?lang=en",
              "/api/standings/teams", "/api/standings/teams?stage=2"]

    async def get() -> dict[str, httpx.Response]:
        app = create_app(db, backup_every=0)
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            return {p: await c.get(p) for p in wanted}

    got = asyncio.run(get())
    with Tournament.open(db, backup_every=0) as t:
        got["rows"] = t.standings.table()  # type: ignore[assignment]
        got["teams"] = t.standings.teams()  # type: ignore[assignment]
    return got


def _heads(html: str) -> list[str]:
    head = html.split("<thead>", 1)[1].split("</thead>", 1)[0]
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(r"<th[^>]*>.*?</th>", head)]


def test_the_standings_page_puts_the_points_first(pages: dict) -> None:
    en = pages["/?lang=en"].text
    assert _heads(en)[:6] == ["Rank", "Player", "Stage", "Points", "Carried", "Chips"]
    assert "Ranked by placement points (比赛分)" in en and "4,2,1,0" in en
    assert _heads(pages["/?lang=zh"].text)[:5] == ["名次", "选手", "阶段", "比赛分", "带入"]
    top = pages["rows"][0]
    first = en.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert top.player in first and '<td class="num points">8</td>' in first and "决赛" in first
    assert en.count('<td class="stage">Qualifying</td>') == 8
    assert ">决赛</a>" in en and ">Qualifying</a>" in en  # the stage links


def test_one_stage_alone_and_a_stage_that_is_not_there(pages: dict) -> None:
    final = pages["/?stage=2&lang=en"].text
    assert final.count("<tr><td>") == 8 and "Qualifying</td>" not in final
    assert 'class="on">决赛</a>' in final
    whole = pages["/?stage=9&lang=en"].text  # no such stage: the whole standings
    assert whole.count("<tr><td>") == 16


def test_the_projector_and_a_players_page(pages: dict) -> None:
    proj = pages["/projector?lang=zh"].text
    assert _heads(proj)[:5] == ["名次", "选手", "阶段", "比赛分", "筹码"]
    assert "· 决赛</h1>" in proj
    player = pages["/player/1?lang=zh"].text
    me = next(r for r in pages["rows"] if r.player_id == 1)
    assert me.stage == 2
    assert f"比赛分 <b>{figure(me.points)}</b>" in player and "阶段 决赛" in player
    assert player.index("比赛分 <b>") < player.index("筹码 <b>")


def test_the_api_rows_carry_points_before_chips_and_the_stages(pages: dict) -> None:
    rows = pages["/api/standings"].json()
    assert [r["player"] for r in rows] == [r.player for r in pages["rows"]]
    assert list(rows[0]).index("points") < list(rows[0]).index("chips")
    assert rows[1]["points"] == 6.5 and rows[0]["stage"] == 2
    assert len(pages["/api/standings?stage=2"].json()) == 8
    stages = pages["/api/stages"].json()
    assert [(s["number"], s["name"], s["carry"]) for s in stages] == [(1, "", None),
                                                                      (2, "决赛", "half")]


def test_the_team_standings_carry_the_members_points(pages: dict) -> None:
    """A team's row: its members' points summed, first and ranking (the page, the API, one
    stage alone), and the projector's team pages with a points column."""
    teams = pages["teams"]
    assert [r.points for r in teams] == sorted((r.points for r in teams), reverse=True)
    page = pages["/teams?lang=en"].text
    assert _heads(page)[:4] == ["Rank", "Team", "Points", "Chips"]
    first = page.split("<tbody>", 1)[1].split("</tr>", 1)[0]
    assert f'<td class="num points">{figure(teams[0].points)}</td>' in first
    api = pages["/api/standings/teams"].json()
    assert [(r["team"], r["points"]) for r in api] == [
        (r.team, pytest.approx(float(r.points), abs=0.005)) for r in teams]
    final = pages["/api/standings/teams?stage=2"].json()
    assert sum(len(r["members"]) for r in final) == 8  # the final's players alone
    projector = pages["/projector?lang=zh"].text
    assert projector.count("<th>比赛分</th>") >= 2  # the players' pages and the team page
