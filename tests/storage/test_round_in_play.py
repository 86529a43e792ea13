"""The round in play (issue 25) and its clock (issue 26): ``t.rounds.start``/``in_play``,
recorded in the chain, carried by bundles, followed by penalties without a round."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from referee_app.storage import (
    AuthError,
    BundleError,
    InPlay,
    SeatingError,
    StorageError,
    Tournament,
)


@pytest.fixture
def t(make_tournament) -> Tournament:
    return make_tournament(rounds=3)


def _at(text: str | None) -> datetime:
    assert text is not None
    return datetime.fromisoformat(text)


def test_without_a_start_the_latest_round_with_a_hand_else_round_1(t, record_for) -> None:
    assert (t.rounds.in_play().round, t.rounds.in_play().source) == (1, InPlay.FIRST)
    t.hands.add(record_for(t, 2, 1), round=2, table=1, hand_no=1)
    p = t.rounds.in_play()
    assert (p.round, p.source, p.timed, p.started_at) == (2, InPlay.HANDS, False, None)


def test_a_start_makes_the_round_in_play_and_records_it(t, record_for) -> None:
    t.hands.add(record_for(t, 1, 1), round=1, table=1, hand_no=1)
    t.rounds.start(3)
    s = t.rounds.start(2, referee="赵")  # back from 3, as after a slip of the finger
    assert (s.round, s.source, s.in_play, s.timed) == (2, InPlay.STARTED, True, False)
    assert t.rounds.in_play() == s
    t.rounds.start(1)
    assert t.rounds.in_play().round == 1
    t.rounds.start(3)
    assert t.rounds.in_play().round == 3
    assert t.rounds.state(1).in_play is False and t.rounds.state(2).in_play is False
    assert [e["action"] for e in t.record.log()][-4:] == ["round.start"] * 4
    assert t.record.log()[-2]["detail"] == {"round": 1, "minutes": None}
    assert t.record.verify().entries == len(t.record.log())


def test_a_later_round_with_hands_overrules_a_start_left_behind(t, record_for) -> None:
    t.rounds.start(1, minutes=90)
    t.hands.add(record_for(t, 2, 1), round=2, table=1, hand_no=1)  # round 2 never started
    assert (t.rounds.in_play().round, t.rounds.in_play().source) == (2, InPlay.HANDS)


def test_the_clock_runs_from_the_start_and_extends(t) -> None:
    s = t.rounds.start(1, minutes=90)
    start = _at(s.started_at).replace(microsecond=0)
    assert _at(s.ends_at) == start + timedelta(minutes=90)
    assert _at(s.ends_at).utcoffset() == timedelta(0)  # UTC
    assert (s.minutes, s.added) == (90, 0)
    e = t.rounds.start(1, extend=15)
    assert _at(e.ends_at) == start + timedelta(minutes=105)
    assert (e.minutes, e.added, e.started_at) == (90, 15, s.started_at)
    assert t.record.log()[-1]["action"] == "round.extend"
    # started again without minutes: the clock is kept; with minutes: set anew from now
    assert t.rounds.start(1).ends_at == e.ends_at
    again = t.rounds.start(1, minutes=10)
    assert (again.minutes, again.added, again.started_at) == (10, 0, s.started_at)
    assert _at(again.ends_at) <= datetime.now(UTC) + timedelta(minutes=10)
    # the time left
    assert again.seconds_left(_at(again.ends_at) - timedelta(seconds=61)) == 61
    assert again.seconds_left(_at(again.ends_at) + timedelta(hours=1)) == 0
    assert t.rounds.start(2).seconds_left() is None


@pytest.mark.parametrize(("kwargs", "field", "words"), [
    ({"number": 4}, "round", "round 4 is not seated yet"),
    ({"number": 1, "minutes": 0}, "minutes", "1..1440"),
    ({"number": 1, "minutes": 1441}, "minutes", "1..1440"),
    ({"number": 1, "extend": 5}, "extend", "round 1 has no clock to extend"),
    ({"number": 1, "minutes": 5, "extend": 5}, "extend", "not both"),
])
def test_refusals_name_the_field_and_write_nothing(t, kwargs, field, words) -> None:
    before = t.record.digest()
    with pytest.raises(StorageError) as e:
        t.rounds.start(**kwargs)
    assert e.value.field == field and words in e.value.problem
    assert t.record.digest() == before
    assert isinstance(e.value, SeatingError) == (field == "round")


def test_only_the_head_referee_starts_a_round(tmp_path: Path) -> None:
    t = Tournament.create(tmp_path / "r.sqlite", "R", head_referee="赵", head_pin="123456",
                          backup_every=0)
    t.referees.sign_in("赵", "123456")
    t.players.import_csv(_csv(tmp_path, 4), referee="赵")
    t.referees.add("钱", pin="567890", referee="赵")
    t.rounds.seat(1, seed=1, referee="赵")
    t.referees.sign_in("钱", "567890")
    with pytest.raises(AuthError, match="head referee"):
        t.rounds.start(1, referee="钱")
    t.referees.sign_in("赵", "123456")
    assert t.rounds.start(1, minutes=5, referee="赵").started_by == "赵"
    t.close()


def _csv(tmp_path: Path, n: int) -> Path:
    p = tmp_path / "p.csv"
    p.write_text("name\n" + "\n".join(f"选手{i}" for i in range(n)) + "\n", encoding="utf-8")
    return p


def test_bundles_carry_the_state_and_refuse_an_edit(t, tmp_path: Path) -> None:
    t.rounds.start(2, minutes=45)
    t.rounds.start(2, extend=5)
    bundle = t.export_bundle()
    assert "state" not in bundle["rounds"][0]  # never started: as bundles before
    assert bundle["rounds"][1]["state"]["minutes"] == 45
    assert bundle["rounds"][1]["state"]["added"] == 5
    u = Tournament.import_bundle(bundle, tmp_path / "u.sqlite", backup_every=0)
    with u:
        assert u.rounds.in_play() == t.rounds.in_play()
        assert u.export_bundle() == bundle
    edited = json.loads(json.dumps(bundle))
    edited["rounds"][1]["state"]["ends_at"] = "2099-01-01T00:00:00+00:00"
    with pytest.raises(BundleError, match=r"rounds\[1\]\.state\.ends_at"):
        Tournament.import_bundle(edited, tmp_path / "v.sqlite")
    assert not (tmp_path / "v.sqlite").exists()


def test_a_penalty_without_a_round_counts_in_the_round_in_play(t) -> None:
    name = t.players.list()[0].name
    assert t.penalties.add([name], 3, "late").round == 1  # nothing started: round 1
    t.rounds.start(2)
    p = t.penalties.add([name], 5, "noise")
    assert p.round == 2
    assert t.penalties.add([name], 1, "phone", round=1).round == 1  # given: kept
    row = {r.player: r for r in t.standings.table(through_round=2)}[name]
    assert row.penalties == -9 and row.per_round == {1: -4, 2: -5}
