"""The desk checks of ``hand``: ``hand amend … --dry-run`` prints the correction's impact
and writes nothing; ``hand verify ID --record FILE`` is the blind double-entry check.

Each is one library call (:mod:`referee_app.storage.impact`,
:mod:`referee_app.storage.verification`). Exit codes: 0 verified / impact shown, 1 the
entries differ (listed), 2 bad input.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, NoReturn

import click

from referee_app.core.errors import RecordError
from referee_app.core.scores import figure
from referee_app.storage import StorageError, Tournament

from .common import load_json_input, require_object
from .lang import exception_text, field_words, say, seat, violation_data
from .layout import table


def _read(path: str, what: str) -> Any:
    """The record in FILE or stdin, read like ``hand add`` reads it (BOM accepted, "FILE is
    empty", deep nesting and huge numbers refused, not an object refused by name)."""
    try:
        return require_object(load_json_input(path))
    except RecordError as e:
        raise StorageError.like(what, e) from None


def _refused(e: Exception) -> NoReturn:
    click.echo(exception_text(e), err=True)
    sys.exit(2)


def amend_dry_run(hand_id: int, record: str, reason: str, db: Path) -> NoReturn:
    """What amending ``hand_id`` with ``record`` would change; exit 0, or 1 when the
    amended hand would break the rules."""
    from referee_app.storage.impact import amend_impact

    try:
        data = _read(record, "RECORD")
        with Tournament.open(db) as t:
            imp = amend_impact(t, hand_id, data)
    except (StorageError, ValueError) as e:
        _refused(e)
    for line in impact_lines(imp):
        click.echo(line)
    click.echo(say("impact.dry_run", reason=reason))
    sys.exit(0 if imp.totals_after is not None else 1)


def impact_lines(imp: Any) -> list[str]:
    """An amendment's impact (:class:`~referee_app.storage.impact.AmendImpact`) as lines:
    the versions, each seat's total before and after, every rank that changes."""
    out = [say("impact.head", id=imp.hand_id, a=imp.version_from, b=imp.version_to)]
    if imp.totals_after is None:
        problems = [f"{v.clause} {violation_data(v)['message']}" for v in imp.violations]
        out.append(say("impact.breaks", problems=say("problem_sep").join(
            problems or imp.errors)))
        return out
    out.append(say("impact.totals", totals=say("list_sep").join(
        f"{seat(s)} {imp.totals_before.get(s, 0):+d} -> {imp.totals_after.get(s, 0):+d} "
        f"({d:+d})" for s, d in imp.seat_changes.items())))
    if imp.rank_changes:
        out += [say("impact.rank", player=r.player, a=r.rank_before, b=r.rank_after,
                    chips_a=figure(r.chips_before, signed=True),
                    chips_b=figure(r.chips_after, signed=True))
                for r in imp.rank_changes]
    else:
        out.append(say("impact.no_rank"))
    return out


def verify_record(hand_id: int, record: str, referee: str, db: Path) -> None:
    """Compare ``record`` (keyed again) with the saved hand; exit 1 listing the differences."""
    from referee_app.storage.verification import verify_hand

    try:
        data = _read(record, "record")
        with Tournament.open(db) as t:
            res = verify_hand(t, hand_id, data, referee=referee)
    except (StorageError, ValueError) as e:
        _refused(e)
    if res.verified:
        click.echo(say("verify.matches", id=res.hand_id))
        return
    click.echo(say("verify.differ", id=res.hand_id, n=len(res.differences)))
    for line in table([say("col.field"), say("col.first_entry"), say("col.second_entry")],
                      [(field_words(d.field), d.first or "—", d.second or "—")
                       for d in res.differences],
                      "lll", (0, 24), indent="  "):
        click.echo(line)
    click.echo(say("verify.resolve"))
    sys.exit(1)
