"""The hand record (``sichuan-hand/1``): what a referee enters for one finished hand.

``HandRecord.from_dict`` only checks that the record can be *read* (types, tile strings,
known values). Whether it obeys the rules is validation's job, which reports every
problem at once; a record that cannot be read raises :class:`RecordError` naming the
field and the problem (CLI exit code 2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any

from .errors import Message, RecordError, message
from .jsonin import check_free_value, json_kind, parse_json, source_named, text_problem
from .ruleset import Ruleset, UnknownRulesetError, get_ruleset
from .tiles import (
    TILES,
    Tile,
    TileParseError,
    format_tiles,
    parse_plain,
    parse_tiles,
)

RECORD_FORMAT = "sichuan-hand/1"
_CORE_FIELDS = {"format", "ruleset", "dealer", "seats", "events", "wall_exhausted"}
#: The fields hand-format.md defines at each level of a record. A key within edit distance
#: 2 of one of them is a typo that would silently change the result ("flag" for "flags"
#: settles without the flags), so it is refused with "did you mean"; any other unknown key
#: is kept (top level, as the format allows) or ignored (inside a seat or an event), and
#: listed by :func:`record_warnings`.
TOP_FIELDS = ("format", "ruleset", "dealer", "seats", "events", "wall_exhausted", "table",
              "round", "hand_no", "referee", "note")
SEAT_FIELDS = ("player", "concealed", "pongs")
EVENT_FIELDS = ("type", "seat", "seats", "tile", "kind", "from", "flags", "passed_fan")
_SEAT_KEYS = frozenset(SEAT_FIELDS)
_EVENT_KEYS = frozenset(EVENT_FIELDS)
_TOP_KEYS = frozenset(TOP_FIELDS)


class KongKind(Enum):
    DIRECT = "direct"  # 直杠, on another seat's discard
    ADDED = "added"  # 过后杠/面下杠/补杠, the fourth tile added to one's own pong
    CONCEALED = "concealed"  # 暗杠


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One seat's tiles at the end of the hand: concealed tiles and pongs."""

    seat: str
    concealed: tuple[Tile, ...]
    pongs: tuple[Tile, ...] = ()
    player: str | None = None


@dataclass(frozen=True, slots=True)
class KongEvent:
    """A kong declared during the hand (its kind and, if exposed, who discarded)."""

    seat: str
    tile: Tile
    kind: KongKind
    from_seat: str | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "kong", "seat": self.seat, "tile": str(self.tile),
                             "kind": self.kind.value}
        if self.from_seat is not None:
            d["from"] = self.from_seat
        return d


@dataclass(frozen=True, slots=True)
class WinEvent:
    """A win on one tile: by one seat, or by several on one discard."""

    seats: tuple[str, ...]
    tile: Tile
    from_seat: str | None = None
    flags: tuple[str, ...] = ()
    passed_fan: int | None = None

    @property
    def self_drawn(self) -> bool:
        return self.from_seat is None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"type": "win", "seats": list(self.seats), "tile": str(self.tile)}
        if self.from_seat is not None:
            d["from"] = self.from_seat
        if self.flags:
            d["flags"] = list(self.flags)
        if self.passed_fan is not None:
            d["passed_fan"] = self.passed_fan
        return d


Event = KongEvent | WinEvent


@dataclass(frozen=True)
class HandRecord:
    """One finished hand as entered; ``extra`` carries identification fields untouched."""

    ruleset: str
    seats: tuple[SeatHand, ...]
    events: tuple[Event, ...]
    dealer: str = "E"
    wall_exhausted: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)

    def seat(self, label: str) -> SeatHand:
        for s in self.seats:
            if s.seat == label:
                return s
        raise KeyError(label)

    @property
    def rules(self) -> Ruleset:
        return get_ruleset(self.ruleset)

    @classmethod
    def from_dict(cls, data: Any, rules: Ruleset | None = None) -> HandRecord:
        return load_record(data, rules)

    @classmethod
    def from_json(cls, text: str | bytes, rules: Ruleset | None = None,
                  source: str | None = None) -> HandRecord:
        """Parse and read one record; every failure is a RecordError (see :mod:`.jsonin`)."""
        return load_record(parse_json(text, source if source is not None
                                      else source_named("record")), rules)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": RECORD_FORMAT, "ruleset": self.ruleset,
                             "dealer": self.dealer, "seats": {}}
        for s in self.seats:
            entry: dict[str, Any] = {}
            if s.player is not None:
                entry["player"] = s.player
            entry["concealed"] = format_tiles(s.concealed)
            entry["pongs"] = [str(t) for t in s.pongs]
            d["seats"][s.seat] = entry
        d["events"] = [e.to_dict() for e in self.events]
        d["wall_exhausted"] = self.wall_exhausted
        for k, v in self.extra.items():
            d.setdefault(k, v)
        return d


# --------------------------------------------------------------------------- paths


def path_parts(path: str) -> tuple[str | int, ...]:
    """A field's path split into its steps, as the reader names fields:
    ``seats.S.concealed`` → ("seats", "S", "concealed"), ``events[2].tile`` →
    ("events", 2, "tile"); the inverse of how :func:`load_record` writes them."""
    out: list[str | int] = []
    for part in path.split(".") if path else ():
        name, _, rest = part.partition("[")
        if name:
            out.append(name)
        while rest:
            index, _, rest = rest.partition("]")
            out.append(int(index) if index.isdigit() else index)
            rest = rest.removeprefix("[")
    return tuple(out)


# --------------------------------------------------------------------------- loading


def _tiles(value: Any, path: str) -> tuple[Tile, ...]:
    if not isinstance(value, str):
        raise RecordError.of(path, "not_tiles", kind=_kind(value))
    try:
        return parse_tiles(value)
    except TileParseError as e:
        raise RecordError.like(path, e) from None


_ONE_TILE = {str(t): t for t in TILES}


def _tile(value: Any, path: str) -> Tile:
    hit = _ONE_TILE.get(value) if isinstance(value, str) else None
    if hit is not None:  # the common case, "5p"
        return hit
    tiles = _tiles(value, path)
    if len(tiles) != 1:
        raise RecordError.of(path, "one_tile_field", n=len(tiles), got=value)
    return tiles[0]


_kind = json_kind


def edit_distance(a: str, b: str, limit: int = 2) -> int:
    """Levenshtein distance of ``a`` and ``b``; anything above ``limit`` is ``limit + 1``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if min(cur) > limit:
            return limit + 1
        prev = cur
    return min(prev[-1], limit + 1)


def near_field(key: Any, known: tuple[str, ...]) -> str | None:
    """The known field ``key`` is a typo of (edit distance <= 2, case ignored), or None."""
    if not isinstance(key, str) or key in known:
        return None
    low = key.lower()
    best = min(known, key=lambda k: edit_distance(low, k))
    return best if edit_distance(low, best) <= 2 else None


def _did_you_mean(value: Any, known: tuple[str, ...]) -> dict[str, Any] | str:
    """"; did you mean 'seats'?" as a message to end another with (nothing when no field
    is near)."""
    near = near_field(value, known)
    return message("did_you_mean", near=near) if near else ""


def _refuse_near_misses(d: dict[Any, Any], known: tuple[str, ...], prefix: str) -> None:
    for k in d:
        near = near_field(k, known)
        if near is not None:
            raise RecordError.of(f"{prefix}{k}", "unknown_field_near", near=near)


def unknown_fields(data: Any) -> list[tuple[str, bool]]:
    """Unknown keys of a readable record, as (path, kept): top-level ones are kept (carried
    through untouched); keys inside a seat or an event are ignored by the engine."""
    if not isinstance(data, dict):
        return []
    out = [(str(k), True) for k in data if k not in _TOP_KEYS]
    seats = data.get("seats")
    if isinstance(seats, dict):
        for label, s in seats.items():
            if isinstance(s, dict):
                out += [(f"seats.{label}.{k}", False) for k in s if k not in _SEAT_KEYS]
    events = data.get("events")
    if isinstance(events, list):
        for i, e in enumerate(events):
            if isinstance(e, dict):
                out += [(f"events[{i}].{k}", False) for k in e if k not in _EVENT_KEYS]
    return out


def record_warnings(data: Any) -> list[Message]:
    """:func:`unknown_fields` as lines, one message each (as a string, its English)."""
    return [Message.of("unknown_field_kept" if kept else "unknown_field_ignored", path=path)
            for path, kept in unknown_fields(data)]


def _seat(value: Any, path: str, seats: tuple[str, ...]) -> str:
    if value not in seats or not isinstance(value, str):
        raise RecordError.of(path, "unknown_seat_value", got=value, seats=list(seats))
    return value


def _load_event(e: Any, path: str, rules: Ruleset) -> Event:
    if not isinstance(e, dict):
        raise RecordError.of(path, "expected_object", kind=_kind(e))
    _refuse_near_misses(e, EVENT_FIELDS, f"{path}.")
    etype = e.get("type")
    seats = rules.seats
    if etype == "kong":
        seat = _seat(e.get("seat"), f"{path}.seat", seats)
        tile = _tile(e.get("tile"), f"{path}.tile")
        try:
            kind = KongKind(e.get("kind"))
        except ValueError:
            raise RecordError.of(f"{path}.kind", "unknown_kong_kind", got=e.get("kind"),
                                 near=_did_you_mean(e.get("kind"), tuple(_KONG_KINDS))
                                 ) from None
        frm = e.get("from")
        if kind is KongKind.DIRECT:
            if frm is None:
                raise RecordError.of(f"{path}.from", "direct_kong_from")
            frm = _seat(frm, f"{path}.from", seats)
        elif frm is not None:
            raise RecordError.of(f"{path}.from", "kong_no_discarder", kong=kind.value)
        return KongEvent(seat, tile, kind, frm)
    if etype == "win":
        raw = e.get("seats")
        if raw is None and "seat" in e:
            raise RecordError.of(f"{path}.seat", "win_seat_not_seats")
        if not isinstance(raw, list):
            raise RecordError.of(f"{path}.seats", "not_seat_list", kind=_kind(raw))
        if not raw:
            raise RecordError.of(f"{path}.seats", "win_no_winner")
        winners = tuple(_seat(s, f"{path}.seats[{i}]", seats) for i, s in enumerate(raw))
        tile = _tile(e.get("tile"), f"{path}.tile")
        frm = e.get("from")
        if frm is not None:
            frm = _seat(frm, f"{path}.from", seats)
        flags_raw = e.get("flags", [])
        if flags_raw is None:
            flags_raw = []
        if not isinstance(flags_raw, list):
            raise RecordError.of(f"{path}.flags", "not_flag_list", kind=_kind(flags_raw))
        for i, f in enumerate(flags_raw):
            if not isinstance(f, str) or f not in rules.flags:
                raise RecordError.of(f"{path}.flags[{i}]", "unknown_flag", got=f,
                                     ruleset=rules.id, known=sorted(rules.flags),
                                     near=_did_you_mean(f, tuple(sorted(rules.flags))))
        passed = e.get("passed_fan")
        if passed is not None and (isinstance(passed, bool) or not isinstance(passed, int)
                                   or passed < 0):
            raise RecordError.of(f"{path}.passed_fan", "bad_passed_fan", got=passed)
        return WinEvent(winners, tile, frm, tuple(dict.fromkeys(flags_raw)), passed)
    raise RecordError.of(f"{path}.type", "unknown_event_type", got=etype,
                         near=_did_you_mean(etype, ("kong", "win")))


_KONG_KINDS = {k.value: k for k in KongKind}


def _event_fast(e: Any, rules: Ruleset) -> Event | None:
    """A well-formed event in few steps, or None: then :func:`_load_event` reads it, which
    also accepts the rarer spellings and names the field of any problem (so every error
    and its message come from one place)."""
    if type(e) is not dict or not e.keys() <= _EVENT_KEYS:
        return None
    try:
        t = e["tile"]
        etype = e["type"]
    except KeyError:
        return None
    tile = _ONE_TILE.get(t) if type(t) is str else None
    if tile is None:
        return None
    seats = rules.seats
    frm = e.get("from")
    if frm is not None and (type(frm) is not str or frm not in seats):
        return None
    if etype == "kong":
        try:
            seat = e["seat"]
            kind = e["kind"]
        except KeyError:
            return None
        kind = _KONG_KINDS.get(kind) if type(kind) is str else None
        if (type(seat) is not str or seat not in seats or kind is None
                or (kind is KongKind.DIRECT) is (frm is None)):
            return None
        return KongEvent(seat, tile, kind, frm)
    if etype == "win":
        raw = e.get("seats")
        if type(raw) is not list or not raw:  # (a missing list is None)
            return None
        for s in raw:
            if type(s) is not str or s not in seats:
                return None
        flags_raw = e.get("flags")
        if flags_raw is None or (type(flags_raw) is list and not flags_raw):
            flags: tuple[str, ...] = ()
        elif type(flags_raw) is list:
            known = rules.flags
            for f in flags_raw:
                if type(f) is not str or f not in known:
                    return None
            flags = tuple(dict.fromkeys(flags_raw))
        else:
            return None
        passed = e.get("passed_fan")
        if passed is not None and (type(passed) is not int or passed < 0):
            return None
        return WinEvent(tuple(raw), tile, frm, flags, passed)
    return None


def _load_fast(data: Any, given: Ruleset | None = None) -> HandRecord | None:
    """A well-formed record in few steps, or None: then :func:`load_record` reads it with
    every check and names the first field that cannot be read (errors come from one place).

    Accepts a subset of what the full reader accepts and builds the same record.
    """
    if type(data) is not dict:
        return None
    try:
        if data["format"] != RECORD_FORMAT:
            return None
        rid = data["ruleset"]
        seats_raw = data["seats"]
        events_raw = data["events"]
    except KeyError:
        return None
    rules = _SHIPPED.get(rid) if type(rid) is str and given is None else given
    if given is not None and rid != given.id:
        return None
    if rules is None:
        try:
            rules = get_ruleset(rid)
        except UnknownRulesetError:
            return None
        _SHIPPED[rid] = rules
    get = data.get
    order = rules.seats
    if type(seats_raw) is not dict or type(events_raw) is not list or len(seats_raw) != len(order):
        return None
    seats = []
    for label in order:  # same count and every label present: no unknown seat either
        s = seats_raw.get(label)
        if type(s) is not dict or "concealed" not in s or not s.keys() <= _SEAT_KEYS:
            return None
        raw = s["concealed"]
        concealed = parse_plain(raw) if type(raw) is str else None
        if concealed is None:
            return None
        pongs_raw = s.get("pongs")
        if pongs_raw:
            if type(pongs_raw) is not list:
                return None
            try:
                pongs = tuple(map(_ONE_TILE.__getitem__, pongs_raw))
            except (KeyError, TypeError):
                return None
        elif pongs_raw is None or pongs_raw == []:
            pongs = ()
        else:
            return None
        player = s.get("player")
        if player is not None and (type(player) is not str or not player.isprintable()):
            return None
        seats.append(SeatHand(label, concealed, pongs, player))
    dealer = get("dealer")
    if dealer is None:
        dealer = "E"
    elif type(dealer) is not str or dealer not in order:
        return None
    events = []
    for e in events_raw:
        ev = _event_fast(e, rules)
        if ev is None:
            return None
        events.append(ev)
    wall = get("wall_exhausted")
    if wall is None:
        wall = False
    elif type(wall) is not bool:
        return None
    # format, ruleset, seats and events are present; anything beyond the core is extra
    if len(data) == 4 + ("dealer" in data) + ("wall_exhausted" in data):
        extra: dict[str, Any] = {}
    else:
        extra = {k: v for k, v in data.items() if k not in _CORE_FIELDS}
        if not _free_fields_ok(extra):
            return None
    return HandRecord(rules.id, tuple(seats), tuple(events), dealer, wall, extra)


def _free_fields_ok(extra: dict[str, Any]) -> bool:
    """Whether the fast path may keep these free fields (else the full reader explains)."""
    for k, v in extra.items():
        if type(k) is not str or (k not in _TOP_KEYS and near_field(k, TOP_FIELDS)):
            return False
        if type(v) is str:
            if not v.isprintable() and text_problem(v, control=k == "referee"):
                return False
        elif v is not None and type(v) is not int:
            try:
                check_free_value(v, k)
            except RecordError:
                return False
    return True


def _read_free_fields(data: dict[str, Any]) -> dict[str, Any]:
    extra = {k: v for k, v in data.items() if k not in _CORE_FIELDS}
    for k, v in extra.items():
        check_free_value(v, k)
        why = text_problem(v) if k == "referee" and isinstance(v, str) else None
        if why:  # a referee is a name, kept in the history: one line of text
            raise RecordError.about(k, why)
    return extra


_SHIPPED: dict[str, Ruleset] = {}  # id -> get_ruleset(id), for the fast path


def load_record(data: Any, rules: Ruleset | None = None) -> HandRecord:
    """Read a hand-record dict; RecordError names the first field that cannot be read.

    ``rules``: the ruleset the record is read under when it is not a shipped one (a
    club's file); the record's ``ruleset`` must then be its id.
    """
    fast = _load_fast(data, rules)
    if fast is not None:
        return fast
    if not isinstance(data, dict):
        raise RecordError.of("", "record_not_json_object", kind=_kind(data))
    _refuse_near_misses(data, TOP_FIELDS, "")
    for key in ("format", "ruleset", "seats", "events"):
        if key not in data:
            raise RecordError.of(key, "field_missing")
    if data["format"] != RECORD_FORMAT:
        raise RecordError.of("format", "bad_format", want=RECORD_FORMAT, got=data["format"])
    if rules is not None and data["ruleset"] != rules.id:
        raise RecordError.of("ruleset", "record_under_other", got=data["ruleset"],
                             want=rules.id)
    try:
        rules = rules or get_ruleset(data["ruleset"])
    except UnknownRulesetError as e:
        raise RecordError.like("ruleset", e) from None
    seats_raw = data["seats"]
    if not isinstance(seats_raw, dict):
        raise RecordError.of("seats", "not_seat_object", kind=_kind(seats_raw))
    for label in seats_raw:
        if label not in rules.seats:
            raise RecordError.of(f"seats.{label}", "unknown_seat_label", ruleset=rules.id,
                                 seats=list(rules.seats))
    seats: list[SeatHand] = []
    for label in rules.seats:
        # error paths (f-strings) are built only when something is wrong
        if label not in seats_raw:
            raise RecordError.of(f"seats.{label}", "seat_missing")
        s = seats_raw[label]
        if not isinstance(s, dict):
            raise RecordError.of(f"seats.{label}", "expected_object", kind=_kind(s))
        _refuse_near_misses(s, SEAT_FIELDS, f"seats.{label}.")
        if "concealed" not in s:
            raise RecordError.of(f"seats.{label}.concealed", "field_missing")
        raw = s["concealed"]
        concealed = parse_plain(raw) if type(raw) is str else None
        if concealed is None:
            concealed = _tiles(raw, f"seats.{label}.concealed")
        pongs_raw = s.get("pongs", [])
        if pongs_raw is None:
            pongs_raw = []
        if not isinstance(pongs_raw, list):
            raise RecordError.of(f"seats.{label}.pongs", "not_tile_list",
                                 kind=_kind(pongs_raw))
        try:  # the common case: every pong is a plain tile name such as "5p"
            pongs = tuple(map(_ONE_TILE.__getitem__, pongs_raw))
        except (KeyError, TypeError):
            pongs = tuple(_tile(p, f"seats.{label}.pongs[{i}]") for i, p in enumerate(pongs_raw))
        player = s.get("player")
        if player is not None and not isinstance(player, str):
            raise RecordError.of(f"seats.{label}.player", "not_text_kind", kind=_kind(player))
        why = text_problem(player) if player is not None else None
        if why:
            raise RecordError.about(f"seats.{label}.player", why)
        seats.append(SeatHand(label, concealed, pongs, player))
    dealer = data.get("dealer", "E")
    if dealer is None:
        dealer = "E"
    dealer = _seat(dealer, "dealer", rules.seats)
    events_raw = data["events"]
    if not isinstance(events_raw, list):
        raise RecordError.of("events", "not_event_list", kind=_kind(events_raw))
    events = tuple(_event_fast(e, rules) or _load_event(e, f"events[{i}]", rules)
                   for i, e in enumerate(events_raw))
    wall = data.get("wall_exhausted", False)
    if wall is None:
        wall = False
    if not isinstance(wall, bool):
        raise RecordError.of("wall_exhausted", "not_bool", got=wall)
    return HandRecord(rules.id, tuple(seats), events, dealer, wall, _read_free_fields(data))
