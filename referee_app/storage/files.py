"""Files written besides the database (bundles, CSV exports, printed reports): whole or not
at all."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_file(path: Path, *, binary: bool = False, encoding: str = "utf-8",
                newline: str | None = None) -> Iterator[IO[Any]]:
    """Write ``path`` through a temp file beside it (unique per writer), fsynced and renamed
    over it: a failure (disk full) or a kill never leaves a half file in its place nor
    clobbers the previous one, and the failed temp file is removed. The file gets the usual
    permissions (0666 less the umask)."""
    import tempfile  # here: it imports random, which a command that exports nothing skips

    folder = path.parent if str(path.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    try:
        with (os.fdopen(fd, "wb") if binary
              else os.fdopen(fd, "w", encoding=encoding, newline=newline)) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
