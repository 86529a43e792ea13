"""Standings tab and the projector window (standings in large type, refreshing itself).

Both only display rows the store computed (``Tournament.standings.table``); the ranking and the
tie-breaks are the store's business.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFont
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

from referee_app.core.scores import figure
from referee_app.storage.stage_board import stage_name

from ..i18n import LANG, tr
from .colours import chips_brush

#: the figures after rank and player: (header key, the row's value, signed)
_FIGURES: tuple[tuple[str, str, bool], ...] = (
    ("Chips", "chips", True), ("Hands", "hands", False), ("Wins", "wins", False),
    ("Self-drawn", "self_drawn", False), ("Discards paid", "discards_paid", False),
    ("Flower pigs", "flower_pigs", False), ("Largest win", "largest_win_fan", False),
    ("Penalties", "penalties", True))


def _num(value: Any, signed: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(figure(value, signed=signed) if value is not None else "")
    item.setData(Qt.ItemDataRole.UserRole, value)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def columns(rows: Sequence[Any]) -> list[tuple[str, str, bool]]:
    """The figures the rows have, in order: under placement scoring the points first (then
    the chips that break their ties); once the event is cut, the stage and what it carried
    in; the points penalties when any."""
    placement = any(r.points is not None for r in rows)
    out: list[tuple[str, str, bool]] = []
    if any(r.stage for r in rows):
        out.append(("Stage", "stage", False))
    if placement:
        out.append(("Points", "points", False))
    if any(r.carried is not None for r in rows):
        out.append(("Carried", "carried", False))
    out += _FIGURES
    if placement and any(r.point_penalties for r in rows):
        out.append(("Point penalties", "point_penalties", True))
    return out


class StandingsView(QWidget):
    """Standings table with a round filter; double-click a player to open their detail."""

    round_changed = Signal(object)  # int | None
    player_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.round_box = QComboBox()
        self.round_box.setObjectName("standings_round")
        self.round_box.currentIndexChanged.connect(
            lambda _i: self.round_changed.emit(self.selected_round()))
        #: one stage alone (shown once the event is cut): item data 0 all, N stage N
        self.stage_box = QComboBox()
        self.stage_box.setObjectName("standings_stage")
        self.stage_box.currentIndexChanged.connect(
            lambda _i: self.round_changed.emit(self.selected_round()))
        self.stage_box.setVisible(False)
        self._stages: list[Any] = []
        self.lbl_round = QLabel()
        self.info = QLabel()
        self.provisional = QLabel()  # "only verified hands count; n left out" (red)
        self.provisional.setObjectName("standings_provisional")
        self.provisional.setStyleSheet("color: #b3261e; font-weight: bold")
        self.provisional.setVisible(False)
        self._waiting = 0
        self.table = QTableWidget(0, 2 + len(_FIGURES))
        self.table.setObjectName("standings_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.itemActivated.connect(self._activated)
        top = QHBoxLayout()
        top.addWidget(self.lbl_round)
        top.addWidget(self.round_box)
        top.addWidget(self.stage_box)
        top.addWidget(self.provisional)
        top.addStretch(1)
        top.addWidget(self.info)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self._rows: list[Any] = []
        self._figures: list[str] = []
        self._rounds: list[int] = []
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_round.setText(tr("Round") + ":")
        self.set_provisional(self._waiting)
        self.set_rounds(self._rounds)
        self.set_stages(self._stages)
        self.set_rows(self._rows)

    def set_stages(self, stages: Sequence[Any]) -> None:
        """The event's stages (``Stage`` values): a choice of one stage alone once it is
        cut (hidden before)."""
        current = self.stage_box.currentData() if self.stage_box.currentIndex() >= 0 else 0
        self._stages = list(stages)
        self.stage_box.blockSignals(True)
        self.stage_box.clear()
        self.stage_box.addItem(tr("all_stages"), 0)
        for st in self._stages:
            self.stage_box.addItem(tr("stage_n", name=stage_name(st, LANG.code)), st.number)
        self.stage_box.setCurrentIndex(max(0, self.stage_box.findData(current or 0)))
        self.stage_box.blockSignals(False)
        self.stage_box.setVisible(len(self._stages) > 1)

    def selected_stage(self) -> int | None:
        """The one stage shown alone, or None (every stage, as the event ranks them)."""
        if len(self._stages) <= 1:
            return None
        return int(self.stage_box.currentData() or 0) or None

    def set_rounds(self, rounds: Sequence[int]) -> None:
        """One meaning of rounds everywhere (as ``--through N`` / ``--round N`` in the CLI):
        "after round N" is rounds 1…N, "round N only" that round alone. Item data: 0 all
        rounds, N after round N, -N round N only."""
        current = self.round_box.currentData() if self.round_box.currentIndex() >= 0 else 0
        self._rounds = list(rounds)
        self.round_box.blockSignals(True)
        self.round_box.clear()
        self.round_box.addItem(tr("all_rounds"), 0)
        for r in self._rounds:
            self.round_box.addItem(tr("after_round_n", n=r), r)
        for r in self._rounds:
            self.round_box.addItem(tr("round_only_n", n=r), -r)
        self.round_box.setCurrentIndex(max(0, self.round_box.findData(current or 0)))
        self.round_box.blockSignals(False)

    def set_provisional(self, waiting: int) -> None:
        """Mark the standings provisional: ``waiting`` hands in this scope are not verified
        and the tournament counts only verified hands (0: nothing to mark)."""
        self._waiting = waiting
        self.provisional.setText(tr("provisional_n", n=waiting) if waiting else "")
        self.provisional.setVisible(bool(waiting))

    def selected_scope(self) -> tuple[int | None, int | None]:
        """(round only, through round): at most one is set; (None, None) is all rounds."""
        if self.round_box.currentIndex() < 0:
            return None, None
        d = int(self.round_box.currentData() or 0)
        return (-d, None) if d < 0 else (None, d or None)

    def selected_round(self) -> int | None:
        """The cumulative scope shown — "after round N" (what the printout says) — or None
        for all rounds or a single round (which the standings report does not print)."""
        return self.selected_scope()[1]

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show StandingRow values (rank order as given): the figures :func:`columns` says,
        then one column per round (its points under placement scoring, else its chips)."""
        self._rows = list(rows)
        figures = columns(self._rows)
        self._figures = [key for _, key, _ in figures]
        placement = "points" in self._figures
        staged = "stage" in self._figures
        per = "per_round_points" if placement else "per_round"
        rounds = sorted({r for row in self._rows for r in getattr(row, per)})
        self.table.setColumnCount(2 + len(figures) + len(rounds))
        self.table.setHorizontalHeaderLabels([tr("Rank"), tr("Player")]
                                             + [tr(h) for h, _, _ in figures]
                                             + [tr("round_n", n=r) for r in rounds])
        self.table.setRowCount(len(self._rows))
        bold = QFont(self.table.font())
        bold.setBold(True)
        names = {st.number: stage_name(st, LANG.code) for st in self._stages}
        first = "points" if placement else "chips"  # what ranks: bold
        for r, row in enumerate(self._rows):
            rank = QTableWidgetItem(f"{row.rank}{'=' if row.tied else ''}")
            rank.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            name = QTableWidgetItem(row.player + (f"  ({row.club})" if row.club else ""))
            name.setData(Qt.ItemDataRole.UserRole, row.player)
            cells = [rank, name]
            for _, key, signed in figures:
                value = getattr(row, key)
                if key == "stage":
                    item = QTableWidgetItem(names.get(value, str(value)))
                    item.setData(Qt.ItemDataRole.UserRole, value)
                else:
                    item = _num(value, signed=signed)
                if key == first:
                    item.setFont(bold)
                if key == "chips":
                    item.setForeground(chips_brush(row.chips))
                cells.append(item)
            values = getattr(row, per)
            cells += [_num(values[n], signed=not placement) if n in values
                      else _num(None if staged else 0, signed=not placement) for n in rounds]
            for c, item in enumerate(cells):
                self.table.setItem(r, c, item)
        header = self.table.horizontalHeader()
        for c in range(self.table.columnCount()):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents if c < 2
                                        else QHeaderView.ResizeMode.Stretch)
        self.info.setText(tr("updated", t=datetime.now().strftime("%H:%M:%S")))

    def chips_by_player(self) -> dict[str, Any]:
        """What the table shows, read back from the cells (tests compare it with the store)."""
        return self.column_by_player("chips")

    def column_by_player(self, key: str) -> dict[str, Any]:
        """One figure's column (``points``, ``chips``...), read back from the cells."""
        c = 2 + self._figures.index(key)
        return {self.table.item(r, 1).data(Qt.ItemDataRole.UserRole):
                self.table.item(r, c).data(Qt.ItemDataRole.UserRole)
                for r in range(self.table.rowCount())}

    def _activated(self, item: QTableWidgetItem) -> None:
        name = self.table.item(item.row(), 1).data(Qt.ItemDataRole.UserRole)
        if name:
            self.player_activated.emit(name)
