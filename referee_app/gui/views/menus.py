"""The main window's actions, menus, toolbar and their texts (``MainWindow.menus``).

Kept apart from the window's behaviour so a reader finds "which key does what" in one
place; every action is a one-liner over a method of the window or of one of its parts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QActionGroup, QKeySequence
from PySide6.QtWidgets import QComboBox, QToolBar, QWidget

from ..i18n import LANG, tr
from .blind import BlindVerify
from .desk_projector import DeskProjector
from .event_admin import EventAdmin
from .keyboard import plain, with_mnemonic
from .report_menu import ReportHost, ReportMenu
from .session import DeskSession


class MenusHost(ReportHost, Protocol):
    """What the menus call on their window (the main window), beyond what its Reports menu
    reads (:class:`~.report_menu.ReportHost`): a protocol, so this module does not import
    the window that holds it."""

    jump_bar: Any
    round_clock: Any
    view_cycle: Any

    def save(self) -> bool: ...

    def next_hand(self) -> None: ...

    def show_history(self) -> Any: ...

    def show_penalties(self) -> Any: ...

    def verify_hand(self) -> bool: ...

    def void_hand(self) -> bool: ...

    def restore_hand(self) -> bool: ...

    def open_database(self) -> bool: ...

    def close(self) -> bool: ...

    def addToolBar(self, toolbar: QToolBar) -> None: ...


class WindowMenus:
    """Builds the ``act_*`` actions on ``win``, the menu bar and the toolbar; each action
    calls the window or the part (``session``, ``admin``, ``blind``, ``projector``) that
    does the work.
    ``retranslate`` renames them."""

    def __init__(self, win: MenusHost, session: DeskSession, admin: EventAdmin,
                 blind: BlindVerify, projector: DeskProjector) -> None:
        self.win = win
        parent = win if isinstance(win, QWidget) else None

        def act(shortcut: Any, fn: Callable[[], Any], name: str) -> QAction:
            a = QAction(parent)
            a.setObjectName(name)
            if shortcut is not None:
                a.setShortcut(QKeySequence(shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            a.triggered.connect(lambda _checked=False: fn())
            win.addAction(a)
            return a

        self.act_save = act(QKeySequence.StandardKey.Save, win.save, "act_save")
        self.act_next = act(QKeySequence.StandardKey.New, win.next_hand, "act_next")
        # plain actions with fixed texts (the stack's own actions rename themselves per
        # command, which made the toolbar jump around)
        stack = win.entry.undo_stack
        self.act_undo = act(QKeySequence.StandardKey.Undo, stack.undo, "act_undo")
        self.act_redo = act(None, stack.redo, "act_redo")
        self.act_undo.setEnabled(False)
        self.act_redo.setEnabled(False)
        stack.canUndoChanged.connect(self.act_undo.setEnabled)
        stack.canRedoChanged.connect(self.act_redo.setEnabled)
        redo = [QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")]
        std = QKeySequence(QKeySequence.StandardKey.Redo)
        self.act_redo.setShortcuts(redo + ([std] if std not in redo and not std.isEmpty() else []))
        self.act_history = act("Ctrl+H", win.show_history, "act_history")
        # Ctrl+P is the platform's Print: it opens the report preview (Reports menu)
        self.act_penalties = act("Ctrl+Shift+P", win.show_penalties, "act_penalties")
        self.act_start_round = act(None, win.round_clock.start, "act_start_round")
        self.act_verify = act("Ctrl+Shift+V", win.verify_hand, "act_verify")
        self.act_void = act("Ctrl+Shift+X", win.void_hand, "act_void")
        self.act_restore = act("Ctrl+Shift+R", win.restore_hand, "act_restore")
        self.act_add_referee = act(None, session.add_referee, "act_add_referee")
        self.act_set_pin = act(None, session.set_pin, "act_set_pin")
        self.act_sign_in = act("Ctrl+Shift+I", session.sign_in, "act_sign_in")
        self.act_lock = act("Ctrl+L", session.lock, "act_lock")
        self.act_verify_blind = act("Ctrl+Shift+B", blind.verify_blind, "act_verify_blind")
        self.act_goto = act("Ctrl+G", lambda: win.jump_bar.open("goto"), "act_goto")
        self.act_find = act(QKeySequence.StandardKey.Find, lambda: win.jump_bar.open("find"),
                            "act_find")
        # Ctrl+Tab from anywhere, a table's cell or a text box included (issue 25)
        self.act_next_view = act("Ctrl+Tab", lambda: win.view_cycle.step(1), "act_next_view")
        self.act_next_view.setShortcuts([QKeySequence("Ctrl+Tab"), QKeySequence("Ctrl+PgDown")])
        self.act_prev_view = act(None, lambda: win.view_cycle.step(-1), "act_prev_view")
        self.act_prev_view.setShortcuts([QKeySequence("Ctrl+Shift+Tab"),
                                         QKeySequence("Ctrl+Shift+Backtab"),
                                         QKeySequence("Ctrl+PgUp")])
        self.act_projector = act("F11", projector.open, "act_projector")
        self.act_projector_settings = act(None, projector.settings,
                                          "act_projector_settings")
        self.act_quit = act("Ctrl+Q", win.close, "act_quit")  # the platform's Quit is
        # empty on some desktops (Windows, offscreen): Ctrl+Q everywhere
        self.act_open = act(QKeySequence.StandardKey.Open, win.open_database, "act_open")
        self.act_new_tournament = act(None, admin.new_tournament, "act_new_tournament")
        self.act_import_bundle = act(None, admin.import_bundle, "act_import_bundle")
        self.act_export_bundle = act(None, admin.export_bundle, "act_export_bundle")
        self.act_switch_lang = act("Ctrl+Shift+L", lambda: LANG.set(
            "en" if LANG.code == "zh" else "zh"), "act_switch_lang")
        self.act_checkin = act("Ctrl+Shift+K", admin.check_in, "act_checkin")
        self.act_add_player = act(None, admin.add_player, "act_add_player")
        self.act_edit_player = act(None, admin.edit_player, "act_edit_player")
        self.act_import_players = act(None, admin.import_players, "act_import_players")
        self.act_lang = QActionGroup(parent)
        self.act_zh = QAction("中文", parent, checkable=True)
        self.act_en = QAction("English", parent, checkable=True)
        for a, code in ((self.act_zh, "zh"), (self.act_en, "en")):
            self.act_lang.addAction(a)
            a.triggered.connect(lambda _c=False, code=code: LANG.set(code))
        (self.act_zh if LANG.code == "zh" else self.act_en).setChecked(True)

        mb = win.menuBar()
        self.menu_file = mb.addMenu("")
        self.menu_file.addAction(self.act_new_tournament)
        self.menu_file.addAction(self.act_open)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_import_bundle)
        self.menu_file.addAction(self.act_export_bundle)
        self.menu_file.addSeparator()
        for a in (self.act_sign_in, self.act_lock, self.act_add_referee, self.act_set_pin):
            self.menu_file.addAction(a)
        self.menu_file.addSeparator()
        self.menu_file.addAction(self.act_quit)
        self.menu_hand = mb.addMenu("")
        for a in (self.act_save, self.act_next, self.act_undo, self.act_redo, self.act_history,
                  self.act_verify, self.act_verify_blind, self.act_void, self.act_restore,
                  self.act_penalties):
            self.menu_hand.addAction(a)
        self.menu_hand.addSeparator()
        self.menu_hand.addAction(self.act_start_round)
        self.menu_players = mb.addMenu("")
        self.menu_players.setObjectName("menu_players")
        for a in (self.act_checkin, self.act_add_player, self.act_edit_player,
                  self.act_import_players):
            self.menu_players.addAction(a)
        self.menu_view = mb.addMenu("")
        for a in (self.act_goto, self.act_find, self.act_next_view, self.act_prev_view):
            self.menu_view.addAction(a)
        self.menu_view.addSeparator()
        self.menu_view.addAction(self.act_projector)
        self.menu_view.addAction(self.act_projector_settings)
        self.menu_lang = self.menu_view.addMenu("")
        self.menu_lang.addAction(self.act_zh)
        self.menu_lang.addAction(self.act_en)
        self.menu_lang.addSeparator()
        self.menu_lang.addAction(self.act_switch_lang)
        self.reports = ReportMenu(win, session)

        tb = QToolBar()
        tb.setObjectName("toolbar")
        tb.setMovable(False)
        win.addToolBar(tb)
        for a in (self.act_save, self.act_next, self.act_undo, self.act_redo, self.act_history,
                  self.act_penalties, self.act_projector, self.reports.act_preview):
            tb.addAction(a)
        spacer = QWidget()
        spacer.setSizePolicy(spacer.sizePolicy().horizontalPolicy().Expanding,
                             spacer.sizePolicy().verticalPolicy())
        tb.addWidget(spacer)
        self.lang_box = QComboBox()
        self.lang_box.setObjectName("lang_box")
        # not in the Tab chain: Down on it used to switch the whole interface language
        self.lang_box.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.lang_box.addItem("中文", "zh")
        self.lang_box.addItem("English", "en")
        self.lang_box.setCurrentIndex(self.lang_box.findData(LANG.code))
        self.lang_box.currentIndexChanged.connect(
            lambda _i: LANG.set(self.lang_box.currentData()))
        tb.addWidget(self.lang_box)

    def retranslate(self, *_args: object) -> None:
        """Texts in the current language, each with its underlined letter (the same in
        both languages: ``&Save hand`` / ``保存牌局(&S)``)."""
        for a, key, letter in (
                (self.act_save, "Save hand", "S"), (self.act_next, "Next hand", "N"),
                (self.act_undo, "Undo", "U"), (self.act_redo, "Redo", "R"),
                (self.act_history, "History…", "H"), (self.act_penalties, "Penalties…", "P"),
                (self.act_start_round, "Start round…", "O"),
                (self.act_verify, "Mark verified", "V"), (self.act_void, "Void hand…", "D"),
                (self.act_restore, "Restore hand…", "T"),
                (self.act_verify_blind, "Verify blind…", "B"),
                (self.act_new_tournament, "New tournament…", "N"),
                (self.act_open, "Open database…", "O"),
                (self.act_import_bundle, "Import bundle…", "I"),
                (self.act_export_bundle, "Export bundle…", "E"),
                (self.act_sign_in, "Sign in…", "S"), (self.act_lock, "Lock desk", "L"),
                (self.act_add_referee, "Add referee…", "A"),
                (self.act_set_pin, "Set referee PIN…", "P"), (self.act_quit, "Quit", "Q"),
                (self.act_goto, "Go to hand…", "G"), (self.act_find, "Find player…", "F"),
                (self.act_next_view, "Next view", "X"),
                (self.act_prev_view, "Previous view", "P"),
                (self.act_projector, "Projector window", "J"),
                (self.act_projector_settings, "proj_settings_act", "S"),
                (self.act_switch_lang, "switch_language", "W"),
                (self.act_checkin, "Check-in…", "C"), (self.act_add_player, "Add player…", "A"),
                (self.act_edit_player, "Edit player…", "E"),
                (self.act_import_players, "Import players CSV…", "I")):
            a.setText(with_mnemonic(tr(key), letter))
            a.setIconText(plain(tr(key)).rstrip("…"))  # the toolbar shows no "(S)"
        self.act_zh.setText("中文(&Z)")
        self.act_en.setText("&English")
        self.menu_players.setTitle(tr("players_menu"))
        self.menu_file.setTitle(tr("File"))
        self.menu_hand.setTitle(tr("Hand"))
        self.menu_view.setTitle(tr("View"))
        self.menu_lang.setTitle(with_mnemonic(tr("Language"), "L"))
        (self.act_zh if LANG.code == "zh" else self.act_en).setChecked(True)
        self.lang_box.blockSignals(True)
        self.lang_box.setCurrentIndex(self.lang_box.findData(LANG.code))
        self.lang_box.blockSignals(False)
