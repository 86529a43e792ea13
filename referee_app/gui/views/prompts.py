"""Questions the desk asks: a destructive choice (Cancel is the default, so Enter never
throws work away) and a required reason (one line, or a wrapping box under a summary of
what it changes; Enter and Ctrl+Enter are OK in both)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr
from .keyboard import plain, submit_on_ctrl_enter


def destructive_box(parent: QWidget | None, text: str, action: str) -> QMessageBox:
    """The question box: ``action`` (e.g. "Discard changes") and Cancel, Cancel default."""
    box = QMessageBox(QMessageBox.Icon.Warning, tr("app_title"), text,
                      QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName("destructive_prompt")
    go = box.addButton(action, QMessageBox.ButtonRole.DestructiveRole)
    go.setObjectName("prompt_go")
    cancel = box.addButton(tr("Cancel"), QMessageBox.ButtonRole.RejectRole)
    cancel.setObjectName("prompt_cancel")
    box.setDefaultButton(cancel)
    box.setEscapeButton(cancel)
    return box


def confirm_destructive(parent: QWidget | None, text: str, action: str) -> bool:
    box = destructive_box(parent, text, action)
    box.exec()
    return box.clickedButton() is not None and box.clickedButton().objectName() == "prompt_go"


class WrappingLine(QPlainTextEdit):
    """A reason is stored as one line (the store refuses a line break): a box that wraps a
    long reason for reading, where Enter is OK, not a new line."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setMinimumHeight(60)

    def keyPressEvent(self, e: QKeyEvent) -> None:
        if e.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            e.ignore()  # to the dialog: Enter is its default button, OK
            return
        super().keyPressEvent(e)


class ReasonDialog(QDialog):
    """A required reason under a summary of the change (may be ""), in one line or in a
    box that wraps it. Enter and Ctrl+Enter are OK, Esc cancels (the dialog says so); a
    cancelled prompt gives None and the caller says nothing (only an empty reason given
    with OK is refused)."""

    def __init__(self, title: str, prompt: str, summary: str = "",
                 parent: QWidget | None = None, multiline: bool = True) -> None:
        super().__init__(parent)
        self.setObjectName("reason_dialog")
        self.setWindowTitle(plain(title))
        lay = QVBoxLayout(self)
        if summary:
            s = QLabel(summary)
            s.setObjectName("reason_summary")
            s.setWordWrap(True)
            s.setStyleSheet("background: #fff7d6; padding: 6px;")
            lay.addWidget(s)
        p = QLabel(prompt)
        p.setWordWrap(True)
        lay.addWidget(p)
        self.text: QPlainTextEdit | QLineEdit = WrappingLine() if multiline else QLineEdit()
        self.text.setObjectName("reason_text")
        p.setBuddy(self.text)
        lay.addWidget(self.text)
        self.keys = QLabel(tr("reason_keys"))
        self.keys.setObjectName("reason_keys")
        self.keys.setWordWrap(True)
        self.keys.setStyleSheet("color: #666666")
        lay.addWidget(self.keys)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        submit_on_ctrl_enter(self)
        self.text.setFocus()
        self.resize(520, (240 if summary else 180) if multiline else 0)

    def reason(self) -> str:
        """The reason as one line (a pasted line break becomes a space)."""
        t = self.text
        return " ".join((t.toPlainText() if isinstance(t, QPlainTextEdit) else t.text()).split())
