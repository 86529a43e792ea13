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

from referee_app.core import HandRecord, Ruleset, Settlement
from referee_app.core.settle import as_stored

from ..faults import shown_error
from ..i18n import seat_name, tr
from .colours import LIGHT_GREY, brush
from .record_log import RecordLogTable
from .trace import TraceView


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
        self.trace = TraceView()
        self._ruleset = ruleset
        self.table.itemSelectionChanged.connect(self._selected)
        self.log = RecordLogTable()
        self.log.set_entries(entries)
        self.log.setMinimumHeight(120)
        log_box = QGroupBox(tr("record_entries"))
        log_lay = QVBoxLayout(log_box)
        log_lay.setContentsMargins(4, 4, 4, 4)
        log_lay.addWidget(self.log)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(log_box)
        split.addWidget(self.trace)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setStretchFactor(2, 3)
        self.table.setMinimumHeight(90)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.button(QDialogButtonBox.StandardButton.Close).setText(tr("Close"))
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addWidget(split, 1)
        lay.addWidget(buttons)
        if self.versions:
            self.table.selectRow(len(self.versions) - 1)

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
        try:
            return as_stored(stored, HandRecord.from_dict(record, rules), rules)
        except ValueError:
            return None


class PenaltiesDialog(QDialog):
    """List every penalty and record a new one (a deduction, or paid to the tablemates).

    ``add`` and ``void`` are the desk's storage calls; their errors are shown in the dialog
    and nothing is recorded.
    """

    def __init__(self, players: Sequence[str], rounds: Sequence[int],
                 fetch: Callable[[], Sequence[Any]], add: Callable[..., Any],
                 parent: QWidget | None = None, *, placement: bool = False) -> None:
        super().__init__(parent)
        self.setWindowTitle(tr("Penalties"))
        self.resize(900, 600)
        self._fetch, self._add = fetch, add
        self.table = QTableWidget(0, 7)
        self.table.setObjectName("penalties_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setHorizontalHeaderLabels(["#", tr("Player"), tr("Penalty_amount"),
                                              tr("Reason"), tr("Clause"), tr("Round"),
                                              tr("Referee")])
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
        self.round.addItem("—", 0)
        for r in rounds:
            self.round.addItem(tr("round_n", n=r), r)
        self.zero_sum = QCheckBox(tr("Zero-sum"))
        self.zero_sum.setObjectName("penalty_zero_sum")
        self.message = QLabel()
        self.message.setObjectName("penalty_message")
        self.message.setWordWrap(True)
        form.addRow(tr("Player"), self.players)
        amount = QHBoxLayout()
        amount.addWidget(self.chips)
        amount.addWidget(self.unit)
        amount.addStretch(1)
        form.addRow(tr("Penalty_amount"), amount)
        form.addRow(tr("Reason"), self.reason)
        form.addRow(tr("Clause"), self.clause)
        form.addRow(tr("Round"), self.round)
        form.addRow("", self.zero_sum)
        form.addRow("", self.message)
        buttons = QDialogButtonBox()
        self.btn_add = buttons.addButton(tr("Add penalty"), QDialogButtonBox.ButtonRole.ActionRole)
        self.btn_add.setObjectName("penalty_add")
        close = buttons.addButton(tr("Close"), QDialogButtonBox.ButtonRole.RejectRole)
        close.clicked.connect(self.reject)
        self.btn_add.clicked.connect(self.submit)
        lay = QVBoxLayout(self)
        lay.addWidget(self.table, 1)
        lay.addWidget(box)
        lay.addWidget(buttons)
        self.refresh()

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
            self._add(players, self.chips.value(), self.reason.text(),
                      clause=self.clause.text().strip() or None,
                      zero_sum=self.zero_sum.isChecked(), round_no=self.round.currentData() or None,
                      unit=self.unit.currentData() or "chips")
        except ValueError as e:
            self.message.setStyleSheet("color: #b3261e")
            self.message.setText(shown_error(e))
            return False
        self.message.setStyleSheet("color: #1b7a3a")
        self.message.setText("✔")
        self.reason.clear()
        self.refresh()
        return True
