"""The field-by-field table of two entries of one hand, shared by blind verification
(first / second entry) and the conflict dialog (their version / your edit)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..messages import field_words, line_text
from .keyboard import leave_on_tab


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
                                  line_text(d.first) if d.first else "—",
                                  line_text(d.second) if d.second else "—")):
            table.setItem(r, c, QTableWidgetItem(text))
    table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
    leave_on_tab(table)
    return table


class ChoiceDialog(QDialog):
    """A dialog that ends in one of a few named choices or Cancel (the default: Enter
    never decides between two entries of a hand); ``choice`` holds the name or None."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.choice: str | None = None

    def add_choices(self, lay: QVBoxLayout, choices: Sequence[tuple[str, str, str]],
                    cancel_text: str) -> list[QPushButton]:
        """One button per (label, object name, choice), then Cancel; returns the buttons."""
        box = QDialogButtonBox()
        made = []
        for label, name, choice in choices:
            btn = QPushButton(label)
            btn.setObjectName(name)
            btn.clicked.connect(lambda _=False, c=choice: self._choose(c))
            made.append(btn)
        cancel = box.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(cancel_text)
        cancel.setDefault(True)
        for btn in made:
            box.addButton(btn, QDialogButtonBox.ButtonRole.ActionRole)
        box.rejected.connect(self.reject)
        lay.addWidget(box)
        return made

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()
