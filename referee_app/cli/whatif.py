"""``referee-app score FILE --what-if SWITCH=VALUE``: the hand as ruled beside the hand
under one alternative ruleset switch (a Reading decided the other way, another cap), and
the difference per seat. Nothing is stored. One library call:
:func:`referee_app.core.whatif.what_if`. Added to ``score`` from here (``EXTENSIONS``).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from referee_app.core import RecordError, get_ruleset
from referee_app.core.whatif import SWITCHES, WhatIfError, parse_setting, what_if

from .extend import add_option_action


def _run(kw: dict[str, Any]) -> None:
    from referee_app.core.ruleset_file import ruleset_from_file

    from .common import InputError, display_name, read_input
    from .score import _read_record

    try:
        name, value = parse_setting(kw["what_if"])
        club = (ruleset_from_file(kw["ruleset_file"]) if kw.get("ruleset_file") is not None
                else None)
        record = _read_record(read_input(kw["file"]), display_name(kw["file"]), club=club)
        rules = (club or get_ruleset(record.ruleset)).with_settings(
            cap_fan=kw.get("cap_fan"), stake=kw.get("stake"))
        w = what_if(record, rules, name, value)
    except (InputError, RecordError, WhatIfError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    if kw.get("as_json"):
        click.echo(json.dumps(w.to_dict(), ensure_ascii=False, indent=2))
        sys.exit(0 if w.alt.ok else 1)
    sw = SWITCHES[name]
    clause = sw.clause(rules)
    click.echo(f"what if {name} = {value} (now {w.current}){f' [{clause}]' if clause else ''}: "
               f"{sw.about}")
    if not (w.base.ok and w.alt.ok):
        for label, s in (("as ruled", w.base), ("what if", w.alt)):
            click.echo(f"  {label}: " + ("settles" if s.ok else "breaks the rules: " + "; ".join(
                f"{v.clause} {v.message}" for v in s.errors)))
        sys.exit(1)
    click.echo(f"  {'seat':<4}  {'as ruled':>8}  {'what if':>8}  {'change':>6}")
    for seat, d in w.difference.items():
        click.echo(f"  {seat:<4}  {w.base.totals[seat]:>+8d}  {w.alt.totals[seat]:>+8d}  "
                   f"{d:>+6d}")
    if not w.changes:
        click.echo("  (this hand settles the same either way)")
    sys.exit(0)


def extend_score(cmd: click.Command) -> None:
    add_option_action(cmd, click.Option(
        ["--what-if"], default=None, metavar="SWITCH=VALUE",
        help="Settle again with one ruleset switch changed and show the difference per "
             f"seat (switches: {', '.join(SWITCHES)}). Nothing is stored."), _run)
