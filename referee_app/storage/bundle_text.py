"""A bundle's text read with the lines it was written on (:func:`.bundle.write_json`).

Import takes a chain entry's hashed text, and compares a hand with the file's, from the
line it was written on rather than writing the parsed value out again (most of an import's
time at 8,000 hands). That is sound only when each line is the very text its value was
parsed from. A search of the text for the lines cannot promise it: a forger can give the
JSON parser another ``"chain"`` (the last of two keys is the one kept) than the one a search
finds, and every hash would hold while other rows were replayed.

So the document is parsed here key by key, by the standard library's scanner: the value of a
top-level key is either parsed whole, or — when it is laid out one element a line, as
written — line by line, each line a whole JSON value of its own. ``[\\n  L1,\\n  L2\\n ]``
with each ``Li`` a value is exactly the list of those values, so every line kept is the
text its element was read from. Whatever is laid out otherwise is parsed whole (no lines
kept); whatever is not JSON is left to :func:`.jsonin.parse_json`, which names the fault.

A key read ``deferred`` is checked the same way, each of its lines a whole value, but its
values are not kept: it reads as a :class:`Deferred`, whose element is parsed again from its
line when asked for. An import compares each hand's line with the text the record makes and
needs a hand's value only where they differ; holding the 8,000 parsed hands of a
1,000-player event cost 130 MiB, memory an import had to fault in page by page.
"""

from __future__ import annotations

from collections.abc import Collection, Iterator
from json.decoder import WHITESPACE
from typing import Any, NamedTuple

from referee_app.core.jsonin import BOM, DECODER

#: the top-level keys whose elements are read line by line
LINED = ("chain", "hands")
#: how a list is laid out one element a line (:func:`.bundle.write_json` writes it so): its
#: opening, the break between two elements and its close
OPEN, BREAK, CLOSE = "[\n  ", ",\n  ", "\n ]"


class _NotAsWritten(Exception):
    """The text is not a JSON object read here (parse_json then reads it, or names why)."""


class Lines(NamedTuple):
    """A bundle's document and, for each key of :data:`LINED` laid out as written, the
    text of each of its elements (``lines[key][i]`` is what ``data[key][i]`` was parsed
    from)."""

    data: Any
    lines: dict[str, list[str]]


class Deferred:
    """A list read line by line whose values were not kept (see the module doc): its length,
    its lines, and each element parsed again from its line when asked for (each line was
    found to be a whole JSON value, so it parses, to the value a JSON reader gives)."""

    __slots__ = ("lines",)

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines

    def __len__(self) -> int:
        return len(self.lines)

    def __getitem__(self, i: int) -> Any:
        return DECODER.decode(self.lines[i])

    def __iter__(self) -> Iterator[Any]:
        return map(DECODER.decode, self.lines)


def values(value: Any) -> Any:
    """``value`` with a :class:`Deferred` list read into its values."""
    return list(value) if isinstance(value, Deferred) else value


def read_lines(text: str, deferred: Collection[str] = ()) -> Lines | None:
    """The document of a bundle's ``text`` with its lines, or None when the text is not one
    JSON object (then :func:`.jsonin.parse_json` tells why, or reads what this did not).
    ``deferred``: keys of :data:`LINED` whose values, when laid out as written, are read as
    a :class:`Deferred` rather than kept."""
    if text.startswith(BOM):
        text = text[1:]
    try:
        return _document(text, deferred)
    except (_NotAsWritten, ValueError, IndexError, RecursionError):
        return None


def _document(text: str, deferred: Collection[str]) -> Lines:
    decoder = DECODER  # as parse_json reads: NaN and Infinity are not JSON
    ws = WHITESPACE.match  # JSON's own whitespace, as its decoder skips it
    i = ws(text, 0).end()
    if text[i] != "{":
        raise _NotAsWritten
    data: dict[str, Any] = {}
    lines: dict[str, list[str]] = {}
    i = ws(text, i + 1).end()
    if text[i] == "}":
        i += 1
    else:
        while True:
            key, i = decoder.raw_decode(text, i)
            if type(key) is not str:
                raise _NotAsWritten
            i = ws(text, i).end()
            if text[i] != ":":
                raise _NotAsWritten
            i = ws(text, i + 1).end()
            lined = _lined(text, i, key in deferred) if key in LINED else None
            lines.pop(key, None)  # a key given twice: the last is kept, as JSON readers do
            if lined is not None:
                data[key], lines[key], i = lined
            else:
                data[key], i = decoder.raw_decode(text, i)
            i = ws(text, i).end()
            if text[i] == ",":
                i = ws(text, i + 1).end()
            elif text[i] == "}":
                i += 1
                break
            else:
                raise _NotAsWritten
    if ws(text, i).end() != len(text):
        raise _NotAsWritten
    return Lines(data, lines)


def _lined(text: str, at: int, deferred: bool) -> tuple[Any, list[str], int] | None:
    """The list at ``at`` read line by line (its values, or ``deferred`` a
    :class:`Deferred`; their lines; where it ends), or None when it is not laid out one whole
    value a line."""
    if not text.startswith(OPEN, at):
        return None
    start = at + len(OPEN)
    end = text.find(CLOSE, start)
    if end < 0:
        return None
    lines = _split(text, start, end)
    decode = DECODER.decode
    try:
        if deferred:
            for line in lines:  # each line a whole value; the value itself not kept
                decode(line)
            return Deferred(lines), lines, end + len(CLOSE)
        return [decode(line) for line in lines], lines, end + len(CLOSE)
    except (ValueError, RecursionError):
        return None  # a line that is not a whole value: the list is read whole


def _split(text: str, start: int, end: int) -> list[str]:
    """``text[start:end].split(BREAK)`` without that copy of the whole list's text (the
    chain's is most of a bundle: 74 MiB at 8,000 hands, faulted in page by page)."""
    lines, find, step = [], text.find, len(BREAK)
    at = find(BREAK, start, end)
    while at >= 0:
        lines.append(text[start:at])
        start = at + step
        at = find(BREAK, start, end)
    lines.append(text[start:end])
    return lines
