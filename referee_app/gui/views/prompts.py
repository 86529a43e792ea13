"""Questions the desk asks: a destructive choice (Cancel is the default, so Enter never
throws work away) and a required reason (one line, or multi-line with a summary of what it
changes; Ctrl+Enter is OK in both)."""

from __future__ import annotations

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


class ReasonDialog(QDialog):
    """A required reason under a summary of the change (may be ""). Multi-line (Enter
    starts a new line, Ctrl+Enter is OK) or one line (Enter is OK); the dialog says
    which. Esc cancels: the caller gets None and says nothing (only an empty reason given
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
        self.text: QPlainTextEdit | QLineEdit
        if multiline:
            self.text = QPlainTextEdit()
            self.text.setTabChangesFocus(True)
            self.text.setMinimumHeight(80)
        else:
            self.text = QLineEdit()
        self.text.setObjectName("reason_text")
        p.setBuddy(self.text)
        lay.addWidget(self.text)
        self.keys = QLabel(tr("reason_keys_multi" if multiline else "reason_keys_line"))
        self.keys.setObjectName("reason_keys")
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
        self.resize(520, (260 if summary else 200) if multiline else 0)

    def reason(self) -> str:
        t = self.text
        return (t.toPlainText() if isinstance(t, QPlainTextEdit) else t.text()).strip()
