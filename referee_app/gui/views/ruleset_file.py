"""The new-tournament form's "Ruleset from file…" part: a club's ruleset file is picked,
checked by the engine (``core.ruleset_from_file``), and its differences from the nearest
shipped ruleset are listed (the same comparison as ``referee-app rules --file X --diff
ID``). A refused file is one translated line naming the path inside the file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from referee_app.core import RecordError

from ..i18n import tr
from ..messages import exception_text
from .colours import RED
from .keyboard import leave_on_tab


def refused_text(path: str, e: RecordError) -> str:
    """One line: which file, where in it, what is wrong (and how many more problems)."""
    where = exception_text(e)
    more = len(getattr(e, "errors", ()) or ()) - 1
    text = tr("ruleset_file_bad", file=Path(path).name, msg=where)
    return text + (" " + tr("ruleset_file_more", n=more) if more > 0 else "")


class RulesetFilePanel(QWidget):
    """Button, one-line message and the difference table; ``loaded(result)`` is called
    with the checked file (a ``controllers.desk.RulesetFile``)."""

    def __init__(self, ask_open_file: Callable[[str, str], str],
                 load: Callable[[str], Any], loaded: Callable[[Any], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ask, self._load, self._loaded = ask_open_file, load, loaded
        self.result: Any = None
        self.button = QPushButton(tr("Ruleset from file…"))
        self.button.setObjectName("nt_ruleset_file")
        self.button.clicked.connect(self.choose)
        self.message = QLabel()
        self.message.setObjectName("nt_ruleset_message")
        self.message.setWordWrap(True)
        self.heading = QLabel()
        self.heading.setObjectName("nt_diff_heading")
        self.heading.setWordWrap(True)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("nt_diff")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setMinimumHeight(160)
        self.table.setWordWrap(False)
        leave_on_tab(self.table)
        row = QHBoxLayout()
        row.addWidget(self.button)
        row.addWidget(self.message, 1)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addLayout(row)
        lay.addWidget(self.heading)
        lay.addWidget(self.table)
        self.heading.hide()
        self.table.hide()

    def choose(self, path: str | None = None) -> bool:
        """Pick a file (``path`` skips the chooser), check it, show its differences."""
        if not path:
            path = self._ask(tr("Ruleset from file…"), tr("ruleset_file_filter"))
        if not path:
            return False
        try:
            result = self._load(path)
        except RecordError as e:  # RulesetFileError: schema, consistency, unreadable
            self.message.setStyleSheet(f"color: {RED}")
            self.message.setText(refused_text(path, e))
            return False
        self.result = result
        self.message.setStyleSheet("")
        self.message.setText(tr("ruleset_file_ok", file=Path(path).name, id=result.rules.id))
        self.show_differences(result)
        self._loaded(result)
        return True

    def show_differences(self, result: Any) -> None:
        rows = result.differences
        self.heading.setText(tr("ruleset_file_diff", nearest=result.nearest, n=len(rows)))
        self.table.setHorizontalHeaderLabels([tr("diff_path"), result.nearest,
                                              tr("diff_this_file")])
        self.table.setRowCount(len(rows))
        for r, cells in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.table.setItem(r, c, item)
        head = self.table.horizontalHeader()  # both values equally wide, cut in the middle
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.resizeRowsToContents()
        self.heading.show()
        self.table.show()

    def rows(self) -> list[list[str]]:
        return [[self.table.item(r, c).text() for c in range(3)]
                for r in range(self.table.rowCount())]
