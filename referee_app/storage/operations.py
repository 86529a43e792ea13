"""The one description of what a desk does with a tournament, on a file or over a server.

:data:`OPERATIONS` lists every call a desk's controllers make on a :class:`Tournament`
(``t.hands.add(...)``): its part and method (whose signature, on the storage class, is the
operation's arguments), its result type, whether it writes, and how a server answers it —
the API endpoint of :data:`ENDPOINTS`, where each argument goes (path, query or body) and
which key of the answer holds the result. From this one list:

- the API (``server/api.py``) builds its routes from :data:`ENDPOINTS`, and answers the plain
  reads with :func:`~.wire.to_json` of the storage method's result;
- the remote client (``server/remote.py``) answers every operation with an endpoint by one
  generic request, its result read back with :func:`~.wire.from_json`;
- the client desk (``gui/server_desk.py``) keeps the last answer of every ``keep``
  operation for offline use and refuses the ``head_desk`` ones (administration);
- the desk's backend (``gui/backend.py``) is whatever answers all of them.

An operation without an endpoint is answered on the desk from others (``hands.find`` from
the list, ``standings.statement`` from the hands and penalties): its ``desk`` says how.
docs/server.md says how to add one.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .hands import Hands
from .models import (
    HandInfo,
    HandVersion,
    Penalty,
    Player,
    PlayerStatement,
    Referee,
    RoundInfo,
    RoundState,
    Seating,
    Stage,
    StandingRow,
    TeamRow,
    TournamentInfo,
)
from .penalties import Penalties
from .players import Players
from .referees import Referees
from .rounds import Rounds
from .standings import Standings
from .tournament import Tournament
from .verify import Record


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One route of the JSON API (docs/server.md): ``name`` is the API's handler for it;
    ``auth``: the remote client sends its token."""

    name: str
    method: str
    path: str
    auth: bool = False


#: every route of the API, in the order Starlette matches them
ENDPOINTS: tuple[Endpoint, ...] = (
    Endpoint("sign_in", "POST", "/api/session"),
    Endpoint("sign_out", "DELETE", "/api/session", auth=True),
    Endpoint("tournament", "GET", "/api/tournament"),
    Endpoint("players", "GET", "/api/players"),
    Endpoint("ruleset", "GET", "/api/ruleset"),
    Endpoint("seating", "GET", "/api/rounds/{round}/seating"),
    Endpoint("progress", "GET", "/api/rounds/{round}/progress"),
    Endpoint("start_round", "POST", "/api/rounds/{round}/start", auth=True),
    Endpoint("standings", "GET", "/api/standings"),
    Endpoint("stages", "GET", "/api/stages"),
    Endpoint("team_standings", "GET", "/api/standings/teams"),
    Endpoint("hands", "GET", "/api/hands"),
    Endpoint("add_hand", "POST", "/api/hands", auth=True),
    Endpoint("next_hand", "GET", "/api/hands/next"),
    Endpoint("hand", "GET", "/api/hands/{hand_id}"),
    Endpoint("history", "GET", "/api/hands/{hand_id}/history"),
    Endpoint("amend_hand", "POST", "/api/hands/{hand_id}/amend", auth=True),
    Endpoint("void_hand", "POST", "/api/hands/{hand_id}/void", auth=True),
    Endpoint("restore_hand", "POST", "/api/hands/{hand_id}/restore", auth=True),
    Endpoint("verify_hand", "POST", "/api/hands/{hand_id}/verify", auth=True),
    Endpoint("unverify_hand", "POST", "/api/hands/{hand_id}/unverify", auth=True),
    Endpoint("penalties", "GET", "/api/penalties"),
    Endpoint("add_penalty", "POST", "/api/penalties", auth=True),
    Endpoint("void_penalty", "POST", "/api/penalties/{penalty_id}/void", auth=True),
    Endpoint("record", "GET", "/api/record", auth=True),
    Endpoint("chain", "GET", "/api/chain"),
    Endpoint("log", "GET", "/api/log"),
    Endpoint("changes", "GET", "/api/changes"),
)

ENDPOINT: dict[str, Endpoint] = {e.name: e for e in ENDPOINTS}


@dataclass(frozen=True, slots=True)
class Operation:
    """One call a desk makes on its tournament (see the module doc).

    ``args``: argument -> where the server takes it: ``"path"``, ``"query"``, ``"body"``,
    or ``"query:NAME"`` / ``"path:NAME"`` when the API names it otherwise; arguments not
    named here stay on the desk (``referee=``: the server writes as the signed-in referee).
    ``fixed``: query values always sent. ``pick``: the key of the answer holding the result.
    ``desk``: why an operation without an endpoint is answered on the desk (and by which
    method of the remote client), or why one with an endpoint needs more than a request."""

    part: str  # "" for the tournament itself
    method: str
    result: Any
    endpoint: str = ""
    args: Mapping[str, str] = field(default_factory=dict)
    fixed: Mapping[str, Any] = field(default_factory=dict)
    pick: str = ""
    write: bool = False
    keep: bool = False  # a client desk keeps the last answer for offline use
    head_desk: bool = False  # the head desk's administration: refused on a client desk
    desk: str = ""

    @property
    def name(self) -> str:
        return f"{self.part}.{self.method}" if self.part else self.method

    @property
    def plain(self) -> bool:
        """Answered by one request to its endpoint, nothing more."""
        return bool(self.endpoint) and not self.desk

    def signature(self) -> inspect.Signature:
        """The storage method's own signature: the operation's arguments."""
        return inspect.signature(storage_method(self))


#: part name -> the storage class of that part of a Tournament
PART_CLASSES: dict[str, type] = {
    "referees": Referees, "players": Players, "rounds": Rounds, "hands": Hands,
    "penalties": Penalties, "standings": Standings, "record": Record,
}


def storage_method(op: Operation) -> Callable[..., Any]:
    """The method of the storage library that answers ``op`` on a local file."""
    owner: Any = PART_CLASSES[op.part] if op.part else Tournament
    member = inspect.getattr_static(owner, op.method)
    return member.fget if isinstance(member, property) else member  # type: ignore[no-any-return]


_HAND = {"hand_id": "path"}
_EDIT = {**_HAND, "reason": "body", "expected_version": "body"}

OPERATIONS: tuple[Operation, ...] = (
    # the tournament itself
    Operation("", "info", TournamentInfo, "tournament", keep=True),
    # a token that changes with the record: the file's own, or the server's record entries
    Operation("", "revision", Any, "tournament", pick="revision", keep=True),
    Operation("", "rules", Any, "ruleset", desk="a ruleset from the document and settings"),
    Operation("", "ruleset", Any, "ruleset", desk="a ruleset from the document"),
    Operation("", "update_info", Any, write=True, head_desk=True),
    Operation("", "export_bundle", Any, head_desk=True),
    Operation("", "close", type(None), desk="closes the connection"),
    # referees
    Operation("referees", "required", bool, "tournament", keep=True,
              desk="not read_only"),
    Operation("referees", "list", list[Referee], "tournament",
              desk="from the tournament's referees and head referee"),
    Operation("referees", "sign_in", Referee, "sign_in", write=True, desk="keeps the session"),
    Operation("referees", "sign_out", type(None), "sign_out", desk="drops the session"),
    Operation("referees", "add", Referee, write=True, head_desk=True),
    # players
    Operation("players", "list", list[Player], "players", keep=True),
    Operation("players", "get", Player, keep=True, desk="found in the list"),
    Operation("players", "add", Player, write=True, head_desk=True),
    Operation("players", "import_csv", list[Player], write=True, head_desk=True),
    Operation("players", "set_status", Player, write=True, head_desk=True),
    Operation("players", "update", Player, write=True, head_desk=True),
    # rounds
    Operation("rounds", "list", list[RoundInfo], "tournament", pick="rounds", keep=True),
    Operation("rounds", "seating", Seating, "seating", {"number": "path:round"}, keep=True),
    Operation("rounds", "problems", list[str], desk="the head desk's to fix: none here"),
    Operation("rounds", "seat", Seating, write=True, head_desk=True),
    Operation("rounds", "in_play", RoundState, "tournament", pick="round_in_play", keep=True),
    Operation("rounds", "start", RoundState, "start_round",
              {"number": "path:round", "minutes": "body", "extend": "body"}, write=True),
    Operation("rounds", "set_seat", Seating, write=True, head_desk=True),
    # hands
    Operation("hands", "list", list[HandInfo], "hands",
              {"round": "query", "table": "query", "status": "query"}, fixed={"full": 1},
              keep=True),
    Operation("hands", "get", HandInfo, "hand", _HAND, keep=True),
    Operation("hands", "find", HandInfo | None, desk="found in the table's list"),
    Operation("hands", "history", list[HandVersion], "history", _HAND, keep=True),
    Operation("hands", "next_no", int, "next_hand", {"round": "query", "table": "query"},
              pick="hand_no"),
    Operation("hands", "next_dealer", str, "next_hand", {"round": "query", "table": "query"},
              pick="dealer"),
    Operation("hands", "add", HandInfo, "add_hand", write=True,
              desk="checked, put in the outbox, sent with an idempotency key"),
    Operation("hands", "amend", HandInfo, "amend_hand",
              {**_EDIT, "record": "body", "override_reason": "body",
               "override_totals": "body"}, pick="hand", write=True),
    Operation("hands", "void", HandInfo, "void_hand", _EDIT, pick="hand", write=True),
    Operation("hands", "restore", HandInfo, "restore_hand", {**_HAND, "reason": "body"},
              pick="hand", write=True),
    Operation("hands", "set_status", HandInfo, "verify_hand", write=True,
              desk="verify, unverify or void by the status asked"),
    # penalties
    Operation("penalties", "list", list[Penalty], "penalties", keep=True),
    Operation("penalties", "add", Penalty, "add_penalty",
              {"players": "body", "chips": "body", "reason": "body", "clause": "body",
               "round": "body", "zero_sum": "body", "unit": "body"}, write=True,
              desk="one player is sent as a list of one"),
    Operation("penalties", "void", Penalty, "void_penalty",
              {"penalty_id": "path", "reason": "body"}, write=True),
    # standings
    Operation("standings", "table", list[StandingRow], "standings",
              {"round": "query", "through_round": "query:through", "stage": "query"},
              keep=True),
    Operation("standings", "stages", list[Stage], "stages", keep=True),
    Operation("standings", "teams", list[TeamRow], "team_standings",
              {"round": "query", "through_round": "query:through"}, keep=True),
    Operation("standings", "provisional", int, "hands",
              desk="the unverified hands counted, when only verified hands count"),
    Operation("standings", "statement", PlayerStatement, keep=True,
              desk="from the player's hands and penalties"),
    # the record
    Operation("record", "log", list[dict[str, Any]], "log", {"hand": "query",
                                                            "referee": "query"},
              desk="the whole log needs the token; limit is applied here"),
    Operation("record", "digest", tuple[int, str], "tournament", keep=True,
              desk="the record's entries and digest"),
)

OPERATION: dict[str, Operation] = {op.name: op for op in OPERATIONS}

#: the parts a desk reaches (``backend.hands``...), in the order of :data:`OPERATIONS`
PARTS: tuple[str, ...] = tuple(dict.fromkeys(op.part for op in OPERATIONS if op.part))


def request_of(op: Operation, bound: Mapping[str, Any]
               ) -> tuple[str, str, dict[str, Any], dict[str, Any] | None]:
    """(method, path, query, body) of a plain operation called with ``bound`` arguments
    (the storage signature's, by name): ``None`` query values are left out, body ones sent."""
    from .wire import to_json

    ep = ENDPOINT[op.endpoint]
    path_values: dict[str, Any] = {}
    query: dict[str, Any] = dict(op.fixed)
    body: dict[str, Any] | None = None
    for arg, where in op.args.items():
        place, _, wire_name = where.partition(":")
        value = to_json(bound.get(arg))
        if place == "path":
            path_values[wire_name or arg] = int(value)
        elif place == "query":
            if value is not None:
                query[wire_name or arg] = value
        else:
            body = body if body is not None else {}
            body[wire_name or arg] = value
    return ep.method, ep.path.format(**path_values), query, body
