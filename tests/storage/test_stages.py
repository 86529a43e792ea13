"""Stages (issue 26): a cut after round N sends the top K on, carrying their score in full,
halved or not at all; the others keep their order after round N below them.

Scores are checked against ``scoring_check`` (from the hands and penalties as listed), the
order below a cut against the standings after its round."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from scoring_check import scores_by_round, total

from referee_app.core import get_ruleset, settle
from referee_app.core.generate import random_record
from referee_app.core.record import HandRecord
from referee_app.storage import PlayerStatus, SeatingError, StorageError, Tournament

RULES = get_ruleset("ottawa-2009")
FACTOR = {"full": Fraction(1), "half": Fraction(1, 2), "none": Fraction(0)}


def _record(rng: random.Random, players: dict[str, str]) -> dict[str, Any]:
    while True:
        rec = random_record(rng, "ottawa-2009", players=players)
        if settle(HandRecord.from_dict(rec), RULES).ok:
            return rec


def _play(t: Tournament, rnd: int, rng: random.Random, hands: int = 3) -> None:
    for table, players in t.rounds.seating(rnd).tables.items():
        for no in range(1, hands + 1):
            t.hands.add(_record(rng, players), round=rnd, table=table, hand_no=no)


def _event(path: Path, scoring: str, players: int = 16, **kw: Any) -> Tournament:
    t = Tournament.create(path, "Staged", scoring=scoring, backup_every=0, **kw)
    for i in range(players):
        t.players.add(f"P{i:02d}")
    return t


def _untied_top(t: Tournament, after: int, near: int) -> int:
    """A number of players to cut at, near ``near``, where no tie straddles the cut."""
    rows = [r for r in t.standings.table(through_round=after)
            if r.status is not PlayerStatus.WITHDRAWN]
    return min((k for k in range(2, len(rows)) if rows[k - 1].rank != rows[k].rank),
               key=lambda k: abs(k - near))


def _score(scores: Any, name: str, placement: bool, first: int = 1, last: int | None = None,
           roundless: bool = False) -> Any:
    pts, chips = total(scores, name, first, last, roundless)
    return pts if placement else chips


@pytest.mark.parametrize(("scoring", "carry"), [("placement", "half"), ("placement", "full"),
                                                ("chips", "half"), ("chips", "none")])
def test_finalists_carry_their_score_and_the_others_keep_their_order(
        tmp_path: Path, scoring: str, carry: str) -> None:
    rng = random.Random(f"{scoring}-{carry}")
    placement = scoring == "placement"
    with _event(tmp_path / "e.sqlite", scoring, players=20) as t:
        for rnd in (1, 2, 3):
            t.rounds.seat(rnd, seed=rnd)
            _play(t, rnd, rng)
        after3 = t.standings.table(through_round=3)
        k = _untied_top(t, 3, 10)
        cut = t.stages.cut(3, k, carry, name="final")
        assert cut.stage.players == tuple(r.player_id for r in after3[:k])
        s = t.rounds.seat(4, seed=4)  # byes when they do not fill whole tables
        assert len(s.byes) == k % 4 and {a.player_id for a in s.assignments} | {
            p.id for p in t.players.list() if p.name in s.byes} == set(cut.stage.players)
        _play(t, 4, rng)
        t.rounds.seat(5, seed=5)
        _play(t, 5, rng, hands=2)
        scores = scores_by_round(t)
        rows = t.standings.table()
        finalists, others = rows[:k], rows[k:]
        assert {r.player_id for r in finalists} == set(cut.stage.players)
        assert [r.rank for r in finalists][0] == 1 and max(r.rank for r in finalists) <= k
        for r in finalists:  # carried + since the cut, nothing else
            carried = FACTOR[carry] * _score(scores, r.player, placement, 1, 3)
            new = _score(scores, r.player, placement, 4, None, roundless=True)
            assert r.carried == carried and r.score == carried + new, r.player
            assert r.stage == 2 and set(r.per_round) <= {4, 5}
        keys = [r.score for r in finalists]
        assert keys == sorted(keys, reverse=True)
        # below the cut: the order after round 3, ranked from k + 1, their figures as then
        before = {r.player_id: r for r in after3}
        assert [r.player_id for r in others] == [r.player_id for r in after3[k:]]
        assert others[0].rank == k + 1 and all(r.stage == 1 for r in others)
        assert all(r.score == before[r.player_id].score for r in others)
        # one stage alone; the qualifying one by either language's name
        final = t.standings.table(stage="final")
        assert final == finalists
        assert t.standings.table(stage="预赛") == t.standings.table(stage=1) == [
            r if r.stage == 1 else r for r in t.standings.table(stage="Qualifying")]
        assert [r.player_id for r in t.standings.table(stage=1)] == [r.player_id
                                                                     for r in after3]
        # the standings after round 3 are those the cut was made from
        assert [r.player_id for r in t.standings.table(through_round=3)] == \
            [r.player_id for r in after3]
        with Tournament.open(t.path, backup_every=0) as fresh:
            assert fresh.standings.table() == rows
        assert t.record.verify()


def test_three_stages_in_sequence(tmp_path: Path) -> None:
    rng = random.Random(5)
    with _event(tmp_path / "e.sqlite", "placement", players=24) as t:
        for rnd in (1, 2):
            t.rounds.seat(rnd, seed=rnd)
            _play(t, rnd, rng)
        semi = t.stages.cut(2, _untied_top(t, 2, 12), "full", name="semi").stage
        for rnd in (3, 4):
            t.rounds.seat(rnd, seed=rnd)
            _play(t, rnd, rng)
        semi_after4 = t.standings.table(through_round=4, stage="semi")
        k = _untied_top(t, 4, 4)
        final = t.stages.cut(4, k, "half", name="final").stage
        assert final.players == tuple(r.player_id for r in semi_after4[:k])
        t.rounds.seat(5, seed=5)
        _play(t, 5, rng)
        scores = scores_by_round(t)
        rows = t.standings.table()
        assert [s.name for s in t.stages.list()] == ["", "semi", "final"]
        n = len(semi.players)
        assert [r.stage for r in rows] == [3] * k + [2] * (n - k) + [1] * (24 - n)
        for r in rows[:k]:  # half of (the whole qualifying + the semi) + the final round
            semi_score = total(scores, r.player, 1, 2)[0] + total(scores, r.player, 3, 4)[0]
            assert r.score == semi_score / 2 + total(scores, r.player, 5)[0]
        assert [r.player_id for r in rows[k:n]] == [r.player_id for r in semi_after4[k:]]
        q = t.standings.table(through_round=2)
        assert [r.player_id for r in rows[n:]] == [r.player_id for r in q
                                                   if r.player_id not in semi.players]
        assert rows[n].rank == n + 1
        with pytest.raises(SeatingError) as e:
            t.rounds.set_seat(5, 1, "E", rows[5].player)
        assert e.value.message_code == "player_not_in_stage"


def test_a_plan_covers_one_stage(tmp_path: Path) -> None:
    with _event(tmp_path / "e.sqlite", "chips") as t:
        t.rounds.seat(1, seed=1)
        _play(t, 1, random.Random(1), hands=1)
        t.rounds.seat(2, seed=2)
        t.stages.cut(2, _untied_top(t, 2, 8), "full")
        with pytest.raises(SeatingError) as e:
            t.plan.make(4)  # rounds 2..4: round 2 is qualifying, 3 and 4 the final's
        assert e.value.message_code == "plan_crosses_cut"
        assert "is not in this stage" not in " ".join(t.rounds.problems(2))


def test_what_a_cut_refuses(tmp_path: Path) -> None:
    rng = random.Random(2)
    with _event(tmp_path / "e.sqlite", "placement", verified_only=True) as t:
        t.rounds.seat(1, seed=1)
        _play(t, 1, rng, hands=1)

        def refused(code: str, *args: Any, **kw: Any) -> None:
            with pytest.raises(StorageError) as e:
                t.stages.cut(*args, **kw)
            assert e.value.message_code == code, e.value

        refused("cut_provisional", 1, 8, "half")
        for h in t.hands.list():
            t.hands.set_status(h.id, "verified")
        refused("cut_round_not_seated", 2, 8, "half")
        refused("cut_top_range", 1, 16, "half")
        refused("cut_top_range", 1, 1, "half")
        refused("unknown_carry", 1, 8, "most")
        refused("stage_name_number", 1, 8, "half", name="2")
        refused("stage_name_taken", 1, 8, "half", name="qualifying")
        t.rounds.seat(2, seed=2)
        t.hands.add(_record(rng, t.rounds.seating(2).tables[1]), round=2, table=1, hand_no=1)
        refused("cut_after_play", 1, 8, "half")
        assert len(t.stages.list()) == 1


def test_a_tie_across_the_cut_is_broken_by_the_head_referee(tmp_path: Path) -> None:
    with _event(tmp_path / "e.sqlite", "placement", players=8) as t:
        t.rounds.seat(1, seed=1)
        rng = random.Random(1)
        for table, players in t.rounds.seating(1).tables.items():  # two level first each
            seats = list(players)
            t.hands.add(_record(rng, players), round=1, table=table, hand_no=1,
                        override_reason="ruling",
                        override_totals={seats[0]: 8, seats[1]: 8, seats[2]: -8,
                                         seats[3]: -8})
        rows = t.standings.table(through_round=1)
        assert [r.rank for r in rows] == [1, 1, 1, 1, 5, 5, 5, 5]
        with pytest.raises(StorageError) as e:
            t.stages.cut(1, 2, "full")
        assert e.value.message_code == "cut_splits_tie"
        with pytest.raises(StorageError) as e:
            t.stages.cut(1, 4, "full", prefer=[rows[0].player])
        assert e.value.message_code == "cut_no_tie"
        with pytest.raises(StorageError) as e:
            t.stages.cut(1, 2, "full", prefer=[rows[0].player, rows[5].player])
        assert e.value.message_code == "cut_splits_tie"
        cut = t.stages.cut(1, 2, "full", prefer=[rows[3].player, rows[1].player])
        assert set(cut.stage.players) == {rows[1].player_id, rows[3].player_id}
        out = t.standings.table()
        assert [r.rank for r in out] == [1, 1, 3, 3, 5, 5, 5, 5]
        assert {r.player for r in out[2:4]} == {rows[0].player, rows[2].player}


def test_a_cut_drops_seatings_made_before_it_and_can_be_cancelled(tmp_path: Path) -> None:
    rng = random.Random(3)
    with _event(tmp_path / "e.sqlite", "chips") as t:
        t.plan.make(3, seed=1)
        _play(t, 1, rng)
        t.players.set_status("P00", PlayerStatus.WITHDRAWN)
        after1 = [r for r in t.standings.table(through_round=1)
                  if r.status is not PlayerStatus.WITHDRAWN]
        k = _untied_top(t, 1, 8)
        cut = t.stages.cut(1, k, "none")
        assert cut.dropped_rounds == (2, 3) and cut.dropped_plan == (2, 3)
        assert t.players.get("P00").id not in cut.stage.players  # withdrawn: passed over
        assert cut.stage.players == tuple(r.player_id for r in after1[:k])
        assert [r.number for r in t.rounds.list()] == [1]
        _, seated = t.plan.make(3, seed=2)  # the final's rounds, planned for its players
        assert all({a.player_id for a in s.assignments} == set(cut.stage.players)
                   for s in seated)
        last = t.stages.cancel(reason="wrong round")
        assert last.number == 2 and len(t.stages.list()) == 1
        assert [r.number for r in t.rounds.list()] == [1]
        t.stages.cut(1, k, "none")
        t.rounds.seat(2, seed=3)
        _play(t, 2, rng, hands=1)
        with pytest.raises(StorageError) as e:
            t.stages.cancel(reason="too late")
        assert e.value.message_code == "cut_has_play"
        assert [e["action"] for e in t.record.log()].count("stage.cut") == 2


def test_a_correction_after_the_cut_changes_scores_not_who_plays_on(tmp_path: Path) -> None:
    rng = random.Random(4)
    with _event(tmp_path / "e.sqlite", "chips", players=8) as t:
        t.rounds.seat(1, seed=1)
        _play(t, 1, rng, hands=2)
        k = _untied_top(t, 1, 4)
        cut = t.stages.cut(1, k, "full")
        assert t.stages.check() == []
        last = [r for r in t.standings.table(through_round=1)][-1]
        h = next(h for h in t.hands.list() if last.player in h.players.values())
        seat = next(s for s, n in h.players.items() if n == last.player)
        others = [s for s in h.players if s != seat]
        t.hands.amend(h.id, h.record, reason="ruling", override_reason="ruling",
                      override_totals={seat: 300, others[0]: -100, others[1]: -100,
                                       others[2]: -100})
        assert t.stages.get(2).players == cut.stage.players
        assert [s.number for s, _ in t.stages.check()] == [2]
        assert last.player_id not in {r.player_id for r in t.standings.table()[:k]}


def test_stages_and_points_penalties_go_through_a_bundle(tmp_path: Path) -> None:
    rng = random.Random(6)
    with _event(tmp_path / "e.sqlite", "placement") as t:
        t.rounds.seat(1, seed=1)
        _play(t, 1, rng, hands=2)
        t.penalties.add(["P03"], 1, "conduct", round=1, unit="points")
        t.stages.cut(1, _untied_top(t, 1, 8), "half", name="决赛")
        t.rounds.seat(2, seed=2)
        _play(t, 2, rng, hands=1)
        t.write_bundle(tmp_path / "e.json")
        bundle = t.export_bundle()
        rows = t.standings.table()
    assert bundle["stages"][0]["name"] == "决赛"
    assert [p["unit"] for p in bundle["penalties"]] == ["points"]
    assert bundle["tournament"]["scoring"] == "placement"
    with Tournament.import_bundle(tmp_path / "e.json", tmp_path / "again.sqlite",
                                  backup_every=0) as again:
        assert again.standings.table() == rows
        assert again.export_bundle() == bundle
    edited = {**bundle, "stages": [{**bundle["stages"][0], "top": 9}]}
    with pytest.raises(StorageError) as e:
        Tournament.import_bundle(edited, tmp_path / "edited.sqlite")
    assert e.value.message_code == "section_edited" and e.value.field == "stages[0].top"
