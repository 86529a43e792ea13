"""Three-seat tables (zigong-3p: seats E, S, W): every report must take seats from the data.

The database-backed test runs for every shipped ruleset with three seats; the dataclass
test builds the data by hand, so the renderers never assume four.
"""

from __future__ import annotations

import io
from datetime import UTC, datetime

import pytest
from pypdf import PdfReader

from referee_app.core import list_rulesets
from referee_app.reports import api
from referee_app.reports.model import (
    HandSheet,
    ReportMeta,
    SeatDetail,
    SeatedPlayer,
    SeatingData,
    SeatingTable,
    SlipsData,
    TableSheetData,
)
from referee_app.reports.sample import build_sample

WHEN = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
THREE_SEAT = [r.id for r in list_rulesets() if len(r.seats) == 3]


def text_of(pdf: bytes) -> str:
    return "\n".join(p.extract_text(extraction_mode="layout")
                     for p in PdfReader(io.BytesIO(pdf)).pages)


def test_three_seat_dataclasses_render_without_a_north():
    meta = ReportMeta("Zigong 3p cup", "zigong-3p", WHEN)
    seats = ("E", "S", "W")
    players = ("甲一", "乙二", "丙三")
    details = tuple(SeatDetail(s, p, 1 if s == "E" else None, "清一色" if s == "E" else "",
                               3 if s == "E" else None, 0 if s == "E" else None,
                               3 if s == "E" else None, c, 0, 0, 0, c)
                    for s, p, c in zip(seats, players, (8, -4, -4), strict=True))
    sheet = TableSheetData(meta, 1, "1", seats, players,
                           (HandSheet(1, (8, -4, -4), (8, -4, -4), details, dealer="E"),))
    text = text_of(api.render("table", [sheet]))
    assert "N 累计" not in text and "W 累计" in text
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("1 ") and "+8" in ln)
    assert row.split()[:8] == ["1", "E", "+8", "+8", "-4", "-4", "-4", "-4"]

    table = SeatingTable("1", tuple(SeatedPlayer(s, p) for s, p in zip(seats, players,
                                                                        strict=True)))
    seating = api.render("seating", SeatingData(meta, 1, (table,), seat_labels=seats))
    assert len(PdfReader(io.BytesIO(seating)).pages) == 2
    # plain extraction: pypdf's layout mode skips the forms (XObjects) slips are drawn from
    slips = PdfReader(io.BytesIO(api.render("slips", SlipsData(
        meta, 1, (table,), seat_labels=seats, flags=("declared_ready",), count=1)))
    ).pages[0].extract_text()
    assert "N 签名" not in slips and "W 签名" in slips and "报调" in slips


@pytest.mark.parametrize("ruleset", THREE_SEAT)
def test_three_seat_tournament_prints_every_report(tmp_path, ruleset):
    t = build_sample(tmp_path / "3p.sqlite", ruleset=ruleset, players=6, rounds=1,
                     hands_per_table=3)
    try:
        assert t.info.seats == ("E", "S", "W")
        jobs = [("standings", {}), ("table", {"round": 1}), ("player", {"player": 1}),
                ("hand", {"hand_id": 1}), ("seating", {"round": 1}),
                ("slips", {"round": 1, "count": 1})]
        for report, params in jobs:
            text = text_of(api.generate(report, t, generated_at=WHEN, **params))
            assert ruleset in text, report
            assert " N " not in text.replace("Rank", ""), report
    finally:
        t.close()
