"""The line above the navigator for Ctrl+G (go to ``round table hand``) and Ctrl+F (find a
player). Hidden until asked for; Enter submits, Escape closes and gives the focus back."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QCompleter, QLineEdit, QWidget

from ..i18n import LANG, tr


class JumpBar(QLineEdit):
    """``goto_requested(text)`` / ``find_requested(text)`` on Enter, by the mode it was opened in."""

    goto_requested = Signal(str)
    find_requested = Signal(str)
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("jump_bar")
        self.mode = "goto"
        self._player_names: list[str] = []
        self._names = QStringListModel(self)
        # not the line's child: a line deletes its own child completer when another (or
        # none, in go-to mode) takes its place, and find mode would then lose it
        self._completer = QCompleter(self._names, self._names)
        self._completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self._completer.setFilterMode(Qt.MatchFlag.MatchContains)
        # set once and kept: QLineEdit.setCompleter(None) deletes a completer it parents,
        # and the next Ctrl+G used the deleted object (issue 25); "goto" empties its list
        self.setCompleter(self._completer)
        self.returnPressed.connect(self._submit)
        self.setVisible(False)
        LANG.changed.connect(self._placeholder)

    def set_player_names(self, names: Sequence[str]) -> None:
        self._player_names = list(names)
        if self.mode == "find":
            self._names.setStringList(self._player_names)

    def open(self, mode: str) -> None:
        """Show the bar in ``goto`` or ``find`` mode with the focus in it."""
        self.mode = mode
        self._names.setStringList(self._player_names if mode == "find" else [])
        self.clear()
        self._placeholder()
        self.setVisible(True)
        self.setFocus()

    def _placeholder(self, *_args: object) -> None:
        self.setPlaceholderText(tr("goto_hint") if self.mode == "goto" else tr("find_hint"))

    def _submit(self) -> None:
        popup = self._completer.popup() if self.mode == "find" else None
        if popup is not None and popup.isVisible():
            return  # Enter picks the completion first; the next Enter submits
        text = self.text().strip()
        if not text:
            self.close_bar()
            return
        (self.goto_requested if self.mode == "goto" else self.find_requested).emit(text)

    def close_bar(self) -> None:
        self.setVisible(False)
        self.closed.emit()

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if e.key() == Qt.Key.Key_Escape:
            self.close_bar()
            return
        super().keyPressEvent(e)
