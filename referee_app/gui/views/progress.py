"""Round progress tab: per table the hands entered / verified / overridden / void, the
last entry's time and the missing hand numbers, so the head referee sees what is left."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..i18n import LANG, tr
from .colours import GREEN, RED, brush

COLUMNS = ("Table", "Players_col", "Hands", "prog_entered", "prog_verified", "prog_override",
           "prog_void", "prog_last_hand", "prog_last_entry", "prog_gaps")


class ProgressView(QWidget):
    """``round_changed(n)`` asks the window for that round's progress; ``table_activated``
    (Enter on a row) opens the table's next hand."""

    round_changed = Signal(int)
    table_activated = Signal(int, int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.round_box = QComboBox()
        self.round_box.setObjectName("progress_round")
        self.round_box.currentIndexChanged.connect(self._round)
        self.lbl = QLabel()
        self.summary = QLabel()
        self.summary.setObjectName("progress_summary")
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setObjectName("progress_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.itemActivated.connect(self._activated)
        top = QHBoxLayout()
        top.addWidget(self.lbl)
        top.addWidget(self.round_box)
        top.addSpacing(16)
        top.addWidget(self.summary, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self._progress: Any = None
        self._lang = ""  # the language the rows were written in
        self._rounds: list[int] = []
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl.setText(tr("Round") + ":")
        self.table.setHorizontalHeaderLabels([tr(c) for c in COLUMNS])
        self.set_rounds(self._rounds)
        if self._progress is not None:
            self.show_progress(self._progress)

    def set_rounds(self, rounds: Sequence[int], prefer: int | None = None) -> None:
        """The rounds to choose from; the one shown stays, else ``prefer`` (the round in
        play), else the last."""
        current = self.current_round() or prefer
        self._rounds = list(rounds)
        self.round_box.blockSignals(True)
        self.round_box.clear()
        for r in self._rounds:
            self.round_box.addItem(tr("round_n", n=r), r)
        idx = self.round_box.findData(current)
        self.round_box.setCurrentIndex(idx if idx >= 0 else self.round_box.count() - 1)
        self.round_box.blockSignals(False)

    def current_round(self) -> int | None:
        return None if self.round_box.currentIndex() < 0 else int(self.round_box.currentData())

    def _round(self, _i: int) -> None:
        r = self.current_round()
        if r is not None:
            self.round_changed.emit(r)

    def _activated(self, item: QTableWidgetItem) -> None:
        if self._progress is not None:
            tp = self._progress.tables[item.row()]
            self.table_activated.emit(self._progress.round, tp.table)

    @property
    def progress(self) -> Any:
        """The RoundProgress shown (None: none yet)."""
        return self._progress

    def show_progress(self, p: Any) -> None:
        """Show a storage RoundProgress; when the same round's tables are shown already,
        only the rows that changed are written again (a save changes one table of 250)."""
        old, self._progress = self._progress, p
        self.summary.setText(tr("prog_summary", hands=p.hands, verified=p.verified,
                                left=p.unverified))
        same = (old is not None and old.round == p.round and self._lang == LANG.code
                and [t.table for t in old.tables] == [t.table for t in p.tables])
        self._lang = LANG.code
        self.table.setRowCount(len(p.tables))
        for r, tp in enumerate(p.tables):
            if same and old.tables[r] == tp:
                continue
            cells = [tr("table_n", n=tp.table), " ".join(tp.players.values()), str(tp.hands),
                     str(tp.entered), str(tp.verified), str(tp.overridden), str(tp.void),
                     str(tp.last_hand or "—"), (tp.last_entry_at[11:16] or "—"),
                     tp.gap_text() or "—"]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if c >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if c == 9 and tp.gaps:
                    item.setForeground(brush(RED))
                if c == 4 and tp.verified and tp.verified == tp.hands - tp.void:
                    item.setForeground(brush(GREEN))
                self.table.setItem(r, c, item)
        if same:
            return
        # sized to the contents once per round shown (in ResizeToContents mode the header
        # reads all 250 rows again after each cell written: 3 ms a cell)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        self.table.resizeColumnsToContents()
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
