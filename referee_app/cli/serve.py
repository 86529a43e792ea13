"""``referee-app serve``: the head desk serves its tournament to other desks and to phones."""

from __future__ import annotations

import ipaddress
import socket
import sys
from pathlib import Path

import click

from .common import BoundedInt
from .lang import error_line, say, warning_line
from .options import db_option, handle_errors

PORT = BoundedInt(1, 65535, "port")
#: seconds an idle connection is kept open (uvicorn's default is 5): a results page asks
#: again every second or more and long-polls up to 25 s, and a phone whose connection was
#: closed just as it sent its next request sees an error where a browser would retry
KEEP_ALIVE = 30
#: where a reverse proxy's X-Forwarded-For is believed from (``--behind-proxy``)
PROXY_ADDRESSES = "127.0.0.1,::1"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@click.command()
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on: 0.0.0.0 for every network of this machine.")
@click.option("--port", type=PORT, default=8787, show_default=True)
@click.option("--cert", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="TLS certificate (PEM): serve https (with --key).")
@click.option("--key", "key_file", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="TLS private key (PEM) of --cert.")
@click.option("--public-url", default="", help="The results address players scan (QR code "
              "on the projector page), e.g. http://192.168.1.10:8787/.")
@click.option("--behind-proxy", is_flag=True,
              help="A reverse proxy on this machine forwards the requests: take the client's "
                   "address from its X-Forwarded-For header (only from 127.0.0.1 or ::1). "
                   "Without it the header is ignored: sign-in limits count the address "
                   "that connects.")
@db_option
@handle_errors
def serve(host: str, port: int, cert: Path | None, key_file: Path | None, public_url: str,
          behind_proxy: bool, db: Path) -> None:
    """Serve the tournament to other desks and live results to phones.

    A JSON API for desks, a live results page for phones (docs/server.md)."""
    import uvicorn

    from referee_app.server.app import create_app
    from referee_app.storage import Tournament

    if (cert is None) != (key_file is None):
        raise click.UsageError(say("serve.cert_and_key"))
    with Tournament.open(db, backup_every=0) as t:
        name, has_refs = t.info.name, t.referees.required()
        heads = [r.name for r in t.referees.list() if r.head]
        signed_elsewhere = bool(t.keys.fingerprint) and not t.keys.here()
        fp = t.info.signing_key_short
    scheme = "https" if cert else "http"
    shown = host
    if host in ("0.0.0.0", "::"):
        shown = _lan_address() or "127.0.0.1"
        public_url = public_url or f"{scheme}://{shown}:{port}/"  # what phones can reach
    app = create_app(db, public_url=public_url)
    click.echo(say("serve.serving", name=name, path=db, url=f"{scheme}://{shown}:{port}/"))
    if has_refs:
        click.echo(say("serve.pins", heads=say("list_sep").join(heads) or "-"))
    else:
        click.echo(say("serve.read_only"))
    if cert is None and not _loopback(host):
        click.echo(warning_line(say("serve.no_tls")), err=True)
    if signed_elsewhere:  # a standby without the key: results yes, saves refused (503)
        click.echo(warning_line(say("serve.key_missing", key=fp)), err=True)
    sock = _bind(host, port)
    click.echo(say("serve.stop"))
    config = uvicorn.Config(app, ssl_certfile=str(cert) if cert else None,
                            ssl_keyfile=str(key_file) if key_file else None,
                            log_level="warning", access_log=False, server_header=False,
                            timeout_graceful_shutdown=5, timeout_keep_alive=KEEP_ALIVE,
                            # uvicorn trusts X-Forwarded-For from 127.0.0.1 by default: a
                            # stranger could then pass for any address (the sign-in limits)
                            proxy_headers=behind_proxy,
                            forwarded_allow_ips=PROXY_ADDRESSES if behind_proxy else "")
    uvicorn.Server(config).run(sockets=[sock])


def _lan_address() -> str | None:
    """This machine's address on its network (the one phones and desks use), if any."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # a documentation address: nothing is sent
            return str(s.getsockname()[0])
    except OSError:
        return None


def _bind(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so a taken port is one clear line (exit 3)."""
    try:
        info = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                  proto=socket.IPPROTO_TCP)[0]
        # the protocol named (not 0): asyncio turns Nagle off (TCP_NODELAY) only on
        # connections of a socket that says TCP; without it every response, written as
        # headers then body, waited ~40 ms for the client's delayed ACK
        sock = socket.socket(info[0], socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(info[4])
        sock.listen(128)
        sock.set_inheritable(True)
    except OSError as e:
        click.echo(error_line(say("serve.cannot_listen", host=host, port=port,
                                  detail=e.strerror or e), "--port"), err=True)
        sys.exit(3)
    return sock
