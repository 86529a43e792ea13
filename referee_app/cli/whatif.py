"""``referee-app score FILE --what-if SWITCH=VALUE``: the hand as ruled beside the hand
under one alternative ruleset switch (a Reading decided the other way, another cap), and
the difference per seat. Nothing is stored. One library call:
:func:`referee_app.core.whatif.what_if`.
"""

from __future__ import annotations

import json
import sys
from typing import NoReturn

import click

from referee_app.core import RecordError, get_ruleset
from referee_app.core.whatif import SWITCHES, WhatIfError, parse_setting, what_if

from .common import InputError, display_name, read_input, read_record


def show_what_if(setting: str, file: str, as_json: bool, cap_fan: int | None,
                 stake: int | None, ruleset_file: str | None) -> NoReturn:
    """``score FILE --what-if SETTING``: both settlements and the change per seat; exit 0,
    or 1 when either breaks the rules, 2 on bad input."""
    from referee_app.core.ruleset_file import ruleset_from_file

    try:
        name, value = parse_setting(setting)
        club = ruleset_from_file(ruleset_file) if ruleset_file is not None else None
        record = read_record(read_input(file), display_name(file), club=club)
        rules = (club or get_ruleset(record.ruleset)).with_settings(cap_fan=cap_fan,
                                                                     stake=stake)
        w = what_if(record, rules, name, value)
    except (InputError, RecordError, WhatIfError, ValueError) as e:
        click.echo(f"error: {e}", err=True)
        sys.exit(2)
    if as_json:
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
