"""Reading an input file with a size limit: a hand record, a CSV entry list, a report
template or a ruleset file is read up to 16 MiB, a tournament bundle up to 256 MiB.

Anything larger is refused by name (:class:`InputTooLargeError`, exit 2) after reading one
byte past the limit — never read whole: ``/dev/zero``, a FIFO that never ends or a
multi-GB file given by mistake cost at most the limit, not the machine's memory.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

from .errors import RecordError

MIB = 1024 * 1024
#: a hand record, CSV, report template or ruleset file (each is a few KB)
FILE_LIMIT = 16 * MIB
#: a tournament bundle (10,000 hands with their chain are some 60 MB)
BUNDLE_LIMIT = 256 * MIB


class InputTooLargeError(RecordError):
    """An input file (or stdin) larger than its kind may be; nothing was read into use."""

    code = "input_too_large"


def read_stream(stream: BinaryIO, name: str, limit: int = FILE_LIMIT) -> bytes:
    """At most ``limit`` bytes of ``stream``; :class:`InputTooLargeError` naming ``name``
    and the limit when there is more."""
    data = stream.read(limit + 1)
    if len(data) > limit:
        raise InputTooLargeError.of("", "input_too_large", path=name, limit=limit // MIB)
    return data


def read_limited(path: str | Path, limit: int = FILE_LIMIT) -> bytes:
    """The bytes of ``path`` (``-``: stdin) up to ``limit``; OSError as ``open`` raises it."""
    if str(path) == "-":
        return read_stream(sys.stdin.buffer, "stdin", limit)
    with open(path, "rb") as f:
        return read_stream(f, str(path), limit)
