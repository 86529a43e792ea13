"""The desk's side of the server: the JSON API of docs/server.md over HTTP, and the outbox.

:class:`DeskClient` makes the requests (:meth:`DeskClient.call`; the operations a desk makes
on a tournament are :class:`~.remote.RemoteTournament`'s, built from the one list in
``storage/operations.py``) and raises the storage library's own errors, rebuilt from the
answer's error ``code`` (``HandRuleError`` with its violations, ``DuplicateHandError``,
``HandChangedError``, ``AuthError``, ``UnknownHandError``...), so a desk's controller
handles a server exactly as it handles the local file. Unreachable server:
:class:`ServerUnreachable`.

**Offline outbox.** :meth:`DeskClient.add_hand` first checks the record against the
tournament's rules (cached from the last contact), writes it to the outbox folder, then
sends it. If the server cannot be reached — or answers 503, busy: overloaded, its file
locked — the hand waits there (``queued=True``), never refused, and :meth:`flush` sends the
waiting hands, oldest first, when the server is back (not before a 503's ``Retry-After``). Every hand
carries an idempotency key, so a resend after a lost reply is never doubled. A hand number
taken meanwhile comes back as a *conflict* (:meth:`conflicts`), kept until the referee
renumbers it or drops it (:meth:`resolve`); nothing is ever silently lost.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from referee_app.core import FieldError, HandRecord, RuleViolation, settle
from referee_app.core.errors import Message, jsonable, render
from referee_app.core.wording import params_from_data
from referee_app.storage import (
    AuthError,
    DuplicateHandError,
    HandChangedError,
    HandRuleError,
    RecordIntegrityError,
    StorageError,
    UnknownHandError,
    ruleset_store,
)

from .outbox import CONFLICT, Outbox, OutboxItem, write_atomic
from .witness import Witness


def _untrusted(e: httpx.TransportError) -> bool:
    """Whether TLS refused the server's certificate (the SSL error is the cause)."""
    import ssl

    cause: BaseException | None = e
    while cause is not None:
        if isinstance(cause, ssl.SSLCertVerificationError):
            return True
        cause = cause.__cause__ or cause.__context__
    return False


class ServerUnreachable(StorageError):
    """The server did not answer (down, network, timeout); hands saved now wait."""

    code = "server_unreachable"


class RecordRewrittenError(StorageError):
    """The server's record no longer passes through a digest this desk was given: it was
    rewritten after entry ``after``. Nothing is sent until a head referee accepts it."""

    code = "record_rewritten"


@dataclass(frozen=True, slots=True)
class ClientSession:
    """A sign-in's token and whose it is (kept by a desk that switches referees)."""

    token: str
    referee: str
    head: bool


@dataclass(frozen=True, slots=True)
class SaveResult:
    """What happened to a hand given to :meth:`DeskClient.add_hand`: saved on the server
    (``id``, ``settlement``, ``hand``) or ``queued`` in the outbox (``key``)."""

    key: str
    queued: bool
    id: int | None = None
    settlement: dict[str, Any] | None = None
    hand: dict[str, Any] | None = None
    replayed: bool = False
    problem: str = ""  # why it waits: a Message (its code and params) when the error was one


@dataclass(frozen=True, slots=True)
class FlushReport:
    sent: list[SaveResult] = field(default_factory=list)
    conflicts: list[OutboxItem] = field(default_factory=list)
    waiting: int = 0
    problem: str = ""  # why hands still wait (server unreachable, sign-in needed): a Message


def _violations(items: list[dict[str, Any]]) -> list[RuleViolation]:
    """The server's violations (``to_data``: clause, seat, code, params and the English)
    as the engine's own, so the desk says them in its language."""
    return [RuleViolation(str(v.get("clause", "")), v.get("seat"), str(v.get("message", "")),
                          str(v.get("code") or ""), params_from_data(v.get("params")))
            for v in items if isinstance(v, dict)]


def _error_classes(base: type[StorageError] = StorageError) -> dict[str, type[StorageError]]:
    """The storage library's error classes by ``code`` (the server sends the code of what
    it raised); the desk's own (unreachable, queued) are never sent."""
    out: dict[str, type[StorageError]] = {base.code: base}
    for cls in base.__subclasses__():
        if cls.__module__.startswith("referee_app.storage"):
            out = {**_error_classes(cls), **out}
    return out


def rebuild_error(code: str, fld: str, problem: str, params: dict[str, Any] | None = None,
                  violations: list[dict[str, Any]] | None = None) -> StorageError | None:
    """The storage error with this ``code``, carrying the server's field, problem and
    parameters (None when no storage error has that code)."""
    cls = _error_classes().get(code) if code else None
    if cls is None:
        return None
    err = cls.__new__(cls)
    FieldError.__init__(err, fld, problem, code=code, params=params)
    if isinstance(err, HandRuleError):
        err.violations = tuple(_violations(violations or []))
    if isinstance(err, HandChangedError):
        err.hand_id, err.expected, err.current = (err.params.get(k) for k in (
            "hand_id", "expected", "current"))
    if isinstance(err, RecordIntegrityError):
        err.seq = err.params.get("seq")
    return err


def item_error(item: OutboxItem) -> StorageError:
    """Why the server refused a hand of the outbox (a conflict), rebuilt from its code."""
    return rebuild_error(item.code, item.error_field, item.problem, item.params,
                         violations=item.violations) or StorageError(
        item.error_field, item.problem, code=item.code or None, params=item.params)


def _said(e: StorageError) -> str:
    """Why a hand still waits, as a message (its code and params) when it is one."""
    code = e.message_code
    return e.problem if code is None else Message(code, e.params)


def error_from(resp: httpx.Response) -> StorageError:
    """The storage error an API error response stands for: rebuilt from the body's ``code``
    (every storage error has one); any 5xx is :class:`ServerUnreachable` — the server could
    not take the request now (disk full, busy, a fault of its own), which is never a
    refusal of the hand: it waits in the outbox and is sent again — and an answer without
    a known code is named by its status."""
    try:
        err = resp.json().get("error", {})
    except (ValueError, AttributeError):
        err = {}
    if not isinstance(err, dict):
        err = {}
    fld = str(err.get("field", "server"))
    status = resp.status_code
    code: str | None = str(err.get("code") or "") or None
    params = err.get("params") if isinstance(err.get("params"), dict) else {}
    problem = str(err.get("problem", ""))
    if not problem:  # an answer that is no error of the API (a proxy's page)
        code, params = "server_answered", {"status": status, "reason": resp.reason_phrase}
        problem = render(code, params, "en")
    violations = err.get("violations") if isinstance(err.get("violations"), list) else None
    if status >= 500:
        return ServerUnreachable(fld, problem, code=code, params=params)
    rebuilt = rebuild_error(code or "", fld, problem, params, violations)
    if rebuilt is not None:
        return rebuilt
    # an error of the API itself (a token, a request): the class its status stands for,
    # with the server's code and params (no English is read)
    cls: type[StorageError] = StorageError
    if status == 422 and violations is not None:
        cls = HandRuleError
    elif status == 409:
        cls = DuplicateHandError
    elif status in (401, 403, 429):
        cls = AuthError
    elif status == 404 and fld == "hand_id":
        cls = UnknownHandError
    err_ = cls.__new__(cls)
    FieldError.__init__(err_, fld, problem, code=code, params=params)
    if isinstance(err_, HandRuleError):
        err_.violations = tuple(_violations(violations or []))
    return err_


class DeskClient:
    """A desk talking to ``referee-app serve`` at ``base_url``.

    ``outbox``: folder of the offline outbox (needed for :meth:`add_hand` to queue).
    ``reauth``: called for (referee, PIN) when the server no longer knows the token (it was
    restarted, or the token expired), so waiting hands can be resent; without it such a
    resend stops with ``problem`` "sign in again"."""

    def __init__(self, base_url: str, outbox: str | Path | None = None, *,
                 timeout: float = 10.0, reauth: Callable[[], tuple[str, str]] | None = None,
                 verify: bool | str = True, transport: httpx.BaseTransport | None = None
                 ) -> None:
        self.base_url = base_url.rstrip("/")
        self.http = httpx.Client(base_url=self.base_url, timeout=timeout, verify=verify,
                                 transport=transport, trust_env=False)
        self.outbox = Outbox(outbox) if outbox is not None else None
        #: the digests the server gave this desk (kept beside the outbox), checked at each
        #: reconnect: see :mod:`.witness`
        self.witness = Witness(self.outbox.folder / "witness.state"
                               if self.outbox is not None else None)
        self._witness_due = True  # at the first contact, and again after every reconnect
        self.reauth = reauth
        self.referee: str | None = None
        self.head = False
        self._token: str | None = None
        self._ruleset: dict[str, Any] | None = None
        self._send_lock = threading.Lock()
        #: the server said it is busy (503): hands wait in the outbox until then
        self._busy_until = 0.0
        self._busy_problem = ""

    # ------------------------------------------------------------------ plumbing

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> DeskClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _request(self, method: str, path: str, *, json_body: Any = None,
                 params: dict[str, Any] | None = None, auth: bool = False,
                 headers: dict[str, str] | None = None, timeout: float | None = None
                 ) -> httpx.Response:
        h = dict(headers or {})
        if auth and self._token:
            h["Authorization"] = f"Bearer {self._token}"
        kw: dict[str, Any] = {}
        if timeout is not None:
            kw["timeout"] = timeout
        try:
            return self.http.request(method, path, json=json_body, params=params, headers=h,
                                     **kw)
        except httpx.TransportError as e:
            self._witness_due = True  # the server's record is checked again once it answers
            if _untrusted(e):
                raise ServerUnreachable.of("server", "server_cert_untrusted",
                                           url=self.base_url) from None
            raise ServerUnreachable.of("server", "server_unreachable", url=self.base_url,
                                       error=type(e).__name__) from None

    def call(self, method: str, path: str, *, json_body: Any = None,
             params: dict[str, Any] | None = None, auth: bool = False) -> Any:
        """One API request's JSON answer (an error answer raised as its storage error;
        ``auth``: with the token, signing in again once if the server forgot it)."""
        resp = self._request(method, path, json_body=json_body, params=params, auth=auth)
        if resp.status_code == 401 and auth and self.reauth is not None:
            self.sign_in(*self.reauth())
            resp = self._request(method, path, json_body=json_body, params=params, auth=auth)
        if resp.status_code >= 400:
            raise error_from(resp)
        return resp.json()

    # ------------------------------------------------------------------ session

    def sign_in(self, referee: str, pin: str) -> dict[str, Any]:
        """Check the referee's PIN on the server; later writes are theirs."""
        resp = self._request("POST", "/api/session", json_body={"referee": referee, "pin": pin})
        if resp.status_code >= 400:
            raise error_from(resp)
        data = resp.json()
        self._token, self.referee, self.head = data["token"], data["referee"], data["head"]
        return {"referee": self.referee, "head": self.head}

    def sign_out(self) -> None:
        if self._token:
            try:
                self._request("DELETE", "/api/session", auth=True)
            except ServerUnreachable:
                pass
        self._token, self.referee, self.head = None, None, False

    @property
    def signed_in(self) -> bool:
        return self._token is not None

    @property
    def session(self) -> ClientSession | None:
        """Who this client writes as now (None: nobody signed in)."""
        if self._token is None or self.referee is None:
            return None
        return ClientSession(self._token, self.referee, self.head)

    def use_session(self, session: ClientSession | None) -> None:
        """Write as ``session`` (one signed in earlier on this client), or as nobody: a desk
        switches to a head referee for one action and back without a new PIN check."""
        if session is None:
            self._token, self.referee, self.head = None, None, False
        else:
            self._token, self.referee, self.head = session.token, session.referee, session.head

    # ------------------------------------------------------------------ reads

    def tournament(self) -> dict[str, Any]:
        """The tournament's details (``GET /api/tournament``)."""
        return self.call("GET", "/api/tournament")  # type: ignore[no-any-return]

    def hands(self, round: int | None = None, table: int | None = None,
              status: str | None = None, *, full: bool = False) -> list[dict[str, Any]]:
        """Hands in order (``full``: with each record and settlement)."""
        params: dict[str, Any] = {k: v for k, v in (("round", round), ("table", table),
                                                    ("status", status)) if v is not None}
        if full:
            params["full"] = 1
        return self.call("GET", "/api/hands", params=params)  # type: ignore[no-any-return]

    def log(self, hand: int | None = None, referee: str | None = None) -> list[dict[str, Any]]:
        """The chain's entries (``referee-app log --json``); the whole log needs a token."""
        params = {k: v for k, v in (("hand", hand), ("referee", referee)) if v is not None}
        return self.call("GET", "/api/log", params=params,  # type: ignore[no-any-return]
                          auth=hand is None)

    def next_hand(self, round: int, table: int) -> dict[str, Any]:
        return self.call("GET", "/api/hands/next",  # type: ignore[no-any-return]
                          params={"round": round, "table": table})

    def changes(self, since: int, timeout: float = 25.0) -> int:
        """Wait until the record's revision differs from ``since`` (or ``timeout``)."""
        resp = self._request("GET", "/api/changes", params={"since": since, "timeout": timeout},
                             timeout=timeout + 10)
        if resp.status_code >= 400:
            raise error_from(resp)
        return int(resp.json()["revision"])

    # ------------------------------------------------------------------ the witness

    def chain_hashes(self, seqs: list[int]) -> tuple[int, str, dict[int, str | None]]:
        """The server's (entries, head digest) and its hashes at entries ``seqs``."""
        data = self.call("GET", "/api/chain", params={"seq": [str(s) for s in seqs]})
        hashes = data.get("hashes") if isinstance(data, dict) else None
        if not isinstance(hashes, dict):
            raise ServerUnreachable.of("server", "server_no_chain", url=self.base_url)
        return (int(data["entries"]), str(data["digest"]),
                {int(k): (v if isinstance(v, str) else None) for k, v in hashes.items()})

    def check_record(self) -> int | None:
        """Whether the server's record still extends every digest this desk was given: None
        if so (its head is kept as the newest), else the entry it was rewritten after (from
        then on nothing is sent until :meth:`accept_record`). ``ServerUnreachable`` when it
        does not answer."""
        after = self.witness.check(self.chain_hashes)
        self._witness_due = False
        return after

    @property
    def rewritten_after(self) -> int | None:
        """The entry the server's record was found rewritten after (None: not found so)."""
        return self.witness.rewritten_after

    def rewritten_error(self) -> RecordRewrittenError | None:
        after = self.witness.rewritten_after
        return None if after is None else RecordRewrittenError.of("server", "record_rewritten",
                                                                  after=after)

    def accept_record(self) -> None:
        """The head referee accepts the server's record as it now is (e.g. a backup was
        restored on purpose): this desk witnesses it from its current head and sends again."""
        self.witness.accept()
        self._witness_due = True

    def _record_trusted(self) -> str:
        """Before sending: "" when the server's record extends what this desk saw (checked
        once after each reconnect), else why nothing is sent."""
        if self._witness_due and self.witness.rewritten_after is None:
            try:
                self.check_record()
            except ServerUnreachable as e:
                return _said(e)
        err = self.rewritten_error()
        return "" if err is None else _said(err)

    # ------------------------------------------------------------------ hands and the outbox

    def ruleset(self) -> dict[str, Any]:
        """The tournament's ruleset document with its cap and stake (kept in the outbox
        folder too, so hands can be checked offline, even after a restart of the desk)."""
        data: dict[str, Any] = self.call("GET", "/api/ruleset")
        self._ruleset = data
        if self.outbox is not None:
            write_atomic(self.outbox.folder / "ruleset.cache",
                         json.dumps(data, ensure_ascii=False).encode("utf-8"))
        return data

    def cached_ruleset(self) -> dict[str, Any] | None:
        if self._ruleset is not None:
            return self._ruleset
        try:
            return self.ruleset()
        except ServerUnreachable:
            pass
        if self.outbox is not None:
            try:
                text = (self.outbox.folder / "ruleset.cache").read_text(encoding="utf-8")
                self._ruleset = json.loads(text)
            except (OSError, ValueError):
                return None
        return self._ruleset

    def check(self, record: dict[str, Any], override_reason: str | None = None,
              override_totals: dict[str, int] | None = None) -> None:
        """Validate a record against the tournament's own rules here, before it is queued:
        RecordError for an unreadable record, HandRuleError for one that breaks the rules
        (unless a head referee's ``override_reason`` goes with it, with every seat's chips
        in ``override_totals``: the server refuses an override without them)."""
        info = self.cached_ruleset()
        if info is None:
            raise ServerUnreachable.of("server", "server_never_seen", url=self.base_url)
        rec = HandRecord.from_dict(record)
        if rec.ruleset != info["ruleset"]:
            raise StorageError.of("ruleset", "other_ruleset", got=rec.ruleset,
                                  plays=info["ruleset"])
        rules = ruleset_store.from_snapshot(info["document"]).with_settings(
            cap_fan=info.get("cap_fan"), stake=info.get("stake"))
        s = settle(rec, rules)
        if not s.ok and not override_reason:
            raise HandRuleError.breaking("record", s.errors)

    def add_hand(self, record: dict[str, Any], *, round: int, table: int, hand_no: int,
                 override_reason: str | None = None,
                 override_totals: dict[str, int] | None = None) -> SaveResult:
        """Check, queue and send a finished hand. Saved: ``queued=False`` with its id;
        server unreachable: ``queued=True`` (it waits in the outbox). Refused by the server
        right now (rules, duplicate number, seating, rights): the error is raised and the
        hand leaves the outbox, as with a local save."""
        if self.outbox is None:
            raise StorageError.of("outbox", "no_outbox")
        if not self.signed_in and self.reauth is None:
            raise AuthError.of("referee", "sign_in_first")
        self.check(record, override_reason, override_totals)
        with self._send_lock:
            waiting = self.outbox.waiting()
        if waiting:
            self.flush()
        item = self.outbox.new_item(round=round, table=table, hand_no=hand_no, record=record,
                                    referee=self.referee or "", override_reason=override_reason,
                                    override_totals=override_totals)
        with self._send_lock:
            if self.busy():  # the server asked for a pause: the hand waits, checked
                return SaveResult(item.key, True, problem=self.busy())
            return self._send(item, interactive=True)

    def _send(self, item: OutboxItem, *, interactive: bool) -> SaveResult:
        """Send one outboxed hand (the caller holds ``_send_lock``)."""
        assert self.outbox is not None
        stop = self._record_trusted()
        if stop:  # the hand waits in the outbox (a rewritten record, or no answer)
            return SaveResult(item.key, True, problem=stop)
        body = {"round": item.round, "table": item.table, "hand_no": item.hand_no,
                "record": item.record, "override_reason": item.override_reason,
                "override_totals": item.override_totals}
        headers = {"Idempotency-Key": item.key}
        try:
            resp = self._request("POST", "/api/hands", json_body=body, auth=True,
                                 headers=headers)
            if resp.status_code == 401 and self.reauth is not None:
                self.sign_in(*self.reauth())
                resp = self._request("POST", "/api/hands", json_body=body, auth=True,
                                     headers=headers)
        except (ServerUnreachable, AuthError) as e:
            return SaveResult(item.key, True, problem=_said(e))
        if resp.status_code in (200, 201):
            data = resp.json()
            self.outbox.move(item.key, "sent")
            return SaveResult(item.key, False, data["id"], data["settlement"], data["hand"],
                              bool(data.get("replayed")))
        err = error_from(resp)
        if resp.status_code == 401 or isinstance(err, ServerUnreachable):
            self._note_busy(resp, _said(err))
            return SaveResult(item.key, True, problem=_said(err))
        if interactive:
            self.outbox.move(item.key, "dropped")  # refused now: the referee sees why
            raise err
        viol = [v.to_data() for v in getattr(err, "violations", ())]
        self.outbox.update(item, state=CONFLICT, error_field=err.field, problem=err.problem,
                           code=err.code, params=jsonable(err.params), violations=viol)
        return SaveResult(item.key, True, problem=_said(err))

    def _note_busy(self, resp: httpx.Response, problem: str) -> None:
        """A 503 (the server overloaded, or its file busy) with ``Retry-After``: the hands
        wait in the outbox and are not sent again before then (a busy server is not asked
        again and again by every desk)."""
        if resp.status_code != 503:
            return
        try:
            wait = min(max(float(resp.headers.get("retry-after", "1")), 0.0), 60.0)
        except ValueError:
            wait = 1.0
        self._busy_until = time.monotonic() + wait
        self._busy_problem = problem

    def busy(self) -> str:
        """Why the hands wait now though the server answers (it said it is busy and when to
        come back); empty once that time has come."""
        return self._busy_problem if time.monotonic() < self._busy_until else ""

    def waiting(self) -> list[OutboxItem]:
        """Hands waiting to be sent ("3 hands waiting")."""
        return self.outbox.waiting() if self.outbox is not None else []

    def conflicts(self) -> list[OutboxItem]:
        """Hands the server refused after they were queued (e.g. the number was taken)."""
        return self.outbox.conflicts() if self.outbox is not None else []

    def flush(self) -> FlushReport:
        """Send the waiting hands, oldest first; stop at the first the server cannot take
        now (unreachable, sign-in needed). Conflicts stay for :meth:`resolve`; a hand saved
        by another referee of this desk waits until that referee is signed in."""
        if self.outbox is None:
            return FlushReport()
        sent: list[SaveResult] = []
        problem = self.busy()
        with self._send_lock:
            if problem:  # not before the time the server gave
                return FlushReport([], self.outbox.conflicts(), len(self.outbox.waiting()),
                                   problem)
            for item in self.outbox.waiting():
                if item.referee and self.referee and item.referee != self.referee:
                    continue  # sent under the referee who saved it, when they sign in again
                r = self._send(item, interactive=False)
                if not r.queued:
                    sent.append(r)
                elif self.outbox.get(item.key) is not None and \
                        self.outbox.get(item.key).state != CONFLICT:  # type: ignore[union-attr]
                    problem = r.problem
                    break
            return FlushReport(sent, self.outbox.conflicts(), len(self.outbox.waiting()),
                               problem)

    def resolve(self, key: str, *, hand_no: int | None = None, drop: bool = False
                ) -> SaveResult | None:
        """Settle a conflict: send it again as ``hand_no`` (the record's own number follows),
        or ``drop`` it (kept in the outbox's ``dropped/`` folder, not deleted). A resend the
        server refuses too raises its error and the hand stays a conflict (only the referee
        drops a hand); one that cannot be sent now waits (``queued``)."""
        if self.outbox is None:
            return None
        item = self.outbox.get(key)
        if item is None:
            raise StorageError.of("key", "not_in_outbox", key=key)
        if drop:
            self.outbox.move(key, "dropped")
            return None
        if hand_no is None:
            raise StorageError.of("hand_no", "renumber_or_drop")
        record = dict(item.record)
        if record.get("hand_no") is not None:
            record["hand_no"] = hand_no
        # a new key: the refused attempt saved nothing, and this is another request
        item = self.outbox.update(item, key=self.outbox.new_key(), hand_no=hand_no,
                                  record=record, state="waiting", error_field="", problem="",
                                  code="", params={}, violations=[])
        with self._send_lock:
            r = self._send(item, interactive=False)
        now = self.outbox.get(item.key)
        if r.queued and now is not None and now.state == CONFLICT:
            raise item_error(now)
        return r
