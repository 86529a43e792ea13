"""Issues 10 and 15 in the desk: the GUI settles with the tournament's own ruleset and
settings (a changed cap, a club's ruleset file stored in the tournament), so the live
preview shows exactly what saving stores, and the trace cites the club's own clauses."""

from __future__ import annotations

from pathlib import Path

import gui_helpers
from gui_helpers import SPEC_TOTALS
from gui_keys import HANDS, Keyboard, golden_record, seat_keys

from referee_app.core import HandRecord, get_ruleset, settle
from referee_app.core.ruleset_file import ruleset_from_file

desk_window = gui_helpers.desk_window
CLUB32 = Path(__file__).resolve().parents[2] / "sample_events" / "club-ottawa-32.ruleset.json"


def _type_readme_hand(win, ruleset_id: str) -> tuple[dict[str, int | None], dict[str, int]]:
    """Type the README hand by keyboard into table 1's new hand; the preview's totals just
    before Ctrl+S and the totals the store saved."""
    golden, line = HANDS["README hand"]
    record = dict(golden_record(golden), ruleset=ruleset_id)
    win.navigator.select_key(("table", 1, 1))
    kb = Keyboard()
    seat_keys(kb, record, tuple(record["seats"]))
    kb.type(line, tiles=True)
    kb.type("\n")  # Enter takes the events line
    shown = win.entry.preview.totals()
    kb.chord("Ctrl+S")
    hands = win.desk.hands()
    assert len(hands) == 1, win.messages
    return shown, dict(hands[0].settlement["totals"])


def test_preview_uses_a_changed_cap(qtbot, desk_window) -> None:
    win, _ = desk_window(setup=lambda t: t.update_info(cap_fan=2))
    shown, saved = _type_readme_hand(win, "ottawa-2009")
    capped = win.desk.t.rules()
    assert capped.cap_fan == 2
    rec = golden_record(HANDS["README hand"][0])
    want = settle(HandRecord.from_dict(rec, capped), capped).totals
    assert want != SPEC_TOTALS  # the cap matters for this hand
    assert shown == saved == want


def test_preview_uses_the_tournament_stake(qtbot, desk_window) -> None:
    win, _ = desk_window(stake=3)
    shown, saved = _type_readme_hand(win, "ottawa-2009")
    assert shown == saved == {s: 3 * v for s, v in SPEC_TOTALS.items()}


def test_club_ruleset_preview_and_trace(qtbot, desk_window) -> None:
    club = ruleset_from_file(CLUB32)
    win, _ = desk_window(ruleset=club)
    assert win.desk.rules().id == "club-ottawa-32"
    shown, saved = _type_readme_hand(win, "club-ottawa-32")
    assert shown == saved
    hand = win.desk.hands()[0]
    pig = [p for p in hand.settlement["payments"] if p["clause"] == "§2.11"]
    assert pig and {p["chips"] for p in pig} == {32}  # the club's pig, not Ottawa's 16
    # the trace cites the club's own sheet: "赔32个筹码", where Ottawa's says 16
    win.tabs.setCurrentWidget(win.trace)
    clauses = [win.trace.payments.item(r, 3).text() for r in range(win.trace.payments.rowCount())]
    win.trace.select_payment(clauses.index("§2.11"))
    text = win.trace.clause.toPlainText()
    assert "赔32个筹码" in text and "赔16个筹码" not in text
    # and so does the history dialog of the saved hand
    dlg = win.show_history()
    assert dlg is not None
    dlg.trace.select_payment(clauses.index("§2.11"))
    assert "赔32个筹码" in dlg.trace.clause.toPlainText()
    dlg.close()


def test_amending_under_a_new_cap_previews_the_new_cap(qtbot, desk_window) -> None:
    """A hand saved before a cap change keeps its settlement; opened again, the form
    settles under the current cap, which is what an amendment would save."""
    win, seating = desk_window()
    rec = gui_helpers.example_record(seating)
    h = win.desk.t.hands.add(rec, round=1, table=1, hand_no=1, referee="Tester")
    win.desk.t.update_info(cap_fan=2)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    assert win.desk.hand(h.id).totals == SPEC_TOTALS  # frozen
    assert win.entry.preview.totals() == dict(
        settle(HandRecord.from_dict(rec, win.desk.rules()), win.desk.rules()).totals)


# --------------------------------------------------------------------------- the record


def test_status_bar_shows_the_record_digest_after_each_write(qtbot, desk_window) -> None:
    win, seating = desk_window()
    n0, d0 = win.desk.t.record.digest()
    key = win.desk.t.info.signing_key_short  # the short form of the key that signs it
    assert len(key) == 16
    assert win.session.record_label.text() == f"Record: {n0} entries · {d0} · key {key}"
    assert len(d0) == 12 and int(d0, 16) >= 0
    win.navigator.select_key(("table", 1, 1))
    golden, line = HANDS["README hand"]
    kb = Keyboard()
    seat_keys(kb, golden_record(golden), ("E", "S", "W", "N"))
    kb.type(line, tiles=True)
    kb.chord("Ctrl+S")
    n1, d1 = win.desk.t.record.digest()
    assert n1 == n0 + 1 and d1 != d0
    assert win.session.record_label.text() == f"Record: {n1} entries · {d1} · key {key}"
    # a write by another process (the CLI) shows within the next poll
    from referee_app.storage import Tournament
    with Tournament.open(win.desk.t.path, backup_every=0) as other:
        other.players.add("新人", referee="CLI")
        n2, d2 = other.record.digest()
    qtbot.waitUntil(lambda: win.session.record_label.text()
                    == f"Record: {n2} entries · {d2} · key {key}", timeout=3000)
    from referee_app.gui.i18n import LANG
    LANG.set("zh")
    assert win.session.record_label.text() == f"记录：{n2} 条 · {d2} · 签名密钥 {key}"


def test_history_lists_the_chain_entries_of_the_hand(qtbot, desk_window) -> None:
    win, seating = desk_window()
    t = win.desk.t
    rec = gui_helpers.example_record(seating)
    h = t.hands.add(rec, round=1, table=1, hand_no=1, referee="Tester")
    t.hands.set_status(h.id, "verified", referee="Checker")
    t.hands.void(h.id, reason="wrong table", referee="Head")
    win.reload()
    win.navigator.select_key(("hand", h.id))
    dlg = win.show_history()
    assert dlg is not None
    rows = dlg.log.rows()
    cli = t.record.log(hand=h.id)  # what `referee-app log --hand ID` prints
    assert [r[0] for r in rows] == [str(e["id"]) for e in cli] and len(rows) == 3
    assert [r[2] for r in rows] == ["Tester", "Checker", "Head"]
    assert [r[3] for r in rows] == ["hand entered", "status changed", "hand voided"]
    assert "reason: wrong table" in rows[2][4] and "status: void" in rows[2][4]
    assert rows[0][1] == cli[0]["at"][:19].replace("T", " ")
    dlg.close()


# --------------------------------------------------------------------------- a club's file


def _new_tournament(win, tmp_path: Path, ruleset_file: Path | None, fill_more=None):
    """File → New tournament… with "Ruleset from file…" pointing at ``ruleset_file``."""
    from PySide6.QtWidgets import QDialog

    shown: list = []
    win.ask_open_file = lambda title, filt: str(ruleset_file) if ruleset_file else ""

    def run(d) -> bool:
        shown.append(d)
        d.path.setText(str(tmp_path / "club-open.sqlite"))
        d.name.setText("Club Open")
        d.ruleset_file.button.click()
        if fill_more is not None:
            fill_more(d)
        d.accept()
        return d.result() == QDialog.DialogCode.Accepted

    win.run_dialog = run
    return win.event_admin.new_tournament(), shown[0]


def test_new_tournament_with_a_club_ruleset_file(qtbot, desk_window, tmp_path: Path) -> None:
    from referee_app.core.ruleset_file import diff_rulesets, nearest_shipped
    from referee_app.storage import Tournament

    club = tmp_path / "club.json"
    club.write_text(CLUB32.read_text(encoding="utf-8"), encoding="utf-8")
    win, _ = desk_window()
    ok, dlg = _new_tournament(win, tmp_path, club)
    assert ok, win.messages
    panel = dlg.ruleset_file
    # the difference table is the CLI's comparison with the nearest shipped ruleset
    near, diffs = nearest_shipped(ruleset_from_file(club))
    assert near == "ottawa-2009"
    assert panel.heading.text() == f"Differences from the nearest shipped ruleset, {near}: " \
                                   f"{len(diffs)}"
    rows = panel.rows()
    assert [r[0] for r in rows] == [p for p, _, _ in diffs]
    assert ["end_check.flower_pig.chips", "16", "32"] in rows
    assert ["chips.cap_fan", "null", "6"] in rows
    assert len(diff_rulesets(get_ruleset(near), ruleset_from_file(club))) > len(rows)  # + identity
    assert "club-ottawa-32" in dlg.ruleset.currentText()
    # the ruleset is stored inside the new tournament: the file is not needed afterwards
    club.write_text("{}", encoding="utf-8")
    assert win.desk.t.ruleset().id == "club-ottawa-32"
    assert win.desk.rules().cap_fan == 6
    path = win.desk.t.path
    with Tournament.open(path, backup_every=0) as t:
        assert t.ruleset().clause("§2.11").zh.count("32个筹码") == 1
        assert t.record.log()[0]["detail"]["ruleset"] == "club-ottawa-32"
    assert win.entry.form.rules_obj.id == "club-ottawa-32"


def test_a_refused_ruleset_file_is_one_translated_line(qtbot, desk_window,
                                                       tmp_path: Path) -> None:
    import json

    from referee_app.gui.i18n import LANG
    from referee_app.gui.views.manage import FROM_FILE

    data = json.loads(CLUB32.read_text(encoding="utf-8"))
    data["patterns"][3]["fan"] = 99
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    win, _ = desk_window()

    def shipped(d) -> None:  # the referee goes on with a shipped ruleset
        d.ruleset.setCurrentIndex(d.ruleset.findData("sichuan-jipin"))

    ok, dlg = _new_tournament(win, tmp_path, bad, shipped)
    msg = dlg.ruleset_file.message.text()
    assert msg.startswith("Cannot use the ruleset file bad.json: patterns[3].fan: ")
    assert "\n" not in msg and "Traceback" not in msg
    assert dlg.ruleset_file.table.isHidden() and dlg.file_rules is None
    assert dlg.ruleset.findData(FROM_FILE) < 0  # nothing to choose from the refused file
    assert ok and win.desk.t.ruleset().id == "sichuan-jipin"
    not_json = tmp_path / "notes.json"
    not_json.write_text("flower pig: 32", encoding="utf-8")
    win2, _ = desk_window(lang="zh")
    ok2, dlg2 = _new_tournament(win2, tmp_path / "x", not_json, shipped)
    assert dlg2.ruleset_file.message.text().startswith("无法使用规则文件 notes.json：")
    assert ok2 and win2.desk.t.ruleset().id == "sichuan-jipin"
    LANG.set("en")


def test_a_cap_changed_while_the_form_is_open_reaches_the_preview(qtbot, desk_window) -> None:
    """The CLI (another process) changes the cap while a hand is typed: the preview follows
    within the next poll, and the saved hand equals what the preview showed."""
    from referee_app.storage import Tournament

    win, _ = desk_window()
    win.navigator.select_key(("table", 1, 1))
    golden, line = HANDS["README hand"]
    kb = Keyboard()
    seat_keys(kb, golden_record(golden), ("E", "S", "W", "N"))
    kb.type(line, tiles=True)
    kb.type("\n")
    assert win.entry.preview.totals() == SPEC_TOTALS
    with Tournament.open(win.desk.t.path, backup_every=0) as other:
        other.update_info(cap_fan=2)
    capped = win.desk.rules()
    want = settle(HandRecord.from_dict(golden_record(golden), capped), capped).totals
    qtbot.waitUntil(lambda: win.entry.preview.totals() == want, timeout=3000)
    kb.chord("Ctrl+S")
    assert win.desk.hands()[0].settlement["totals"] == want
