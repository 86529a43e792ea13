"""``referee-app serve``: several desks, one tournament (docs/server.md).

One authoritative database on the head desk, served by :func:`create_app` (Starlette under
uvicorn) as a JSON API for desks and live read-only results pages for players' phones;
:class:`~referee_app.server.client.DeskClient` is the desk's side, with an offline outbox.
Layer 3: imports core, storage and reports, never gui or cli. Heavy imports (Starlette,
httpx) happen only when these are used.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .app import create_app
    from .client import DeskClient
    from .qr import results_qr_png

__all__ = ["DeskClient", "create_app", "results_qr_png"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app
        return create_app
    if name == "DeskClient":
        from .client import DeskClient
        return DeskClient
    if name == "results_qr_png":
        from .qr import results_qr_png
        return results_qr_png
    raise AttributeError(name)
