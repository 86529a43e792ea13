"""What every tournament command shares: the ``--db`` and ``--referee`` options, errors turned
into one line with the documented exit code, reading JSON input, and aligned output."""

from __future__ import annotations

import contextlib
import errno
import functools
import json
import os
import sqlite3
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import click

from referee_app.cli.common import InputError, load_json_input, require_object
from referee_app.core import RecordError
from referee_app.core.errors import FieldError, message
from referee_app.core.i18n import known
from referee_app.storage import (
    HandInfo,
    HandRuleError,
    StorageError,
    StorageFault,
    Tournament,
    default_db_path,
)
from referee_app.storage import db as dbm
from referee_app.storage.errors import fault_from
from referee_app.storage.referees import PIN_MIN

from .lang import (
    error_data,
    error_line,
    error_text,
    lang,
    say,
    seat,
    term,
    violation_data,
    violation_line,
    warning_line,
    word,
)
from .layout import pad

EXIT_RULES, EXIT_BAD_INPUT, EXIT_FAULT = 1, 2, 3
F = TypeVar("F", bound=Callable[..., Any])
MAX_ID = 2**63 - 1
#: OS errors that are faults of the machine, not of what was typed: what to do (cli.todo.*)
FAULT_ERRNOS = {errno.ENOSPC: "free_space", errno.EDQUOT: "free_space",
                errno.EROFS: "writable_place", errno.EIO: "check_disk"}

class _DbOption(click.Option):
    """``--db``, whose default (the user's data folder, from platformdirs) is looked up only
    when a command runs without ``--db`` or its help is shown: most runs name the file, and
    the look-up's import would cost every one of them."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.default = default_db_path()  # shown as a path, not "(dynamic)"
        try:
            return super().get_help_record(ctx)
        finally:
            self.default = default_db_path


def db_option(f: F) -> F:
    return click.option(
        "--db", "db", cls=_DbOption, type=click.Path(dir_okay=False, path_type=Path),
        default=default_db_path, envvar="REFEREE_APP_DB", show_default=True,
        help="Tournament database file (env REFEREE_APP_DB).")(f)


def referee_option(f: F) -> F:
    return click.option("--referee", default="", help="Who makes this change (kept in the "
                        "history).")(f)


def handle_errors(f: F) -> F:
    """Turn storage/record errors into one clear line and the contract's exit codes
    (1 breaks a rule, 2 bad input or refused, 3 a fault outside the input). Under
    ``--json`` the error is also printed as JSON on stdout: ``{"ok": false, "error":
    {field, code, params, message}}`` (and the ``violations`` of a rule break)."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        db = kwargs.get("db", "")
        as_json = bool(kwargs.get("as_json"))
        dbm.on_wait = lambda _said: click.echo(say("waiting", path=db), err=True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", RuntimeWarning)
                try:
                    return f(*args, **kwargs)
                finally:
                    for w in caught:  # e.g. a failed automatic backup: one line, no paths
                        click.echo(warning_line(str(w.message)), err=True)
        except HandRuleError as e:
            if as_json:
                echo_json({"ok": False, "error": error_data(e),
                           "violations": [violation_data(v) for v in e.violations]})
            click.echo(error_line(say("breaks_rules"), e.field), err=True)
            for v in e.violations:
                click.echo(violation_line(v), err=True)
            click.echo(say("override_hint"), err=True)
            sys.exit(EXIT_RULES)
        except StorageFault as e:
            fail_with(e, EXIT_FAULT, as_json)
        except (StorageError, RecordError) as e:
            fail_with(e, EXIT_BAD_INPUT, as_json)
        except sqlite3.Error as e:
            fail_with(fault_from(e, db or "the database"), EXIT_FAULT, as_json)
        except UnicodeEncodeError:  # a lone surrogate (invalid UTF-8 in an argument)
            fail_with(InputError.of("", "surrogate_argument"), EXIT_BAD_INPUT, as_json)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:  # a stored value, not input
            fail_with(fault_from(ValueError(f"a stored value cannot be read: {e}"),
                                 db or "the database"), EXIT_FAULT, as_json)
        except BrokenPipeError:  # the reader (e.g. `| head`) stopped: not an error of ours
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except OverflowError:
            fail_with(InputError.of("", "number_overflow", max=MAX_ID), EXIT_BAD_INPUT,
                      as_json)
        except OSError as e:
            where = e.filename or ""
            detail = str(e.strerror or e)
            if e.errno in FAULT_ERRNOS:
                fail_with(InputError.of(where, "os_fault", detail=detail,
                                        todo=message(f"todo.{FAULT_ERRNOS[e.errno]}")),
                          EXIT_FAULT, as_json)
            fail_with(InputError.of(where, "os_error", detail=detail), EXIT_BAD_INPUT,
                      as_json)
        finally:
            dbm.on_wait = None

    return wrapper  # type: ignore[return-value]


def fail_with(e: FieldError, code: int, as_json: bool = False) -> NoReturn:
    """``error: <field>: <problem>`` on stderr (and, under ``--json``, the error as JSON on
    stdout), then exit ``code``."""
    if as_json:
        echo_json({"ok": False, "error": error_data(e)})
    click.echo(error_text(e), err=True)
    sys.exit(code)


def fail(message_text: str, code: int) -> NoReturn:
    click.echo(error_line(message_text), err=True)
    sys.exit(code)


def open_db(db: Path, referee: str | None = None) -> Tournament:
    """Open the tournament; for a change (``referee`` given) in a tournament with referees,
    sign that referee in with their PIN: from ``REFEREE_PIN``, or asked on a terminal."""
    t = Tournament.open(db)
    if referee is None or not t.referees.required():
        return t
    try:
        if not referee.strip():
            raise StorageError.of("referee", "name_yourself")
        pin = read_pin(say("pin_for", name=referee.strip()), "REFEREE_PIN")
        t.referees.sign_in(referee.strip(), pin)
        if len(pin) < PIN_MIN:  # set before new PINs needed PIN_MIN characters
            click.echo(warning_line(say("pin_short", name=referee.strip(), min=PIN_MIN)),
                       err=True)
    except BaseException:
        t.close()
        raise
    return t


def read_pin(prompt: str, env: str, *, confirm: bool = False,
             refusal: str = "no_terminal_for_pin") -> str:
    """A PIN (or a key's passphrase: ``refusal`` ``no_terminal_for_passphrase``) from the
    environment variable ``env`` (scripts) or asked without echo on a terminal (twice with
    ``confirm``, for a new one)."""
    pin = os.environ.get(env)
    if pin is not None:
        return pin
    if not sys.stdin.isatty():
        raise StorageError.of("pin" if refusal == "no_terminal_for_pin" else "passphrase",
                              refusal, env=env)
    return str(click.prompt(prompt, hide_input=True, confirmation_prompt=confirm))


def read_json(path: str) -> Any:
    """The hand record in FILE or stdin: one clear line for anything that is not one (BOM
    accepted, "FILE is empty", invalid UTF-8, deep nesting, huge numbers, not an object)."""
    return require_object(load_json_input(path))


def echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def hand_line(h: HandInfo, seats: tuple[str, ...]) -> str:
    """One hand as a line: id, where, version, status, dealer, each seat's player and chips
    and its marks (amended, override, void), in the reader's words."""
    chips = "  ".join(f"{seat(s)} {h.players.get(s, '-')} {h.totals.get(s, 0):+d}"
                      for s in seats)
    flags = say("marks", marks=say("list_sep").join(term("status_", f) for f in h.flags)) \
        if h.flags else ""
    status = term("status_", h.status.value)
    return (f"#{h.id:<5} {pad(where(h.round, h.table, h.hand_no), 12)} v{h.version} "
            f"{pad(status, 8)} {say('dealer', seat=seat(h.dealer))}  {chips}{flags}")


#: storage's tie-break keys named otherwise among the standings' columns
_TIE_BREAK_COLUMNS = {"largest_win_fan": "largest_fan"}


def tie_break_text(keys: Sequence[str]) -> str:
    """A tie-break order: its keys as typed (``-discards_paid``) in English, the standings'
    column words in 中文 (``点炮少者``)."""
    if lang() == "en":
        return ", ".join(keys)
    words = []
    for k in keys:
        name = k.lstrip("-")
        key = f"report.col.standings.{_TIE_BREAK_COLUMNS.get(name, name)}"
        w = word(key) if known(key) else name
        words.append(word("report.fewer", name=w) if k.startswith("-") else w)
    return say("list_sep").join(words)


def where(round_no: int | None, table: int | None = None, hand_no: int | None = None) -> str:
    """``R1 T2 H3`` (``第1轮 第2桌 第3局``)."""
    if table is None:
        return say("at.round", round=round_no)
    if hand_no is None:
        return say("at.table", round=round_no, table=table)
    return say("at.hand", round=round_no, table=table, hand=hand_no)


