"""Printable reports: content (text extracted with pypdf), determinism, templates, CLI.

The sample tournament (referee_app.reports.sample) is built once per module: 8 players,
2 rounds, 4 hands per table, plus an amendment, a void, an override and two penalties.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from examples import spec_example
from pypdf import PdfReader

from referee_app.core import HandRecord, get_ruleset, settle
from referee_app.reports import api
from referee_app.reports.detail import (
    clauses_cited,
    opponent_lines,
    seat_details,
    settlement_from_dict,
)
from referee_app.reports.gather import ReportDataError
from referee_app.reports.model import HandRulingData, ReportMeta
from referee_app.reports.render_hand import render_hand
from referee_app.reports.sample import build_sample
from referee_app.reports.template import (
    DEFAULT_COLUMNS,
    REPORTS,
    TEMPLATE_DIR,
    TemplateError,
    load_template,
    template_from_dict,
)

WHEN = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
EXAMPLE = spec_example(players=True)


def text_of(pdf: bytes, layout: bool = False) -> str:
    """All pages' text; ``layout`` keeps a table row on one line (for row assertions)."""
    mode = "layout" if layout else "plain"
    return "\n".join(p.extract_text(extraction_mode=mode)
                     for p in PdfReader(io.BytesIO(pdf)).pages)


def pages_of(pdf: bytes) -> int:
    return len(PdfReader(io.BytesIO(pdf)).pages)


@pytest.fixture(scope="module")
def event(tmp_path_factory: pytest.TempPathFactory):
    path = tmp_path_factory.mktemp("reports") / "event.sqlite"
    t = build_sample(path)
    yield t
    t.close()


def gen(t, report: str, **kw) -> bytes:
    return api.generate(report, t, generated_at=WHEN, **kw)


# --------------------------------------------------------------------------- every report


@pytest.mark.parametrize("report,params", [
    ("standings", {}), ("standings", {"round": 1}), ("standings", {"through": 2}),
    ("table", {"round": 1}),
    ("player", {"player": 1}), ("hand", {"hand_id": 1}), ("seating", {"round": 2}),
    ("slips", {"round": 1, "count": 2}),
])
def test_every_pdf_carries_name_time_pages_and_ruleset(event, report, params):
    pdf = gen(event, report, **params)
    n = pages_of(pdf)
    text = text_of(pdf)
    assert event.info.name in text
    assert "2026-11-29 20:00" in text
    assert "ottawa-2009" in text
    for page in range(1, n + 1):
        assert f"page {page} of {n}" in text
    title_zh, title_en = load_template(report).title_zh, load_template(report).title_en
    assert title_zh in text and title_en in text
    reader = PdfReader(io.BytesIO(pdf))
    fonts = reader.pages[0]["/Resources"]["/Font"]
    embedded = [f.get_object()["/BaseFont"] for f in fonts.values()]
    assert any("WenQuanYi" in str(b) or "RefereeCJK" in str(b) for b in embedded), embedded


def test_standings_rank_every_player_with_ties_and_penalties(event):
    rows = event.standings.table()
    text = text_of(gen(event, "standings"), layout=True)
    for r in rows:
        assert r.player in text
    top = rows[0]
    line = next(ln for ln in text.splitlines() if top.player in ln)
    assert (f"+{top.chips}" if top.chips > 0 else str(top.chips)) in line
    assert ("=1" if top.tied else "1") in line
    payers = {n for p in event.penalties.list() if not p.void for n in p.players}
    penalised = [r for r in rows if r.player in payers]
    assert penalised, "the sample has penalties"
    for r in penalised:
        assert any(r.player in ln and "†" in ln for ln in text.splitlines())
    # issue 13: receiving chips from a zero-sum penalty is not being penalised
    for r in rows:
        if r.penalties and r.player not in payers:
            line = next(ln for ln in text.splitlines() if r.player in ln and "‡" in ln)
            assert "†" not in line
    assert "迟到 late arrival" in text
    assert "fewer discards paid" in text  # the tie-break order, "-discards_paid"


def test_standings_after_round_differ_from_overall(event):
    after1 = {r.player: r.chips for r in event.standings.table(through_round=1)}
    text = text_of(gen(event, "standings", through=1), layout=True)
    assert "After round 1" in text
    some = next(p for p, c in after1.items() if c != 0)
    line = next(ln for ln in text.splitlines() if some in ln)
    assert f"{after1[some]:+d}".replace("+0", "0") in line


def test_table_sheet_running_totals_match_the_database(event):
    data = api.gather_data("table", event, WHEN, round=1, table=1)
    sheet = data[0]
    hands = event.hands.list(round=1, table=1)
    assert [h.hand_no for h in sheet.hands] == [h.hand_no for h in hands]
    for i, seat in enumerate(sheet.seats):
        assert sheet.hands[-1].running[i] == sum(h.totals.get(seat, 0) for h in hands)
    text = text_of(api.render("table", data))
    for name in sheet.players:
        assert name in text
    assert "void" in text and "head-referee override" in text and "v2" in text
    for h in sheet.hands:
        for d in h.details:
            if d.order is not None:
                assert d.pattern.text("zh") in text  # the rules' name


def test_table_sheets_for_a_round_have_every_table(event):
    pdf = gen(event, "table", round=2)
    text = text_of(pdf)
    for tno in event.rounds.seating(2).tables:
        assert f"Table {tno}" in text
    assert pages_of(pdf) >= len(event.rounds.seating(2).tables)


def test_player_statement_totals_agree_with_standings(event):
    row = event.standings.table()[0]
    data = api.gather_data("player", event, WHEN, player=row.player_id)
    assert data.total == row.chips
    assert sum(o.total for o in data.opponents) == data.hand_chips
    text = text_of(api.render("player", data))
    assert row.player in text
    for o in data.opponents:
        assert o.opponent in text
    assert f"Total chips: {row.chips:+d}".replace("+0", "0") in text


def test_hand_ruling_sheet_cites_every_clause_with_text_and_history(event):
    amended = next(h for h in event.hands.list() if h.amended)
    data = api.gather_data("hand", event, WHEN, hand_id=amended.id)
    text = text_of(api.render("hand", data))
    st = data.settlement
    assert st.trace
    for line in st.trace:
        assert line.split()[0] in text
    for c in data.clauses:
        assert c.id in text
        assert c.zh[:12] in text.replace("\n", "")
    assert "re-entered from the table's slip" in " ".join(text.split())  # amendment reason
    assert "Head referee" in text and "Signature" in text
    assert len(data.versions) == 2


def test_hand_ruling_sheet_of_an_override_lists_the_violations(event):
    h = next(h for h in event.hands.list() if h.override)
    text = text_of(gen(event, "hand", hand_id=h.id))
    assert "Rule violations" in text
    for e in h.settlement["errors"]:
        assert e["clause"] in text
    assert "head referee ruling" in text


def test_seating_chart_and_one_card_per_table(event):
    pdf = gen(event, "seating", round=2)
    tables = event.rounds.seating(2).tables
    assert pages_of(pdf) == 1 + len(tables)
    text = text_of(pdf)
    for row in tables.values():
        for name in row.values():
            assert name in text


def test_slips_numbered_from_the_next_hand(event):
    pdf = gen(event, "slips", round=2, count=3)
    tables = event.rounds.seating(2).tables
    assert pages_of(pdf) == (3 * len(tables) + 1) // 2  # default: as many as fit, 2 on A4
    text = text_of(pdf)
    first = event.hands.next_no(2, 1)
    for k in range(first, first + 3):
        assert f"Hand {k}" in text
    for name in tables[1].values():
        assert name in text
    for flag in ("杠上花", "抢杠", "Wall exhausted"):
        assert flag in text
    one = api.generate("slips", event, generated_at=WHEN, round=2, count=3,
                       template=template_from_dict("slips", {"options": {"slips_per_page": 1}}))
    assert pages_of(one) == 3 * len(tables)


def test_unknown_round_table_player_hand_are_clear_errors(event):
    with pytest.raises(ReportDataError, match="round: round 9 has no seating"):
        gen(event, "table", round=9)
    with pytest.raises(ReportDataError, match="table: round 1 has no table 7"):
        gen(event, "table", round=1, table=7)
    with pytest.raises(ValueError, match="player"):
        gen(event, "player", player="Nobody Here")
    with pytest.raises(ValueError, match="hand_id"):
        gen(event, "hand", hand_id=999)
    with pytest.raises(ReportDataError, match="count"):
        gen(event, "slips", round=1, count=0)


# --------------------------------------------------------------------------- determinism


def test_same_data_same_bytes(event):
    for report, params in (("standings", {}), ("hand", {"hand_id": 2}), ("table", {"round": 1})):
        assert gen(event, report, **params) == gen(event, report, **params)
    later = api.generate("standings", event, generated_at=datetime(2026, 11, 30, tzinfo=UTC))
    assert later != gen(event, "standings")


def test_cli_twice_gives_identical_files(event, tmp_path):
    db = event.path
    outs = []
    for i in range(2):
        out = tmp_path / f"s{i}.pdf"
        r = subprocess.run([sys.executable, "-m", "referee_app", "report", "standings", "--db",
                            str(db), "-o", str(out), "--generated-at", "2026-11-29T20:00"],
                           capture_output=True, text=True)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
    assert outs[0] == outs[1]


# --------------------------------------------------------------------------- templates


def test_shipped_templates_are_valid_and_match_the_defaults():
    for report in REPORTS:
        path = TEMPLATE_DIR / f"{report}.toml"
        assert path.is_file(), path
        t = load_template(report, path)
        assert t.columns == {k: tuple(v) for k, v in DEFAULT_COLUMNS[report].items()}
        # the shipped files spell out the defaults: same template as none at all
        assert replace(t, source="") == replace(template_from_dict(report, {}), source="")


def test_template_title_paper_and_columns_take_effect(event, tmp_path):
    tpl = tmp_path / "standings.toml"
    tpl.write_text('title = {zh = "龙虎榜", en = "Leaderboard"}\npaper = "Letter"\n'
                   'columns = ["rank", "player", "chips", "flower_pigs"]\n'
                   'header = "Posted at the desk"\n[labels]\nchips = {zh = "积分", en = "Points"}\n',
                   encoding="utf-8")
    pdf = api.generate("standings", event, template=tpl, generated_at=WHEN)
    reader = PdfReader(io.BytesIO(pdf))
    box = reader.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    text = text_of(pdf)
    assert "龙虎榜 Leaderboard" in text and "Posted at the desk" in text
    assert "积分" in text and "Points" in text and "Flower pigs" in text
    assert "Self-drawn" not in text  # not chosen any more
    default = gen(event, "standings")
    box = PdfReader(io.BytesIO(default)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (595, 842)


def test_landscape_english_only_json_template(event, tmp_path):
    tpl = tmp_path / "t.json"
    tpl.write_text(json.dumps({"orientation": "landscape", "language": "en"}), encoding="utf-8")
    pdf = api.generate("table", event, template=tpl, generated_at=WHEN, round=1, table=2)
    box = PdfReader(io.BytesIO(pdf)).pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (842, 595)
    text = text_of(pdf)
    assert "Table sheet" in text and "牌桌记录单" not in text and "Running" in text


def test_logo_is_drawn(event, tmp_path):
    from PIL import Image

    Image.new("RGB", (40, 40), (200, 30, 30)).save(tmp_path / "logo.png")
    (tmp_path / "seating.toml").write_text('logo = "logo.png"\n', encoding="utf-8")
    pdf = api.generate("seating", event, template=tmp_path / "seating.toml",
                       generated_at=WHEN, round=1)
    xobjects = PdfReader(io.BytesIO(pdf)).pages[0]["/Resources"]["/XObject"]
    assert any(x.get_object()["/Subtype"] == "/Image" for x in xobjects.values())


@pytest.mark.parametrize("data,field", [
    ({"colums": ["rank"]}, "colums"),
    ({"columns": ["rank", "elo"]}, "columns[1]"),
    ({"columns": ["rank", "rank"]}, "columns[1]"),
    ({"columns": []}, "columns"),
    ({"paper": "A3"}, "paper"),
    ({"orientation": "sideways"}, "orientation"),
    ({"language": "fr"}, "language"),
    ({"font_size": 40}, "font_size"),
    ({"logo": "nowhere.png"}, "logo"),
    ({"title": {"de": "Rangliste"}}, "title.de"),
    ({"labels": {"nonsense": "x"}}, "labels.nonsense"),
    ({"options": {"zebra": "yes"}}, "options.zebra"),
    ({"options": {"colour": True}}, "options.colour"),
    ({"report": "slips"}, "report"),
])
def test_bad_templates_name_the_key(data, field):
    with pytest.raises(TemplateError) as e:
        template_from_dict("standings", data)
    assert e.value.field == field


def test_unreadable_template_file(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text("title = [unclosed", encoding="utf-8")
    with pytest.raises(TemplateError, match="not valid TOML"):
        load_template("standings", bad)
    with pytest.raises(TemplateError, match="file not found"):
        load_template("standings", tmp_path / "missing.toml")


# --------------------------------------------------------------------------- engine-only data


def test_details_and_statement_of_the_spec_example():
    rec = HandRecord.from_dict(EXAMPLE)
    s = settle(rec)
    d = {x.seat: x for x in seat_details(rec, s)}
    assert (d["E"].order, d["E"].pattern.text("zh"), d["E"].pattern_fan, d["E"].bonus_fan,
            d["E"].total_fan, d["E"].total) == (2, "清一色", 3, 1, 4, 30)
    assert d["E"].pattern.text("en") == "Flush"  # the pattern's names, in each language
    assert (d["S"].kong, d["S"].ready, d["S"].total) == (6, 18, 16)
    assert d["W"].total == -61 and d["W"].order is None
    assert sum(x.total for x in d.values()) == 0
    lines = {o.opponent: o for o in opponent_lines([("W", s, {"E": "Li Wei", "S": "Zhang Min",
                                                             "W": "Chen Jie",
                                                             "N": "Wang Fang"})])}
    assert lines["Zhang Min"].kong == -2 and lines["Zhang Min"].ready == -18
    assert lines["Li Wei"].win == -8 and lines["Li Wei"].ready == -16
    assert sum(o.total for o in lines.values()) == -61


def test_stored_settlement_reads_back_identically():
    s = settle(HandRecord.from_dict(EXAMPLE))
    assert settlement_from_dict(s.to_dict()).to_dict() == s.to_dict()


def test_ruling_sheet_from_a_record_without_database():
    rec = HandRecord.from_dict(EXAMPLE)
    s = settle(rec)
    meta = ReportMeta("Desk test", "ottawa-2009", WHEN)
    data = HandRulingData(meta, rec, s, clauses_cited(s))
    text = text_of(render_hand(data, load_template("hand")))
    for cid in ("§2.10", "§2.6", "§2.7", "§2.11", "§2.12", "§4.3", "§5.1"):
        assert cid in text
    rules = get_ruleset("ottawa-2009")
    assert rules.clause("§2.11").zh[:10] in text.replace("\n", "")
    assert "Li Wei" in text and "+30" in text and "-61" in text


def test_reports_package_imports_no_qt():
    code = ("import sys, referee_app.reports.api, referee_app.reports.render_hand, "
            "referee_app.reports.render_table, referee_app.reports.gather, referee_app.cli.report; "
            "bad = [m for m in sys.modules if m.startswith(('PySide6', 'shiboken'))]; "
            "assert not bad, bad")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


# --------------------------------------------------------------------------- CLI


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "referee_app", "report", *args],
                          capture_output=True, text=True)


def test_cli_help_for_every_report():
    from click.testing import CliRunner

    from referee_app.cli import main

    runner = CliRunner()
    r = runner.invoke(main, ["report", "--help"])
    assert r.exit_code == 0
    for report in ("standings", "table", "player", "hand", "seating", "slips"):
        r = runner.invoke(main, ["report", report, "--help"])
        assert r.exit_code == 0 and "--db" in r.output and "--template" in r.output


def test_cli_writes_pdf_and_refuses_bad_input(event, tmp_path):
    from click.testing import CliRunner

    from referee_app.cli import main

    db = str(event.path)
    runner = CliRunner()
    out = tmp_path / "t.pdf"
    r = runner.invoke(main, ["report", "table", "--round", "1", "--table", "2", "--db", db,
                             "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert out.read_bytes().startswith(b"%PDF")
    player = event.players.list()[0]
    r = runner.invoke(main, ["report", "player", player.name, "--db", db, "-o", str(out)])
    assert r.exit_code == 0, r.output
    assert player.name in text_of(out.read_bytes())

    bad = tmp_path / "bad.pdf"
    cases = [
        (["table", "--round", "9"], "error: round:"),
        (["player", "Nobody Here"], "error: player:"),
        (["hand", "999"], "error: hand_id:"),
        (["standings", "--template", str(tmp_path / "none.toml")], "error: template:"),
    ]
    for args, message in cases:
        r = runner.invoke(main, ["report", *args, "--db", db, "-o", str(bad)])
        assert r.exit_code == 2, (args, r.output)
        assert message in r.output, (args, r.output)
        assert not bad.exists()
    r = runner.invoke(main, ["report", "standings", "--db", str(tmp_path / "no.sqlite"),
                             "-o", str(bad)])
    assert r.exit_code == 2 and r.output.startswith("error: ")


def test_shared_ranks_are_printed_with_equals_sign():
    from referee_app.reports.model import StandingRow, StandingsData

    meta = ReportMeta("Tie Cup", "ottawa-2009", WHEN)
    rows = (StandingRow(1, "甲", 40), StandingRow(2, "乙", 10, tied=True, wins=2),
            StandingRow(2, "丙", 10, tied=True, wins=2), StandingRow(4, "丁", -60, penalties=-5))
    text = text_of(api.render("standings", StandingsData(meta, rows)), layout=True)
    lines = [ln.split() for ln in text.splitlines() if ln.split()[:1] in (["1"], ["=2"], ["4"])]
    assert [ln[:3] for ln in lines] == [["1", "甲", "+40"], ["=2", "乙", "+10"],
                                        ["=2", "丙", "+10"], ["4", "丁", "†"]]
    assert "-60" in lines[-1] and "-5" in lines[-1]


def test_table_template_can_add_detail_columns(event, tmp_path):
    tpl = tmp_path / "table.toml"
    tpl.write_text('columns = ["seat", "player", "pattern", "tile", "how", "bonuses", "total"]\n',
                   encoding="utf-8")
    data = api.gather_data("table", event, WHEN, round=1)
    text = " ".join(text_of(api.render("table", data, load_template("table", tpl))).split())
    winners = [d for s in data for h in s.hands for d in h.details if d.order is not None]
    assert winners
    for d in winners:
        assert d.tile in text
        if d.bonuses:
            assert d.bonuses.text("zh").split("、")[0] in text
    assert "Bonuses" in text and "Ready check" not in text


def test_chinese_only_template(event):
    pdf = api.generate("standings", event, generated_at=WHEN,
                       template=template_from_dict("standings", {"language": "zh"}))
    text = text_of(pdf)
    assert "成绩排名" in text and "Standings" not in text and "page 1 of" not in text
    assert "第 1 页，共 1 页" in text


def test_void_and_override_hands_count_what_the_standings_count(event):
    sheet = api.gather_data("table", event, WHEN, round=1, table=1)[0]
    void = [h for h in sheet.hands if h.status == "void"]
    override = [h for h in sheet.hands if h.override]
    assert void and override
    assert all(v == 0 for h in void for v in h.totals)
    stored = next(h for h in event.hands.list(round=1, table=1) if h.override)
    assert override[0].totals == tuple(stored.totals[s] for s in sheet.seats)


def test_broken_stored_settlement_names_the_field():
    from referee_app.reports.detail import SettlementFormatError

    d = settle(HandRecord.from_dict(EXAMPLE)).to_dict()
    del d["wins"][0]["pattern_clause"]
    with pytest.raises(SettlementFormatError) as e:
        settlement_from_dict(d)
    assert e.value.field == "settlement.pattern_clause"
