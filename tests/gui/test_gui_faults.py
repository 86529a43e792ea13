"""Issue 11 in the GUI: no traceback ever, store faults as one translated line, a read-only
file opened for viewing, and Retry when the file stays busy beyond the store's wait."""

from __future__ import annotations

import re
import sqlite3
import sys
import threading
import warnings
from pathlib import Path
from typing import Any

import gui_helpers
import pytest
from gui_helpers import example_record, make_tournament
from PySide6.QtCore import QTimer

from referee_app.core.errors import Message
from referee_app.gui.controllers.desk import Desk
from referee_app.gui.controllers.entry import EntryForm
from referee_app.gui.faults import ErrorGuard, fault_text, read_only_text
from referee_app.gui.i18n import LANG
from referee_app.gui.messages import exception_text
from referee_app.storage import Tournament, opening
from referee_app.storage.errors import (
    BusyError,
    DamagedError,
    DiskFullError,
    HandChangedError,
    ReadOnlyError,
    StorageFault,
    fault_from,
)

desk_window = gui_helpers.desk_window
CJK = re.compile(r"[\u4e00-\u9fff]")


def _faults(path: str) -> list[StorageFault]:
    """The faults as the store really builds them from SQLite's and the OS's errors."""
    return [fault_from(sqlite3.OperationalError("database is locked"), path),
            fault_from(sqlite3.OperationalError("database or disk is full"), path),
            ReadOnlyError.of("db", "viewing_only", path=path,
                             reason=Message.of("ro_file", path=path)),
            fault_from(sqlite3.DatabaseError("database disk image is malformed"), path),
            fault_from(OSError(5, "Input/output error"), path)]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_store_fault_is_one_translated_line(lang: str) -> None:
    LANG.set(lang)
    try:
        faults = _faults("/x/t.sqlite")
        assert [type(f) for f in faults[:4]] == [BusyError, DiskFullError, ReadOnlyError,
                                                 DamagedError]
        texts = [exception_text(f) for f in faults]
        for f, text in zip(faults, texts, strict=True):
            assert text == fault_text(f)
            assert "\n" not in text and "Traceback" not in text
            assert bool(CJK.search(text)) == (lang == "zh"), text
        assert len(set(texts)) == len(texts)
        words = ("busy", "full", "viewing only", "damaged") if lang == "en" else \
            ("正忙", "已满", "仅供查看", "已损坏")
        for w, text in zip(words, texts, strict=False):
            assert w in text
        assert "backup list" in texts[3]  # what to do about a damaged file
        assert ("/x/t.sqlite" in texts[2]) and ("只读" in texts[2] if lang == "zh" else
                                                "read-only" in texts[2])
        changed = exception_text(HandChangedError(7, 1, 2))
        assert "#7" in changed and "2" in changed
    finally:
        LANG.set("zh")


def test_read_only_reasons_are_translated(tmp_path: Path) -> None:
    """The store's reason is a message (what ``opening.read_only_reason`` finds), said in
    the desk's language, also after a trip through JSON (a server's answer)."""
    import os

    from referee_app.storage.opening import read_only_reason

    folder = tmp_path / "ro"
    folder.mkdir()
    db = folder / "t.sqlite"
    db.write_bytes(b"")
    os.chmod(folder, 0o555)
    try:
        reason = read_only_reason(db)
    finally:
        os.chmod(folder, 0o755)
    if os.geteuid() == 0:  # root writes anywhere: say the reason as the store would
        reason = Message.of("ro_folder", path=str(folder))
    assert reason == f"its folder {folder} is read-only"  # its English, for the CLI
    LANG.set("zh")
    try:
        assert read_only_text(reason) == f"所在文件夹 {folder} 为只读"
        assert read_only_text(reason.data()) == f"所在文件夹 {folder} 为只读"
        side = Message.of("ro_side", path="/a/t.sqlite-shm")
        assert read_only_text(side).startswith("/a/t.sqlite-shm 为只读")
        LANG.set("en")
        assert read_only_text(Message.of("ro_file", path="/a/t")) == "the file /a/t is read-only"
    finally:
        LANG.set("zh")


def test_guard_logs_the_details_and_shows_one_line(tmp_path: Path, capsys) -> None:
    log = tmp_path / "logs" / "gui-errors.log"
    shown: list[str] = []
    guard = ErrorGuard(shown.append, log)
    LANG.set("en")
    try:
        try:
            {}["missing"]
        except KeyError:
            text = guard.handle(*sys.exc_info())
    finally:
        LANG.set("zh")
    assert shown == [text]
    assert "KeyError" in text and str(log) in text and "Traceback" not in text
    details = log.read_text(encoding="utf-8")
    assert "Traceback" in details and "KeyError: 'missing'" in details
    assert "test_gui_faults.py" in details  # where it happened, for whoever fixes it
    out = capsys.readouterr()
    assert out.out == "" and out.err == ""  # nothing on the console


def test_guard_shows_a_fault_as_its_line_and_never_stacks_boxes(tmp_path: Path) -> None:
    log = tmp_path / "e.log"
    shown: list[str] = []
    guard: ErrorGuard

    def show(text: str) -> None:  # while the box is up, a timer fails again
        shown.append(text)
        guard.handle(RuntimeError, RuntimeError("again"), None)

    guard = ErrorGuard(show, log)
    busy = _faults(str(tmp_path / "t.sqlite"))[0]
    guard.handle(BusyError, busy, None)
    assert shown == [fault_text(busy)]  # the second one was only logged
    assert log.read_text(encoding="utf-8").count("---") == 2

    def broken_box(text: str) -> None:
        raise RuntimeError("no screen")

    ErrorGuard(broken_box, log).handle(ValueError, ValueError("x"), None)  # does not raise
    assert "showing the message failed" in log.read_text(encoding="utf-8")


def test_guard_log_falls_back_and_rotates(tmp_path: Path, monkeypatch) -> None:
    from referee_app.gui import faults

    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setattr(faults, "_tmp", lambda: str(tmp_path / "tmp"))
    where = faults.write_log("boom", blocker / "sub" / "x.log")  # cannot create a folder there
    assert where == tmp_path / "tmp" / "referee-desk-gui-errors.log"
    monkeypatch.setattr(faults, "LOG_LIMIT", 10)
    log = tmp_path / "r.log"
    faults.write_log("first entry, long enough", log)
    faults.write_log("second", log)
    assert "first" in (tmp_path / "r.log.1").read_text() and "second" in log.read_text()
    monkeypatch.setenv("REFEREE_APP_LOG", str(tmp_path / "env.log"))
    assert faults.log_path() == tmp_path / "env.log"


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_becomes_a_message_not_a_traceback(
        qtbot, desk_window, tmp_path: Path, capfd) -> None:
    """The real path: Qt calls a slot, the slot raises, PySide hands it to sys.excepthook."""
    win, _seating = desk_window()
    shown: list[str] = []
    win.show_message = shown.append
    guard = ErrorGuard(win.message, tmp_path / "e.log").install()
    try:
        def boom() -> None:
            raise ZeroDivisionError("a bug")

        QTimer.singleShot(0, boom)
        qtbot.waitUntil(lambda: bool(shown), timeout=3000)
        t = threading.Thread(target=boom)
        t.start()
        t.join()
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            warnings.warn("backup failed: disk full (the change itself was saved)",
                          RuntimeWarning, stacklevel=1)
    finally:
        guard.uninstall()
    assert len(shown) == 1 and "ZeroDivisionError" in shown[0]
    assert win.status_label.text() == shown[0]
    log = (tmp_path / "e.log").read_text(encoding="utf-8")
    assert log.count("ZeroDivisionError: a bug") == 2  # the slot's and the thread's
    assert "backup failed" in log
    err = capfd.readouterr().err
    assert "Traceback" not in err and "RuntimeWarning" not in err
    assert sys.excepthook is not guard.handle


# ---------------------------------------------------------------- a read-only file


def _with_hand(path: Path) -> dict[str, str]:
    seating = make_tournament(path)
    with Tournament.open(path, backup_every=0) as t:
        t.hands.add(example_record(seating), round=1, table=1, hand_no=1, referee="A")
    return seating


@pytest.fixture
def read_only_window(qtbot, tmp_path: Path, monkeypatch) -> Any:
    """A window on a file the desk cannot write (as the OS reports it; root can write any
    file, so the check is told so, as for the stray -shm in test_cli_faults)."""
    from referee_app.gui.views.main_window import MainWindow

    path = tmp_path / "ro.sqlite"
    _with_hand(path)
    real = opening._writable
    monkeypatch.setattr(opening, "_writable", lambda p: False if p == path else real(p))
    LANG.set("en")
    desk = Desk.open(path, referee="Tester")
    win = MainWindow(desk)
    shown: list[str] = []
    win.show_message = shown.append
    win.ask_text = lambda *a: "a reason"
    win.ask_reason = lambda *a: "a reason"
    win.confirm_discard = lambda: True
    qtbot.addWidget(win)
    win.show()
    yield win, shown, path
    LANG.set("zh")
    win.close()
    desk.close()


def test_read_only_file_opens_for_viewing_with_a_banner(read_only_window) -> None:
    win, shown, path = read_only_window
    banner = win.faults.banners.banner("readonly")
    assert banner is not None and banner.isVisible()
    assert banner.text().startswith("Read-only:") and str(path) in banner.text()
    assert win.standings.model.rowCount() == 4  # viewing works
    win.navigator.select_key(("hand", win.desk.hands()[0].id))
    assert win.shown is not None
    m = win.menus
    for a in (m.act_save, m.act_verify, m.act_void, m.act_verify_blind,
              win.faults.act_paste_record, win.faults.act_load_record):
        assert not a.isEnabled(), a.objectName()
    assert not win.entry.btn_save.isEnabled()
    LANG.set("zh")
    assert win.faults.banners.banner("readonly").text().startswith("只读：")


def test_every_write_is_refused_with_one_line(read_only_window) -> None:
    win, shown, _path = read_only_window
    h = win.desk.hands()[0]
    win.navigator.select_key(("hand", h.id))
    win.entry.set_events([], "edit")  # an amendment typed anyway
    assert not win.save()
    assert not win.verify_hand()
    assert not win.void_hand()
    assert len(shown) == 3 and all("open for viewing only" in s for s in shown), shown
    shown.clear()
    name = win.desk.players()[0].name
    assert not win.event_admin.set_player_status(name, "withdrawn")  # through the event admin's path
    assert len(shown) == 1 and "open for viewing only" in shown[0], shown
    assert "db:" not in shown[0] and "Traceback" not in shown[0]
    assert win.desk.players()[0].status.value == "active"
    with pytest.raises(ReadOnlyError):  # the store refuses whatever the window lets through
        win.desk.add_player("New")
    assert "viewing only" in exception_text(ReadOnlyError.of(
        "db", "viewing_only", path="x", reason=Message.of("ro_file", path="x")))
    assert win.desk.hand(h.id).version == 1  # nothing was written


# ---------------------------------------------------------------- busy beyond the retry


def _hold_write_lock(path: Path) -> sqlite3.Connection:
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    return other


def _type_example(win: Any, seating: dict[str, str]) -> dict[str, Any]:
    win.navigator.select_key(("table", 1, 1))
    form = EntryForm.from_record(example_record(seating))
    form.extra.update(win.entry.form.extra)
    win.entry.load(form, "", "")
    win.entry.undo_stack.resetClean()
    return win.entry.form.to_record_dict()


def test_busy_save_keeps_the_form_and_retry_saves(qtbot, desk_window, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_APP_BUSY_TIMEOUT", "0.2")
    win, seating = desk_window()
    typed = _type_example(win, seating)
    other = _hold_write_lock(win.desk.t.path)
    asked: list[str] = []

    def retry(text: str) -> bool:
        asked.append(text)
        if len(asked) == 2:  # the other desk finished meanwhile
            other.execute("COMMIT")
        return True

    win.faults.ask_retry = retry
    assert win.save()
    assert len(asked) == 2 and "busy" in asked[0]
    assert len(win.desk.hands()) == 1 and win.shown.version == 1
    other.close()
    del typed


def test_busy_save_cancelled_keeps_everything_typed(qtbot, desk_window, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_APP_BUSY_TIMEOUT", "0.2")
    win, seating = desk_window()
    shown: list[str] = []
    win.show_message = shown.append
    typed = _type_example(win, seating)
    other = _hold_write_lock(win.desk.t.path)
    win.faults.ask_retry = lambda text: False
    try:
        assert not win.save()
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert win.entry.form.to_record_dict() == typed  # the form kept its content
    assert not win.entry.undo_stack.isClean() and win.context[3] is None
    assert len(shown) == 1 and "busy" in shown[0] and "Traceback" not in shown[0]
    assert win.desk.hands() == []
    assert win.save()  # the file is free again: the same form saves
    assert len(win.desk.hands()) == 1


def test_busy_amend_offers_retry_too(qtbot, desk_window, monkeypatch) -> None:
    monkeypatch.setenv("REFEREE_APP_BUSY_TIMEOUT", "0.2")
    win, seating = desk_window()
    _type_example(win, seating)
    assert win.save()
    win.entry.set_events(win.entry.form.events[:-1], "edit")
    win.ask_text.queue[:] = ["slip misread"]
    other = _hold_write_lock(win.desk.t.path)
    asked: list[str] = []

    def retry(text: str) -> bool:
        asked.append(text)
        other.execute("COMMIT")
        return True

    win.faults.ask_retry = retry
    assert win.save()
    other.close()
    assert len(asked) == 1 and win.shown.version == 2
