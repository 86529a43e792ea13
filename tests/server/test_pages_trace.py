"""The player page's trace in 中文 comes from the settlement's steps (no parsing of lines)."""

from __future__ import annotations

import warnings
from typing import Any

from examples import spec_example

from referee_app.server.app import create_app

with warnings.catch_warnings():  # starlette's note on httpx; the test client works as it is
    warnings.simplefilter("ignore", DeprecationWarning)
    from starlette.testclient import TestClient


def test_the_player_page_shows_each_step_in_chinese(make_tournament: Any) -> None:
    t = make_tournament(4)
    seating = t.rounds.seating(1).tables[1]
    rec = spec_example()
    for seat, player in seating.items():
        rec["seats"][seat]["player"] = player
    t.hands.add(rec, round=1, table=1, hand_no=1)
    path = t.path
    t.close()
    with TestClient(create_app(path)) as client:
        pid = client.get("/api/standings").json()[0]["player_id"]
        zh = client.get(f"/player/{pid}?lang=zh").text
        en = client.get(f"/player/{pid}?lang=en").text
    assert "§2.6 西打出七筒点炮给北；西付北 1" in zh
    assert "W discarded 7p to N; W pays N 1" in en
    assert "discarded" not in zh
