"""``referee-app gui --server URL``: open the normal desk on a head desk's server.

The PIN comes from ``REFEREE_PIN`` (scripts, screenshots) or the window's sign-in; it stays
in memory only (to sign in again by itself when the server was restarted and forgot the
desk's token).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from referee_app.storage import AuthError

from .controllers.desk import Desk


def connect_desk(url: str, referee: str = "", *, outbox: Path | None = None,
                 verify: bool | str = True) -> Desk:
    """A :class:`Desk` over the server at ``url`` (``ServerUnreachable`` when it does not
    answer). With ``REFEREE_PIN`` set, ``referee`` is signed in now (scripts,
    ``--screenshot``); otherwise the window's sign-in asks name and PIN, as on a local
    tournament with referees (again after a wrong PIN; the idle lock asks again)."""
    from .server_desk import open_server

    pin = os.environ.get("REFEREE_PIN")
    if pin is not None and not referee:
        raise AuthError.of("referee", "pin_without_referee")
    return Desk(open_server(url, referee, pin, outbox=outbox, verify=verify), referee)


def attach_status(win: Any, *, watch: bool = True) -> Any:
    """The window's server status line (waiting hands, conflicts, live reload)."""
    from .views.outbox_status import attach

    return attach(win, win.desk.t, watch=watch)
