"""A server as a desk's backend: ``referee-app gui --server URL``.

:class:`ServerBackend` adds what a desk needs to keep working when the network does not:
the last answer of every read is kept, so the window still shows the tournament while the
server cannot be reached; the next hand number counts the hands waiting in the outbox; and
the tournament's administration (players, seating, settings) is refused with one clear line,
because that is the head desk's job.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from referee_app.core import HandRecord, settle
from referee_app.core import next_dealer as core_next_dealer
from referee_app.server.client import ClientSession, DeskClient, ServerUnreachable
from referee_app.server.remote import HandQueued, RemoteTournament, method_name
from referee_app.storage import HandInfo, Referee, StorageError, TournamentInfo, ruleset_store
from referee_app.storage.operations import OPERATION, Operation

__all__ = ["HandQueued", "ServerBackend", "ServerUnreachable", "default_outbox", "open_server"]


def _refuse(self: ServerBackend, *args: Any, **kwargs: Any) -> Any:
    """The head desk's administration (``head_desk`` in OPERATIONS): refused with one line."""
    raise StorageError.of("server", "head_desk_only", url=self.client.base_url)


class ServerBackend(RemoteTournament):
    """A server as a desk's :class:`Backend` (see the module doc): reads answered from the
    last contact while offline; ``online`` says whether the last call reached it."""

    def __init__(self, client: DeskClient) -> None:
        self._who: Referee | None = None
        #: name -> (session, PIN) of each referee signed in on this desk (the desk's own
        #: and a head referee's for one action), in memory only
        self._sessions: dict[str, tuple[ClientSession | None, str]] = {}
        super().__init__(client)
        self.online = True
        self._kept: dict[Any, Any] = {}
        self._rules: dict[Any, Any] = {}

    def answer(self, op: Operation) -> Callable[..., Any]:
        """As the remote tournament's, but the head desk's administration is refused, and
        the last answer of every ``keep`` read is kept (unless this class reads offline its
        own way)."""
        if op.head_desk:
            return functools.partial(_refuse, self)
        call = super().answer(op)
        if not op.keep or method_name(op) in ServerBackend.__dict__:
            return call

        def kept(*args: Any, **kwargs: Any) -> Any:
            return self._read((op.name, args, tuple(sorted(kwargs.items()))),
                              lambda: call(*args, **kwargs))
        return kept

    update_info = _refuse
    export_bundle = _refuse

    def revision(self) -> int:
        return self._read(("revision",), lambda: RemoteTournament.revision(self))  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ who is at the desk

    def referees_sign_in(self, name: str, pin: str) -> Referee:
        """Check the PIN on the server; later writes (and resends of the outbox after a
        server restart, signed in again with this PIN) are this referee's."""
        r = self.client.sign_in(name, pin)
        self._sessions[r["referee"]] = (self.client.session, pin)
        self._use(r["referee"])
        return self._who  # type: ignore[return-value]

    def _use(self, name: str) -> None:
        session, pin = self._sessions[name]
        self.client.use_session(session)
        self.client.reauth = lambda: (name, pin)
        self._who = Referee(name, session.head if session else False)

    @property
    def signed_in(self) -> Referee | None:  # type: ignore[override]
        return self._who

    @signed_in.setter
    def signed_in(self, who: Referee | None) -> None:
        """Back to the desk's own referee after one head-referee action (``Desk.as_head``);
        None: nobody (writes refused until a PIN is given again)."""
        if who is not None and who.name in self._sessions:
            self._use(who.name)
            return
        self._who = None
        self.client.use_session(None)
        self.client.reauth = None

    def referees_sign_out(self) -> None:
        """The idle lock: the token is given up and nothing is written — not even a resend
        of the outbox — until a PIN is given again."""
        self.client.sign_out()
        self._sessions.clear()
        self.signed_in = None

    def record_log(self, limit: int | None = None, *, hand: int | None = None,
                   referee: str | None = None) -> list[dict[str, Any]]:
        """The chain's entries from the server (``GET /api/log``), the last answer while
        offline; none if this desk never read them (History still shows the versions)."""
        try:
            return self._read(("log", limit, hand, referee),  # type: ignore[no-any-return]
                              lambda: RemoteTournament.record_log(self, limit, hand=hand,
                                                                  referee=referee))
        except ServerUnreachable:
            return []

    def _ruleset_json(self) -> dict[str, Any]:
        """The server's ruleset answer; offline the last one (kept in the outbox folder)."""
        try:
            d = self.client.ruleset()
        except ServerUnreachable:
            self.online = False
            kept = self.client.cached_ruleset()
            if kept is None:
                raise
            return kept
        self.online = True
        return d

    def rules(self) -> Any:
        """The tournament's rules, the same object while the server's answer is unchanged
        (the window re-settles an open form only when they really changed)."""
        d = self._ruleset_json()
        key = (d.get("digest"), d.get("cap_fan"), d.get("stake"))
        if key not in self._rules:
            self._rules[key] = ruleset_store.from_snapshot(d["document"]).with_settings(
                cap_fan=d.get("cap_fan"), stake=d.get("stake"))
        return self._rules[key]

    def ruleset(self) -> Any:
        d = self._ruleset_json()
        key = ("base", d.get("digest"))
        if key not in self._rules:
            self._rules[key] = ruleset_store.from_snapshot(d["document"])
        return self._rules[key]

    def _read(self, key: Any, fetch: Callable[[], Any]) -> Any:
        try:
            value = fetch()
        except ServerUnreachable:
            self.online = False
            if key in self._kept:
                return self._kept[key]
            raise
        self.online = True
        self._kept[key] = value
        return value

    @property
    def info(self) -> TournamentInfo:
        return self._read(("info",), lambda: RemoteTournament.info.fget(self))  # type: ignore[attr-defined]

    def hands_list(self, *, round: int | None = None, table: int | None = None,
                   status: Any = None) -> list[HandInfo]:
        """The hands; offline, those of the last full list this desk read."""
        key = ("hands", (), tuple(sorted(
            (k, v) for k, v in (("round", round), ("table", table), ("status", status))
            if v is not None)))
        try:
            return self._read(key, lambda: self.request(
                OPERATION["hands.list"], round=round, table=table, status=status))
        except ServerUnreachable:
            every = self._kept.get(("hands", (), ()))
            if every is None:
                raise
            st = getattr(status, "value", status)
            return [h for h in every if round in (None, h.round) and table in (None, h.table)
                    and st in (None, h.status.value)]

    def hands_get(self, hand_id: int) -> HandInfo:
        try:
            return self._read(("hand", hand_id), lambda: self.request(
                OPERATION["hands.get"], hand_id))
        except ServerUnreachable:
            found = next((h for h in self._kept.get(("hands", (), ()), [])
                          if h.id == hand_id), None)
            if found is None:
                raise
            return found

    def hands_next_no(self, round: int, table: int) -> int:
        """The server's next number, past the table's hands waiting in the outbox."""
        queued = [i.hand_no for i in self.client.outbox.items()
                  if i.round == round and i.table == table] if self.client.outbox else []
        try:
            n = self.request(OPERATION["hands.next_no"], round, table)
            self.online = True
        except ServerUnreachable:  # offline: past the last hands this desk saw
            self.online = False
            n = 1 + max((h.hand_no for h in self._kept.get(("hands", (), ()), [])
                         if h.round == round and h.table == table), default=0)
        return max([n, *(q + 1 for q in queued)])

    def hands_next_dealer(self, round: int, table: int) -> str:
        """The server's suggestion; offline (or with hands of the table waiting in the
        outbox) the same rule applied here to the table's latest hand this desk knows."""
        queued = [i for i in self.client.outbox.items()
                  if i.round == round and i.table == table] if self.client.outbox else []
        if not queued:
            try:
                dealer = str(self.request(OPERATION["hands.next_dealer"], round, table))
                self.online = True
                return dealer
            except ServerUnreachable:
                self.online = False
        known = [(h.hand_no, h.record) for h in self._kept.get(("hands", (), ()), [])
                 if h.round == round and h.table == table and h.status.value != "void"]
        known += [(i.hand_no, i.record) for i in queued]
        info = self.client.cached_ruleset()
        if not known or info is None:
            return self.info.seats[0]
        rules = ruleset_store.from_snapshot(info["document"]).with_settings(
            cap_fan=info.get("cap_fan"), stake=info.get("stake"))
        rec = HandRecord.from_dict(max(known, key=lambda k: k[0])[1], rules)
        return core_next_dealer(rec, settle(rec, rules), rules) or rec.dealer

    # -- the outbox, for the window's status line and the conflicts dialog
    def waiting(self) -> int:
        return len(self.client.waiting())

    def conflicts(self) -> list[Any]:
        return self.client.conflicts()

    def flush(self) -> Any:
        return self.client.flush()

    def renumber(self, key: str, hand_no: int) -> Any:
        """Send a conflicting hand again as ``hand_no`` (raises as a save does)."""
        return self.client.resolve(key, hand_no=hand_no)

    def drop(self, key: str) -> None:
        """The referee drops a conflicting hand (kept in the outbox's ``dropped/``)."""
        self.client.resolve(key, drop=True)


def default_outbox(url: str) -> Path:
    """Where a desk keeps its outbox for ``url``: one folder per server under
    ``$REFEREE_APP_HOME`` (default ``~/.referee-app``), so a restarted desk finds it. Each
    hand in it names the referee who saved it, and is sent only under that referee."""
    home = Path(os.environ.get("REFEREE_APP_HOME") or Path.home() / ".referee-app")
    server = re.sub(r"[^\w.-]+", "_", url.split("://", 1)[-1]).strip("_") or "server"
    return home / "outbox" / server


def open_server(url: str, referee: str = "", pin: str | None = None, *,
                outbox: str | Path | None = None, verify: bool | str = True,
                timeout: float = 10.0) -> ServerBackend:
    """Connect to ``url`` (``ServerUnreachable`` when it does not answer) and, with a PIN,
    sign ``referee`` in (``AuthError`` when wrong); without one the window's sign-in asks.
    The PIN is kept in memory only, to sign in again by itself after the server was
    restarted and forgot the desk's token."""
    if not re.match(r"^https?://[^/\s]+/?$", url.strip()):
        raise StorageError.of("server", "bad_server_address", got=url)
    url = url.strip().rstrip("/")
    folder = Path(outbox) if outbox is not None else default_outbox(url)
    client = DeskClient(url, folder, timeout=timeout, verify=verify)
    backend = ServerBackend(client)
    try:
        client.ruleset()  # kept in the outbox: hands can be checked offline
        client.check_record()  # the server's record extends what this desk saw before?
        backend.referees.required()  # kept: the window asks it at every turn, offline too
        if pin is not None:
            backend.referees.sign_in(referee, pin)
    except Exception:
        client.close()
        raise
    return backend
