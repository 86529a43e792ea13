"""``referee-app event``: create, change, show, import, export and back up a tournament."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from referee_app.cli.common import CAP_FAN, STAKE
from referee_app.core import Ruleset
from referee_app.storage import StorageError, Tournament, signing
from referee_app.storage.backup_files import folder_size
from referee_app.storage.models import TournamentInfo
from referee_app.storage.referees import check_new_pin
from referee_app.storage.scoring import points_text
from referee_app.storage.wire import to_json

from .lang import error_text, lang, say, seat
from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
    read_pin,
    referee_option,
    tie_break_text,
)
from .stage import stage_line


def scoring_options(f: Any) -> Any:
    """``--scoring`` and ``--placement-points`` (event new and event set)."""
    f = click.option("--placement-points", default=None, metavar="LIST",
                     help="The places' points under placement scoring, best first, one per "
                          "seat (default 4,2,1,0; 2,1,0 at three seats); level players "
                          "share the points of the places they cover.")(f)
    return click.option("--scoring", type=click.Choice(["chips", "placement"]), default=None,
                        help="Rank by the chips (the default), or by placement points "
                             "(比赛分): each round, each table's players get the points of "
                             "their place by their chips there; chips break ties.")(f)


def scoring_text(i: TournamentInfo) -> str:
    """How the event ranks, in one line."""
    if i.placement:
        return say("event.scoring_placement", points=points_text(i.placement_points))
    return say("event.scoring_chips")


@click.group()
def event() -> None:
    """Create, import, export and describe the tournament.

    The whole tournament is one database file (--db)."""


@event.command("new")
@click.argument("name")
@click.option("--ruleset", default="ottawa-2009", show_default=True,
              help="Ruleset id (see 'referee-app rulesets').")
@click.option("--ruleset-file", "ruleset_file", default=None, type=click.Path(dir_okay=False),
              help="The tournament's own ruleset file (docs/rulesets.md): checked, then stored "
                   "inside the tournament (the file is not needed afterwards).")
@click.option("--venue", default="")
@click.option("--start-date", default="", help="YYYY-MM-DD")
@click.option("--end-date", default="", help="YYYY-MM-DD")
@click.option("--head-referee", default="",
              help="Make NAME the first head referee, with a PIN (asked twice, or "
                   "NEW_REFEREE_PIN): from then on every change needs a referee's PIN.")
@click.option("--referees", default="", help="Comma-separated referee names (names only; "
              "add referees with PINs with 'referee add').")
@click.option("--stake", type=STAKE, default=None, help="Chips per unit (default: the ruleset's).")
@click.option("--cap-fan", type=CAP_FAN, default=None,
              help="Cap on total fan for this tournament (default: the ruleset's; "
                   "sichuan-novel leaves it to the tournament).")
@click.option("--tie-break", default=None,
              help="Comma-separated order, e.g. chips,wins,largest_win_fan,-discards_paid")
@click.option("--verified-only", is_flag=True,
              help="Standings count only verified hands (provisional until every hand is "
                   "verified); 'event set --all-hands-count' turns it off.")
@scoring_options
@db_option
@handle_errors
def event_new(name: str, ruleset: str, ruleset_file: str | None, venue: str, start_date: str,
              end_date: str, head_referee: str, referees: str, stake: int | None,
              cap_fan: int | None, tie_break: str | None, verified_only: bool,
              scoring: str | None, placement_points: str | None, db: Path) -> None:
    """Create a new tournament NAME in --db (refuses to overwrite an existing file)."""
    kw: dict[str, Any] = {}
    if scoring is not None:
        kw["scoring"] = scoring
    if placement_points is not None:
        kw["placement_points"] = placement_points
    rules: str | Ruleset = ruleset
    if ruleset_file is not None:
        from referee_app.core.ruleset_file import ruleset_from_file

        rules = ruleset_from_file(ruleset_file)
    if tie_break:
        kw["tie_break"] = _split(tie_break)
    if head_referee.strip():
        kw["head_pin"] = read_pin(say("new_pin_for", name=head_referee.strip()),
                                  "NEW_REFEREE_PIN", confirm=True)
    with Tournament.create(db, name, ruleset=rules, venue=venue, start_date=start_date,
                           end_date=end_date, head_referee=head_referee,
                           referees=_split(referees), stake=stake, cap_fan=cap_fan,
                           verified_only=verified_only, **kw) as t:
        i = t.info
        cap = say("event.with_cap", n=i.cap_fan) if i.cap_fan is not None else ""
        only = say("event.with_verified_only") if i.verified_only else ""
        click.echo(say("event.created", name=i.name, ruleset=i.ruleset, seats=i.table_size,
                       cap=cap, verified=only, path=db))
        click.echo("  " + scoring_text(i))
        click.echo(say("event.signing_key_made", fp=i.signing_key, short=i.signing_key_short,
                       folder=signing.key_dir()))


def _verifier(self_verify: bool) -> str:
    return say("event.verifier_self" if self_verify else "event.verifier_second")


def _counted(verified_only: bool) -> str:
    return say("event.counted_verified" if verified_only else "event.counted_all")


def _names(names: list[str] | tuple[str, ...]) -> str:
    return say("list_sep").join(names) or "-"


def _split(text: str | None) -> list[str]:
    return [k.strip() for k in (text or "").split(",") if k.strip()]


@event.command("set")
@click.option("--name", default=None)
@click.option("--venue", default=None)
@click.option("--start-date", default=None)
@click.option("--end-date", default=None)
@click.option("--head-referee", default=None)
@click.option("--referees", default=None, help="Comma-separated referee names.")
@click.option("--stake", type=STAKE, default=None)
@click.option("--cap-fan", type=CAP_FAN, default=None,
              help="Cap on total fan for hands saved from now on.")
@click.option("--tie-break", default=None, help="Comma-separated tie-break order.")
@click.option("--templates", default=None, metavar="DIR",
              help="The tournament's report template folder ('' for the shipped ones; "
                   "relative to the database's folder).")
@click.option("--verified-only/--all-hands-count", "verified_only", default=None,
              help="Standings count only verified hands and are marked provisional until "
                   "every hand is verified (--all-hands-count: every saved hand counts).")
@click.option("--results-url", default=None, metavar="URL",
              help="The players' live results page (e.g. the address 'referee-app serve' "
                   "prints): its QR code goes on table cards and printed standings "
                   "('' for none).")
@click.option("--self-verify/--second-verifier", "self_verify", default=None,
              help="A one-referee event: the referee may verify the hands they entered or "
                   "last amended (recorded; refused while two or more referees are "
                   "registered). --second-verifier: a second referee verifies each hand "
                   "(the default).")
@click.option("--resettle", is_flag=True,
              help="Also write a new version of every saved hand that settles differently "
                   "under the new cap/stake (reason \"cap changed to N\"; head referee).")
@scoring_options
@referee_option
@db_option
@handle_errors
def event_set(name: str | None, venue: str | None, start_date: str | None,
              end_date: str | None, head_referee: str | None, referees: str | None,
              stake: int | None, cap_fan: int | None, tie_break: str | None,
              templates: str | None, verified_only: bool | None,
              results_url: str | None, self_verify: bool | None, resettle: bool,
              scoring: str | None, placement_points: str | None, referee: str,
              db: Path) -> None:
    """Change the tournament's details (the ruleset cannot change once created).

    A new cap or stake applies to hands saved after it: saved hands keep the settlement
    they were saved with. The command says how many saved hands would settle differently;
    --resettle writes a new version of each of them."""
    fields: dict[str, Any] = {k: v for k, v in (
        ("name", name), ("venue", venue), ("start_date", start_date), ("end_date", end_date),
        ("head_referee", head_referee), ("stake", stake), ("cap_fan", cap_fan),
        ("templates", templates), ("verified_only", verified_only),
        ("results_url", results_url), ("self_verify", self_verify), ("scoring", scoring),
        ("placement_points", placement_points))
        if v is not None}
    if referees is not None:
        fields["referees"] = _split(referees)
    if tie_break is not None:
        fields["tie_break"] = _split(tie_break)
    if not fields and not resettle:
        raise StorageError.of("options", "nothing_to_change")
    if templates:  # the folder and its templates are checked now, not at the first report
        from referee_app.reports.api import check_templates
        from referee_app.reports.template import TemplateError

        try:
            check_templates(db, templates)
        except TemplateError as e:
            raise StorageError.like("--templates", e) from None
    with open_db(db, referee) as t:
        i = t.update_info(referee=referee, **fields) if fields else t.info
        click.echo(say("event.settings", name=i.name, venue=i.venue or "-",
                       start=i.start_date or "-", end=i.end_date or "-", stake=i.stake,
                       referees=_names(i.referees), head=i.head_referee or "-",
                       tie_break=tie_break_text(i.tie_break), templates=i.templates or "-",
                       counted=_counted(i.verified_only), verifier=_verifier(i.self_verify),
                       results=i.results_url or "-"))
        click.echo("  " + scoring_text(i))
        differ = t.settled_differently()
        if resettle:
            done = t.resettle(referee=referee)
            click.echo(say("event.resettled", n=len(done), hands=_names(
                [f"#{h.id} v{h.version}" for h in done])))
        elif differ:
            click.echo(say("event.would_differ", n=len(differ)))


@event.command("info")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def event_info(as_json: bool, db: Path) -> None:
    """Show the tournament's details, rounds and counts (--json: with the record's entries,
    full digest and signing key)."""
    with open_db(db) as t:
        i = t.info
        if as_json:
            n, full = t.record.head()
            echo_json({**to_json(i), "record": {"entries": n, "digest": full},
                       "signing_key": i.signing_key or None,
                       "private_key_here": t.keys.here(),
                       "rounds": to_json(t.rounds.list()),
                       "players": len(t.players.list())})
            return
        cap = say("event.cap_fan", n=i.cap_fan) if i.cap_fan is not None else \
            say("event.cap_ruleset")
        n, digest = t.record.digest()
        rules = t.ruleset()
        click.echo(say("event.info", name=i.name, ruleset=i.ruleset,
                       ruleset_name=(rules.name_zh or rules.name) if lang() == "zh"
                       else rules.name, digest=t.settings()["ruleset_digest"][:12],
                       entries=n, record=digest, seats=" ".join(seat(x) for x in i.seats),
                       stake=i.stake, cap=cap, venue=i.venue or "-",
                       start=i.start_date or "-", end=i.end_date or "-",
                       tie_break=tie_break_text(i.tie_break), referees=_names(i.referees),
                       head=i.head_referee or "-", templates=i.templates or "-",
                       counted=_counted(i.verified_only), verifier=_verifier(i.self_verify),
                       results=i.results_url or "-", players=len(t.players.list())))
        click.echo("  " + (say("event.key_here" if t.keys.here() else "event.key_not_here",
                               fp=i.signing_key) if i.signing_key else say("event.key_none")))
        click.echo("  " + scoring_text(i))
        stages = t.stages.list()
        if len(stages) > 1:
            for st in stages:
                click.echo("  " + stage_line(st))
        for r in t.rounds.list():
            byes = say("event.byes", names=_names(r.byes)) if r.byes else ""
            click.echo("  " + say("event.round", round=r.number, tables=r.tables,
                                  hands=r.hands, byes=byes))
        if t.rounds.list():
            from .rounds import in_play_text

            click.echo("  " + in_play_text(t.rounds.in_play()))


@event.command("import")
@click.argument("bundle", type=click.Path(dir_okay=False))
@click.option("--legacy", is_flag=True,
              help="Accept a bundle written before the tamper-evident record (no chain): it is "
                   "settled under the current rules and the record says it was imported so.")
@click.option("--key", "key", default=None, metavar="FINGERPRINT",
              help="Refuse the bundle unless its record is signed by this key (at least the "
                   "first 16 hex digits of the fingerprint 'event info' shows).")
@db_option
@handle_errors
def event_import(bundle: str, legacy: bool, key: str | None, db: Path) -> None:
    """Create --db from a tournament BUNDLE.json after verifying all of it (the chain, every
    signature, every settlement under its stored settings, seating, penalties); all or
    nothing. No PIN travels in a bundle: a tournament with referees asks a new PIN for its
    head referee (twice, or NEW_REFEREE_PIN); every other referee sets theirs with
    'referee pin NAME' before their first change."""

    def head_pin(name: str) -> str:
        # asked once the whole bundle is checked: on a terminal a PIN the rules refuse is
        # said and asked again, rather than throwing that work away
        while True:
            pin = read_pin(say("new_head_pin_for", name=name), "NEW_REFEREE_PIN", confirm=True)
            if "NEW_REFEREE_PIN" in os.environ:
                return pin
            try:
                return check_new_pin(pin)
            except StorageError as e:
                click.echo(error_text(e), err=True)

    with Tournament.import_bundle(bundle, db, legacy=legacy, key=key, head_pin=head_pin) as t:
        n, digest = t.record.digest()
        click.echo(say("event.imported", name=t.info.name, players=len(t.players.list()),
                       rounds=len(t.rounds.list()), hands=len(t.hands.index()),
                       penalties=len(t.penalties.list()), path=db, entries=n, record=digest))
        fp = t.info.signing_key
        if not fp:
            click.echo(say("event.imported_unsigned"))
        else:
            click.echo(say("event.imported_signed" if t.keys.here()
                           else "event.imported_signed_not_here", fp=fp,
                           short=signing.short(fp)))
        missing = t.referees.without_pin()
        if missing:
            click.echo(say("event.imported_no_pins", names=_names(missing)))


@event.command("export")
@click.argument("bundle", type=click.Path(dir_okay=False))
@db_option
@handle_errors
def event_export(bundle: str, db: Path) -> None:
    """Write the whole tournament to BUNDLE.json (lossless; re-import with 'event import')."""
    with open_db(db) as t:
        b = t.write_bundle(bundle)
        click.echo(say("event.exported", path=bundle, players=b.players, rounds=b.rounds,
                       hands=b.hands, penalties=b.penalties))


@event.command("backup")
@db_option
@handle_errors
def event_backup(db: Path) -> None:
    """Write a backup point now (what changed since the last one) and say where."""
    with open_db(db) as t:
        p = t.backups.write()
        entries, digest = t.record.digest()
        click.echo(say("event.backup_written" if t.backups.written else
                       "event.backup_unchanged", path=p, entries=entries, digest=digest))
        click.echo(say("event.backups_kept", size=_size(folder_size(t.path)), folder=p.parent,
                       db=_size(t.store.size())))


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{n / 1e3:.0f} kB"


