"""``referee-app``: a thin click CLI; each command is one library call plus clear errors.

Subcommands are imported lazily so ``referee-app score`` never loads storage, Qt or
reportlab (cold start matters to scripts that score one record at a time).
"""

from __future__ import annotations

import importlib

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
    "gui": "referee_app.cli.gui:gui",
    "report": "referee_app.cli.report:report",
    "backup": "referee_app.cli.backup:backup",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module, attr = target.split(":")
        return getattr(importlib.import_module(module), attr)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="referee-app")
def main() -> None:
    """Referee Desk: validate, settle and report Sichuan mahjong (血战到底) tournament hands.

    \b
    Exit codes:
      0  done
      1  the record breaks a rule (the violations are listed)
      2  bad input or refused (names the field or file and what to do)
      3  a fault outside the input: the database busy beyond the wait, the disk
         full, a read-only or damaged file (see 'referee-app backup list')
    """


if __name__ == "__main__":  # pragma: no cover
    main()
