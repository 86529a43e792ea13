"""The two versions of a hand side by side: the one saved at another desk and the edit in
this form. Shown instead of saving over the other change; ``choice`` is "theirs" (drop
the edit, show their version), "mine" (keep the edit, now amending their version) or None
(keep looking)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr
from .difference_table import difference_table


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
        self.table = difference_table(differences, [tr("Field"), tr("Their version", v=theirs),
                                       tr("Your edit", v=mine)],
                                      "conflict_table")
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
