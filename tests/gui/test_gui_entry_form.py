"""The entry form's logic (no widgets): record building and mapping problems to the form."""

from __future__ import annotations

import copy

from gui_helpers import SPEC_EXAMPLE, SPEC_TOTALS

from referee_app.core import HandRecord, get_ruleset, settle
from referee_app.gui.controllers.entry import EntryForm


def test_round_trip_of_the_spec_example() -> None:
    form = EntryForm.from_record(copy.deepcopy(SPEC_EXAMPLE))
    assert form.seats["S"].pongs == "5p"
    rec = form.to_record_dict()
    assert HandRecord.from_dict(rec).to_dict() == HandRecord.from_dict(SPEC_EXAMPLE).to_dict()
    ev = form.evaluate()
    assert ev.ok and ev.problems == ()
    assert ev.settlement is not None and ev.settlement.totals == SPEC_TOTALS


def test_pongs_typed_in_any_spacing() -> None:
    assert EntryForm.pong_list("5p 9s") == ["5p", "9s"]
    assert EntryForm.pong_list("59s") == ["5s", "9s"]
    assert EntryForm.pong_list("  ") == []
    assert EntryForm.pong_list("5x") == ["5x"]  # passed on: the engine names the field


def test_unreadable_text_is_mapped_to_its_seat() -> None:
    form = EntryForm.from_record(copy.deepcopy(SPEC_EXAMPLE))
    form.seats["W"].pongs = "5x"
    ev = form.evaluate()
    assert ev.read_error is not None and ev.settlement is None
    (p,) = ev.problems
    assert p.seat == "W" and p.clause.startswith("seats.W.pongs")
    assert "'x'" in p.message


def test_unreadable_event_is_mapped_to_its_row() -> None:
    form = EntryForm.from_record(copy.deepcopy(SPEC_EXAMPLE))
    form.events[1]["tile"] = "77p"
    (p,) = form.evaluate().problems
    assert p.event == 1 and p.clause == "events[1].tile"


def test_rule_problems_name_seat_and_event() -> None:
    form = EntryForm.from_record(copy.deepcopy(SPEC_EXAMPLE))
    # a fourth event after only one seat is left unwon: the engine names "event 4"
    form.wall_exhausted = False
    form.events.append({"type": "win", "seats": ["S"], "tile": "1p", "from": "W"})
    form.events.append({"type": "win", "seats": ["W"], "tile": "1p", "from": "S"})
    ev = form.evaluate()
    assert not ev.ok
    expected = settle(HandRecord.from_dict(form.to_record_dict())).errors
    assert [p.clause for p in ev.problems] == [e.clause for e in expected]
    assert 4 in ev.events_with_problems()


def test_blank_form_has_the_rulesets_seats() -> None:
    for rid in ("ottawa-2009", "zigong-3p"):
        rules = get_ruleset(rid)
        form = EntryForm.blank(rid, {"E": "李伟"}, dealer=rules.seats[-1])
        assert tuple(form.seats) == rules.seats
        assert form.dealer == rules.seats[-1]
        assert form.to_record_dict()["seats"]["E"]["player"] == "李伟"


def test_rule_errors_point_at_the_event_that_brings_them_in() -> None:
    form = EntryForm.from_record(copy.deepcopy(SPEC_EXAMPLE))
    form.seats["E"].concealed = "111234567899m"  # E's self-drawn win (event 3) is short
    form.events.append({"type": "kong", "seat": "W", "tile": "5m", "kind": "direct",
                        "from": "W"})  # event 4: W kongs its own discard
    ev = form.evaluate()
    by_clause = {(p.clause, p.seat): p.event for p in ev.problems}
    rules = get_ruleset("ottawa-2009")
    assert by_clause[(rules.vclause("hand_size"), "E")] == 2
    assert by_clause[(rules.vclause("direct_kong"), "W")] == 3
    # a problem of the hand as a whole belongs to no event
    form2 = EntryForm.from_record(copy.deepcopy(SPEC_EXAMPLE))
    form2.wall_exhausted = False
    (p,) = form2.evaluate().problems
    assert p.event is None and "wall_exhausted" in p.message


def test_rule_problems_of_every_ruleset_are_shown_with_their_clause() -> None:
    """A Z3 (or J1, C4, …) problem is a broken rule like a §-clause one: shown under its
    clause, with the seat to highlight; only a field that cannot be read is shown by path.
    (The form's view used to tell them apart by a leading '§', so every other ruleset's
    rule problems came out as 'Z3: …' field errors with no clause, seat or tooltip.)"""
    import json
    from pathlib import Path

    from referee_app.gui.i18n import LANG
    from referee_app.gui.messages import shown_problem

    fixture = Path(__file__).resolve().parents[1] / "fixtures" / "rulesets" / \
        "zigong_Z3_declared_ready_with_pong.json"
    form = EntryForm.from_record(json.loads(fixture.read_text("utf-8"))["record"])
    LANG.set("en")
    try:
        (p,) = form.evaluate().problems
        assert (p.clause, p.seat, p.rule) == ("Z3", "W", True)
        assert shown_problem(p) == (
            "Z3", "W 西 declared a ready hand (报调) and cannot have a pong of 9s: a declared "
            "hand does not change")
        form.seats["W"].concealed += "x"
        (p,) = form.evaluate().problems
        assert (p.clause, p.rule) == ("seats.W.concealed", False)
        label, text = shown_problem(p)
        assert label == "" and text.startswith("W 西 concealed tiles: ")
    finally:
        LANG.set("zh")
