"""The JSON API (docs/server.md): sessions, reads, and writes through the storage library.

Reads need no token; every write needs ``Authorization: Bearer TOKEN`` from
``POST /api/session`` and is made by the storage method the desk and the CLI use, as the
token's referee (so PIN rules, head-referee actions, validation and the chain all apply).
Errors are ``{"error": {"field", "problem"}}``; one the store or the record reader raised
adds its ``code`` (``duplicate_hand``) and ``params``, and 422 adds ``violations`` with
clauses. The routes are ``storage/operations.py``'s ``ENDPOINTS``; the plain reads there are
served by :func:`serve`, the rest by :data:`HANDLERS`; answers are ``storage/wire.py``'s JSON.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from referee_app.core import HandRecord, RecordError
from referee_app.core.errors import Message
from referee_app.core.jsonin import json_kind, parse_json, source_named
from referee_app.storage import (
    AuthError,
    HandInfo,
    StorageError,
    Tournament,
    ruleset_store,
)
from referee_app.storage.checks import MAX_HAND_NO, MAX_TABLE_NO
from referee_app.storage.hands import MAX_KEY
from referee_app.storage.operations import ENDPOINTS, OPERATIONS, Operation
from referee_app.storage.progress import TableProgress
from referee_app.storage.wire import to_json

from .auth import Session
from .results import Results
from .state import ApiError, Rendered, ServerState, state_of

JSON = "application/json"

MAX_ID = 2 ** 63 - 1
#: the longest a long-poll of /api/changes waits (seconds)
MAX_WAIT = 60


# --------------------------------------------------------------------------- JSON shapes


def hand_json(h: HandInfo, *, full: bool = True) -> dict[str, Any]:
    """A hand as ``hand show --json`` prints it (``full=False``: without record/settlement)."""
    out: dict[str, Any] = to_json(h)
    if not full:
        del out["record"], out["settlement"]
    return out


def tournament_json(t: Tournament) -> dict[str, Any]:
    """The tournament's settings, record (its length, digest, whole head and the short form
    of the key that signs it), rounds and the round in play (``round_in_play``: its number,
    why it is in play, and when started its start and, when timed, its end as ISO 8601 UTC:
    a phone counts down to ``ends_at``)."""
    n, head = t.record.head()
    return {**to_json(t.info), "read_only": not t.referees.required(), "revision": n,
            "record": {"entries": n, "digest": head[:12], "head": head,
                       "signing_key": t.info.signing_key_short},
            "rounds": to_json(t.rounds.list()),
            "round_in_play": to_json(t.rounds.in_play())}


# --------------------------------------------------------------------------- input


#: query numbers with a smaller range than any id (storage/checks.py)
QUERY_MAX = {"table": MAX_TABLE_NO, "hand_no": MAX_HAND_NO}


def query_int(request: Request, name: str) -> int | None:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return None
    top = QUERY_MAX.get(name, MAX_ID)
    if not raw.isascii() or not raw.isdigit() or len(raw) > 19 or not 0 < int(raw) <= top:
        raise ApiError.of(400, name, "bad_count", max=top, got=repr(raw[:40]))
    return int(raw)


def path_int(request: Request, name: str) -> int:
    raw = str(request.path_params[name])
    if not raw.isascii() or not raw.isdigit() or len(raw) > 19 or not 0 < int(raw) <= MAX_ID:
        raise ApiError.of(404, name, "api_no_such", field=name, got=raw[:40])
    return int(raw)


async def body_object(request: Request) -> dict[str, Any]:
    """The request's JSON object (UTF-8, BOM accepted, nesting and number sizes checked)."""
    raw = await request.body()
    if not raw:
        raise ApiError.of(400, "body", "api_empty_body")
    try:
        data = parse_json(raw, source_named("body"))
    except RecordError as e:
        raise ApiError(400, e.field or "body", e.problem, code=e.code, params=e.params) \
            from None
    if not isinstance(data, dict):
        raise ApiError.of(400, "body", "api_not_object", kind=json_kind(data))
    return data


def field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], *,
          required: bool = True, default: Any = None) -> Any:
    if name not in data or data[name] is None:
        if required:
            raise ApiError.of(400, name, "api_required")
        return default
    v = data[name]
    if isinstance(v, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise ApiError.of(400, name, "api_wrong_kind", want=_kind_name(kind), kind="boolean")
    if not isinstance(v, kind):
        raise ApiError.of(400, name, "api_wrong_kind", want=_kind_name(kind), kind=json_kind(v))
    return v


#: what a field of a request takes, said as the ruleset files say it (``schema_type.*``)
_SCHEMA_TYPES = {int: "integer", str: "string", dict: "object", list: "array", bool: "boolean"}


def _kind_name(kind: type | tuple[type, ...]) -> Message:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    out = Message.of("expect_type", schema_type=_SCHEMA_TYPES.get(kinds[0], kinds[0].__name__))
    for k in kinds[1:]:
        out = Message.of("expect_or", a=out, b=Message.of(
            "expect_type", schema_type=_SCHEMA_TYPES.get(k, k.__name__)))
    return out


def totals_field(data: dict[str, Any]) -> dict[str, int] | None:
    t = field(data, "override_totals", dict, required=False)
    if t is None:
        return None
    for seat, v in t.items():
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 1_000_000:
            raise ApiError.of(400, f"override_totals.{seat}", "api_bad_chips")
    return t


def bearer(request: Request) -> str:
    auth = request.headers.get("authorization", "")
    scheme, _, token = auth.partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def session_of(request: Request) -> Session:
    s = state_of(request).sessions.get(bearer(request))
    if s is None:
        raise ApiError.of(401, "token", "api_sign_in_first",
                          headers={"WWW-Authenticate": "Bearer"})
    return s


async def read(request: Request, fn: Callable[[Tournament], Any], status: int = 200
               ) -> JSONResponse:
    """A read of its own (not shared by other clients) on Starlette's threads."""
    state = state_of(request)
    return JSONResponse(await state.read(lambda: fn(state.tournament())), status_code=status)


async def shared(request: Request, key: Any, fn: Callable[[Results, Tournament], Any],
                 headers: Callable[[Results, Tournament], dict[str, str]] | None = None
                 ) -> Response:
    """A read many clients make (standings, progress, seating, the tournament): made once
    per revision by the results worker, kept until the next save (``state.answer``)."""
    state = state_of(request)

    def make(results: Results, t: Tournament) -> Rendered:
        body = json.dumps(fn(results, t), ensure_ascii=False, separators=(",", ":"))
        return Rendered(results.revision, 200, body.encode("utf-8"), media_type=JSON,
                        headers=tuple((headers(results, t) if headers else {}).items()))

    return await state.answer(("api", key), make)


async def authorize(request: Request) -> Session:
    """Before reading a write's body: read-only tournaments 403, a missing token 401. The
    change watch knows the tournament has referees (it looks five times a second); only
    while it says none is the file asked (the first referee may have just been added)."""
    state = state_of(request)
    if state.watch.revision < 0 or state.watch.read_only:
        if not await state.read(lambda: state.tournament().referees.required()):
            raise ApiError.of(403, "referee", "server_read_only")
    return session_of(request)


def check_session(state: ServerState, t: Tournament, session: Session) -> None:
    """401 when ``session`` was ended meanwhile: its referee's PIN changed, or the referee
    was removed, after the sign-in — by this server or on the head desk's file."""
    state.sessions.sync(t.referees.changed_since)
    if not state.sessions.alive(session):
        raise ApiError.of(401, "token", "session_ended", name=session.referee,
                          headers={"WWW-Authenticate": "Bearer"})


async def write(request: Request, session: Session, fn: Callable[[Tournament, str], Any]
                ) -> Any:
    """Run a change as the session's referee on the writer (one write at a time, see
    ServerState.write; 503 when too many wait), once the session is known to stand
    (:func:`check_session`, on the writer)."""
    state = state_of(request)

    def checked(t: Tournament, who: str) -> Any:
        check_session(state, t, session)
        return fn(t, who)

    return await state.submit_write(session, checked)


async def read_as(request: Request, session: Session, fn: Callable[[Tournament], Any]
                  ) -> JSONResponse:
    """:func:`read` for a signed-in referee's read (the whole log, the record check)."""
    state = state_of(request)

    def checked(t: Tournament) -> Any:
        check_session(state, t, session)
        return fn(t)

    return await read(request, checked)


# --------------------------------------------------------------------------- session


async def sign_in(request: Request) -> JSONResponse:
    state = state_of(request)
    # the connection's address (a proxy's X-Forwarded-For only with serve --behind-proxy)
    client = request.client.host if request.client else "?"
    wait = state.sign_in_limiter.hit(client)
    if wait:
        raise ApiError.of(429, "referee", "too_many_attempts", wait=int(wait) + 1,
                          headers={"Retry-After": str(int(wait) + 1)})
    data = await body_object(request)
    name = field(data, "referee", str)
    pin = field(data, "pin", str)

    def check() -> tuple[str, bool, int]:
        t = state.tournament()
        if not t.referees.required():
            raise ApiError.of(403, "referee", "server_read_only")
        # the revision before the PIN is checked: a PIN change after it ends the session
        since = t.record.digest()[0]
        # not under the write lock: the PIN check (scrypt, ~0.1 s) must not hold up saves;
        # the failures and lock-outs it writes are ordered by SQLite itself. One check at
        # a time: eight desks signing in at once took both cores from the saves
        try:
            with state.pin_checks:
                r = t.referees.sign_in(name, pin, client=client)
        except AuthError as e:
            locked = e.code == "referee_locked"
            headers = {"Retry-After": str(e.params.get("wait", 60))} if locked else None
            raise ApiError.like(429 if locked else 401, e, headers) from None
        finally:
            t.referees.sign_out()
        return r.name, r.head, since

    who, head, since = await state.read(check)
    token, s = state.sessions.issue(who, head, since)
    return JSONResponse({"token": token, "referee": who, "head": head,
                         "expires_in": int(s.expires - time.time())},
                        status_code=201)


async def sign_out(request: Request) -> JSONResponse:
    state_of(request).sessions.revoke(bearer(request))
    return JSONResponse({"signed_out": True})


# --------------------------------------------------------------------------- reads


async def tournament(request: Request) -> Response:
    return await shared(request, "tournament", lambda results, t: tournament_json(t))


def _seated(results: Results, t: Tournament, n: int) -> None:
    if not results.seated(t, n):
        raise ApiError.of(404, "round", "api_round_not_seated", round=n)


async def ruleset(request: Request) -> Response:
    """The tournament's own ruleset (shipped or a club's file) and its cap and stake: a desk
    checks hands with exactly these while the server cannot be reached."""
    def get(results: Results, t: Tournament) -> dict[str, Any]:
        st = t.settings()
        return {"ruleset": st["ruleset"], "digest": st["ruleset_digest"],
                "cap_fan": st.get("cap_fan"), "stake": st.get("stake"),
                "document": ruleset_store.snapshot(t.ruleset())}

    return await shared(request, "ruleset", get)


async def seating(request: Request) -> Response:
    n = path_int(request, "round")

    def get(results: Results, t: Tournament) -> dict[str, Any]:
        _seated(results, t, n)
        return to_json(t.rounds.seating(n))  # type: ignore[no-any-return]

    return await shared(request, ("seating", n), get)


async def progress(request: Request) -> Response:
    n = path_int(request, "round")

    def get(results: Results, t: Tournament) -> dict[str, Any]:
        _seated(results, t, n)
        prog = results.progress(t, n)
        # RoundProgress.to_dict's keys, each table's converted once (kept while unchanged)
        return {"round": prog.round, "hands": prog.hands, "verified": prog.verified,
                "unverified": prog.unverified,
                "tables": [results.json_of(tp, TableProgress.to_dict) for tp in prog.tables]}

    return await shared(request, ("progress", n), get)


def _leaderboard(request: Request, kind: str,
                 rows_of: Callable[[Results, Tournament, int | None, int | None, str | None],
                                   Any]
                 ) -> Awaitable[Response]:
    """A leaderboard's rows (``?round=N`` or ``?through=N``; ``?stage=`` one stage alone, by
    its number or name) as their ``--json`` prints them, shared by every asker of a
    revision; provisional standings say so in a header (hands still to verify when only
    verified hands count)."""
    rnd, through = query_int(request, "round"), query_int(request, "through")
    stage = request.query_params.get("stage") or None  # a number or a name
    return shared(request, (kind, rnd, through, stage),
                  lambda results, t: [results.json_of(r, to_json)
                                      for r in rows_of(results, t, rnd, through, stage)],
                  lambda results, t: {"X-Provisional-Hands": str(
                      results.provisional(t, rnd, through))})


async def standings(request: Request) -> Response:
    """The rows of ``standings --json``."""
    return await _leaderboard(request, "standings", Results.standings)


async def team_standings(request: Request) -> Response:
    """``standings --teams --json``: each team's members added up, ranked ([] without
    teams), kept by the results worker as the standings are (``results.py``)."""
    return await _leaderboard(request, "team-standings", Results.teams)


async def hands(request: Request) -> JSONResponse:
    rnd, table = query_int(request, "round"), query_int(request, "table")
    status = request.query_params.get("status") or None
    if status not in (None, "entered", "verified", "void"):
        raise ApiError.of(400, "status", "api_bad_status", got=status)
    full = request.query_params.get("full") in ("1", "true")
    return await read(request, lambda t: [hand_json(h, full=full) for h in t.hands.list(
        round=rnd, table=table, status=status)])


#: keys never served in a log entry's detail, at any depth (the chain's details name
#: referees, never their PINs; this keeps it so if a later entry ever carried one)
SECRET_KEYS = frozenset({"pin", "pin_hash", "new_pin", "old_pin", "token", "password", "salt"})


def scrub(value: Any) -> Any:
    """``value`` without any :data:`SECRET_KEYS` entry in its mappings, however deep."""
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if str(k).lower() not in SECRET_KEYS}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


async def log(request: Request) -> JSONResponse:
    """``referee-app log --json`` over the API: the chain's entries, oldest first.

    With ``hand=ID`` no token is needed (the same who/when ``/history`` shows); the whole
    log (referee additions, lock-outs) needs a signed-in referee, like ``/api/record``,
    unless the tournament has no referees (read-only). Details are :func:`scrub`-bed."""
    hid = query_int(request, "hand")
    who = request.query_params.get("referee") or None  # empty: every referee, as hand=
    if who is not None and len(who) > 200:
        raise ApiError.of(400, "referee", "api_bad_referee_name")
    state = state_of(request)

    def entries(t: Tournament) -> list[dict[str, Any]]:
        return [{**e, "detail": scrub(e["detail"])} for e in t.record.log(hand=hid, referee=who)]

    if hid is None and await state.read(lambda: state.tournament().referees.required()):
        return await read_as(request, session_of(request), entries)
    return await read(request, entries)


async def next_hand(request: Request) -> JSONResponse:
    rnd, table = query_int(request, "round"), query_int(request, "table")
    if rnd is None or table is None:
        raise ApiError.of(400, "round" if rnd is None else "table", "api_required")
    return await read(request, lambda t: {"round": rnd, "table": table,
                                          "hand_no": t.hands.next_no(rnd, table),
                                          "dealer": t.hands.next_dealer(rnd, table)})


async def record(request: Request) -> JSONResponse:
    """``verify`` over the API (a signed-in referee: it reads the whole record)."""
    session = session_of(request)

    def check(t: Tournament) -> dict[str, Any]:
        rep = t.record.verify()
        return {"ok": True, "entries": rep.entries, "versions": rep.versions,
                "digest": rep.short, "keys": [list(k) for k in rep.keys],
                "unsigned": rep.unsigned}

    return await read_as(request, session, check)


#: the most entry numbers one ``/api/chain`` request may ask about
MAX_CHAIN_ASKED = 64


async def chain(request: Request) -> JSONResponse:
    """The record's head and its hashes at the entries asked (``?seq=12&seq=40``): what a
    witness (a desk, a results page) checks its earlier digests against. No token: hashes
    say nothing but whether the record still passes through them."""
    raw = request.query_params.getlist("seq")
    if len(raw) > MAX_CHAIN_ASKED:
        raise ApiError.of(400, "seq", "api_chain_too_many", max=MAX_CHAIN_ASKED)
    seqs = []
    for r in raw:
        if not r.isascii() or not r.isdigit() or len(r) > 19 or not 0 < int(r) <= MAX_ID:
            raise ApiError.of(400, "seq", "api_bad_entry_number", got=r[:40])
        seqs.append(int(r))

    def get(t: Tournament) -> dict[str, Any]:
        n, head = t.record.head()
        return {"entries": n, "digest": head,
                "hashes": {str(s): t.record.hash_at(s) for s in seqs}}

    return await read(request, get)


async def changes(request: Request) -> JSONResponse:
    """Long-poll: answers as soon as the record's revision differs from ``since`` (or after
    ``timeout`` seconds: a finite number 0-60, else 400, like a ``since`` that is no
    revision number)."""
    since = request.query_params.get("since", "-1")
    raw_timeout = request.query_params.get("timeout", "25")
    if not re.fullmatch(r"-1|\d{1,18}", since):
        raise ApiError.of(400, "since", "bad_revision", got=since[:40])
    try:
        timeout = float(raw_timeout) if len(raw_timeout) <= 20 else math.nan
    except ValueError:
        timeout = math.nan
    if not 0 <= timeout <= MAX_WAIT:  # nan and inf too
        raise ApiError.of(400, "timeout", "bad_wait", max=MAX_WAIT, got=raw_timeout[:40])
    state = state_of(request)
    rev = await state.watch.wait_change(int(since), timeout)
    # "every": how long an open page should let pass before its next refresh (longer while
    # the server is busy making pages: see state.Pace)
    return JSONResponse({"revision": rev, "every": state.pace.tell()})


# --------------------------------------------------------------------------- writes


def _content(record: dict[str, Any]) -> dict[str, Any]:
    """A record as compared for a resend: normalised, without player names and numbering."""
    d = HandRecord.from_dict(record).to_dict()
    for key in ("round", "table", "hand_no", "referee"):
        d.pop(key, None)
    seats = d.get("seats")
    if isinstance(seats, dict):
        d["seats"] = {s: {k: v for k, v in sh.items() if k != "player"}
                      for s, sh in seats.items()}
    return d


def _saved(h: HandInfo, status: int, replayed: bool = False) -> JSONResponse:
    return JSONResponse({"id": h.id, "settlement": h.settlement, "hand": hand_json(h),
                         "replayed": replayed}, status_code=status)


async def add_hand(request: Request) -> JSONResponse:
    session = await authorize(request)
    data = await body_object(request)
    rnd, table, hand_no = (field(data, k, int) for k in ("round", "table", "hand_no"))
    rec = field(data, "record", dict)
    override = field(data, "override_reason", str, required=False)
    totals = totals_field(data)
    key = request.headers.get("idempotency-key", "").strip()[:MAX_KEY]

    def save(t: Tournament, referee: str) -> tuple[HandInfo, bool]:
        # the key is saved with the hand, in its transaction (Hands.add): found, the hand
        # it sent is saved, whatever crashed since — answer as then, never as a conflict
        sent = t.hands.by_key(key) if key else None
        if sent is None:
            return t.hands.add(rec, round=rnd, table=table, hand_no=hand_no, referee=referee,
                               override_reason=override, override_totals=totals,
                               key=key or None), False
        first = t.hands.history(sent.hand_id)[0]  # as that send saved it
        if ((sent.referee, sent.round, sent.table, sent.hand_no) != (referee, rnd, table,
                                                                    hand_no)
                or (first.override_reason or None) != (override or None)
                or _content(first.record) != _content(rec)):
            raise ApiError.of(409, "idempotency_key", "api_key_reused")
        return t.hands.get(sent.hand_id), True

    h, replayed = await write(request, session, save)
    return _saved(h, 200 if replayed else 201, replayed)


async def amend_hand(request: Request) -> JSONResponse:
    session = await authorize(request)
    hid = path_int(request, "hand_id")
    data = await body_object(request)
    rec = field(data, "record", dict)
    reason = field(data, "reason", str)
    override = field(data, "override_reason", str, required=False)
    totals = totals_field(data)
    seen = field(data, "expected_version", int, required=False)
    h = await write(request, session, lambda t, who: t.hands.amend(
        hid, rec, reason=reason, referee=who, override_reason=override,
        override_totals=totals, expected_version=seen))
    return _saved(h, 200)


def _status_change(action: str) -> Callable[[Request], Any]:
    async def endpoint(request: Request) -> JSONResponse:
        session = await authorize(request)
        hid = path_int(request, "hand_id")
        data = await body_object(request) if int(request.headers.get("content-length")
                                                 or 0) else {}
        reason = field(data, "reason", str, required=action in ("void", "restore"))
        seen = field(data, "expected_version", int, required=False)  # 409 if changed since

        def change(t: Tournament, who: str) -> HandInfo:
            if action == "void":
                return t.hands.void(hid, reason=reason, referee=who, expected_version=seen)
            if action == "restore":
                return t.hands.restore(hid, reason=reason, referee=who)
            return t.hands.set_status(hid, "verified" if action == "verify" else "entered",
                                referee=who, reason=reason, expected_version=seen)

        return _saved(await write(request, session, change), 200)

    return endpoint


async def add_penalty(request: Request) -> JSONResponse:
    session = await authorize(request)
    data = await body_object(request)
    who_list = field(data, "players", list)
    if not who_list or not all(isinstance(p, str | int) and not isinstance(p, bool)
                               for p in who_list):
        raise ApiError.of(400, "players", "api_bad_players")
    chips = field(data, "chips", int)
    reason = field(data, "reason", str)
    clause = field(data, "clause", str, required=False)
    rnd = field(data, "round", int, required=False)
    zero_sum = field(data, "zero_sum", bool, required=False, default=False)
    unit = field(data, "unit", str, required=False, default="chips")
    p = await write(request, session, lambda t, who: t.penalties.add(
        who_list, chips, reason, clause=clause, referee=who, zero_sum=zero_sum, round=rnd,
        unit=unit))
    return JSONResponse(to_json(p), status_code=201)


async def start_round(request: Request) -> JSONResponse:
    """``round start N [--minutes M | --extend M]`` over the API (head referee)."""
    session = await authorize(request)
    n = path_int(request, "round")
    data = await body_object(request) if int(request.headers.get("content-length")
                                             or 0) else {}
    minutes = field(data, "minutes", int, required=False)
    extend = field(data, "extend", int, required=False)
    s = await write(request, session, lambda t, who: t.rounds.start(
        n, minutes=minutes, extend=extend, referee=who))
    return JSONResponse(to_json(s))


async def void_penalty(request: Request) -> JSONResponse:
    session = await authorize(request)
    pid = path_int(request, "penalty_id")
    data = await body_object(request)
    reason = field(data, "reason", str)
    p = await write(request, session, lambda t, who: t.penalties.void(pid, reason=reason, referee=who))
    return JSONResponse(to_json(p))


async def not_found(request: Request) -> JSONResponse:
    raise ApiError.of(404, "path", "api_no_endpoint", method=request.method,
                      path=request.url.path)


def serve(op: Operation) -> Callable[[Request], Any]:
    """The endpoint of a plain read: its path and query numbers, the storage method's
    result as JSON (``OPERATIONS`` says which; adding such a read needs no code here)."""
    async def endpoint(request: Request) -> JSONResponse:
        args: dict[str, Any] = {}
        for arg, where in op.args.items():
            place, _, name = where.partition(":")
            args[arg] = (path_int if place == "path" else query_int)(request, name or arg)
        return await read(request, lambda t: to_json(
            getattr(getattr(t, op.part), op.method)(**args)))

    endpoint.__name__ = op.endpoint
    return endpoint


#: the endpoints that need more than :func:`serve` (validation, memos, writes)
HANDLERS: dict[str, Callable[[Request], Any]] = {
    "sign_in": sign_in, "sign_out": sign_out, "tournament": tournament, "ruleset": ruleset,
    "seating": seating, "progress": progress, "standings": standings,
    "team_standings": team_standings, "hands": hands,
    "add_hand": add_hand, "next_hand": next_hand, "amend_hand": amend_hand,
    "void_hand": _status_change("void"), "restore_hand": _status_change("restore"),
    "verify_hand": _status_change("verify"), "unverify_hand": _status_change("unverify"),
    "add_penalty": add_penalty, "void_penalty": void_penalty, "start_round": start_round,
    "record": record, "log": log, "changes": changes, "chain": chain,
}


def handlers() -> dict[str, Callable[[Request], Any]]:
    """Every endpoint's handler: :data:`HANDLERS`, and :func:`serve` for the plain reads."""
    out = dict(HANDLERS)
    for op in OPERATIONS:
        if op.plain and not op.write and not op.pick and op.endpoint not in out:
            out[op.endpoint] = serve(op)
    return out


def api_routes() -> list[Route]:
    """The API's routes, one per :data:`ENDPOINTS` entry, then a JSON 404 for the rest."""
    served = handlers()
    return [*(Route(e.path, served[e.name], methods=[e.method]) for e in ENDPOINTS),
            Route("/api/{rest:path}", not_found, methods=["GET", "POST", "DELETE", "PUT"])]


__all__ = ["api_routes", "handlers", "hand_json", "tournament_json", "ServerState",
           "StorageError"]
