"""File → Import bundle… of a tournament with referees: no PIN travels in a bundle, so the
desk asks its head referee for a new one (twice) once the bundle is checked; a mismatch or a
PIN the rules refuse is said in the form and asked again; closing the form makes no file."""

from __future__ import annotations

from pathlib import Path

import gui_helpers
import pytest

from referee_app.gui.i18n import LANG
from referee_app.gui.views.signin import NewPinDialog, PinDialog

desk_window = gui_helpers.desk_window
HEAD, HEAD_PIN, NEW_PIN = "赵建国", "123456", "a-new-pin-7"


def _answers(*given: tuple[str, str] | None):
    """Stands in for running the forms: fills the new-PIN form with each prepared (PIN, PIN
    again), or closes it (None), recording the problem it showed and its note; the sign-in
    form that the imported file then asks for is answered by the head referee with the new
    PIN."""
    queue = list(given)
    seen: list[tuple[str, str]] = []

    def run(dlg) -> bool:
        if isinstance(dlg, PinDialog):
            seen.append(("sign in", dlg.name.currentText()))
            dlg.name.setCurrentIndex(dlg.name.findText(HEAD))
            dlg.pin.setText(NEW_PIN)
            return True
        assert isinstance(dlg, NewPinDialog)
        seen.append((dlg.problem.text() if dlg.problem.isVisibleTo(dlg) else "",
                     dlg.note.text()))
        got = queue.pop(0)
        if got is None:
            return False
        dlg.pin.setText(got[0])
        dlg.pin2.setText(got[1])
        return True

    return run, seen


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_head_referee_gives_a_new_pin_and_the_import_opens(desk_window, tmp_path: Path,
                                                               lang: str) -> None:
    win, _ = desk_window(lang=lang, head_referee=HEAD, head_pin=HEAD_PIN)
    bundle, copy = tmp_path / "event.json", tmp_path / "copy.sqlite"
    win.desk.t.write_bundle(bundle)
    win.ask_open_file = lambda title, filt: str(bundle)
    win.ask_save_file = lambda title, filt, name: str(copy)
    win.run_dialog, seen = _answers((NEW_PIN, NEW_PIN + "x"), ("12", "12"), (NEW_PIN, NEW_PIN))
    assert win.event_admin.import_bundle(), win.messages
    assert [p for p, _ in seen][0] == ""  # nothing wrong yet
    if lang == "en":
        assert seen[0][1].startswith("The bundle is checked. No PIN travels in a bundle: "
                                     f"{HEAD}, the head referee")
        assert seen[1][0] == "PIN: the two entries differ: type the same PIN twice"
        assert seen[2][0] == "PIN: must be 6 to 64 characters long"
    else:
        assert f"裁判长 {HEAD}" in seen[0][1]
        assert "两次输入不一致" in seen[1][0] and "6" in seen[2][0]
    assert win.desk.t.path == copy
    # the imported file asks who is at the desk: the head referee, with the new PIN
    assert seen[3] == ("sign in", HEAD)
    assert win.desk.signed_in is not None and win.desk.signed_in.name == HEAD
    LANG.set("en")


def test_closing_the_pin_form_makes_no_file(desk_window, tmp_path: Path) -> None:
    win, _ = desk_window(head_referee=HEAD, head_pin=HEAD_PIN)
    bundle, copy = tmp_path / "event.json", tmp_path / "copy.sqlite"
    win.desk.t.write_bundle(bundle)
    before = win.desk.t.path
    win.ask_open_file = lambda title, filt: str(bundle)
    win.ask_save_file = lambda title, filt, name: str(copy)
    win.run_dialog, seen = _answers(None)
    assert not win.event_admin.import_bundle()
    assert len(seen) == 1
    assert win.messages[-1] == "Import cancelled: no file was made."
    assert list(tmp_path.glob("*copy.sqlite*")) == []
    assert win.desk.t.path == before  # the desk stays on its own file


def _legacy_bundle(win, path: Path) -> None:
    """The window's tournament as a bundle from before the chain (``referee-tournament/1``),
    written as export lays a bundle out."""
    import copy as _copy

    from referee_app.storage.bundle import write_json

    b = _copy.deepcopy(win.desk.t.export_bundle())
    b["format"] = "referee-tournament/1"
    for key in ("chain", "head", "signing_key"):
        b.pop(key, None)
    b["tournament"].pop("ruleset_digest")
    for h in b["hands"]:
        for v in h["versions"]:
            v.pop("settlement")
            v.pop("settings")
    b["log"] = []
    with path.open("w", encoding="utf-8") as f:
        write_json(b, f)


def test_a_bundle_from_before_the_record_is_imported_once_the_referee_agrees(
        desk_window, tmp_path: Path) -> None:
    win, seating = desk_window()
    win.desk.t.hands.add(gui_helpers.example_record(seating), round=1, table=1, hand_no=1)
    bundle = tmp_path / "old.json"
    _legacy_bundle(win, bundle)
    win.ask_open_file = lambda title, filt: str(bundle)
    asked: list[tuple[str, str]] = []
    for agree, name in ((False, "no.sqlite"), (True, "yes.sqlite")):
        win.ask_save_file = lambda title, filt, n, name=name: str(tmp_path / name)
        win.confirm = lambda text, action, agree=agree: asked.append((text, action)) or agree
        assert win.event_admin.import_bundle() is agree
    assert asked[0][0].startswith("This bundle was written by an older Referee Desk")
    assert asked[0][1] == "Import anyway"
    assert "Import cancelled: no file was made." in win.messages
    assert not list(tmp_path.glob("*no.sqlite*"))
    assert win.desk.t.path == tmp_path / "yes.sqlite"
    assert len(win.desk.hands()) == 1
    assert win.desk.t.record.log()[-1]["action"] == "event.import_legacy"


REF, REF_PIN = "钱", "567890"


def test_after_an_import_each_referee_sets_a_pin_in_the_window(desk_window,
                                                               tmp_path: Path) -> None:
    """File → Set referee PIN…: a referee with no PIN here yet (an imported tournament) sets
    their first one without signing in; a referee changes their own; another's needs the
    head referee's PIN. Signing in without a PIN points to that form, not to the CLI."""
    from referee_app.gui.messages import exception_text
    from referee_app.gui.views.signin import SetPinDialog
    from referee_app.storage.errors import AuthError

    win, _ = desk_window(head_referee=HEAD, head_pin=HEAD_PIN,
                         setup=lambda t: t.referees.add(REF, pin=REF_PIN, referee=HEAD))
    bundle, copy = tmp_path / "event.json", tmp_path / "copy.sqlite"
    win.desk.t.write_bundle(bundle)
    win.ask_open_file = lambda title, filt: str(bundle)
    win.ask_save_file = lambda title, filt, name: str(copy)
    win.run_dialog, _seen = _answers((NEW_PIN, NEW_PIN))
    assert win.event_admin.import_bundle(), win.messages
    assert win.desk.referees_without_pin() == [REF]
    with pytest.raises(AuthError) as e:
        win.desk.sign_in(REF, REF_PIN)  # the old desk's PIN did not travel
    assert exception_text(e.value).endswith(
        "set it first with File → Set referee PIN… (a first PIN needs no sign-in)")

    def set_pin(name: str, pin: str, again: str | None = None):
        def run(dlg) -> bool:
            assert isinstance(dlg, SetPinDialog)
            shown.append(dlg.name.currentText())
            dlg.name.setCurrentIndex(dlg.name.findText(name))
            dlg.pin.setText(pin)
            dlg.pin2.setText(pin if again is None else again)
            return True
        return run

    shown: list[str] = []
    heads_asked: list[str] = []
    win.session.ask_pin = lambda title, prompt, names, default: (
        heads_asked.append(title) or (HEAD, NEW_PIN))
    win.desk.sign_out()  # nobody at the desk: the first PIN needs no sign-in
    win.run_dialog = set_pin(REF, "ref-pin-1")
    assert win.session.set_pin(), win.messages
    assert shown == [REF]  # offered first: the referee without a PIN
    assert heads_asked == []
    assert win.messages[-1] == f"{REF}'s PIN is set on this desk: they can sign in now."
    win.desk.sign_in(REF, "ref-pin-1")
    win.run_dialog = set_pin(REF, "ref-pin-2", "ref-pin-3")
    assert not win.session.set_pin()
    assert win.messages[-1] == "The two PINs differ; nothing was changed."
    win.run_dialog = set_pin(REF, "ref-pin-2")  # their own: no head PIN
    assert win.session.set_pin() and heads_asked == []
    assert win.messages[-1] == f"{REF}'s PIN is changed on this desk."
    win.run_dialog = set_pin(HEAD, "head-pin-2")  # another's: the head referee's PIN
    assert win.session.set_pin()
    assert heads_asked == ["Head referee's PIN"]
    assert win.desk.signed_in.name == REF  # still the desk's referee afterwards
    win.desk.sign_in(HEAD, "head-pin-2")
    log = [e["action"] for e in win.desk.t.record.log()]
    assert log.count("referee.pin") == 3
