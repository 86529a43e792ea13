"""The desk's keyboard rules, kept in one place so every view and dialog follows them
(issue 25: a referee drives the desk for hours without a mouse).

- Tab and Shift+Tab leave every list and table; the arrow keys move inside it (a
  ``QTableView`` takes Tab to walk its cells by default: 400 Tabs never left a table).
- In a table or list nothing is current until the referee moves: the first Down selects
  row 1 (Qt made the first cell current on focus, so the first Down selected row 2).
- Ctrl+Tab / Ctrl+Shift+Tab switch the window's views from anywhere, the focus going
  where it was last on that view.
- Ctrl+Enter submits a dialog whose text box takes Enter for a new line.
- A dialog whose OK cannot be undone has Cancel as its default button: Enter never does
  it, its underlined letter (Alt+letter) or a click does.
- A menu action's underlined letter is the same in both languages (``文件(&F)``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPushButton,
    QTabWidget,
    QWidget,
)
from shiboken6 import isValid

from ..i18n import tr

#: Ctrl+Enter on the main keyboard and on the keypad
SUBMIT_KEYS = ("Ctrl+Return", "Ctrl+Enter")


def leave_on_tab(root: QWidget) -> None:
    """Every list and table in ``root`` (and ``root`` itself): Tab leaves it, and the first
    Down selects its first row."""
    views = root.findChildren(QAbstractItemView)
    if isinstance(root, QAbstractItemView):
        views.append(root)
    for v in views:
        v.setTabKeyNavigation(False)
        v.installEventFilter(_FIRST_DOWN)


def start_above_rows(view: QAbstractItemView) -> None:
    """No current row until the referee moves: Qt keeps an explicitly empty current index
    when the view takes the focus, so Down goes to row 1."""
    view.setCurrentIndex(QModelIndex())


class _FirstDown(QObject):
    """On taking the focus with nothing selected, a view has no current row (Qt would make
    the first cell current without selecting it, and the first Down went to row 2)."""

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:
        if e.type() == QEvent.Type.FocusIn and isinstance(obj, QAbstractItemView):
            sel = obj.selectionModel()
            if sel is not None and not sel.hasSelection():
                start_above_rows(obj)
        return False


_FIRST_DOWN = _FirstDown()


def submit_on_ctrl_enter(dialog: QDialog, submit: Callable[[], object] | None = None) -> None:
    """Ctrl+Enter runs ``submit`` (default: the dialog's accept) from any of its fields."""
    for seq in SUBMIT_KEYS:
        sc = QShortcut(QKeySequence(seq), dialog)
        sc.setContext(Qt.ShortcutContext.WindowShortcut)
        sc.activated.connect(submit or dialog.accept)


def cannot_be_undone(buttons: QDialogButtonBox, ok: str, letter: str) -> QLabel:
    """An OK that cannot be undone: it says what it does (``ok``, its Alt+``letter``
    underlined), Cancel is the default button (Enter cancels) and no other button becomes
    the default by taking the focus. Returns the line saying so, to put above the buttons."""
    buttons.button(QDialogButtonBox.StandardButton.Ok).setText(with_mnemonic(ok, letter))
    cancel = buttons.button(QDialogButtonBox.StandardButton.Cancel)
    for b in buttons.buttons():
        if isinstance(b, QPushButton):
            b.setAutoDefault(False)
            b.setDefault(b is cancel)
    note = QLabel(tr("irreversible_keys", shortcut=f"Alt+{letter.upper()}"))
    note.setObjectName("irreversible_note")
    note.setWordWrap(True)
    note.setStyleSheet("color: #666666")
    return note


_MNEMONIC = re.compile(r"&(?!&)")
_CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def plain(text: str) -> str:
    """A text without its mnemonic marks (``保存(&S)…`` → ``保存…``), for window titles."""
    text = re.sub(r"\(&[^&)]\)", "", text)
    return _MNEMONIC.sub("", text).replace("&&", "&")


def with_mnemonic(text: str, letter: str) -> str:
    """``text`` with ``letter`` underlined: in place when the text's Latin start has that
    letter (``&Save hand``), else after it as ``(&S)`` before a closing "…"
    (``作废本局(&D)…``). A text that already has a mnemonic keeps it."""
    if not letter or _MNEMONIC.search(text):
        return text
    cjk = _CJK.search(text)
    latin = text[:cjk.start()] if cjk else text  # "Player statement — 李伟": its Latin part
    i = latin.lower().find(letter.lower())
    if i >= 0:
        return text[:i] + "&" + text[i:]
    tail = "…" if text.endswith("…") else ""
    body = text[:-1] if tail else text
    return f"{body}(&{letter.upper()}){tail}"


def mnemonic_of(text: str) -> str:
    """The underlined letter of ``text`` (upper case), or ""."""
    m = _MNEMONIC.search(text)
    return text[m.end()].upper() if m and m.end() < len(text) else ""


class ViewCycle(QObject):
    """Ctrl+Tab / Ctrl+Shift+Tab on a window's tabs: the next or previous view, the focus
    where it was last on that view, else on the view's ``home`` widget (by default its
    ``table``)."""

    def __init__(self, tabs: QTabWidget, home: Mapping[QWidget, Callable[[], QWidget | None]]
                 ) -> None:
        super().__init__(tabs)
        self.tabs = tabs
        self.home = dict(home)
        self._last: dict[int, QWidget] = {}

    def step(self, n: int) -> None:
        tabs = self.tabs
        if tabs.count() == 0:
            return
        old = tabs.currentWidget()
        fw = QApplication.focusWidget()
        if old is not None and fw is not None and old.isAncestorOf(fw):
            self._last[tabs.currentIndex()] = fw
        i = (tabs.currentIndex() + n) % tabs.count()
        tabs.setCurrentIndex(i)
        page = tabs.widget(i)
        target = self._last.get(i)
        if target is None or not isValid(target) or not target.isVisible() \
                or not target.isEnabled():
            make = self.home.get(page)
            target = make() if make is not None else getattr(page, "table", None)
        if target is None or not target.isVisible():
            target = page
        target.setFocus(Qt.FocusReason.TabFocusReason)

