"""The head referee's override of a hand that breaks a rule: the reason and the chips the
ruling counts for every seat, which must sum to 0 (an override without them would count 0
for everyone). OK stays off until both are given; Ctrl+Enter submits."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from referee_app.storage.checks import MAX_CHIPS

from ..i18n import seat_name, tr

#: an override as the head referee gives it: the reason and every seat's chips
Ruling = tuple[str, dict[str, int]]


def before_save(win: Any, breaks_rules: bool, where: tuple[int, int, int, int | None]
                ) -> tuple[bool, str | None, dict[str, int] | None, str | None]:
    """What the desk asks before saving a hand at ``where`` (round, table, number, id):
    for a new hand whose dealer is not the one the rules suggest, save anyway?; for a
    record that breaks the rules, the head referee's override (reason and every seat's
    chips) and, at a desk without PINs, the head referee's name. ``(go on, override
    reason, chips, signer)``; go on is False when the referee cancelled."""
    r, t, n, hid = where
    odd = win.desk.dealer_warning(win.entry.form, r, t, n) if hid is None else None
    if odd and not win.confirm_dealer(tr("dealer_warning", dealer=seat_name(odd[0]),
                                         suggested=seat_name(odd[1]))):
        win.message(tr("dealer_not_saved"), error=False)
        return False, None, None, None
    if not breaks_rules:
        return True, None, None, None
    ruling = win.ask_override(win.entry.form.players())
    if ruling is None or not ruling[0].strip():
        win.message(tr("override_not_saved"))
        return False, None, None, None
    ok, signer = win.session.head_by_name()
    return ok, ruling[0], ruling[1], signer


def ask_override(win: Any, players: Mapping[str, str]) -> Ruling | None:
    """The dialog over ``win`` (run by its ``run_dialog``); None when cancelled."""
    dlg = OverrideDialog(players, win)
    return dlg.ruling() if win.run_dialog(dlg) else None


class OverrideDialog(QDialog):
    """Reason and per-seat chips; :meth:`ruling` gives ``(reason, {seat: chips})``."""

    def __init__(self, players: Mapping[str, str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("override_dialog")
        self.setWindowTitle(tr("override_title"))
        self.setMinimumWidth(480)
        lay = QVBoxLayout(self)
        prompt = QLabel(tr("override_totals_prompt"))
        prompt.setWordWrap(True)
        lay.addWidget(prompt)
        form = QFormLayout()
        self.reason = QLineEdit()
        self.reason.setObjectName("override_reason")
        form.addRow(tr("override_reason_label"), self.reason)
        self.chips: dict[str, QSpinBox] = {}
        for seat, player in players.items():
            box = QSpinBox()
            box.setObjectName(f"override_chips_{seat}")
            box.setRange(-MAX_CHIPS, MAX_CHIPS)
            box.setSuffix(" " + tr("chips_unit"))
            box.valueChanged.connect(self._check)
            self.chips[seat] = box
            form.addRow(f"{seat_name(seat)} {player}".strip(), box)
        lay.addLayout(form)
        self.sum_label = QLabel()
        self.sum_label.setObjectName("override_sum")
        lay.addWidget(self.sum_label)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok.setText(tr("OK") + " (Ctrl+Enter)")
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay.addWidget(self.buttons)
        for seq in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(seq), self).activated.connect(self._submit)
        self.reason.textChanged.connect(self._check)
        self._check()

    def total(self) -> int:
        return sum(b.value() for b in self.chips.values())

    def _check(self, *_args: object) -> None:
        total = self.total()
        self.sum_label.setText(tr("override_sum", n=f"{total:+d}") if total
                               else tr("override_sum_ok"))
        self.sum_label.setStyleSheet("color: #b3261e" if total else "color: #1b7a3a")
        self.ok.setEnabled(bool(self.reason.text().strip()) and total == 0)

    def _submit(self) -> None:
        if self.ok.isEnabled():
            self.accept()

    def ruling(self) -> Ruling:
        return self.reason.text().strip(), {s: b.value() for s, b in self.chips.items()}
