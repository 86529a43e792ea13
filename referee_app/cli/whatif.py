"""``referee-app score FILE --what-if SWITCH=VALUE``: the hand as ruled beside the hand
under one alternative ruleset switch (a Reading decided the other way, another cap), and
the difference per seat. Nothing is stored. One library call:
:func:`referee_app.core.whatif.what_if`.
"""

from __future__ import annotations

import json
import sys
from typing import Any, NoReturn

import click

from referee_app.core import RecordError, get_ruleset
from referee_app.core.whatif import SWITCHES, WhatIfError, parse_setting, what_if

from .common import InputError, display_name, read_input, read_record
from .lang import error_data, error_line, error_text, lang, say, seat, violation_data
from .layout import table
from .settlement import settlement_json


def value_text(value: Any) -> str:
    """A switch's value: ``True`` / ``是``, ``None`` / ``无``, a number as it is."""
    if (isinstance(value, bool) or value is None) and lang() != "en":
        return say(f"value.{str(value).lower()}")
    return str(value)


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
    except (InputError, RecordError, WhatIfError) as e:
        if as_json:
            click.echo(json.dumps({"ok": False, "error": error_data(e)}, ensure_ascii=False,
                                  indent=2))
        click.echo(error_text(e), err=True)
        sys.exit(2)
    except ValueError as e:  # a setting the ruleset refuses (the options check them first)
        click.echo(error_line(str(e)), err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps({**w.to_dict(), "as_ruled": settlement_json(w.base),
                               "alternative": settlement_json(w.alt)},
                              ensure_ascii=False, indent=2))
        sys.exit(0 if w.alt.ok else 1)
    clause = SWITCHES[name].clause(rules)
    click.echo(say("whatif.head", name=name, value=value_text(value),
                   current=value_text(w.current),
                   clause=say("whatif.clause", clause=clause) if clause else "",
                   about=say(f"switch.{name}")))
    if not (w.base.ok and w.alt.ok):
        for label, s in (("as_ruled", w.base), ("what_if", w.alt)):
            state = say("whatif.settles") if s.ok else say("whatif.breaks", problems=say(
                "problem_sep").join(f"{v.clause} {violation_data(v)['message']}"
                                    for v in s.errors))
            click.echo("  " + say("whatif.line", label=say(f"whatif.{label}"), state=state))
        sys.exit(1)
    for line in table([say("col.seat"), say("whatif.as_ruled"), say("whatif.what_if"),
                       say("whatif.change")],
                      [(seat(s), f"{w.base.totals[s]:+d}", f"{w.alt.totals[s]:+d}", f"{d:+d}")
                       for s, d in w.difference.items()], "lrrr", (4, 8, 8, 6), indent="  "):
        click.echo(line)
    if not w.changes:
        click.echo("  " + say("whatif.same"))
    sys.exit(0)


__all__ = ["show_what_if", "value_text"]
