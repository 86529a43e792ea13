"""Shared pieces of the CLI: exit codes, reading JSON input, checked numbers and text.

Every command turns bad input into one line ``error: <field or file>: <problem>`` and the
documented exit code. The helpers here raise :class:`InputError` (a ``RecordError``, so
existing handlers already turn it into exit 2) or, for option values, a click
``BadParameter`` (exit 2 through :func:`referee_app.cli.run_main`). Importing this module
costs nothing beyond click and the core (``score`` stays fast and loads no storage or Qt).
"""

from __future__ import annotations

import sys
from typing import Any

import click

from referee_app.core.errors import RecordError
from referee_app.core.jsonin import json_kind, parse_json, text_problem
from referee_app.core.record import HandRecord, load_record, record_warnings
from referee_app.core.ruleset import MAX_CAP_FAN, MAX_STAKE, Ruleset

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


class InputError(RecordError):
    """Bad input from the command line or a file: ``field`` names it (exit 2)."""

    code = "input"


# --------------------------------------------------------------------------- numbers


class BoundedInt(click.ParamType):
    """A whole number within [low, high], with a message naming the range.

    Refuses what ``int()`` would take loosely or crash on: fractions, ``1e3``, booleans,
    and 20-digit or 5000-digit numbers (no OverflowError reaches SQLite).
    """

    name = "integer"

    def __init__(self, low: int, high: int, what: str = "a whole number") -> None:
        self.low, self.high, self.what = low, high, what

    def convert(self, value: Any, param: click.Parameter | None,
                ctx: click.Context | None) -> int:
        try:
            return check_int(value, self.low, self.high, self.what)
        except InputError as e:
            self.fail(e.problem, param, ctx)

    def get_metavar(self, param: click.Parameter, *args: Any, **kwargs: Any) -> str:
        return "INTEGER"

    def __repr__(self) -> str:
        return f"BoundedInt({self.low}, {self.high})"


def _grouped(n: int) -> str:
    return f"{n:,}" if abs(n) < 10**7 else ("2^63-1" if n == MAX_INT64 else str(n))


def check_int(value: Any, low: int, high: int, what: str = "a whole number",
              field: str = "") -> int:
    """``value`` (an int or its text) as an int within [low, high]; InputError otherwise."""
    if isinstance(value, bool):
        raise InputError(field, f"expected {what}, got {json_kind(value)}")
    if isinstance(value, int):
        n = value
    else:
        text = str(value).strip()
        digits = text.lstrip("+-")
        if not digits.isdigit() or not digits.isascii() or text.count("-") + text.count("+") > 1:
            raise InputError(field, f"expected {what}, got {value!r}"[:200])
        if len(digits) > 30:  # far outside any range here; int() would cost or refuse
            raise InputError(field, f"{text[:12]}… ({len(digits)} digits) is out of range "
                             f"{_grouped(low)}…{_grouped(high)}")
        n = int(text)
    if not low <= n <= high:
        raise InputError(field, f"{n} is out of range {_grouped(low)}…{_grouped(high)}")
    return n


#: click types for the numbers the issue names (use ``type=ID`` etc.)
ID = BoundedInt(1, MAX_INT64, "an id (a whole number >= 1)")
NUMBER = BoundedInt(1, MAX_INT64, "a whole number >= 1")  # round, table, hand number
CHIPS = BoundedInt(-MAX_CHIPS, MAX_CHIPS, "a whole number of chips")
STAKE = BoundedInt(1, MAX_STAKE, "a whole number of chips per unit")
CAP_FAN = BoundedInt(1, MAX_CAP_FAN, "a cap on total fan (a whole number >= 1)")


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
            raise InputError(field, f"expected SEAT=CHIPS,..., got {part.strip()!r}")
        if seats is not None and seat not in seats:
            raise InputError(field, f"unknown seat {seat!r} (seats are {', '.join(seats)})")
        if seat in out:
            raise InputError(field, f"seat {seat} is given twice")
        out[seat] = check_int(v, -MAX_CHIPS, MAX_CHIPS, "a whole number of chips",
                              f"{field} {seat}")
    return out


# --------------------------------------------------------------------------- text

#: the language of the command line's catalogue texts (:func:`say`)
CLI_LANG = "en"


def say(key: str, **fields: object) -> str:
    """The command line's text ``cli.<key>`` of the catalogue, filled in (docs/i18n.md;
    the catalogue is read only when a text is said)."""
    from referee_app.core.i18n import text

    return text("cli." + key, CLI_LANG, **fields)



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


def read_input(path: str) -> bytes:
    """The bytes of FILE, or of stdin for ``-``; InputError naming the file otherwise."""
    if path == "-":
        if sys.stdin is None:
            raise InputError("", "stdin is closed; give a FILE or pipe the record in")
        stream = getattr(sys.stdin, "buffer", None)
        if stream is not None:
            return stream.read()
        data = sys.stdin.read()  # a text stream without bytes (tests)
        return data.encode("utf-8", "surrogateescape")
    try:
        with open(path, "rb") as f:
            return f.read()
    except IsADirectoryError:
        raise InputError("", f"cannot read {path}: it is a directory, not a file") from None
    except FileNotFoundError:
        raise InputError("", f"cannot read {path}: no such file") from None
    except OSError as e:
        raise InputError("", f"cannot read {path}: {e.strerror or e}") from None


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
        raise InputError(e.field, e.problem) from None


def require_object(data: Any, what: str = "a hand record") -> dict[str, Any]:
    """``data`` if it is a JSON object, else the one message every command uses."""
    if not isinstance(data, dict):
        raise InputError("", f"{what} is a JSON object, got {json_kind(data)}")
    return data


def echo_warnings(lines: list[str], prefix: str = "") -> None:
    """Warnings (unknown fields kept or ignored) on stderr, one line each."""
    for line in lines:
        click.echo(f"warning: {prefix}{line}", err=True)


def read_record(raw: bytes, source: str, warn_prefix: str = "",
                 club: Ruleset | None = None) -> HandRecord:
    """Parse and read one record (RecordError otherwise); unknown fields warned on stderr."""
    data = parse_json(raw, source)
    record = load_record(data, club)
    echo_warnings(record_warnings(data), warn_prefix)
    return record


__all__ = [
    "CAP_FAN", "CHIPS", "MAX_CAP_FAN", "MAX_STAKE", "EXIT_BAD_INPUT", "EXIT_CODES_HELP", "EXIT_FAULT", "EXIT_OK",
    "EXIT_RULES", "ID", "MAX_CHIPS", "MAX_INT64", "NUMBER", "STAKE",
    "BoundedInt", "InputError", "check_int", "check_text", "display_name", "echo_warnings",
    "load_json_input", "parse_totals", "read_input", "read_record", "require_object",
    "say", "text_option",
]

