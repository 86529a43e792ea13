"""The referee desk's main window: navigator, entry, trace, standings, seating, players.

All decisions are the engine's or the store's: this window collects input, asks for the
reasons the store requires (amendment, override) and shows what comes back.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFileDialog,
    QInputDialog,
    QLabel,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QTabWidget,
    QToolBar,
    QWidget,
)

from referee_app.core import RecordError

from ..controllers.desk import Desk, parse_seed, ruleset_choices
from ..controllers.entry import Evaluation
from ..i18n import LANG, seat_name, tr
from .dialogs import HistoryDialog, PenaltiesDialog
from .entry import EntryView
from .manage import AddPlayerDialog, NewTournamentDialog, SeatRoundDialog, SwapDialog
from .navigator import Navigator, SeatingView
from .players import PlayerView
from .report_menu import ReportMenu
from .standings import ProjectorWindow, StandingsView
from .trace import TraceView


class MainWindow(QMainWindow):
    """The window a referee lives in all day."""

    def __init__(self, desk: Desk, banner: str = "") -> None:
        super().__init__()
        self.desk = desk
        self.banner = banner
        self.setObjectName("main_window")
        self.resize(1500, 900)
        #: context of the form: (round, table, hand_no, hand_id or None)
        self.context: tuple[int, int, int, int | None] | None = None
        self.projector: ProjectorWindow | None = None
        #: hooks (tests replace them): ask for a required reason; show a message
        self.ask_text: Callable[[str, str], str | None] = self._ask_text_dialog
        self.show_message: Callable[[str], None] = self._message_box
        self.confirm_discard: Callable[[], bool] = self._confirm_discard_dialog
        #: hooks for the management forms and file choosers (tests fill them in instead)
        self.run_dialog: Callable[[QDialog], bool] = \
            lambda d: d.exec() == QDialog.DialogCode.Accepted
        self.ask_open_file: Callable[[str, str], str] = \
            lambda title, filt: QFileDialog.getOpenFileName(self, title, "", filt)[0]
        self.ask_save_file: Callable[[str, str, str], str] = \
            lambda title, filt, name: QFileDialog.getSaveFileName(self, title, name, filt)[0]
        self.messages: list[str] = []

        self.navigator = Navigator()
        self.entry = EntryView()
        self.trace = TraceView()
        self.standings = StandingsView()
        self.seating = SeatingView()
        self.players = PlayerView()
        self.tabs = QTabWidget()
        self.tabs.setObjectName("tabs")
        for w in (self.entry, self.trace, self.standings, self.seating, self.players):
            self.tabs.addTab(w, "")
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.navigator)
        split.addWidget(self.tabs)
        split.setStretchFactor(1, 1)
        split.setSizes([250, 1250])
        self.setCentralWidget(split)
        self.status_label = QLabel()
        self.statusBar().addWidget(self.status_label, 1)

        self._make_actions()
        self.navigator.hand_selected.connect(self._nav_hand)
        self.navigator.table_selected.connect(self._nav_table)
        self.navigator.round_selected.connect(self._round_selected)
        self.entry.evaluated.connect(self._evaluated)
        self.entry.undo_stack.cleanChanged.connect(self._update_title)
        self.tabs.currentChanged.connect(self._tab_changed)
        self.standings.round_changed.connect(self.refresh_standings)
        self.standings.player_activated.connect(self.show_player)
        self.seating.round_changed.connect(self._seating_round)
        self.players.player_changed.connect(self._player_changed)
        self.players.hand_activated.connect(self._hand_activated)
        self.players.add_requested.connect(self.add_player)
        self.players.import_requested.connect(self.import_players)
        self.players.status_requested.connect(self.set_player_status)
        self.seating.seat_round_requested.connect(self.seat_round)
        self.seating.swap_requested.connect(self.swap_seat)
        LANG.changed.connect(self.retranslate)
        self.retranslate()
        self.reload()

    # ------------------------------------------------------------------ actions

    def _make_actions(self) -> None:
        def act(shortcut: Any, fn: Callable[[], Any], name: str) -> QAction:
            a = QAction(self)
            a.setObjectName(name)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            a.triggered.connect(lambda _checked=False: fn())
            self.addAction(a)
            return a

        self.act_save = act(QKeySequence.StandardKey.Save, self.save, "act_save")
        self.act_next = act(QKeySequence.StandardKey.New, self.next_hand, "act_next")
        # plain actions with fixed texts (the stack's own actions rename themselves per
        # command, which made the toolbar jump around)
        stack = self.entry.undo_stack
        self.act_undo = act(QKeySequence.StandardKey.Undo, stack.undo, "act_undo")
        self.act_redo = act(None, stack.redo, "act_redo")
        self.act_undo.setEnabled(False)
        self.act_redo.setEnabled(False)
        stack.canUndoChanged.connect(self.act_undo.setEnabled)
        stack.canRedoChanged.connect(self.act_redo.setEnabled)
        redo = [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")]
        std = QKeySequence(QKeySequence.StandardKey.Redo)
        self.act_redo.setShortcuts(redo + ([std] if std not in redo and not std.isEmpty() else []))
        self.act_history = act("Ctrl+H", self.show_history, "act_history")
        # Ctrl+P is the platform's Print: it opens the report preview (Reports menu)
        self.act_penalties = act("Ctrl+Shift+P", self.show_penalties, "act_penalties")
        self.act_verify = act("Ctrl+Shift+V", self.verify_hand, "act_verify")
        self.act_void = act(None, self.void_hand, "act_void")
        self.act_projector = act("F11", self.open_projector, "act_projector")
        self.act_quit = act(QKeySequence.StandardKey.Quit, self.close, "act_quit")
        self.act_open = act(QKeySequence.StandardKey.Open, self.open_database, "act_open")
        self.act_new_tournament = act(None, self.new_tournament, "act_new_tournament")
        self.act_import_bundle = act(None, self.import_bundle, "act_import_bundle")
        self.act_export_bundle = act(None, self.export_bundle, "act_export_bundle")
        self.act_lang = QActionGroup(self)
        self.act_zh = QAction("中文", self, checkable=True)
        self.act_en = QAction("English", self, checkable=True)
        for a, code in ((self.act_zh, "zh"), (self.act_en, "en")):
            self.act_lang.addAction(a)
            a.triggered.connect(lambda _c=False, code=code: LANG.set(code))
        (self.act_zh if LANG.code == "zh" else self.act_en).setChecked(True)

        mb = self.menuBar()
        self.menu_file = mb.addMenu("")
        self.menu_file.addAction(self.act_new_tournament)
        self.menu_file.addAction(self.act_open)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_import_bundle)
        self.menu_file.addAction(self.act_export_bundle)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_hand = mb.addMenu("")
        for a in (self.act_save, self.act_next, self.act_undo, self.act_redo, self.act_history,
                  self.act_verify, self.act_void, self.act_penalties):
            self.menu_hand.addAction(a)
        self.menu_view = mb.addMenu("")
        self.menu_view.addAction(self.act_projector)
        self.menu_lang = self.menu_view.addMenu("")
        self.menu_lang.addAction(self.act_zh)
        self.menu_lang.addAction(self.act_en)
        self.reports = ReportMenu(self)

        tb = QToolBar()
        tb.setObjectName("toolbar")
        tb.setMovable(False)
        self.addToolBar(tb)
        for a in (self.act_save, self.act_next, self.act_undo, self.act_redo, self.act_history,
                  self.act_penalties, self.act_projector, self.reports.act_preview):
            tb.addAction(a)
        spacer = QWidget()
        spacer.setSizePolicy(spacer.sizePolicy().horizontalPolicy().Expanding,
                             spacer.sizePolicy().verticalPolicy())
        tb.addWidget(spacer)
        self.lang_box = QComboBox()
        self.lang_box.setObjectName("lang_box")
        self.lang_box.addItem("中文", "zh")
        self.lang_box.addItem("English", "en")
        self.lang_box.setCurrentIndex(self.lang_box.findData(LANG.code))
        self.lang_box.currentIndexChanged.connect(
            lambda _i: LANG.set(self.lang_box.currentData()))
        tb.addWidget(self.lang_box)

    def retranslate(self, *_args: object) -> None:
        self.act_save.setText(tr("Save hand"))
        self.act_next.setText(tr("Next hand"))
        self.act_undo.setText(tr("Undo"))
        self.act_redo.setText(tr("Redo"))
        self.act_history.setText(tr("History…"))
        self.act_penalties.setText(tr("Penalties…"))
        self.act_verify.setText(tr("Mark verified"))
        self.act_void.setText(tr("Void hand…"))
        self.act_projector.setText(tr("Projector window"))
        self.act_quit.setText(tr("Quit"))
        self.act_open.setText(tr("Open database…"))
        self.act_new_tournament.setText(tr("New tournament…"))
        self.act_import_bundle.setText(tr("Import bundle…"))
        self.act_export_bundle.setText(tr("Export bundle…"))
        self.menu_file.setTitle(tr("File"))
        self.menu_hand.setTitle(tr("Hand"))
        self.menu_view.setTitle(tr("View"))
        self.menu_lang.setTitle(tr("Language"))
        (self.act_zh if LANG.code == "zh" else self.act_en).setChecked(True)
        self.lang_box.blockSignals(True)
        self.lang_box.setCurrentIndex(self.lang_box.findData(LANG.code))
        self.lang_box.blockSignals(False)
        for i, key in enumerate(("Entry", "Trace", "Standings", "Seating", "Players")):
            self.tabs.setTabText(i, tr(key))
        self._update_title()
        self.update_header()

    # ------------------------------------------------------------------ messages

    def _ask_text_dialog(self, title: str, prompt: str) -> str | None:
        text, ok = QInputDialog.getText(self, title, prompt)
        return text if ok else None

    def _confirm_discard_dialog(self) -> bool:
        answer = QMessageBox.question(self, tr("app_title"), tr("discard_prompt"))
        return answer == QMessageBox.StandardButton.Yes

    def may_leave_form(self) -> bool:
        """Unsaved edits are only dropped when the referee says so."""
        return self.entry.undo_stack.isClean() or self.confirm_discard()

    def _restore_navigator(self) -> None:
        if self.context is not None:
            r, t, _n, hid = self.context
            self.navigator.select_key(("hand", hid) if hid is not None else ("table", r, t),
                                      emit=False)

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
        from PySide6.QtWidgets import QFileDialog

        if not self.may_leave_form():
            return False
        path, _filter = QFileDialog.getOpenFileName(self, tr("Open database…"), "",
                                                    "SQLite (*.sqlite *.db);;* (*)")
        if not path:
            return False
        try:
            desk = Desk.open(path, self.desk.referee)
        except ValueError as e:
            self.message(str(e))
            return False
        self.switch_desk(desk)
        return True

    def switch_desk(self, desk: Desk) -> None:
        old, self.desk = self.desk, desk
        old.close()
        self.context = None
        self.banner = ""
        self.entry.load(self.entry.form.blank(desk.ruleset), "")
        self.reload()
        self.update_header()

    def _message_box(self, text: str) -> None:
        QMessageBox.warning(self, tr("app_title"), text)

    def message(self, text: str, error: bool = True) -> None:
        self.messages.append(text)
        self.status_label.setText(text)
        if error:
            self.show_message(text)

    # ------------------------------------------------------------------ loading

    def reload(self) -> None:
        """Re-read everything from the store (after a save, or on start)."""
        rounds = self.desk.rounds()
        self.navigator.populate(self.desk.title, rounds, self.desk.seating_map(),
                                self.desk.hands())
        self.standings.set_rounds(rounds)
        self.seating.set_rounds(rounds)
        self.seating.set_next_round(self.desk.next_round())
        if rounds:
            self._seating_round(self.seating.current_round() or rounds[0])
        else:
            self.seating.show_empty()
        players = self.desk.players()
        self.players.set_players([p.name for p in players])
        self.players.set_statuses({p.name: p.status.value for p in players})
        self.refresh_standings()
        if self.players.current_player():
            self.players.show_statement(self.desk.statement(self.players.current_player()))
        self._update_title()

    def refresh_standings(self, *_args: object) -> None:
        self.standings.set_rows(self.desk.standings(self.standings.selected_round()))

    def _seating_round(self, r: int) -> None:
        self.seating.show_seating(self.desk.seating(r), self.desk.seating_problems(r))

    def _player_changed(self, name: str) -> None:
        self.players.show_statement(self.desk.statement(name))

    def _hand_activated(self, hand_id: int) -> None:
        self.navigator.select_key(("hand", hand_id))

    def _round_selected(self, r: int) -> None:
        """Follow the navigator: the seating tab shows the round being worked on."""
        idx = self.seating.round_box.findData(r)
        if idx >= 0 and idx != self.seating.round_box.currentIndex():
            self.seating.round_box.setCurrentIndex(idx)

    def _update_title(self, *_args: object) -> None:
        dirty = "" if self.entry.undo_stack.isClean() else f" — {tr('unsaved')}"
        banner = f" · {self.banner}" if self.banner else ""
        self.setWindowTitle(f"{tr('app_title')} · {self.desk.title}{banner}{dirty}")

    def update_header(self) -> None:
        if self.context is None:
            self.entry.header.setText(tr("no_hand"))
            return
        r, t, n, hid = self.context
        text = f"{tr('round_n', n=r)} · {tr('table_n', n=t)} · "
        text += tr("hand_n", n=n) if hid is not None else tr("new_hand_n", n=n)
        self.entry.header.setText(text)

    def open_hand(self, hand_id: int) -> None:
        """Show a saved hand in the entry form (editing it makes an amendment)."""
        h = self.desk.hand(hand_id)
        self.context = (h.round, h.table, h.hand_no, h.id)
        marks = [tr(f"status_{m}") for m in (h.status.value, *[f for f in h.flags
                                                               if f != h.status.value])]
        self.entry.load(self.desk.form_of(h), "", f"v{h.version} · " + ", ".join(marks))
        self._round_selected(h.round)
        self.update_header()
        self._update_title()

    def new_hand(self, round_no: int, table: int) -> None:
        """A blank form for the table's next hand, dealer suggested by the ruleset."""
        form, hand_no = self.desk.new_form(round_no, table)
        self.context = (round_no, table, hand_no, None)
        self.entry.load(form, "", tr("status_new"))
        self._round_selected(round_no)
        self.update_header()
        self._update_title()
        self.tabs.setCurrentWidget(self.entry)
        first = next(iter(self.entry.panels.values()), None)
        if first is not None:
            first.concealed.setFocus()

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

    def _tab_changed(self, _i: int) -> None:
        if self.tabs.currentWidget() is self.trace and self.entry.evaluation is not None:
            self._show_trace(self.entry.evaluation)

    def _show_trace(self, ev: Evaluation) -> None:
        s = ev.settlement.to_dict() if ev.settlement is not None else {
            "errors": [{"clause": p.clause, "seat": p.seat, "message": p.message}
                       for p in ev.problems]}
        self.trace.show_settlement(s, self.entry.form.ruleset, self.entry.header.text())

    # ------------------------------------------------------------------ saving

    def save(self) -> bool:
        """Ctrl+S: add the hand, or amend it (asking the reason); override needs a reason."""
        if self.context is None:
            self.message(tr("no_hand"))
            return False
        ev = self.entry.refresh()
        if ev.read_error is not None:
            self.message(tr("cannot_save", msg=str(ev.read_error)))
            return False
        r, t, n, hid = self.context
        override = None
        signer = None
        if not ev.ok:
            override = self.ask_text(tr("override_title"), tr("override_prompt"))
            if not override or not override.strip():
                self.message(tr("reason_required"))
                return False
            head = self.desk.head_referee
            if head and self.desk.referee != head:
                signer = self.ask_text(tr("head_sign_title"), tr("head_sign_prompt", head=head))
                if not signer or not signer.strip():
                    self.message(tr("reason_required"))
                    return False
                signer = signer.strip()
        form = self.entry.form
        try:
            if hid is None:
                h = self.desk.add_hand(form, r, t, n, override_reason=override, referee=signer)
            else:
                reason = self.ask_text(tr("amend_title"), tr("amend_prompt"))
                if not reason or not reason.strip():
                    self.message(tr("reason_required"))
                    return False
                h = self.desk.amend_hand(hid, form, reason, override_reason=override,
                                         referee=signer)
        except (ValueError, RecordError) as e:
            self.message(tr("cannot_save", msg=str(e)))
            return False
        self.context = (h.round, h.table, h.hand_no, h.id)
        self.reload()
        self.navigator.select_key(("hand", h.id), emit=False)
        self.open_hand(h.id)
        self.message(tr("saved", n=h.hand_no, v=h.version), error=False)
        return True

    def _set_status(self, status: str, reason: str | None = None) -> bool:
        if self.context is None or self.context[3] is None:
            self.message(tr("no_hand"))
            return False
        try:
            h = self.desk.set_status(self.context[3], status, reason)
        except ValueError as e:
            self.message(tr("cannot_save", msg=str(e)))
            return False
        self.reload()
        self.navigator.select_key(("hand", h.id), emit=False)
        self.open_hand(h.id)
        return True

    def verify_hand(self) -> bool:
        """A second referee checked the hand against the table's score sheet."""
        return self._set_status("verified")

    def void_hand(self) -> bool:
        """Void the hand (it stays listed, counts nothing); the store requires a reason."""
        reason = self.ask_text(tr("Void hand…"), tr("void_prompt"))
        if not reason or not reason.strip():
            self.message(tr("reason_required"))
            return False
        return self._set_status("void", reason)

    # ------------------------------------------------------------------ dialogs

    def show_history(self) -> HistoryDialog | None:
        if self.context is None or self.context[3] is None:
            self.message(tr("no_hand"))
            return None
        hid = self.context[3]
        dlg = HistoryDialog(self.entry.header.text(), self.desk.history(hid), self.desk.ruleset,
                            self)
        dlg.show()
        return dlg

    def show_penalties(self) -> PenaltiesDialog:
        def add(*args: Any, **kwargs: Any) -> Any:
            p = self.desk.add_penalty(*args, **kwargs)
            self.reload()
            return p

        dlg = PenaltiesDialog([p.name for p in self.desk.players()], self.desk.rounds(),
                              self.desk.penalties, add, self)
        dlg.show()
        return dlg

    # ------------------------------------------------------------------ running the event

    def _refused(self, msg: str) -> None:
        """A store error (``field: problem``) as a message box; nothing was changed."""
        self.message(tr("not_done", msg=msg))

    def new_tournament(self) -> bool:
        """File → New tournament…: create the file through the store, then open it."""
        if not self.may_leave_form():
            return False

        def submit(d: NewTournamentDialog) -> Desk:
            v = d.values()
            return Desk.create(v["path"], v["name"], ruleset=v["ruleset"], venue=v["venue"],
                               start_date=v["start_date"], end_date=v["end_date"],
                               stake=v["stake"], cap_fan=v["cap_fan"],
                               referee=self.desk.referee)

        dlg = NewTournamentDialog(ruleset_choices(), self.ask_save_file, submit, self._refused,
                                  self)
        if not self.run_dialog(dlg) or not isinstance(dlg.outcome, Desk):
            return False
        self.switch_desk(dlg.outcome)
        self.message(tr("created", name=dlg.outcome.title, path=dlg.outcome.t.path),
                     error=False)
        return True

    def import_bundle(self) -> bool:
        """File → Import bundle…: a bundle JSON becomes a new tournament file, opened."""
        if not self.may_leave_form():
            return False
        bundle = self.ask_open_file(tr("Import bundle…"), tr("bundle_file"))
        if not bundle:
            return False
        target = self.ask_save_file(tr("Save imported tournament as"), tr("db_file"),
                                    str(Path(bundle).with_suffix(".sqlite")))
        if not target:
            return False
        try:
            desk = Desk.import_bundle(bundle, target, self.desk.referee)
        except (ValueError, OSError) as e:
            self._refused(str(e))
            return False
        self.switch_desk(desk)
        self.message(tr("imported", name=desk.title, path=target), error=False)
        return True

    def export_bundle(self) -> bool:
        """File → Export bundle…: the whole tournament (every version) as one JSON file."""
        path = self.ask_save_file(tr("Export bundle…"), tr("bundle_file"),
                                  f"{self.desk.title}.json")
        if not path:
            return False
        try:
            data = self.desk.export_bundle(path)
        except (ValueError, OSError) as e:
            self._refused(str(e))
            return False
        self.message(tr("exported", path=path, players=len(data.get("players", [])),
                        hands=len(data.get("hands", []))), error=False)
        return True

    def add_player(self) -> bool:
        """Players → Add player…: register one player (the name must be new)."""
        def submit(d: AddPlayerDialog) -> Any:
            v = d.values()
            return self.desk.add_player(v["name"], v["name_latin"], v["club"], v["status"])

        dlg = AddPlayerDialog(submit, self._refused, self)
        if not self.run_dialog(dlg) or dlg.outcome is None:
            return False
        name = dlg.outcome.name  # type: ignore[attr-defined]
        self.reload()
        self.players.select_player(name)
        self.message(tr("player_added", name=name), error=False)
        return True

    def import_players(self) -> bool:
        """Players → Import players CSV…: all rows or none (the store names the bad line)."""
        path = self.ask_open_file(tr("Import players CSV…"), tr("csv_file"))
        if not path:
            return False
        try:
            added = self.desk.import_players_csv(path)
        except (ValueError, OSError) as e:
            self._refused(str(e))
            return False
        self.reload()
        self.message(tr("players_imported", n=len(added), path=path), error=False)
        return True

    def set_player_status(self, name: str, status: str) -> bool:
        """The status box of the player tab: withdrawn players are not seated again."""
        try:
            p = self.desk.set_player_status(name, status)
        except ValueError as e:
            self._refused(str(e))
            self.reload()  # the box shows the stored status again
            return False
        self.reload()
        self.message(tr("status_set", name=p.name, status=tr(f"pstatus_{p.status.value}")),
                     error=False)
        return True

    def seat_round(self) -> bool:
        """Seating → Seat round N…: the store seats the next round (seeded, byes/substitutes)."""
        n = self.desk.next_round()
        players = self.desk.seatable_players()

        def submit(d: SeatRoundDialog) -> Any:
            v = d.values()
            return self.desk.seat_round(n, parse_seed(v["seed"]), v["fill"])

        dlg = SeatRoundDialog(n, players, len(self.desk.seats), submit, self._refused, self)
        if not self.run_dialog(dlg) or dlg.outcome is None:
            return False
        self.reload()
        self.tabs.setCurrentWidget(self.seating)
        self._round_selected(n)
        self.message(tr("round_seated", n=n), error=False)
        return True

    def swap_seat(self, round_no: int | None = None, table: int | None = None,
                  seat: str | None = None) -> bool:
        """Seating → Swap/move player…: put a player in the selected seat (the store swaps
        them with whoever sat there, or hands the bye over)."""
        if round_no is None or table is None or seat is None:
            sel = self.seating.selected_seat()
            if sel is None:
                self.message(tr("select_seat"))
                return False
            round_no, table, seat = sel
        seating = self.desk.seating(round_no)
        current = seating.tables.get(table, {}).get(seat, "—")
        byes = set(seating.byes)
        choices = []
        for p in self.desk.players():
            if p.name == current or p.status.value == "withdrawn":
                continue
            at = seating.table_of(p.name)
            place = (tr("sits_at", table=tr("table_n", n=at[0]), seat=seat_name(at[1]))
                     if at else tr("on_bye") if p.name in byes else tr("not_seated"))
            choices.append((p.name, place))

        def submit(d: SwapDialog) -> Any:
            return self.desk.set_seat(round_no, table, seat, d.values()["player"])

        dlg = SwapDialog(round_no, table, seat, current, choices, submit, self._refused, self)
        if not self.run_dialog(dlg) or dlg.outcome is None:
            return False
        who = dlg.values()["player"]
        self.reload()
        self._round_selected(round_no)
        self.seating.select_seat(table, seat)
        self.message(tr("seat_set", player=who, table=tr("table_n", n=table),
                        seat=seat_name(seat)), error=False)
        return True

    def show_player(self, name: str) -> None:
        self.tabs.setCurrentWidget(self.players)
        self.players.select_player(name)

    def open_projector(self) -> ProjectorWindow:
        if self.projector is None:
            self.projector = ProjectorWindow(
                lambda: (f"{self.desk.title} · {tr('Standings')}", self.desk.standings()))
        self.projector.showFullScreen()
        return self.projector

    def closeEvent(self, event: Any) -> None:  # noqa: N802 (Qt naming)
        if not self.may_leave_form():
            event.ignore()
            return
        if self.projector is not None:
            self.projector.timer.stop()
            self.projector.close()
            self.projector.deleteLater()
            self.projector = None
        super().closeEvent(event)
