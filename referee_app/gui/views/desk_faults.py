"""Faults and other writers in the main window (issue 11): ``MainWindow.faults``.

* A read-only file opens for viewing: a banner says so and every write is refused with
  one line (the saving actions are disabled).
* A save that finds the file busy beyond the store's retry keeps the form and offers
  Retry (:meth:`retrying`).
* Other writers are followed: the file is polled about once a second
  (:class:`~..controllers.follow.Follower`) and the window refreshes; a hand open in the
  form that was changed elsewhere shows a banner, and saving it is refused until the
  referee has seen both versions (the store checks the version too).
* A hand record loaded from a file or pasted is read as the CLI reads it: a typo'd key is
  refused with "did you mean", other unknown keys are a warning banner.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol, TypeVar

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction, QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QMessageBox, QVBoxLayout, QWidget

from referee_app.core.errors import RecordError
from referee_app.core.input_files import InputTooLargeError, read_limited
from referee_app.core.jsonin import source_named
from referee_app.storage.errors import BusyError, HandChangedError

from ..controllers.follow import Follower, conflict_differences, open_hand_state
from ..controllers.record_input import (
    NearMissError,
    RecordInput,
    form_from_record,
    read_record_text,
)
from ..faults import read_only_text
from ..i18n import LANG, tr
from ..messages import exception_text, field_words
from .banner import BannerArea
from .blind import BlindVerify
from .conflict import ConflictDialog
from .keyboard import with_mnemonic
from .menus import WindowMenus
from .session import DeskSession

T = TypeVar("T")
Maker = Callable[[], tuple[str, str, list[tuple[str, Callable[[], object]]]]]


class FaultsHost(Protocol):
    """What the faults part uses of its window (the main window): a protocol, so this
    module does not import the window that holds it."""

    desk: Any
    entry: Any
    tabs: Any
    navigator: Any
    status_label: QLabel
    context: tuple[int, int, int, int | None] | None
    shown: Any
    run_dialog: Callable[[QDialog], bool]
    ask_open_file: Callable[[str, str], str]

    def message(self, text: str, error: bool = True) -> None: ...

    def may_leave_form(self) -> bool: ...

    def reload(self) -> None: ...

    def refresh(self) -> None: ...

    def sync_rules(self) -> bool: ...

    def update_header(self) -> None: ...

    def update_title(self) -> None: ...

    def open_hand(self, hand_id: int) -> None: ...

    def new_hand(self, round_no: int, table: int) -> None: ...

    def takeCentralWidget(self) -> QWidget: ...

    def setCentralWidget(self, w: QWidget) -> None: ...


class DeskFaults(QObject):
    """The window's banners, read-only state, busy retries, other writers and loaded
    records; ``session`` signs in again on a replaced file, ``blind`` says whether the form
    is a blind entry (not checked against the file), ``menus`` holds the saving actions.
    A QObject child of the window, so its language hook goes with the window."""

    def __init__(self, win: FaultsHost, session: DeskSession, blind: BlindVerify,
                 menus: WindowMenus) -> None:
        """Made once the window is built: banners above the tabs, the follower, the record
        actions; then the read-only state of the open file."""
        super().__init__(win if isinstance(win, QObject) else None)
        self.win, self.session, self.blind, self.menus = win, session, blind, menus
        self.widget: QWidget | None = win if isinstance(win, QWidget) else None
        self.banners = BannerArea()
        central = win.takeCentralWidget()
        holder = QWidget()
        lay = QVBoxLayout(holder)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(0)
        lay.addWidget(self.banners)
        lay.addWidget(central, 1)
        win.setCentralWidget(holder)
        self._banner_makers: dict[str, Maker] = {}
        #: the version saved elsewhere while the form edits an older one (None: none)
        self.stale: Any = None
        #: hooks (tests replace them): offer Retry for a busy file; the compare dialog
        self.ask_retry: Callable[[str], bool] = self._ask_retry_dialog
        self.resolve_conflict: Callable[[ConflictDialog], str | None] = \
            lambda dlg: dlg.choice if win.run_dialog(dlg) else None
        self.read_clipboard: Callable[[], str] = lambda: QGuiApplication.clipboard().text()
        self.follower = Follower(lambda: win.desk, self.widget,
                                 paused=lambda: QApplication.activeModalWidget() is not None)
        self.follower.changed.connect(self.follow_changes)
        self.follower.failed.connect(self._follow_failed)
        self.follower.replaced.connect(self.reopen_replaced)
        self._add_record_actions()
        LANG.changed.connect(self.retranslate)
        self.retranslate()
        self.desk_changed()
        self.follower.start()

    @property
    def desk(self) -> Any:
        """The window's desk at this moment (another file may have been opened)."""
        return self.win.desk

    # ------------------------------------------------------------------ banners

    def _banner(self, kind: str, make: Maker) -> None:
        """Show a banner built by ``make`` (rebuilt when the language changes)."""
        self._banner_makers[kind] = make
        text, level, buttons = make()
        self.banners.show_banner(kind, text, level, buttons)

    def _clear_banner(self, kind: str) -> None:
        self._banner_makers.pop(kind, None)
        self.banners.clear(kind)

    def retranslate(self, *_args: object) -> None:
        self.act_load_record.setText(with_mnemonic(tr("Load hand record…"), "L"))
        self.act_paste_record.setText(with_mnemonic(tr("Paste hand record"), "A"))
        for kind, make in list(self._banner_makers.items()):
            self._banner(kind, make)

    # ------------------------------------------------------------------ read-only

    def read_only_reason(self) -> str | None:
        return getattr(self.desk.t, "read_only", None)

    def desk_changed(self) -> None:
        """A (newly) opened file: the read-only banner and actions, nothing stale."""
        for kind in ("changed", "taken", "unknown"):
            self._clear_banner(kind)
        self.stale = None
        reason = self.read_only_reason()
        m = self.menus
        for a in (m.act_save, m.act_verify, m.act_void, m.act_verify_blind,
                  self.act_paste_record, self.act_load_record):
            a.setEnabled(reason is None)
        self.win.entry.btn_save.setEnabled(reason is None)
        if reason is None:
            self._clear_banner("readonly")
        else:
            self._banner("readonly", lambda: (
                tr("readonly_banner", why=read_only_text(self.read_only_reason() or "")),
                "danger", []))
        self.follower.mark_seen()

    def refuse_write(self) -> bool:
        """True (and one line said) when the open file cannot be written."""
        reason = self.read_only_reason()
        if reason is None:
            return False
        self.win.message(tr("readonly_refused", why=read_only_text(reason)))
        return True

    # ------------------------------------------------------------------ busy

    def _ask_retry_dialog(self, text: str) -> bool:
        box = QMessageBox(QMessageBox.Icon.Warning, tr("busy_retry_title"),
                          tr("busy_retry_prompt", msg=text),
                          QMessageBox.StandardButton.NoButton, self.widget)
        retry = box.addButton(tr("Retry"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
        box.exec()
        return box.clickedButton() is retry

    def retrying(self, save: Callable[[], T]) -> T:
        """Run one store write; while the file stays busy beyond the store's own wait, the
        form is kept and the referee may retry (Cancel re-raises the BusyError)."""
        while True:
            try:
                return save()
            except BusyError as e:
                if not self.ask_retry(exception_text(e)):
                    raise

    # ------------------------------------------------------------------ other writers

    def follow_changes(self) -> None:
        """Another process wrote: show again what it changed (the record's digest too), then
        check the form's hand."""
        self.win.refresh()
        self.win.sync_rules()  # a cap or stake changed elsewhere
        self.check_open_hand()
        self.win.status_label.setText(tr("follow_refreshed"))

    def reopen_replaced(self) -> None:
        """Another process restored a backup (or moved the file): the path is opened again,
        so nothing is read from or saved into the copy set aside. The form keeps what was
        typed; its hand is checked against the restored file; a tournament with referees
        asks the referee to sign in on it."""
        old = self.desk
        try:
            desk = old.reopen()
        except Exception as e:
            self._follow_failed(e)
            return
        self.win.desk = desk
        old.close()
        self.win.reload()
        self.win.update_header()
        self.desk_changed()
        self.win.sync_rules()
        self.follower.mark_seen()
        self._banner("replaced", lambda: (
            tr("replaced_banner", file=Path(str(desk.t.path)).name), "danger",
            [(tr("Dismiss"), lambda: self._clear_banner("replaced"))]))
        if desk.has_referees():
            self.session.start_session()
        self.check_open_hand()

    def _follow_failed(self, e: BaseException) -> None:
        self.win.message(tr("follow_failed", msg=exception_text(e)), error=False)

    def check_open_hand(self) -> None:
        """The hand in the form against the file (after another desk's save)."""
        if self.blind.hand_id is not None:
            return
        state = open_hand_state(self.desk, self.win.context, self.win.shown)
        clean = self.win.entry.undo_stack.isClean()
        if state.kind == "changed" and state.current is not None:
            cur = state.current
            if clean:  # nothing typed: show theirs, and say so
                self.win.open_hand(cur.id)
                self._banner("changed", lambda: (
                    tr("changed_banner_clean", hand=cur.id, theirs=cur.version), "info",
                    [(tr("Dismiss"), lambda: self._clear_banner("changed"))]))
                return
            self.stale = cur
            self._show_stale_banner()
        elif state.kind == "gone":
            hid = self.win.context[3]
            self._banner("changed", lambda: (
                tr("gone_banner", hand=hid), "danger",
                [(tr("Dismiss"), lambda: self._clear_banner("changed"))]))
        elif state.kind == "taken" and state.current is not None:
            r, t, n, _ = self.win.context
            if clean:  # an untouched new form simply moves to the next number
                tab = self.win.tabs.currentIndex()
                self.win.new_hand(r, t)
                self.win.tabs.setCurrentIndex(tab)
                return
            taken = state.current
            self._banner("taken", lambda: (
                tr("taken_banner", n=n), "danger",
                [(tr("Open their hand"),
                  lambda: self.win.navigator.select_key(("hand", taken.id)))]))

    def _show_stale_banner(self) -> None:
        cur, mine = self.stale, self.win.shown.version
        self._banner("changed", lambda: (
            tr("changed_banner_dirty", hand=cur.id, theirs=cur.version, mine=mine), "danger",
            [(tr("Compare versions…"), self.compare_versions)]))

    def form_shown(self) -> None:
        """The form now shows another hand (or a fresh copy): old hand banners go."""
        self.stale = None
        for kind in ("changed", "taken", "unknown"):
            self._clear_banner(kind)

    def refuse_stale(self) -> bool:
        """Saving an edit of a version that is no longer current: refused; both shown."""
        if self.stale is None:
            return False
        self.compare_versions()
        return self.stale is not None

    def hand_changed_on_save(self, e: HandChangedError) -> None:
        """The store refused the save (another desk was faster than the next poll)."""
        self.stale = self.desk.hand(e.hand_id)
        self._show_stale_banner()
        self.win.message(exception_text(e), error=False)
        self.compare_versions()

    def compare_versions(self) -> str | None:
        """Both versions side by side; the referee takes theirs or keeps the edit on top of
        theirs (the next save then amends their version)."""
        cur = self.stale
        if cur is None or self.win.shown is None:
            return None
        mine = self.win.shown.version
        dlg = ConflictDialog(self.win.entry.header.text(), mine, cur.version,
                             conflict_differences(cur, self.win.entry.form), self.widget)
        choice = self.resolve_conflict(dlg)
        if choice == "theirs":
            self.stale = None
            self.win.open_hand(cur.id)
        elif choice == "mine":
            self.stale = None
            self._clear_banner("changed")
            self.win.shown = cur
            self.win.update_title()
            self.win.message(tr("conflict_rebased", v=cur.version), error=False)
        return choice

    # ------------------------------------------------------------------ loading a record

    def _add_record_actions(self) -> None:
        self.act_load_record = QAction(self.widget)
        self.act_load_record.setObjectName("act_load_record")
        self.act_load_record.triggered.connect(lambda _c=False: self.load_record_file())
        self.act_paste_record = QAction(self.widget)
        self.act_paste_record.setObjectName("act_paste_record")
        self.act_paste_record.triggered.connect(lambda _c=False: self.paste_record())
        self.menus.menu_hand.addSeparator()
        self.menus.menu_hand.addAction(self.act_load_record)
        self.menus.menu_hand.addAction(self.act_paste_record)

    def load_record_file(self, path: str | None = None) -> bool:
        """Hand → Load hand record…: a JSON record into the form (a new hand or the open one)."""
        path = path or self.win.ask_open_file(tr("Load hand record…"),
                                          tr("record_file_filter"))
        if not path:
            return False
        try:
            data = read_limited(path)
        except OSError as e:
            self.win.message(tr("record_unreadable", msg=exception_text(e)))
            return False
        except InputTooLargeError as e:
            self.win.message(tr("record_unreadable", msg=exception_text(e)))
            return False
        return self.load_record_text(data, Path(path).name)

    def paste_record(self) -> bool:
        """Hand → Paste hand record: the clipboard's JSON record into the form."""
        text = self.read_clipboard()
        if not text.strip():
            self.win.message(tr("record_clipboard_empty"))
            return False
        return self.load_record_text(text, source_named("clipboard"))

    def load_record_text(self, text: str | bytes, source: str) -> bool:
        if self.win.context is None:
            self.win.message(tr("no_hand"))
            return False
        try:
            got = read_record_text(text, source)
        except NearMissError as e:
            where = field_words(e.where) if e.where else tr("record_top")
            self.win.message(tr("record_near_miss", name=e.key, near=e.near,
                                where=where or e.where))
            return False
        except RecordError as e:
            self.win.message(tr("record_unreadable", msg=exception_text(e)))
            return False
        if not self.win.may_leave_form():
            return False
        self._fill_form(got)
        return True

    def _fill_form(self, got: RecordInput) -> None:
        """The record's tiles and events into the form; players stay the seating's."""
        form = form_from_record(got, self.win.entry.form)
        self.win.entry.load(form, "", "")
        self.win.entry.undo_stack.resetClean()
        self.win.update_header()
        self.win.update_title()
        self.show_unknown_fields(got.unknown)
        self.win.message(tr("record_loaded"), error=False)

    def show_unknown_fields(self, unknown: tuple[tuple[str, bool], ...]) -> None:
        if not unknown:
            self._clear_banner("unknown")
            return
        sep = "、" if LANG.code == "zh" else ", "
        self._banner("unknown", lambda: (
            tr("unknown_banner", fields=sep.join(
                tr("unknown_kept" if kept else "unknown_ignored", name=path)
                for path, kept in unknown)),
            "warning", [(tr("Dismiss"), lambda: self._clear_banner("unknown"))]))
