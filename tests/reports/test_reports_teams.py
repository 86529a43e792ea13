"""The team standings sheet and the seating chart of a round with absent players and byes
(issue 26), read back from the PDFs."""

from __future__ import annotations

import io
import random
import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from pypdf import PdfReader

from referee_app.core.generate import random_record
from referee_app.reports import api
from referee_app.reports.template import template_from_dict
from referee_app.storage import Tournament

WHEN = datetime(2026, 12, 7, 9, 0, tzinfo=UTC)
NAMES = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强")
TEAMS = ("川军", "蓉城")


def flat(pdf: bytes) -> str:
    return re.sub(r"\s+", "", "".join(p.extract_text() for p in
                                       PdfReader(io.BytesIO(pdf)).pages))


@pytest.fixture
def event(tmp_path: Path) -> Tournament:
    t = Tournament.create(tmp_path / "teams.sqlite", "Team Open", backup_every=0)
    for i, name in enumerate(NAMES):
        t.players.add(name, team=TEAMS[i % 2])
    t.rounds.seat(1, seed=2)
    rng = random.Random(9)
    for table, seats in t.rounds.seating(1).tables.items():
        for n in (1, 2, 3):
            t.hands.add(random_record(rng, t.info.ruleset, players=seats), round=1,
                        table=table, hand_no=n)
    yield t
    t.close()


def test_the_team_sheet_prints_the_sums_of_the_standings(event: Tournament) -> None:
    rows = event.standings.teams()
    text = flat(api.generate("teams", event, generated_at=WHEN))
    assert "团体排名TeamStandings" in text.replace("standings", "Standings")
    for r in rows:
        assert f"{r.rank}{r.team}" in text  # rank then team, in rank order
        assert "、".join(r.members) in text
        assert f"{r.chips:+d}" in text
    assert text.index(rows[0].team) < text.index(rows[1].team)
    # round 1 alone: the same sums (one round played), subtitled so
    one = flat(api.generate("teams", event, generated_at=WHEN, round=1))
    assert "仅第1轮" in one
    en = flat(api.generate("teams", event, generated_at=WHEN, template=template_from_dict(
        "teams", {"language": "en", "columns": ["rank", "team", "players", "chips"]})))
    assert "TeamStandings".lower() in en.lower() and "团体" not in en
    assert ", ".join(rows[0].members).replace(" ", "") not in en  # members column left out


def test_no_team_sheet_without_teams(tmp_path: Path) -> None:
    with Tournament.create(tmp_path / "plain.sqlite", "Plain", backup_every=0) as t:
        t.players.add("李伟")
        with pytest.raises(ValueError) as e:  # the report's refusal: a field and a problem
            api.generate("teams", t, generated_at=WHEN)
    assert "nobody is in a team" in str(e.value)


def test_the_seating_chart_says_who_is_absent_and_on_a_bye(event: Tournament) -> None:
    event.rounds.seat(2, seed=4)
    who = event.rounds.seating(2).tables[1]["E"]
    event.players.set_status(who, "absent")
    text = flat(api.generate("seating", event, generated_at=WHEN, round=2))
    assert f"{who}(缺席Absent)" in text  # seated, not yet re-seated
    event.plan.reseat(2, fill="byes")
    s = event.rounds.seating(2)
    text = flat(api.generate("seating", event, generated_at=WHEN, round=2))
    assert f"缺席Absent:{who}" in text
    assert "轮空Bye:" + "、".join(s.byes) in text
    assert f"缺席Absent{who}" in text  # in the find-your-seat list, where a seat would be
