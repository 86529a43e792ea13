"""A list widget whose long items wrap onto more lines instead of being cut."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtWidgets import QListWidget, QWidget


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
