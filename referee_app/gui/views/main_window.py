"""The referee desk's main window: navigator, entry, trace, standings, seating, players.

All decisions are the engine's or the store's: this window collects input, asks for the
reasons the store requires (amendment, override) and shows what comes back. Its parts are
members, each with its own concern: ``session`` (sign-in, idle lock, head PIN, record
digest), ``event_admin`` (tournament files, players, seating forms), ``blind`` (double
entry), ``projector`` (the standings on a second screen), ``menus`` (actions, menus,
toolbar) and ``faults`` (banners, read-only, other writers, loaded records).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import (
    QDialog,
    QFileDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from referee_app.core import RecordError
from referee_app.storage.errors import HandChangedError

from ..controllers.desk import Desk
from ..controllers.entry import Evaluation
from ..controllers.navigation import GoToError, find_players, resolve_goto
from ..i18n import LANG, seat_name, tr
from ..messages import exception_text, impact_text
from .blind import BlindVerify
from .desk_faults import DeskFaults
from .desk_projector import DeskProjector
from .dialogs import HistoryDialog, PenaltiesDialog
from .entry import EntryView
from .event_admin import EventAdmin
from .jump_bar import JumpBar
from .keyboard import ViewCycle, leave_on_tab
from .menus import WindowMenus
from .navigator import Navigator, SeatingView
from .override_dialog import Ruling, ask_override, before_save
from .players import PlayerView
from .progress import ProgressView
from .prompts import ReasonDialog, confirm_destructive
from .round_clock import RoundClock
from .session import DeskSession, HeadCancelled
from .shown import ShownRecord
from .standings import StandingsView
from .style import use_desk_style
from .tab_guard import TabLayoutGuard
from .trace import TraceView


class MainWindow(QMainWindow):
    """The window a referee lives in all day."""

    def __init__(self, desk: Desk, banner: str = "") -> None:
        use_desk_style()  # before any widget: whole group box titles
        super().__init__()
        self.desk = desk
        self.banner = banner
        self.setObjectName("main_window")
        self.resize(1500, 900)
        #: context of the form: (round, table, hand_no, hand_id or None)
        self.context: tuple[int, int, int, int | None] | None = None
        #: the saved hand in the form (None: a new hand)
        self.shown: Any = None
        self.blind = BlindVerify(self)
        self._statement_stale = False
        self.impact_timer = QTimer(self)
        self.impact_timer.setSingleShot(True)
        self.impact_timer.setInterval(150)
        self.impact_timer.timeout.connect(self.show_impact)
        self.projector = DeskProjector(self)
        #: hooks (tests replace them): ask for a required reason; show a message
        self.ask_text: Callable[[str, str], str | None] = self._ask_text_dialog
        self.show_message: Callable[[str], None] = self._message_box
        self.confirm_discard: Callable[[], bool] = self._confirm_discard_dialog
        #: a step that cannot be taken back, said first: (what happens, the button's words)
        self.confirm: Callable[[str, str], bool] = \
            lambda text, action: confirm_destructive(self, text, action)
        #: a dealer other than the rules' suggestion, said before saving: save anyway?
        self.confirm_dealer: Callable[[str], bool] = \
            lambda text: confirm_destructive(self, text, tr("Save anyway"))
        #: a required reason with a summary of what it changes (multi-line dialog)
        self.ask_reason: Callable[[str, str, str], str | None] = self._reason_dialog
        #: the head referee's override: (reason, every seat's chips summing to 0) or None
        self.ask_override: Callable[[dict[str, str]], Ruling | None] = \
            lambda players: ask_override(self, players)
        #: hooks for the management forms and file choosers (tests fill them in instead)
        self.run_dialog: Callable[[QDialog], bool] = \
            lambda d: d.exec() == QDialog.DialogCode.Accepted
        self.ask_open_file: Callable[[str, str], str] = \
            lambda title, filt: QFileDialog.getOpenFileName(self, title, "", filt)[0]
        self.ask_save_file: Callable[[str, str, str], str] = \
            lambda title, filt, name: QFileDialog.getSaveFileName(self, title, name, filt)[0]
        self.messages: list[str] = []
        #: a server desk's status line (views/outbox_status.py; None on a local file)
        self.remote: Any = None

        self.navigator = Navigator()
        self.entry = EntryView()
        self.trace = TraceView()
        self.standings = StandingsView()
        self.seating = SeatingView()
        self.players = PlayerView()
        self.progress = ProgressView()
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        for w in (self.entry, self.trace, self.standings, self.seating, self.players,
                  self.progress):
            self.tabs.addTab(w, "")
        self.tab_guard = TabLayoutGuard(self.tabs)  # a keystroke repaints what changed
        self.jump_bar = JumpBar()
        self.jump_bar.goto_requested.connect(self.go_to)
        self.jump_bar.find_requested.connect(self.find_player)
        self.jump_bar.closed.connect(self.navigator.setFocus)
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.setSpacing(2)
        left_lay.addWidget(self.jump_bar)
        left_lay.addWidget(self.navigator, 1)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.tabs)
        split.setStretchFactor(1, 1)
        split.setSizes([250, 1250])
        self.setCentralWidget(split)
        self.status_label = QLabel()
        self.statusBar().addWidget(self.status_label, 1)
        self.session = DeskSession(self)
        self.round_clock = RoundClock(self, self.session)
        self.event_admin = EventAdmin(self)
        #: Ctrl+Tab / Ctrl+Shift+Tab (a view's focus starts in its table, if it has one)
        self.view_cycle = ViewCycle(self.tabs, {self.entry: self.entry.first_field,
                                                self.trace: lambda: self.trace.payments})
        self.menus = WindowMenus(self, self.session, self.event_admin, self.blind,
                                 self.projector)
        self.navigator.hand_selected.connect(self._nav_hand)
        self.navigator.table_selected.connect(self._nav_table)
        self.navigator.round_selected.connect(self.show_round)
        self.entry.evaluated.connect(self._evaluated)
        self.entry.save_requested.connect(self.save)
        self.trace.whatif.record_requested.connect(self.record_ruling)
        self.entry.undo_stack.cleanChanged.connect(self.update_title)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.standings.round_changed.connect(self.refresh_standings)
        self.standings.player_activated.connect(self.show_player)
        self.seating.round_changed.connect(self.show_seating_round)
        self.progress.round_changed.connect(self.refresh_progress)
        self.progress.table_activated.connect(
            lambda r, t: self.navigator.select_key(("table", r, t)))
        self.players.player_changed.connect(self._player_changed)
        self.players.hand_activated.connect(self._hand_activated)
        self.event_admin.wire()  # the Players and Seating tabs' buttons
        self.seating.start_round_requested.connect(self.round_clock.start)
        self.showing = ShownRecord(self)  # what the window shows, read again after a change
        LANG.changed.connect(self.retranslate)
        self.retranslate()
        self.reload()
        leave_on_tab(self)  # Tab leaves every table and list of the window
        #: banners, read-only, following other writers (issue 11)
        self.faults = DeskFaults(self, self.session, self.blind, self.menus)

    # ------------------------------------------------------------------ messages

    def _ask_text_dialog(self, title: str, prompt: str) -> str | None:
        dlg = ReasonDialog(title, prompt, "", self, multiline=False)
        return dlg.reason() if self.run_dialog(dlg) else None

    def reason_given(self, reason: str | None) -> bool:
        """A reason typed and confirmed; cancelled (Esc) is no error, confirmed empty is."""
        if reason is not None and not reason.strip():
            self.message(tr("reason_required"))
        return bool(reason and reason.strip())

    def _reason_dialog(self, title: str, prompt: str, summary: str) -> str | None:
        dlg = ReasonDialog(title, prompt, summary, self)
        return dlg.reason() if self.run_dialog(dlg) else None

    def _confirm_discard_dialog(self) -> bool:
        return confirm_destructive(self, tr("discard_prompt"), tr("Discard changes"))

    def may_leave_form(self) -> bool:
        """Unsaved edits are only dropped when the referee says so."""
        return self.entry.undo_stack.isClean() or self.confirm_discard()

    def _restore_navigator(self) -> None:
        if self.context is not None:
            r, t, _n, hid = self.context
            self.navigator.select_key(("hand", hid) if hid is not None else ("table", r, t),
                                      emit=False)

    # ------------------------------------------------------------------ go to / find

    def go_to(self, text: str) -> bool:
        """Ctrl+G ``round table hand``: open that hand (or the table's next, new hand)."""
        d = self.desk
        try:
            target = resolve_goto(text, d.rounds(), {r: d.seating(r).tables for r in d.rounds()},
                                  d.hand_index(), d.next_hand_no)
        except GoToError as e:
            self.message(tr(e.msg_id, **e.values))
            return False
        self.jump_bar.close_bar()
        if target.key[0] == "hand" and self.tabs.currentWidget() not in (self.entry,
                                                                          self.trace):
            self.tabs.setCurrentWidget(self.entry)  # from Standings or Seating: the hand shows
        self.navigator.select_key(target.key)
        if target.key[0] != "table":
            self.navigator.setFocus()
        return True

    def find_player(self, text: str) -> bool:
        """Ctrl+F: a player's statement and hands on their tab; their seat this round."""
        found = find_players(text, self.desk.players())
        if not found:
            self.message(tr("find_none", text=text))
            return False
        p = found[0]
        self.jump_bar.close_bar()
        self.show_player(p.name)
        rounds = self.desk.rounds()
        playing = self.round_clock.state.round if self.round_clock.state else None
        r = self.context[0] if self.context else (playing if playing in rounds else
                                                   rounds[-1] if rounds else None)
        where = ""
        if r is not None:
            at = self.desk.seating(r).table_of(p.name)
            where = (tr("find_seat", round=tr("round_n", n=r), table=tr("table_n", n=at[0]),
                        seat=seat_name(at[1])) if at else tr("find_no_seat", round=tr("round_n", n=r)))
        self.message(f"{p.name}: {where}" if where else p.name, error=False)
        self.players.table.setFocus()
        return True

    def _nav_hand(self, hand_id: int) -> None:
        if self.context is not None and self.context[3] == hand_id:
            return
        if self.may_leave_form():
            self.open_hand(hand_id)
        else:
            self._restore_navigator()

    def _nav_table(self, round_no: int, table: int) -> None:
        if self.may_leave_form():
            self.new_hand(round_no, table)
        else:
            self._restore_navigator()

    def open_database(self) -> bool:
        """File → Open database…: switch this window to another tournament file."""
        if not self.may_leave_form():
            return False
        path = self.ask_open_file(tr("Open database…"), "SQLite (*.sqlite *.db);;* (*)")
        if not path:
            return False
        try:
            desk = Desk.open(path, self.desk.referee)
        except ValueError as e:
            self.message(exception_text(e))
            return False
        self.switch_desk(desk)
        return True

    def switch_desk(self, desk: Desk) -> None:
        """Show another tournament file (opened, created or imported); the old one closes."""
        old, self.desk = self.desk, desk
        old.close()
        self.context = None
        self.banner = ""
        self.entry.load(self.entry.form.blank(desk.rules()), "")
        self.reload()
        self.update_header()
        self.faults.desk_changed()
        self.session.start_session()

    def _message_box(self, text: str) -> None:
        QMessageBox.warning(self, tr("app_title"), text)

    def message(self, text: str, error: bool = True) -> None:
        self.messages.append(text)
        self.status_label.setText(text)
        if error:
            self.show_message(text)

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        """Re-read everything from the store (on start, or after a change that reshaped the
        tournament: players, rounds, settings)."""
        self.showing.reload()

    def refresh(self) -> None:
        """Show again what changed since the window last looked (a save here or at another
        desk): only the rows it changed (``views/shown.py``)."""
        self.showing.refresh()

    def sync_rules(self) -> bool:
        """A settings change (here or by the CLI) reaches the open form at once: it is
        settled again under the tournament's current cap and stake, so its preview stays
        what saving would store. True if the form's rules changed."""
        try:
            rules = self.desk.rules()
        except sqlite3.Error:
            return False
        form = self.entry.form
        if form.rules is rules or form.ruleset != rules.id:
            return False
        form.rules = rules
        self.entry.refresh()
        return True

    def refresh_progress(self, *_args: object) -> None:
        self.showing.progress()

    def refresh_standings(self, *_args: object) -> None:
        self.showing.standings()

    def show_seating_round(self, r: int) -> None:
        self.seating.show_seating(self.desk.seating(r), self.desk.seating_problems(r))

    def show_statement(self, name: str) -> None:
        self.players.show_statement(self.desk.statement(name))

    def mark_statement_stale(self) -> None:
        self._statement_stale = True

    def _player_changed(self, name: str) -> None:
        """The statement is read when it can be seen (a 2,000-hand one takes ~0.1 s)."""
        if self.tabs.currentWidget() is not self.players:
            self._statement_stale = True
            return
        self.players.show_statement(self.desk.statement(name))

    def _hand_activated(self, hand_id: int) -> None:
        self.navigator.select_key(("hand", hand_id))

    def show_round(self, r: int) -> None:
        """Follow the navigator: the seating tab shows the round being worked on."""
        idx = self.seating.round_box.findData(r)
        if idx >= 0 and idx != self.seating.round_box.currentIndex():
            self.seating.round_box.setCurrentIndex(idx)

    def _update_status(self) -> None:
        """The form's status in the current language: new, ``v2 · verified``, a void hand
        in red, and ``amending v1 → v2`` as soon as a saved hand is edited."""
        h = self.shown
        void = h is not None and h.status.value == "void"
        if self.blind.hand_id is not None:
            text = tr("blind_status")
        elif h is None:
            text = tr("status_new")
        elif not self.entry.undo_stack.isClean():
            text = tr("amending", a=h.version, b=h.version + 1)
        else:
            marks = [tr(f"status_{m}") for m in (h.status.value, *[f for f in h.flags
                                                                   if f != h.status.value])]
            text = f"v{h.version} · " + ", ".join(marks)
        if void:
            text = "⊘ " + text + " — " + tr("void_counts_nothing")
        self.entry.status.setText(text)
        self.entry.set_void(void)

    def update_title(self, *_args: object) -> None:
        if hasattr(self, "shown"):
            self._update_status()
            if self.amending() and self.isVisible():  # a closed window's file is closed
                self.impact_timer.start()
            elif self.entry.impact.isVisible():
                self.show_impact()  # back to the saved hand: the summary goes
        dirty = "" if self.entry.undo_stack.isClean() else f" — {tr('unsaved')}"
        banner = f" · {self.banner}" if self.banner else ""
        self.setWindowTitle(f"{tr('app_title')} · {self.desk.title}{banner}{dirty}")

    def update_header(self) -> None:
        self._restore_navigator()  # the tree follows the form (Ctrl+N, save, go-to)
        if self.context is None:
            self.entry.header.setText(tr("no_hand"))
            return
        r, t, n, hid = self.context
        text = f"{tr('round_n', n=r)} · {tr('table_n', n=t)} · "
        text += tr("hand_n", n=n) if hid is not None else tr("new_hand_n", n=n)
        self.entry.header.setText(text)

    def _forget_messages(self) -> None:
        """Another hand in the form: what was said about the last one goes (status line,
        events line)."""
        self.status_label.clear()
        self.entry.clear_line()

    def open_hand(self, hand_id: int) -> None:
        """Show a saved hand in the entry form (editing it makes an amendment)."""
        h = self.desk.hand(hand_id)
        self._forget_messages()
        self.faults.form_shown()
        self.context = (h.round, h.table, h.hand_no, h.id)
        self.shown = h
        self.blind.hand_id = None
        self.entry.load(self.desk.form_of(h), "", "")
        self.show_round(h.round)
        self.update_header()
        self.update_title()

    def new_hand(self, round_no: int, table: int) -> None:
        """A blank form for the table's next hand, dealer suggested by the ruleset."""
        form, hand_no = self.desk.new_form(round_no, table)
        self._forget_messages()
        self.faults.form_shown()
        self.context = (round_no, table, hand_no, None)
        self.shown = None
        self.blind.hand_id = None
        self.entry.load(form, "", "")
        self.show_round(round_no)
        self.update_header()
        self.update_title()
        self.tabs.setCurrentWidget(self.entry)
        first = self.entry.first_field()
        if first is not None:
            first.setFocus()

    def next_hand(self) -> None:
        if self.context is None:
            self.message(tr("no_hand"))
            return
        if not self.may_leave_form():
            return
        self.new_hand(self.context[0], self.context[1])

    # ------------------------------------------------------------------ live preview

    def _evaluated(self, ev: Evaluation) -> None:
        if self.tabs.currentWidget() is self.trace:
            self._show_trace(ev)
        if self.amending():  # worked out once typing pauses: keystrokes stay fast
            self.impact_timer.start()
        elif self.entry.impact.isVisible():
            self.show_impact()

    def amending(self) -> bool:
        return self.shown is not None and not self.entry.undo_stack.isClean()

    def impact_summary(self) -> str:
        """While a saved hand is edited: each seat's change and every rank that moves."""
        if not self.amending():
            return ""
        return impact_text(self.desk.amend_impact(self.shown.id, self.entry.form))

    def show_impact(self) -> None:
        text = self.impact_summary()
        self.entry.impact.setText(text)
        self.entry.impact.setVisible(bool(text))

    def _tab_changed(self, _i: int) -> None:
        if self.tabs.currentWidget() is self.progress:
            self.refresh_progress()
        if self.tabs.currentWidget() is self.players and self._statement_stale:
            self._statement_stale = False
            if self.players.current_player():
                self._player_changed(self.players.current_player())
        if self.tabs.currentWidget() is self.trace and self.entry.evaluation is not None:
            self._show_trace(self.entry.evaluation)

    def _show_trace(self, ev: Evaluation) -> None:
        s = ev.settlement.to_dict() if ev.settlement is not None else {
            "errors": [{"clause": p.clause, "seat": p.seat, "message": p.message}
                       for p in ev.problems]}
        header = self.entry.header.text()
        if self.shown is not None and self.shown.status.value == "void":
            header += f" · ⊘ {tr('void_counts_nothing')}"
        self.trace.show_settlement(s, self.entry.form.rules_obj, header, ev.settlement)
        self.trace.whatif.show_options(*self.desk.what_if_options(self.entry.form))

    # ------------------------------------------------------------------ saving

    def save(self) -> bool:
        """Ctrl+S: add the hand, or amend it (asking the reason); override needs a reason."""
        if self.context is None:
            self.message(tr("no_hand"))
            return False
        if self.faults.refuse_write() or self.faults.refuse_stale():
            return False
        if not self.entry.apply_events_line():  # Ctrl+S also takes a typed events line
            self.message(tr("cannot_save", msg=self.entry.line_message.text()))
            return False
        self.sync_rules()  # settings changed since the form opened: what is saved is shown
        ev = self.entry.refresh()
        if ev.read_error is not None:
            self.message(tr("cannot_save", msg=exception_text(ev.read_error)))
            return False
        if self.blind.hand_id is not None:
            return self.blind.save()
        r, t, n, hid = self.context
        ok, override, totals, signer = before_save(self, not ev.ok, self.context)
        if not ok:
            return False
        verified = self.shown is not None and self.shown.status.value == "verified"
        form = self.entry.form
        try:
            with self.session.head_signature("head_override" if override else "head_amend_verified",
                                     needed=bool(override) or (hid is not None and verified)) \
                    as head_signer:
                signer = head_signer or signer
                if hid is None:
                    h = self.faults.retrying(lambda: self.desk.add_hand(
                        form, r, t, n, override_reason=override, referee=signer,
                        override_totals=totals))
                else:
                    reason = self.ask_reason(tr("amend_title"), tr("amend_prompt"),
                                             self.impact_summary())
                    if not self.reason_given(reason):
                        return False
                    seen = self.shown.version if self.shown is not None else None
                    h = self.faults.retrying(lambda: self.desk.amend_hand(
                        hid, form, reason, override_reason=override, referee=signer,
                        expected_version=seen, override_totals=totals))
        except HandChangedError as e:
            self.faults.hand_changed_on_save(e)
            return False
        except HeadCancelled:
            return False
        except (ValueError, RecordError) as e:
            if self.remote is not None and self.remote.took(e):  # waits in the outbox
                return True
            self.message(tr("cannot_save", msg=exception_text(e)))
            return False
        self.context = (h.round, h.table, h.hand_no, h.id)
        self.refresh()
        self.navigator.select_key(("hand", h.id), emit=False)
        self.open_hand(h.id)
        self.message(tr("saved", n=h.hand_no, v=h.version), error=False)
        return True

    def record_ruling(self, w: Any) -> bool:
        """What-if → Record as override…: the head referee makes the alternative the
        ruling (a reason is required; the head referee signs when one is named)."""
        if self.context is None:
            self.message(tr("no_hand"))
            return False
        if self.faults.refuse_write() or self.faults.refuse_stale():
            return False
        name = tr(f"switch_{w.name}")
        summary = ", ".join(f"{seat_name(s)} {w.base.totals[s]:+d} → {w.alt.totals[s]:+d}"
                            for s in w.base.totals)
        reason = self.ask_reason(tr("override_title"), tr("whatif_reason", name=name), summary)
        if not self.reason_given(reason):
            return False
        ok, signer = self.session.head_by_name()
        if not ok:
            return False
        try:
            seen = self.shown.version if self.shown is not None else None
            with self.session.head_signature("head_override") as head_signer:
                h = self.faults.retrying(lambda: self.desk.record_ruling(
                    self.entry.form, self.context, dict(w.alt.totals),
                    f"{name}: {reason.strip()}", head_signer or signer,
                    expected_version=seen))
        except HandChangedError as e:
            self.faults.hand_changed_on_save(e)
            return False
        except HeadCancelled:
            return False
        except (ValueError, RecordError) as e:
            self.message(tr("cannot_save", msg=exception_text(e)))
            return False
        self.entry.undo_stack.setClean()
        self.refresh()
        self.open_hand(h.id)
        self.message(tr("whatif_saved", v=h.version), error=False)
        return True

    def _set_status(self, status: str, reason: str | None = None) -> bool:
        """A status change; void and restore (and un-verifying) are the head referee's."""
        if self.context is None or self.context[3] is None:
            self.message(tr("no_hand"))
            return False
        if self.faults.refuse_write() or self.faults.refuse_stale():
            return False
        hid = self.context[3]
        seen = self.shown.version if self.shown is not None else None
        what = {"void": "head_void", "restored": "head_restore"}.get(status, "head_settings")
        try:
            with self.session.head_signature(what, needed=status in ("void", "restored")) as signer:
                if status == "restored":
                    h = self.faults.retrying(lambda: self.desk.restore_hand(hid, reason or "", signer))
                else:
                    h = self.faults.retrying(lambda: self.desk.set_status(
                        hid, status, reason, signer, expected_version=seen))
        except HandChangedError as e:
            self.faults.hand_changed_on_save(e)
            return False
        except HeadCancelled:
            return False
        except ValueError as e:  # a status change, not a save: "not done", and why
            self.message(tr("not_done", msg=exception_text(e)))
            return False
        self.refresh()
        self.navigator.select_key(("hand", h.id), emit=False)
        self.open_hand(h.id)
        return True

    def verify_hand(self) -> bool:
        """A second referee checked the hand against the table's score sheet."""
        return self._set_status("verified")

    def void_hand(self) -> bool:
        """Void the hand (it stays listed, counts nothing); the store requires a reason."""
        reason = self.ask_text(tr("Void hand…"), tr("void_prompt"))
        if not self.reason_given(reason):
            return False
        return self._set_status("void", reason)

    def restore_hand(self) -> bool:
        """Hand → Restore hand…: the only way back from void; the hand counts again."""
        if self.shown is None or self.shown.status.value != "void":
            self.message(tr("restore_not_void"))
            return False
        reason = self.ask_text(tr("Restore hand…"), tr("restore_prompt"))
        if not self.reason_given(reason):
            return False
        return self._set_status("restored", reason)

    # ------------------------------------------------------------------ dialogs

    def show_history(self) -> HistoryDialog | None:
        if self.context is None or self.context[3] is None:
            self.message(tr("no_hand"))
            return None
        hid = self.context[3]
        dlg = HistoryDialog(self.entry.header.text(), self.desk.history(hid),
                            self.desk.base_rules(), self, self.desk.hand_log(hid))
        dlg.show()
        return dlg

    def show_penalties(self) -> PenaltiesDialog:
        def add(*args: Any, **kwargs: Any) -> Any:
            try:
                with self.session.head_signature("head_penalty") as signer:
                    p = self.desk.add_penalty(*args, referee=signer, **kwargs)
            except HeadCancelled:
                raise ValueError(tr("head_cancelled", what=tr("head_penalty"))) from None
            self.refresh()
            return p

        dlg = PenaltiesDialog([p.name for p in self.desk.players()], self.desk.rounds(),
                              self.desk.penalties, add, self, self.desk.in_play().round,
                              placement=self.desk.placement)
        dlg.show()
        return dlg

    def show_player(self, name: str) -> None:
        self.tabs.setCurrentWidget(self.players)
        self.players.select_player(name)

    def retranslate(self, *_args: object) -> None:
        """The window's texts in the current language: actions and menus, tab titles, the
        title bar and the form's header."""
        self.menus.retranslate()
        for i, key in enumerate(("Entry", "Trace", "Standings", "Seating", "Players",
                                 "Progress")):
            self.tabs.setTabText(i, tr(key))
        self.update_title()
        self.update_header()

    def closeEvent(self, event: Any) -> None:
        if not self.may_leave_form():
            event.ignore()
            return
        self.faults.follower.stop()
        self.impact_timer.stop()  # nothing is worked out for a closed window (its file closes)
        self.session.end_session()
        if self.remote is not None:  # a server desk: its watcher thread stops
            self.remote.close()
        self.projector.close()
        super().closeEvent(event)
