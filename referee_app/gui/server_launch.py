"""``referee-app gui --server URL``: sign the referee in and open the normal desk on it.

The PIN comes from ``REFEREE_PIN`` (scripts, screenshots) or the sign-in dialog, asked again
after a wrong PIN; it stays in memory only (to sign in again by itself when the server was
restarted and forgot the desk's token).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from referee_app.storage import AuthError, StorageError

from .controllers.desk import Desk


def connect_desk(url: str, referee: str, *, outbox: Path | None = None,
                 verify: bool | str = True, ask: bool = True) -> Desk:
    """A :class:`Desk` over the server at ``url`` with ``referee`` signed in (raises the
    storage error — AuthError, ServerUnreachable — when it cannot be done)."""
    from .messages import problem_text
    from .server_desk import open_server

    pin = os.environ.get("REFEREE_PIN")
    if pin is not None or not ask:
        if not referee or pin is None:
            raise AuthError("referee", "give --referee NAME and the PIN in REFEREE_PIN, or "
                            "sign in in the window")
        return Desk(open_server(url, referee, pin, outbox=outbox, verify=verify), referee)
    from PySide6.QtWidgets import QApplication, QDialog

    from referee_app.fonts import register_qt_font

    from .views.outbox_status import SignInDialog

    if QApplication.instance() is None:
        QApplication(sys.argv[:1])
        register_qt_font()
    problem = ""
    while True:
        dlg = SignInDialog(url, referee, problem)
        if dlg.exec() != QDialog.DialogCode.Accepted:
            raise StorageError("server", "sign-in cancelled")
        referee = dlg.name.text().strip()
        try:
            backend = open_server(url, referee, dlg.pin.text(), outbox=outbox, verify=verify)
        except AuthError as e:  # a wrong PIN, a locked name: ask again, saying why
            problem = problem_text(e.problem)
            continue
        return Desk(backend, referee)


def attach_status(win: Any, *, watch: bool = True) -> Any:
    """The window's server status line (waiting hands, conflicts, live reload)."""
    from .views.outbox_status import attach

    return attach(win, win.desk.t, watch=watch)
