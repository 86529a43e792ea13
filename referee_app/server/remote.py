"""A server that looks like a :class:`Tournament` to a desk's controllers.

:class:`RemoteTournament` wraps a :class:`DeskClient` and answers every operation of
``storage/operations.py`` (``remote.hands.add(...)``) with the same names, arguments (the
storage method's own signature), return types (the storage library's frozen dataclasses,
read back from JSON by ``storage/wire.py``) and errors as a local ``Tournament``. A GUI
controller written against ``Tournament`` therefore works against a server unchanged
(tested: every read compares equal to the local file's). The one difference: a hand saved
while the server cannot be reached raises :class:`HandQueued` — a ``StorageError`` whose
problem says it waits in the outbox — instead of returning it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee_app.core.errors import render
from referee_app.storage import (
    HandInfo,
    HandStatus,
    Penalty,
    Player,
    PlayerStatement,
    Referee,
    StatementLine,
    StorageError,
    TournamentInfo,
    UnknownPlayerError,
    ruleset_store,
)
from referee_app.storage.operations import (
    ENDPOINT,
    OPERATION,
    PARTS,
    Operation,
    request_of,
)
from referee_app.storage.standings import hand_detail, penalty_lines
from referee_app.storage.stored_words import today_if_stored
from referee_app.storage.wire import from_json

from .client import DeskClient

if TYPE_CHECKING:
    from referee_app.core import Ruleset


class HandQueued(StorageError):
    """The server could not be reached: the hand was checked and waits in the outbox."""

    code = "hand_queued"

    def __init__(self, key: str, waiting: int, why: Any = None) -> None:
        """``why``: the message that keeps it waiting though the server answers (the
        record there was rewritten, the server's desk cannot sign), said instead."""
        code, params = (str(why.code), dict(why.params)) if hasattr(why, "code") else \
            ("hand_queued", {"waiting": waiting})
        super().__init__("server", render(code, params, "en"), code=code, params=params)
        self.key = key


def method_name(op: Operation) -> str:
    """The remote tournament's own method answering ``op`` (``hands_add``), if it has one."""
    return f"{op.part}_{op.method}" if op.part else op.method


class RemotePart:
    """One part of a server's tournament (``backend.hands``, ``backend.players``...): each
    call is the :data:`OPERATIONS` entry of that name, answered by the owner's
    :meth:`~RemoteTournament.answer` (so a subclass such as ``ServerBackend`` changes how).
    ``signed_in`` (on ``referees``) reads and sets the owner's."""

    def __init__(self, owner: RemoteTournament, part: str) -> None:
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_part", part)

    def __getattr__(self, name: str) -> Any:
        if name == "signed_in":
            return self._owner.signed_in
        op = OPERATION.get(f"{self._part}.{name}")
        if op is None:
            raise AttributeError(f"a server's tournament has no {self._part}.{name}")
        return self._owner.answer(op)

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "signed_in":
            raise AttributeError(name)
        self._owner.signed_in = value


class RemoteTournament:
    """The calls a desk makes on a ``Tournament``, answered by the server (see module doc),
    reached through the same parts (``hands``, ``players``...): every entry of
    :data:`OPERATIONS` with an endpoint is one request (:meth:`request`); the others, and
    those needing more than a request, are this class's ``PART_METHOD`` methods.

    ``referee=`` arguments are accepted for the same signatures; the server records the
    signed-in referee (it refuses a change by anyone else, as the local file does)."""

    def __init__(self, client: DeskClient) -> None:
        self.client = client
        self.signed_in: Referee | None = None
        for part in PARTS:
            setattr(self, part, RemotePart(self, part))

    def answer(self, op: Operation) -> Callable[..., Any]:
        """What answers ``op``: this class's own method for it, or one request."""
        own = getattr(self, method_name(op), None) if op.part else None
        if own is not None:
            return own  # type: ignore[no-any-return]
        if not op.plain:
            raise AttributeError(f"a server's tournament does not answer {op.name} here")
        return functools.partial(self.request, op)

    def request(self, op: Operation, *args: Any, **kwargs: Any) -> Any:
        """``op`` called as on the storage library, answered by one request to its endpoint
        and read back as its result type."""
        bound = op.signature().bind(None, *args, **kwargs)
        given = dict(bound.arguments)
        given.pop(next(iter(given)))  # the storage part itself
        unsent = [a for a in given if a not in op.args and a != "referee"]
        if unsent:
            raise TypeError(f"{op.name}: {', '.join(unsent)} cannot be sent to a server")
        method, path, query, body = request_of(op, given)
        data = self.client.call(method, path, params=query, json_body=body,
                                auth=ENDPOINT[op.endpoint].auth)
        return from_json(op.result, data[op.pick] if op.pick else data)

    # -- the tournament itself
    @property
    def info(self) -> TournamentInfo:
        return self.request(OPERATION["info"])  # type: ignore[no-any-return]

    def revision(self) -> int:
        """The record's revision; wait for the next with ``client.changes(since)``."""
        return self.request(OPERATION["revision"])  # type: ignore[no-any-return]

    def ruleset(self) -> Ruleset:
        """The tournament's own ruleset as stored inside it (``Tournament.ruleset``)."""
        return ruleset_store.from_snapshot(self.client.ruleset()["document"])

    def rules(self) -> Ruleset:
        """The tournament's own ruleset with its cap and stake (as ``Tournament.rules``)."""
        d = self.client.ruleset()
        return ruleset_store.from_snapshot(d["document"]).with_settings(
            cap_fan=d.get("cap_fan"), stake=d.get("stake"))

    def close(self) -> None:
        self.client.close()

    # -- session
    def referees_sign_in(self, name: str, pin: str) -> Referee:
        r = self.client.sign_in(name, pin)
        self.signed_in = Referee(r["referee"], r["head"])
        return self.signed_in

    def referees_sign_out(self) -> None:
        self.client.sign_out()
        self.signed_in = None

    def referees_required(self) -> bool:
        return not self.client.tournament()["read_only"]

    def referees_list(self) -> list[Referee]:
        info = self.info
        return [Referee(n, n == info.head_referee) for n in info.referees]

    # -- reads answered on the desk
    def record_digest(self) -> tuple[int, str]:
        rec = self.client.tournament()["record"]
        return int(rec["entries"]), str(rec["digest"])

    def rounds_problems(self, number: int) -> list[str]:
        """Seating problems are the head desk's to fix; a client desk lists none."""
        return []

    def hands_find(self, round: int, table: int, hand_no: int) -> HandInfo | None:
        return next((h for h in self.hands.list(round=round, table=table)  # type: ignore[attr-defined]
                     if h.hand_no == hand_no), None)

    def record_log(self, limit: int | None = None, *, hand: int | None = None,
                   referee: str | None = None) -> list[dict[str, Any]]:
        """As ``Tournament.record.log``: who did what and when, read from the server's chain
        (``GET /api/log``; the whole log needs a signed-in referee)."""
        rows = self.client.log(hand=hand, referee=referee)
        return rows[-limit:] if limit else rows

    def standings_provisional(self, round: int | None = None, *,
                              through_round: int | None = None) -> int:
        """As ``Tournament.standings.provisional``: unverified hands left out of these standings."""
        if not self.info.verified_only:
            return 0
        return sum(1 for h in self.hands.list(round=round, status=HandStatus.ENTERED)  # type: ignore[attr-defined]
                   if through_round is None or h.round <= through_round)

    def penalties_list(self, *, player: str | int | None = None) -> list[Penalty]:
        """Every penalty (``player``: those with an entry for that player)."""
        out: list[Penalty] = self.request(OPERATION["penalties.list"])
        if player is not None:
            name = self.players.get(player).name  # type: ignore[attr-defined]
            out = [p for p in out if name in p.entries]
        return out

    def players_get(self, ref: str | int, field: str = "player") -> Player:
        """A player by id, ``#id``, exact name or Latin name (``Tournament.players.get``)."""
        for p in self.players.list():  # type: ignore[attr-defined]
            if ref in (p.id, p.name, f"#{p.id}") or (
                    isinstance(ref, str) and p.name_latin
                    and p.name_latin.casefold() == ref.casefold()):
                return p  # type: ignore[no-any-return]
        raise UnknownPlayerError.of(field, "unknown_player", got=ref)

    def standings_statement(self, player: str | int) -> PlayerStatement:
        """Every hand and penalty of one player, as ``Tournament.standings.statement`` words
        it (built here from the hands and penalties the server lists)."""
        p = self.players.get(player)  # type: ignore[attr-defined]
        rules = self.rules()
        lines, total = [], 0
        for h in sorted(self.hands.list(), key=lambda h: (h.round, h.table, h.hand_no)):  # type: ignore[attr-defined]
            seat = next((s for s, name in h.players.items() if name == p.name), None)
            if seat is None:
                continue
            chips = int(h.totals.get(seat, 0))
            detail = hand_detail(seat, h.settlement, h.override_reason,
                                 today_if_stored(h.record, h.settlement, rules))
            flags = tuple(f for f, on in (("void", h.status is HandStatus.VOID),
                                          ("override", h.override_reason is not None)) if on)
            lines.append(StatementLine(h.round, h.table, h.hand_no, h.id, seat, chips, detail,
                                       flags))
            total += chips
        pen_lines = penalty_lines(p.name, self.penalties.list(player=p.id))  # type: ignore[attr-defined]
        lines.extend(pen_lines)
        return PlayerStatement(p, tuple(lines), total + sum(x.chips for x in pen_lines))

    # -- writes needing more than a request
    def hands_add(self, record: Mapping[str, Any], *, round: int, table: int, hand_no: int,
                  referee: str = "", override_reason: str | None = None,
                  override_totals: Mapping[str, int] | None = None) -> HandInfo:
        """Checked here, put in the outbox and sent with its idempotency key; a server that
        cannot be reached raises :class:`HandQueued` (the hand waits)."""
        r = self.client.add_hand(dict(record), round=round, table=table, hand_no=hand_no,
                                 override_reason=override_reason,
                                 override_totals=dict(override_totals)
                                 if override_totals is not None else None)
        if r.queued:
            n = len(self.client.waiting())
            # the server answers, but nothing is saved: a rewritten record, a key not there
            kept = r.problem if getattr(r.problem, "code", "") in (
                "record_rewritten", "key_missing") else None
            raise HandQueued(r.key, n, kept)
        assert r.hand is not None
        return from_json(HandInfo, r.hand)  # type: ignore[no-any-return]

    def hands_set_status(self, hand_id: int, status: HandStatus | str, *, referee: str = "",
                         reason: str | None = None, expected_version: int | None = None
                         ) -> HandInfo:
        """Verified, back to entered, or void: each its own endpoint."""
        st = HandStatus(status)
        if st is HandStatus.VOID:
            return self.hands.void(hand_id, reason=reason or "",  # type: ignore[attr-defined, no-any-return]
                                   expected_version=expected_version)
        body: dict[str, Any] = {"expected_version": expected_version}
        if st is not HandStatus.VERIFIED:
            body["reason"] = reason
        ep = ENDPOINT["verify_hand" if st is HandStatus.VERIFIED else "unverify_hand"]
        data = self.client.call(ep.method, ep.path.format(hand_id=int(hand_id)),
                                json_body=body, auth=ep.auth)
        return from_json(HandInfo, data["hand"])  # type: ignore[no-any-return]

    def penalties_add(self, players: Sequence[str | int] | str | int, chips: int, reason: str,
                      *, clause: str | None = None, referee: str = "", zero_sum: bool = False,
                      round: int | None = None, unit: str = "chips") -> Penalty:
        """One player is sent as a list of one (the API takes a list)."""
        who = [players] if isinstance(players, str | int) else list(players)
        return self.request(OPERATION["penalties.add"], who, chips, reason,  # type: ignore[no-any-return]
                            clause=clause, zero_sum=zero_sum, round=round, unit=unit)
