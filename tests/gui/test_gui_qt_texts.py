"""Issue 22: Qt's own words (standard buttons, file dialogs) follow the desk's language —
the qtbase translations PySide6 ships, plus the catalogue's few texts qtbase lacks."""

from __future__ import annotations

import re

from PySide6.QtWidgets import QDialogButtonBox, QFileDialog, QLabel

from referee_app.gui.i18n import LANG, QT_TRANSLATION

_OK_CANCEL = QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel


def _buttons(box: QDialogButtonBox) -> list[str]:
    return [box.button(b).text() for b in (QDialogButtonBox.StandardButton.Ok,
                                           QDialogButtonBox.StandardButton.Cancel)]


def test_standard_buttons_say_queding_quxiao_in_chinese(qtbot, qapp) -> None:
    LANG.set("en")
    try:
        box = QDialogButtonBox(_OK_CANCEL)
        qtbot.addWidget(box)
        assert _buttons(box) == ["OK", "Cancel"]
        LANG.set("zh")
        assert QT_TRANSLATION.translator is not None
        assert _buttons(QDialogButtonBox(_OK_CANCEL)) == ["确定", "取消"]
        qapp.processEvents()  # Qt retranslates open widgets on its LanguageChange event
        assert _buttons(box) == ["确定", "取消"]
        LANG.set("en")
        qapp.processEvents()
        assert _buttons(box) == ["OK", "Cancel"]
        assert QT_TRANSLATION.translator is None
    finally:
        LANG.set("zh")


def test_file_dialog_labels_are_chinese(qtbot) -> None:
    """Qt 6's "&Look in:" and "Files of &type:" are not in qtbase_zh_CN: the catalogue's
    ``qt.QFileDialog.*`` entries fill them, every other text still comes from qtbase."""
    LANG.set("zh")
    dlg = QFileDialog(None, "x")
    dlg.setOption(QFileDialog.Option.DontUseNativeDialog)
    qtbot.addWidget(dlg)
    labels = [w.text() for w in dlg.findChildren(QLabel) if w.text()]
    assert "查找范围(&L)：" in labels and "文件名称(&N)：" in labels  # ours, qtbase's
    assert [t for t in labels if re.search("[A-Za-z]{3,}", t)] == []
