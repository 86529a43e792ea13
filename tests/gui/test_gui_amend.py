"""Issue 12: correction impact — what an amendment changes (each seat's total, every rank
that moves) is known before it is saved, in the form and in the reason dialog."""

from __future__ import annotations

import json
import random
from pathlib import Path

import gui_helpers
from gui_helpers import example_record

from referee_app.core.generate import random_record
from referee_app.storage import Tournament
from referee_app.storage.impact import ImpactModel, amend_impact

desk_window = gui_helpers.desk_window
NAMES = ["李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强"]


def _event(path: Path) -> Tournament:
    t = Tournament.create(path, "Impact Open", backup_every=0)
    rng = random.Random(5)
    for n in NAMES:
        t.players.add(n)
    for rnd in (1, 2):
        seating = t.rounds.seat(rnd, seed=rnd)
        for table, row in seating.tables.items():
            for hand_no in (1, 2, 3):
                t.hands.add(random_record(rng, players=row), round=rnd, table=table,
                           hand_no=hand_no)
    t.penalties.add([NAMES[0]], 3, "late", round=1)
    return t


def test_predicted_standings_are_the_real_ones(tmp_path: Path) -> None:
    """For several random amendments the prediction equals the standings after saving."""
    t = _event(tmp_path / "i.sqlite")
    rng = random.Random(11)
    try:
        assert {r.player: (r.rank, r.chips) for r in t.standings.table()} == ImpactModel(t)._before
        moved = 0
        for h in rng.sample(t.hands.list(), 6):
            before = {r.player: (r.rank, r.chips) for r in t.standings.table()}
            new = random_record(rng, players=h.players)
            imp = amend_impact(t, h.id, new)
            assert imp.totals_after is not None
            t.hands.amend(h.id, new, reason="slip re-read")
            after = {r.player: (r.rank, r.chips) for r in t.standings.table()}
            assert t.hands.get(h.id).totals == imp.totals_after
            predicted = {c.player: (c.rank_after, c.chips_after) for c in imp.rank_changes}
            assert predicted == {p: v for p, v in after.items() if v[0] != before[p][0]}
            moved += len(predicted)
        assert moved > 0  # the sample moved somebody (else the test proves little)
    finally:
        t.close()


def test_impact_of_a_rule_breaking_record(tmp_path: Path) -> None:
    t = _event(tmp_path / "j.sqlite")
    try:
        h = t.hands.list()[0]
        bad = json.loads(json.dumps(h.record))
        bad["events"] = []
        bad["wall_exhausted"] = False
        imp = amend_impact(t, h.id, bad)
        assert imp.totals_after is None and imp.errors
        assert imp.lines()[1].startswith("the new record breaks the rules: §")
    finally:
        t.close()


def test_form_shows_amending_and_the_impact(qtbot, desk_window) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    assert win.entry.status.text() == "v1 · entered"
    assert not win.entry.impact.isVisible()
    # the referee ticks off "wall exhausted": the hand changes (or breaks) — the form says so
    win.entry.wall.setChecked(False)
    assert win.entry.status.text() == "amending v1 → v2"
    qtbot.waitUntil(win.entry.impact.isVisible, timeout=2000)  # once typing pauses
    assert win.entry.impact.text().startswith("amending v1 → v2 · ")
    # undo: back to the saved hand, no impact shown
    win.entry.undo_stack.undo()
    assert win.entry.status.text() == "v1 · entered" and not win.entry.impact.isVisible()


def test_reason_dialog_carries_the_summary(qtbot, desk_window) -> None:
    win, seating = desk_window()
    rec = example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1)
    # a second hand, so that changing the first moves ranks
    win.desk.t.hands.add(rec, round=1, table=1, hand_no=2)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    # E's self-drawn 1m becomes a win on S's discard: totals move
    events = [dict(e) for e in win.entry.form.events]
    events[2] = dict(events[2], **{"from": "S"})
    win.entry.set_events(events, "edit")
    asked = []

    def reason(title, prompt, summary):
        asked.append(summary)
        return "slip re-read"

    win.ask_reason = reason
    summary = win.impact_summary()
    assert "东 E" not in summary and "E 东" in summary  # English interface
    assert "→" in summary
    assert win.save()
    assert asked == [summary]
    assert win.desk.hand(h.id).version == 2


def test_prediction_when_only_verified_hands_count(tmp_path: Path) -> None:
    """With "only verified hands count", the prediction counts what the standings count;
    an amended verified hand goes back to "entered" and leaves them until re-verified."""
    t = _event(tmp_path / "v.sqlite")
    rng = random.Random(3)
    try:
        hands = t.hands.list()
        for h in hands[::2]:
            t.hands.set_status(h.id, "verified")
        t.update_info(verified_only=True)
        assert {r.player: (r.rank, r.chips) for r in t.standings.table()} == ImpactModel(t)._before
        for h in (hands[0], hands[1]):  # a verified hand, then an entered one
            before = {r.player: (r.rank, r.chips) for r in t.standings.table()}
            new = random_record(rng, players=h.players)
            imp = amend_impact(t, h.id, new)
            t.hands.amend(h.id, new, reason="slip re-read")
            after = {r.player: (r.rank, r.chips) for r in t.standings.table()}
            predicted = {c.player: (c.rank_after, c.chips_after) for c in imp.rank_changes}
            assert predicted == {p: v for p, v in after.items() if v[0] != before[p][0]}
        assert t.standings.provisional() == len(hands) - len(hands[::2]) + 1
    finally:
        t.close()


def test_model_reads_stored_figures_void_and_override_included(tmp_path: Path) -> None:
    """The model starts from the figures stored with each hand (no record is read), and
    agrees with the standings with a void hand, an override and a penalty in them."""
    t = _event(tmp_path / "o.sqlite")
    try:
        hands = t.hands.list()
        t.hands.void(hands[0].id, reason="entered twice")
        seats = list(hands[1].totals)
        t.hands.amend(hands[1].id, hands[1].record, reason="ruling", override_reason="ruling",
                     override_totals={**dict.fromkeys(seats, 0), seats[0]: 8, seats[1]: -8})
        m = ImpactModel(t)
        assert m.hands == {}  # nothing read yet
        assert m._before == {r.player: (r.rank, r.chips) for r in t.standings.table()}
        h = hands[2]
        imp = m.impact(h.id, h.record)  # the same record: nothing moves
        assert imp.totals_after == h.totals and imp.rank_changes == ()
        assert set(m.hands) == {h.id}
    finally:
        t.close()
