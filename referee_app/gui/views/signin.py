"""Referees' PIN forms: signing in (at start and after the idle lock), the head referee's PIN
for one head action, registering a referee, and the head referee's new PIN for a tournament
imported from a bundle. Layout only: the PIN is checked by the
store (``Tournament.referees.sign_in``), never here."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr
from .keyboard import cannot_be_undone


def _pin_field(name: str) -> QLineEdit:
    f = QLineEdit()
    f.setObjectName(name)
    f.setEchoMode(QLineEdit.EchoMode.Password)
    f.setMaxLength(64)
    return f


def _buttons(dlg: QDialog, ok: str) -> QDialogButtonBox:
    b = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                         | QDialogButtonBox.StandardButton.Cancel)
    b.button(QDialogButtonBox.StandardButton.Ok).setText(ok)
    b.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
    b.accepted.connect(dlg.accept)
    b.rejected.connect(dlg.reject)
    return b


class PinDialog(QDialog):
    """A referee's name (one of ``names``) and PIN."""

    def __init__(self, title: str, prompt: str, names: Sequence[str], default: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pin_dialog")
        self.setWindowTitle(title)
        self.prompt = QLabel(prompt)
        self.prompt.setWordWrap(True)
        self.name = QComboBox()
        self.name.setObjectName("pin_name")
        # a name is picked from the registered referees, never typed: a PIN typed at once
        # cannot land in the name (and be shown back as "no referee named '4821'");
        # only a desk that cannot list its referees takes a typed name
        self.name.setEditable(not names)
        self.name.addItems(list(names))
        self.name.setCurrentIndex(self.name.findText(default) if default in names
                                  else 0 if len(names) == 1 else -1)
        self.pin = _pin_field("pin_field")
        form = QFormLayout()
        form.addRow(tr("pin_referee_label"), self.name)
        form.addRow(tr("pin_label"), self.pin)
        for w in (self.name, self.pin):
            label = form.labelForField(w)
            if isinstance(label, QLabel):
                label.setBuddy(w)
        lay = QVBoxLayout(self)
        lay.addWidget(self.prompt)
        lay.addLayout(form)
        lay.addWidget(_buttons(self, tr("Sign in")))
        # the PIN as soon as the name is set; the name first when it is not
        (self.pin if self.name.currentText() else self.name).setFocus()

    def answer(self) -> tuple[str, str]:
        return self.name.currentText().strip(), self.pin.text()


class AddRefereeDialog(QDialog):
    """File → Add referee…: name, the new referee's PIN twice, head referee or not."""

    def __init__(self, first: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("add_referee_dialog")
        self.setWindowTitle(tr("Add referee…"))
        self.note = QLabel(tr("first_referee_note") if first else tr("add_referee_note"))
        self.note.setWordWrap(True)
        self.name = QLineEdit()
        self.name.setObjectName("referee_name")
        self.pin = _pin_field("new_pin")
        self.pin2 = _pin_field("new_pin_again")
        self.head = QCheckBox(tr("Head referee"))
        self.head.setObjectName("referee_head")
        if first:  # the first referee must be a head referee (only they can add the others)
            self.head.setChecked(True)
            self.head.setEnabled(False)
        form = QFormLayout()
        form.addRow(tr("Name"), self.name)
        form.addRow(tr("PIN"), self.pin)
        form.addRow(tr("PIN again"), self.pin2)
        form.addRow("", self.head)
        buttons = _buttons(self, tr("Add referee"))
        lay = QVBoxLayout(self)
        lay.addWidget(self.note)
        lay.addLayout(form)
        if first:  # from now on every change needs a PIN, and the last head referee stays
            lay.addWidget(cannot_be_undone(buttons, tr("Add referee"), "A"))
        lay.addWidget(buttons)

    def values(self) -> dict[str, object]:
        return {"name": self.name.text().strip(), "pin": self.pin.text(),
                "pin2": self.pin2.text(), "head": self.head.isChecked()}


class NewPinDialog(QDialog):
    """File → Import bundle…, a tournament with referees: no PIN travels in a bundle, so
    its head referee gives a new one for this desk (twice); ``problem``: what was wrong with
    the last answer."""

    def __init__(self, name: str, problem: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("new_pin_dialog")
        self.setWindowTitle(tr("import_head_pin_title"))
        self.note = QLabel(tr("import_head_pin_note", name=name))
        self.note.setWordWrap(True)
        self.problem = QLabel(problem)
        self.problem.setObjectName("new_pin_problem")
        self.problem.setStyleSheet("color: #b3261e")  # the form's error colour
        self.problem.setWordWrap(True)
        self.problem.setVisible(bool(problem))
        self.pin = _pin_field("new_pin")
        self.pin2 = _pin_field("new_pin_again")
        form = QFormLayout()
        form.addRow(tr("PIN"), self.pin)
        form.addRow(tr("PIN again"), self.pin2)
        lay = QVBoxLayout(self)
        lay.addWidget(self.note)
        lay.addWidget(self.problem)
        lay.addLayout(form)
        lay.addWidget(_buttons(self, tr("import_head_pin_ok")))
        self.pin.setFocus()

    def answer(self) -> tuple[str, str]:
        return self.pin.text(), self.pin2.text()


class SetPinDialog(QDialog):
    """File → Set referee PIN…: a referee (one of ``names``) and their new PIN, twice."""

    def __init__(self, names: Sequence[str], default: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("set_pin_dialog")
        self.setWindowTitle(tr("Set referee PIN…"))
        self.note = QLabel(tr("set_pin_note"))
        self.note.setWordWrap(True)
        self.name = QComboBox()
        self.name.setObjectName("set_pin_name")
        self.name.addItems(list(names))
        self.name.setCurrentIndex(self.name.findText(default) if default in names else -1)
        self.pin = _pin_field("new_pin")
        self.pin2 = _pin_field("new_pin_again")
        form = QFormLayout()
        form.addRow(tr("pin_referee_label"), self.name)
        form.addRow(tr("PIN"), self.pin)
        form.addRow(tr("PIN again"), self.pin2)
        lay = QVBoxLayout(self)
        lay.addWidget(self.note)
        lay.addLayout(form)
        lay.addWidget(_buttons(self, tr("Set PIN")))
        (self.pin if self.name.currentText() else self.name).setFocus()

    def values(self) -> tuple[str, str, str]:
        return self.name.currentText().strip(), self.pin.text(), self.pin2.text()
