"""The two versions of a hand side by side: the one saved at another desk and the edit in
this form. Shown instead of saving over the other change; ``choice`` is "theirs" (drop
the edit, show their version), "mine" (keep the edit, now amending their version) or None
(keep looking)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr
from ..messages import field_words, problem_text


class ConflictDialog(QDialog):
    def __init__(self, title: str, mine: int, theirs: int, differences: Sequence[Any],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflict_dialog")
        self.setWindowTitle(tr("conflict_title"))
        self.choice: str | None = None
        lay = QVBoxLayout(self)
        key = "conflict_head" if differences else "conflict_same"
        head = QLabel(tr(key, title=title, mine=mine, theirs=theirs, n=len(differences)))
        head.setWordWrap(True)
        lay.addWidget(head)
        self.table = QTableWidget(len(differences), 3)
        self.table.setObjectName("conflict_table")
        self.table.setHorizontalHeaderLabels([tr("Field"), tr("Their version", v=theirs),
                                              tr("Your edit", v=mine)])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        for r, d in enumerate(differences):
            for c, text in enumerate((field_words(d.field) or d.field,
                                      problem_text(d.first) if d.first else "—",
                                      problem_text(d.second) if d.second else "—")):
                self.table.setItem(r, c, QTableWidgetItem(text))
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        lay.addWidget(self.table, 1)
        buttons = QDialogButtonBox()
        self.btn_theirs = QPushButton(tr("Take their version"))
        self.btn_theirs.setObjectName("take_theirs")
        self.btn_mine = QPushButton(tr("Keep my edit"))
        self.btn_mine.setObjectName("keep_mine")
        cancel = buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        cancel.setText(tr("Keep looking"))
        cancel.setDefault(True)  # Enter never decides between two referees' work
        buttons.addButton(self.btn_theirs, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.btn_mine, QDialogButtonBox.ButtonRole.ActionRole)
        self.btn_theirs.clicked.connect(lambda: self._choose("theirs"))
        self.btn_mine.clicked.connect(lambda: self._choose("mine"))
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(780, 380)

    def _choose(self, choice: str) -> None:
        self.choice = choice
        self.accept()
