"""Players → Check-in…: who is here before a round is seated, from the keyboard alone.

Type part of a name (characters, the Latin name, or the pinyin / its initials: ``liw``,
``lw`` for 李伟, as Ctrl+F finds players); the list narrows to the players it matches and
the first is selected (Up/Down choose another); Enter marks the selected player present
or absent — the other of the two — and empties the line for the next name. Esc closes.
An absent player is not seated by Seat round / Re-seat and keeps every result; marking
them present again makes them seatable. Each change is the store's status change (one
entry of the record), made through the ``toggle`` callback the window gives (one Desk call).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHeaderView,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..controllers.navigation import find_players
from ..i18n import tr
from ..messages import exception_text
from .colours import brush

#: the statuses a check-in lists (a withdrawn player or a substitute is not checked in)
CHECKED_IN = ("active", "late", "absent")


class CheckInDialog(QDialog):
    """The check-in list. ``players()`` gives the players as they stand (re-read after each
    change); ``toggle(name)`` marks one present or absent and returns the Player."""

    def __init__(self, players: Callable[[], Sequence[Any]], toggle: Callable[[str], Any],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("checkin_dialog")
        self.setWindowTitle(tr("checkin_title"))
        self.resize(560, 640)
        self._players = players
        self._toggle = toggle
        self.hint = QLabel(tr("checkin_hint"))
        self.hint.setWordWrap(True)
        self.line = QLineEdit()
        self.line.setObjectName("checkin_filter")
        self.line.setPlaceholderText(tr("checkin_placeholder"))
        self.line.textChanged.connect(self._filter)
        self.line.returnPressed.connect(self.toggle_selected)
        self.line.installEventFilter(self)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("checkin_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the line keeps the keyboard
        self.table.setHorizontalHeaderLabels([tr("Player"), tr("team_col"), tr("Status")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.itemDoubleClicked.connect(lambda _i: self.toggle_selected())
        self.counts = QLabel()
        self.counts.setObjectName("checkin_counts")
        self.last = QLabel()
        self.last.setObjectName("checkin_last")
        lay = QVBoxLayout(self)
        lay.addWidget(self.hint)
        lay.addWidget(self.line)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.counts)
        lay.addWidget(self.last)
        self._all: list[Any] = []
        self._shown: list[Any] = []
        self.reload()
        self.line.setFocus()

    # ------------------------------------------------------------------ content

    def reload(self) -> None:
        """Read the players again (after a change here or elsewhere) and filter."""
        self._all = [p for p in self._players() if p.status.value in CHECKED_IN]
        absent = sum(1 for p in self._all if p.status.value == "absent")
        self.counts.setText(tr("checkin_counts", present=len(self._all) - absent,
                               absent=absent, total=len(self._all)))
        self._filter(self.line.text())

    def _filter(self, text: str) -> None:
        self._shown = find_players(text, self._all) if text.strip() else list(self._all)
        self.table.setRowCount(len(self._shown))
        for r, p in enumerate(self._shown):
            absent = p.status.value == "absent"
            cells = [QTableWidgetItem(p.display), QTableWidgetItem(p.team),
                     QTableWidgetItem(tr("pstatus_absent") if absent
                                      else tr("checkin_present"))]
            cells[2].setForeground(brush("#b3261e" if absent else "#1b5e20"))
            for c, item in enumerate(cells):
                self.table.setItem(r, c, item)
        if self._shown:
            self.table.selectRow(0)

    def selected(self) -> Any:
        """The player Enter would mark (None when nothing matches)."""
        rows = self.table.selectionModel().selectedRows()
        return self._shown[rows[0].row()] if rows and self._shown else None

    def toggle_selected(self) -> Any:
        """Enter: the selected player becomes present if absent, absent if present; the
        line empties for the next name. A refusal is shown and changes nothing."""
        p = self.selected()
        if p is None:
            self.last.setText(tr("find_none", text=self.line.text()))
            return None
        try:
            done = self._toggle(p.name)
        except ValueError as e:  # the store's refusal, in words (nothing was changed)
            self.last.setText(exception_text(e))
            return None
        self.last.setText(tr("status_set", name=done.name,
                             status=tr(f"pstatus_{done.status.value}")))
        self.line.clear()
        self.reload()
        return done

    # ------------------------------------------------------------------ keys

    def eventFilter(self, obj: Any, event: Any) -> bool:
        """Up/Down (and PgUp/PgDn) in the line move the selection in the list."""
        if obj is self.line and isinstance(event, QKeyEvent) \
                and event.type() == QKeyEvent.Type.KeyPress:
            step = {Qt.Key.Key_Down: 1, Qt.Key.Key_Up: -1, Qt.Key.Key_PageDown: 10,
                    Qt.Key.Key_PageUp: -10}.get(Qt.Key(event.key()))
            if step is not None and self._shown:
                rows = self.table.selectionModel().selectedRows()
                row = rows[0].row() if rows else 0
                self.table.selectRow(max(0, min(len(self._shown) - 1, row + step)))
                self.table.scrollToItem(self.table.item(self.table.currentRow(), 0))
                return True
        return super().eventFilter(obj, event)
