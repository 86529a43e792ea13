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
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from referee_app.cli.common import load_json_input, require_object, say
from referee_app.core import RecordError
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

EXIT_RULES, EXIT_BAD_INPUT, EXIT_FAULT = 1, 2, 3
F = TypeVar("F", bound=Callable[..., Any])
MAX_ID = 2**63 - 1
#: OS errors that are faults of the machine, not of what was typed
FAULT_ERRNOS = {errno.ENOSPC: "free some space, then try again",
                errno.EDQUOT: "free some space, then try again",
                errno.EROFS: "write to a writable place instead",
                errno.EIO: "check the disk (and its cable), then try again"}

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
    (1 breaks a rule, 2 bad input or refused, 3 a fault outside the input)."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        dbm.on_wait = lambda msg: click.echo(msg, err=True)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always", RuntimeWarning)
                try:
                    return f(*args, **kwargs)
                finally:
                    for w in caught:  # e.g. a failed automatic backup: one line, no paths
                        click.echo(f"warning: {w.message}", err=True)
        except HandRuleError as e:
            click.echo(f"error: {e.field}: the record breaks the rules:", err=True)
            for v in e.violations:
                click.echo(f"  {v.clause:<7} {v.seat or '-':<2} {v.message}", err=True)
            click.echo("  " + say("override_hint"), err=True)
            sys.exit(EXIT_RULES)
        except StorageFault as e:
            fail(str(e), EXIT_FAULT)
        except (StorageError, RecordError) as e:
            fail(str(e), EXIT_BAD_INPUT)
        except sqlite3.Error as e:
            fail(str(fault_from(e, kwargs.get("db", "the database"))), EXIT_FAULT)
        except UnicodeEncodeError:  # a lone surrogate (invalid UTF-8 in an argument)
            fail("text with an unpaired surrogate (invalid UTF-8) is not accepted; retype it",
                 EXIT_BAD_INPUT)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:  # a stored value, not input
            fail(str(fault_from(ValueError(f"a stored value cannot be read: {e}"),
                                kwargs.get("db", "the database"))), EXIT_FAULT)
        except BrokenPipeError:  # the reader (e.g. `| head`) stopped: not an error of ours
            with contextlib.suppress(OSError, ValueError):
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            sys.exit(0)
        except OverflowError:
            fail(f"a number is out of range (whole numbers up to {MAX_ID})", EXIT_BAD_INPUT)
        except OSError as e:
            where = f"{e.filename}: " if e.filename else ""
            if e.errno in FAULT_ERRNOS:
                todo = FAULT_ERRNOS[e.errno]
                fail(f"{where}{e.strerror}; {todo}", EXIT_FAULT)
            fail(f"{where}{e.strerror or e}", EXIT_BAD_INPUT)
        finally:
            dbm.on_wait = None

    return wrapper  # type: ignore[return-value]


def fail(message: str, code: int) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


def open_db(db: Path, referee: str | None = None) -> Tournament:
    """Open the tournament; for a change (``referee`` given) in a tournament with referees,
    sign that referee in with their PIN: from ``REFEREE_PIN``, or asked on a terminal."""
    t = Tournament.open(db)
    if referee is None or not t.referees.required():
        return t
    try:
        if not referee.strip():
            raise StorageError("referee", "this tournament has referees: name yourself with "
                               "--referee NAME (your PIN is then asked, or read from "
                               "REFEREE_PIN)")
        t.referees.sign_in(referee.strip(), read_pin(f"PIN for {referee.strip()}", "REFEREE_PIN"))
    except BaseException:
        t.close()
        raise
    return t


def read_pin(prompt: str, env: str, *, confirm: bool = False) -> str:
    """A PIN from the environment variable ``env`` (scripts) or asked without echo on a
    terminal (twice with ``confirm``, for a new PIN)."""
    pin = os.environ.get(env)
    if pin is not None:
        return pin
    if not sys.stdin.isatty():
        raise StorageError("pin", f"no terminal to ask for the PIN: set {env}")
    return str(click.prompt(prompt, hide_input=True, confirmation_prompt=confirm))


def read_json(path: str, what: str) -> Any:
    """The hand record in FILE or stdin: one clear line for anything that is not one (BOM
    accepted, "FILE is empty", invalid UTF-8, deep nesting, huge numbers, not an object)."""
    return require_object(load_json_input(path))




def echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def hand_line(h: HandInfo, seats: tuple[str, ...]) -> str:
    chips = "  ".join(f"{s} {h.players.get(s, '-')} {h.totals.get(s, 0):+d}" for s in seats)
    flags = f"  [{', '.join(h.flags)}]" if h.flags else ""
    return (f"#{h.id:<5} {h.label:<12} v{h.version} {h.status.value:<8} dealer {h.dealer}  "
            f"{chips}{flags}")


