"""``referee-app analyse``: read a hand at the desk — is it a win, is it ready, for how much."""

from __future__ import annotations

import sys

import click

from referee_app.cli.common import EXIT_BAD_INPUT, EXIT_RULES
from referee_app.core import DEFAULT_RULESET, TileParseError, UnknownRulesetError
from referee_app.core.explain import analyse_ready, analyse_win


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
            if r.problems:
                click.echo(f"{tiles}: impossible hand — " + "; ".join(r.problems))
                sys.exit(EXIT_RULES)
            if r.flower_pig:
                click.echo("holds all three suits: a flower pig at the wall's end")
            if not r.ready:
                click.echo(f"{tiles}: not ready")
                return
            click.echo(f"{tiles}: ready on {' '.join(w.tile for w in r.waits)}; "
                       f"maximum {r.max_fan} fan")
            for w in r.waits:
                click.echo(f"  {w.tile}: {w.pattern}, {w.fan} fan")
            return
        a = analyse_win(tiles, winning_tile, pongs=pongs, kongs=kongs, ruleset=ruleset)
    except (TileParseError, UnknownRulesetError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    if a.impossible:
        click.echo(f"{a.tiles}: impossible hand — " + "; ".join(a.problems))
        sys.exit(EXIT_RULES)
    if not a.legal:
        click.echo(f"{a.tiles}: not a legal win — " + "; ".join(a.problems))
    for v in a.readings:
        click.echo(f"  {' '.join(v.groups):<28} {', '.join(v.features):<32} "
                   f"{v.pattern} ({v.pattern_clause}) {v.fan}")
    if a.best is not None and a.legal:
        b = a.best
        bonus = "".join(f" + {x.name} {x.fan}" for x in b.bonuses)
        click.echo(f"best: {b.pattern} ({b.pattern_clause}) {b.pattern_fan}{bonus} = {b.fan} fan")
