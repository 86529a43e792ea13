"""Issue 22: one word per concept (docs/glossary.md) on the desk, the reports and the pages.

The glossary's table is read as data: no word of its "Not used" column appears in the
message catalogue (中文), the shipped report templates or the results pages' templates;
and the four concepts that had three names each (chips, discards paid, wall exhausted,
override) use the chosen word wherever the desk, a report and a page name them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from referee_app.core.i18n import text

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"
PO_ZH = ROOT / "referee_app" / "locale" / "zh" / "LC_MESSAGES" / "referee_app.po"


def _rows() -> dict[str, tuple[str, list[str]]]:
    """English concept -> (中文 word, rejected words), from the glossary's table."""
    rows = {}
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("Concept", "") or set(cells[0]) <= {"-"}:
            continue
        concept, zh, _, _, rejected = cells
        word = re.sub(r"\s*\(.*\)$", "", zh)  # "和牌 (和)" -> 和牌
        rows[concept] = (word, [w.strip() for w in rejected.split(",") if w.strip("— ")])
    return rows


def _sources() -> dict[str, str]:
    """Where a reader sees the app's words: every 中文 text of the catalogue (the desk's,
    the reports', the pages', every message's), every shipped report template (comments
    included: they show a club what to write) and every page template."""
    with PO_ZH.open("rb") as f:
        out = {f"catalogue {m.id}": m.string for m in read_po(f) if m.id}
    for p in sorted((ROOT / "templates").glob("*.toml")):
        out[f"templates/{p.name}"] = p.read_text(encoding="utf-8")
    pages = ROOT / "referee_app" / "server" / "templates"
    for p in sorted(pages.glob("*.html")):
        out[f"server/templates/{p.name}"] = p.read_text(encoding="utf-8")
    return out


def test_the_glossary_table_reads() -> None:
    rows = _rows()
    assert len(rows) >= 19
    assert rows["absent (checked in as not here: not seated, results kept)"][0] == "缺席"
    assert rows["chips"] == ("筹码", ["游戏豆", "积分", "豆"])
    assert rows["placement points (a player's points for their place at the table in one "
                "round, e.g. 4, 2, 1, 0)"] == ("比赛分", ["积分", "名次分"])
    assert rows["discards paid (the discarder pays the win)"][0] == "点炮"


def test_no_rejected_word_is_used() -> None:
    sources = _sources()
    assert len(sources) > 700
    used = [f"{where}: {word!r} (say {chosen})" for chosen, rejected in _rows().values()
            for word in rejected for where, s in sources.items() if word in s]
    assert used == []


#: concept -> catalogue keys naming it on the desk, in the reports and on the pages
NAMED_AT = {
    "chips": ("Chips", "chips_unit", "report.col.standings.chips", "report.label.chips",
              "report.col.player_hand.chips", "page.chips"),
    "discards paid (the discarder pays the win)": (
        "Discards paid", "report.col.standings.discards_paid"),
    "wall exhausted (nobody left wins and the wall is drawn)": (
        "Wall exhausted", "field.top.wall_exhausted", "report.label.wall_exhausted"),
    "override (a hand recorded against the rules by the head referee, with a reason)": (
        "status_override", "prog_override", "report.label.override", "page.override",
        "error.line_override", "error.opponent_override"),
    "placement points (a player's points for their place at the table in one round, "
    "e.g. 4, 2, 1, 0)": ("Points", "report.col.standings.points", "page.points",
                         "cli.standings.col.points", "n_points", "report.label.points_unit",
                         "page.scoring_placement", "cli.penalty.in_points"),
    "stage (the rounds played by the players a cut chose: qualifying, final)": (
        "Stage", "report.col.standings.stage", "page.stage", "cli.standings.col.stage"),
    "ready (a hand one tile from winning)": (
        "trace.ready", "report.label.ready", "error.result_ready"),
    # issue 26: a team event and check-in, on the desk, the sheets, the pages, the CLI
    "team (players whose results are added up in a team event)": (
        "team_col", "report.col.teams.team", "report.col.seating.team", "page.team",
        "cli.standings.col.team"),
    "team standings (each team's members added up, ranked)": (
        "team_standings", "report_teams", "report.title.teams", "page.teams",
        "cli.standings.teams_head"),
    "absent (checked in as not here: not seated, results kept)": (
        "pstatus_absent", "absent_list", "absent_mark", "report.label.absent", "page.absent",
        "cli.round.absent"),
    "check-in (who is here before a round is seated)": ("checkin_title", "Check-in…"),
}


@pytest.mark.parametrize("concept", sorted(NAMED_AT))
def test_desk_reports_and_pages_say_the_same_word(concept: str) -> None:
    word = _rows()[concept][0]
    assert [k for k in NAMED_AT[concept] if word not in text(k, "zh")] == []


@pytest.fixture(scope="module")
def printed_in_chinese(tmp_path_factory) -> str:
    """The text of every report a referee prints, in 中文 only (a template's ``language =
    "zh"``), for the sample tournament (an amendment, a void, an override, penalties)."""
    import dataclasses
    from datetime import UTC, datetime

    from pypdf import PdfReader

    from referee_app.reports.api import generate
    from referee_app.reports.sample import build_sample
    from referee_app.reports.template import load_template

    t = build_sample(tmp_path_factory.mktemp("zh") / "t.sqlite")
    try:
        override = next(h for h in t.hands.list() if h.override)
        player = override.players[next(iter(override.players))]
        jobs = {"standings": {}, "table": {"round": 1}, "player": {"player": player},
                "hand": {"hand_id": override.id}, "seating": {"round": 1}}
        out = []
        for report, params in jobs.items():
            tpl = dataclasses.replace(load_template(report), language="zh")
            pdf = generate(report, t, template=tpl, generated_at=datetime(2026, 1, 1, tzinfo=UTC),
                           **params)
            path = t.path.parent / f"{report}.pdf"
            path.write_bytes(pdf)
            out += [page.extract_text() for page in PdfReader(path).pages]
        return "\n".join(out)
    finally:
        t.close()


def test_a_report_printed_in_chinese_says_what_the_desk_says(printed_in_chinese: str) -> None:
    """The glossary's words, none it rejects; statuses and results in words, not codes."""
    said = printed_in_chinese.replace("赵总裁判", "")  # the sample's head referee's name
    for concept in ("chips", "override (a hand recorded against the rules by the head "
                    "referee, with a reason)", "ready (a hand one tile from winning)"):
        assert _rows()[concept][0] in said, concept
    rejected = [w for _, words in _rows().values() for w in words if w in said]
    assert rejected == []
    assert "已录入" in said and "零和" in said  # a hand's status, a zero-sum penalty
    for english in ("verified", "not ready", "self-drawn", "discard to", "breaks a rule",
                    "override:", "(zero-sum)", "Clause", "[entered]", "active"):
        assert english not in said, english  # (the sample's typed reasons are its own)
