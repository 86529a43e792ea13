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
    """A figure's cell; a signed one reads +0 at zero, as the desk has always shown chips."""
    text = "" if value is None else "+0" if signed and value == 0 else figure(value,
                                                                             signed=signed)
    item = QTableWidgetItem(text)
    item.setData(Qt.ItemDataRole.UserRole, value)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


def columns(rows: Sequence[Any]) -> list[tuple[str, str, bool]]:
    """The figures the rows have, in order: under placement scoring the points first (then
    the chips that break their ties); once the event is cut, the stage and what it carried
    in; the points penalties when any."""
    placement = any(r.points is not None for r in rows)
    out: list[tuple[str, str, bool]] = []
    if any(getattr(r, "stage", 0) for r in rows):  # a player's row (a team's has none)
        out.append(("Stage", "stage", False))
    if placement:
        out.append(("Points", "points", False))
    if any(getattr(r, "carried", None) is not None for r in rows):
        out.append(("Carried", "carried", False))
    out += _FIGURES
    if placement and any(_point_penalties(r) for r in rows):
        out.append(("Point penalties", "point_penalties", True))
    return out


def _point_penalties(row: Any) -> Any:
    """A player's row's points from penalties, or a team's (its members' summed)."""
    totals = getattr(row, "totals", None)
    return totals.get("point_penalties", 0) if totals is not None else row.point_penalties


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
        #: one stage alone (shown once the event is cut): item data 0 all, N stage N
        self.stage_box = QComboBox()
        self.stage_box.setObjectName("standings_stage")
        self.stage_box.currentIndexChanged.connect(
            lambda _i: self.round_changed.emit(self.selected_round()))
        self.stage_box.setVisible(False)
        self._stages: list[Any] = []
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
        top.addWidget(self.teams_box)
        top.addWidget(self.provisional)
        top.addStretch(1)
        top.addWidget(self.info)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self._rows: list[Any] = []
        self._figures: list[str] = []
        self._heads = 2  # the columns before the figures (rank and player)
        self._team_rows: list[Any] = []
        self._rounds: list[int] = []
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_round.setText(tr("Round") + ":")
        self.teams_box.setText(tr("teams_view"))
        self.set_provisional(self._waiting)
        self.set_rounds(self._rounds)
        self.set_stages(self._stages)
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

    def set_rounds(self, rounds: Sequence[int], stages: Sequence[Any] | None = None) -> None:
        """One meaning of rounds everywhere (as ``--through N`` / ``--round N`` in the CLI):
        "after round N" is rounds 1…N, "round N only" that round alone. Item data: 0 all
        rounds, N after round N, -N round N only. ``stages``: the event's, when they may
        have changed too (:meth:`set_stages`)."""
        if stages is not None:
            self.set_stages(stages)
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
        """(round only, through round): at most one is set; (None, None) is all rounds. One
        stage alone (:meth:`selected_stage`) is its rounds as far as the scope goes: never a
        round alone."""
        if self.round_box.currentIndex() < 0:
            return None, None
        d = int(self.round_box.currentData() or 0)
        if d < 0 and self.selected_stage() is not None:
            return None, None
        return (-d, None) if d < 0 else (None, d or None)

    def selected_round(self) -> int | None:
        """The cumulative scope shown — "after round N" (what the printout says) — or None
        for all rounds or a single round (which the standings report does not print)."""
        return self.selected_scope()[1]

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show StandingRow values (rank order as given): the figures :func:`columns` says,
        then one column per round (its points under placement scoring, else its chips)."""
        self._rows = list(rows)
        names = {st.number: stage_name(st, LANG.code) for st in self._stages}
        figures, rounds = self._begin(("Rank", "Player"), self._rows)
        for r, row in enumerate(self._rows):
            rank = QTableWidgetItem(f"{row.rank}{'=' if row.tied else ''}")
            rank.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            name = QTableWidgetItem(row.player + (f"  ({row.club})" if row.club else ""))
            name.setData(Qt.ItemDataRole.UserRole, row.player)
            self._row(r, row, [rank, name], figures, rounds, lambda key, row=row: getattr(
                row, key), names)
        self._end()

    def set_team_rows(self, rows: Sequence[Any]) -> None:
        """Show TeamRow values (rank order as given): the team, its members, the summed
        figures (the points first under placement scoring) and a column per round."""
        self._team_rows = list(rows)
        figures, rounds = self._begin(("Rank", "team_col", "members_col"), self._team_rows)
        sep = "、" if LANG.code == "zh" else ", "
        for r, row in enumerate(self._team_rows):
            rank = QTableWidgetItem(f"{row.rank}{'=' if row.tied else ''}")
            rank.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
            team = QTableWidgetItem(row.team)
            team.setData(Qt.ItemDataRole.UserRole, "")  # no player to open
            team.setFont(self._bold)
            members = QTableWidgetItem(sep.join(row.members))
            self._row(r, row, [rank, team, members], figures, rounds,
                      lambda key, row=row: row.totals.get(key, 0), {})
        self._end()

    def _begin(self, heads: Sequence[str], rows: Sequence[Any]
               ) -> tuple[list[tuple[str, str, bool]], list[int]]:
        """Columns for ``rows``: ``heads``, the figures :func:`columns` says, then one per
        round they have; as many table rows. Returns the figures and the rounds."""
        figures = columns(rows)
        self._figures = [key for _, key, _ in figures]
        self._heads = len(heads)
        per = "per_round_points" if "points" in self._figures else "per_round"
        rounds = sorted({r for row in rows for r in getattr(row, per)})
        self.table.setColumnCount(len(heads) + len(figures) + len(rounds))
        self.table.setHorizontalHeaderLabels([tr(h) for h in heads]
                                             + [tr(h) for h, _, _ in figures]
                                             + [tr("round_n", n=r) for r in rounds])
        self.table.setRowCount(len(rows))
        self._bold = QFont(self.table.font())
        self._bold.setBold(True)
        return figures, rounds

    def _row(self, r: int, row: Any, cells: list[QTableWidgetItem],
             figures: Sequence[tuple[str, str, bool]], rounds: Sequence[int],
             value: Any, names: dict[int, str]) -> None:
        """Table row ``r``: ``cells``, then the figures (``value(key)`` of each; what ranks
        in bold, the chips green or red) and one per round."""
        placement = "points" in self._figures
        first = "points" if placement else "chips"  # what ranks: bold
        for _, key, signed in figures:
            v = value(key)
            if key == "stage":
                item = QTableWidgetItem(names.get(v, str(v)))
                item.setData(Qt.ItemDataRole.UserRole, v)
            else:
                item = _num(v, signed=signed)
            if key == first:
                item.setFont(self._bold)
            if key == "chips":
                item.setForeground(chips_brush(row.chips))
            cells.append(item)
        values = row.per_round_points if placement else row.per_round
        staged = "stage" in self._figures
        cells += [_num(values[n], signed=not placement) if n in values
                  else _num(None if staged else 0, signed=not placement) for n in rounds]
        for c, item in enumerate(cells):
            self.table.setItem(r, c, item)

    def _end(self) -> None:
        """Every column as wide as its title and figures (no header cut at 1280 px); the
        last one takes what is left, and a narrow window scrolls sideways."""
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.info.setText(tr("updated", t=datetime.now().strftime("%H:%M:%S")))

    def chips_by_team(self) -> dict[str, Any]:
        """The team view as shown, read back from the cells (tests compare it)."""
        return {self.table.item(r, 1).text(): v
                for r, v in enumerate(self._column("chips").values())}

    def chips_by_player(self) -> dict[str, Any]:
        """What the table shows, read back from the cells (tests compare it with the store)."""
        return self.column_by_player("chips")

    def column_by_player(self, key: str) -> dict[str, Any]:
        """One figure's column (``points``, ``chips``...), read back from the cells."""
        return {self.table.item(r, 1).data(Qt.ItemDataRole.UserRole): v
                for r, v in self._column(key).items()}

    def _column(self, key: str) -> dict[int, Any]:
        c = self._heads + self._figures.index(key)
        return {r: self.table.item(r, c).data(Qt.ItemDataRole.UserRole)
                for r in range(self.table.rowCount())}

    def _activated(self, item: QTableWidgetItem) -> None:
        name = self.table.item(item.row(), 1).data(Qt.ItemDataRole.UserRole)
        if name:
            self.player_activated.emit(name)
