"""Reading JSON input safely: one clear :class:`RecordError` for anything that is not a value.

Every JSON input of the app (a hand record from a file, stdin, a ``--jsonl`` line, the GUI)
goes through :func:`parse_json`, so the same bad input gets the same message everywhere:
a UTF-8 byte-order mark is accepted, an empty file is "FILE is empty", invalid UTF-8 names
the byte, nesting too deep and integers too long to convert are refused by name instead of
escaping as ``RecursionError``/``ValueError``. :func:`text_problem` is the one definition of
text a record may not carry (control characters in names, lone surrogates anywhere).
"""

from __future__ import annotations

import json
import re
from typing import Any

from .errors import RecordError

BOM = "\ufeff"
#: Deepest nesting accepted in a record's free fields (a record itself nests 4 deep).
MAX_DEPTH = 64

_CONTROL = r"[\x00-\x1f\x7f-\x9f\u2028\u2029]"  # compiled on first use (start-up time)
_SURROGATE = r"[\ud800-\udfff]"


def json_kind(value: Any) -> str:
    """The JSON name of a value's type, for messages ("got list", "got null")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def decode_utf8(data: bytes, source: str = "the input") -> str:
    """Bytes -> text; a BOM is dropped, invalid UTF-8 names the first bad byte."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError("", f"{source} is not UTF-8 text (byte {e.start + 1}: "
                          f"0x{data[e.start]:02x}); save it as UTF-8") from None


def parse_json(text: str | bytes, source: str = "the input") -> Any:
    """Parse one JSON value; RecordError with one clear line for anything else.

    ``source`` names the input in messages (a file name, "stdin", "line 3").
    """
    if isinstance(text, bytes | bytearray):
        text = decode_utf8(bytes(text), source)
    if text.startswith(BOM):
        text = text[1:]
    if not text.strip():
        raise RecordError("", f"{source} is empty")
    try:
        return _DECODER.decode(text)
    except _NotJson as e:
        raise RecordError("", f"{source}: not valid JSON: {e}") from None
    except json.JSONDecodeError as e:
        raise RecordError("", f"{source}: not valid JSON: {e.msg} at line {e.lineno} "
                          f"column {e.colno}") from None
    except RecursionError:
        raise RecordError("", f"{source}: JSON nested too deeply") from None
    except ValueError as e:  # int_max_str_digits: "Exceeds the limit (4300 digits) ..."
        raise RecordError("", f"{source}: a number is too long ({_first_line(e)})") from None


class _NotJson(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _NotJson(f"{name} is not a JSON number")


#: json.loads, except that NaN/Infinity (a Python extension, not JSON) are refused
_DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def _first_line(e: Exception) -> str:
    return str(e).split(";")[0].split("\n")[0]


def text_problem(text: str, *, control: bool = True) -> str | None:
    """Why ``text`` may not be stored, or None.

    Lone surrogates (``"\\ud800"``) are not Unicode text and cannot be written as UTF-8;
    control characters (tab, newline, U+2028 …) in a name break every listing, so they are
    refused where ``control`` is true (names, reasons) and allowed in free text.
    """
    if text.isprintable():  # the common case, at C speed
        return None
    m = re.search(_SURROGATE, text)
    if m is not None:
        return (f"contains a lone surrogate U+{ord(m.group()):04X} at position "
                f"{m.start() + 1}, which is not text")
    if control:
        m = re.search(_CONTROL, text)
        if m is not None:
            return (f"contains a control character U+{ord(m.group()):04X} at position "
                    f"{m.start() + 1}; names must be one line of printable text")
    return None


def check_free_value(value: Any, path: str) -> None:
    """A free (extra) field's value: no lone surrogates, nesting at most MAX_DEPTH.

    Iterative, so a deep value cannot overflow the stack here either.
    """
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        v, p, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError(path, f"nested more than {MAX_DEPTH} levels deep")
        if isinstance(v, str):
            why = text_problem(v, control=False)
            if why:
                raise RecordError(p, why)
        elif isinstance(v, dict):
            for k, x in v.items():
                why = text_problem(k, control=False) if isinstance(k, str) else None
                if why:
                    raise RecordError(p, f"a key {why}")
                stack.append((x, f"{p}.{k}", depth + 1))
        elif isinstance(v, list):
            stack.extend((x, f"{p}[{i}]", depth + 1) for i, x in enumerate(v))


__all__ = ["BOM", "MAX_DEPTH", "check_free_value", "decode_utf8", "json_kind", "parse_json",
           "text_problem"]
