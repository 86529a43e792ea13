"""``referee-app verify`` and ``referee-app log``: the tamper-evident record, read back."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from referee_app.core.display import when
from referee_app.storage import RecordIntegrityError, VerifyReport, signing

from .common import ID
from .lang import error_text, say, term
from .layout import table as text_table
from .options import EXIT_RULES, db_option, echo_json, handle_errors, open_db


@click.command()
@click.option("--key", "key", default=None, metavar="FINGERPRINT",
              help="Also require the record to be signed by this key (at least the first 16 "
                   "hex digits of the fingerprint 'event info' shows); exit 1 naming the "
                   "first entry that is not.")
@click.option("--against", "against", default=None, metavar="DIGEST",
              help="A digest published earlier (a report's footer, a posted sheet: DIGEST "
                   "or ENTRIES:DIGEST): exit 1 unless the record passed through it with "
                   "everything up to it unchanged, naming where they part.")
@click.option("--every-signature", is_flag=True,
              help="Check each entry's signature with Ed25519 (about 0.1 ms each), not only "
                   "the last of each key, which vouches for every entry before it.")
@db_option
@handle_errors
def verify(key: str | None, against: str | None, every_signature: bool, db: Path) -> None:
    """Check the tamper-evident record end to end.

    The file's integrity, every chain entry and link, every signature, every table against
    the chain, every settlement re-settled under its stored settings; with --key, who
    signed it; with --against, that it still passes through a digest published earlier.

    Last line: ``ok ENTRIES DIGEST`` (exit 0), or the first entry that does not hold
    (exit 1), in the same words in every language (scripts read it)."""
    with open_db(db) as t:
        try:
            rep = t.record.verify(key=key, against=against, every_signature=every_signature)
        except RecordIntegrityError as e:
            click.echo(error_text(e), err=True)
            # the last line is the same in every language: scripts read it
            click.echo(f"FAILED {'entry ' + str(e.seq) if e.seq else e.field}")
            sys.exit(EXIT_RULES)
        click.echo(say("verify.resettled", n=rep.versions))
        click.echo(signed_line(rep))
        if against is not None:
            click.echo(say("verify.passes_through", anchor=against.strip()))
        click.echo(f"ok {rep.entries} {rep.short}")


def signed_line(rep: VerifyReport) -> str:
    """Who signed the record, in one line."""
    if not rep.signed:
        return say("verify.unsigned")
    runs = say("list_sep").join(say("verify.signed_run", a=a, b=b, key=signing.short(fp))
                                for fp, a, b in rep.keys)
    if rep.unsigned:
        return say("verify.signed_after", runs=runs, last=rep.unsigned, first=rep.unsigned + 1)
    return say("verify.signed", runs=runs)


@click.command()
@click.option("--hand", "hand_id", type=ID, default=None, help="Only entries of this hand.")
@click.option("--referee", default=None, help="Only entries made by this referee.")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def log(hand_id: int | None, referee: str | None, as_json: bool, db: Path) -> None:
    """Who did what and when, read from the chain (oldest first)."""
    with open_db(db) as t:
        entries = t.record.log(hand=hand_id, referee=referee, names=not as_json)
        if as_json:
            echo_json(entries)
            return
        rows = []
        for e in entries:
            brief = ", ".join(f"{k}={_brief(v)}" for k, v in e["detail"].items()
                              if k not in ("log", "redacted") and v not in (None, "", [], {}))
            rows.append((e["id"], when(e["at"]), e["referee"] or "-",
                         term("log_", e["action"]), brief))
        header = ["#", say("col.when"), say("col.by"), say("col.action"), say("col.detail")]
        for line in text_table(header, rows, "rllll"):
            click.echo(line)


def _brief(value: object) -> str:
    """A detail's value in a log line: lists without brackets or quotes, a SHA-256 digest
    to its first 12 digits (as report footers print it)."""
    if isinstance(value, list):
        return "[" + ", ".join(_brief(v) for v in value) + "]"
    text = str(value)
    if len(text) == 64 and all(c in "0123456789abcdef" for c in text):
        return text[:12]
    return text
