"""The hand-entry form's state, turned into a hand record and settled on every keystroke.

The form keeps exactly what the referee typed (tile text per seat, event dicts in the
``sichuan-hand/1`` shape). :meth:`EntryForm.evaluate` builds the record dict and hands it
to the engine (``HandRecord.from_dict`` + ``settle``): the GUI never judges a hand itself,
it only maps the engine's answers onto the widgets (which seat, which event).

A form carries the :class:`Ruleset` it is settled under: the tournament's own (a club's
file stored in the tournament included) with the tournament's cap and stake
(``Tournament.rules()``), so the preview is exactly what saving will store.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field, replace
from typing import Any

from referee_app.core import (
    HandRecord,
    RecordError,
    Ruleset,
    RuleViolation,
    Settlement,
    TileParseError,
    get_ruleset,
    parse_tiles,
    settle,
)
from referee_app.core.record import path_parts


def rules_of(ruleset: str | Ruleset) -> Ruleset:
    """A Ruleset as given, or the shipped one of that id (forms made outside a tournament)."""
    return ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing wrong with the form: clause (or field path), seat and event to highlight."""

    clause: str
    message: str
    seat: str | None = None
    event: int | None = None  # 0-based index into the event list
    #: a broken rule (``clause`` is the ruleset's clause id, §2.4 or Z3 alike); False for a
    #: field that cannot be read (``clause`` is then its path)
    rule: bool = True
    #: the engine's violation (its code and params, rendered in the desk's language)
    violation: RuleViolation | None = None
    #: the reader's refusal of a field that cannot be read (its code and params)
    error: RecordError | None = None


@dataclass(frozen=True)
class Evaluation:
    """The engine's answer for the form as it stands."""

    record: HandRecord | None
    settlement: Settlement | None
    problems: tuple[Problem, ...]
    read_error: RecordError | None = None
    #: the ruleset (with the tournament's settings) the form was settled under
    rules: Ruleset | None = None
    #: nothing typed yet: no problems are shown (a red rule at start only alarms), but the
    #: form cannot be saved either
    blank: bool = False

    @property
    def ok(self) -> bool:
        return self.settlement is not None and self.settlement.ok

    def seats_with_problems(self) -> set[str]:
        return {p.seat for p in self.problems if p.seat}

    def events_with_problems(self) -> set[int]:
        return {p.event for p in self.problems if p.event is not None}


@dataclass
class SeatInput:
    """What the referee typed for one seat."""

    player: str | None = None
    concealed: str = ""
    pongs: str = ""


@dataclass
class EntryForm:
    """The entry form's data; ``extra`` carries table/round/hand_no/referee untouched.

    ``rules`` is the Ruleset the form is read and settled under (the tournament's, with its
    cap and stake); without one, the shipped ruleset named ``ruleset``."""

    ruleset: str
    dealer: str = "E"
    seats: dict[str, SeatInput] = field(default_factory=dict)
    events: list[dict[str, Any]] = field(default_factory=list)
    wall_exhausted: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    rules: Ruleset | None = field(default=None, compare=False, repr=False)

    def players(self) -> dict[str, str]:
        """Seat -> the player named there ("" for none)."""
        return {seat: si.player or "" for seat, si in self.seats.items()}

    def __deepcopy__(self, memo: dict[int, Any]) -> EntryForm:
        """Undo snapshots copy what was typed; the Ruleset is shared, never copied (the
        engine's memos key on it)."""
        return EntryForm(self.ruleset, self.dealer, copy.deepcopy(self.seats, memo),
                         copy.deepcopy(self.events, memo), self.wall_exhausted,
                         copy.deepcopy(self.extra, memo), self.rules)

    @property
    def rules_obj(self) -> Ruleset:
        return self.rules if self.rules is not None else get_ruleset(self.ruleset)

    @classmethod
    def blank(cls, ruleset: str | Ruleset, players: dict[str, str | None] | None = None,
              dealer: str | None = None, extra: dict[str, Any] | None = None) -> EntryForm:
        """An empty form with one seat per seat of the ruleset (3 for zigong-3p)."""
        rules = rules_of(ruleset)
        players = players or {}
        return cls(ruleset=rules.id, dealer=dealer or rules.seats[0],
                   seats={s: SeatInput(players.get(s)) for s in rules.seats},
                   extra=dict(extra or {}), rules=rules)

    @classmethod
    def from_record(cls, record: dict[str, Any], rules: Ruleset | None = None) -> EntryForm:
        """Fill the form from a stored record dict (the ``sichuan-hand/1`` shape); ``rules``
        the tournament's (else the shipped ruleset the record names)."""
        if rules is None:
            rules = get_ruleset(record.get("ruleset") or "ottawa-2009")
        seats: dict[str, SeatInput] = {}
        raw = record.get("seats") or {}
        for s in rules.seats:
            d = raw.get(s) or {}
            pongs = d.get("pongs") or []
            seats[s] = SeatInput(d.get("player"), str(d.get("concealed", "")),
                                 " ".join(str(p) for p in pongs))
        core = {"format", "ruleset", "dealer", "seats", "events", "wall_exhausted"}
        return cls(ruleset=rules.id, dealer=record.get("dealer") or rules.seats[0], seats=seats,
                   events=copy.deepcopy(list(record.get("events") or [])),
                   wall_exhausted=bool(record.get("wall_exhausted", False)),
                   extra={k: v for k, v in record.items() if k not in core}, rules=rules)

    @property
    def seat_labels(self) -> tuple[str, ...]:
        return self.rules_obj.seats

    # ------------------------------------------------------------------ record

    @staticmethod
    def pong_list(text: str) -> list[str]:
        """``"5p 9s"`` or ``"5p9s"`` -> ``["5p", "9s"]``; unreadable text is passed through
        whole so the engine's reader reports it with its field path."""
        if not text.strip():
            return []
        try:
            return [str(t) for t in parse_tiles(text)]
        except TileParseError:
            return [text]

    def to_record_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"format": "sichuan-hand/1", "ruleset": self.ruleset,
                             "dealer": self.dealer, "seats": {}}
        for s, inp in self.seats.items():
            entry: dict[str, Any] = {}
            if inp.player:
                entry["player"] = inp.player
            entry["concealed"] = inp.concealed
            entry["pongs"] = self.pong_list(inp.pongs)
            d["seats"][s] = entry
        d["events"] = copy.deepcopy(self.events)
        d["wall_exhausted"] = self.wall_exhausted
        for k, v in self.extra.items():
            d.setdefault(k, v)
        return d

    def is_blank(self) -> bool:
        return not self.events and not self.wall_exhausted and all(
            not inp.concealed.strip() and not inp.pongs.strip() for inp in self.seats.values())

    def evaluate(self) -> Evaluation:
        """Read and settle the form (~1 ms); every problem mapped to a seat and/or event."""
        rules = self.rules_obj
        if self.is_blank():
            # nothing typed: the read error is shown only when saving is tried
            return Evaluation(None, None, (), RecordError.of("", "nothing_entered"), rules,
                              blank=True)
        try:
            record = HandRecord.from_dict(self.to_record_dict(), rules)
        except RecordError as e:
            parts = path_parts(e.field)
            seat = str(parts[1]) if parts[:1] == ("seats",) and len(parts) > 1 else None
            ev = parts[1] if parts[:1] == ("events",) and len(parts) > 1 \
                and isinstance(parts[1], int) else None
            if ev is not None and seat is None and 0 <= ev < len(self.events):
                seat = self.events[ev].get("seat")
            return Evaluation(None, None, (Problem(e.field or "record", e.problem, seat, ev,
                                                   rule=False, error=e),), e, rules)
        s = settle(record, rules)
        first_seen = self._first_event_of_errors(record, s, rules) if s.errors else {}
        problems = []
        for v in s.errors:
            named = dict(v.params).get("event")  # a violation about one event names it
            ev = int(named) - 1 if named is not None else first_seen.get(v)
            problems.append(Problem(v.clause, v.message, v.seat, ev, violation=v))
        return Evaluation(record, s, tuple(problems), rules=rules)

    @staticmethod
    def _first_event_of_errors(record: HandRecord, s: Settlement,
                               rules: Ruleset) -> dict[Any, int]:
        """Which event brings each error in: settle the record cut after each event.

        The engine reports rule errors by seat; the referee also wants to see the event to
        fix. An error that first appears once event k is included is caused by event k
        (a kong adding a fifth tile, a win by a seat without a winning hand). An error of
        the same clause and seat already present with no events at all (the hand is not
        finished, a tile count) belongs to the hand, not to an event.
        """
        def key(e: Any) -> tuple[str, str | None]:
            return (e.clause, e.seat)

        base = {key(e) for e in settle(replace(record, events=()), rules).errors}
        todo = [e for e in s.errors if key(e) not in base]
        found: dict[Any, int] = {}
        loose: dict[tuple[str, str | None], int] = {}
        for k in range(1, len(record.events) + 1):
            if all(e in found for e in todo):
                break
            now = settle(replace(record, events=record.events[:k]), rules).errors
            for e in now:
                if e in todo and e not in found:
                    found[e] = k - 1
                loose.setdefault(key(e), k - 1)
        for e in todo:
            if e not in found and key(e) in loose:
                found[e] = loose[key(e)]
        return found

    # ------------------------------------------------------------------ events

    def event_seats(self, index: int) -> tuple[str, ...]:
        e = self.events[index]
        if e.get("type") == "kong":
            return (e.get("seat"),)
        return tuple(e.get("seats") or ())
