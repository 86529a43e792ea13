"""Check-in (issue 26): a player marked absent is not seated by round seat / reseat, keeps
every result, is listed as absent on the round's seating, and may come back; every change
of status is an entry of the record."""

from __future__ import annotations

import pytest

from referee_app.storage import StorageError


def seated(s) -> set[str]:
    return {n for row in s.tables.values() for n in row.values()}


def test_absent_and_back_are_status_changes_in_the_record(make_tournament) -> None:
    t = make_tournament(n=8, rounds=0)
    p = t.players.set_status("李伟", "absent", reason="not here at 9:00")
    assert p.status.value == "absent"
    assert t.players.set_status("李伟", "active").status.value == "active"
    entries = [e for e in t.record.log() if e["action"] == "players.status"]
    assert [e["detail"]["status"] for e in entries] == ["absent", "active"]
    assert entries[0]["detail"]["reason"] == "not here at 9:00"
    assert t.record.verify().entries == len(t.record.log())
    assert [x.name for x in t.players.list(status="absent")] == []


def test_round_seat_leaves_absent_players_out(make_tournament) -> None:
    t = make_tournament(n=16, rounds=0)
    t.players.set_status("李伟", "absent")
    with pytest.raises(StorageError) as e:  # 15 present: byes or substitutes, as ever
        t.rounds.seat(1, seed=1)
    assert e.value.code == "tables_not_filled"
    s = t.rounds.seat(1, seed=1, fill="byes")
    assert "李伟" not in seated(s) and "李伟" not in s.byes
    assert len(s.byes) == 3 and s.absent == ("李伟",)
    assert t.rounds.problems(1) == []
    # back for round 2: seated again, and no longer listed as absent anywhere
    t.players.set_status("李伟", "active")
    s2 = t.rounds.seat(2, seed=2)
    assert "李伟" in seated(s2) and s2.absent == ()
    assert t.rounds.seating(1).absent == ()


def test_an_absent_player_keeps_results_and_is_ranked(make_tournament, record_for) -> None:
    t = make_tournament(n=8, rounds=1)
    for table in (1, 2):
        t.hands.add(record_for(t, 1, table, seed=table), round=1, table=table, hand_no=1)
    before = {r.player: (r.rank, r.chips) for r in t.standings.table()}
    t.players.set_status("张敏", "absent")
    rows = t.standings.table()
    assert {r.player: (r.rank, r.chips) for r in rows} == before
    assert next(r for r in rows if r.player == "张敏").status.value == "absent"
    # a round with hands: its seated players are not marked absent (they played)
    assert t.rounds.seating(1).absent == ()


def test_reseat_gives_an_absent_players_seat_away(make_tournament) -> None:
    t = make_tournament(n=16, rounds=0)
    t.plan.make(3, seed=4)
    who = t.rounds.seating(2).tables[1]["E"]
    t.players.set_status(who, "absent")
    s = t.rounds.seating(2)
    assert who in seated(s) and s.absent == (who,)  # seated, flagged, to re-seat
    assert t.rounds.problems(2) == [f"table 1 E: {who} is absent"]
    with pytest.raises(StorageError):
        t.plan.reseat(2)  # a seat to fill: byes or substitutes
    r, s = t.plan.reseat(2, fill="byes")
    assert who not in seated(s) and s.absent == (who,)
    assert r.dissolved == (1,) and len(s.byes) == 3
    assert t.rounds.problems(2) == []
    # round seat from the plan does the same for round 3
    r, s = t.plan.seat(3, fill="byes")
    assert who not in seated(s)


def test_an_absent_player_is_not_put_in_a_seat_by_hand(make_tournament) -> None:
    t = make_tournament(n=8, rounds=1)
    bye_free = t.rounds.seating(1)
    t.players.set_status("李伟", "absent")
    target = next(n for n in seated(bye_free) if n != "李伟")
    table, seat = bye_free.table_of(target)
    with pytest.raises(StorageError) as e:
        t.rounds.set_seat(1, table, seat, "李伟")
    assert e.value.code == "player_absent" and "李伟" in str(e.value)
    with pytest.raises(StorageError):
        t.rounds.set_seating(2, {1: {"E": "李伟", "S": "张敏", "W": "陈杰", "N": "王芳"},
                                 2: {"E": "刘洋", "S": "赵磊", "W": "孙丽", "N": "周强"}})


def test_round_plan_plans_absent_players_but_seats_them_out_of_the_next_round(
        make_tournament) -> None:
    t = make_tournament(n=16, rounds=0)
    t.players.set_status("李伟", "absent")
    with pytest.raises(StorageError):  # the first round is short of one: byes or subs
        t.plan.make(4, seed=6)
    p, seatings = t.plan.make(4, seed=6, fill="byes")
    assert "李伟" not in seated(seatings[0]) and seatings[0].absent == ("李伟",)
    assert len(seatings[0].byes) == 3
    assert all("李伟" in seated(s) for s in seatings[1:])  # planned from round 2 on
    assert t.record.log()[-1]["detail"]["absent"] == [t.players.get("李伟").id]
    # the figures are those of the rounds saved
    assert p.rounds[0].tables == tuple(
        tuple(t.players.get(n).id for n in row.values())
        for row in t.rounds.seating(1).tables.values())
    # back before round 2: round seat from the plan changes nobody
    t.players.set_status("李伟", "active")
    r, s = t.plan.seat(2)
    assert r.changed == () and "李伟" in seated(s)
    # and round 1, not yet played, goes back to the plan's seating with --replace
    r, s = t.plan.seat(1, replace_existing=True)
    assert "李伟" in seated(s) and s.byes == ()
