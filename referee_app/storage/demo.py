"""The demo tournament: ``sample_events/demo-ottawa-2009.json`` imported into a database.

``make run`` (``referee-app gui --demo``) calls :func:`demo_db_path` so the app opens on a
realistic event without the user creating anything.
"""

from __future__ import annotations

import contextlib
import errno
import os
from pathlib import Path

from .places import data_dir

DEMO_BUNDLE_NAME = "demo-ottawa-2009.json"


def default_db_path() -> Path:
    """The database used when no ``--db`` is given."""
    return data_dir() / "tournament.sqlite"


def demo_bundle_path() -> Path:
    """The shipped demo bundle (repository ``sample_events/``)."""
    here = Path(__file__).resolve()
    for base in (here.parents[2] / "sample_events", here.parents[1] / "data" / "sample_events"):
        p = base / DEMO_BUNDLE_NAME
        if p.exists():
            return p
    raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), DEMO_BUNDLE_NAME)


def demo_db_path(directory: str | Path | None = None, *, fresh: bool = False) -> Path:
    """Path of a database holding the demo tournament, importing the bundle if needed.

    Re-imported when the bundle is newer than the database or ``fresh`` is true, so the
    demo never carries edits from an earlier session unless they were made after it.
    """
    from .tournament import Tournament

    bundle = demo_bundle_path()
    d = Path(directory) if directory is not None else data_dir()
    d.mkdir(parents=True, exist_ok=True)
    db = d / "demo-ottawa-2009.sqlite"
    if db.exists() and not fresh and db.stat().st_mtime >= bundle.stat().st_mtime:
        return db
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            Path(str(db) + suffix).unlink()
    with Tournament.import_bundle(bundle, db, backup_every=0, legacy=True) as t:
        if t.info.signing_key and not t.keys.here():
            # signed by the key of the tool that made it: this desk signs with its own
            t.keys.replace(reason="the demo, imported on this desk")
    return db
