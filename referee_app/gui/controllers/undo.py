"""Undo/redo of the entry form: each edit is a before/after snapshot of the form.

Snapshots (a few hundred bytes) make every command trivially correct, whatever it
changed: typing, events added/moved/deleted, dealer, wall switch. Consecutive keystrokes
in one field merge into one undo step, as in a text editor.
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from PySide6.QtGui import QUndoCommand

from .entry import EntryForm

_TEXT_ID = 1001


class FormCommand(QUndoCommand):
    """Set the form to ``after`` (redo) or back to ``before`` (undo) through ``apply``."""

    def __init__(self, apply: Callable[[EntryForm], None], before: EntryForm, after: EntryForm,
                 text: str, merge_key: str | None = None) -> None:
        super().__init__(text)
        self._apply = apply
        self.before = copy.deepcopy(before)
        self.after = copy.deepcopy(after)
        self.merge_key = merge_key

    def id(self) -> int:
        return _TEXT_ID if self.merge_key else -1

    def mergeWith(self, other: QUndoCommand) -> bool:
        if not isinstance(other, FormCommand) or other.merge_key != self.merge_key:
            return False
        self.after = copy.deepcopy(other.after)
        return True

    def redo(self) -> None:
        self._apply(copy.deepcopy(self.after))

    def undo(self) -> None:
        self._apply(copy.deepcopy(self.before))
