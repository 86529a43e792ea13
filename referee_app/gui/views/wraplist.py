"""Lists and tables whose long items wrap onto more lines instead of being cut."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, QRect, QSize, Qt, QTimer
from PySide6.QtWidgets import QListWidget, QTableWidget, QWidget


class WrapList(QListWidget):
    """A list whose long items wrap onto more lines instead of being cut with an ellipsis."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.max_lines_height = 120

    def relayout(self) -> None:
        width = max(50, self.viewport().width() - 8)
        fm = self.fontMetrics()
        total = 0
        for i in range(self.count()):
            it = self.item(i)
            rect = fm.boundingRect(QRect(0, 0, width, 10_000), int(Qt.TextFlag.TextWordWrap),
                                   it.text())
            it.setSizeHint(QSize(width, rect.height() + 4))
            total += rect.height() + 4
        # as tall as its lines (up to a limit): the payments below get the rest
        self.setFixedHeight(max(30, min(self.max_lines_height, total + 2 * self.frameWidth() + 2)))

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self.relayout()


class WrappedRows(QObject):
    """Keeps a table's rows as tall as their wrapped text, whatever its column widths.

    Qt's own row height for wrapped text leaves the last line elided ("corrected fro…")
    when Chinese comes from a fallback font, whose lines are taller than the font's metrics
    say: a row that wraps gets ``PAD`` pixels more (issue 25)."""

    PAD = 6

    def __init__(self, table: QTableWidget) -> None:
        super().__init__(table)
        self.table = table
        table.setWordWrap(True)
        table.setTextElideMode(Qt.TextElideMode.ElideNone)
        table.horizontalHeader().sectionResized.connect(lambda *_a: self.fit())
        table.installEventFilter(self)  # a stretched column changes with the table's width

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:
        if obj is self.table and e.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self, self.fit)  # once the header has laid out its sections
        return False

    def fit(self) -> None:
        t = self.table
        one_line = t.fontMetrics().height() * 3 // 2
        for r in range(t.rowCount()):
            t.resizeRowToContents(r)
            if t.rowHeight(r) > one_line:
                t.setRowHeight(r, t.rowHeight(r) + self.PAD)
