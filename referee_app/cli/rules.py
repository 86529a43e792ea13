"""``referee-app rulesets`` and ``referee-app rules RULESET``: the rules the app implements."""

from __future__ import annotations

import sys

import click

from referee_app.core import UnknownRulesetError, get_ruleset, list_rulesets


@click.command()
def rulesets() -> None:
    """List the rulesets the app ships (the default first)."""
    for r in list_rulesets():
        click.echo(f"{r.id:<18} {len(r.seats)} seats  {r.name}  [seed {r.source}]")


@click.command()
@click.argument("ruleset")
@click.option("--clause", "clause_id", default=None, help="Show only this clause, e.g. §2.12.")
def rules(ruleset: str, clause_id: str | None) -> None:
    """Print RULESET's clauses: original Chinese, English, and the app's Reading."""
    try:
        r = get_ruleset(ruleset)
    except UnknownRulesetError as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    ids = [clause_id] if clause_id else list(r.clauses)
    if clause_id and clause_id not in r.clauses:
        click.echo(f"error: clause {clause_id!r} is not in {r.id}", err=True)
        sys.exit(2)
    click.echo(f"{r.id} — {r.name}\nsource: {r.source}\n")
    for cid in ids:
        c = r.clause(cid)
        click.echo(f"{cid} {c.title_zh} {c.title_en}".rstrip())
        if c.zh:
            click.echo(f"  原文: {c.zh}")
        if c.en:
            click.echo(f"  English: {c.en}")
        if c.reading:
            click.echo(f"  Reading: {c.reading}")
        click.echo("")
