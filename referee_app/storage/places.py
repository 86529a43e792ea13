"""Where Referee Desk keeps its files on this computer: the user's data folder (the default
tournament, the demo, the tournaments' private signing keys)."""

from __future__ import annotations

from pathlib import Path


def data_dir() -> Path:
    """The user's data directory for Referee Desk (created on first use)."""
    import platformdirs  # here: only a command without --db needs it

    return Path(platformdirs.user_data_dir("referee-app", appauthor=False))
