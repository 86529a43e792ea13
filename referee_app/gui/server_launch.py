"""``referee-app gui --server URL``: sign the referee in and open the normal desk on it.

The PIN comes from ``REFEREE_PIN`` (scripts, screenshots) or the sign-in dialog, asked again
after a wrong PIN; it stays in memory only (to sign in again by itself when the server was
restarted and forgot the desk's token).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee_app.storage import AuthError, StorageError

from .controllers.desk import Desk


def connect_desk(url: str, referee: str, *, outbox: Path | None = None,
                 verify: bool | str = True,
                 ask: Callable[[str, str, str], tuple[str, str] | None] | None = None) -> Desk:
    """A :class:`Desk` over the server at ``url`` with ``referee`` signed in (raises the
    storage error — AuthError, ServerUnreachable — when it cannot be done).

    ``ask(url, referee, problem) -> (name, pin)`` or None (cancelled): the sign-in dialog
    by default; asked again, with the reason, after a wrong PIN."""
    from .messages import problem_text
    from .server_desk import open_server

    pin = os.environ.get("REFEREE_PIN")
    if pin is not None:
        if not referee:
            raise AuthError("referee", "give --referee NAME with REFEREE_PIN, or sign in in "
                            "the window")
        return Desk(open_server(url, referee, pin, outbox=outbox, verify=verify), referee)
    ask = ask or _sign_in_dialog
    problem = ""
    while True:
        got = ask(url, referee, problem)
        if got is None:
            raise StorageError("server", "sign-in cancelled")
        referee, pin = got[0].strip(), got[1]
        try:
            backend = open_server(url, referee, pin, outbox=outbox, verify=verify)
        except AuthError as e:  # a wrong PIN, a locked name: ask again, saying why
            problem = problem_text(e.problem)
            continue
        return Desk(backend, referee)


def _sign_in_dialog(url: str, referee: str, problem: str) -> tuple[str, str] | None:
    from PySide6.QtWidgets import QApplication, QDialog

    from referee_app.fonts import register_qt_font

    from .views.outbox_status import SignInDialog

    if QApplication.instance() is None:
        QApplication(sys.argv[:1])
        register_qt_font()
    dlg = SignInDialog(url, referee, problem)
    if dlg.exec() != QDialog.DialogCode.Accepted:
        return None
    return dlg.name.text(), dlg.pin.text()


def attach_status(win: Any, *, watch: bool = True) -> Any:
    """The window's server status line (waiting hands, conflicts, live reload)."""
    from .views.outbox_status import attach

    return attach(win, win.desk.t, watch=watch)
