"""Faults in the referee's words, and the guard that keeps tracebacks off the screen.

Issue 11: no action of the desk may end in a Python traceback. A fault outside the input
(the file busy beyond the retry, the disk full, the file read-only or damaged) is one
translated line saying what to do (:func:`fault_text`). Anything unexpected is caught by
:class:`ErrorGuard` (``sys.excepthook`` and ``threading.excepthook``, which is where PySide
sends an exception escaping a slot): the details go to a log file, the referee gets one
message box saying what to do and where the details are.
"""

from __future__ import annotations

import datetime
import os
import sys
import threading
import traceback
import warnings
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any

from referee_app.core.errors import said
from referee_app.storage.errors import (
    BusyError,
    DamagedError,
    DiskFullError,
    HandChangedError,
    ReadOnlyError,
    StorageFault,
)

from .i18n import LANG, tr

#: the log grows to this size, then the previous one is kept as ``…log.1``
LOG_LIMIT = 1_000_000


def read_only_text(reason: object) -> str:
    """Why the file opened for viewing only (the store's reason, a message), in the
    current language."""
    return said(reason, LANG.code) if reason else ""


def fault_text(e: BaseException) -> str | None:
    """One translated line for a store fault (what happened, what to do); None if ``e`` is
    not one. The most specific class wins (a busy file is also a fault)."""
    if isinstance(e, HandChangedError):
        return tr("fault_changed", hand=e.hand_id, mine=e.expected, theirs=e.current)
    if isinstance(e, BusyError):
        return tr("fault_busy")
    if isinstance(e, DiskFullError):
        return tr("fault_disk_full")
    if isinstance(e, ReadOnlyError):
        reason = e.params.get("reason") if e.code == "viewing_only" else None
        return tr("fault_read_only", why=read_only_text(reason) or tr("ro_unknown"))
    if isinstance(e, DamagedError):
        return tr("fault_damaged")
    if isinstance(e, StorageFault) and e.code == "key_missing":  # says what to do itself
        return e.text(LANG.code)
    if isinstance(e, StorageFault):
        return tr("fault_other", detail=e.text(LANG.code))
    return None


def log_path() -> Path:
    """Where the details of unexpected errors go: ``REFEREE_APP_LOG`` if set, else the
    user's data folder (``…/RefereeDesk/gui-errors.log``)."""
    env = os.environ.get("REFEREE_APP_LOG")
    if env:
        return Path(env)
    from PySide6.QtCore import QStandardPaths

    base = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericDataLocation)
    return Path(base or Path.home()) / "RefereeDesk" / "gui-errors.log"


def write_log(text: str, path: Path | None = None) -> Path | None:
    """Append ``text`` with a time stamp; returns the file, or None if nothing could be
    written (then the details are lost, but still no traceback reaches the screen)."""
    for target in (path or log_path(), Path(_tmp()) / "referee-desk-gui-errors.log"):
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.exists() and target.stat().st_size > LOG_LIMIT:
                target.replace(target.with_name(target.name + ".1"))
            stamp = datetime.datetime.now().isoformat(timespec="seconds")
            with target.open("a", encoding="utf-8", errors="replace") as f:
                f.write(f"--- {stamp}\n{text.rstrip()}\n")
            return target
        except OSError:
            continue
    return None


def _tmp() -> str:
    import tempfile

    return tempfile.gettempdir()


class ErrorGuard:
    """Installed once by ``referee-app gui``: every exception that escapes a slot, a timer
    or a thread is logged to a file and shown as one message in the referee's language.

    ``show`` displays a message (the window's message box; tests record it). While one
    message is up, further errors are only logged (a repeating timer cannot stack boxes).
    """

    def __init__(self, show: Callable[[str], None], log: Path | None = None) -> None:
        self.show = show
        self.log = log
        self.shown: list[str] = []
        self._busy = False
        self._saved: tuple[Any, Any, Any] | None = None

    def install(self) -> ErrorGuard:
        self._saved = (sys.excepthook, threading.excepthook, warnings.showwarning)
        sys.excepthook = self.handle
        threading.excepthook = self._thread_hook
        warnings.showwarning = self._warning
        return self

    def uninstall(self) -> None:
        if self._saved is not None:
            sys.excepthook, threading.excepthook, warnings.showwarning = self._saved
            self._saved = None

    def _thread_hook(self, args: threading.ExceptHookArgs) -> None:
        if args.exc_type is SystemExit:
            return
        # a thread may not open windows: log it, and say so from the GUI thread if possible
        self.handle(args.exc_type, args.exc_value or args.exc_type(), args.exc_traceback,
                    show=threading.current_thread() is threading.main_thread())

    def _warning(self, message: Warning | str, category: type[Warning], filename: str,
                 lineno: int, file: Any = None, line: str | None = None) -> None:
        """Warnings (a backup that failed after a save) go to the log, not to a console
        with source paths."""
        write_log(f"warning: {category.__name__}: {message}", self.log)

    def handle(self, exc_type: type[BaseException], exc: BaseException,
               tb: TracebackType | None, *, show: bool = True) -> str:
        """Log ``exc`` and show one line; returns the line shown."""
        if issubclass(exc_type, KeyboardInterrupt):
            from PySide6.QtWidgets import QApplication

            app = QApplication.instance()
            if app is not None:
                app.quit()
            return ""
        details = "".join(traceback.format_exception(exc_type, exc, tb))
        where = write_log(details, self.log)
        text = fault_text(exc)
        if text is None:
            text = tr("unexpected_error", kind=exc_type.__name__,
                      file=str(where) if where else tr("log_unwritable"))
        self.shown.append(text)
        if show and not self._busy:
            self._busy = True
            try:
                self.show(text)
            except Exception as e:
                write_log(f"showing the message failed: {e!r}", self.log)
            finally:
                self._busy = False
        return text
