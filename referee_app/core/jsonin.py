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
import sys
from typing import Any

from .errors import Message, RecordError

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



#: the standard library's reasons for refusing JSON (fixed texts of ``json.decoder``),
#: each a message of the catalogue: a reason it adds later is shown as it words it
_JSON_REASONS = {
    "Expecting value": "json_expecting_value",
    "Expecting property name enclosed in double quotes": "json_expecting_name",
    "Expecting ':' delimiter": "json_expecting_colon",
    "Expecting ',' delimiter": "json_expecting_comma",
    "Unterminated string starting at": "json_unterminated",
    "Invalid control character at": "json_control",
    "Invalid \\uXXXX escape": "json_bad_u_escape",
    "Extra data": "json_extra_data",
    "Illegal trailing comma before end of object": "json_trailing_comma",
    "Illegal trailing comma before end of array": "json_trailing_comma",
}


def _json_reason(msg: str) -> Message | str:
    code = _JSON_REASONS.get(msg)
    if code is None and msg.startswith("Invalid \\escape"):
        code = "json_bad_escape"
    return Message.of(code) if code else msg


def source_named(what: str) -> Message:
    """An input named by what it is rather than by a file's name: ``input``, ``record``,
    ``clipboard``, ``body`` (the ``source`` of the messages below, in the reader's words)."""
    return Message.of(f"source_{what}")


def decode_utf8(data: bytes, source: str | None = None) -> str:
    """Bytes -> text; a BOM is dropped, invalid UTF-8 names the first bad byte."""
    source = source if source is not None else source_named("input")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise RecordError.of("", "not_utf8", source=source, byte=e.start + 1,
                             hex=f"0x{data[e.start]:02x}") from None


def parse_json(text: str | bytes, source: str | None = None) -> Any:
    """Parse one JSON value; RecordError with one clear line for anything else.

    ``source`` names the input in messages: a file's name, or a :class:`Message`
    (:func:`source_named`, "line 3") said in the reader's language; "the input" if none.
    """
    source = source if source is not None else source_named("input")
    if isinstance(text, bytes | bytearray):
        text = decode_utf8(bytes(text), source)
    if text.startswith(BOM):
        text = text[1:]
    if not text.strip():
        raise RecordError.of("", "input_empty", source=source)
    try:
        return DECODER.decode(text)
    except _NotJson as e:
        raise RecordError.of("", "not_json_constant", source=source, name=e.args[0]) from None
    except json.JSONDecodeError as e:
        raise RecordError.of("", "not_json", source=source, why=_json_reason(e.msg),
                             line=e.lineno, column=e.colno) from None
    except RecursionError:
        raise RecordError.of("", "json_too_deep", source=source) from None
    except ValueError:  # int_max_str_digits: "Exceeds the limit (4300 digits) ..."
        raise RecordError.of("", "json_number_too_long", source=source,
                             limit=sys.get_int_max_str_digits()) from None


class _NotJson(ValueError):
    pass


def _refuse_constant(name: str) -> Any:
    raise _NotJson(name)


#: json.loads, except that NaN/Infinity (a Python extension, not JSON) are refused (a
#: ValueError): every JSON input is read by it
DECODER = json.JSONDecoder(parse_constant=_refuse_constant)


def text_problem(text: str, *, control: bool = True) -> Message | None:
    """Why ``text`` may not be stored (a message; as a string, its English), or None.

    Lone surrogates (``"\\ud800"``) are not Unicode text and cannot be written as UTF-8;
    control characters (tab, newline, U+2028 …) in a name break every listing, so they are
    refused where ``control`` is true (names, reasons) and allowed in free text.
    """
    if text.isprintable():  # the common case, at C speed
        return None
    m = re.search(_SURROGATE, text)
    if m is not None:
        return Message.of("lone_surrogate", code_point=f"U+{ord(m.group()):04X}",
                          pos=m.start() + 1)
    if control:
        m = re.search(_CONTROL, text)
        if m is not None:
            return Message.of("control_in_name", code_point=f"U+{ord(m.group()):04X}",
                              pos=m.start() + 1)
    return None


def check_free_value(value: Any, path: str) -> None:
    """A free (extra) field's value: no lone surrogates, nesting at most MAX_DEPTH.

    Iterative, so a deep value cannot overflow the stack here either.
    """
    stack: list[tuple[Any, str, int]] = [(value, path, 0)]
    while stack:
        v, p, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise RecordError.of(path, "nested_too_deep", depth=MAX_DEPTH)
        if isinstance(v, str):
            why = text_problem(v, control=False)
            if why:
                raise RecordError.about(p, why)
        elif isinstance(v, dict):
            for k, x in v.items():
                why = text_problem(k, control=False) if isinstance(k, str) else None
                if why:
                    raise RecordError.of(p, "key_problem", why=why)
                stack.append((x, f"{p}.{k}", depth + 1))
        elif isinstance(v, list):
            stack.extend((x, f"{p}[{i}]", depth + 1) for i, x in enumerate(v))


__all__ = ["BOM", "MAX_DEPTH", "source_named", "check_free_value", "decode_utf8", "json_kind", "parse_json",
           "text_problem"]
