"""Questions the desk asks: a destructive choice (Cancel is the default, so Enter never
throws work away) and a required reason (multi-line, with a summary of what it changes)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from ..i18n import tr


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
    """A required reason in a multi-line box, under a summary of the change (may be "")."""

    def __init__(self, title: str, prompt: str, summary: str = "",
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("reason_dialog")
        self.setWindowTitle(title)
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
        self.text = QPlainTextEdit()
        self.text.setObjectName("reason_text")
        self.text.setTabChangesFocus(True)
        self.text.setMinimumHeight(80)
        lay.addWidget(self.text)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay.addWidget(buttons)
        self.resize(520, 260 if summary else 200)

    def reason(self) -> str:
        return self.text.toPlainText().strip()
