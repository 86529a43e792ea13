"""``referee-app analyse``: read a hand at the desk — is it a win, is it ready, for how much."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import click

from referee_app.cli.common import EXIT_BAD_INPUT, EXIT_RULES
from referee_app.core import DEFAULT_RULESET, RuleViolation
from referee_app.core.explain import analyse_ready, analyse_win

from .lang import exception_text, say, term, violation_data
from .layout import pad


@click.command()
@click.argument("tiles")
@click.option("--win", "winning_tile", default=None,
              help="The winning tile: TILES is then the hand without it (as on a slip).")
@click.option("--pong", "pongs", multiple=True, help="An exposed pong's tile (repeatable).")
@click.option("--kong", "kongs", multiple=True, help="A declared kong's tile (repeatable).")
@click.option("--ruleset", default=DEFAULT_RULESET, show_default=True)
def analyse(tiles: str, winning_tile: str | None, pongs: tuple[str, ...],
            kongs: tuple[str, ...], ruleset: str) -> None:
    """Analyse TILES: a win's readings and fan, or a hand's waits.

    TILES in the tile notation, e.g. 1112345678999m. With 14 tiles (or --win): every reading, its features and the best fan. With 13 tiles
    (counting each pong/kong as 3): whether the hand is ready, its waits and the §2.12
    maximum fan. The tiles are checked as ``score`` checks a record (§1 four copies of
    each tile and the ruleset's suits, §2.1 hand size, §2.4 suits of a win).

    \b
    Exit codes: 0 answered (a hand that is no legal win is an answer too);
    1 the tiles cannot all be on a table (§1: a fifth copy, a suit the ruleset does
    not play); 2 bad input (tile notation, unknown ruleset).
    """
    try:
        from referee_app.core.tiles import parse_indices

        n = len(parse_indices(tiles)) + 3 * (len(pongs) + len(kongs))
        if n == 13 and winning_tile is None:
            r = analyse_ready(tiles, pongs=pongs, kongs=kongs, ruleset=ruleset)
            if r.violations:
                click.echo(say("analyse.impossible", tiles=tiles,
                               problems=_problems(r.violations)))
                sys.exit(EXIT_RULES)
            if r.flower_pig:
                click.echo(say("analyse.flower_pig"))
            if not r.ready:
                click.echo(say("analyse.not_ready", tiles=tiles))
                return
            click.echo(say("analyse.ready", tiles=tiles, waits=" ".join(w.tile for w in r.waits),
                           fan=r.max_fan))
            for w in r.waits:
                click.echo("  " + say("analyse.wait", tile=w.tile, pattern=w.pattern, fan=w.fan))
            return
        a = analyse_win(tiles, winning_tile, pongs=pongs, kongs=kongs, ruleset=ruleset)
    except ValueError as e:  # bad notation, an unknown ruleset
        click.echo(exception_text(e), err=True)
        sys.exit(EXIT_BAD_INPUT)
    if a.impossible:
        click.echo(say("analyse.impossible", tiles=a.tiles, problems=_problems(a.violations)))
        sys.exit(EXIT_RULES)
    if not a.legal:
        click.echo(say("analyse.not_legal", tiles=a.tiles, problems=_problems(a.violations)))
    for v in a.readings:
        features = say("list_sep").join(term("cli.feature.", f) for f in v.features)
        click.echo(f"  {pad(' '.join(v.groups), 28)} {pad(features, 32)} "
                   f"{v.pattern} ({v.pattern_clause}) {v.fan}")
    if a.best is not None and a.legal:
        b = a.best
        bonus = "".join(f" + {x.name} {x.fan}" for x in b.bonuses)
        click.echo(say("analyse.best", pattern=b.pattern, clause=b.pattern_clause,
                       pattern_fan=b.pattern_fan, bonus=bonus, fan=b.fan))


def _problems(violations: Sequence[RuleViolation]) -> str:
    """The rules a hand breaks, each with its clause, in the reader's language."""
    return say("problem_sep").join(f"{v.clause} {violation_data(v)['message']}"
                                   for v in violations)
