"""Start the desk: the QApplication, the bundled CJK font, the window; or a screenshot.

``run`` is what ``referee-app gui`` calls. With ``screenshot`` it renders the window
offscreen (no display needed), writes a PNG and returns, which is how the docs' images
are made and how checks confirm the window builds.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from referee_app.core.errors import FieldError

#: what ``--view`` can show: the three tabs of the contract, then the other windows
#: Longest idle lock, in minutes (a day; the desk's timer counts 32-bit milliseconds).
MAX_LOCK_MINUTES = 24 * 60
VIEWS = ("entry", "standings", "trace", "seating", "players", "history", "projector",
         "progress", "amend", "blind", "whatif")


class GuiError(FieldError):
    """Bad input to ``referee-app gui`` (field and problem, like the store's errors)."""

    code = "gui"


@dataclass(frozen=True)
class LaunchOptions:
    db: Path | None = None
    demo: bool = False
    screenshot: Path | None = None
    view: str = "entry"
    lang: str = "zh"
    referee: str = ""
    size: tuple[int, int] = (1500, 900)
    record: Path | None = None  # a hand record to show in the entry form (as a new hand)
    exit_when_ready: bool = False  # benchmarks: quit once the shown window processed an event
    lock_minutes: float | None = None  # idle lock (None: QSettings "session/lock_minutes")
    server: str = ""  # a head desk's ``referee-app serve`` address: this desk is its client
    outbox: Path | None = None  # the server desk's outbox folder (default: per server/referee)
    server_cert: Path | None = None  # an https server's self-signed certificate (cert.pem)


def _need_offscreen() -> bool:
    if os.environ.get("QT_QPA_PLATFORM"):
        return False
    if sys.platform.startswith("linux"):
        return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return False


def demo_database() -> Path:
    """The demo tournament's database (imported from ``sample_events/`` by the store)."""
    from referee_app.storage import demo_db_path

    try:
        return demo_db_path()
    except FileNotFoundError as e:
        raise GuiError.of("demo", "demo_missing", path=str(e.filename or e)) from None


def run(opts: LaunchOptions) -> int:
    """Open the window (blocking until it closes), or render it to ``opts.screenshot``."""
    if opts.view not in VIEWS:
        raise GuiError.of("view", "unknown_view", got=opts.view, known=list(VIEWS))
    if opts.db is None and not opts.demo and not opts.server:
        raise GuiError.of("db", "gui_no_db")
    if opts.screenshot is not None and _need_offscreen():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    elif _need_offscreen() and not opts.exit_when_ready:
        raise GuiError.of("display", "no_display")

    from referee_app.core.errors import RecordError, os_reason
    from referee_app.core.input_files import read_limited
    from referee_app.storage.errors import StorageError

    from .controllers.desk import Desk
    from .controllers.record_input import read_record_text

    record: dict | None = None
    unknown: tuple = ()
    if opts.record is not None:
        try:  # read as the CLI reads it: a typo'd key refused, other unknown keys warned
            got = read_record_text(read_limited(opts.record), opts.record.name)
        except OSError as e:
            raise GuiError.of("record", "cannot_read_file", path=str(opts.record),
                              why=os_reason(e)) from None
        except RecordError as e:
            raise GuiError.like("record", e) from None
        record, unknown = got.record, got.unknown
    try:
        if opts.server:
            from .server_launch import connect_desk

            if (opts.screenshot is not None or opts.exit_when_ready) and \
                    "REFEREE_PIN" not in os.environ:
                raise GuiError.of("pin", "no_window_to_sign_in")
            desk = connect_desk(opts.server, opts.referee, outbox=opts.outbox,
                                verify=str(opts.server_cert) if opts.server_cert else True)
        else:
            db = demo_database() if opts.demo else opts.db
            assert db is not None
            desk = Desk.open(db, opts.referee)
    except StorageError as e:
        raise GuiError.like(e.field or "db", e) from None

    from PySide6.QtWidgets import QApplication

    from referee_app.fonts import register_qt_font

    from .i18n import LANG, tr
    from .views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    register_qt_font()
    LANG.set(opts.lang)
    win = MainWindow(desk, banner=tr("demo_banner") if opts.demo else "")
    win.resize(*opts.size)
    status = None
    if opts.server:
        from .server_launch import attach_status

        status = attach_status(win, watch=opts.screenshot is None)
    if opts.screenshot is not None:
        win.show()
        target = prepare_view(win, opts.view, record)
        win.faults.show_unknown_fields(unknown)
        for _ in range(3):
            app.processEvents()
        ok = target.grab().save(str(opts.screenshot), "PNG")  # type: ignore[attr-defined]
        win.confirm_discard = lambda: True  # a picture of an edit: nothing to keep
        win.close()
        desk.close()
        if not ok:
            raise GuiError.of("screenshot", "screenshot_not_written", path=str(opts.screenshot))
        return 0
    from .faults import ErrorGuard

    # no traceback on screen: anything escaping a slot is logged and said in one line
    guard = ErrorGuard(lambda text: win.message(text)).install()
    if opts.lock_minutes is not None:  # remembered as the desk's setting
        from PySide6.QtCore import QSettings

        win.session.lock_minutes = opts.lock_minutes
        QSettings("RefereeDesk", "referee-app").setValue("session/lock_minutes",
                                                         opts.lock_minutes)
    win.show()
    if not opts.exit_when_ready and desk.signed_in is None:
        win.session.start_session()  # a tournament with referees: who is at the desk (name + PIN)
    if opts.view != "entry" or record is not None:
        prepare_view(win, opts.view, record)
        win.faults.show_unknown_fields(unknown)
    if opts.exit_when_ready:
        from PySide6.QtCore import QTimer

        def ready() -> None:
            print("ready", flush=True)
            app.quit()

        QTimer.singleShot(0, ready)
    try:
        code = app.exec()
    finally:
        guard.uninstall()
        if status is not None:
            status.close()
    win.desk.close()  # the window may have switched to another file
    return int(code)


def prepare_view(win: object, view: str, record: dict | None = None) -> object:
    """Put the window in a state worth a picture; returns the widget to photograph.

    The hand shown is a valid one with both kongs and wins (an amended one for
    ``history``), with the first payment's clause selected on the trace tab. With
    ``record``, that record is typed into a new hand of its table (round/table from the
    record, else the first table), players taken from the seating as the form does.
    """
    from .controllers.entry import EntryForm
    from .views.main_window import MainWindow

    assert isinstance(win, MainWindow)
    hands = win.desk.hands()
    rounds = win.desk.rounds()
    if record is not None and rounds:
        r = record.get("round") if record.get("round") in rounds else rounds[0]
        tables = win.desk.seating(r).tables
        t = record.get("table") if record.get("table") in tables else next(iter(tables))
        win.navigator.select_key(("table", r, t))
        form = EntryForm.from_record(record, win.desk.rules())
        for seat, inp in form.seats.items():
            inp.player = tables[t].get(seat)
        form.extra.update(round=r, table=t, hand_no=win.context[2] if win.context else 1)
        win.entry.load(form, "", win.entry.status.text())
        win.update_header()
    elif hands:
        def interest(h: object) -> tuple[int, int, int, int]:
            st = h.settlement  # type: ignore[attr-defined]
            events = h.record.get("events", [])  # type: ignore[attr-defined]
            kinds = {e.get("type") for e in events}
            amended = int(view == "history" and h.amended)  # type: ignore[attr-defined]
            return (amended, int(bool(st.get("ok"))), len(kinds), len(st.get("payments", [])))

        best = max(hands[:200], key=interest)
        win.navigator.select_key(("hand", best.id))
    elif win.desk.rounds():
        r = win.desk.rounds()[0]
        tables = win.desk.seating(r).tables
        if tables:
            win.new_hand(r, next(iter(tables)))
    target: object = win
    if view == "standings":
        win.tabs.setCurrentWidget(win.standings)
    elif view == "trace":
        win.tabs.setCurrentWidget(win.trace)
        if win.trace.payments.rowCount():
            win.trace.select_payment(0)
    elif view == "seating":
        win.tabs.setCurrentWidget(win.seating)
        win.seating.select_seat(1, win.desk.seats[0])  # a seat cell: Swap/move is enabled
    elif view == "players":
        win.tabs.setCurrentWidget(win.players)
        rows = win.desk.standings()
        if rows:
            win.players.select_player(rows[0].player)
            win.players.table.selectRow(0)
    elif view == "progress":
        win.tabs.setCurrentWidget(win.progress)
    elif view in ("amend", "blind", "whatif"):
        target = _issue12_view(win, view, hands)
    elif view == "history":
        dlg = win.show_history()
        if dlg is not None:
            dlg.resize(win.width() * 3 // 4, win.height() * 3 // 4)
            target = dlg
    elif view == "projector":
        proj = win.projector.open()
        proj.showNormal()
        proj.resize(win.size())
        target = proj
    else:
        win.tabs.setCurrentWidget(win.entry)
    return target


def _issue12_view(win: object, view: str, hands: list) -> object:
    """The screens of issue 12: an amendment with its impact, a blind second entry that
    differs from the first (the differences dialog), a what-if ruling ticked."""
    import copy

    from .controllers.entry import EntryForm
    from .views.blind import DifferencesDialog
    from .views.main_window import MainWindow

    assert isinstance(win, MainWindow)
    win.tabs.setCurrentWidget(win.entry)
    if view == "whatif":
        for h in hands[:400]:
            opts, _clauses = win.desk.what_if_options(EntryForm.from_record(h.record, win.desk.rules()))
            if opts:
                win.navigator.select_key(("hand", h.id))
                break
        win.tabs.setCurrentWidget(win.trace)
        if win.trace.whatif.switches.count():
            win.trace.whatif.tick(0)
        return win
    form = None
    for h in hands[:200]:  # a hand where a misread slip still makes a valid hand
        f = EntryForm.from_record(h.record, win.desk.rules())
        wins = [i for i, e in enumerate(f.events)
                if e.get("type") == "win" and e.get("from") and not e.get("flags")]
        if not wins:
            continue
        f.events[wins[-1]]["from"] = next(s for s in f.seat_labels if s not in (
            f.events[wins[-1]]["from"], *f.events[wins[-1]]["seats"]))
        if f.evaluate().ok and win.desk.amend_impact(h.id, f).rank_changes:
            win.navigator.select_key(("hand", h.id))
            form = copy.deepcopy(f)
            form.seats = copy.deepcopy(win.entry.form.seats)
            break
    if form is None or win.shown is None:
        return win
    if view == "amend":
        win.entry.set_events(form.events, "edit")
        win.show_impact()
        return win
    win.blind.verify_blind()
    win.entry.load(form, "", "")
    win.entry.undo_stack.resetClean()
    win.update_header()
    win.update_title()
    res = (win.desk.verify_blind(win.blind.hand_id, win.entry.form)
           if win.blind.hand_id else None)
    if res is None or res.verified:
        return win
    dlg = DifferencesDialog(win.entry.header.text(), res.differences, win)
    dlg.show()
    return dlg
