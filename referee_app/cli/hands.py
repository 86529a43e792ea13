"""``referee-app hand``: add, amend, void, verify, list and show hands with their history."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import click

from referee_app.cli.common import EXIT_BAD_INPUT, HAND_NO, ID, NUMBER, TABLE, parse_totals
from referee_app.core import dealer_by_rule
from referee_app.core.display import when
from referee_app.storage import (
    HandInfo,
    HandStatus,
    HandVersion,
    StorageError,
    StorageFault,
    VersionAction,
)
from referee_app.storage.hand_queries import change_items, change_text

from .desk_checks import amend_dry_run, verify_record
from .lang import error_line, lang, problem, say, seat, term, violation_data
from .layout import pad
from .options import (
    db_option,
    echo_json,
    fail,
    hand_line,
    handle_errors,
    open_db,
    read_json,
    where,
)


@click.group()
def hand() -> None:
    """Add, amend, void, verify and list hands (history is kept).

    Nothing is ever erased: a correction is a new version, a void hand stays listed."""


@hand.command("add")
@click.argument("record", metavar="RECORD.json")
@click.option("--round", "round_no", type=NUMBER, required=True)
@click.option("--table", type=TABLE, required=True, help="Table number (1-999).")
@click.option("--hand", "hand_no", type=HAND_NO, required=True,
              help="Hand number at the table (1-999).")
@click.option("--referee", default="", help="Who entered the hand.")
@click.option("--override-reason", default=None,
              help="Head referee only: record a rule-breaking hand anyway, with this reason "
                   "and --totals.")
@click.option("--totals", default=None,
              help="With --override-reason (required with it): every seat's chips as ruled, "
                   "summing to 0, e.g. E=4,S=-4,W=0,N=0.")
@click.option("--json", "as_json", is_flag=True, help="Print the saved hand as JSON.")
@db_option
@handle_errors
def hand_add(record: str, round_no: int, table: int, hand_no: int, referee: str,
             override_reason: str | None, totals: str | None, as_json: bool, db: Path) -> None:
    """Validate, settle and save the hand in RECORD.json (- for stdin)."""
    data = read_json(record)
    with open_db(db, referee) as t:
        expected_no = t.hands.next_no(round_no, table)
        suggested = t.hands.next_dealer(round_no, table)
        h = t.hands.add(data, round=round_no, table=table, hand_no=hand_no, referee=referee,
                       override_reason=override_reason, override_totals=parse_totals(totals))
        if hand_no > expected_no:
            click.echo(say("hand.note_gap", first=expected_no, last=hand_no - 1, table=table),
                       err=True)
        if as_json:
            echo_json(_hand_json(h))
        else:
            click.echo(say("hand.saved", id=h.id))
            click.echo(hand_line(h, t.info.seats))
            click.echo(say("hand.next_dealer", table=table,
                           seat=seat(t.hands.next_dealer(round_no, table))))
        if hand_no == expected_no and h.dealer != suggested and \
                dealer_by_rule(t.ruleset(), hand_no):  # saved, but worth a look
            click.echo(say("hand.note_dealer", dealer=seat(h.dealer), suggested=seat(suggested),
                           id=h.id), err=as_json)


@hand.command("amend")
@click.argument("hand_id", type=ID, metavar="HAND_ID")
@click.argument("record", metavar="RECORD.json")
@click.option("--reason", required=True, help="Why the hand is corrected (required).")
@click.option("--referee", default="")
@click.option("--override-reason", default=None,
              help="Head referee only: the corrected record breaks a rule; with --totals.")
@click.option("--totals", default=None,
              help="With --override-reason: every seat's chips as ruled, summing to 0.")
@db_option
@click.option("--dry-run", is_flag=True, default=False,
              help="Print what the amendment would change (each seat's total, every rank) "
                   "and write nothing.")
def hand_amend(hand_id: int, record: str, reason: str, referee: str,
               override_reason: str | None, totals: str | None, db: Path,
               dry_run: bool) -> None:
    """Correct hand HAND_ID with RECORD.json: a new version; earlier ones are kept."""
    if dry_run:
        amend_dry_run(hand_id, record, reason, db)
    _amend(hand_id, record, reason, referee, override_reason, totals, db)


@handle_errors
def _amend(hand_id: int, record: str, reason: str, referee: str,
           override_reason: str | None, totals: str | None, db: Path) -> None:
    data = read_json(record)
    with open_db(db, referee) as t:
        h = t.hands.amend(hand_id, data, reason=reason, referee=referee,
                         override_reason=override_reason, override_totals=parse_totals(totals))
        v = t.hands.history(hand_id)[-1]
        click.echo(say("hand.amended", id=h.id, version=h.version))
        click.echo(hand_line(h, t.info.seats))
        click.echo(say("hand.change", change=_chips(v.diff)))


@hand.command("history")
@click.argument("hand_id", type=ID, metavar="HAND_ID")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def hand_history(hand_id: int, as_json: bool, db: Path) -> None:
    """Every version of HAND_ID with who, when, why and the chip change."""
    with open_db(db) as t:
        vs = t.hands.history(hand_id)
        h = t.hands.get(hand_id)
        if as_json:
            echo_json([{"version": v.version, "action": v.action.value,
                         "status": v.status.value, "referee": v.referee, "at": v.at,
                         "reason": v.reason, "override_reason": v.override_reason,
                         "totals": v.totals, "diff": v.diff, "changes": list(v.changes),
                         "record": v.record}
                        for v in vs])
            return
        click.echo(say("hand.history", id=hand_id, where=where(h.round, h.table, h.hand_no),
                       n=len(vs)))
        paid = _payments_as_data(vs, t.rules())
        for i, (before, v) in enumerate(zip([None, *vs], vs, strict=False)):
            click.echo(f"  v{v.version} {pad(_what(v), 10)} {when(v.at)} "
                       + say("hand.by", referee=v.referee or "-")
                       + (say("hand.reason", reason=v.reason) if v.reason else "")
                       + (say("hand.override", reason=v.override_reason)
                          if v.override_reason else ""))
            click.echo("     " + say("hand.totals", totals=_chips(v.totals))
                       + (say("hand.totals_change", change=_chips(v.diff))
                          if v.version > 1 else ""))
            both = (paid[i - 1], paid[i]) if i and None not in paid[i - 1:i + 1] else None
            for c in change_items(before, v, both) if before is not None else ():
                click.echo(f"     {change_text(c, lang())}")


def _what(v: HandVersion) -> str:
    """What a version did, in one word: entered, amended, verified, unverified, voided,
    restored (a status change says the status it set, not "status")."""
    if v.action is VersionAction.STATUS:
        return term("status_", "verified") if v.status is HandStatus.VERIFIED \
            else say("hand.unverified")
    return term("action_", v.action.value)


def _payments_as_data(vs: list[Any], rules: Any) -> list[tuple[Any, ...] | None]:
    """Each version's payments as data (its settlement settled again, when that is exactly
    what was stored: their reasons are then said in the reader's language), None for a
    version whose stored words are shown as they are."""
    from referee_app.core.settle import as_stored

    out: list[tuple[Any, ...] | None] = []
    for v in vs:
        s = as_stored(v.settlement, v.record, rules)
        out.append(s.payments if s is not None else None)
    return out


def _chips(by_seat: dict[str, int]) -> str:
    """``E +4  S -4`` (``东 +4  南 -4``)."""
    return "  ".join(f"{seat(s)} {c:+d}" for s, c in by_seat.items())


def _hand_json(h: HandInfo) -> dict[str, Any]:
    return {"id": h.id, "round": h.round, "table": h.table, "hand_no": h.hand_no,
            "version": h.version, "status": h.status.value, "flags": list(h.flags),
            "dealer": h.dealer, "players": h.players, "totals": h.totals,
            "override_reason": h.override_reason, "entered_by": h.entered_by,
            "entered_at": h.entered_at, "record": h.record, "settlement": h.settlement}


@hand.command("show")
@click.argument("hand_id", type=ID, metavar="HAND_ID")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def hand_show(hand_id: int, as_json: bool, db: Path) -> None:
    """Show the current version of HAND_ID with the settlement it was saved with (never
    settled again: a later change of cap or ruleset data does not touch it)."""
    from referee_app.core.settle import as_stored
    from referee_app.reports.detail import settlement_from_dict

    from .settlement import render_text

    with open_db(db) as t:
        h = t.hands.get(hand_id)
        # the stored settlement, as data when today's engine writes it so (its words then
        # in the reader's language), else as stored
        s = as_stored(h.settlement, h.record, t.rules()) or settlement_from_dict(h.settlement)
        if as_json:
            # the stored document as kept; beside it the rules an overridden hand breaks,
            # each with its code (empty for one known only by its stored words)
            echo_json({**_hand_json(h), "violations": [violation_data(v) for v in s.errors]})
            return
        click.echo(hand_line(h, t.info.seats))
        if h.override_reason:
            click.echo(say("hand.override_by_head", reason=h.override_reason))
        click.echo(render_text(s))


@hand.command("list")
@click.option("--round", "round_no", type=NUMBER, default=None)
@click.option("--table", type=TABLE, default=None)
@click.option("--json", "as_json", is_flag=True)
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the hands of --round (or all) to this CSV file.")
@db_option
@handle_errors
def hand_list(round_no: int | None, table: int | None, as_json: bool, csv_path: str | None,
              db: Path) -> None:
    """List hands (current versions; amended / override / void are marked)."""
    with open_db(db) as t:
        if csv_path:
            t.hands.export_csv(csv_path, round=round_no)
        hs = t.hands.list(round=round_no, table=table)
        if as_json:
            echo_json([{k: v for k, v in _hand_json(h).items()
                         if k not in ("record", "settlement")} for h in hs])
            return
        for h in hs:
            click.echo(hand_line(h, t.info.seats))
        click.echo(say("hand.count", n=len(hs)))


@hand.command("void")
@click.argument("hand_id", type=ID, metavar="HAND_ID")
@click.option("--reason", required=True)
@click.option("--referee", default="")
@db_option
@handle_errors
def hand_void(hand_id: int, reason: str, referee: str, db: Path) -> None:
    """Void HAND_ID: it stays listed as void and counts nothing."""
    with open_db(db, referee) as t:
        h = t.hands.void(hand_id, reason=reason, referee=referee)
        click.echo(hand_line(h, t.info.seats))


@hand.command("restore")
@click.argument("hand_id", type=ID, metavar="HAND_ID")
@click.option("--reason", required=True, help="Why the void hand counts again (required).")
@click.option("--referee", default="")
@db_option
@handle_errors
def hand_restore(hand_id: int, reason: str, referee: str, db: Path) -> None:
    """Bring void HAND_ID back (head referee): the only way back from void."""
    with open_db(db, referee) as t:
        h = t.hands.restore(hand_id, reason=reason, referee=referee)
        click.echo(hand_line(h, t.info.seats))


@hand.command("verify")
@click.argument("hand_id", type=ID, metavar="[HAND_ID]", required=False)
@click.option("--round", "round_no", type=NUMBER, default=None,
              help="Instead of HAND_ID: every hand of round N not yet verified.")
@click.option("--table", type=TABLE, default=None, help="With --round: only this table.")
@click.option("--referee", default="")
@db_option
@click.option("--record", default=None, metavar="FILE",
              help="Blind double entry: compare FILE (the slip keyed again) with the saved "
                   "hand; verified only if they match (exit 1 lists the differences).")
def hand_verify(hand_id: int | None, round_no: int | None, table: int | None, referee: str,
                db: Path, record: str | None) -> None:
    """Mark HAND_ID verified (a second referee checked it), or every hand of a round
    (--round N) or of one of its tables (--round N --table T): each hand is verified as
    HAND_ID would be; one that cannot be is named, and the others are verified."""
    if table is not None and round_no is None:
        fail(say("hand.verify_table_needs_round"), EXIT_BAD_INPUT)
    if (hand_id is None) == (round_no is None):
        fail(say("hand.verify_which"), EXIT_BAD_INPUT)
    if record is not None:
        if hand_id is None:
            fail(say("hand.verify_record_one_hand"), EXIT_BAD_INPUT)
        verify_record(hand_id, record, referee, db)
        return
    if hand_id is None:
        _verify_round(round_no or 0, table, referee, db)
        return
    _mark_verified(hand_id, referee, db)


@handle_errors
def _mark_verified(hand_id: int, referee: str, db: Path) -> None:
    with open_db(db, referee) as t:
        h = t.hands.set_status(hand_id, "verified", referee=referee)
        click.echo(hand_line(h, t.info.seats))


@handle_errors
def _verify_round(round_no: int, table: int | None, referee: str, db: Path) -> None:
    """Every entered hand of the round (or table) verified one by one, as ``hand verify
    HAND_ID``; a hand the store refuses is named on stderr (exit 2) and the rest go on."""
    with open_db(db, referee) as t:
        if round_no not in {r.number for r in t.rounds.list()}:
            raise StorageError.of("round", "round_not_seated_yet", round=round_no)
        waiting = [h for h in t.hands.list(round=round_no, table=table)
                   if h.status is HandStatus.ENTERED]
        refused = 0
        for h in waiting:
            try:
                done = t.hands.set_status(h.id, "verified", referee=referee)
            except StorageFault:
                raise
            except StorageError as e:
                refused += 1
                click.echo(error_line(f"{where(h.round, h.table, h.hand_no)} (#{h.id}): "
                                      f"{problem(e)}"), err=True)
                continue
            click.echo(hand_line(done, t.info.seats))
    at = (say("hand.verify_where_table", round=round_no, table=table) if table is not None
          else say("hand.verify_where_round", round=round_no))
    click.echo(say("hand.verify_done", n=len(waiting) - refused, where=at)
               + (" " + say("hand.verify_refused", n=refused) if refused else ""))
    if refused:
        sys.exit(EXIT_BAD_INPUT)


