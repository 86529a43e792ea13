"""Hand entry, keyboard first: seat panels, the ordered event list and a live preview.

Every change goes through :class:`~referee_app.gui.controllers.undo.FormCommand` onto the
form's QUndoStack, then the form is re-evaluated by the engine and the preview redrawn
(well under the 50 ms budget: reading + settling a record takes about a millisecond).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence, QShortcut, QUndoStack
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_app.core import TileParseError, get_ruleset, parse_tiles

from ..controllers.entry import EntryForm, Evaluation
from ..controllers.undo import FormCommand
from ..i18n import LANG, bonus_name, both, reason_text, seat_name, tr
from .colours import GREEN, RED, WARN_BG, brush
from .tiles import TileGroup, TileStrip
from .wraplist import WrapList

PROBLEM_STYLE = "QGroupBox { border: 2px solid #b3261e; border-radius: 6px; margin-top: 1.2em; }" \
    " QGroupBox::title { subcontrol-origin: margin; left: 8px; color: #b3261e; }"
NORMAL_STYLE = "QGroupBox { border: 1px solid #b9b2a0; border-radius: 6px; margin-top: 1.2em; }" \
    " QGroupBox::title { subcontrol-origin: margin; left: 8px; }"


_FORM_KEYS = {QKeySequence("Ctrl+Z"), QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")}


class FormLineEdit(QLineEdit):
    """A line edit that leaves undo/redo keys to the form's undo stack (one history for
    the whole form, not one per field)."""

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ShortcutOverride and (
                e.matches(QKeySequence.StandardKey.Undo) or e.matches(QKeySequence.StandardKey.Redo)
                or QKeySequence(e.keyCombination()) in _FORM_KEYS):
            e.ignore()
            return True
        return super().event(e)


def _tiles_or_none(text: str) -> tuple[Any, ...] | None:
    try:
        return parse_tiles(text)
    except TileParseError:
        return None


class SeatPanel(QGroupBox):
    """One seat: concealed tiles and pongs typed in notation, drawn as tiles as typed."""

    edited = Signal(str, str, str)  # seat, field ("concealed" | "pongs"), new text

    def __init__(self, seat: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName(f"seat_{seat}")
        self.player: str | None = None
        self.dealer = False
        self.kongs: tuple[Any, ...] = ()
        self.has_problem = False
        self.concealed = FormLineEdit()
        self.concealed.setObjectName(f"concealed_{seat}")
        self.pongs = FormLineEdit()
        self.pongs.setObjectName(f"pongs_{seat}")
        self.tiles = TileStrip(36)
        self.message = QLabel()
        self.message.setObjectName(f"seat_message_{seat}")
        self.message.setStyleSheet("color: #b3261e")
        self.message.setWordWrap(True)
        self.lbl_concealed = QLabel()
        self.lbl_pongs = QLabel()
        self.lbl_concealed.setBuddy(self.concealed)
        self.lbl_pongs.setBuddy(self.pongs)
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 14, 8, 6)
        grid.setVerticalSpacing(4)
        grid.addWidget(self.lbl_concealed, 0, 0)
        grid.addWidget(self.concealed, 0, 1)
        grid.addWidget(self.lbl_pongs, 1, 0)
        grid.addWidget(self.pongs, 1, 1)
        grid.addWidget(self.tiles, 2, 0, 1, 2)
        grid.addWidget(self.message, 3, 0, 1, 2)
        grid.setColumnStretch(1, 1)
        self.concealed.textEdited.connect(lambda t: self.edited.emit(self.seat, "concealed", t))
        self.pongs.textEdited.connect(lambda t: self.edited.emit(self.seat, "pongs", t))
        self.concealed.textChanged.connect(self._redraw)
        self.pongs.textChanged.connect(self._redraw)
        self.setStyleSheet(NORMAL_STYLE)
        self.message.setVisible(False)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_concealed.setText(tr("Concealed"))
        self.lbl_pongs.setText(tr("Pongs"))
        self.concealed.setPlaceholderText(tr("concealed_hint"))
        self.pongs.setPlaceholderText(tr("pongs_hint"))
        self._title()

    def _title(self) -> None:
        parts = [seat_name(self.seat)]
        if self.player:
            parts.append(self.player)
        title = " · ".join(parts)
        if self.dealer:
            title += f"  【{tr('dealer_mark')}】"
        self.setTitle(title)

    def set_identity(self, player: str | None, dealer: bool) -> None:
        self.player, self.dealer = player, dealer
        self._title()

    def set_texts(self, concealed: str, pongs: str) -> None:
        """Show the form's text without echoing it back as an edit (keeps the cursor)."""
        for edit, text in ((self.concealed, concealed), (self.pongs, pongs)):
            if edit.text() != text:
                pos = edit.cursorPosition()
                edit.setText(text)
                edit.setCursorPosition(min(pos, len(text)))

    def set_problems(self, messages: list[str]) -> None:
        bad = bool(messages)
        if bad != self.has_problem:  # restyling is slow: only when the state flips
            self.has_problem = bad
            self.setStyleSheet(PROBLEM_STYLE if bad else NORMAL_STYLE)
            self.message.setVisible(bad)
        text = "\n".join(messages)
        if self.message.text() != text:
            self.message.setText(text)

    def set_kongs(self, tiles: tuple[Any, ...]) -> None:
        """Kongs come from the event list; they are drawn as exposed groups of four."""
        if tiles != self.kongs:
            self.kongs = tiles
            self._redraw()

    def _redraw(self) -> None:
        concealed = _tiles_or_none(self.concealed.text()) or ()
        pongs = _tiles_or_none(self.pongs.text()) or ()
        self.tiles.set_groups([TileGroup(tuple(concealed))]
                              + [TileGroup((t, t, t), exposed=True) for t in pongs]
                              + [TileGroup((t, t, t, t), exposed=True) for t in self.kongs])


class PreviewPanel(QWidget):
    """Problems (each with its clause), wins, payments and totals of the form as it stands."""

    problem_activated = Signal(object)  # Problem

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.validation_box = QGroupBox()
        self.problems = WrapList()
        self.problems.setObjectName("problems")
        self.problems.itemActivated.connect(self._problem_activated)
        v = QVBoxLayout(self.validation_box)
        v.addWidget(self.problems)

        self.settle_box = QGroupBox()
        self.wins = QTableWidget(0, 5)
        self.wins.setObjectName("wins")
        self.payments = QTableWidget(0, 5)
        self.payments.setObjectName("payments")
        for t in (self.wins, self.payments):
            t.verticalHeader().setVisible(False)
            t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            t.verticalHeader().setDefaultSectionSize(22)
        self.wins.setMaximumHeight(120)
        self.wins.setWordWrap(True)
        for table, stretch in ((self.wins, 2), (self.payments, 4)):
            header = table.horizontalHeader()
            for c in range(table.columnCount()):
                header.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch if c == stretch
                                            else QHeaderView.ResizeMode.ResizeToContents)
        self.totals_row = QHBoxLayout()
        self.total_labels: dict[str, QLabel] = {}
        self.lbl_wins, self.lbl_payments, self.lbl_totals = QLabel(), QLabel(), QLabel()
        for lbl in (self.lbl_wins, self.lbl_payments, self.lbl_totals):
            f = lbl.font()
            f.setBold(True)
            lbl.setFont(f)
        s = QVBoxLayout(self.settle_box)
        s.addWidget(self.lbl_wins)
        s.addWidget(self.wins)
        s.addWidget(self.lbl_payments)
        s.addWidget(self.payments, 1)
        s.addWidget(self.lbl_totals)
        s.addLayout(self.totals_row)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.validation_box)
        lay.addWidget(self.settle_box, 1)
        self._players: dict[str, str | None] = {}
        self._last: Evaluation | None = None
        self._shown_totals = {}
        self._label_colours = {}
        self._problem_rows: list[Any] = []
        self._problem_texts: list[str] = []
        self.retranslate()

    def _problem_activated(self, item: QListWidgetItem) -> None:
        row = self.problems.row(item)
        if 0 <= row < len(self._problem_rows):
            self.problem_activated.emit(self._problem_rows[row])

    def retranslate(self, *_args: object) -> None:
        self.validation_box.setTitle(tr("Validation"))
        self.settle_box.setTitle(tr("Settlement"))
        self.lbl_wins.setText(tr("Wins"))
        self.lbl_payments.setText(tr("Payments"))
        self.lbl_totals.setText(tr("Totals"))
        self.wins.setHorizontalHeaderLabels([tr("Seat"), tr("Player"), tr("Pattern"), tr("Fan"),
                                             tr("Chips")])
        self.payments.setHorizontalHeaderLabels([tr("From"), tr("To"), tr("Chips"), tr("Clause"),
                                                 tr("Reason")])
        if self._last is not None:
            self.show_evaluation(self._last, self._players)

    def set_seats(self, seats: tuple[str, ...]) -> None:
        while self.totals_row.count():
            item = self.totals_row.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.total_labels = {}
        self._shown_totals: dict[str, int | None] = {}
        self._label_colours: dict[str, str] = {}
        for s in seats:
            lbl = QLabel()
            lbl.setObjectName(f"total_{s}")
            lbl.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lbl.setFrameShape(QFrame.Shape.StyledPanel)
            f = lbl.font()
            f.setPointSize(f.pointSize() + 3)
            f.setBold(True)
            lbl.setFont(f)
            lbl.setMinimumHeight(48)
            self.total_labels[s] = lbl
            self.totals_row.addWidget(lbl)

    def totals(self) -> dict[str, int | None]:
        """The totals as shown (None where no total is shown): what the referee reads."""
        return {s: self._shown_totals.get(s) for s in self.total_labels}

    def show_evaluation(self, ev: Evaluation, players: dict[str, str | None]) -> None:
        self._last, self._players = ev, players
        self._problem_rows = list(ev.problems)
        texts = []
        for p in ev.problems:
            where = seat_name(p.seat) if p.seat else ""
            if p.event is not None:
                where = (where + " " if where else "") + f"#{p.event + 1}"
            texts.append(f"{p.clause}  {where}: {p.message}" if where
                         else f"{p.clause}  {p.message}")
        texts = texts or [tr("no_problems")]
        if texts != self._problem_texts:  # most keystrokes leave the problems as they were
            self._problem_texts = texts
            self.problems.clear()
            colour = brush(RED if ev.problems else GREEN)
            ruleset = ev.record.ruleset if ev.record is not None else None
            for i, text in enumerate(texts):
                it = QListWidgetItem(text)
                it.setForeground(colour)
                if ruleset and i < len(ev.problems):
                    c = get_ruleset(ruleset).clause(ev.problems[i].clause)
                    title = " · ".join(x for x in (c.title_zh, c.title_en) if x)
                    if title:
                        it.setToolTip(f"{c.id} {title}")
                self.problems.addItem(it)
            self.problems.relayout()
        s = ev.settlement
        wins = s.wins if s is not None and s.ok else ()
        pays = s.payments if s is not None and s.ok else ()
        self.wins.setRowCount(len(wins))
        for r, w in enumerate(wins):
            sc = w.score
            pattern = both(sc.pattern, sc.pattern_en)
            if sc.bonuses:
                pattern += " + " + " + ".join(bonus_name(s.ruleset, b.name)
                                              for b in sc.bonuses)
            cells = [seat_name(w.seat), players.get(w.seat) or "", pattern, str(w.fan),
                     str(w.chips)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.wins.setItem(r, c, item)
        self.wins.resizeRowsToContents()
        self.payments.setRowCount(len(pays))
        for r, p in enumerate(pays):
            cells = [seat_name(p.payer), seat_name(p.payee), str(p.chips), p.clause,
                     reason_text(p.reason)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.payments.setItem(r, c, item)
        totals = s.totals if s is not None and s.ok else {}
        for seat, lbl in self.total_labels.items():
            name = players.get(seat) or ""
            val = totals.get(seat)
            self._shown_totals[seat] = val
            if val is not None:
                colour = GREEN if val > 0 else RED if val < 0 else "#444444"
                lbl.setText(f"{seat_name(seat)} {name}\n{val:+d}")
            else:
                colour = "#777777"
                lbl.setText(f"{seat_name(seat)} {name}\n—")
            if self._label_colours.get(seat) != colour:  # restyle only on a change
                self._label_colours[seat] = colour
                lbl.setStyleSheet(f"color: {colour}")


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
        buttons = QVBoxLayout()
        for b in (self.btn_kong, self.btn_win, self.btn_edit, self.btn_up, self.btn_down,
                  self.btn_delete):
            buttons.addWidget(b)
        buttons.addStretch(1)
        ev_lay = QHBoxLayout()
        ev_lay.addWidget(self.events, 1)
        ev_lay.addLayout(buttons)
        ev_box_lay = QVBoxLayout(self.events_box)
        ev_box_lay.addLayout(ev_lay)
        ev_box_lay.addWidget(self.wall)

        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.addLayout(head)
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
        for p in self.panels.values():
            p.retranslate()
        self._fill_dealer_combo()
        self._fill_events()
        self.preview.retranslate()

    # ------------------------------------------------------------------ loading

    def load(self, form: EntryForm, title: str, status: str = "") -> None:
        """Show a form (a new hand or a stored one); clears undo history."""
        seats = get_ruleset(form.ruleset).seats
        if tuple(self.panels) != seats:
            self._build_panels(seats)
        self.header.setText(title)
        self.status.setText(status)
        self.undo_stack.clear()
        self._apply(copy.deepcopy(form))
        self.undo_stack.setClean()
        self.retranslate()

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
        self.preview.set_seats(seats)
        prev: QWidget | None = None
        for p in self.panels.values():
            for w in (p.concealed, p.pongs):
                if prev is not None:
                    QWidget.setTabOrder(prev, w)
                prev = w
        if prev is not None:
            QWidget.setTabOrder(prev, self.events)

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
                tiles = _tiles_or_none(str(e.get("tile", "")))
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
                by_seat[p.seat].append(f"{p.clause}: {p.message}")
        for s, panel in self.panels.items():
            panel.set_problems(by_seat[s])
        self._mark_events()
        self.preview.show_evaluation(ev, self.players())
        self.evaluated.emit(ev)
        return ev

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

        dlg = EventDialog(self.form.ruleset, event, self, self.players())
        accepted = self.exec_dialog(dlg)
        result = dlg.result_event() if accepted else None
        dlg.deleteLater()
        return result

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
