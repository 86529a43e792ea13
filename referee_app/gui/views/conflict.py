"""The two versions of a hand side by side: the one saved at another desk and the edit in
this form. Shown instead of saving over the other change; ``choice`` is "theirs" (drop
the edit, show their version), "mine" (keep the edit, now amending their version) or None
(keep looking)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr
from .difference_table import ChoiceDialog, difference_table


class ConflictDialog(ChoiceDialog):
    def __init__(self, title: str, mine: int, theirs: int, differences: Sequence[Any],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("conflict_dialog")
        self.setWindowTitle(tr("conflict_title"))
        lay = QVBoxLayout(self)
        key = "conflict_head" if differences else "conflict_same"
        head = QLabel(tr(key, title=title, mine=mine, theirs=theirs, n=len(differences)))
        head.setWordWrap(True)
        lay.addWidget(head)
        self.table = difference_table(differences, [tr("Field"), tr("Their version", v=theirs),
                                       tr("Your edit", v=mine)],
                                      "conflict_table")
        lay.addWidget(self.table, 1)
        # Cancel is the default: Enter never decides between two referees' work
        self.btn_theirs, self.btn_mine = self.add_choices(
            lay, [(tr("Take their version"), "take_theirs", "theirs"),
                  (tr("Keep my edit"), "keep_mine", "mine")], tr("Keep looking"))
        self.resize(780, 380)
