"""Tournament commands: ``event``, ``players``, ``round``, ``hand``, ``standings``, ``penalty``.

Each command is one call into :mod:`referee_app.storage`; errors become
``error: <field>: <problem>`` with exit 2 (bad input), or exit 1 with the engine's errors
listed when a hand record breaks a rule. Nothing is written when a command fails.
"""

from __future__ import annotations

import functools
import json
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from referee_app.core import RecordError
from referee_app.storage import (
    HandInfo,
    HandRuleError,
    StorageError,
    Tournament,
    default_db_path,
)

EXIT_RULES, EXIT_BAD_INPUT = 1, 2
F = TypeVar("F", bound=Callable[..., Any])

_DEFAULT_DB = default_db_path()


def db_option(f: F) -> F:
    return click.option(
        "--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=_DEFAULT_DB,
        envvar="REFEREE_APP_DB", show_default=True,
        help="Tournament database file (env REFEREE_APP_DB).")(f)


def referee_option(f: F) -> F:
    return click.option("--referee", default="", help="Who makes this change (kept in the "
                        "history).")(f)


def handle_errors(f: F) -> F:
    """Turn storage/record errors into one clear line and the contract's exit codes."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return f(*args, **kwargs)
        except HandRuleError as e:
            click.echo(f"error: {e.field}: the record breaks the rules:", err=True)
            for v in e.violations:
                click.echo(f"  {v.clause:<7} {v.seat or '-':<2} {v.message}", err=True)
            click.echo("  (a head referee may record it with --override-reason TEXT)", err=True)
            sys.exit(EXIT_RULES)
        except (StorageError, RecordError) as e:
            click.echo(f"error: {e}", err=True)
            sys.exit(EXIT_BAD_INPUT)

    return wrapper  # type: ignore[return-value]


def _open(db: Path) -> Tournament:
    return Tournament.open(db)


def _read_json(path: str, what: str) -> Any:
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise StorageError(what, f"cannot read {path!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise StorageError(what, f"{path!r} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError("", f"{path}: not valid JSON: {e.msg} at line {e.lineno} column "
                          f"{e.colno}") from None


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _pad(text: str, width: int) -> str:
    """Left-align allowing for double-width Chinese characters (terminal columns)."""
    return text + " " * max(0, width - _width(text))


def _echo_json(obj: Any) -> None:
    click.echo(json.dumps(obj, ensure_ascii=False, indent=2))


def _hand_line(h: HandInfo, seats: tuple[str, ...]) -> str:
    chips = "  ".join(f"{s} {h.players.get(s, '-')} {h.totals.get(s, 0):+d}" for s in seats)
    flags = f"  [{', '.join(h.flags)}]" if h.flags else ""
    return (f"#{h.id:<5} {h.label:<12} v{h.version} {h.status.value:<8} dealer {h.dealer}  "
            f"{chips}{flags}")


# --------------------------------------------------------------------------- event


@click.group()
def event() -> None:
    """Create, import, export and describe the tournament (one database file)."""


@event.command("new")
@click.argument("name")
@click.option("--ruleset", default="ottawa-2009", show_default=True,
              help="Ruleset id (see 'referee-app rulesets').")
@click.option("--venue", default="")
@click.option("--start-date", default="", help="YYYY-MM-DD")
@click.option("--end-date", default="", help="YYYY-MM-DD")
@click.option("--head-referee", default="")
@click.option("--referees", default="", help="Comma-separated referee names.")
@click.option("--stake", type=int, default=None, help="Chips per unit (default: the ruleset's).")
@click.option("--cap-fan", type=int, default=None,
              help="Cap on total fan for this tournament (default: the ruleset's; "
                   "sichuan-novel leaves it to the tournament).")
@click.option("--tie-break", default=None,
              help="Comma-separated order, e.g. chips,wins,largest_win_fan,-discards_paid")
@db_option
@handle_errors
def event_new(name: str, ruleset: str, venue: str, start_date: str, end_date: str,
              head_referee: str, referees: str, stake: int | None, cap_fan: int | None,
              tie_break: str | None, db: Path) -> None:
    """Create a new tournament NAME in --db (refuses to overwrite an existing file)."""
    kw: dict[str, Any] = {}
    if tie_break:
        kw["tie_break"] = _split(tie_break)
    with Tournament.create(db, name, ruleset=ruleset, venue=venue, start_date=start_date,
                           end_date=end_date, head_referee=head_referee,
                           referees=_split(referees), stake=stake, cap_fan=cap_fan,
                           **kw) as t:
        i = t.info
        cap = f", cap {i.cap_fan} fan" if i.cap_fan is not None else ""
        click.echo(f"created {i.name!r} ({i.ruleset}, {i.table_size} seats a table{cap}) "
                   f"in {db}")


def _split(text: str | None) -> list[str]:
    return [k.strip() for k in (text or "").split(",") if k.strip()]


@event.command("set")
@click.option("--name", default=None)
@click.option("--venue", default=None)
@click.option("--start-date", default=None)
@click.option("--end-date", default=None)
@click.option("--head-referee", default=None)
@click.option("--referees", default=None, help="Comma-separated referee names.")
@click.option("--stake", type=int, default=None)
@click.option("--cap-fan", type=int, default=None,
              help="Cap on total fan for hands saved from now on.")
@click.option("--tie-break", default=None, help="Comma-separated tie-break order.")
@referee_option
@db_option
@handle_errors
def event_set(name: str | None, venue: str | None, start_date: str | None,
              end_date: str | None, head_referee: str | None, referees: str | None,
              stake: int | None, cap_fan: int | None, tie_break: str | None, referee: str,
              db: Path) -> None:
    """Change the tournament's details (the ruleset cannot change once created)."""
    fields: dict[str, Any] = {k: v for k, v in (
        ("name", name), ("venue", venue), ("start_date", start_date), ("end_date", end_date),
        ("head_referee", head_referee), ("stake", stake), ("cap_fan", cap_fan))
        if v is not None}
    if referees is not None:
        fields["referees"] = _split(referees)
    if tie_break is not None:
        fields["tie_break"] = _split(tie_break)
    if not fields:
        raise StorageError("options", "nothing to change (see --help)")
    with _open(db) as t:
        i = t.update_info(referee=referee, **fields)
        click.echo(f"{i.name}: venue {i.venue or '-'}, {i.start_date or '-'} .. "
                   f"{i.end_date or '-'}, stake {i.stake}, referees "
                   f"{', '.join(i.referees) or '-'} (head {i.head_referee or '-'}), "
                   f"tie-break {', '.join(i.tie_break)}")


@event.command("info")
@db_option
@handle_errors
def event_info(db: Path) -> None:
    """Show the tournament's details, rounds and counts."""
    with _open(db) as t:
        i = t.info
        cap = f"{i.cap_fan} fan" if i.cap_fan is not None else "the ruleset's"
        click.echo(f"{i.name}\n  ruleset: {i.ruleset}  seats: {' '.join(i.seats)}  "
                   f"stake: {i.stake}  cap: {cap}\n  venue: {i.venue or '-'}  dates: "
                   f"{i.start_date or '-'} .. {i.end_date or '-'}\n  tie-break: "
                   f"{', '.join(i.tie_break)}\n  referees: {', '.join(i.referees) or '-'} "
                   f"(head: {i.head_referee or '-'})\n  players: {len(t.players())}")
        for r in t.rounds():
            click.echo(f"  round {r.number}: {r.tables} tables, {r.hands} hands"
                       + (f", byes: {', '.join(r.byes)}" if r.byes else ""))


@event.command("import")
@click.argument("bundle", type=click.Path(dir_okay=False))
@db_option
@handle_errors
def event_import(bundle: str, db: Path) -> None:
    """Create --db from a tournament BUNDLE.json (all or nothing)."""
    with Tournament.import_bundle(bundle, db) as t:
        click.echo(f"imported {t.info.name!r}: {len(t.players())} players, "
                   f"{len(t.rounds())} rounds, {len(t.hands())} hands, "
                   f"{len(t.penalties())} penalties into {db}")


@event.command("export")
@click.argument("bundle", type=click.Path(dir_okay=False))
@db_option
@handle_errors
def event_export(bundle: str, db: Path) -> None:
    """Write the whole tournament to BUNDLE.json (lossless; re-import with 'event import')."""
    with _open(db) as t:
        b = t.export_bundle(bundle)
        click.echo(f"wrote {bundle}: {len(b['players'])} players, {len(b['rounds'])} rounds, "
                   f"{len(b['hands'])} hands, {len(b['penalties'])} penalties")


@event.command("backup")
@db_option
@handle_errors
def event_backup(db: Path) -> None:
    """Write a backup copy now (SQLite backup API) and list the kept backups."""
    with _open(db) as t:
        p = t.backup()
        click.echo(f"backup written: {p}")
        click.echo(f"{len(t.backups())} backups kept in {p.parent}")


# --------------------------------------------------------------------------- players


@click.group()
def players() -> None:
    """Register and list players."""


@players.command("import")
@click.argument("csv_file", metavar="PLAYERS.csv", type=click.Path(dir_okay=False))
@click.option("--skip-existing", is_flag=True,
              help="Leave out rows naming players already registered (updated entry lists).")
@referee_option
@db_option
@handle_errors
def players_import(csv_file: str, skip_existing: bool, referee: str, db: Path) -> None:
    """Register players from a CSV with a header: name[,name_latin,club,status]."""
    with _open(db) as t:
        added = t.import_players_csv(csv_file, referee=referee, skip_existing=skip_existing)
        click.echo(f"registered {len(added)} players ({len(t.players())} in total)")


@players.command("add")
@click.argument("name")
@click.option("--latin", default="", help="Latin spelling of the name.")
@click.option("--club", default="")
@click.option("--status", default="active", show_default=True,
              type=click.Choice(["active", "late", "substitute", "withdrawn"]))
@referee_option
@db_option
@handle_errors
def players_add(name: str, latin: str, club: str, status: str, referee: str, db: Path) -> None:
    """Register one player NAME (the name hand records use)."""
    with _open(db) as t:
        p = t.add_player(name, name_latin=latin, club=club, status=status, referee=referee)
        click.echo(f"registered #{p.id} {p.display}")


@players.command("list")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def players_list(as_json: bool, db: Path) -> None:
    """List registered players."""
    with _open(db) as t:
        ps = t.players()
        if as_json:
            _echo_json([{"id": p.id, "name": p.name, "name_latin": p.name_latin,
                         "club": p.club, "status": p.status.value} for p in ps])
            return
        for p in ps:
            click.echo(f"#{p.id:<4} {_pad(p.display, 28)} {_pad(p.club, 16)} {p.status.value}")


@players.command("statement")
@click.argument("player")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def players_statement(player: str, as_json: bool, db: Path) -> None:
    """PLAYER's hands and penalties, every payment with its clause, and the total."""
    with _open(db) as t:
        st = t.player_statement(player)
        if as_json:
            _echo_json({"player": st.player.name, "total": st.total, "lines": [
                {"round": ln.round, "table": ln.table, "hand_no": ln.hand_no,
                 "hand_id": ln.hand_id, "seat": ln.seat, "chips": ln.chips,
                 "detail": list(ln.detail), "flags": list(ln.flags)} for ln in st.lines]})
            return
        click.echo(f"{st.player.display} — {st.player.club or '-'}")
        for ln in st.lines:
            where = (f"R{ln.round} T{ln.table} H{ln.hand_no} {ln.seat}" if ln.hand_id
                     else f"R{ln.round or '-'} penalty")
            flags = f"  [{', '.join(ln.flags)}]" if ln.flags and ln.hand_id else ""
            click.echo(f"  {where:<16}{ln.chips:>+6}{flags}")
            for d in ln.detail:
                click.echo(f"      {d}")
        click.echo(f"  total {st.total:+d}")


@players.command("status")
@click.argument("player")
@click.argument("status", type=click.Choice(["active", "late", "substitute", "withdrawn"]))
@click.option("--reason", default="")
@referee_option
@db_option
@handle_errors
def players_status(player: str, status: str, reason: str, referee: str, db: Path) -> None:
    """Set PLAYER's STATUS (a withdrawn player keeps results and is not seated again)."""
    with _open(db) as t:
        p = t.set_player_status(player, status, referee=referee, reason=reason)
        click.echo(f"#{p.id} {p.display}: {p.status.value}")


# --------------------------------------------------------------------------- round


@click.group("round")
def round_() -> None:
    """Seat rounds and show seatings."""


@round_.command("seat")
@click.argument("number", type=int)
@click.option("--seed", type=int, default=None, help="Reproducible seating (same seed, same "
              "history: same seating).")
@click.option("--fill", type=click.Choice(["byes", "substitutes"]), default=None,
              help="When players do not fill whole tables.")
@click.option("--replace", is_flag=True, help="Re-seat a round that has no hands yet.")
@click.option("--json", "as_json", is_flag=True)
@referee_option
@db_option
@handle_errors
def round_seat(number: int, seed: int | None, fill: str | None, replace: bool, as_json: bool,
               referee: str, db: Path) -> None:
    """Generate and save round NUMBER's seating, and print it."""
    with _open(db) as t:
        s = t.seat_round(number, seed=seed, fill=fill, referee=referee,
                         replace_existing=replace)
        if as_json:
            _echo_json({"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
                        "byes": list(s.byes), "repeat_pairs": s.repeat_pairs})
        else:
            click.echo(s.render())


@round_.command("show")
@click.argument("number", type=int)
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def round_show(number: int, as_json: bool, db: Path) -> None:
    """Print round NUMBER's seating and the next dealer at each table."""
    with _open(db) as t:
        s = t.seating(number)
        if not s.assignments:
            raise StorageError("round", f"round {number} is not seated")
        if as_json:
            _echo_json({"round": s.round, "tables": {str(k): v for k, v in s.tables.items()},
                        "byes": list(s.byes), "repeat_pairs": s.repeat_pairs})
            return
        click.echo(s.render())
        for tbl in s.tables:
            click.echo(f"  table {tbl}: next hand {t.next_hand_no(number, tbl)}, "
                       f"dealer {t.next_dealer(number, tbl)}")
        for p in t.seating_problems(number):
            click.echo(f"  problem: {p}")


@round_.command("set-seat")
@click.argument("number", type=int)
@click.argument("table", type=int)
@click.argument("seat")
@click.argument("player")
@referee_option
@db_option
@handle_errors
def round_set_seat(number: int, table: int, seat: str, player: str, referee: str,
                   db: Path) -> None:
    """Put PLAYER at TABLE SEAT in round NUMBER (swaps with the player's old seat)."""
    with _open(db) as t:
        click.echo(t.set_seat(number, table, seat, player, referee=referee).render())


# --------------------------------------------------------------------------- hand


@click.group()
def hand() -> None:
    """Add, amend, void, verify and list hands (history is never erased)."""


def _parse_totals(text: str | None) -> dict[str, int] | None:
    if not text:
        return None
    out: dict[str, int] = {}
    for part in text.split(","):
        seat, _, v = part.partition("=")
        try:
            out[seat.strip()] = int(v)
        except ValueError:
            raise StorageError("--totals", f"expected SEAT=CHIPS,..., got {part!r}") from None
    return out


@hand.command("add")
@click.argument("record", metavar="RECORD.json")
@click.option("--round", "round_no", type=int, required=True)
@click.option("--table", type=int, required=True)
@click.option("--hand", "hand_no", type=int, required=True, help="Hand number at the table.")
@click.option("--referee", default="", help="Who entered the hand.")
@click.option("--override-reason", default=None,
              help="Head referee only: record a rule-breaking hand anyway, with this reason.")
@click.option("--totals", default=None,
              help="With --override-reason: the chips to count, e.g. E=4,S=-4,W=0,N=0.")
@click.option("--json", "as_json", is_flag=True, help="Print the saved hand as JSON.")
@db_option
@handle_errors
def hand_add(record: str, round_no: int, table: int, hand_no: int, referee: str,
             override_reason: str | None, totals: str | None, as_json: bool, db: Path) -> None:
    """Validate, settle and save the hand in RECORD.json (- for stdin)."""
    data = _read_json(record, "RECORD")
    with _open(db) as t:
        expected_no = t.next_hand_no(round_no, table)
        suggested = t.next_dealer(round_no, table)
        h = t.add_hand(data, round=round_no, table=table, hand_no=hand_no, referee=referee,
                       override_reason=override_reason, override_totals=_parse_totals(totals))
        notes = []
        if hand_no > expected_no:
            notes.append(f"note: hand(s) {expected_no}-{hand_no - 1} of table {table} are not "
                         "entered yet")
        if hand_no == expected_no and h.dealer != suggested:
            notes.append(f"note: the record's dealer is {h.dealer}; the rules suggested "
                         f"{suggested}")
        for n in notes:
            click.echo(n, err=True)
        if as_json:
            _echo_json(_hand_json(h))
        else:
            click.echo(f"saved hand id {h.id}")
            click.echo(_hand_line(h, t.info.seats))
            click.echo(f"next dealer at table {table}: {t.next_dealer(round_no, table)}")


@hand.command("amend")
@click.argument("hand_id", type=int)
@click.argument("record", metavar="RECORD.json")
@click.option("--reason", required=True, help="Why the hand is corrected (required).")
@click.option("--referee", default="")
@click.option("--override-reason", default=None)
@click.option("--totals", default=None)
@db_option
@handle_errors
def hand_amend(hand_id: int, record: str, reason: str, referee: str,
               override_reason: str | None, totals: str | None, db: Path) -> None:
    """Correct hand HAND_ID with RECORD.json: a new version; earlier ones are kept."""
    data = _read_json(record, "RECORD")
    with _open(db) as t:
        h = t.amend_hand(hand_id, data, reason=reason, referee=referee,
                         override_reason=override_reason, override_totals=_parse_totals(totals))
        v = t.hand_history(hand_id)[-1]
        click.echo(f"hand {h.id} amended: version {h.version}")
        click.echo(_hand_line(h, t.info.seats))
        click.echo("change: " + "  ".join(f"{s} {d:+d}" for s, d in v.diff.items()))


@hand.command("history")
@click.argument("hand_id", type=int)
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def hand_history(hand_id: int, as_json: bool, db: Path) -> None:
    """Every version of HAND_ID with who, when, why and the chip change."""
    with _open(db) as t:
        vs = t.hand_history(hand_id)
        h = t.hand(hand_id)
        if as_json:
            _echo_json([{"version": v.version, "action": v.action.value,
                         "status": v.status.value, "referee": v.referee, "at": v.at,
                         "reason": v.reason, "override_reason": v.override_reason,
                         "totals": v.totals, "diff": v.diff, "changes": list(v.changes),
                         "record": v.record}
                        for v in vs])
            return
        click.echo(f"hand {hand_id} ({h.label}), {len(vs)} version(s)")
        for v in vs:
            click.echo(f"  v{v.version} {v.action.value:<9} {v.status.value:<8} {v.at[:19]} "
                       f"by {v.referee or '-'}" + (f"  reason: {v.reason}" if v.reason else "")
                       + (f"  OVERRIDE: {v.override_reason}" if v.override_reason else ""))
            click.echo("     totals: " + "  ".join(f"{s} {c:+d}" for s, c in v.totals.items())
                       + ("   change: " + "  ".join(f"{s} {d:+d}" for s, d in v.diff.items())
                          if v.version > 1 else ""))
            for line in v.changes:
                click.echo(f"     {line}")


def _hand_json(h: HandInfo) -> dict[str, Any]:
    return {"id": h.id, "round": h.round, "table": h.table, "hand_no": h.hand_no,
            "version": h.version, "status": h.status.value, "flags": list(h.flags),
            "dealer": h.dealer, "players": h.players, "totals": h.totals,
            "override_reason": h.override_reason, "entered_by": h.entered_by,
            "entered_at": h.entered_at, "record": h.record, "settlement": h.settlement}


@hand.command("show")
@click.argument("hand_id", type=int)
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def hand_show(hand_id: int, as_json: bool, db: Path) -> None:
    """Show the current version of HAND_ID with its settlement."""
    from referee_app.cli.score import render_text
    from referee_app.core import HandRecord, settle

    with _open(db) as t:
        h = t.hand(hand_id)
        if as_json:
            _echo_json(_hand_json(h))
            return
        click.echo(_hand_line(h, t.info.seats))
        if h.override_reason:
            click.echo(f"OVERRIDE by head referee: {h.override_reason}")
        click.echo(render_text(settle(HandRecord.from_dict(h.record))))


@hand.command("list")
@click.option("--round", "round_no", type=int, default=None)
@click.option("--table", type=int, default=None)
@click.option("--json", "as_json", is_flag=True)
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the hands of --round (or all) to this CSV file.")
@db_option
@handle_errors
def hand_list(round_no: int | None, table: int | None, as_json: bool, csv_path: str | None,
              db: Path) -> None:
    """List hands (current versions; amended / override / void are marked)."""
    with _open(db) as t:
        if csv_path:
            t.export_hands_csv(csv_path, round=round_no)
        hs = t.hands(round=round_no, table=table)
        if as_json:
            _echo_json([{k: v for k, v in _hand_json(h).items()
                         if k not in ("record", "settlement")} for h in hs])
            return
        for h in hs:
            click.echo(_hand_line(h, t.info.seats))
        click.echo(f"{len(hs)} hand(s)")


@hand.command("void")
@click.argument("hand_id", type=int)
@click.option("--reason", required=True)
@click.option("--referee", default="")
@db_option
@handle_errors
def hand_void(hand_id: int, reason: str, referee: str, db: Path) -> None:
    """Void HAND_ID: it stays listed as void and counts nothing."""
    with _open(db) as t:
        h = t.void_hand(hand_id, reason=reason, referee=referee)
        click.echo(_hand_line(h, t.info.seats))


@hand.command("verify")
@click.argument("hand_id", type=int)
@click.option("--referee", default="")
@db_option
@handle_errors
def hand_verify(hand_id: int, referee: str, db: Path) -> None:
    """Mark HAND_ID verified (a second referee checked it)."""
    with _open(db) as t:
        h = t.set_status(hand_id, "verified", referee=referee)
        click.echo(_hand_line(h, t.info.seats))


# --------------------------------------------------------------------------- standings


@click.command()
@click.option("--round", "round_no", type=int, default=None, help="That round only.")
@click.option("--through", type=int, default=None, help="Rounds 1..N.")
@click.option("--json", "as_json", is_flag=True,
              help='A list of {"rank", "player", "chips", ...} sorted by rank.')
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the standings to this CSV file.")
@db_option
@handle_errors
def standings(round_no: int | None, through: int | None, as_json: bool, csv_path: str | None,
              db: Path) -> None:
    """The leaderboard, recomputed from the current version of every hand."""
    with _open(db) as t:
        rows = t.standings(round_no, through_round=through)
        if csv_path:
            t.export_standings_csv(csv_path, round=round_no, through_round=through)
        if as_json:
            _echo_json([r.to_dict() for r in rows])
            return
        scope = (f"round {round_no}" if round_no else f"rounds 1-{through}" if through
                 else "overall")
        click.echo(f"{t.info.name} — standings ({scope}); tie-break: "
                   f"{', '.join(t.info.tie_break)}")
        rounds = sorted({n for r in rows for n in r.per_round}) if round_no is None else []
        click.echo(f"{'rank':>4}  {'player':<16}{'chips':>7}{'hands':>6}{'wins':>5}"
                   f"{'self':>5}{'dealt':>6}{'pigs':>5}{'max':>4}{'pen':>5}"
                   + "".join(f"{'R' + str(n):>6}" for n in rounds))
        for r in rows:
            rank = f"{r.rank}=" if r.tied else str(r.rank)
            click.echo(f"{rank:>4}  {_pad(r.player, 16)}{r.chips:>7}{r.hands:>6}{r.wins:>5}"
                       f"{r.self_drawn:>5}{r.discards_paid:>6}{r.flower_pigs:>5}"
                       f"{r.largest_win_fan:>4}{r.penalties:>5}"
                       + "".join(f"{r.per_round.get(n, 0):>6}" for n in rounds))
        click.echo("columns: self = self-drawn wins, dealt = discards paid (点炮), pigs = flower "
                   "pigs, max = largest win (fan), pen = penalties; '=' marks a shared rank")


# --------------------------------------------------------------------------- penalty


@click.group()
def penalty() -> None:
    """Penalties and adjustments (counted in the standings)."""


@penalty.command("add")
@click.argument("players", nargs=-1, required=True)
@click.option("--chips", type=int, required=True,
              help="Chips each named player loses (negative: a credit).")
@click.option("--reason", required=True)
@click.option("--clause", default=None, help="Rule clause cited, e.g. §2.4")
@click.option("--round", "round_no", type=int, default=None)
@click.option("--zero-sum", is_flag=True,
              help="Pay the chips to each tablemate in --round instead of a deduction.")
@click.option("--referee", default="")
@db_option
@handle_errors
def penalty_add(players: tuple[str, ...], chips: int, reason: str, clause: str | None,
                round_no: int | None, zero_sum: bool, referee: str, db: Path) -> None:
    """Penalise PLAYERS by --chips each."""
    with _open(db) as t:
        p = t.add_penalty(list(players), chips, reason, clause=clause, referee=referee,
                          zero_sum=zero_sum, round=round_no)
        click.echo(f"penalty {p.id}: " + ", ".join(f"{n} {c:+d}" for n, c in p.entries.items())
                   + f" ({p.reason})")


@penalty.command("list")
@db_option
@handle_errors
def penalty_list(db: Path) -> None:
    """List penalties (void ones marked)."""
    with _open(db) as t:
        for p in t.penalties():
            click.echo(f"#{p.id:<3} round {p.round or '-'} {p.clause or '':<6} "
                       + ", ".join(f"{n} {c:+d}" for n, c in p.entries.items())
                       + f"  {p.reason}  by {p.referee or '-'}" + ("  [void]" if p.void else ""))


@penalty.command("void")
@click.argument("penalty_id", type=int)
@click.option("--reason", required=True)
@click.option("--referee", default="")
@db_option
@handle_errors
def penalty_void(penalty_id: int, reason: str, referee: str, db: Path) -> None:
    """Cancel a penalty (it stays listed as void)."""
    with _open(db) as t:
        p = t.void_penalty(penalty_id, reason=reason, referee=referee)
        click.echo(f"penalty {p.id} void: {p.void_reason}")
