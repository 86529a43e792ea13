"""Standings tab: rows the store computed (``Tournament.standings.table``, or
``teams`` for the team view of a team event); the ranking and the tie-breaks are the
store's business.

The rows are a model (:class:`StandingsModel`) the table view reads cell by cell: new rows
after a save repaint the rows that changed and only as far as they are on screen (a
1,000-player table rebuilt as 18,000 cell items took 180 ms per saved hand).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import fields
from datetime import datetime
from operator import attrgetter
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QFont, QShowEvent
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

from referee_app.core.scores import figure
from referee_app.storage.stage_board import stage_name

from ..i18n import LANG, tr
from .colours import chips_brush

#: the figures after the names: (header key, the row's value, signed +5)
_FIGURES: tuple[tuple[str, str, bool], ...] = (
    ("Chips", "chips", True), ("Hands", "hands", False), ("Wins", "wins", False),
    ("Self-drawn", "self_drawn", False), ("Discards paid", "discards_paid", False),
    ("Flower pigs", "flower_pigs", False), ("Largest win", "largest_win_fan", False),
    ("Penalties", "penalties", True))
#: the columns before the figures: a player's line, a team's (its members' figures summed)
_NAMES = ("Rank", "Player")
_TEAM_NAMES = ("Rank", "team_col", "members_col")
_RIGHT = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
#: rows a column's width is measured on (those on screen and around them)
CONTENTS_ROWS = 64
AnyIndex = QModelIndex | QPersistentModelIndex
#: the roles a cell answers; the delegate asks for more (decoration, check state, …) — None
_ROLES = frozenset({Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.UserRole,
                    Qt.ItemDataRole.TextAlignmentRole, Qt.ItemDataRole.ForegroundRole,
                    Qt.ItemDataRole.FontRole})


def _text(value: Any, signed: bool) -> str:
    """A figure as shown: ``""`` for none, a signed one +5 (and +0, as the desk has always
    shown chips), fractions of a point to two decimals."""
    if value is None:
        return ""
    return "+0" if signed and value == 0 else figure(value, signed=signed)


def columns(rows: Sequence[Any]) -> list[tuple[str, str, bool]]:
    """The figures the rows have, in order: under placement scoring the points first (then
    the chips that break their ties); once the event is cut, the stage and what it carried
    in; the points penalties when any. Players' rows or teams' (whose points are their
    members' summed)."""
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


def _key(row: Any) -> Any:
    """Whose line this is: the player's (a team's, in the team view)."""
    return getattr(row, "player_id", None) or getattr(row, "team", None)


def _unranked(row: Any) -> Any:
    """A line without its rank: what it shows besides its place (None stays None)."""
    if row is None:
        return None
    get = _BESIDES_RANK.get(type(row))
    if get is None:
        get = _BESIDES_RANK[type(row)] = attrgetter(
            *(f.name for f in fields(row) if f.name not in ("rank", "tied")))
    return get(row)


#: a row's fields besides its rank, read at once (a few hundred lines move at each save)
_BESIDES_RANK: dict[type, attrgetter] = {}


def _point_penalties(row: Any) -> Any:
    """A player's row's points from penalties, or a team's (its members' summed)."""
    totals = getattr(row, "totals", None)
    return totals.get("point_penalties", 0) if totals is not None else row.point_penalties


class StandingsModel(QAbstractTableModel):
    """StandingRow values (or, in the team view, TeamRow values), one per line: the names,
    the figures :func:`columns` says, then one column per round (its points under placement
    scoring, else its chips). The view asks for the cells it paints; :meth:`set_rows` tells
    it which rows changed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.rows: list[Any] = []
        self.rounds: list[int] = []
        self.figures: list[tuple[str, str, bool]] = list(_FIGURES)
        self.teams = False  # TeamRow values: the team and its members before the figures
        self.stage_names: dict[int, str] = {}  # stage number -> its name, as shown
        self.bold = QFont()
        self.bold.setBold(True)
        self._lay_out()

    def _lay_out(self) -> None:
        """The columns' places, worked out once per set of columns: the view asks
        :meth:`data` eight roles of every cell it paints or measures, so a cell's answer
        looks them up rather than working them out again."""
        self.names = _TEAM_NAMES if self.teams else _NAMES
        keys = [k for _, k, _ in self.figures]
        self.placement = "points" in keys
        self._staged = "stage" in keys
        first = len(self.names)
        self._figures_end = first + len(self.figures)
        self._chips_col = first + keys.index("chips")
        self._ranks_col = first + keys.index("points" if self.placement else "chips")
        self._stage_col = first + keys.index("stage") if self._staged else -1
        self._columns = self._figures_end + len(self.rounds)

    def column_of(self, key: str) -> int:
        """The column of a figure (``chips``, ``points``…)."""
        return len(self.names) + [k for _, k, _ in self.figures].index(key)

    def set_rows(self, rows: Sequence[Any], *, teams: bool = False) -> list[int] | None:
        """Show these rows; the lines whose contents differ from those shown, each told to
        the view (:attr:`dataChanged`) — or None when the columns or the number of lines
        changed and the whole table was reset.

        One signal a line: Qt 6.11's table view repaints its whole viewport for a change of
        more than about 200 cells, on screen or not (measured), and a save moves a few
        hundred lines down or up one place, mostly off screen."""
        rows = list(rows)
        figures = columns(rows)
        placement = any(key == "points" for _, key, _ in figures)
        per = "per_round_points" if placement else "per_round"
        rounds = sorted({r for row in rows for r in getattr(row, per)})
        if (teams != self.teams or rounds != self.rounds or figures != self.figures
                or len(rows) != len(self.rows)):
            self.beginResetModel()
            self.rows, self.rounds, self.teams, self.figures = rows, rounds, teams, figures
            self._lay_out()
            self.endResetModel()
            return None
        changed = [i for i, (a, b) in enumerate(zip(self.rows, rows, strict=True))
                   if a is not b and a != b]
        self.rows = rows
        last = self._columns - 1
        for i in changed:  # a line that did not change is not read again
            self.dataChanged.emit(self.index(i, 0), self.index(i, last))
        return changed

    def retranslated(self) -> None:
        """Titles and texts again in the new language (the members' list separator)."""
        last = max(0, self.columnCount() - 1)
        self.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, last)
        if self.rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.rows) - 1, last))

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self._columns

    def headerData(self, section: int, orientation: Qt.Orientation,
                   role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if orientation != Qt.Orientation.Horizontal or role != Qt.ItemDataRole.DisplayRole:
            return None
        heads = [*self.names, *(h for h, _, _ in self.figures)]
        if section < len(heads):
            return tr(heads[section])
        return tr("round_n", n=self.rounds[section - len(heads)])

    def value(self, row: int, col: int) -> tuple[Any, bool]:
        """A cell's value and whether it is shown signed (+5). A team's name and members'
        value is "" (no player to open); a round a staged row did not play, None."""
        r = self.rows[row]
        names = len(self.names)
        if col == 0:
            return r.rank, False
        if col < names:
            return ("" if self.teams else r.player), False
        if col < self._figures_end:
            _, key, signed = self.figures[col - names]
            return (r.totals.get(key, 0) if self.teams else getattr(r, key)), signed
        n = self.rounds[col - self._figures_end]
        values = r.per_round_points if self.placement else r.per_round
        return values.get(n, None if self._staged else 0), not self.placement

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
        if col == self._stage_col:
            return self.stage_names.get(value, str(value))
        return _text(value, signed)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid():
            return None
        row, col = index.row(), index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            return self._text(row, col)
        if role == Qt.ItemDataRole.UserRole:
            return self.value(row, col)[0]
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return Qt.AlignmentFlag.AlignCenter if col == 0 else None \
                if col < len(self.names) else _RIGHT
        if role == Qt.ItemDataRole.ForegroundRole:
            return chips_brush(self.value(row, col)[0]) if col == self._chips_col else None
        if col == self._ranks_col or (self.teams and col == 1):  # FontRole: what ranks
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
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        header.setStretchLastSection(True)
        self._fit_all = True  # every column measured again, once on screen
        self._fit_keys: set[Any] = set()  # whose lines the columns must fit, once on screen
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
        self._rounds: list[int] = []
        self._updated = ""  # when the rows were last set (HH:MM:SS)
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_round.setText(tr("Round") + ":")
        self.teams_box.setText(tr("teams_view"))
        self.set_provisional(self._waiting)
        self.set_rounds(self._rounds)
        self.set_stages(self._stages)
        self.model.retranslated()
        self._fit_all = True  # the titles in the new language
        self._fit_columns()
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

    def set_stages(self, stages: Sequence[Any]) -> None:
        """The event's stages (``Stage`` values): a choice of one stage alone once it is
        cut (hidden before)."""
        current = self.stage_box.currentData() if self.stage_box.currentIndex() >= 0 else 0
        self._stages = list(stages)
        self.model.stage_names = {st.number: stage_name(st, LANG.code) for st in self._stages}
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
        before = {_key(r): r for r in self.model.rows}
        changed = self.model.set_rows(rows, teams=teams)
        if changed is None:
            self._fit_all = True
        else:  # the lines whose figures changed, not those a rank moved down one line
            for i in changed:
                row = self.model.rows[i]
                if _unranked(before.get(_key(row))) != _unranked(row):
                    self._fit_keys.add(_key(row))
        self._updated = datetime.now().strftime("%H:%M:%S")
        self.info.setText(tr("updated", t=self._updated))
        self._fit_columns()

    def showEvent(self, event: QShowEvent) -> None:
        """Columns not measured while the tab was hidden are measured now it is shown."""
        super().showEvent(event)
        self._fit_columns()

    def _fit_columns(self) -> None:
        """Every column as wide as its title and figures (no header cut at 1280 px); the
        last one takes what is left, and a narrow window scrolls sideways.

        Measured when the table is on screen, not while another tab is (a hidden tab is
        measured when it is shown). After new columns, from the rows on screen and those
        near them (``resizeContentsPrecision``); after a save, only the lines whose figures
        changed, and a column only grows; the rank column also to the widest rank (1000=).
        Qt's own ResizeToContents measured 64 lines x every column again at each change,
        shown or not: 100 ms of a 150 ms save at 1,000 players."""
        if not self.table.isVisible() or not (self._fit_all or self._fit_keys):
            return
        header = self.table.horizontalHeader()
        rows = self.model.rows
        if self._fit_all:
            self._fit_all = False
            header.setResizeContentsPrecision(CONTENTS_ROWS)
            self.table.resizeColumnsToContents()
        else:
            at = {_key(r): i for i, r in enumerate(rows)}
            self._grow(header, [at[k] for k in self._fit_keys if k in at],
                       range(self.model.columnCount()))
        self._fit_keys.clear()
        if rows:
            self._grow(header, [max(range(len(rows)),
                                    key=lambda i: len(str(rows[i].rank)) + rows[i].tied)], (0,))

    def _grow(self, header: QHeaderView, lines: Sequence[int], cols: Iterable[int]) -> None:
        """Widen the columns ``cols`` to these lines' cells where they need it (never
        narrower)."""
        if not lines:
            return
        grid = 1 if self.table.showGrid() else 0
        for c in cols:
            need = max(self.table.sizeHintForIndex(self.model.index(r, c)).width() + grid
                       for r in lines)
            if need > header.sectionSize(c):
                header.resizeSection(c, need)

    def player_at(self, row: int) -> str | None:
        """The player of a line (None: no such line, or the team view)."""
        if self.model.teams or not 0 <= row < len(self.model.rows):
            return None
        return self.model.rows[row].player

    def current_player(self) -> str | None:
        """The player of the selected line, or None."""
        return self.player_at(self.table.currentIndex().row())

    def chips_by_team(self) -> dict[str, Any]:
        """The team view as shown, read back through its model (tests compare it)."""
        m = self.model
        c = m.column_of("chips")
        return {m.data(m.index(r, 1)): m.data(m.index(r, c), Qt.ItemDataRole.UserRole)
                for r in range(m.rowCount())} if m.teams else {}

    def chips_by_player(self) -> dict[str, Any]:
        """What the table shows, read back through its model (tests compare it with the
        store)."""
        return self.column_by_player("chips")

    def column_by_player(self, key: str) -> dict[str, Any]:
        """One figure's column (``points``, ``chips``...), read back through the model."""
        m = self.model
        if m.teams:
            return {}
        c = m.column_of(key)
        return {m.data(m.index(r, 1), Qt.ItemDataRole.UserRole):
                m.data(m.index(r, c), Qt.ItemDataRole.UserRole) for r in range(m.rowCount())}

    def _activated(self, index: QModelIndex) -> None:
        name = self.player_at(index.row())
        if name:
            self.player_activated.emit(name)
