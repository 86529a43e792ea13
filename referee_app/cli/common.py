"""Shared pieces of the CLI: exit codes, reading JSON input, checked numbers and text.

Every command turns bad input into one line ``error: <field or file>: <problem>`` and the
documented exit code. The helpers here raise :class:`InputError` (a ``RecordError``, so
existing handlers already turn it into exit 2) or, for option values, a click
``BadParameter`` (exit 2 through :func:`referee_app.cli.run_main`). Importing this module
costs nothing beyond click and the core (``score`` stays fast and loads no storage or Qt).
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import Any, BinaryIO

import click

from referee_app.core.errors import RecordError, message
from referee_app.core.input_files import FILE_LIMIT, MIB, InputTooLargeError, read_stream
from referee_app.core.jsonin import json_kind, parse_json, text_problem
from referee_app.core.record import HandRecord, load_record, unknown_fields
from referee_app.core.ruleset import MAX_CAP_FAN, MAX_STAKE, Ruleset

from .lang import problem, say, warning_line

#: The exit codes of every command (README "Exit codes").
EXIT_OK, EXIT_RULES, EXIT_BAD_INPUT, EXIT_FAULT = 0, 1, 2, 3

EXIT_CODES_HELP = (
    "Exit codes: 0 done; 1 the record breaks a rule (each error cites its clause); "
    "2 bad input or refused (one line names the field or file); 3 a fault outside the "
    "input (database busy, disk full, read-only or damaged file)."
)

#: Largest id, round, table or hand number (SQLite's INTEGER).
MAX_INT64 = 2**63 - 1
#: Largest chips a penalty or an override total may name (a stake: MAX_STAKE, the same).
MAX_CHIPS = 1_000_000
#: Largest table number and hand number at a table (storage/checks.py says why).
MAX_TABLE_NO = MAX_HAND_NO = 999


class InputError(RecordError):
    """Bad input from the command line or a file: ``field`` names it (exit 2)."""

    code = "input"


# --------------------------------------------------------------------------- numbers


class BoundedInt(click.ParamType):
    """A whole number within [low, high], with a message naming the range.

    Refuses what ``int()`` would take loosely or crash on: fractions, ``1e3``, booleans,
    and 20-digit or 5000-digit numbers (no OverflowError reaches SQLite). ``what`` names
    the number in the message: the catalogue's ``error.expect.<what>`` ("an id (a whole
    number >= 1)").
    """

    name = "integer"

    def __init__(self, low: int, high: int, what: str = "number") -> None:
        self.low, self.high, self.what = low, high, what

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        try:
            return check_int(value, self.low, self.high, self.what)
        except InputError as e:
            self.fail(problem(e), param, ctx)

    def get_metavar(self, param: click.Parameter, *args: Any, **kwargs: Any) -> str:
        return "INTEGER"

    def __repr__(self) -> str:
        return f"BoundedInt({self.low}, {self.high})"


def _grouped(n: int) -> str:
    return f"{n:,}" if abs(n) < 10**7 else ("2^63-1" if n == MAX_INT64 else str(n))


def check_int(value: Any, low: int, high: int, what: str = "number",
              field: str = "") -> int:
    """``value`` (an int or its text) as an int within [low, high]; InputError otherwise
    (``what``: the number's kind, ``error.expect.<what>``)."""
    expected = message(f"expect.{what}")
    if isinstance(value, bool):
        raise InputError.of(field, "expected_number", what=expected, got=json_kind(value))
    if isinstance(value, int):
        n = value
    else:
        text = str(value).strip()
        digits = text.lstrip("+-")
        if not digits.isdigit() or not digits.isascii() or text.count("-") + text.count("+") > 1:
            raise InputError.of(field, "expected_number", what=expected,
                                got=repr(value)[:160])
        if len(digits) > 30:  # far outside any range here; int() would cost or refuse
            raise InputError.of(field, "number_too_long", start=text[:12],
                                digits=len(digits), low=_grouped(low), high=_grouped(high))
        n = int(text)
    if not low <= n <= high:
        raise InputError.of(field, "out_of_range", n=n, low=_grouped(low),
                            high=_grouped(high))
    return n


#: click types for the numbers the issue names (use ``type=ID`` etc.)
ID = BoundedInt(1, MAX_INT64, "id")
NUMBER = BoundedInt(1, MAX_INT64, "number")  # a round number
TABLE = BoundedInt(1, MAX_TABLE_NO, "table")
HAND_NO = BoundedInt(1, MAX_HAND_NO, "hand_no")
CHIPS = BoundedInt(-MAX_CHIPS, MAX_CHIPS, "chips")
STAKE = BoundedInt(1, MAX_STAKE, "stake")
CAP_FAN = BoundedInt(1, MAX_CAP_FAN, "cap_fan")


def parse_totals(text: str | None, seats: tuple[str, ...] | None = None,
                 field: str = "--totals") -> dict[str, int] | None:
    """``E=4,S=-4,W=0,N=0`` -> {"E": 4, ...}; None for no text.

    Refuses a seat named twice (the last value would silently win), a seat the ruleset
    does not have (when ``seats`` is given), and chips beyond ±1,000,000.
    """
    if text is None or not text.strip():
        return None
    out: dict[str, int] = {}
    for part in text.split(","):
        seat, eq, v = part.partition("=")
        seat = seat.strip()
        if not eq or not seat:
            raise InputError.of(field, "bad_totals", got=part.strip())
        if seats is not None and seat not in seats:
            raise InputError.of(field, "unknown_seat", got=seat, seats=", ".join(seats))
        if seat in out:
            raise InputError.of(field, "seat_given_twice", seat=seat)
        out[seat] = check_int(v, -MAX_CHIPS, MAX_CHIPS, "chips", f"{field} {seat}")
    return out


# --------------------------------------------------------------------------- text


def check_text(value: str | None, field: str, *, control: bool = True) -> str | None:
    """``value`` unchanged, or InputError when it holds a control character (names,
    reasons: one line of text) or a lone surrogate (never text)."""
    if value is None:
        return None
    why = text_problem(value, control=control)
    if why:
        raise InputError(field, why)
    return value


def text_option(field: str, *, control: bool = True) -> Any:
    """A click callback applying :func:`check_text` to an option or argument (exit 2)."""

    def callback(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
        values = value if isinstance(value, tuple) else (value,)
        for v in values:
            if isinstance(v, str):
                why = text_problem(v, control=control)
                if why:
                    raise click.BadParameter(why, ctx, param)
        return value

    return callback


# --------------------------------------------------------------------------- input files


def display_name(path: str) -> str:
    return "stdin" if path == "-" else path


@contextlib.contextmanager
def input_stream(path: str) -> Iterator[BinaryIO]:
    """FILE opened for reading, or stdin for ``-``; InputError naming the file otherwise."""
    if path == "-":
        if sys.stdin is None:
            raise InputError.of("", "stdin_closed")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is None:  # a text stream without bytes (tests)
            data = sys.stdin.read(FILE_LIMIT + 1)
            stream = io.BytesIO(data.encode("utf-8", "surrogateescape"))
        yield stream
        return
    try:
        f = open(path, "rb")
    except IsADirectoryError:
        raise InputError.of("", "input_is_folder", path=path) from None
    except FileNotFoundError:
        raise InputError.of("", "no_such_input", path=path) from None
    except OSError as e:
        raise InputError.of("", "file_unreadable_os", source=path,
                            detail=str(e.strerror or e)) from None
    with f:
        yield f


def read_input(path: str) -> bytes:
    """The bytes of FILE, or of stdin for ``-``, up to 16 MiB (more: exit 2 naming the
    limit, see core/input_files.py); InputError naming the file otherwise."""
    with input_stream(path) as f:
        try:
            return read_stream(f, display_name(path))
        except OSError as e:  # e.g. EISDIR only at the first read on some systems
            raise InputError.of("", "file_unreadable_os", source=path,
                                detail=str(e.strerror or e)) from None


def input_lines(path: str) -> Iterator[bytes]:
    """The lines of FILE or stdin (``-``) as they are read, each up to 16 MiB (a longer
    one: exit 2 naming the limit, as :func:`read_input`): a batch of any length streams."""
    with input_stream(path) as f:
        while line := f.readline(FILE_LIMIT + 1):
            if len(line) > FILE_LIMIT:
                raise InputTooLargeError.of("", "input_too_large", path=display_name(path),
                                            limit=FILE_LIMIT // MIB)
            yield line.rstrip(b"\n")


def load_json_input(path: str) -> Any:
    """Read and parse the JSON in FILE or stdin (``-``): one clear InputError otherwise.

    A UTF-8 BOM is accepted; an empty file is "FILE is empty"; invalid UTF-8, nesting too
    deep, numbers of thousands of digits and NaN are refused by name.
    """
    name = display_name(path)
    try:
        return parse_json(read_input(path), name)
    except InputError:
        raise
    except RecordError as e:
        raise InputError.like(e.field, e) from None


def require_object(data: Any) -> dict[str, Any]:
    """``data`` if it is a JSON object (a hand record), else the one message every
    command uses."""
    if not isinstance(data, dict):
        raise InputError.of("", "record_not_object", got=json_kind(data))
    return data


def echo_warnings(data: Any, prefix: str = "") -> None:
    """The record's unknown fields (kept or ignored) on stderr, one warning each."""
    for path, kept in unknown_fields(data):
        what = say("unknown_field_kept" if kept else "unknown_field_ignored", field=path)
        click.echo(warning_line(f"{prefix}{what}"), err=True)


def read_record(raw: bytes, source: str, warn_prefix: str = "",
                 club: Ruleset | None = None) -> HandRecord:
    """Parse and read one record (RecordError otherwise); unknown fields warned on stderr."""
    data = parse_json(raw, source)
    record = load_record(data, club)
    echo_warnings(data, warn_prefix)
    return record


__all__ = [
    "CAP_FAN", "CHIPS", "MAX_CAP_FAN", "MAX_STAKE", "EXIT_BAD_INPUT", "EXIT_CODES_HELP", "EXIT_FAULT", "EXIT_OK",
    "EXIT_RULES", "HAND_NO", "ID", "MAX_CHIPS", "MAX_INT64", "NUMBER", "STAKE", "TABLE",
    "BoundedInt", "InputError", "check_int", "check_text", "display_name", "echo_warnings",
    "input_lines", "load_json_input", "parse_totals", "read_input", "read_record", "require_object",
    "text_option",
]

