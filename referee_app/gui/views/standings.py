"""Standings tab: rows the store computed (``Tournament.standings.table``, or
``teams`` for the team view of a team event); the ranking and the tie-breaks are the
store's business.

The rows are a model (:class:`StandingsModel`) the table view reads cell by cell: new rows
after a save repaint the rows that changed and only as far as they are on screen (a
1,000-player table rebuilt as 18,000 cell items took 180 ms per saved hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QTableView,
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
#: the figures shown after the names (a StandingRow's attributes, a TeamRow's totals), in
#: column order; the signed ones are shown +5
_FIGURES = ("chips", "hands", "wins", "self_drawn", "discards_paid", "flower_pigs",
            "largest_win_fan", "penalties")
_SIGNED = frozenset({"chips", "penalties"})
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
#: rows a column's width is measured on (those on screen and around them)
CONTENTS_ROWS = 64
AnyIndex = QModelIndex | QPersistentModelIndex


class StandingsModel(QAbstractTableModel):
    """StandingRow values (or, in the team view, TeamRow values), one per line, with one
    column per round after the figures. The view asks for the cells it paints;
    :meth:`set_rows` tells it which rows changed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[Any] = []
        self.rounds: list[int] = []
        self.teams = False  # TeamRow values: the team and its members before the figures
        self.bold = QFont()
        self.bold.setBold(True)

    @property
    def columns(self) -> tuple[str, ...]:
        return _TEAM_COLUMNS if self.teams else _COLUMNS

    @property
    def chips_column(self) -> int:
        return self.columns.index("Chips")

    def set_rows(self, rows: Sequence[Any], *, teams: bool = False) -> None:
        rows = list(rows)
        rounds = sorted({r for row in rows for r in row.per_round})
        if teams != self.teams or rounds != self.rounds or len(rows) != len(self.rows):
            self.beginResetModel()
            self.rows, self.rounds, self.teams = rows, rounds, teams
            self.endResetModel()
            return
        changed = [i for i, (a, b) in enumerate(zip(self.rows, rows, strict=True)) if a != b]
        self.rows = rows
        if changed:
            self.dataChanged.emit(self.index(changed[0], 0),
                                  self.index(changed[-1], self.columnCount() - 1))

    def retranslated(self) -> None:
        """Titles and texts again in the new language (the members' list separator)."""
        last = max(0, self.columnCount() - 1)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, last)
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, last))

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns) + len(self.rounds)

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        if section < len(self.columns):
            return tr(self.columns[section])
        return tr("round_n", n=self.rounds[section - len(self.columns)])

    def value(self, row: int, col: int) -> tuple[Any, bool]:
        """A cell's value and whether it is shown signed (+5). A team's name and members'
        value is "" (no player to open)."""
        r = self.rows[row]
        names = len(self.columns) - len(_FIGURES)  # rank and the names before the figures
        if col == 0:
            return r.rank, False
        if col < names:
            return ("" if self.teams else r.player), False
        if col < len(self.columns):
            name = _FIGURES[col - names]
            v = int(r.totals.get(name, 0)) if self.teams else getattr(r, name)
            return v, name in _SIGNED
        return r.per_round.get(self.rounds[col - len(self.columns)], 0), True

    def _text(self, row: int, col: int) -> str:
        r = self.rows[row]
        if col == 0:
            return f"{r.rank}{'=' if r.tied else ''}"
        if self.teams and col == 1:
            return str(r.team)
        if self.teams and col == 2:
            return ("、" if LANG.code == "zh" else ", ").join(r.members)
        if col == 1:
            return r.player + (f"  ({r.club})" if r.club else "")
        value, signed = self.value(row, col)
        return f"{value:+d}" if signed else str(value)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        row, col = index.row(), index.column()
        names = len(self.columns) - len(_FIGURES)
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, col)
        if role == Qt.ItemDataRole.UserRole:
            return self.value(row, col)[0]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignCenter if col == 0 else None if col < names \
                else _RIGHT
        chips = col == self.chips_column
        if chips and role == Qt.ItemDataRole.ForegroundRole:
            return chips_brush(self.value(row, col)[0])
        if (chips or (self.teams and col == 1)) and role == Qt.ItemDataRole.FontRole:
            return self.bold
        return None


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
        self.model = StandingsModel(self)
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setObjectName("standings_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setAlternatingRowColors(True)
        self.table.verticalHeader().setDefaultSectionSize(24)
        self.table.activated.connect(self._activated)
        self.model.modelReset.connect(self._columns_reset)
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
        self._rounds: list[int] = []
        self._updated = ""  # when the rows were last set (HH:MM:SS)
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_round.setText(tr("Round") + ":")
        self.teams_box.setText(tr("teams_view"))
        self.set_provisional(self._waiting)
        self.set_rounds(self._rounds)
        self.model.retranslated()
        if self._updated:
            self.info.setText(tr("updated", t=self._updated))

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

    @property
    def rows(self) -> list[Any]:
        """The rows shown (StandingRow values; TeamRow values in the team view)."""
        return self.model.rows

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show StandingRow values (rank order as given), with one column per round; only
        the rows that differ from those shown are repainted."""
        self._show(rows, teams=False)

    def set_team_rows(self, rows: Sequence[Any]) -> None:
        """Show TeamRow values (rank order as given): the team, its members, the summed
        figures and a column per round; only the rows that differ are repainted."""
        self._show(rows, teams=True)

    def _show(self, rows: Sequence[Any], *, teams: bool) -> None:
        self.model.set_rows(rows, teams=teams)
        self._updated = datetime.now().strftime("%H:%M:%S")
        self.info.setText(tr("updated", t=self._updated))

    def _columns_reset(self) -> None:
        """Every column as wide as its title and figures (no header cut at 1280 px); the
        last one takes what is left, and a narrow window scrolls sideways. Sized from the
        rows on screen and those near them (``resizeContentsPrecision``), not all 1,000
        after each save: Qt's default reads a thousand rows again at every change."""
        header = self.table.horizontalHeader()
        header.setResizeContentsPrecision(CONTENTS_ROWS)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)

    def player_at(self, row: int) -> str | None:
        """The player of a line (None: no such line, or the team view)."""
        if self.model.teams or not 0 <= row < len(self.model.rows):
            return None
        return self.model.rows[row].player

    def current_player(self) -> str | None:
        """The player of the selected line, or None."""
        return self.player_at(self.table.currentIndex().row())

    def chips_by_team(self) -> dict[str, int]:
        """The team view as shown, read back through its model (tests compare it)."""
        m = self.model
        return {m.data(m.index(r, 1)): int(m.data(m.index(r, 3), Qt.ItemDataRole.UserRole))
                for r in range(m.rowCount())} if m.teams else {}

    def chips_by_player(self) -> dict[str, int]:
        """What the table shows, read back through its model (tests compare it with the
        store)."""
        m = self.model
        if m.teams:
            return {}
        return {m.data(m.index(r, 1), Qt.ItemDataRole.UserRole):
                int(m.data(m.index(r, 2), Qt.ItemDataRole.UserRole))
                for r in range(m.rowCount())}

    def _activated(self, index: QModelIndex) -> None:
        name = self.player_at(index.row())
        if name:
            self.player_activated.emit(name)
