"""``referee-app score``: settle hand records from a file or stdin."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from typing import Any

import click

from referee_app.cli.common import (
    CAP_FAN,
    EXIT_BAD_INPUT,
    EXIT_OK,
    EXIT_RULES,
    STAKE,
    InputError,
    display_name,
    input_lines,
    read_input,
    read_record,
)
from referee_app.core import HandRecord, RecordError, Ruleset, Settlement, get_ruleset, settle
from referee_app.core.whatif import SWITCHES

from .lang import error_data, error_text
from .settlement import render_text, settlement_json
from .whatif import show_what_if

EXIT_UNREADABLE = EXIT_BAD_INPUT  # the name this module used before the shared codes
__all__ = ["render_text", "score", "settlement_json"]


def _dump(d: dict[str, Any], *, compact: bool) -> str:
    """JSON as UTF-8 text; where a value quoted from bad input holds a lone surrogate (no
    UTF-8 can carry one), everything outside ASCII is written as ``\\u`` escapes instead."""
    shape: dict[str, Any] = {"separators": (",", ":")} if compact else {"indent": 2}
    text = json.dumps(d, ensure_ascii=False, **shape)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(d, ensure_ascii=True, **shape)
    return text


def _score_jsonl(lines: Iterable[bytes], settings: dict[str, int | None],
                 club: Ruleset | None) -> int:
    """One settlement line per record line; a line that cannot be read becomes an error
    line (with its number) and the batch goes on. A line over 16 MiB stops the batch
    (exit 2 naming the limit): a batch is read as it comes, one record at a time."""
    worst = EXIT_OK
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            s = _settle(read_record(line, f"line {n}", f"line {n}: ", club), settings, club)
        except RecordError as e:
            click.echo(_dump({"ok": False, "errors": [
                {"clause": None, "seat": None, **error_data(e)}], "line": n}, compact=True))
            worst = max(worst, EXIT_BAD_INPUT)
            continue
        click.echo(_dump(settlement_json(s), compact=True))
        worst = max(worst, EXIT_OK if s.ok else EXIT_RULES)
    return worst


def _settle(record: HandRecord, settings: dict[str, int | None],
            club: Ruleset | None = None) -> Settlement:
    """Settle under the ruleset (a club's file, if given) with the tournament's own cap and
    stake, if given."""
    try:
        rules = (club or get_ruleset(record.ruleset)).with_settings(**settings)
    except ValueError as e:
        raise RecordError("--cap-fan/--stake", str(e)) from None  # (checked by the options)
    return settle(record, rules)


@click.command()
@click.argument("file", type=str)
@click.option("--json", "as_json", is_flag=True, help="Print the settlement JSON (hand-format.md), codes and steps beside the words.")
@click.option("--jsonl", "as_jsonl", is_flag=True,
              help="FILE holds one hand record per line; print one settlement JSON per line "
                   "(a line that cannot be read gives an error line; the batch goes on).")
@click.option("--cap-fan", type=CAP_FAN, default=None,
              help="Tournament cap on total fan, 1-99 (overrides the ruleset's, e.g. "
                   "sichuan-novel).")
@click.option("--stake", type=STAKE, default=None,
              help="Tournament stake, a whole number 1-1,000,000: every amount is "
                   "multiplied by it (default 1).")
@click.option("--ruleset-file", "ruleset_file", default=None,
              help="Settle under this ruleset file (docs/rulesets.md); records name its id.")
@click.option("--what-if", "what_if", default=None, metavar="SWITCH=VALUE",
              help="Settle again with one ruleset switch changed and show the difference per "
                   f"seat (switches: {', '.join(SWITCHES)}). Nothing is stored.")
def score(file: str, as_json: bool, as_jsonl: bool, cap_fan: int | None,
          stake: int | None, ruleset_file: str | None, what_if: str | None) -> None:
    """Validate and settle the hand record in FILE (or - for stdin).

    \b
    Exit codes: 0 settled; 1 the record breaks a rule (errors listed, each with its
    clause); 2 the input cannot be read (one line names the field and the problem);
    3 a fault outside the input (one line says what to do). A field name within two
    letters of a known one ("flag") is refused with "did you mean 'flags'?"; other unknown
    fields are kept and warned about on stderr.
    """
    if what_if is not None:
        show_what_if(what_if, file, as_json, cap_fan, stake, ruleset_file)
    try:
        club = None
        if ruleset_file is not None:  # the checker (jsonschema) loads only when needed
            from referee_app.core.ruleset_file import ruleset_from_file

            club = ruleset_from_file(ruleset_file)
        settings = {"cap_fan": cap_fan, "stake": stake}
        if as_jsonl:
            sys.exit(_score_jsonl(input_lines(file), settings, club))
        raw = read_input(file)
        s = _settle(read_record(raw, display_name(file), club=club), settings, club)
    except (InputError, RecordError) as e:
        if as_json:
            click.echo(_dump({"ok": False, "error": error_data(e)}, compact=False))
        click.echo(error_text(e), err=True)
        sys.exit(EXIT_BAD_INPUT)
    click.echo(_dump(settlement_json(s), compact=False) if as_json else render_text(s))
    sys.exit(EXIT_OK if s.ok else EXIT_RULES)
