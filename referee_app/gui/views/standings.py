"""Standings tab and the projector window (standings in large type, refreshing itself).

Both only display rows the store computed (``Tournament.standings``); the ranking and the
tie-breaks are the store's business.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QFont, QFontMetrics, QKeySequence, QShortcut
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
from .colours import chips_brush

_COLUMNS = ("Rank", "Player", "Chips", "Hands", "Wins", "Self-drawn", "Discards paid",
            "Flower pigs", "Largest win", "Penalties")


def _num(value: int, signed: bool = False) -> QTableWidgetItem:
    item = QTableWidgetItem(f"{value:+d}" if signed else str(value))
    item.setData(Qt.ItemDataRole.UserRole, value)
    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return item


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
        self.lbl_round = QLabel()
        self.info = QLabel()
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
        top.addStretch(1)
        top.addWidget(self.info)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        self._rows: list[Any] = []
        self._rounds: list[int] = []
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_round.setText(tr("Round") + ":")
        self.set_rounds(self._rounds)
        self.set_rows(self._rows)

    def set_rounds(self, rounds: Sequence[int]) -> None:
        current = self.selected_round() or 0
        self._rounds = list(rounds)
        self.round_box.blockSignals(True)
        self.round_box.clear()
        self.round_box.addItem(tr("all_rounds"), 0)
        for r in self._rounds:
            self.round_box.addItem(tr("round_n", n=r), r)
        self.round_box.setCurrentIndex(max(0, self.round_box.findData(current)))
        self.round_box.blockSignals(False)

    def selected_round(self) -> int | None:
        """None for all rounds (stored as 0: a QVariant never carries None here)."""
        if self.round_box.currentIndex() < 0:
            return None
        return self.round_box.currentData() or None

    def set_rows(self, rows: Sequence[Any]) -> None:
        """Show StandingRow values (rank order as given), with one column per round."""
        self._rows = list(rows)
        rounds = sorted({r for row in self._rows for r in row.per_round})
        self.table.setColumnCount(len(_COLUMNS) + len(rounds))
        self.table.setHorizontalHeaderLabels([tr(c) for c in _COLUMNS]
                                             + [tr("round_n", n=r) for r in rounds])
        self.table.setRowCount(len(self._rows))
        bold = QFont(self.table.font())
        bold.setBold(True)
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
        header = self.table.horizontalHeader()
        for c in range(self.table.columnCount()):
            header.setSectionResizeMode(c, QHeaderView.ResizeMode.ResizeToContents if c < 2
                                        else QHeaderView.ResizeMode.Stretch)
        self.info.setText(tr("updated", t=datetime.now().strftime("%H:%M:%S")))

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


class ProjectorWindow(QWidget):
    """Standings in large type for the hall's projector; refreshes itself every few seconds.

    ``fetch`` returns (title, rows); it is called on a QTimer so the projector follows
    hands saved anywhere (this window, another desk, the CLI) without being told.
    """

    def __init__(self, fetch: Callable[[], tuple[str, Sequence[Any]]], interval_ms: int = 5000,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self._fetch = fetch
        self.setObjectName("projector")
        self.setStyleSheet("QWidget#projector { background: #10222b; }"
                           " QLabel { color: #f4f1e6; }"
                           " QTableWidget { background: #10222b; color: #f4f1e6;"
                           " gridline-color: #2c4652; border: none; }"
                           " QHeaderView::section { background: #1b3642; color: #f4d58d;"
                           " border: none; padding: 6px; }")
        self.title = QLabel()
        self.title.setWordWrap(True)
        tf = QFont(self.font())
        tf.setPointSize(30)
        tf.setBold(True)
        self.title.setFont(tf)
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.clock = QLabel()
        cf = QFont(self.font())
        cf.setPointSize(14)
        self.clock.setFont(cf)
        self.clock.setAlignment(Qt.AlignmentFlag.AlignRight)
        self.table = QTableWidget(0, 5)
        self.table.setObjectName("projector_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.table.setShowGrid(False)
        self.table.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        big = QFont(self.font())
        big.setPointSize(24)
        self.table.setFont(big)
        hf = QFont(self.font())
        hf.setPointSize(18)
        hf.setBold(True)
        self.table.horizontalHeader().setFont(hf)
        self.table.verticalHeader().setMinimumSectionSize(16)
        self.table.verticalHeader().setDefaultSectionSize(50)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)  # numbers take what they need,
        self.table.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.table.setTextElideMode(Qt.TextElideMode.ElideNone)  # names the rest: never "…"
        self.table.setWordWrap(True)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(30, 20, 30, 20)
        lay.addWidget(self.title)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.clock)
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.refresh)
        for seq in ("Esc", "F11"):
            QShortcut(QKeySequence(seq), self).activated.connect(self._toggle_full)
        self.refreshes = 0
        self.refresh()

    def showEvent(self, event: Any) -> None:  # noqa: N802 (Qt naming)
        """Refresh on a timer only while shown (a hidden projector costs nothing)."""
        self.timer.start()
        super().showEvent(event)

    def hideEvent(self, event: Any) -> None:  # noqa: N802
        self.timer.stop()
        super().hideEvent(event)

    def resizeEvent(self, event: Any) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._fit_rows()
        QTimer.singleShot(0, self._fit_rows)  # again once the title has re-wrapped

    def _fit_rows(self) -> None:
        """Large type that still fits every row on the screen (the hall reads it from afar)."""
        rows = max(1, self.table.rowCount())
        avail = self.table.viewport().height() or self.table.height() - 40
        row_h = max(22, min(64, avail // rows))
        f = QFont(self.table.font())
        f.setPixelSize(max(12, int(row_h * 0.62)))
        self.table.setFont(f)
        self.table.verticalHeader().setDefaultSectionSize(row_h)
        # a name wider than its column shrinks (to 60 %), then wraps; it is never cut
        width = self.table.horizontalHeader().sectionSize(1) - 12
        for r in range(self.table.rowCount()):
            item = self.table.item(r, 1)
            if item is None:
                continue
            nf = QFont(f)
            text_w = QFontMetrics(f).horizontalAdvance(item.text())
            if width > 0 and text_w > width:
                nf.setPixelSize(max(10, int(f.pixelSize() * max(0.6, width / text_w))))
            item.setFont(nf)
            fm = QFontMetrics(nf)
            lines = -(-fm.horizontalAdvance(item.text()) // max(1, width))
            self.table.setRowHeight(r, max(row_h, lines * fm.lineSpacing() + 6))

    def _toggle_full(self) -> None:
        if self.isFullScreen():
            self.showNormal()
        else:
            self.showFullScreen()

    def refresh(self) -> None:
        title, rows = self._fetch()
        self.refreshes += 1
        self.title.setText(title)
        self.setWindowTitle(title)
        self.table.setHorizontalHeaderLabels([tr("Rank"), tr("Player"), tr("Chips"), tr("Wins"),
                                              tr("Hands")])
        self.table.setRowCount(len(rows))
        for r, row in enumerate(rows):
            cells = [f"{row.rank}{'=' if row.tied else ''}", row.player, f"{row.chips:+d}",
                     str(row.wins), str(row.hands)]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setTextAlignment(Qt.AlignmentFlag.AlignVCenter | (
                    Qt.AlignmentFlag.AlignLeft if c == 1 else Qt.AlignmentFlag.AlignCenter))
                if c == 2:
                    item.setForeground(chips_brush(row.chips, "#8fe0a0", "#ff9c8f", "#f4f1e6"))
                self.table.setItem(r, c, item)
        self.clock.setText(tr("updated", t=datetime.now().strftime("%H:%M:%S")))
        self._fit_rows()
