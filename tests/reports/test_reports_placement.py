"""The standings PDF under placement scoring and stages (issue 26), on the placement demo:
the points column before the chips, each row's stage and what it carried, the scoring and
the cut said above the table, one stage alone, penalties in points marked as points."""

from __future__ import annotations

import io
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee_app.core.scores import figure
from referee_app.reports import api
from referee_app.storage import Tournament

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "sample_events" / "demo-placement.json"
WHEN = datetime(2009, 1, 4, 18, 0, tzinfo=UTC)


def _text(pdf: bytes) -> str:
    return " ".join(" ".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)
                    .split())


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Tournament:
    db = tmp_path_factory.mktemp("pdf") / "placement.sqlite"
    t = Tournament.import_bundle(DEMO, db, backup_every=0)
    yield t
    t.close()


def test_the_standings_pdf_puts_the_points_first(demo: Tournament) -> None:
    text = _text(api.generate("standings", demo, generated_at=WHEN))
    head = text[text.index("名次 Rank"):]  # the table's header row
    assert head.index("阶段 Stage") < head.index("比赛分 Points") < head.index("带入 Carried") \
        < head.index("筹码 Chips") < head.index("局数 Hands")
    assert "同分比较 Tie-break: 比赛分 Points > 筹码 Chips" in text
    assert "各名次依次得 4, 2, 1, 0 分" in text and "worth 4, 2, 1, 0" in text
    assert "决赛：第 3 轮后前 8 名晋级，成绩带入一半" in text
    rows = demo.standings.table()
    top = rows[0]
    assert f"1 {top.player}" in text and f"决赛 {figure(top.points)} {figure(top.carried)} " \
        f"{figure(top.chips, signed=True)}" in text
    assert "预赛 Qualifying" in text
    assert "-1 比赛分 points" in text  # the penalty in points, as points


def test_one_stage_alone_in_the_pdf(demo: Tournament) -> None:
    text = _text(api.generate("standings", demo, generated_at=WHEN, stage="决赛"))
    assert "决赛 · 总成绩 Overall" in text
    text = text[:text.index("罚分与调整")]  # the table (the penalties listed below it name
    # everyone penalised)
    finalists = demo.standings.table(stage=2)
    assert all(r.player in text for r in finalists)
    others = [r.player for r in demo.standings.table() if r.stage == 1]
    assert not any(f" {name} " in text for name in others)
