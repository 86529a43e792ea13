"""History of a hand (versions and the change in totals) and the penalties dialog."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_app.core import Ruleset, Settlement
from referee_app.core.settle import as_stored

from ..i18n import seat_name, tr
from ..messages import exception_text
from .colours import LIGHT_GREY, brush
from .keyboard import leave_on_tab, submit_on_ctrl_enter, with_mnemonic
from .record_log import RecordLogTable
from .trace import TraceView
from .wraplist import WrappedRows


def short_time(iso: str) -> str:
    """``2009-01-03T10:15:00.000000+00:00`` -> ``2009-01-03 10:15`` (minutes are enough)."""
    return iso[:16].replace("T", " ") if len(iso) >= 16 else iso


def _diff_text(diff: dict[str, int]) -> str:
    parts = [f"{seat_name(s)} {v:+d}" for s, v in diff.items() if v]
    return ", ".join(parts) if parts else "±0"


class HistoryDialog(QDialog):
    """Every stored version of one hand, oldest first, with its change in totals and trace;
    below, the record's chain entries that wrote the hand (``referee-app log --hand ID``)."""

    def __init__(self, title: str, versions: Sequence[Any], ruleset: Any,
                 parent: QWidget | None = None,
                 entries: Sequence[Mapping[str, Any]] = ()) -> None:
        super().__init__(parent)
        self.setWindowTitle(f"{tr('History')} · {title}")
        self.resize(1100, 700)
        self.versions = list(versions)
        self.table = QTableWidget(len(self.versions), 7)
        self.table.setObjectName("history_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setHorizontalHeaderLabels([tr("Version"), tr("Status"), tr("When"),
                                              tr("Referee"), tr("Reason"), tr("Totals"),
                                              tr("Change")])
        for r, v in enumerate(self.versions):
            reason = v.reason or ""
            if v.override_reason:
                reason = (reason + "; " if reason else "") + f"⚠ {v.override_reason}"
            totals = ", ".join(f"{seat_name(s)} {c:+d}" for s, c in v.totals.items())
            cells = [f"v{v.version} {tr(f'action_{v.action.value}')}", tr(f"status_{v.status.value}"),
                     short_time(v.at),
                     v.referee, reason, totals, _diff_text(v.diff) if r else ""]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)  # long reasons are cut in the cell
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.rows = WrappedRows(self.table)  # a long reason wraps, never "…"
        self.rows.fit()
        versions_box = QGroupBox(with_mnemonic(tr("Versions"), "V"))  # Alt+V: to the versions
        versions_lay = QVBoxLayout(versions_box)
        versions_lay.setContentsMargins(4, 4, 4, 4)
        versions_lay.addWidget(self.table)
        self.trace = TraceView()
        self.trace.whatif.setVisible(False)  # a stored version is read, not re-ruled
        self._ruleset = ruleset
        self.table.itemSelectionChanged.connect(self._selected)
        self.log = RecordLogTable()
        self.log.set_entries(entries)
        log_box = QGroupBox(with_mnemonic(tr("record_entries"), "E"))
        log_lay = QVBoxLayout(log_box)
        log_lay.setContentsMargins(4, 4, 4, 4)
        log_lay.addWidget(self.log)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(versions_box)
        split.addWidget(log_box)
        split.addWidget(self.trace)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setStretchFactor(2, 3)
        self.table.setMinimumHeight(70)
        self.log.setMinimumHeight(70)
        # room for a few versions (a long reason wraps) and entries; the trace, the rest
        split.setSizes([150, 110, 560])
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(tr("Close"))
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(split, 1)
        lay.addWidget(buttons)
        leave_on_tab(self)
        # Tab: versions → record entries → wins → payments → trace lines → clause → Close
        chain = [self.table, self.log, self.trace.wins, self.trace.payments, self.trace.lines,
                 self.trace.clause, buttons.button(QDialogButtonBox.StandardButton.Close)]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
        if self.versions:
            self.table.selectRow(len(self.versions) - 1)
        self.table.setFocus()

    def _selected(self) -> None:
        items = self.table.selectedItems()
        if items:
            v = self.versions[items[0].row()]
            self.trace.show_settlement(v.settlement, self._ruleset, f"v{v.version}",
                                       self._as_data(v.record, v.settlement))

    def _as_data(self, record: dict[str, Any], stored: dict[str, Any]) -> Settlement | None:
        """The version's settlement as values when today's engine writes it the same (its
        steps then show in the desk's language), else None (shown as stored)."""
        rules = self._ruleset if isinstance(self._ruleset, Ruleset) else None
        return as_stored(stored, record, rules)


class PenaltiesDialog(QDialog):
    """List every penalty and record a new one (a deduction, or paid to the tablemates).

    ``add`` and ``void`` are the desk's storage calls; their errors are shown in the dialog
    and nothing is recorded.
    """

    def __init__(self, players: Sequence[str], rounds: Sequence[int],
                 fetch: Callable[[], Sequence[Any]], add: Callable[..., Any],
                 parent: QWidget | None = None, in_play: int | None = None, *,
                 placement: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Penalties"))
        self.resize(900, 600)
        self._fetch, self._add = fetch, add
        self.table = QTableWidget(0, 7)
        self.table.setObjectName("penalties_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setHorizontalHeaderLabels(["#", tr("Player"), tr("Penalty_amount"),
                                              tr("Reason"), tr("Clause"), tr("Round"),
                                              tr("Referee")])
        table_box = QGroupBox(with_mnemonic(tr("pen_recorded"), "T"))  # Alt+T: the list
        QVBoxLayout(table_box).addWidget(self.table)
        box = QGroupBox(tr("Add penalty"))
        form = QFormLayout(box)
        self.players = QListWidget()
        self.players.setObjectName("penalty_players")
        self.players.setSelectionMode(QAbstractItemView.SelectionMode.MultiSelection)
        self.players.setMaximumHeight(110)
        for p in players:
            self.players.addItem(QListWidgetItem(p))
        self.chips = QSpinBox()
        self.chips.setObjectName("penalty_chips")
        self.chips.setRange(-999, 999)
        self.chips.setValue(8)
        #: in chips or, under placement scoring, in placement points (比赛分)
        self.unit = QComboBox()
        self.unit.setObjectName("penalty_unit")
        self.unit.addItem(tr("Chips"), "chips")
        if placement:
            self.unit.addItem(tr("Points"), "points")
        self.unit.setEnabled(placement)
        self.unit.currentIndexChanged.connect(self._unit_changed)
        self.reason = QLineEdit()
        self.reason.setObjectName("penalty_reason")
        self.clause = QLineEdit()
        self.clause.setObjectName("penalty_clause")
        self.clause.setPlaceholderText("§2.2")
        self.round = QComboBox()
        self.round.setObjectName("penalty_round")
        for r in rounds:  # a penalty counts in a round: the round in play unless chosen
            self.round.addItem(tr("round_n", n=r) + (f" · {tr('round_in_play')}"
                                                     if r == in_play else ""), r)
        self.round.setCurrentIndex(max(0, self.round.findData(in_play)))
        self.zero_sum = QCheckBox(tr("Zero-sum"))
        self.zero_sum.setObjectName("penalty_zero_sum")
        self.message = QLabel()
        self.message.setObjectName("penalty_message")
        self.message.setWordWrap(True)
        amount = QHBoxLayout()
        amount.addWidget(self.chips)
        amount.addWidget(self.unit)
        amount.addStretch(1)
        # each field has its Alt+letter (the same in both languages); the labels' buddies
        for key, letter, field in (("Player", "P", self.players),
                                   ("Penalty_amount", "M", self.chips),
                                   ("Reason", "R", self.reason), ("Clause", "L", self.clause),
                                   ("Round", "O", self.round)):
            label = QLabel(with_mnemonic(tr(key), letter))
            label.setBuddy(field)
            form.addRow(label, amount if field is self.chips else field)
        self.zero_sum.setText(with_mnemonic(tr("Zero-sum"), "Z"))
        form.addRow("", self.zero_sum)
        self.keys = QLabel(tr("pen_keys"))
        self.keys.setObjectName("penalty_keys")
        self.keys.setWordWrap(True)
        self.keys.setStyleSheet("color: #666666")
        form.addRow("", self.keys)
        form.addRow("", self.message)
        buttons = QDialogButtonBox()
        self.btn_add = buttons.addButton(with_mnemonic(tr("Add penalty"), "A"),
                                         QDialogButtonBox.ButtonRole.ActionRole)
        self.btn_add.setObjectName("penalty_add")
        close = buttons.addButton(tr("Close"), QDialogButtonBox.ButtonRole.RejectRole)
        close.clicked.connect(self.reject)
        self.btn_add.clicked.connect(self.submit)
        for b in (self.btn_add, close):  # Enter in a field adds nothing: Ctrl+Enter or Alt+A
            b.setAutoDefault(False)
        submit_on_ctrl_enter(self, self.submit)
        lay = QVBoxLayout(self)
        lay.addWidget(table_box, 1)
        lay.addWidget(box)
        lay.addWidget(buttons)
        self.refresh()
        leave_on_tab(self)
        # the form first (a penalty is what the dialog is opened for), the list last
        chain = [self.players, self.chips, self.reason, self.clause, self.round,
                 self.zero_sum, self.btn_add, close, self.table]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
        self.players.setFocus()

    def refresh(self) -> None:
        rows = list(self._fetch())
        self.table.setRowCount(len(rows))
        for r, p in enumerate(rows):
            who = ", ".join(f"{n} {c:+d}" for n, c in p.entries.items()) or ", ".join(p.players)
            amount = tr("n_points", n=p.chips) if p.unit == "points" else \
                tr("n_chips", n=p.chips)
            cells = [str(p.id), who, amount, p.reason + (f" (void: {p.void_reason})"
                                                               if p.void else ""),
                     p.clause or "", "" if p.round is None else str(p.round), p.referee]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if p.void:
                    item.setForeground(brush(LIGHT_GREY))
                self.table.setItem(r, c, item)
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)

    def _unit_changed(self, *_args: object) -> None:
        """A penalty in points is a deduction: zero-sum is for chips."""
        points = self.unit.currentData() == "points"
        if points:
            self.zero_sum.setChecked(False)
        self.zero_sum.setEnabled(not points)

    def submit(self) -> bool:
        """Record the penalty typed in the form; show the store's error if it refuses."""
        players = [it.text() for it in self.players.selectedItems()]
        try:
            p = self._add(players, self.chips.value(), self.reason.text(),
                          clause=self.clause.text().strip() or None,
                          zero_sum=self.zero_sum.isChecked(),
                          round_no=self.round.currentData() or None,
                          unit=self.unit.currentData() or "chips")
        except ValueError as e:
            self.message.setStyleSheet("color: #b3261e")
            self.message.setText(exception_text(e))
            return False
        self.message.setStyleSheet("color: #1b7a3a")
        self.message.setText(f"✔ {tr('penalty_counted', n=p.round)}"
                             if getattr(p, "round", None) else "✔")
        self.reason.clear()
        self.refresh()
        return True
