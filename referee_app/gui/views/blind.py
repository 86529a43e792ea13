"""Double-entry (blind) verification in the window (a mixin of MainWindow): a second
referee opens a saved hand blind — an empty form, the saved version hidden — keys the slip
again and saves; identical entries verify the hand, different ones are listed side by side
for the head referee to resolve (keep the first entry, or take the second with a reason).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtWidgets import (
    QLabel,
    QVBoxLayout,
    QWidget,
)

from ..controllers.entry import EntryForm
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


class BlindVerify:
    """Mixed into MainWindow (uses its desk, entry, context, hooks and messages)."""

    #: the hand being verified blind (None: the form is a normal one)
    blind: int | None = None

    def _init_blind(self) -> None:
        self.blind = None
        #: (title, differences) -> "first" | "second" | None; tests replace it
        self.resolve_differences = self._differences_dialog
        self.last_differences: list[Any] = []

    def _differences_dialog(self, title: str, differences: Sequence[Any]) -> str | None:
        dlg = DifferencesDialog(title, differences, self)  # type: ignore[arg-type]
        return dlg.choice if self.run_dialog(dlg) else None  # type: ignore[attr-defined]

    def verify_blind(self) -> bool:
        """Hand → Verify blind…: the saved hand's form, emptied; its version is hidden."""
        ctx = self.context  # type: ignore[attr-defined]
        if ctx is None or ctx[3] is None:
            self.message(tr("no_hand"))  # type: ignore[attr-defined]
            return False
        if not self.may_leave_form():  # type: ignore[attr-defined]
            return False
        h = self.desk.hand(ctx[3])  # type: ignore[attr-defined]
        if h.void:
            self.message(tr("verify_void"))  # type: ignore[attr-defined]
            return False
        form = EntryForm.blank(self.desk.rules(),  # type: ignore[attr-defined]
                               dict(h.players), None,
                               {"round": h.round, "table": h.table, "hand_no": h.hand_no})
        self.shown = None
        self.blind = h.id
        self.entry.load(form, "", "")  # type: ignore[attr-defined]
        self.update_header()  # type: ignore[attr-defined]
        self._update_title()  # type: ignore[attr-defined]
        self.tabs.setCurrentWidget(self.entry)  # type: ignore[attr-defined]
        self.entry.focus_seat(0)  # type: ignore[attr-defined]
        return True

    def _save_blind(self) -> bool:
        """Save in a blind form: compare; verify, or ask the head referee to resolve."""
        hid = self.blind
        assert hid is not None
        d = self.desk  # type: ignore[attr-defined]
        try:
            res = d.verify_blind(hid, self.entry.form)  # type: ignore[attr-defined]
        except ValueError as e:
            self.message(tr("cannot_save", msg=exception_text(e)))  # type: ignore[attr-defined]
            return False
        title = self.entry.header.text()  # type: ignore[attr-defined]
        if res.verified:
            self._leave_blind(hid)
            self.message(tr("verified_blind", title=title), error=False)  # type: ignore[attr-defined]
            return True
        self.last_differences = list(res.differences)
        choice = self.resolve_differences(title, res.differences)
        if choice is None:
            return False  # back to the blind form: the slip is looked at again
        head = d.head_referee
        signer = None
        if head and d.referee != head:  # the head referee resolves, and signs
            signer = self.ask_text(tr("head_sign_title"),  # type: ignore[attr-defined]
                                   tr("verify_head_prompt", head=head))
            if not signer or not signer.strip():
                self.message(tr("reason_required"))  # type: ignore[attr-defined]
                return False
            signer = signer.strip()
        try:
            if choice == "first":
                d.set_status(hid, "verified", referee=signer)
            else:
                reason = self.ask_reason(tr("amend_title"), tr("verify_take_second"),  # type: ignore[attr-defined]
                                         tr("verify_differ", title=title,
                                            n=len(res.differences)))
                if not reason or not reason.strip():
                    self.message(tr("reason_required"))  # type: ignore[attr-defined]
                    return False
                d.amend_hand(hid, self.entry.form, reason, referee=signer)
                d.set_status(hid, "verified", referee=signer)
        except ValueError as e:
            self.message(tr("cannot_save", msg=exception_text(e)))  # type: ignore[attr-defined]
            return False
        self._leave_blind(hid)
        self.message(tr("verified_resolved", title=title), error=False)  # type: ignore[attr-defined]
        return True

    def _leave_blind(self, hid: int) -> None:
        self.blind = None
        self.entry.undo_stack.setClean()  # type: ignore[attr-defined]
        self.reload()  # type: ignore[attr-defined]
        self.open_hand(hid)  # type: ignore[attr-defined]
