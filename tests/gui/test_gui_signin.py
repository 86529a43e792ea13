"""Issue 10 in the desk: referees sign in with their PIN, every write is theirs, the desk
locks when idle, head actions ask the head referee's PIN; wrong PINs and lock-outs are one
translated line; a tournament without referees works as before."""

from __future__ import annotations

import gui_helpers
import pytest
from gui_helpers import example_record
from gui_keys import HANDS, Keyboard, golden_record, seat_keys

from referee_app.gui.i18n import LANG
from referee_app.storage import Tournament

desk_window = gui_helpers.desk_window
HEAD, HEAD_PIN = "赵建国", "123456"
REF, REF_PIN = "李裁判", "567890"


class Pins:
    """Stands in for the PIN dialog: pops prepared (name, PIN) answers, records titles."""

    def __init__(self, *answers: tuple[str, str] | None) -> None:
        self.queue = list(answers)
        self.asked: list[str] = []
        self.names: list[list[str]] = []

    def __call__(self, title: str, prompt: str, names: list[str],
                 default: str) -> tuple[str, str] | None:
        self.asked.append(title)
        self.names.append(list(names))
        return self.queue.pop(0) if self.queue else None


def _with_referee(t: Tournament) -> None:
    t.referees.add(REF, pin=REF_PIN, referee=HEAD)


@pytest.fixture
def ref_window(desk_window):
    """A window on a tournament with a head referee and one referee; nobody signed in."""
    def make(*pins: tuple[str, str] | None, lang: str = "en"):
        win, seating = desk_window(lang=lang, head_referee=HEAD, head_pin=HEAD_PIN,
                                   setup=_with_referee)
        win.session.ask_pin = Pins(*pins)
        return win, seating
    return make


def _type_hand(win) -> None:
    win.navigator.select_key(("table", 1, 1))
    golden, line = HANDS["README hand"]
    kb = Keyboard()
    seat_keys(kb, golden_record(golden), ("E", "S", "W", "N"))
    kb.type(line, tiles=True)
    kb.chord("Ctrl+S")


def test_sign_in_at_start_then_every_write_is_that_referee(qtbot, ref_window) -> None:
    win, _ = ref_window((REF, "0000"), (REF, REF_PIN))
    assert win.session.start_session()
    assert win.session.ask_pin.asked == ["Sign in", "Sign in"]
    assert win.session.ask_pin.names[0] == [HEAD, REF]
    assert "wrong PIN for 李裁判" in win.messages  # the head desk's own file: no count
    assert win.desk.signed_in.name == REF
    assert win.session.referee_label.text() == f"Signed in: {REF}"
    _type_hand(win)
    hands = win.desk.hands()
    assert len(hands) == 1, win.messages
    assert win.desk.history(hands[0].id)[-1].referee == REF
    assert win.desk.t.record.log(hand=hands[0].id)[-1]["referee"] == REF


def test_without_sign_in_changes_are_refused_in_words(qtbot, ref_window) -> None:
    win, _ = ref_window(None)
    assert not win.session.start_session()
    assert win.session.referee_label.text() == "Not signed in: changes are refused"
    _type_hand(win)
    assert win.desk.hands() == []
    assert any("needs a referee's name and PIN: sign in first" in m for m in win.messages), \
        win.messages


def test_the_desk_locks_when_idle_and_asks_the_pin_again(qtbot, ref_window) -> None:
    win, _ = ref_window((REF, REF_PIN), None)
    win.session.lock_minutes = 0.002  # 120 ms
    assert win.session.start_session()
    qtbot.waitUntil(lambda: win.session.locked, timeout=3000)
    assert win.session.ask_pin.asked == ["Sign in", "Desk locked"]
    assert win.desk.signed_in is None and win.session.referee_label.text() == "Locked"
    _type_hand(win)  # a locked desk writes nothing
    assert win.desk.hands() == []
    win.session.ask_pin.queue = [(REF, REF_PIN)]
    assert win.session.sign_in()
    assert not win.session.locked and win.desk.signed_in.name == REF


def test_activity_keeps_the_desk_unlocked(qtbot, ref_window) -> None:
    win, _ = ref_window((REF, REF_PIN))
    win.session.lock_minutes = 0.005  # 300 ms
    assert win.session.start_session()
    for _ in range(6):  # a key every 100 ms for 600 ms: never idle for 300 ms
        qtbot.keyClick(win.navigator, "a")
        qtbot.wait(100)
    assert not win.session.locked and win.desk.signed_in.name == REF


def test_wrong_pins_on_the_head_desk_never_lock_it_in_chinese(qtbot, ref_window) -> None:
    """The desk window on the file is the head desk's own use: wrong PINs are said, never
    counted to a lock (a stranger's lock-out over the network must not reach it)."""
    win, _ = ref_window(*[(REF, "0000")] * 7, (REF, REF_PIN), lang="zh")
    assert win.session.start_session()
    assert win.messages.count("李裁判 的 PIN 码错误") == 7
    assert not any("锁定" in m for m in win.messages)
    assert win.desk.signed_in.name == REF
    assert not [e for e in win.desk.t.record.log() if e["action"] == "referee.locked"]
    LANG.set("en")


def test_head_actions_ask_the_head_referees_pin(qtbot, ref_window) -> None:
    win, seating = ref_window((REF, REF_PIN))
    assert win.session.start_session()
    t = win.desk.t
    h = t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee=REF)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    # void: a wrong head PIN is refused in words, nothing changes
    win.ask_text.queue = ["wrong table", "wrong table"]
    win.session.ask_pin.queue = [(HEAD, "9999")]
    assert not win.void_hand()
    assert "wrong PIN for 赵建国" in win.messages
    assert win.desk.hand(h.id).status.value == "entered"
    assert win.session.ask_pin.asked[-1] == "Head referee's PIN" and win.session.ask_pin.names[-1] == [HEAD]
    win.session.ask_pin.queue = [(HEAD, HEAD_PIN)]
    assert win.void_hand()
    assert win.desk.hand(h.id).status.value == "void"
    assert t.record.log(hand=h.id)[-1]["referee"] == HEAD
    assert win.desk.signed_in.name == REF  # back to the desk's referee after the action
    # restore: the head referee again
    win.ask_text.queue = ["it was the right table"]
    win.session.ask_pin.queue = [(HEAD, HEAD_PIN)]
    assert win.restore_hand()
    assert win.desk.hand(h.id).status.value == "entered"
    assert t.record.log(hand=h.id)[-1]["action"] == "hand.restored"
    # a cancelled head PIN: not done, said so
    win.ask_text.queue = ["x"]
    win.session.ask_pin.queue = [None]
    assert not win.void_hand()
    assert win.messages[-1] == "Voiding a hand: not done (no head referee's PIN)."
    # a penalty from the penalties dialog
    dlg = win.show_penalties()
    dlg.players.item(0).setSelected(True)
    dlg.chips.setValue(10)
    dlg.reason.setText("late")
    win.session.ask_pin.queue = [(HEAD, HEAD_PIN)]
    assert dlg.submit()
    assert t.penalties.list()[-1].referee == HEAD
    dlg.close()


def test_a_signed_in_head_referee_is_not_asked_again(qtbot, ref_window) -> None:
    win, seating = ref_window((HEAD, HEAD_PIN))
    assert win.session.start_session()
    assert win.session.referee_label.text() == f"Signed in: {HEAD} (head referee)"
    t = win.desk.t
    h = t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee=HEAD)
    win.reload()
    win.navigator.select_key(("hand", h.id))
    win.ask_text.queue = ["duplicate"]
    assert win.void_hand()
    assert win.session.ask_pin.asked == ["Sign in"]


def test_without_referees_nothing_is_asked(qtbot, desk_window) -> None:
    win, seating = desk_window()
    win.session.ask_pin = Pins()
    assert win.session.start_session()
    _type_hand(win)
    hands = win.desk.hands()
    assert len(hands) == 1 and win.desk.history(hands[0].id)[-1].referee == "Tester"
    win.ask_text.queue = ["duplicate"]
    assert win.void_hand()
    assert win.session.ask_pin.asked == [] and win.session.referee_label.text() == ""


def test_first_referee_added_from_the_desk(qtbot, desk_window) -> None:
    from referee_app.gui.views.signin import AddRefereeDialog

    win, _ = desk_window()
    win.session.ask_pin = Pins()

    def fill(name: str, pin: str, pin2: str, head: bool):
        def run(dlg: AddRefereeDialog) -> bool:
            dlg.name.setText(name)
            dlg.pin.setText(pin)
            dlg.pin2.setText(pin2)
            if dlg.head.isEnabled():
                dlg.head.setChecked(head)
            return True
        return run

    win.run_dialog = fill(HEAD, HEAD_PIN, "1235", True)
    assert not win.session.add_referee()
    assert win.messages[-1] == "The two PINs differ; nothing was changed."
    win.run_dialog = fill(HEAD, HEAD_PIN, HEAD_PIN, False)  # the first is a head anyway
    assert win.session.add_referee()
    assert win.desk.has_referees() and win.desk.signed_in.name == HEAD
    win.run_dialog = fill(REF, "12", "12", False)
    assert not win.session.add_referee()  # head is signed in: no PIN asked; the store refuses
    assert "PIN: must be 6 to 64 characters long" in win.messages[-1]
    win.run_dialog = fill(REF, REF_PIN, REF_PIN, False)
    assert win.session.add_referee()
    assert [(r.name, r.head) for r in win.desk.t.referees.list()] == [(HEAD, True), (REF, False)]
    assert win.session.ask_pin.asked == []


def test_every_record_text_has_both_languages() -> None:
    """Chain actions and detail keys shown in History, and every action phrase the store
    names in a refused change, exist in English and 中文."""
    import re
    from pathlib import Path

    from referee_app.core.errors import render
    from referee_app.core.i18n import known
    from referee_app.gui import i18n
    from referee_app.gui.views.record_log import ACTIONS, DETAIL_KEYS

    for key in [f"log_{a}" for a in ACTIONS] + [f"logkey_{k}" for k in DETAIL_KEYS]:
        assert known(key, "en") and known(key, "zh"), key
    storage = Path(i18n.__file__).parents[1] / "storage"
    text = "".join(p.read_text(encoding="utf-8") for p in storage.glob("*.py"))
    logged = set(re.findall(r'_log\([^,]+, "([a-z_]+\.[a-z_]+)"', text))
    logged |= set(re.findall(r'action="(round\.[a-z_]+|event\.[a-z_]+)"', text))
    assert logged - set(ACTIONS) - {"hand.status"} == set()
    phrases = set(re.findall(r'action="([a-z][a-z \'-]+)"', text))
    phrases |= {"amending a hand", "saving a hand", "verifying a hand"}
    for p in phrases:
        assert known(f"action.{p}", "en") and known(f"action.{p}", "zh"), p
        for code in ("needs_head", "desk.needs_referee"):  # what the desk shows
            zh = render(code, {"action": p, "name": "李裁判"}, "zh")
            assert not re.search(r"[a-z]{3}", zh.replace("PIN", "")), zh
            assert render(code, {"action": p, "name": "X"}, "en").startswith(p)


def test_override_and_amending_a_verified_hand_ask_the_head_pin(qtbot, ref_window) -> None:
    from referee_app.gui.controllers.entry import EntryForm

    win, seating = ref_window((REF, REF_PIN))
    assert win.session.start_session()
    t = win.desk.t
    # an override: a hand that breaks the rules (E one tile short), saved only by the head
    win.navigator.select_key(("table", 1, 1))
    rec = example_record(seating)
    rec["seats"]["E"]["concealed"] = rec["seats"]["E"]["concealed"][1:]
    form = EntryForm.from_record(rec, win.desk.rules())
    form.extra.update(round=1, table=1, hand_no=1)
    win.entry.load(form, "", "")
    assert not win.entry.refresh().ok
    win.ask_text.queue = [("table agreed: E was short", dict.fromkeys("ESWN", 0))]
    win.session.ask_pin.queue = [(HEAD, HEAD_PIN)]
    assert win.save(), win.messages
    h = win.desk.hands()[0]
    assert "override" in h.flags and t.record.log(hand=h.id)[-1]["referee"] == HEAD
    assert win.session.ask_pin.asked[-1] == "Head referee's PIN"
    assert win.desk.signed_in.name == REF
    # amending a verified hand: refused without the head PIN, made with it
    good = win.desk.t.hands.add(example_record(seating), round=1, table=1, hand_no=2,
                               referee=REF)
    t.referees.sign_in(HEAD, HEAD_PIN)  # a second referee verifies it
    t.hands.set_status(good.id, "verified", referee=HEAD)
    t.referees.sign_in(REF, REF_PIN)
    win.reload()
    win.navigator.select_key(("hand", good.id))
    win.ask_text.queue = ["recount"]
    win.session.ask_pin.queue = [None]
    assert not win.save()
    assert win.desk.hand(good.id).version == 2
    assert win.messages[-1] == "Amending a verified hand: not done (no head referee's PIN)."
    win.ask_text.queue = ["recount"]
    win.session.ask_pin.queue = [(HEAD, HEAD_PIN)]
    assert win.save(), win.messages
    assert win.desk.hand(good.id).version == 3
    assert t.record.log(hand=good.id)[-1]["referee"] == HEAD


def test_the_pin_dialog_itself(qtbot, desk_window) -> None:
    """The real form behind ask_pin: names offered, PIN hidden, typed answer used."""
    from PySide6.QtWidgets import QLineEdit

    from referee_app.gui.views.signin import PinDialog

    win, _ = desk_window(head_referee=HEAD, head_pin=HEAD_PIN, setup=_with_referee)
    seen: list[PinDialog] = []

    def run(dlg: PinDialog) -> bool:
        seen.append(dlg)
        assert [dlg.name.itemText(i) for i in range(dlg.name.count())] == [HEAD, REF]
        assert dlg.pin.echoMode() == QLineEdit.EchoMode.Password
        dlg.name.setCurrentText(REF)
        qtbot.keyClicks(dlg.pin, REF_PIN)
        return True

    win.run_dialog = run
    assert win.session.start_session()
    assert seen[0].windowTitle() == "Sign in" and win.desk.signed_in.name == REF
