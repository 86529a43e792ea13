"""``referee-app rulesets`` and ``referee-app rules``: the rules the app implements.

``rulesets`` lists the shipped rulesets, ``rulesets export ID -o FILE`` writes one as a
ruleset file a club can edit, ``rulesets check FILE`` checks such a file; ``rules``
prints a ruleset's clauses (a shipped id or ``--file``) and ``--diff ID`` every
difference from a shipped ruleset.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NoReturn

import click

from referee_app.core import RecordError, Ruleset, UnknownRulesetError, get_ruleset, list_rulesets
from referee_app.core.ruleset_file import (
    diff_rulesets,
    diff_texts,
    format_ruleset_json,
    nearest_shipped,
    ruleset_from_file,
)
from referee_app.core.wording import reading_text

from .lang import error_line, error_text, exception_text, lang, say

EXIT_OK, EXIT_BAD_INPUT = 0, 2


def _fail(line: str) -> NoReturn:
    click.echo(line, err=True)
    sys.exit(EXIT_BAD_INPUT)


def _load(ruleset: str | None, file: str | None) -> Ruleset:
    """A shipped ruleset by id, or a ruleset file (checked); one clear line otherwise."""
    try:
        if file is not None:
            return ruleset_from_file(file)
        return get_ruleset(ruleset or "")
    except (UnknownRulesetError, RecordError) as e:
        _fail(exception_text(e))


def _name(r: Ruleset) -> str:
    """A ruleset's name in the reader's language."""
    return (r.name_zh or r.name) if lang() == "zh" else r.name


@click.group(invoke_without_command=True)
@click.pass_context
def rulesets(ctx: click.Context) -> None:
    """List the rulesets the app ships (the default first).

    See also 'rulesets export' and 'rulesets check'."""
    if ctx.invoked_subcommand is None:
        for r in list_rulesets():
            click.echo(f"{r.id:<18} " + say("rules.listed", seats=len(r.seats), name=_name(r),
                                            source=r.source))


@rulesets.command("export")
@click.argument("ruleset_id")
@click.option("-o", "--output", "output", default="-", show_default=True,
              help="File to write (- for stdout).")
def export(ruleset_id: str, output: str) -> None:
    """Write shipped ruleset RULESET_ID as a complete ruleset file a club can edit.

    The file holds every amount, switch and clause text (docs/rulesets.md explains each
    field); change its "id" before changing anything else.
    """
    text = format_ruleset_json(_load(ruleset_id, None).to_data())
    if output == "-":
        click.echo(text, nl=False)
        return
    from referee_app.storage import StorageError
    from referee_app.storage.files import atomic_file

    try:
        with atomic_file(Path(output)) as f:
            f.write(text)
    except StorageError as e:
        _fail(exception_text(e))
    except OSError as e:
        _fail(error_line(say("cannot_write", path=output, detail=e.strerror), "output"))
    click.echo(say("rules.wrote", path=output, ruleset=ruleset_id))


@rulesets.command("check")
@click.argument("file")
def check(file: str) -> None:
    """Check ruleset FILE (schema and engine consistency); print its id and digest.

    Exit codes: 0 the file can be used; 2 it cannot (every problem is listed, each with
    its path).
    """
    try:
        r = ruleset_from_file(file)
    except RecordError as e:
        errors = getattr(e, "errors", None) or [(e.field, e.problem)]
        click.echo(error_text(e), err=True)
        if len(errors) > 1:
            for path, problem in errors:
                click.echo(f"  {path}: {problem}" if path else f"  {problem}", err=True)
        sys.exit(EXIT_BAD_INPUT)
    near, diffs = nearest_shipped(r)
    click.echo(say("rules.checked", ruleset=r.id, name=_name(r), digest=r.digest(),
                   nearest=near, n=len(diffs), file=file))


@click.command()
@click.argument("ruleset", required=False)
@click.option("--file", "file", default=None, help="A ruleset file instead of a shipped id.")
@click.option("--clause", "clause_id", default=None, help="Show only this clause, e.g. §2.12.")
@click.option("--diff", "diff_id", default=None,
              help="List every difference from this shipped ruleset instead.")
def rules(ruleset: str | None, file: str | None, clause_id: str | None,
          diff_id: str | None) -> None:
    """Print RULESET's clauses: Chinese, English and the Reading.

    Each clause in the original Chinese, in English, and as the app reads it.

    RULESET is a shipped id (see: referee-app rulesets); --file club.json reads a
    ruleset file instead. --diff ottawa-2009 lists what differs from that ruleset.
    """
    if (ruleset is None) == (file is None):
        _fail(error_line(say("rules.one_of")))
    r = _load(ruleset, file)
    if diff_id is not None:
        base = _load(diff_id, None)
        diffs = diff_rulesets(base, r)
        click.echo(say("rules.against", ruleset=r.id, base=base.id, n=len(diffs)))
        for path, a, b in diffs:
            left, right = diff_texts(a, b)
            click.echo(f"  {path}: {left} -> {right}")
        return
    ids = [clause_id] if clause_id else list(r.clauses)
    if clause_id and clause_id not in r.clauses:
        _fail(error_line(say("rules.no_clause", clause=clause_id, ruleset=r.id), "--clause"))
    zh = lang() == "zh"
    click.echo(f"{r.id} — {_name(r)}\n" + say("rules.source", source=r.source))
    if file is not None:
        click.echo(say("rules.file", file=file, digest=r.digest()))
    click.echo("")
    for cid in ids:
        c = r.clause(cid)
        click.echo(f"{cid} {c.title_zh}{'' if zh else ' ' + c.title_en}".rstrip())
        if c.zh:
            click.echo("  " + say("rules.original", text=c.zh))
        if c.en and not zh:  # the English rendering is for the English reader
            click.echo("  " + say("rules.english", text=c.en))
        if c.reading:
            click.echo("  " + say("rules.reading", text=reading_text(r.id, cid, c.reading,
                                                                      lang())))
            if not zh and reading_text(r.id, cid, c.reading, "zh") != c.reading:
                # the English reader is shown the 解读 too: what the Chinese desk shows
                click.echo("  " + say("rules.reading_zh",
                                      text=reading_text(r.id, cid, c.reading, "zh")))
        click.echo("")
