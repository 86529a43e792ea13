"""``referee-app gui``: open the referee desk window, or render it to a PNG."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.gui.app import MAX_LOCK_MINUTES, VIEWS  # plain names: loads no Qt

from . import lang as cli_lang
from .lang import error_line, say


def _finite(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """``nan`` passes click's range check (every comparison with it is false) and would be
    kept as the desk's setting, breaking its idle timer at every start: refused."""
    if value is not None and value != value:
        raise click.BadParameter(say("gui.bad_minutes", max=MAX_LOCK_MINUTES), ctx, param)
    return value


@click.command("gui")
@click.option("--db", "db", type=click.Path(dir_okay=False, path_type=Path),
              help="Tournament database to open (create one with 'referee-app event new').")
@click.option("--demo", is_flag=True, help="Open the demo tournament from sample_events/.")
@click.option("--screenshot", type=click.Path(dir_okay=False, path_type=Path),
              help="Render the window offscreen to this PNG file and exit.")
@click.option("--view", type=click.Choice(list(VIEWS)),
              default="entry", show_default=True,
              help="What the screenshot shows: a tab, the history dialog or the projector.")
@click.option("--lang", type=click.Choice(["zh", "en"]), default=None,
              help="Interface language (中文 / English); switchable in the window. Default: "
                   "the command line's when chosen ('referee-app --lang', REFEREE_LANG), "
                   "else 中文.")
@click.option("--referee", default="", help="Referee name recorded on saved hands (in a "
              "tournament with referees: the name offered at sign-in; the PIN is asked).")
@click.option("--lock-minutes", type=click.FloatRange(min=0, max=MAX_LOCK_MINUTES),
              default=None, callback=_finite,
              help="Lock the desk after this many idle minutes and ask the PIN again "
              "(default: the saved setting, 10; 0 never locks).")
@click.option("--size", default="1500x900", show_default=True,
              help="Window size WIDTHxHEIGHT (screenshots).")
@click.option("--record", type=click.Path(dir_okay=False, path_type=Path),
              help="Open this hand record (JSON) in the entry form as its table's next hand.")
@click.option("--server", default="", metavar="URL",
              help="Work as a client of a head desk's 'referee-app serve' (http://HOST:PORT): "
                   "sign in with your referee name and PIN (REFEREE_PIN, or asked).")
@click.option("--outbox", type=click.Path(file_okay=False, path_type=Path),
              help="With --server: the folder of hands waiting for the server "
                   "(default ~/.referee-app/outbox/SERVER).")
@click.option("--server-cert", type=click.Path(dir_okay=False, path_type=Path),
              help="With an https --server using a self-signed certificate: its cert.pem.")
@click.option("--exit-when-ready", is_flag=True, hidden=True,
              help="Print 'ready' and quit once the window is up (launch benchmark).")
def gui(db: Path | None, demo: bool, screenshot: Path | None, view: str, lang: str | None,
        referee: str, lock_minutes: float | None, size: str, record: Path | None,
        server: str, outbox: Path | None, server_cert: Path | None,
        exit_when_ready: bool) -> None:
    """Open the referee desk (hand entry, rule help, standings).

    Hand entry with live validation, the rule trace of every settlement, standings."""
    from referee_app.gui.app import GuiError, LaunchOptions, run

    if lang is None:
        lang = cli_lang.lang() if cli_lang.explicit() else "zh"
    try:
        w, _, h = size.lower().partition("x")
        dims = (int(w), int(h))
        if min(dims) < 200:
            raise ValueError
    except ValueError:
        raise click.exceptions.Exit(
            _fail("size", say("gui.bad_size", got=size))) from None
    if screenshot is not None and screenshot.parent and not screenshot.parent.exists():
        raise click.exceptions.Exit(_fail("screenshot", say("gui.no_folder",
                                                            folder=screenshot.parent)))
    try:
        code = run(LaunchOptions(db=db, demo=demo, screenshot=screenshot, view=view, lang=lang,
                                 referee=referee, size=dims, lock_minutes=lock_minutes,
                                 record=record, exit_when_ready=exit_when_ready,
                                 server=server, outbox=outbox, server_cert=server_cert))
    except GuiError as e:
        from referee_app.storage.errors import StorageFault

        # a busy, damaged, read-only or full database is a fault (3), not bad input (2)
        # a server that does not answer is a fault (3) too
        fault = isinstance(e.__context__, StorageFault) or \
            type(e.__context__).__name__ == "ServerUnreachable"
        raise click.exceptions.Exit(_fail(e.field, cli_lang.problem(e), 3 if fault else 2)) \
            from None
    except ValueError as e:  # StorageError while the window first reads the file
        from referee_app.storage.errors import StorageError, StorageFault

        if not isinstance(e, StorageError):
            raise
        code = 3 if isinstance(e, StorageFault) else 2
        raise click.exceptions.Exit(_fail(e.field or "db", cli_lang.problem(e), code)) from None
    if screenshot is not None:
        click.echo(say("wrote", path=screenshot))
    raise click.exceptions.Exit(code)


def _fail(field: str, problem: str, code: int = 2) -> int:
    click.echo(error_line(problem, field), err=True)
    return code
