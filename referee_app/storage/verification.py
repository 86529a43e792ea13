"""Double-entry (blind) verification: a second referee keys the slip again without seeing
the saved version; the two records are compared field by field. Identical → the hand is
marked verified (the store logs who and when); different → the differences, for the head
referee to resolve (keep the first entry, or amend to the second with a reason).

Tiles are compared as tiles, not as text: ``123m`` and ``1m2m3m``, or ``5p 9s`` and
``9s5p`` for pongs, are the same entry. Built on :class:`Tournament`'s public methods.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee_app.core import HandRecord, TileParseError, parse_tiles
from referee_app.core.errors import Message

from .errors import StorageError
from .tournament import Tournament


@dataclass(frozen=True)
class Difference:
    """``field`` (a record path, e.g. ``seats.S.concealed``) as first and second entered:
    tiles as written, an event as a :class:`Message` (a string: its English)."""

    field: str
    first: str
    second: str

    def to_dict(self) -> dict[str, Any]:
        """The three texts; an event's code and params beside (``first_message``)."""
        out: dict[str, Any] = {"field": self.field, "first": self.first,
                               "second": self.second}
        for side in ("first", "second"):
            said = getattr(self, side)
            if isinstance(said, Message):
                out[f"{side}_message"] = said.data()
        return out


@dataclass(frozen=True)
class VerifyResult:
    hand_id: int
    verified: bool
    differences: tuple[Difference, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"hand_id": self.hand_id, "verified": self.verified,
                "differences": [d.to_dict() for d in self.differences]}


def _tiles(value: Any) -> str:
    """Tile text in a canonical order (``"1m2m3m"`` → ``"123m"``); unreadable text as is."""
    if isinstance(value, list):
        value = " ".join(str(v) for v in value)
    text = str(value or "")
    try:
        tiles = sorted(parse_tiles(text), key=lambda t: t.index)
    except TileParseError:
        return text.strip()
    out = ""
    for suit in "mps":  # compact notation: 123m456p
        digits = "".join(str(t)[0] for t in tiles if str(t)[1] == suit)
        out += f"{digits}{suit}" if digits else ""
    return out


def _event(e: Mapping[str, Any]) -> Message:
    """One event in a canonical form, a message (``kong S 9s concealed`` / ``win N, S 7p
    from W [robbing_kong]``): winner order and flag order do not matter, and a screen says
    it in its reader's words."""
    tile = _tiles(e.get("tile", ""))
    frm = e.get("from")
    if e.get("type") == "kong":
        return Message.of("event_kong", seat=str(e.get("seat")), tile=tile,
                          kong=str(e.get("kind")),
                          frm=Message.of("event_kong_from", seat=frm) if frm else "")
    seats = sorted(str(s) for s in e.get("seats") or [])
    flags = Message.of("event_flags", flags=sorted(e["flags"])) if e.get("flags") else ""
    passed = (Message.of("event_passed", fan=e["passed_fan"])
              if e.get("passed_fan") is not None else "")
    if frm:
        return Message.of("event_win_from", seats=seats, tile=tile, seat=frm, flags=flags,
                          passed=passed)
    return Message.of("event_win_self", seats=seats, tile=tile, flags=flags, passed=passed)


def compare_records(first: Mapping[str, Any], second: Mapping[str, Any]) -> list[Difference]:
    """Every field where two entries of the same slip differ (players are not compared:
    they come from the seating, not from the slip)."""
    out = []
    for key in ("dealer", "wall_exhausted"):
        a, b = first.get(key), second.get(key)
        if key == "wall_exhausted":
            a, b = bool(a), bool(b)
        if a != b:
            out.append(Difference(key, str(a), str(b)))
    seats_a, seats_b = first.get("seats") or {}, second.get("seats") or {}
    for seat in list(dict.fromkeys([*seats_a, *seats_b])):
        sa, sb = seats_a.get(seat) or {}, seats_b.get(seat) or {}
        for key in ("concealed", "pongs"):
            a, b = _tiles(sa.get(key, "")), _tiles(sb.get(key, ""))
            if a != b:
                out.append(Difference(f"seats.{seat}.{key}", a, b))
    ev_a = [_event(e) for e in first.get("events") or []]
    ev_b = [_event(e) for e in second.get("events") or []]
    for i in range(max(len(ev_a), len(ev_b))):
        a = ev_a[i] if i < len(ev_a) else ""
        b = ev_b[i] if i < len(ev_b) else ""
        if a != b:
            out.append(Difference(f"events[{i}]", a, b))
    return out


def verify_hand(t: Tournament, hand_id: int, record: Mapping[str, Any], *,
                referee: str = "") -> VerifyResult:
    """Compare ``record`` (the second, blind entry) with hand ``hand_id``'s current version;
    identical → mark it verified by ``referee``; otherwise write nothing."""
    h = t.hands.get(hand_id)
    if h.void:
        raise StorageError.of("hand", "verify_void_hand", hand_id=hand_id)
    if not isinstance(record, Mapping):
        raise StorageError.of("record", "record_is_object")
    # read like any hand record first: a misspelt key ("pong") or a wrong type is refused by
    # name, never compared as if the field were empty (a false "verified")
    HandRecord.from_dict(dict(record), t.ruleset())
    diffs = tuple(compare_records(h.record, record))
    if diffs:
        return VerifyResult(hand_id, False, diffs)
    if h.status.value != "verified":
        t.hands.set_status(hand_id, "verified", referee=referee)
    return VerifyResult(hand_id, True)
