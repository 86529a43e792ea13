"""Reports and the tournament's record: the record digest on every page, the standings
legend for overridden hands, and reports of a tournament under a club's own ruleset file
(issues 10 and 15), with the club demo bundle in sample_events/."""

from __future__ import annotations

import io
import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee_app.core import get_ruleset, ruleset_from_file
from referee_app.reports import api
from referee_app.reports.sample import build_sample
from referee_app.reports.template import template_from_dict
from referee_app.storage import Tournament

ROOT = Path(__file__).resolve().parents[2]
CLUB_FILE = ROOT / "sample_events" / "club-ottawa-32.ruleset.json"
CLUB_DEMO = ROOT / "sample_events" / "demo-club-ottawa-32.json"
WHEN = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


def pages(pdf: bytes) -> list[str]:
    return [p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages]


def flat(text: str) -> str:
    return " ".join(text.split())


def every_report(t: Tournament, hand_id: int) -> dict[str, bytes]:
    """Each of the six reports of ``t`` (table sheets and slips of round 1)."""
    params = {"standings": {}, "table": {"round": 1}, "player": {"player": t.players.list()[0].id},
              "hand": {"hand_id": hand_id}, "seating": {"round": 1},
              "slips": {"round": 1, "count": 3}}
    return {r: api.generate(r, t, generated_at=WHEN, **kw) for r, kw in params.items()}


def pig_hand(t: Tournament) -> int:
    """The first hand whose stored settlement pays a flower pig (§2.11)."""
    return next(h.id for h in t.hands.list()
                if any(p["clause"] == "§2.11" for p in h.settlement["payments"]))


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory):
    t = build_sample(tmp_path_factory.mktemp("record") / "event.sqlite")
    yield t
    t.close()


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory):
    """A sample tournament created from the club's ruleset file (ids: club-ottawa-32)."""
    rules = ruleset_from_file(CLUB_FILE)
    t = build_sample(tmp_path_factory.mktemp("club") / "club.sqlite", ruleset=rules,
                     hands_per_table=6)
    yield t
    t.close()


# --------------------------------------------------------------------------- 1 digest


def test_every_page_of_every_report_carries_the_record_digest(event) -> None:
    entries, digest = event.record.digest()
    assert len(digest) == 12
    for report, pdf in every_report(event, event.hands.list()[0].id).items():
        texts = pages(pdf)
        assert texts, report
        for i, text in enumerate(texts, start=1):
            assert f"record {entries} entries · {digest}" in flat(text), (report, i)
            assert f"记录 {entries} 条" in flat(text), (report, i)


def test_the_digest_printed_follows_the_record(tmp_path: Path) -> None:
    """A change to the record changes the digest the next sheet prints (it is read from the
    database each time, so a posted sheet names the state it was printed from)."""
    t = build_sample(tmp_path / "e.sqlite", rounds=1, hands_per_table=2, extras=False)
    n1, d1 = t.record.digest()
    before = flat(pages(api.generate("standings", t, generated_at=WHEN))[0])
    t.penalties.add([t.players.list()[0].name], 3, "slow play", referee="吴裁判", round=1)
    n2, d2 = t.record.digest()
    after = flat(pages(api.generate("standings", t, generated_at=WHEN))[0])
    t.close()
    assert (n2, d2) != (n1, d1) and n2 == n1 + 1
    assert f"record {n1} entries · {d1}" in before and d2 not in before
    assert f"record {n2} entries · {d2}" in after and d1 not in after


def test_the_digest_matches_verify(event) -> None:
    report = event.record.verify()
    entries, digest = event.record.digest()
    assert (report.entries, report.digest[:12]) == (entries, digest)


# --------------------------------------------------------------------------- 2 legend


def test_standings_legend_says_how_an_override_counts(event) -> None:
    assert any(h.override for h in event.hands.list())
    text = flat("\n".join(pages(api.generate("standings", event, generated_at=WHEN))))
    assert ("An overridden hand (1 here) counts the ruling's chips and one hand, and "
            "nothing to wins, self-drawn, discards paid, flower pigs or largest win") in text
    assert "裁判长裁定的牌局" in text and "不计入和牌、自摸、点炮、花猪和最大番" in text


def test_standings_legend_follows_the_template_language(event) -> None:
    t = template_from_dict("standings", {"language": "en"})
    text = flat("\n".join(pages(api.generate("standings", event, template=t,
                                             generated_at=WHEN))))
    assert "An overridden hand" in text and "裁判长裁定的牌局" not in text


def test_no_override_no_legend(tmp_path: Path) -> None:
    t = build_sample(tmp_path / "plain.sqlite", rounds=1, hands_per_table=2, extras=False)
    text = flat("\n".join(pages(api.generate("standings", t, generated_at=WHEN))))
    t.close()
    assert "overridden hand" not in text


# --------------------------------------------------------------------------- 3 club ruleset


def test_club_tournament_prints_every_report(club) -> None:
    assert club.info.ruleset == "club-ottawa-32"
    entries, digest = club.record.digest()
    for report, pdf in every_report(club, pig_hand(club)).items():
        texts = pages(pdf)
        assert all("club-ottawa-32" in flat(x) for x in texts), report
        assert all(digest in x for x in texts), report


def test_club_ruling_sheet_shows_the_clubs_pig_and_clause_text(club) -> None:
    hid = pig_hand(club)
    pigs = [p for p in club.hands.get(hid).settlement["payments"] if p["clause"] == "§2.11"]
    assert pigs and all(p["chips"] == 32 for p in pigs)
    text = flat("\n".join(pages(api.generate("hand", club, hand_id=hid, generated_at=WHEN))))
    rules = club.ruleset()
    # the payment rows: "#, payer, payee, 32, §2.11, reason"
    for p in pigs:
        assert f"{p['from']} {p['to']} 32 §2.11" in text
    zh = rules.clause("§2.11").zh
    assert "赔32个筹码" in zh and flat(zh)[:40] in text
    shipped = get_ruleset("ottawa-2009").clause("§2.11").zh
    assert shipped != zh and flat(shipped)[20:60] not in text  # not the shipped 16-chip text
    assert "club-ottawa-32" in text and rules.name[:30] in text


def test_club_table_sheet_and_statement_itemise_the_pig(club) -> None:
    hid = pig_hand(club)
    h = club.hands.get(hid)
    table = flat("\n".join(pages(api.generate("table", club, round=h.round, table=h.table,
                                              generated_at=WHEN))))
    assert f"Hand {h.hand_no}" in table
    pig_seat = next(p["from"] for p in h.settlement["payments"] if p["clause"] == "§2.11")
    player = club.players.get(h.players[pig_seat])
    st = flat("\n".join(pages(api.generate("player", club, player=player.id,
                                           generated_at=WHEN))))
    assert "flower pig" in st


# --------------------------------------------------------------------------- 4 club demo


def test_club_demo_bundle_imports_verifies_and_pays_32(tmp_path: Path) -> None:
    t = Tournament.import_bundle(CLUB_DEMO, tmp_path / "demo.sqlite")
    try:
        report = t.record.verify()
        assert report.entries == t.record.digest()[0]
        rules = t.ruleset()
        assert rules.id == t.info.ruleset == "club-ottawa-32"
        assert rules.clause("§2.11").zh == ruleset_from_file(CLUB_FILE).clause("§2.11").zh
        pig = [p for h in t.hands.list() for p in h.settlement["payments"] if p["clause"] == "§2.11"]
        assert pig and {p["chips"] for p in pig} == {32}
        assert all(h.record["ruleset"] == "club-ottawa-32" for h in t.hands.list())
        pdf = api.generate("hand", t, hand_id=pig_hand(t), generated_at=WHEN)
        assert "赔32个筹码" in flat("\n".join(pages(pdf)))
    finally:
        t.close()


def test_club_demo_tool_rebuilds_the_same_file() -> None:
    """The tool is deterministic (a synthetic clock inside the chain): rebuilding gives the
    committed bundle's tournament, players, rounds, hands and penalties exactly. (The
    committed file was made before signed records — unsigned, an example of an old file;
    the tool now signs its record with a key of its own, so only the signing differs.)"""
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_club_demo
    finally:
        sys.path.remove(str(ROOT / "tools"))
    bundle, seen = make_club_demo.build(32)
    assert seen["§2.11"] > 0
    committed = json.loads(CLUB_DEMO.read_text(encoding="utf-8"))
    assert committed["format"] == "referee-tournament/2" and "signing_key" not in committed
    assert bundle["tournament"].pop("signing_key") == bundle["signing_key"]["fingerprint"]
    for section in ("tournament", "players", "rounds", "hands", "penalties"):
        assert bundle[section] == committed[section], section
    assert [e["action"] for e in bundle["chain"]] == [e["action"] for e in committed["chain"]]
