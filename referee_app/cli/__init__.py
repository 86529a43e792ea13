"""``referee-app``: a thin click CLI; each command is one library call plus clear errors.

Subcommands are imported lazily, click's lazy-group pattern (:class:`LazyGroup`), so a
command loads only its own module: ``referee-app score`` never loads storage, Qt or
reportlab. ``--help`` loads every command to show each one's own first help line.

Every failure ends in one line on stderr and a documented exit code (:data:`EXIT_HELP`):
click's usage errors become ``error: …`` with exit 2, an operating-system fault exit 3,
and anything unexpected one line asking for a report (exit 3; ``REFEREE_APP_DEBUG=1``
shows the traceback) — never a traceback by default.

Everything is printed in the run's language (``--lang``, ``REFEREE_LANG`` or the locale;
:mod:`referee_app.cli.lang`), the help too (:mod:`referee_app.cli.helptext`).
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
from typing import Any, NoReturn

import click
from click.core import ParameterSource

from . import lang as cli_lang
from .helptext import HelpContext, speak_help

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
    "stage": "referee_app.cli.stage:stage",
    "referee": "referee_app.cli.referees:referee",
    "key": "referee_app.cli.keys:key",
    "verify": "referee_app.cli.record:verify",
    "log": "referee_app.cli.record:log",
    "gui": "referee_app.cli.gui:gui",
    "report": "referee_app.cli.report:report",
    "templates": "referee_app.cli.templates:templates",
    "backup": "referee_app.cli.backup:backup",
    "serve": "referee_app.cli.serve:serve",
}


def _load(target: str) -> click.Command:
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)


EXIT_HELP = ("Exit codes (every command): 0 done; 1 the record breaks a rule (each error "
             "cites its clause); 2 bad input or refused (one line names the field or file); "
             "3 a fault outside the input (database busy, disk full, read-only or damaged "
             "file; the line says what to do; 'referee-app backup list' for a damaged one).")


def _stdout_gone() -> NoReturn:
    """The reader of stdout stopped (``| head``): not an error of ours, exit 0 as the
    tournament commands do. click itself would exit 1 ("the record breaks a rule")."""
    with contextlib.suppress(OSError, ValueError):  # the final flush goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise click.exceptions.Exit(0)


class LazyGroup(click.Group):
    """The top-level group: each command imported from :data:`COMMANDS` when asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def main(self, args: Any = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        """click's main, with every error as one line and the documented exit codes."""
        argv = list(sys.argv[1:] if args is None else args)
        cli_lang.set_lang(*cli_lang.chosen(argv))  # before click: its errors in it too
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        say = cli_lang.say
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:  # a group without its command
            e.show()  # its help, as click shows it (not an "error:" line)
            sys.exit(2)
        except click.UsageError as e:
            where = e.ctx.command_path if e.ctx is not None else "referee-app"
            _error(say("usage_error", problem=e.format_message(), where=where))
            sys.exit(2)
        except click.ClickException as e:
            _error(e.format_message())
            sys.exit(2)
        except click.Abort:
            _error(say("aborted"))
            sys.exit(2)
        except OSError as e:  # a fault of the machine, not of the input
            what = f" ({e.filename})" if getattr(e, "filename", None) else ""
            _error(say("os_fault", problem=f"{e.strerror or e}{what}"))
            sys.exit(3)
        except MemoryError:
            _error(say("out_of_memory"))
            sys.exit(3)
        except Exception as e:
            if os.environ.get("REFEREE_APP_DEBUG"):
                raise
            _error(say("internal_error", problem=f"{type(e).__name__}: {str(e)[:200]}"))
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
        return speak_help(_load(target))


def _error(problem: str) -> None:
    click.echo(cli_lang.error_line(problem), err=True)


def _lang_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """The language of this run: as given, else the locale's (set again once parsed: the
    early look in :meth:`LazyGroup.main` only finds ``--lang`` before the command)."""
    if value is None:
        cli_lang.set_lang(cli_lang.locale_lang())
    elif value in cli_lang.LANGS:
        cli_lang.set_lang(value, True)
    else:
        where = ("--lang" if ctx.get_parameter_source("lang") is not ParameterSource.ENVIRONMENT
                 else cli_lang.ENV)
        raise click.BadParameter(cli_lang.say("bad_lang", got=value), ctx, param, where)
    return cli_lang.lang()


def _version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``: click's own words for it, in the run's language."""
    if not value or ctx.resilient_parsing:
        return
    from importlib.metadata import version

    click.echo(cli_lang.click_text("%(prog)s, version %(version)s")
               % {"prog": ctx.find_root().info_name, "version": version("referee-app")})
    ctx.exit()


LazyGroup.context_class = HelpContext


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]},
             epilog=EXIT_HELP)
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=_version, help="Show the version and exit.")
@click.option("--lang", envvar=cli_lang.ENV, is_eager=True,
              expose_value=False, callback=_lang_option, metavar="zh|en",
              help="Language of everything printed: zh (中文) or en (English). Default: "
                   "REFEREE_LANG, else the locale (中文 when it is Chinese). Options, "
                   "commands, JSON keys and exit codes are the same in both.")
def main() -> None:
    """Referee Desk: validate, settle and report Sichuan mahjong (血战到底) tournament hands."""


if __name__ == "__main__":  # pragma: no cover
    main()
