"""``referee-app key``: the tournament's signing key on this desk.

Every write's chain head is signed with the tournament's private key, kept in this desk's
key folder (``REFEREE_APP_KEYS``, else ``keys/`` in the user's data folder), never in the
database. A standby or a new head desk needs it to write: export it here, import it there.
The passphrase is asked on a terminal (twice for an export) or read from ``KEY_PASSPHRASE``.
"""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.storage import Tournament, signing

from .lang import say
from .options import db_option, echo_json, handle_errors, open_db, read_pin, referee_option

PASSPHRASE_ENV = "KEY_PASSPHRASE"


@click.group()
def key() -> None:
    """Show, export, import or replace the key that signs the record."""


@key.command("show")
@click.option("--json", "as_json", is_flag=True)
@db_option
@handle_errors
def key_show(as_json: bool, db: Path) -> None:
    """Which key signs the record, and whether its private key is on this desk."""
    with open_db(db) as t:
        fp, here = t.keys.fingerprint, t.keys.here()
        if as_json:
            echo_json({"signing_key": fp or None, "short": signing.short(fp) or None,
                       "private_key_here": here, "folder": str(signing.key_dir())})
            return
        if not fp:
            click.echo(say("key.none"))
            return
        click.echo(say("key.show", fp=fp, short=signing.short(fp)))
        click.echo(say("key.private_here" if here else "key.private_not_here",
                       path=signing.key_path(fp)))


@key.command("export")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@db_option
@handle_errors
def key_export(file: Path, db: Path) -> None:
    """Write the private key to FILE, encrypted with a passphrase (asked twice, or
    KEY_PASSPHRASE), for 'referee-app key import' on a standby or a new head desk. Keep FILE
    and its passphrase apart: together they let anyone sign this tournament's record."""
    with open_db(db) as t:
        fp = t.keys.fingerprint
        passphrase = read_pin(say("key.passphrase_new"), PASSPHRASE_ENV, confirm=True,
                              refusal="no_terminal_for_passphrase")
        t.keys.export(file, passphrase)
        click.echo(say("key.exported", path=file, fp=fp, short=signing.short(fp)))


@key.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              envvar="REFEREE_APP_DB",
              help="Check that FILE is this tournament's key before importing it.")
@handle_errors
def key_import(file: Path, db: Path | None) -> None:
    """Import an exported key (its passphrase asked, or KEY_PASSPHRASE) into this desk's key
    folder: from then on this desk can write the tournaments it signs."""
    wanted = None
    if db is not None:
        with Tournament.open(db) as t:
            wanted = t.keys.fingerprint
    passphrase = read_pin(say("key.passphrase_of", path=file), PASSPHRASE_ENV,
                          refusal="no_terminal_for_passphrase")
    k = signing.import_key(file, passphrase, expect=wanted)
    click.echo(say("key.imported", fp=k.fingerprint, short=signing.short(k.fingerprint),
                   folder=signing.key_dir()))


@key.command("replace")
@click.option("--reason", required=True, help="Why (kept in the record).")
@referee_option
@db_option
@handle_errors
def key_replace(reason: str, referee: str, db: Path) -> None:
    """A new key for the record (head referee): when the private key was lost with its
    desk, or may have been copied. The record says so in an entry signed with the new key;
    'verify --key OLD' then names that entry. Tell those who check the record the new key."""
    with open_db(db, referee) as t:
        old = t.keys.fingerprint
        fp = t.keys.replace(referee=referee, reason=reason)
        click.echo(say("key.replaced", fp=fp, short=signing.short(fp)))
        if old:
            click.echo(say("key.replaced_before", old=signing.short(old)))
