"""``referee-app``: a thin click CLI; each command is one library call plus clear errors.

Subcommands are imported lazily so ``referee-app score`` never loads storage, Qt or
reportlab (cold start matters to scripts that score one record at a time), and the
command list of ``--help`` comes from :data:`SHORT_HELP` without importing any of them.

Every failure ends in one line on stderr and a documented exit code (:data:`EXIT_HELP`):
click's usage errors become ``error: …`` with exit 2, an operating-system fault exit 3,
and anything unexpected one line asking for a report (exit 3; ``REFEREE_APP_DEBUG=1``
shows the traceback) — never a traceback by default.

A command run as its own process pauses the cycle collector while its modules load and
freezes what they made (:func:`gc.freeze`), once when the command starts and again at exit:
the interpreter then skips searching the ~20,000 objects of the loaded modules for
reference cycles (about 40 ms of a 0.2 s start-up budget). Files and the database are
closed by the commands themselves, never left to that search.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import os
import sys
from typing import Any, NoReturn

import click

#: command name -> "module:attribute" (imported only when the command is used)
COMMANDS: dict[str, str] = {
    "score": "referee_app.cli.score:score",
    "analyse": "referee_app.cli.analyse:analyse",
    "rulesets": "referee_app.cli.rules:rulesets",
    "rules": "referee_app.cli.rules:rules",
    "event": "referee_app.cli.event:event",
    "players": "referee_app.cli.players:players",
    "round": "referee_app.cli.rounds:round_",
    "hand": "referee_app.cli.hands:hand",
    "standings": "referee_app.cli.standings:standings",
    "penalty": "referee_app.cli.penalties:penalty",
    "referee": "referee_app.cli.referees:referee",
    "verify": "referee_app.cli.record:verify",
    "log": "referee_app.cli.record:log",
    "gui": "referee_app.cli.gui:gui",
    "report": "referee_app.cli.report:report",
    "templates": "referee_app.cli.templates:templates",
    "backup": "referee_app.cli.backup:backup",
    "serve": "referee_app.cli.serve:serve",
}

#: subcommands that live in their own module, added to a group above when it is loaded
#: (``round progress`` lives in cli/progress.py, not in the module that defines ``round``)
SUBCOMMANDS: dict[str, tuple[str, ...]] = {
    "round": ("referee_app.cli.progress:progress",),
}
#: functions that add options to a group's existing subcommands (``hand amend --dry-run``,
#: ``hand verify --record``), called with the group when it is loaded
EXTENSIONS: dict[str, tuple[str, ...]] = {
    "hand": ("referee_app.cli.desk_checks:extend_hand",),
    "score": ("referee_app.cli.whatif:extend_score",),
}


def _load(target: str) -> click.Command:
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


#: command name -> its one-line help, so ``referee-app --help`` imports no command module
#: (tests/cli/test_cli_startup.py checks every command has one).
SHORT_HELP: dict[str, str] = {
    "score": "Validate and settle the hand record in FILE (or - for stdin).",
    "analyse": "Analyse TILES: a win's readings and fan, or a hand's waits.",
    "rulesets": "List the rulesets the app ships (the default first).",
    "rules": "Print RULESET's clauses: Chinese, English and the Reading.",
    "event": "Create, import, export and describe the tournament.",
    "players": "Register and list players.",
    "round": "Seat rounds and show seatings.",
    "hand": "Add, amend, void, verify and list hands (history is kept).",
    "standings": "The leaderboard, from the current version of every hand.",
    "penalty": "Penalties and adjustments (counted in the standings).",
    "referee": "Referees and their PINs (add, list, change a PIN).",
    "verify": "Check the tamper-evident record: ok ENTRIES DIGEST, or the bad entry.",
    "log": "Who did what and when, read from the record's chain.",
    "gui": "Open the referee desk (hand entry, rule help, standings).",
    "report": "Print a report of the tournament to a PDF.",
    "templates": "Editable copies of the report templates (templates export DIR).",
    "backup": "List backups and restore one (the current file is kept aside).",
    "serve": "Serve the tournament to other desks and live results to phones.",
}

EXIT_HELP = ("Exit codes (every command): 0 done; 1 the record breaks a rule (each error "
             "cites its clause); 2 bad input or refused (one line names the field or file); "
             "3 a fault outside the input (database busy, disk full, read-only or damaged "
             "file; the line says what to do; 'referee-app backup list' for a damaged one).")


#: whether :func:`_own_process_gc` paused the collector until the command is loaded
_GC = {"paused": False}


def _own_process_gc() -> None:
    """A command in a process of its own: no cycle collection while its modules load (they
    make ~20,000 objects that live as long as the process; collections then are wasted), and
    none of those objects searched again, later or at exit."""
    if gc.isenabled():
        gc.disable()
        _GC["paused"] = True
    atexit.register(gc.freeze)


def _stdout_gone() -> NoReturn:
    """The reader of stdout stopped (``| head``): not an error of ours, exit 0 as the
    tournament commands do. click itself would exit 1 ("the record breaks a rule")."""
    with contextlib.suppress(OSError, ValueError):  # the final flush goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise click.exceptions.Exit(0)


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from SHORT_HELP: no command module is imported for --help."""
        rows = []
        for name in self.list_commands(ctx):
            text = SHORT_HELP.get(name)
            if text is None:  # a command without a static line: ask the command itself
                cmd = self.get_command(ctx, name)
                text = cmd.get_short_help_str(80) if cmd is not None else ""
            rows.append((name, text))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """click's main, with every error as one line and the documented exit codes."""
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        if args is None:  # a process of its own (console script, python -m), not a test
            _own_process_gc()
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else "referee-app"
            click.echo(f"error: {e.format_message()} (see '{where} --help')", err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"error: {e.format_message()}", err=True)
            sys.exit(2)
        except click.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(2)
        except OSError as e:  # a fault of the machine, not of the input
            what = f" ({e.filename})" if getattr(e, "filename", None) else ""
            click.echo(f"error: {e.strerror or e}{what}; check the disk and the file's "
                       "permissions, then retry", err=True)
            sys.exit(3)
        except MemoryError:
            click.echo("error: out of memory; close other programs and retry", err=True)
            sys.exit(3)
        except Exception as e:
            if os.environ.get("REFEREE_APP_DEBUG"):
                raise
            click.echo(f"error: internal error ({type(e).__name__}: {str(e)[:200]}); please "
                       "report it with the command line (REFEREE_APP_DEBUG=1 shows the "
                       "details)", err=True)
            sys.exit(3)
        sys.exit(rv if isinstance(rv, int) else 0)

    def make_context(self, info_name: str | None, args: list[str],
                     parent: click.Context | None = None, **extra: Any) -> click.Context:
        try:  # ``referee-app --help | head -c1``: the help is written here
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError:
            _stdout_gone()

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            _stdout_gone()

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        cmd = _load(target)
        if _GC["paused"]:  # the command's modules are in: what follows is its own work
            _GC["paused"] = False
            gc.freeze()
            gc.enable()
        if isinstance(cmd, click.Group):
            for sub in SUBCOMMANDS.get(cmd_name, ()):
                extra = _load(sub)
                if extra.name not in cmd.commands:
                    cmd.add_command(extra)
        for ext in EXTENSIONS.get(cmd_name, ()):
            _load(ext)(cmd)
        return cmd


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXIT_HELP)
@click.version_option(package_name="referee-app")
def main() -> None:
    """Referee Desk: validate, settle and report Sichuan mahjong (血战到底) tournament hands."""


if __name__ == "__main__":  # pragma: no cover
    main()
