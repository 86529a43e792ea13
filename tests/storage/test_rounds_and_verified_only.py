"""Issue 12: one meaning of rounds (``--round N`` that round alone, ``--through N`` rounds
1..N) in ``standings`` and ``report standings``; the setting "only verified hands count"
(standings left without unverified hands and marked provisional until all are verified)."""

from __future__ import annotations

import asyncio
import io
import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pypdf import PdfReader

from referee_app.cli import main
from referee_app.reports import api
from referee_app.storage import StorageError, Tournament


def _pdf_text(path: Path) -> str:
    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(path.read_bytes())).pages)


@pytest.fixture
def two_rounds(make_tournament, record_for) -> Path:
    """Two rounds, four tables, two hands a table; round 1 table 1 hand 1 verified."""
    t = make_tournament(rounds=2)
    for rnd in (1, 2):
        for table in (1, 2, 3, 4):
            for n in (1, 2):
                t.hands.add(record_for(t, rnd, table, seed=rnd * 100 + table * 10 + n),
                           round=rnd, table=table, hand_no=n)
    t.hands.set_status(t.hands.find(1, 1, 1).id, "verified")
    return Path(t.path)


def _cli(*args: str) -> tuple[int, str]:
    r = CliRunner().invoke(main, list(args))
    return r.exit_code, r.output


def test_round_alone_and_through_in_storage_and_report(two_rounds: Path, tmp_path: Path
                                                       ) -> None:
    with Tournament.open(two_rounds) as t:
        only2 = {r.player: r.chips for r in t.standings.table(2)}
        through2 = {r.player: r.chips for r in t.standings.table(through_round=2)}
        through1 = {r.player: r.chips for r in t.standings.table(through_round=1)}
        assert only2 == {p: through2[p] - through1[p] for p in through2}
        when = api.gather_data("standings", t, api.datetime.now(api.UTC), round=2)
        assert {r.name.split()[0]: r.chips for r in when.rows} == only2
        assert when.only_round == 2 and when.round is None
        with pytest.raises(ValueError, match="not both"):
            api.gather_data("standings", t, api.datetime.now(api.UTC), round=1, through=2)
    db = str(two_rounds)
    for flag, label in (("--round", "Round 2 only"), ("--through", "After round 2")):
        out = tmp_path / f"s{flag}.pdf"
        code, text = _cli("report", "standings", flag, "2", "--db", db, "-o", str(out))
        assert code == 0, text
        assert label in _pdf_text(out)
    code, text = _cli("standings", "--round", "2", "--db", db)
    assert code == 0 and "standings (round 2)" in text
    code, text = _cli("standings", "--through", "2", "--db", db)
    assert code == 0 and "standings (rounds 1-2)" in text
    code, text = _cli("report", "standings", "--round", "1", "--through", "2", "--db", db,
                      "-o", str(tmp_path / "x.pdf"))
    assert code == 2 and "not both" in text and "Traceback" not in text


def test_verified_only_setting(two_rounds: Path, tmp_path: Path) -> None:
    db = str(two_rounds)
    code, text = _cli("standings", "--db", db)
    assert "PROVISIONAL" not in text
    code, text = _cli("event", "set", "--verified-only", "--db", db)
    assert code == 0 and "counted: only verified hands" in text
    code, text = _cli("event", "info", "--db", db)
    assert "counted: only verified hands" in text
    with Tournament.open(two_rounds) as t:
        assert t.info.verified_only
        assert t.standings.provisional() == 15 and t.standings.provisional(1) == 7
        assert t.standings.provisional(through_round=1) == 7
        one = t.hands.find(1, 1, 1)
        rows = {r.player: r for r in t.standings.table()}
        for seat, chips in one.totals.items():  # only the verified hand counts
            assert rows[one.record["seats"][seat]["player"]].chips == chips
        assert sum(r.hands for r in rows.values()) == 4  # the one verified hand, 4 seats
    code, text = _cli("standings", "--db", db)
    assert code == 0
    assert "PROVISIONAL: only verified hands count; 15 hand(s) not yet verified" in text
    code, text = _cli("standings", "--round", "1", "--db", db)
    assert "7 hand(s) not yet verified" in text
    out = tmp_path / "s.pdf"
    assert _cli("report", "standings", "--db", db, "-o", str(out))[0] == 0
    assert "15 hand(s) not yet verified and not counted" in _pdf_text(out)
    # a bundle keeps the setting; one written without it is unchanged
    bundle = tmp_path / "b.json"
    assert _cli("event", "export", str(bundle), "--db", db)[0] == 0
    assert '"verified_only": true' in bundle.read_text(encoding="utf-8")
    with Tournament.import_bundle(bundle, tmp_path / "copy.sqlite") as c:
        assert c.info.verified_only and c.standings.provisional() == 15
    with Tournament.open(two_rounds) as t:
        for h in t.hands.list():
            if str(h.status) == "entered":
                t.hands.set_status(h.id, "verified")
        assert t.standings.provisional() == 0
    code, text = _cli("standings", "--db", db)
    assert "PROVISIONAL" not in text
    code, text = _cli("event", "set", "--all-hands-count", "--db", db)
    assert code == 0 and "counted: every saved hand" in text


def test_verified_only_refuses_a_non_boolean(make_tournament) -> None:
    t = make_tournament(n=4)
    with pytest.raises(StorageError, match="verified_only: expected true or false"):
        t.update_info(verified_only="yes")
    assert t.info.to_dict().get("verified_only") is None  # old bundles stay identical


def test_event_new_can_start_counting_only_verified_hands(tmp_path: Path) -> None:
    db = str(tmp_path / "n.sqlite")
    code, text = _cli("event", "new", "Verified Open", "--verified-only", "--db", db)
    assert code == 0 and "only verified hands count" in text
    with Tournament.open(db) as t:
        assert t.info.verified_only and t.standings.provisional() == 0
    with pytest.raises(StorageError, match="verified_only"):
        Tournament.create(tmp_path / "x.sqlite", "X", verified_only="yes")


def _get(db: Path, *paths: str) -> list[Any]:
    """GET each path from the results server's app, in process (httpx over ASGI)."""
    import httpx

    from referee_app.server.app import create_app

    async def run() -> list[Any]:
        transport = httpx.ASGITransport(app=create_app(db))
        async with httpx.AsyncClient(transport=transport, base_url="http://desk") as c:
            return [await c.get(p) for p in paths]

    return asyncio.run(run())


def test_provisional_standings_on_the_api_the_pages_and_json(two_rounds: Path) -> None:
    """The JSON rows stay those of ``standings --json``; that they are provisional is said
    beside them: a stderr line, an ``X-Provisional-Hands`` header, a line on the page."""
    db = str(two_rounds)
    api, page = _get(two_rounds, "/api/standings", "/?lang=en")
    assert api.status_code == 200 and api.headers["x-provisional-hands"] == "0"
    assert "Provisional" not in page.text
    assert _cli("event", "set", "--verified-only", "--db", db)[0] == 0
    api, api1, en, zh = _get(two_rounds, "/api/standings", "/api/standings?round=1",
                             "/?lang=en", "/?lang=zh")
    assert api.headers["x-provisional-hands"] == "15" and isinstance(api.json(), list)
    assert api1.headers["x-provisional-hands"] == "7"
    assert "15 hand(s) still to verify" in en.text
    assert "还有 15 局待核对" in zh.text
    r = CliRunner().invoke(main, ["standings", "--json", "--db", db])
    assert r.exit_code == 0 and isinstance(json.loads(r.stdout), list)
    assert "PROVISIONAL" in r.stderr and "15 hand(s)" in r.stderr
