"""What a desk's controllers talk to: a local file or a server, through the same parts.

Every call :class:`~.controllers.desk.Desk` makes on its tournament is an entry of
:data:`~referee_app.storage.operations.OPERATIONS` (``backend.hands.add(...)``), answered by
the local file (:class:`referee_app.storage.Tournament`) or by a server
(:class:`~referee_app.gui.server_desk.ServerBackend`, over ``referee-app serve``), so the
same window, views and controllers run on either — why ``referee-app gui --server URL``
needs no second desk. The list is the interface; :func:`unanswered` checks a backend
against it.
"""

from __future__ import annotations

from typing import Any

from referee_app.storage import Tournament
from referee_app.storage.operations import OPERATIONS

from .server_desk import ServerBackend

__all__ = ["Backend", "unanswered"]

#: a desk's tournament: the local file or a server
Backend = Tournament | ServerBackend


def unanswered(backend: Any) -> list[str]:
    """The operations ``backend`` cannot answer (none, for a backend a desk can use)."""
    missing = []
    for op in OPERATIONS:
        owner = getattr(backend, op.part, None) if op.part else backend
        if owner is None or not hasattr(owner, op.method):
            missing.append(op.name)
    return missing
