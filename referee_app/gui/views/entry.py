"""Hand entry, keyboard first: seat panels, the ordered event list and a live preview.

Every change goes through :class:`~referee_app.gui.controllers.undo.FormCommand` onto the
form's QUndoStack, then the form is re-evaluated by the engine and the preview redrawn
(well under the 50 ms budget: reading + settling a record takes about a millisecond).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from ..controllers.entry import EntryForm, Evaluation
from ..controllers.event_line import EventLineError, parse_event_line
from ..controllers.undo import FormCommand
from ..i18n import LANG, seat_name, tr
from ..messages import shown_problem
from .colours import RED, WARN_BG, brush
from .preview import PreviewPanel
from .seat_panel import FormLineEdit, SeatPanel, tiles_or_none


class EntryView(QWidget):
    """The hand-entry tab. ``evaluated`` fires after every change with the engine's answer."""

    evaluated = Signal(object)  # Evaluation
    save_requested = Signal()
    next_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.form = EntryForm.blank("ottawa-2009")
        self.undo_stack = QUndoStack(self)
        self.evaluation: Evaluation | None = None
        self._applying = False
        #: runs a dialog and returns whether it was accepted (tests may replace it)
        self.exec_dialog: Callable[[QDialog], bool] = lambda d: d.exec() == QDialog.DialogCode.Accepted

        self.header = QLabel()
        self.header.setObjectName("entry_header")
        hf = self.header.font()
        hf.setPointSize(hf.pointSize() + 2)
        hf.setBold(True)
        self.header.setFont(hf)
        self.status = QLabel()
        self.status.setObjectName("entry_status")
        self.dealer = QComboBox()
        self.dealer.setObjectName("dealer")
        self.dealer.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.lbl_dealer = QLabel()
        self.lbl_dealer.setBuddy(self.dealer)
        self.dealer.activated.connect(self._dealer_changed)
        #: while a saved hand is edited: the change in totals and ranks it would make
        self.impact = QLabel()
        self.impact.setObjectName("amend_impact")
        self.impact.setWordWrap(True)
        self.impact.setStyleSheet("background: #fff7d6; border: 1px solid #e0c870; padding: 4px;")
        self.impact.setVisible(False)
        head = QHBoxLayout()
        head.addWidget(self.header)
        head.addStretch(1)
        head.addWidget(self.status)
        head.addSpacing(12)
        head.addWidget(self.lbl_dealer)
        head.addWidget(self.dealer)

        self.seat_grid = QGridLayout()
        self.seat_grid.setSpacing(8)
        self.panels: dict[str, SeatPanel] = {}

        self.events_box = QGroupBox()
        self.events = QListWidget()
        self.events.setObjectName("events")
        self.events.setMinimumHeight(90)
        self.events.itemActivated.connect(lambda _it: self.edit_event())
        self.btn_kong = QPushButton()
        self.btn_win = QPushButton()
        self.btn_edit = QPushButton()
        self.btn_up = QPushButton()
        self.btn_down = QPushButton()
        self.btn_delete = QPushButton()
        for name, b in (("add_kong", self.btn_kong), ("add_win", self.btn_win),
                        ("edit_event", self.btn_edit), ("move_up", self.btn_up),
                        ("move_down", self.btn_down), ("delete_event", self.btn_delete)):
            b.setObjectName(name)
            b.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.btn_kong.clicked.connect(self.add_kong)
        self.btn_win.clicked.connect(self.add_win)
        self.btn_edit.clicked.connect(self.edit_event)
        self.btn_up.clicked.connect(lambda: self.move_event(-1))
        self.btn_down.clicked.connect(lambda: self.move_event(1))
        self.btn_delete.clicked.connect(self.delete_event)
        self.wall = QCheckBox()
        self.wall.setObjectName("wall_exhausted")
        self.wall.toggled.connect(self._wall_toggled)
        #: the events typed as one line (``k S 9s; w N 7p W; w E 1m; x``), added on Enter
        self.events_line = FormLineEdit()
        self.events_line.setObjectName("events_line")
        self.events_line.returnPressed.connect(self.apply_events_line)
        self.lbl_line = QLabel()
        self.lbl_line.setBuddy(self.events_line)
        self.line_message = QLabel()
        self.line_message.setObjectName("events_line_message")
        self.line_message.setStyleSheet("color: #b3261e")
        self.line_message.setVisible(False)
        self.btn_save = QPushButton()
        self.btn_save.setObjectName("save_button")
        self.btn_save.clicked.connect(self.save_requested)
        # two columns of buttons: the form's height goes to the seats' messages at 800 px
        buttons = QGridLayout()
        for i, b in enumerate((self.btn_kong, self.btn_win, self.btn_edit, self.btn_delete,
                               self.btn_up, self.btn_down)):
            buttons.addWidget(b, i // 2, i % 2)
        buttons.setRowStretch(3, 1)
        ev_lay = QHBoxLayout()
        ev_lay.addWidget(self.events, 1)
        ev_lay.addLayout(buttons)
        line_row = QHBoxLayout()
        line_row.addWidget(self.lbl_line)
        line_row.addWidget(self.events_line, 1)
        bottom = QHBoxLayout()
        bottom.addWidget(self.wall)
        bottom.addStretch(1)
        bottom.addWidget(self.btn_save)
        ev_box_lay = QVBoxLayout(self.events_box)
        ev_box_lay.addLayout(line_row)
        ev_box_lay.addWidget(self.line_message)
        ev_box_lay.addLayout(ev_lay)
        ev_box_lay.addLayout(bottom)

        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.addLayout(head)
        left_lay.addWidget(self.impact)
        left_lay.addLayout(self.seat_grid)
        left_lay.addWidget(self.events_box, 1)

        self.preview = PreviewPanel()
        self.preview.problem_activated.connect(self._focus_problem)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.preview)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(split)

        for seq, fn in (("Ctrl+Up", lambda: self.move_event(-1)),
                        ("Ctrl+Down", lambda: self.move_event(1))):
            sc = QShortcut(QKeySequence(seq), self.events)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
            sc.activated.connect(fn)
        for i in range(4):  # Alt+1..Alt+4: jump to a seat's tile field
            sc = QShortcut(QKeySequence(f"Alt+{i + 1}"), self)
            sc.activated.connect(lambda i=i: self.focus_seat(i))
        sc = QShortcut(QKeySequence(QKeySequence.StandardKey.Delete), self.events)
        sc.setContext(Qt.ShortcutContext.WidgetShortcut)
        sc.activated.connect(self.delete_event)
        LANG.changed.connect(self.retranslate)
        self.load(self.form, title="")
        self.retranslate()  # the texts once; a language change sends them again

    # ------------------------------------------------------------------ texts

    def retranslate(self, *_args: object) -> None:
        self.lbl_dealer.setText(tr("Dealer") + ":")
        self.events_box.setTitle(tr("Events"))
        self.btn_kong.setText(tr("Add kong"))
        self.btn_win.setText(tr("Add win"))
        self.btn_edit.setText(tr("Edit"))
        self.btn_up.setText(tr("Move up"))
        self.btn_down.setText(tr("Move down"))
        self.btn_delete.setText(tr("Delete"))
        self.wall.setText(tr("Wall exhausted"))
        self.lbl_line.setText(tr("Type events"))
        self.events_line.setPlaceholderText(tr("events_line_hint"))
        self.btn_save.setText(tr("Save hand") + " (Ctrl+S)")
        for p in self.panels.values():
            p.retranslate()
        self._fill_dealer_combo()
        self._fill_events()
        self.preview.retranslate()

    # ------------------------------------------------------------------ loading

    def load(self, form: EntryForm, title: str, status: str = "") -> None:
        """Show a form (a new hand or a stored one); clears undo history."""
        seats = form.seat_labels
        if tuple(self.panels) != seats:
            self._build_panels(seats)
        self.header.setText(title)
        self.status.setText(status)
        self.undo_stack.clear()
        for p in self.panels.values():
            p.reset()
        self._apply(copy.deepcopy(form))
        self.undo_stack.setClean()

    def _build_panels(self, seats: tuple[str, ...]) -> None:
        for p in self.panels.values():
            self.seat_grid.removeWidget(p)
            p.deleteLater()
        self.panels = {}
        cols = 2 if len(seats) == 4 else len(seats)
        for i, s in enumerate(seats):
            p = SeatPanel(s)
            p.edited.connect(self._seat_edited)
            self.panels[s] = p
            self.seat_grid.addWidget(p, i // cols, i % cols)
        for c in range(cols):  # equal columns, whatever each panel shows
            self.seat_grid.setColumnStretch(c, 1)
        self.preview.set_seats(seats)
        self._tab_order()

    def _tab_order(self) -> None:
        """Tab follows the screen: dealer, each seat's tiles and pongs, the events line and
        list with its buttons, wall exhausted, save. Enter in a seat's field goes on to the
        next seat's tiles (pongs are reached with Tab), after the last to the events line."""
        chain: list[QWidget] = [self.dealer]
        panels = list(self.panels.values())
        for p in panels:
            chain += [p.concealed, p.pongs]
        chain += [self.events_line, self.events, self.btn_kong, self.btn_win, self.btn_edit,
                  self.btn_delete, self.btn_up, self.btn_down, self.wall, self.btn_save]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
        for i, p in enumerate(panels):
            nxt = panels[i + 1].concealed if i + 1 < len(panels) else self.events_line
            for w in (p.concealed, p.pongs):
                w.returnPressed.connect(lambda nxt=nxt: self._enter_to(nxt))

    @staticmethod
    def _enter_to(w: FormLineEdit) -> None:
        w.setFocus()
        w.selectAll()

    def set_void(self, void: bool) -> None:
        """A void hand counts nothing: its status in red, its totals greyed."""
        self.status.setStyleSheet("color: #b3261e; font-weight: bold" if void else "")
        self.preview.set_void(void)

    def players(self) -> dict[str, str | None]:
        return {s: inp.player for s, inp in self.form.seats.items()}

    def _fill_dealer_combo(self) -> None:
        self.dealer.blockSignals(True)
        self.dealer.clear()
        for s in self.form.seat_labels:
            p = self.form.seats[s].player
            self.dealer.addItem(f"{seat_name(s)} {p}" if p else seat_name(s), s)
        self.dealer.setCurrentIndex(max(0, self.dealer.findData(self.form.dealer)))
        self.dealer.blockSignals(False)

    def _event_text(self, i: int, e: dict[str, Any]) -> str:
        def name(s: Any) -> str:
            return seat_name(s) if isinstance(s, str) else str(s)

        tile = str(e.get("tile", "?"))
        if e.get("type") == "kong":
            kind = tr(f"kind_{e.get('kind')}")
            key = "ev_kong_from" if e.get("from") else "ev_kong"
            text = tr(key, seat=name(e.get("seat")), tile=tile, kind=kind, frm=name(e.get("from")))
        else:
            seats = "+".join(name(s) for s in e.get("seats") or [])
            key = "ev_win_from" if e.get("from") else "ev_win_self"
            text = tr(key, seats=seats or "?", tile=tile, frm=name(e.get("from")))
            flags = [tr(f"flag_{f}") for f in e.get("flags") or []]
            if flags:
                text += "  [" + ", ".join(flags) + "]"
            if e.get("passed_fan") is not None:
                text += f"  ({tr('Passed fan')} {e['passed_fan']})"
        return f"{i + 1}. {text}"

    def _fill_events(self) -> None:
        row = self.events.currentRow()
        self.events.clear()
        for i, e in enumerate(self.form.events):
            it = QListWidgetItem(self._event_text(i, e))
            self.events.addItem(it)
        if self.form.events:
            self.events.setCurrentRow(min(max(row, 0), len(self.form.events) - 1))
        self._mark_events()

    def _mark_events(self) -> None:
        """Events named by a problem: bold on a yellow ground (a red frame marks seats)."""
        bad = self.evaluation.events_with_problems() if self.evaluation is not None else set()
        for i in range(self.events.count()):
            it = self.events.item(i)
            it.setBackground(brush(WARN_BG if i in bad else "transparent"))
            it.setForeground(brush(RED if i in bad else "#000000"))
            f = QFont(it.font())
            f.setBold(i in bad)
            it.setFont(f)
            it.setText(("⚠ " if i in bad else "") + self._event_text(i, self.form.events[i]))

    # ------------------------------------------------------------------ applying state

    def _apply(self, form: EntryForm) -> None:
        """Make the widgets show ``form`` (used by undo/redo and loading), then re-evaluate."""
        self._applying = True
        try:
            self.form = form
            for s, p in self.panels.items():
                inp = form.seats[s]
                p.set_identity(inp.player, s == form.dealer)
                p.set_texts(inp.concealed, inp.pongs)
                p.set_kongs(self._kong_tiles(s))
            self._fill_dealer_combo()
            self.wall.setChecked(form.wall_exhausted)
            self._fill_events()
        finally:
            self._applying = False
        self.refresh()

    def _kong_tiles(self, seat: str) -> tuple[Any, ...]:
        out = []
        for e in self.form.events:
            if e.get("type") == "kong" and e.get("seat") == seat:
                tiles = tiles_or_none(str(e.get("tile", "")))
                if tiles and len(tiles) == 1:
                    out.append(tiles[0])
        return tuple(out)

    def _push(self, before: EntryForm, text: str, merge_key: str | None = None) -> None:
        self.undo_stack.push(FormCommand(self._apply, before, self.form, text, merge_key))

    def refresh(self) -> Evaluation:
        """Ask the engine about the form and show its answer (problems, wins, totals)."""
        ev = self.form.evaluate()
        self.evaluation = ev
        by_seat: dict[str, list[str]] = {s: [] for s in self.panels}
        for p in ev.problems:
            if p.seat in by_seat:
                clause, message = shown_problem(p)
                by_seat[p.seat].append(f"{clause}: {message}" if clause else message)
        for s, panel in self.panels.items():
            panel.set_problems(by_seat[s])
        self._mark_events()
        shown, stale = self._stand_in(ev)
        self.preview.show_evaluation(shown, self.players(), stale, ev.problems)
        self.evaluated.emit(ev)
        return ev

    def _stand_in(self, ev: Evaluation) -> tuple[Evaluation, set[str]]:
        """While a seat's field cannot be read, settle the hand with that field's last good
        text instead, so the preview keeps the wins, payments and totals; the seats whose
        tiles are stand-ins are returned (the preview greys what involves them)."""
        if ev.read_error is None or ev.blank:
            return ev, set()
        broken = {s: p.unreadable() for s, p in self.panels.items()}
        broken = {s: f for s, f in broken.items() if f}
        if not broken:
            return ev, set()
        form = copy.deepcopy(self.form)
        for s, fields in broken.items():
            for name in fields:
                setattr(form.seats[s], name, self.panels[s].last_good_text[name])
        alt = form.evaluate()
        if alt.read_error is not None or alt.settlement is None:
            return ev, set()
        return alt, set(broken)

    # ------------------------------------------------------------------ edits

    def _seat_edited(self, seat: str, field: str, text: str) -> None:
        if self._applying:
            return
        before = copy.deepcopy(self.form)
        setattr(self.form.seats[seat], field, text)
        self._push(before, f"{seat} {field}", merge_key=f"{seat}.{field}")

    def _dealer_changed(self, _index: int) -> None:
        seat = self.dealer.currentData()
        if self._applying or seat == self.form.dealer:
            return
        before = copy.deepcopy(self.form)
        self.form.dealer = seat
        self._push(before, f"dealer {seat}")

    def _wall_toggled(self, on: bool) -> None:
        if self._applying or on == self.form.wall_exhausted:
            return
        before = copy.deepcopy(self.form)
        self.form.wall_exhausted = on
        self._push(before, "wall exhausted")

    def set_events(self, events: list[dict[str, Any]], text: str, select: int | None = None) -> None:
        before = copy.deepcopy(self.form)
        self.form.events = copy.deepcopy(events)
        self._push(before, text)
        if select is not None and 0 <= select < self.events.count():
            self.events.setCurrentRow(select)

    def _run_event_dialog(self, event: dict[str, Any]) -> dict[str, Any] | None:
        from .event_dialog import EventDialog

        dlg = EventDialog(self.form.rules_obj, event, self, self.players())
        accepted = self.exec_dialog(dlg)
        result = dlg.result_event() if accepted else None
        dlg.deleteLater()
        return result

    def apply_events_line(self) -> bool:
        """Enter in the events line: its events are added after the listed ones (``x``
        ticks wall exhausted); an unreadable part is named and nothing changes."""
        text = self.events_line.text()
        if not text.strip():
            return True
        try:
            got = parse_event_line(text)
        except EventLineError as e:
            self.line_message.setText(tr(e.msg_id, part=e.part, text=e.text))
            self.line_message.setVisible(True)
            return False
        self.line_message.setVisible(False)
        before = copy.deepcopy(self.form)
        self.form.events = self.form.events + got.events
        self.form.wall_exhausted = self.form.wall_exhausted or got.wall_exhausted
        self._push(before, "type events")
        self.events_line.clear()
        if self.form.events:
            self.events.setCurrentRow(len(self.form.events) - 1)
        return True

    def add_kong(self) -> None:
        seat = self.form.seat_labels[0]
        got = self._run_event_dialog({"type": "kong", "seat": seat, "kind": "concealed",
                                      "tile": ""})
        if got is not None:
            self.set_events(self.form.events + [got], "add kong", select=len(self.form.events))

    def add_win(self) -> None:
        got = self._run_event_dialog({"type": "win", "seats": [], "tile": ""})
        if got is not None:
            self.set_events(self.form.events + [got], "add win", select=len(self.form.events))

    def edit_event(self) -> None:
        i = self.events.currentRow()
        if not 0 <= i < len(self.form.events):
            return
        got = self._run_event_dialog(self.form.events[i])
        if got is not None and got != self.form.events[i]:
            events = list(self.form.events)
            events[i] = got
            self.set_events(events, "edit event", select=i)

    def move_event(self, delta: int) -> None:
        i = self.events.currentRow()
        j = i + delta
        if not (0 <= i < len(self.form.events) and 0 <= j < len(self.form.events)):
            return
        events = list(self.form.events)
        events[i], events[j] = events[j], events[i]
        self.set_events(events, "move event", select=j)
        self.events.setCurrentRow(j)

    def delete_event(self) -> None:
        i = self.events.currentRow()
        if not 0 <= i < len(self.form.events):
            return
        events = list(self.form.events)
        del events[i]
        self.set_events(events, "delete event", select=min(i, len(events) - 1))

    def first_field(self) -> QWidget | None:
        """Where typing a hand starts: the first seat's tiles."""
        first = next(iter(self.panels.values()), None)
        return None if first is None else first.concealed

    def clear_line(self) -> None:
        """Another hand: the events line and its message start empty."""
        self.events_line.clear()
        self.line_message.clear()
        self.line_message.setVisible(False)

    def focus_seat(self, index: int) -> None:
        panels = list(self.panels.values())
        if 0 <= index < len(panels):
            panels[index].concealed.setFocus()
            panels[index].concealed.selectAll()

    def _focus_problem(self, p: Any) -> None:
        if p is None:
            return
        if getattr(p, "event", None) is not None and p.event < self.events.count():
            self.events.setCurrentRow(p.event)
            self.events.setFocus()
        elif getattr(p, "seat", None) in self.panels:
            self.panels[p.seat].concealed.setFocus()
