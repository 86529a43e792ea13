"""The field-by-field table of two entries of one hand, shared by blind verification
(first / second entry) and the conflict dialog (their version / your edit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
)

from ..messages import field_words, problem_text


def difference_table(differences: Sequence[Any], headers: Sequence[str],
                     name: str) -> QTableWidget:
    """A read-only table: the field in words, then each side's value (— where absent)."""
    table = QTableWidget(len(differences), 3)
    table.setObjectName(name)
    table.setHorizontalHeaderLabels(list(headers))
    table.verticalHeader().setVisible(False)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    for r, d in enumerate(differences):
        for c, text in enumerate((field_words(d.field) or d.field,
                                  problem_text(d.first) if d.first else "—",
                                  problem_text(d.second) if d.second else "—")):
            table.setItem(r, c, QTableWidgetItem(text))
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    return table
