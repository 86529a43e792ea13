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
    QCheckBox,
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
from .colours import chips_brush

_COLUMNS = ("Rank", "Player", "Chips", "Hands", "Wins", "Self-drawn", "Discards paid",
            "Flower pigs", "Largest win", "Penalties")
#: the team view's columns: a team's figures are its members' added up
_TEAM_COLUMNS = ("Rank", "team_col", "members_col", "Chips", "Hands", "Wins", "Self-drawn",
                 "Discards paid", "Flower pigs", "Largest win", "Penalties")
#: the TeamRow totals shown after the team and its members, in column order
_TEAM_FIGURES = ("chips", "hands", "wins", "self_drawn", "discards_paid", "flower_pigs",
                 "largest_win_fan", "penalties")


def _num(value: int, signed: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(f"{value:+d}" if signed else str(value))
    item.setData(Qt.ItemDataRole.UserRole, value)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


class StandingsView(QWidget):
    """Standings table with a round filter; double-click a player to open their detail.
    In a team event the Teams box (Alt+T) shows the team standings in the same scope:
    one row per team, its members' figures added up."""

    round_changed = Signal(object)  # int | None
    player_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.round_box = QComboBox()
        self.round_box.setObjectName("standings_round")
        self.round_box.currentIndexChanged.connect(
            lambda _i: self.round_changed.emit(self.selected_round()))
        self.lbl_round = QLabel()
        self.teams_box = QCheckBox()
        self.teams_box.setObjectName("standings_teams")
        self.teams_box.setVisible(False)
        self.teams_box.toggled.connect(
            lambda _on: self.round_changed.emit(self.selected_round()))
        self.info = QLabel()
        self.provisional = QLabel()  # "only verified hands count; n left out" (red)
        self.provisional.setObjectName("standings_provisional")
        self.provisional.setStyleSheet("color: #b3261e; font-weight: bold")
        self.provisional.setVisible(False)
        self._waiting = 0
        self.table = QTableWidget(0, len(_COLUMNS))
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
        top.addWidget(self.teams_box)
        top.addWidget(self.provisional)
        top.addStretch(1)
        top.addWidget(self.info)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self._rows: list[Any] = []
        self._team_rows: list[Any] = []
        self._rounds: list[int] = []
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_round.setText(tr("Round") + ":")
        self.teams_box.setText(tr("teams_view"))
        self.set_provisional(self._waiting)
        self.set_rounds(self._rounds)
        if self.showing_teams():
            self.set_team_rows(self._team_rows)
        else:
            self.set_rows(self._rows)

    def set_has_teams(self, on: bool) -> None:
        """Offer the team view only in a team event (and leave it when teams are gone)."""
        self.teams_box.setVisible(on)
        if not on and self.teams_box.isChecked():
            self.teams_box.setChecked(False)

    def showing_teams(self) -> bool:
        """The team view is on (a team event, and the box ticked)."""
        return not self.teams_box.isHidden() and self.teams_box.isChecked()

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
        """Show StandingRow values (rank order as given), with one column per round."""
        self._rows = list(rows)
        rounds, bold = self._begin(_COLUMNS, self._rows)
        for r, row in enumerate(self._rows):
            rank = QTableWidgetItem(f"{row.rank}{'=' if row.tied else ''}")
            rank.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            name = QTableWidgetItem(row.player + (f"  ({row.club})" if row.club else ""))
            name.setData(Qt.ItemDataRole.UserRole, row.player)
            chips = _num(row.chips, signed=True)
            chips.setForeground(chips_brush(row.chips))
            chips.setFont(bold)
            cells = [rank, name, chips, _num(row.hands), _num(row.wins), _num(row.self_drawn),
                     _num(row.discards_paid), _num(row.flower_pigs), _num(row.largest_win_fan),
                     _num(row.penalties, signed=True)]
            cells += [_num(row.per_round.get(n, 0), signed=True) for n in rounds]
            for c, item in enumerate(cells):
                self.table.setItem(r, c, item)
        self._end()

    def _begin(self, columns: Sequence[str], rows: Sequence[Any]) -> tuple[list[int], QFont]:
        """Columns for ``rows`` (``columns`` then one per round they have), as many table
        rows; returns the rounds and the bold font of the chips."""
        rounds = sorted({r for row in rows for r in row.per_round})
        self.table.setColumnCount(len(columns) + len(rounds))
        self.table.setHorizontalHeaderLabels([tr(c) for c in columns]
                                             + [tr("round_n", n=r) for r in rounds])
        self.table.setRowCount(len(rows))
        bold = QFont(self.table.font())
        bold.setBold(True)
        return rounds, bold

    def _end(self) -> None:
        """Every column as wide as its title and figures (no header cut at 1280 px); the
        last one takes what is left, and a narrow window scrolls sideways."""
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.info.setText(tr("updated", t=datetime.now().strftime("%H:%M:%S")))

    def set_team_rows(self, rows: Sequence[Any]) -> None:
        """Show TeamRow values (rank order as given): the team, its members, the summed
        figures and a column per round."""
        self._team_rows = list(rows)
        rounds, bold = self._begin(_TEAM_COLUMNS, self._team_rows)
        sep = "、" if LANG.code == "zh" else ", "
        for r, row in enumerate(self._team_rows):
            rank = QTableWidgetItem(f"{row.rank}{'=' if row.tied else ''}")
            rank.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            team = QTableWidgetItem(row.team)
            team.setData(Qt.ItemDataRole.UserRole, "")  # no player to open
            team.setFont(bold)
            members = QTableWidgetItem(sep.join(row.members))
            cells = [rank, team, members]
            for c in _TEAM_FIGURES:
                v = int(row.totals.get(c, 0))
                item = _num(v, signed=c in ("chips", "penalties"))
                if c == "chips":
                    item.setForeground(chips_brush(v))
                    item.setFont(bold)
                cells.append(item)
            cells += [_num(row.per_round.get(n, 0), signed=True) for n in rounds]
            for c, item in enumerate(cells):
                self.table.setItem(r, c, item)
        self._end()

    def chips_by_team(self) -> dict[str, int]:
        """The team view as shown, read back from the cells (tests compare it)."""
        return {self.table.item(r, 1).text(): int(self.table.item(r, 3).data(
            Qt.ItemDataRole.UserRole)) for r in range(self.table.rowCount())}

    def chips_by_player(self) -> dict[str, int]:
        """What the table shows, read back from the cells (tests compare it with the store)."""
        out = {}
        for r in range(self.table.rowCount()):
            out[self.table.item(r, 1).data(Qt.ItemDataRole.UserRole)] = int(
                self.table.item(r, 2).data(Qt.ItemDataRole.UserRole))
        return out

    def _activated(self, item: QTableWidgetItem) -> None:
        name = self.table.item(item.row(), 1).data(Qt.ItemDataRole.UserRole)
        if name:
            self.player_activated.emit(name)
