"""The desk's session with the trusted record (``MainWindow.session``).

- The record's digest and entry count in the status bar, kept current after every write
  (this desk's or another process's), as every report's footer prints them.
- In a tournament with referees: signing in with name and PIN at start, every change made
  as that referee; the idle lock (``session/lock_minutes``, default 10) that asks the PIN
  again; and the head referee's PIN for one head action (override, void, restore, amending
  a verified hand, penalties, settings, adding a referee) unless a head referee is signed
  in. A tournament without referees works on names as before.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, QSettings, QTimer
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QStatusBar, QWidget

from referee_app.storage.errors import AuthError

from ..i18n import LANG, tr
from ..messages import error_words, exception_text
from .record_log import digest_text
from .signin import AddRefereeDialog, PinDialog, SetPinDialog

#: minutes without a key or click before the desk locks (QSettings "session/lock_minutes")
DEFAULT_LOCK_MINUTES = 10
#: longest lock kept (a day): ``referee_app.gui.app.MAX_LOCK_MINUTES``, the CLI's limit (not
#: imported from there: gui.app loads the window, which loads this module)
MAX_LOCK_MINUTES = 24 * 60


def stored_lock_minutes(value: object) -> float:
    """The saved lock setting, or the default when it is not 0…a day (an older version kept
    ``--lock-minutes nan`` or 40000, which broke the idle timer at every start)."""
    try:
        minutes = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return DEFAULT_LOCK_MINUTES
    return minutes if 0 <= minutes <= MAX_LOCK_MINUTES else DEFAULT_LOCK_MINUTES


_ACTIVITY = (QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel)


def _auth_text(e: Exception) -> str:
    """A refused PIN in one line, without the field name ("wrong PIN for 李裁判 …")."""
    if not isinstance(e, AuthError) or not e.problem:
        return exception_text(e)
    return error_words(e)


class HeadCancelled(Exception):
    """The head referee's PIN was not given (or was wrong): the action is not made."""


class SessionHost(Protocol):
    """What the session uses of its window (the main window): a protocol, so this module
    does not import the window that holds it."""

    desk: Any
    run_dialog: Callable[[QDialog], bool]
    ask_text: Callable[[str, str], str | None]

    def statusBar(self) -> QStatusBar: ...

    def message(self, text: str, error: bool = True) -> None: ...


class DeskSession(QObject):
    """The window's sign-in, idle lock, head PIN and record digest. ``ask_pin(title,
    prompt, names, default)`` returns (name, PIN) or None; tests replace it, as they
    replace the window's other prompts."""

    def __init__(self, win: SessionHost) -> None:
        super().__init__(win if isinstance(win, QObject) else None)
        self.win = win
        #: the PIN forms' parent widget
        self.widget: QWidget | None = win if isinstance(win, QWidget) else None
        self.record_label = QLabel()
        self.record_label.setObjectName("record_digest")
        self.referee_label = QLabel()
        self.referee_label.setObjectName("referee_label")
        self.referee_label.setContentsMargins(0, 0, 16, 0)
        bar = win.statusBar()
        bar.addPermanentWidget(self.referee_label)
        bar.addPermanentWidget(self.record_label)
        self.ask_pin: Callable[[str, str, list[str], str], tuple[str, str] | None] = \
            self._pin_dialog
        self.lock_minutes = stored_lock_minutes(QSettings("RefereeDesk", "referee-app").value(
            "session/lock_minutes", DEFAULT_LOCK_MINUTES))
        self.locked = False
        self._idle = QTimer(self)
        self._idle.setSingleShot(True)
        self._idle.timeout.connect(self.lock)
        self._filtering = False
        LANG.changed.connect(self.retranslate)

    @property
    def desk(self) -> Any:
        """The window's desk at this moment (another file may have been opened)."""
        return self.win.desk

    # ------------------------------------------------------------------ the record's digest

    def update_record_digest(self) -> None:
        """Show the record's entry count, 12-digit digest and signing key (as every report's
        footer)."""
        try:
            n, short = self.desk.record_digest()
            key = self.desk.signing_key()
        except sqlite3.Error:  # the window's file is already closed (quitting)
            return
        except ValueError:  # a server that cannot be reached: the digest without the key
            key = ""
        self.record_label.setText(digest_text(n, short, key))
        self.record_label.setToolTip(tr("record_digest_tip"))

    def retranslate(self) -> None:
        self.update_record_digest()
        self.show_referee()

    def show_referee(self) -> None:
        try:
            who = self.desk.signed_in if self.desk.has_referees() else None
        except sqlite3.Error:
            return
        if self.locked:
            text = tr("desk_locked")
        elif who is None:
            text = tr("not_signed_in") if self.desk.has_referees() else ""
        else:
            text = tr("signed_in_head" if who.head else "signed_in", name=who.name)
        self.referee_label.setText(text)

    # ------------------------------------------------------------------ signing in

    def _pin_dialog(self, title: str, prompt: str, names: list[str],
                    default: str) -> tuple[str, str] | None:
        dlg = PinDialog(title, prompt, names, default, self.widget)
        return dlg.answer() if self.win.run_dialog(dlg) else None

    def start_session(self) -> bool:
        """At start (and on opening another file): a tournament with referees asks who is
        at the desk; without referees nothing is asked."""
        self.locked = False
        if not self.desk.has_referees():
            self._stop_idle()
            self.show_referee()
            return True
        return self.sign_in(tr("signin_title"), tr("signin_prompt"),
                            self.desk.referee)

    def sign_in(self, title: str | None = None, prompt: str | None = None,
                default: str = "") -> bool:
        """Ask name and PIN until the store accepts them or the referee cancels; a wrong
        PIN or a lock-out is shown as one translated line and asked again."""
        names = self.desk.referee_names()
        while True:
            got = self.ask_pin(title or tr("signin_title"), prompt or tr("signin_prompt"),
                               names, default)
            if got is None:
                self.show_referee()
                return False
            name, pin = got
            if not name or (names and name not in names):  # never said back: it may be a PIN
                self.win.message(tr("signin_pick_name"))
                default = ""
                continue
            try:
                self.desk.sign_in(name, pin)
            except (AuthError, ValueError) as e:
                self.win.message(_auth_text(e))
                default = name
                continue
            self.locked = False
            self._start_idle()
            self.show_referee()
            self.win.message(tr("signed_in", name=name), error=False)
            return True

    def lock(self) -> bool:
        """The idle lock: the referee is signed out and the PIN asked again (another
        referee may sign in instead)."""
        if not self.desk.has_referees():
            return True
        who = self.desk.signed_in
        name = who.name if who is not None else self.desk.referee
        self.desk.sign_out()
        self.locked = True
        self._stop_idle()
        self.show_referee()
        minutes = f"{self.lock_minutes:g}"
        return self.sign_in(tr("locked_title"), tr("locked_prompt", minutes=minutes), name)

    def _start_idle(self) -> None:
        if self.lock_minutes <= 0:
            return
        self._idle.setInterval(int(self.lock_minutes * 60_000))
        self._idle.start()
        app = QApplication.instance()
        if app is not None and not self._filtering:
            app.installEventFilter(self)
            self._filtering = True

    def _stop_idle(self) -> None:
        self._idle.stop()
        app = QApplication.instance()
        if app is not None and self._filtering:
            app.removeEventFilter(self)
            self._filtering = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Any key, click or scroll anywhere in the app restarts the idle clock."""
        if event.type() in _ACTIVITY and self._idle.isActive():
            self._idle.start()
        return False

    # ------------------------------------------------------------------ head actions

    def head_by_name(self) -> tuple[bool, str | None]:
        """A tournament without referees (no PINs): the head referee's name signs an
        override made at another referee's desk. (False, None) when none was given."""
        desk = self.desk
        head = desk.head_referee
        if desk.has_referees() or not head or desk.referee == head:
            return True, None
        name = self.win.ask_text(tr("head_sign_title"), tr("head_sign_prompt", head=head))
        if not self.win.reason_given(name):
            return False, None
        assert name is not None
        return True, name.strip()

    @contextlib.contextmanager
    def head_signature(self, what: str, needed: bool = True) -> Iterator[str | None]:
        """Around one head action: the head referee's name it is made as, after their PIN;
        None when no PIN is needed (no referees, not a head action, or a head referee is
        signed in). Raises :class:`HeadCancelled` (after saying why) if not given."""
        desk = self.desk
        who = desk.signed_in
        if not needed or not desk.has_referees() or (who is not None and who.head):
            yield None
            return
        heads = desk.referee_names(head=True)
        got = self.ask_pin(tr("head_pin_title"), tr("head_pin_prompt", what=tr(what)), heads,
                           heads[0] if len(heads) == 1 else "")
        if got is None:
            self.win.message(tr("head_cancelled", what=tr(what)))
            raise HeadCancelled(what)
        try:
            ctx = desk.as_head(*got)
            name = ctx.__enter__()
        except (AuthError, ValueError) as e:
            self.win.message(_auth_text(e))
            raise HeadCancelled(what) from None
        try:
            yield name
        finally:
            ctx.__exit__(None, None, None)

    def add_referee(self) -> bool:
        """File → Add referee…: the first one must be a head referee (and is then signed
        in); later ones need the head referee's PIN."""
        first = not self.desk.has_referees()
        dlg = AddRefereeDialog(first, self.widget)
        if not self.win.run_dialog(dlg):
            return False
        v = dlg.values()
        if v["pin"] != v["pin2"]:
            self.win.message(tr("pins_differ"))
            return False
        try:
            with self.head_signature("head_add_referee", needed=not first) as signer:
                r = self.desk.add_referee(str(v["name"]), str(v["pin"]), bool(v["head"]),
                                          signer)
        except HeadCancelled:
            return False
        except ValueError as e:
            self.win.message(tr("not_done", msg=exception_text(e)))
            return False
        if first:  # from now on every change needs a PIN: the new head referee is at the desk
            self.desk.sign_in(r.name, str(v["pin"]))
            self._start_idle()
        self.update_record_digest()
        self.show_referee()
        self.win.message(tr("referee_added", name=r.name), error=False)
        return True

    def set_pin(self) -> bool:
        """File → Set referee PIN…: a referee's new PIN on this desk — their own, a first one
        after an import (no sign-in needed), or anyone's with the head referee's PIN."""
        desk = self.desk
        if not desk.has_referees():
            self.win.message(tr("set_pin_no_referees"))
            return False
        who, missing = desk.signed_in, desk.referees_without_pin()
        default = missing[0] if missing and who is None else who.name if who else ""
        dlg = SetPinDialog(desk.referee_names(), default, self.widget)
        if not self.win.run_dialog(dlg):
            return False
        name, pin, again = dlg.values()
        if pin != again:
            self.win.message(tr("pins_differ"))
            return False
        try:
            with self.head_signature("head_set_pin", needed=desk.pin_needs_head(name)):
                first = desk.set_pin(name, pin)
        except HeadCancelled:
            return False
        except ValueError as e:
            self.win.message(tr("not_done", msg=exception_text(e)))
            return False
        self.update_record_digest()
        self.win.message(tr("pin_set_first" if first else "pin_set", name=name), error=False)
        return True

    def end_session(self) -> None:
        self._stop_idle()
