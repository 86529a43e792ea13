"""The round in play over the API and on the pages (issues 25, 26), in process (httpx over
ASGI): ``/api/tournament`` carries it with ``ends_at``, ``POST /api/rounds/N/start`` is the
head referee's, the phones' seating and progress open on it (not on the last planned
round), every page shows its clock, the results page's hands leave void ones out, and an
override without totals is refused."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import DESKS, HEAD, HEAD_PIN, make_event, records

from referee_app.server.app import create_app
from referee_app.storage import Tournament


@pytest.fixture
def event(tmp_path: Path) -> Path:
    db = make_event(tmp_path / "event.sqlite")
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.plan.make(3, seed=7, referee=HEAD)  # rounds 2 and 3 seated ahead, as READMEs do
    return db


def talk(db: Path, steps: Callable[[httpx.AsyncClient], Any]) -> Any:
    async def run() -> Any:
        transport = httpx.ASGITransport(app=create_app(db, backup_every=0))
        async with httpx.AsyncClient(transport=transport, base_url="http://desk") as c:
            return await steps(c)

    return asyncio.run(run())


async def _token(c: httpx.AsyncClient, who: tuple[str, str]) -> dict[str, str]:
    r = await c.post("/api/session", json={"referee": who[0], "pin": who[1]})
    return {"Authorization": f"Bearer {r.json()['token']}"}


def test_pages_open_on_the_round_in_play_not_the_last_planned(event: Path) -> None:
    async def steps(c: httpx.AsyncClient) -> tuple[str, str, dict[str, Any]]:
        return ((await c.get("/seating?lang=en")).text, (await c.get("/progress?lang=en")).text,
                (await c.get("/api/tournament")).json())

    seating, progress, info = talk(event, steps)
    assert info["round_in_play"] == {"round": 1, "source": "first", "in_play": True,
                                     "started_at": None, "started_by": "", "ends_at": None,
                                     "minutes": None, "added": 0}
    on = re.search(r'class="on">([^<]+)<', seating)
    assert on is not None and on[1] == "Round 1", "find-your-seat opened on another round"
    assert "Round 1 in play" in seating and 'class="on">Round 1<' in progress


def test_starting_a_round_moves_the_pages_and_shows_its_clock(event: Path) -> None:
    async def steps(c: httpx.AsyncClient) -> list[Any]:
        out: list[Any] = []
        desk = await _token(c, DESKS[0])
        out.append(await c.post("/api/rounds/2/start", json={"minutes": 60}, headers=desk))
        head = await _token(c, (HEAD, HEAD_PIN))
        out.append(await c.post("/api/rounds/2/start", json={"minutes": 60}, headers=head))
        out.append(await c.post("/api/rounds/2/start", json={"extend": 5}, headers=head))
        out.append(await c.post("/api/rounds/9/start", json={}, headers=head))
        out.append(await c.post("/api/rounds/2/start", json={"minutes": "x"}, headers=head))
        out.append((await c.get("/api/tournament")).json())
        for page in ("/?lang=zh", "/seating?lang=en", "/progress?lang=en", "/projector?lang=en"):
            out.append((await c.get(page)).text)
        return out

    not_head, started, extended, unseated, bad, info, home, seating, progress, proj = \
        talk(event, steps)
    assert not_head.status_code == 403 and "head referee" in not_head.text
    assert started.status_code == 200 and started.json()["minutes"] == 60
    assert extended.json()["added"] == 5
    assert unseated.status_code == 400 and unseated.json()["error"]["field"] == "round"
    assert bad.status_code == 400 and bad.json()["error"]["field"] == "minutes"
    state = info["round_in_play"]
    assert (state["round"], state["source"], state["minutes"], state["added"]) == \
        (2, "started", 60, 5)
    ends = datetime.fromisoformat(state["ends_at"])
    assert ends.tzinfo is not None and ends.utcoffset().total_seconds() == 0
    assert 60 * 60 <= (ends - datetime.now(UTC)).total_seconds() <= 65 * 60
    # the clock: ends_at for live.js, the words in the page's language
    for page, left in ((home, "第2轮 · 剩余 {t}"), (seating, "Round 2 · {t} left"),
                       (progress, "Round 2 · {t} left"), (proj, "Round 2 · {t} left")):
        assert f'data-ends="{state["ends_at"]}"' in page
        assert f'data-left="{left}"' in page
    assert 'class="on">Round 2<' in seating and 'class="on">Round 2<' in progress


def test_the_results_page_counts_the_hands_that_count(event: Path) -> None:
    recs = records(event, 1, 3)
    with Tournament.open(event, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        ids = [t.hands.add(r, round=1, table=1, hand_no=n + 1, referee=HEAD).id
               for n, r in enumerate(recs)]
        t.hands.void(ids[0], reason="entered twice", referee=HEAD)

    async def steps(c: httpx.AsyncClient) -> tuple[str, dict[str, Any]]:
        return (await c.get("/?lang=en")).text, (await c.get("/api/tournament")).json()

    page, info = talk(event, steps)
    assert "Round 1 · Hands 2" in page  # the void hand is not counted, as in the standings
    assert info["rounds"][0]["hands"] == 2


def test_an_override_over_the_api_needs_its_totals(event: Path) -> None:
    bad = records(event, 1, 1)[0]
    bad["seats"]["E"]["concealed"] = bad["seats"]["E"]["concealed"][1:]
    totals = {"E": 3, "S": -3, "W": 0, "N": 0}

    async def steps(c: httpx.AsyncClient) -> list[httpx.Response]:
        head = await _token(c, (HEAD, HEAD_PIN))
        body = {"round": 1, "table": 1, "hand_no": 1, "record": bad,
                "override_reason": "table agreed"}
        first = await c.post("/api/hands", json=body, headers=head)
        second = await c.post("/api/hands", json={**body, "override_totals": totals},
                              headers=head)
        return [first, second]

    first, second = talk(event, steps)
    assert first.status_code == 400, first.text
    err = first.json()["error"]
    assert err["field"] == "override_totals" and err["code"] == "override_needs_totals"
    assert second.status_code == 201 and second.json()["hand"]["totals"] == totals
