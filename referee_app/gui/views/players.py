"""Player detail: one player's hands and penalties (their statement) with each payment."""

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
    QListWidget,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..i18n import LANG, seat_name, tr
from ..messages import line_text
from .colours import chips_brush
from .manage import PLAYER_STATUSES


class PlayerView(QWidget):
    """``player_changed(name)`` asks for a statement; ``hand_activated(id)`` opens a hand.

    ``add_requested``, ``import_requested``, ``edit_requested``, ``checkin_requested`` and
    ``status_requested(name, status)`` ask the window to register players, edit the shown
    one (team included), open the check-in list or change the shown player's status.
    """

    player_changed = Signal(str)
    hand_activated = Signal(int)
    add_requested = Signal()
    import_requested = Signal()
    edit_requested = Signal()
    checkin_requested = Signal()
    status_requested = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.player_box = QComboBox()
        self.player_box.setObjectName("player_box")
        self.player_box.currentIndexChanged.connect(self._changed)
        self.lbl = QLabel()
        self.total = QLabel()
        self.total.setObjectName("player_total")
        f = self.total.font()
        f.setBold(True)
        f.setPointSize(f.pointSize() + 2)
        self.total.setFont(f)
        self.table = QTableWidget(0, 6)
        self.table.setObjectName("statement_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.itemSelectionChanged.connect(self._line_selected)
        self.table.itemActivated.connect(self._activated)
        self.detail = QListWidget()
        self.detail.setObjectName("statement_detail")
        self.status_lbl = QLabel()
        self.status_box = QComboBox()
        self.status_box.setObjectName("player_status")
        self.status_box.activated.connect(self._status_chosen)  # the referee's choice only
        self.btn_add = QPushButton()
        self.btn_add.setObjectName("add_player_button")
        self.btn_add.clicked.connect(self.add_requested)
        self.btn_import = QPushButton()
        self.btn_import.setObjectName("import_players_button")
        self.btn_import.clicked.connect(self.import_requested)
        self.btn_edit = QPushButton()
        self.btn_edit.setObjectName("edit_player_button")
        self.btn_edit.clicked.connect(self.edit_requested)
        self.btn_checkin = QPushButton()
        self.btn_checkin.setObjectName("checkin_button")
        self.btn_checkin.clicked.connect(self.checkin_requested)
        self.team_lbl = QLabel()
        self.team_lbl.setObjectName("player_team")
        top = QHBoxLayout()
        top.addWidget(self.lbl)
        top.addWidget(self.player_box, 1)
        top.addWidget(self.status_lbl)
        top.addWidget(self.status_box)
        top.addWidget(self.team_lbl)
        top.addStretch(1)
        top.addWidget(self.total)
        manage = QHBoxLayout()
        manage.addWidget(self.btn_add)
        manage.addWidget(self.btn_import)
        manage.addWidget(self.btn_edit)
        manage.addWidget(self.btn_checkin)
        manage.addStretch(1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.table)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(manage)
        lay.addLayout(top)
        lay.addWidget(split, 1)
        self._statement: Any = None
        self._players: list[str] = []
        self._statuses: dict[str, str] = {}
        self._teams: dict[str, str] = {}
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl.setText(tr("Player") + ":")
        self.status_lbl.setText(tr("player_status"))
        self.btn_add.setText(tr("Add player…"))
        self.btn_import.setText(tr("Import players CSV…"))
        self.btn_edit.setText(tr("Edit player…"))
        self.btn_checkin.setText(tr("Check-in…"))
        self.status_box.blockSignals(True)
        self.status_box.clear()
        for st in PLAYER_STATUSES:
            self.status_box.addItem(tr(f"pstatus_{st}"), st)
        self.status_box.blockSignals(False)
        self._show_status()
        self.table.setHorizontalHeaderLabels([tr("Round"), tr("Table"), tr("hand_no"), tr("Seat"),
                                              tr("Chips"), tr("Status")])
        if self._statement is not None:
            self.show_statement(self._statement)

    def set_players(self, names: Sequence[str]) -> None:
        current = self.player_box.currentText()
        self._players = list(names)
        self.player_box.blockSignals(True)
        self.player_box.clear()
        self.player_box.addItems(self._players)
        if current in self._players:
            self.player_box.setCurrentText(current)
        self.player_box.blockSignals(False)
        if not self._players:  # a new tournament: nobody to show
            self._statement = None
            self.table.setRowCount(0)
            self.total.setText("")
            self.detail.clear()
        self._show_status()

    def show_players(self, players: Sequence[Any]) -> None:
        """The store's players (names, statuses and teams) in this view."""
        self.set_players([p.name for p in players])
        self.set_statuses({p.name: p.status.value for p in players})
        self.set_teams({p.name: p.team for p in players})

    def set_statuses(self, statuses: dict[str, str]) -> None:
        """Each player's status (``active``…), shown for the player in view."""
        self._statuses = dict(statuses)
        self._show_status()

    def set_teams(self, teams: dict[str, str]) -> None:
        """Each player's team ("" for none), shown for the player in view."""
        self._teams = dict(teams)
        self._show_status()

    def _show_status(self) -> None:
        team = self._teams.get(self.current_player(), "")
        self.team_lbl.setText(tr("team_of", team=team) if team else "")
        st = self._statuses.get(self.current_player())
        self.status_box.setEnabled(st is not None)
        idx = self.status_box.findData(st) if st is not None else -1
        self.status_box.blockSignals(True)
        self.status_box.setCurrentIndex(idx)
        self.status_box.blockSignals(False)

    def _status_chosen(self, _i: int) -> None:
        name, st = self.current_player(), self.status_box.currentData()
        if name and st and st != self._statuses.get(name):
            self.status_requested.emit(name, st)

    def select_player(self, name: str) -> None:
        if self.player_box.currentText() == name:
            self.player_changed.emit(name)
        else:
            self.player_box.setCurrentText(name)

    def current_player(self) -> str:
        return self.player_box.currentText()

    def _changed(self, _i: int) -> None:
        self._show_status()
        if self.player_box.currentText():
            self.player_changed.emit(self.player_box.currentText())

    def show_statement(self, st: Any) -> None:
        """Show a storage PlayerStatement."""
        self._statement = st
        self.table.setRowCount(len(st.lines))
        for r, line in enumerate(st.lines):
            flags = ", ".join(tr(f"status_{f}") if f != "penalty" else tr("Penalties")
                              for f in line.flags)
            cells = ["" if line.round is None else str(line.round),
                     "" if line.table is None else str(line.table),
                     "" if line.hand_no is None else str(line.hand_no),
                     seat_name(line.seat) if line.seat else "", f"{line.chips:+d}", flags]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, r)
                if c == 4:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    item.setForeground(chips_brush(line.chips))
                self.table.setItem(r, c, item)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.total.setText(f"{st.player.display}: {tr('Totals')} {st.total:+d}")
        self.detail.clear()

    def _line_selected(self) -> None:
        items = self.table.selectedItems()
        self.detail.clear()
        if items and self._statement is not None:
            line = self._statement.lines[items[0].data(Qt.ItemDataRole.UserRole)]
            self.detail.addItems([line_text(d) for d in line.detail])

    def _activated(self, item: QTableWidgetItem) -> None:
        if self._statement is None:
            return
        line = self._statement.lines[item.data(Qt.ItemDataRole.UserRole)]
        if line.hand_id is not None:
            self.hand_activated.emit(line.hand_id)
