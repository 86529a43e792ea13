"""The results of settling a hand: violations, payments, wins, end check, settlement.

Kept apart from the walk of :mod:`.settle` so that each module stays one concern; the
``sichuan-settlement/1`` document is :meth:`Settlement.to_dict`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, NamedTuple

from .record import HandRecord, WinEvent
from .ruleset import Ruleset, get_ruleset
from .scoring import HandScore
from .wording import Params, params_data, reason_text, step_text

SETTLEMENT_FORMAT = "sichuan-settlement/1"


# --------------------------------------------------------------------------- results


@dataclass(frozen=True, slots=True)
class RuleViolation:
    """A rule the record breaks: the clause, the seat (or None), and what is wrong as a
    ``code`` with its ``params`` (rendered in a language by :func:`.wording.violation_text`).

    ``message`` is the English rendering, kept because the stored settlement carries it; a
    violation read back from a document has only that (``code`` empty).
    """

    clause: str
    seat: str | None
    message: str
    code: str = ""
    params: Params = ()

    def to_dict(self) -> dict[str, Any]:
        """The stored form (``sichuan-settlement/1``): clause, seat and English message."""
        return {"clause": self.clause, "seat": self.seat, "message": self.message}

    def to_data(self) -> dict[str, Any]:
        """The stored form with the code and its parameters beside it (JSON outputs)."""
        return {"code": self.code, "clause": self.clause, "seat": self.seat,
                "params": params_data(self.params), "message": self.message}


@dataclass(frozen=True, slots=True)
class Payment:
    """Chips moved from one seat to another, with the clause and the reason (a ``code``
    and its ``params``, see :func:`.wording.reason_text`) that move them."""

    payer: str
    payee: str
    chips: int
    clause: str
    code: str
    params: Params = ()

    @property
    def reason(self) -> str:
        """The reason in English, as the stored settlement writes it."""
        return reason_text(self, "en")

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.payer, "to": self.payee, "chips": self.chips,
                "clause": self.clause, "reason": self.reason}


class TraceStep(NamedTuple):
    """One step of a settlement's trace: what happened (``kind``), under which clause, to
    which seat, with which tile and amount, and the rest of its ``params``.

    Rendered by :func:`.wording.step_text`; the English line is what the stored settlement
    keeps. Kind ``text`` is a line read back from a document (``params`` holds it). A named
    tuple, not a dataclass: a settlement makes several per hand, and a tuple is made fastest.
    """

    kind: str
    clause: str
    seat: str | None = None
    tile: str | None = None
    amount: int | None = None
    params: Params = ()

    def all_params(self) -> Params:
        """Seat, tile and amount as the parameters ``s``, ``t`` and ``n``, then the rest."""
        head = tuple((k, v) for k, v in (("s", self.seat), ("t", self.tile),
                                         ("n", self.amount)) if v is not None)
        return head + self.params

    def to_data(self) -> dict[str, Any]:
        """The step as JSON: kind, clause, its parameters and the English line."""
        return {"kind": self.kind, "clause": self.clause,
                "params": params_data(self.all_params()), "text": step_text(self, "en")}

    @classmethod
    def of_line(cls, line: str) -> TraceStep:
        """A stored line kept as text (its clause is the line's first word)."""
        return cls("text", line.partition(" ")[0], params=(("line", line),))


@dataclass(frozen=True, slots=True)
class WinResult:
    """One seat's win: its pattern, bonuses, fan and chips."""

    seat: str
    order: int
    tile: str
    from_seat: str | None
    score: HandScore
    chips: int
    flags: tuple[str, ...] = ()

    @property
    def fan(self) -> int:
        return self.score.fan

    @property
    def pattern(self) -> str:
        return self.score.pattern

    @property
    def bonus_fan(self) -> int:
        return sum(b.fan for b in self.score.bonuses)

    def to_dict(self) -> dict[str, Any]:
        s = self.score
        return {"seat": self.seat, "order": self.order, "tile": self.tile,
                "from": self.from_seat, "pattern": s.pattern, "pattern_en": s.pattern_en,
                "pattern_clause": s.pattern_clause, "pattern_fan": s.pattern_fan,
                "bonuses": [b.to_dict() for b in s.bonuses], "fan": s.fan, "chips": self.chips}


@dataclass(frozen=True, slots=True)
class SeatReadiness:
    """An unwon seat at the wall's end: ready or not, its waits and maximum fan."""

    ready: bool
    max_fan: int = 0
    waits: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        if not self.ready:
            return {"ready": False}
        return {"ready": True, "max_fan": self.max_fan, "waits": list(self.waits)}




@dataclass(frozen=True, slots=True)
class EndCheck:
    """The wall's-end checks (flower pigs, wrong tile counts, readiness), if they ran."""

    applies: bool
    flower_pigs: tuple[str, ...] = ()
    xianggong: tuple[str, ...] = ()
    ready: dict[str, SeatReadiness] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        if not self.applies:
            return {"applies": False}
        return {"applies": True, "flower_pigs": list(self.flower_pigs),
                "xianggong": list(self.xianggong),
                "ready": {s: r.to_dict() for s, r in self.ready.items()}}


@dataclass(frozen=True)
class Settlement:
    """The outcome of one hand record (the ``sichuan-settlement/1`` document)."""

    ruleset: str
    ok: bool
    errors: tuple[RuleViolation, ...]
    wins: tuple[WinResult, ...]
    end_check: EndCheck | None
    payments: tuple[Payment, ...]
    totals: dict[str, int]
    steps: tuple[TraceStep, ...]
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def trace(self) -> tuple[str, ...]:
        """The trace in English, one line per step (what the stored document keeps)."""
        return tuple(step_text(st, "en") for st in self.steps)

    def data(self) -> dict[str, Any]:
        """:meth:`to_dict` with the data beside the words: each error's code and params,
        each step's kind and params (``steps``), each payment's reason code. For JSON
        outputs only — the stored document is :meth:`to_dict`."""
        d = self.to_dict()
        d["errors"] = [e.to_data() for e in self.errors]
        d["steps"] = [st.to_data() for st in self.steps]
        for p, pd in zip(self.payments, d["payments"], strict=True):
            pd["reason_code"] = p.code
            pd["reason_params"] = params_data(p.params)
        return d

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "format": SETTLEMENT_FORMAT, "ruleset": self.ruleset, "ok": self.ok,
            "errors": [e.to_dict() for e in self.errors],
            "wins": [w.to_dict() for w in self.wins],
            "end_check": self.end_check.to_dict() if self.end_check is not None else None,
            "payments": [p.to_dict() for p in self.payments],
            "totals": dict(self.totals), "trace": list(self.trace)}
        for k, v in self.extra.items():
            d.setdefault(k, v)
        return d

    def breakdown(self, seat: str, rules: Ruleset | None = None) -> dict[str, dict[str, int]]:
        """Per opponent: chips this seat won (+) or paid (-), by kind (win/ready/kong/other).

        ``rules``: the ruleset settled under, when it is not a shipped one (a club's file).
        """
        out: dict[str, dict[str, int]] = {}
        for p in self.payments:
            if seat not in (p.payer, p.payee):
                continue
            other = p.payer if p.payee == seat else p.payee
            sign = 1 if p.payee == seat else -1
            kind = payment_kind(p.clause, rules or self.ruleset)
            row = out.setdefault(other, {"win": 0, "ready": 0, "kong": 0, "other": 0})
            row[kind] += sign * p.chips
        return out


def payment_kind(clause: str, ruleset: Ruleset | str) -> str:
    """Classify a payment's clause as win / ready (end check) / kong / other for statements.

    ``ruleset``: the Ruleset (a club's own) or a shipped ruleset's id.
    """
    rules = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    extra = rules.self_drawn_extra
    if clause in (rules.discard_win_clause, rules.self_drawn_clause, rules.robbed_kong_clause,
                  rules.kong_discard_transfer, extra[0] if extra else None):
        return "win"
    if clause in {c for c, _ in rules.kong_payments.values()}:
        return "kong"
    ec = rules.end_check or {}
    refund = (ec.get("refund") or {}).get("clause")
    if clause == refund:
        return "kong"
    if clause in {(v or {}).get("clause") for v in ec.values()}:
        return "ready"
    return "other"


def dealer_by_rule(rules: Ruleset, hand_no: int) -> bool:
    """Whether the rules name hand ``hand_no``'s dealer, so that another one is worth a
    warning: not a table's first hand (chosen at the table), not a ``dice`` ruleset."""
    return hand_no > 1 and rules.next_dealer != "dice"


def next_dealer(record: HandRecord, settlement: Settlement,
                rules: Ruleset | None = None) -> str | None:
    """The dealer of the table's next hand, per the ruleset's ``next_dealer`` rule.

    ``first_winner`` (J10, C7, Z6 and the app's Reading for Ottawa): the first winner; when
    the first win is shared (一炮多响) the discarder; when nobody won the dealer stays.
    ``dice``: no automatic choice (None), the table throws dice. ``rules``: the ruleset
    settled under when it is not a shipped one (a club's file).
    """
    if rules is None:
        rules = record.rules
    if rules.next_dealer == "dice" or not settlement.ok:
        return None
    for ev in record.events:
        if isinstance(ev, WinEvent):
            if len(ev.seats) > 1 and ev.from_seat is not None:
                return ev.from_seat
            return ev.seats[0]
    return record.dealer
