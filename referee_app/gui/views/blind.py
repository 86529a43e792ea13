"""Double-entry (blind) verification in the window (``MainWindow.blind``): a second
referee opens a saved hand blind — an empty form, the saved version hidden — keys the slip
again and saves; identical entries verify the hand, different ones are listed side by side
for the head referee to resolve (keep the first entry, or take the second with a reason).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

from PySide6.QtWidgets import QDialog, QLabel, QVBoxLayout, QWidget

from ..i18n import tr
from ..messages import exception_text
from .difference_table import ChoiceDialog, difference_table


class DifferencesDialog(ChoiceDialog):
    """The differing fields, first entry beside second; ``choice`` is "first", "second"
    or None (Cancel: back to the blind form to look at the slip again)."""

    def __init__(self, title: str, differences: Sequence[Any],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("differences_dialog")
        self.setWindowTitle(tr("verify_differ_title"))
        lay = QVBoxLayout(self)
        head = QLabel(tr("verify_differ", title=title, n=len(differences)))
        head.setWordWrap(True)
        lay.addWidget(head)
        self.table = difference_table(differences, [tr("Field"), tr("First entry"),
                                       tr("Second entry")],
                                      "differences_table")
        lay.addWidget(self.table, 1)
        # Cancel is the default: Enter never decides for the head referee
        self.btn_first, self.btn_second = self.add_choices(
            lay, [(tr("Keep first entry"), "keep_first", "first"),
                  (tr("Take second entry…"), "take_second", "second")], tr("Cancel"))
        self.resize(760, 360)


class BlindHost(Protocol):
    """What blind verification uses of its window (the main window): a protocol, so this
    module does not import the window that holds it."""

    desk: Any
    entry: Any
    tabs: Any
    context: tuple[int, int, int, int | None] | None
    shown: Any
    run_dialog: Callable[[QDialog], bool]
    ask_text: Callable[[str, str], str | None]
    ask_reason: Callable[[str, str, str], str | None]

    def message(self, text: str, error: bool = True) -> None: ...

    def reason_given(self, reason: str | None) -> bool: ...

    def may_leave_form(self) -> bool: ...

    def update_header(self) -> None: ...

    def update_title(self) -> None: ...

    def reload(self) -> None: ...

    def open_hand(self, hand_id: int) -> None: ...


class BlindVerify:
    """The window's blind second entry: which hand the form verifies, and its save."""

    def __init__(self, win: BlindHost) -> None:
        self.win = win
        #: the hand being verified blind (None: the form is a normal one)
        self.hand_id: int | None = None
        #: (title, differences) -> "first" | "second" | None; tests replace it
        self.resolve_differences: Callable[[str, Sequence[Any]], str | None] = \
            self._differences_dialog
        self.last_differences: list[Any] = []

    def _differences_dialog(self, title: str, differences: Sequence[Any]) -> str | None:
        parent = self.win if isinstance(self.win, QWidget) else None
        dlg = DifferencesDialog(title, differences, parent)
        return dlg.choice if self.win.run_dialog(dlg) else None

    def verify_blind(self) -> bool:
        """Hand → Verify blind…: the saved hand's form, emptied; its version is hidden."""
        win = self.win
        ctx = win.context
        if ctx is None or ctx[3] is None:
            win.message(tr("no_hand"))
            return False
        if not win.may_leave_form():
            return False
        h = win.desk.hand(ctx[3])
        if h.void:
            win.message(tr("verify_void"))
            return False
        win.shown = None
        self.hand_id = h.id
        win.entry.load(win.desk.blind_form(h), "", "")
        win.update_header()
        win.update_title()
        win.tabs.setCurrentWidget(win.entry)
        win.entry.focus_seat(0)
        return True

    def save(self) -> bool:
        """Save in a blind form: compare; verify, or ask the head referee to resolve."""
        win, hid = self.win, self.hand_id
        assert hid is not None
        d = win.desk
        try:
            res = d.verify_blind(hid, win.entry.form)
        except ValueError as e:
            win.message(tr("cannot_save", msg=exception_text(e)))
            return False
        title = win.entry.header.text()
        if res.verified:
            self._leave(hid)
            win.message(tr("verified_blind", title=title), error=False)
            return True
        self.last_differences = list(res.differences)
        choice = self.resolve_differences(title, res.differences)
        if choice is None:
            return False  # back to the blind form: the slip is looked at again
        head = d.head_referee
        signer = None
        if head and d.referee != head:  # the head referee resolves, and signs
            signer = win.ask_text(tr("head_sign_title"), tr("verify_head_prompt", head=head))
            if not win.reason_given(signer):
                return False
            signer = signer.strip()
        reason = None
        if choice != "first":
            reason = win.ask_reason(tr("amend_title"), tr("verify_take_second"),
                                    tr("verify_differ", title=title, n=len(res.differences)))
            if not win.reason_given(reason):
                return False
        try:
            _, refused = d.resolve_blind(hid, win.entry.form, reason, signer)
        except ValueError as e:
            win.message(tr("cannot_save", msg=exception_text(e)))
            return False
        self._leave(hid)
        if refused is not None:  # the second entry is saved; another referee verifies it
            win.message(tr("resolved_not_verified", title=title, why=exception_text(refused)))
            return True
        win.message(tr("verified_resolved", title=title), error=False)
        return True

    def _leave(self, hid: int) -> None:
        self.hand_id = None
        self.win.entry.undo_stack.setClean()
        self.win.reload()
        self.win.open_hand(hid)
