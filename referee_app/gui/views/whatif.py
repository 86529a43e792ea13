"""What-if ruling panel (trace tab): the ruleset switches and Readings this hand touches —
the ones whose other setting would settle it differently — and, for the one ticked, the
totals as ruled beside the totals under the alternative. Nothing is saved unless the head
referee records the alternative as an override with a reason (``record_requested``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..i18n import seat_name, tr
from .colours import chips_brush
from .keyboard import with_mnemonic


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return tr("yes") if v else tr("no")
    return tr("none") if v is None else str(v)


class WhatIfPanel(QGroupBox):
    """``record_requested(WhatIf)``: the head referee wants the alternative as the ruling."""

    record_requested = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("whatif_panel")
        self.switches = QListWidget()
        self.switches.setObjectName("whatif_switches")
        self.switches.setMaximumHeight(90)
        self.switches.itemChanged.connect(self._ticked)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("whatif_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.btn_record = QPushButton()
        self.btn_record.setObjectName("whatif_record")
        self.btn_record.setEnabled(False)
        self.btn_record.clicked.connect(self._record)
        lay = QVBoxLayout(self)
        lay.addWidget(self.switches)
        row = QHBoxLayout()
        row.addWidget(self.table, 1)
        lay.addLayout(row)
        bottom = QHBoxLayout()
        bottom.addWidget(self.note, 1)
        bottom.addWidget(self.btn_record)
        lay.addLayout(bottom)
        self._options: list[Any] = []
        self._clauses: list[str] = []
        self.current: Any = None
        self.retranslate()

    def retranslate(self) -> None:
        self.setTitle(with_mnemonic(tr("What if"), "I"))  # Alt+I: to the switches
        self.btn_record.setText(with_mnemonic(tr("Record as override…"), "O"))
        self.table.setHorizontalHeaderLabels([tr("Seat"), tr("As ruled"), tr("whatif_col"),
                                              tr("whatif_change")])
        self.show_options(self._options, self._clauses)

    def show_options(self, options: Sequence[Any], clauses: Sequence[str]) -> None:
        """``options``: core WhatIf values (one per touched switch), ``clauses`` beside."""
        self._options, self._clauses = list(options), list(clauses)
        self.switches.blockSignals(True)
        self.switches.clear()
        for w, clause in zip(self._options, self._clauses, strict=True):
            text = f"{clause}  {tr(f'switch_{w.name}')}: {_value(w.current)} → {_value(w.value)}"
            it = QListWidgetItem(text.strip())
            it.setFlags(it.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            it.setCheckState(Qt.CheckState.Unchecked)
            self.switches.addItem(it)
        self.switches.blockSignals(False)
        self.note.setText(tr("whatif_none") if not self._options else tr("whatif_hint"))
        self._show(None)

    def tick(self, row: int) -> None:
        """Tick one switch (the others untick): show its alternative."""
        self.switches.item(row).setCheckState(Qt.CheckState.Checked)

    def _ticked(self, item: QListWidgetItem) -> None:
        row = self.switches.row(item)
        self.switches.blockSignals(True)
        for i in range(self.switches.count()):
            if i != row:
                self.switches.item(i).setCheckState(Qt.CheckState.Unchecked)
        self.switches.blockSignals(False)
        on = item.checkState() == Qt.CheckState.Checked
        self._show(self._options[row] if on else None)

    def _show(self, w: Any) -> None:
        self.current = w
        self.btn_record.setEnabled(w is not None and w.alt.ok)
        # the comparison takes room only while a switch is ticked (the trace needs it)
        self.table.setVisible(w is not None and w.base.ok and w.alt.ok)
        if w is None or not (w.base.ok and w.alt.ok):
            self.table.setRowCount(0)
            return
        seats = list(w.base.totals)
        self.table.setRowCount(len(seats))
        for r, s in enumerate(seats):
            d = w.difference[s]
            cells = [seat_name(s), f"{w.base.totals[s]:+d}", f"{w.alt.totals[s]:+d}",
                     f"{d:+d}" if d else "±0"]
            for c, text in enumerate(cells):
                it = QTableWidgetItem(text)
                it.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if c == 3:
                    it.setForeground(chips_brush(d))
                self.table.setItem(r, c, it)
        # every seat's row in view: the clause text above gives up the room
        self.table.setFixedHeight(self.table.horizontalHeader().height()
                                  + self.table.verticalHeader().length()
                                  + 2 * self.table.frameWidth())

    def _record(self) -> None:
        if self.current is not None:
            self.record_requested.emit(self.current)
