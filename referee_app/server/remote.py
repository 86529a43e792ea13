"""A server that looks like a :class:`Tournament` to a desk's controllers.

:class:`RemoteTournament` wraps a :class:`DeskClient` and offers the methods a desk uses
on a local ``Tournament`` with the same names, arguments, return types (the storage
library's frozen dataclasses: ``HandInfo``, ``HandVersion``, ``StandingRow``, ``Seating``,
``TournamentInfo``, ``Player``, ``Penalty``, ``RoundInfo``, ``Referee``) and errors. A GUI
controller written against ``Tournament`` therefore works against a server unchanged
(tested: every read compares equal to the local file's). The one difference: a hand saved
while the server cannot be reached raises :class:`HandQueued` — a ``StorageError`` whose
problem says it waits in the outbox — instead of returning it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from referee_app.storage import (
    HandInfo,
    HandStatus,
    HandVersion,
    Penalty,
    Player,
    PlayerStatement,
    PlayerStatus,
    Referee,
    RoundInfo,
    SeatAssignment,
    Seating,
    StandingRow,
    StatementLine,
    StorageError,
    TournamentInfo,
    UnknownPlayerError,
    VersionAction,
    ruleset_store,
)
from referee_app.storage.standings import penalty_lines

from .client import DeskClient

if TYPE_CHECKING:
    from referee_app.core import Ruleset


class HandQueued(StorageError):
    """The server could not be reached: the hand was checked and waits in the outbox."""

    code = "hand_queued"

    def __init__(self, key: str, problem: str) -> None:
        super().__init__("server", problem)
        self.key = key


def hand_from_json(d: Mapping[str, Any]) -> HandInfo:
    return HandInfo(
        id=d["id"], round=d["round"], table=d["table"], hand_no=d["hand_no"],
        version=d["version"], status=HandStatus(d["status"]), record=d.get("record", {}),
        settlement=d.get("settlement", {}), totals=dict(d["totals"]),
        players=dict(d["players"]), dealer=d["dealer"], entered_by=d["entered_by"],
        entered_at=d["entered_at"], updated_by=d["updated_by"], updated_at=d["updated_at"],
        amended="amended" in d["flags"], override_reason=d["override_reason"])


def version_from_json(d: Mapping[str, Any]) -> HandVersion:
    return HandVersion(
        d["hand_id"], d["version"], VersionAction(d["action"]), HandStatus(d["status"]),
        d["record"], d["settlement"], dict(d["totals"]), dict(d["diff"]), d["referee"],
        d["at"], d["reason"], d["override_reason"], d["override_totals"],
        tuple(d["changes"]))


def standing_from_json(d: Mapping[str, Any]) -> StandingRow:
    return StandingRow(
        rank=d["rank"], player_id=d["player_id"], player=d["player"], club=d["club"],
        status=PlayerStatus(d["status"]), chips=d["chips"], hand_chips=d["hand_chips"],
        hands=d["hands"], wins=d["wins"], self_drawn=d["self_drawn"],
        discards_paid=d["discards_paid"], flower_pigs=d["flower_pigs"],
        largest_win_fan=d["largest_win_fan"], penalties=d["penalties"],
        per_round={int(k): v for k, v in d["per_round"].items()}, tied=d["tied"])


def seating_from_json(d: Mapping[str, Any]) -> Seating:
    return Seating(d["round"], tuple(d["seats"]), tuple(
        SeatAssignment(d["round"], a["table"], a["seat"], a["player_id"], a["player"])
        for a in d["assignments"]), tuple(d["byes"]), d["repeat_pairs"])


def penalty_from_json(d: Mapping[str, Any]) -> Penalty:
    return Penalty(d["id"], tuple(d["players"]), d["chips"], d["reason"], d["clause"],
                   d["referee"], d["at"], d["zero_sum"], d["round"], dict(d["entries"]),
                   d["void"], d["void_reason"])


def info_from_json(d: Mapping[str, Any]) -> TournamentInfo:
    return TournamentInfo(
        name=d["name"], ruleset=d["ruleset"], seats=tuple(d["seats"]),
        start_date=d["start_date"], end_date=d["end_date"], venue=d["venue"],
        stake=d["stake"], tie_break=tuple(d["tie_break"]), referees=tuple(d["referees"]),
        head_referee=d["head_referee"], created_at=d["created_at"], cap_fan=d["cap_fan"],
        results_url=d.get("results_url", ""),
        verified_only=bool(d.get("verified_only", False)))


#: part -> {call on the part: the method of :class:`RemoteTournament` answering it}: a desk
#: calls ``backend.hands.add(...)`` on a local ``Tournament`` and on a server alike
PART_CALLS: dict[str, dict[str, str]] = {
    "referees": {"list": "referees_list", "sign_in": "sign_in", "sign_out": "sign_out",
                 "required": "has_referees", "add": "add_referee"},
    "players": {"list": "players_list", "get": "player", "add": "add_player",
                "import_csv": "import_players_csv", "set_status": "set_player_status"},
    "rounds": {"list": "rounds_list", "seating": "seating", "problems": "seating_problems",
               "seat": "seat_round", "set_seat": "set_seat"},
    "hands": {"list": "hands_list", "get": "hand", "find": "find_hand",
              "history": "hand_history", "next_no": "next_hand_no",
              "next_dealer": "next_dealer", "add": "add_hand", "amend": "amend_hand",
              "void": "void_hand", "restore": "restore_hand", "set_status": "set_status"},
    "penalties": {"list": "penalties_list", "add": "add_penalty", "void": "void_penalty"},
    "standings": {"table": "standings_table", "provisional": "provisional",
                  "statement": "player_statement"},
    "record": {"log": "log", "digest": "record_digest"},
}


class RemotePart:
    """One part of a server's tournament (``backend.hands``, ``backend.players``...): each
    call is answered by the owner's method :data:`PART_CALLS` names, so a subclass of the
    owner (``ServerBackend``, which keeps answers for offline use) serves the parts too.
    ``signed_in`` (on ``referees``) reads and sets the owner's."""

    def __init__(self, owner: RemoteTournament, calls: Mapping[str, str]) -> None:
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_calls", calls)

    def __getattr__(self, name: str) -> Any:
        if name == "signed_in":
            return self._owner.signed_in
        try:
            return getattr(self._owner, self._calls[name])
        except KeyError:
            raise AttributeError(f"a server's tournament has no {name!r} here") from None

    def __setattr__(self, name: str, value: Any) -> None:
        if name != "signed_in":
            raise AttributeError(name)
        self._owner.signed_in = value


class RemoteTournament:
    """The calls a desk makes on a ``Tournament``, answered by the server (see module doc),
    reached through the same parts: ``hands``, ``players``, ``rounds``, ``penalties``,
    ``standings``, ``referees``, ``record`` (see :data:`PART_CALLS`).

    ``referee=`` arguments are accepted for the same signatures; the server records the
    signed-in referee (it refuses a change by anyone else, as the local file does)."""

    def __init__(self, client: DeskClient) -> None:
        self.client = client
        self.signed_in: Referee | None = None
        for part, calls in PART_CALLS.items():
            setattr(self, part, RemotePart(self, calls))

    # -- session
    def sign_in(self, name: str, pin: str) -> Referee:
        r = self.client.sign_in(name, pin)
        self.signed_in = Referee(r["referee"], r["head"])
        return self.signed_in

    def sign_out(self) -> None:
        self.client.sign_out()
        self.signed_in = None

    def has_referees(self) -> bool:
        return not self.client.tournament()["read_only"]

    # -- reads
    @property
    def info(self) -> TournamentInfo:
        return info_from_json(self.client.tournament())

    def revision(self) -> int:
        """The record's revision; wait for the next with ``client.changes(since)``."""
        return int(self.client.tournament()["revision"])

    def record_digest(self) -> tuple[int, str]:
        rec = self.client.tournament()["record"]
        return int(rec["entries"]), str(rec["digest"])

    def players_list(self) -> list[Player]:
        return [Player(p["id"], p["name"], p["name_latin"], p["club"],
                       PlayerStatus(p["status"]), p["registered_at"])
                for p in self.client.players()]

    def rounds_list(self) -> list[RoundInfo]:
        return [RoundInfo(r["number"], r["tables"], r["players"], tuple(r["byes"]), r["hands"])
                for r in self.client.tournament()["rounds"]]

    def seating(self, number: int) -> Seating:
        return seating_from_json(self.client.seating(number))

    def hands_list(self, *, round: int | None = None, table: int | None = None,
              status: HandStatus | str | None = None) -> list[HandInfo]:
        st = HandStatus(status).value if status is not None else None
        return [hand_from_json(h) for h in self.client.hands(round, table, st, full=True)]

    def hand(self, hand_id: int) -> HandInfo:
        return hand_from_json(self.client.hand(hand_id))

    def find_hand(self, round: int, table: int, hand_no: int) -> HandInfo | None:
        return next((h for h in self.hands_list(round=round, table=table) if h.hand_no == hand_no),
                    None)

    def hand_history(self, hand_id: int) -> list[HandVersion]:
        return [version_from_json(v) for v in self.client.history(hand_id)]

    def log(self, limit: int | None = None, *, hand: int | None = None,
            referee: str | None = None) -> list[dict[str, Any]]:
        """As ``Tournament.record.log``: who did what and when, read from the server's chain
        (``GET /api/log``; the whole log needs a signed-in referee)."""
        rows = self.client.log(hand=hand, referee=referee)
        return rows[-limit:] if limit else rows

    def standings_table(self, round: int | None = None, *, through_round: int | None = None
                  ) -> list[StandingRow]:
        return [standing_from_json(r) for r in self.client.standings(round, through_round)]

    def provisional(self, round: int | None = None, *, through_round: int | None = None
                    ) -> int:
        """As ``Tournament.standings.provisional``: unverified hands left out of these standings."""
        if not self.info.verified_only:
            return 0
        return sum(1 for h in self.hands_list(round=round, status=HandStatus.ENTERED)
                   if through_round is None or h.round <= through_round)

    def penalties_list(self, *, player: str | int | None = None) -> list[Penalty]:
        """Every penalty (``player``: those with an entry for that player)."""
        out = [penalty_from_json(p) for p in self.client.penalties()]
        if player is not None:
            name = self.player(player).name
            out = [p for p in out if name in p.entries]
        return out

    def ruleset(self) -> Ruleset:
        """The tournament's own ruleset as stored inside it (``Tournament.ruleset``)."""
        return ruleset_store.from_snapshot(self.client.ruleset()["document"])

    def rules(self) -> Ruleset:
        """The tournament's own ruleset with its cap and stake (as ``Tournament.rules``)."""
        d = self.client.ruleset()
        return ruleset_store.from_snapshot(d["document"]).with_settings(
            cap_fan=d.get("cap_fan"), stake=d.get("stake"))

    def player(self, ref: str | int, field: str = "player") -> Player:
        """A player by id, ``#id``, exact name or Latin name (``Tournament.players.get``)."""
        for p in self.players_list():
            if ref in (p.id, p.name, f"#{p.id}") or (
                    isinstance(ref, str) and p.name_latin
                    and p.name_latin.casefold() == ref.casefold()):
                return p
        raise UnknownPlayerError(field, f"no player {ref!r}")

    def player_statement(self, player: str | int) -> PlayerStatement:
        """Every hand and penalty of one player, as ``Tournament.standings.statement`` words
        it (built here from the hands and penalties the server lists)."""
        p = self.player(player)
        lines, total = [], 0
        for h in sorted(self.hands_list(), key=lambda h: (h.round, h.table, h.hand_no)):
            seat = next((s for s, name in h.players.items() if name == p.name), None)
            if seat is None:
                continue
            chips = int(h.totals.get(seat, 0))
            detail = tuple(
                f"{pay['clause']} {'+' if pay['to'] == seat else '-'}{pay['chips']} "
                f"{'from ' + pay['from'] if pay['to'] == seat else 'to ' + pay['to']}: "
                f"{pay['reason']}"
                for pay in h.settlement.get("payments", []) if seat in (pay["from"], pay["to"]))
            flags = tuple(f for f, on in (("void", h.status is HandStatus.VOID),
                                          ("override", h.override_reason is not None)) if on)
            if h.override_reason is not None:
                detail += (f"override: {h.override_reason}",)
            lines.append(StatementLine(h.round, h.table, h.hand_no, h.id, seat, chips, detail,
                                       flags))
            total += chips
        pen_lines = penalty_lines(p.name, self.penalties_list(player=p.id))
        lines.extend(pen_lines)
        return PlayerStatement(p, tuple(lines), total + sum(x.chips for x in pen_lines))

    def next_hand_no(self, round: int, table: int) -> int:
        return int(self.client.next_hand(round, table)["hand_no"])

    def next_dealer(self, round: int, table: int) -> str:
        return str(self.client.next_hand(round, table)["dealer"])

    # -- writes
    def add_hand(self, record: Mapping[str, Any], *, round: int, table: int, hand_no: int,
                 referee: str = "", override_reason: str | None = None,
                 override_totals: Mapping[str, int] | None = None) -> HandInfo:
        r = self.client.add_hand(dict(record), round=round, table=table, hand_no=hand_no,
                                 override_reason=override_reason,
                                 override_totals=dict(override_totals)
                                 if override_totals is not None else None)
        if r.queued:
            n = len(self.client.waiting())
            raise HandQueued(r.key, f"the server cannot be reached; the hand was checked and "
                             f"waits in the outbox ({n} waiting): it is sent when the server "
                             "is back")
        assert r.hand is not None
        return hand_from_json(r.hand)

    def amend_hand(self, hand_id: int, record: Mapping[str, Any], *, reason: str,
                   referee: str = "", override_reason: str | None = None,
                   override_totals: Mapping[str, int] | None = None,
                   expected_version: int | None = None) -> HandInfo:
        return hand_from_json(self.client.amend_hand(
            hand_id, dict(record), reason=reason, override_reason=override_reason,
            override_totals=dict(override_totals) if override_totals is not None else None,
            expected_version=expected_version)["hand"])

    def void_hand(self, hand_id: int, *, reason: str, referee: str = "",
                  expected_version: int | None = None) -> HandInfo:
        return hand_from_json(self.client.void_hand(
            hand_id, reason=reason, expected_version=expected_version)["hand"])

    def restore_hand(self, hand_id: int, *, reason: str, referee: str = "") -> HandInfo:
        return hand_from_json(self.client.restore_hand(hand_id, reason=reason)["hand"])

    def set_status(self, hand_id: int, status: HandStatus | str, *, referee: str = "",
                   reason: str | None = None, expected_version: int | None = None
                   ) -> HandInfo:
        st = HandStatus(status)
        if st is HandStatus.VOID:
            return self.void_hand(hand_id, reason=reason or "",
                                  expected_version=expected_version)
        if st is HandStatus.VERIFIED:
            return hand_from_json(self.client.verify_hand(hand_id, expected_version)["hand"])
        return hand_from_json(self.client.unverify_hand(
            hand_id, reason=reason, expected_version=expected_version)["hand"])

    def add_penalty(self, players: Sequence[str | int] | str | int, chips: int, reason: str, *,
                    clause: str | None = None, referee: str = "", zero_sum: bool = False,
                    round: int | None = None) -> Penalty:
        who = [players] if isinstance(players, str | int) else list(players)
        return penalty_from_json(self.client.add_penalty(who, chips, reason, clause=clause,
                                                         round=round, zero_sum=zero_sum))

    def void_penalty(self, penalty_id: int, *, reason: str, referee: str = "") -> Penalty:
        return penalty_from_json(self.client.void_penalty(penalty_id, reason=reason))

    def close(self) -> None:
        self.client.close()
