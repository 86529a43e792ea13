"""Files written besides the database (bundles, CSV exports, printed reports): whole or not
at all, and only as a regular file."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from .errors import StorageError


def output_path(path: Path) -> Path:
    """Where to write ``path``: a new path, or an existing regular file (through a symbolic
    link, the file it names, so the link stays). Anything else — a device such as
    ``/dev/full``, a folder, a pipe, a socket — is refused (exit 2): writing there by a
    rename would replace it (as root, the system's own device node)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return path  # a new path (or a link to nothing: the link is replaced)
    except OSError:
        return path  # the write itself says what is wrong (a folder we cannot enter)
    if not stat.S_ISREG(st.st_mode):
        raise StorageError.of("output", "output_not_a_file", path=str(path))
    return Path(os.path.realpath(path)) if os.path.islink(path) else path


@contextlib.contextmanager
def atomic_file(path: Path, *, binary: bool = False, encoding: str = "utf-8",
                newline: str | None = None) -> Iterator[IO[Any]]:
    """Write ``path`` through a temp file beside it (unique per writer), fsynced and renamed
    over it: a failure (disk full) or a kill never leaves a half file in its place nor
    clobbers the previous one, and the failed temp file is removed. The file gets the usual
    permissions (0666 less the umask). Only a new path or a regular file is written
    (:func:`output_path`)."""
    import tempfile  # here: it imports random, which a command that exports nothing skips

    path = output_path(Path(path))
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
