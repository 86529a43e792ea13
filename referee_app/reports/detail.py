"""Report data computed from engine objects alone (a record and its settlement).

The storage layer supplies records, settlements and names; these functions turn them
into the report dataclasses, so a table sheet or a ruling sheet can also be printed for
hand records that are not in a database (tests, the ``score`` workflow).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee_app.core import (
    Clause,
    EndCheck,
    HandRecord,
    Payment,
    Ruleset,
    RuleViolation,
    SeatReadiness,
    Settlement,
    TraceStep,
    WinResult,
    get_ruleset,
)
from referee_app.core.errors import FieldError, Message
from referee_app.core.scoring import BonusItem, HandScore

from .model import HandSheet, OpponentLine, SeatDetail


class SettlementFormatError(FieldError):
    """A stored settlement document that cannot be read back (names the field)."""

    code = "settlement_format"


def settlement_from_dict(d: Mapping[str, Any]) -> Settlement:
    """Rebuild a :class:`Settlement` from its ``sichuan-settlement/1`` document.

    Reports print the settlement *as stored* with the hand (what the standings count),
    not a fresh one from today's engine, and skipping a re-settle keeps big reports fast.
    """
    try:
        wins = tuple(
            WinResult(w["seat"], int(w["order"]), w["tile"], w.get("from"),
                      HandScore(w["pattern"], w.get("pattern_en", ""), w["pattern_clause"],
                                int(w["pattern_fan"]),
                                tuple(BonusItem(b["name"], b["clause"], int(b["fan"]))
                                      for b in w.get("bonuses", [])),
                                int(w["fan"]), int(w["fan"])),
                      int(w["chips"]), tuple(w.get("flags", ())))
            for w in d.get("wins", []))
        ec_d = d.get("end_check")
        end_check = None
        if ec_d is not None:
            end_check = EndCheck(
                bool(ec_d.get("applies")), tuple(ec_d.get("flower_pigs", ())),
                tuple(ec_d.get("xianggong", ())),
                {s: SeatReadiness(bool(r.get("ready")), int(r.get("max_fan", 0)),
                                  tuple(r.get("waits", ()))) for s, r in
                 (ec_d.get("ready") or {}).items()})
        return Settlement(
            ruleset=d["ruleset"], ok=bool(d["ok"]),
            errors=tuple(RuleViolation(e["clause"], e.get("seat"), e["message"])
                         for e in d.get("errors", [])),
            wins=wins, end_check=end_check,
            payments=tuple(Payment(p["from"], p["to"], int(p["chips"]), p["clause"], "text",
                                   (("text", p.get("reason", "")),))
                           for p in d.get("payments", [])),
            totals={k: int(v) for k, v in (d.get("totals") or {}).items()},
            steps=tuple(TraceStep.of_line(x) for x in d.get("trace", [])))
    except KeyError as e:
        raise SettlementFormatError.of(f"settlement.{e.args[0]}", "field_missing") from None
    except (TypeError, ValueError, AttributeError) as e:
        raise SettlementFormatError.of("settlement", "settlement_unreadable",
                                       detail=str(e)) from None


def names(zh: str, en: str) -> Message:
    """A name the data gives in both languages (a pattern's, a bonus's), as a message."""
    return Message.of("name_pair", zh=zh, en=en or zh)


def pattern_names(w: WinResult) -> Message:
    return names(w.pattern, w.score.pattern_en)


def bonus_names(rules: Ruleset, zh: str) -> Message:
    """A bonus item's names: the English from the ruleset's data (刮风 and 下雨 from the
    catalogue: the kong taxes are named by the ruleset in 中文 only)."""
    from referee_app.core.i18n import known, text

    en = text("bonus_name." + zh, "en") if known("bonus_name." + zh) else ""
    for b in (rules.root, rules.kong_bonus, *rules.situational_bonuses.values()):
        if b is not None and b.name == zh and b.name_en:
            en = b.name_en
    return names(zh, en)


def _rules(rules: Ruleset | None, ruleset_id: str) -> Ruleset:
    """The ruleset given (a tournament's own, maybe a club's file), else the shipped one."""
    return rules if rules is not None else get_ruleset(ruleset_id)


def seat_details(record: HandRecord, settlement: Settlement,
                 players: Mapping[str, str] | None = None, rules: Ruleset | None = None
                 ) -> tuple[SeatDetail, ...]:
    """The 详细结算单 of one hand: one line per seat, in the ruleset's seat order.

    ``rules``: the ruleset the hand was settled under (a tournament's stored one); by
    default the shipped ruleset the record names."""
    rules = _rules(rules, record.ruleset)
    names = {s.seat: (s.player or "") for s in record.seats}
    if players:
        names.update(players)
    wins = {w.seat: w for w in settlement.wins}
    out = []
    for seat in rules.seats:
        kinds = {"win": 0, "ready": 0, "kong": 0, "other": 0}
        for row in settlement.breakdown(seat, rules).values():
            for k, v in row.items():
                kinds[k] += v
        w = wins.get(seat)
        if w is not None:
            bonuses = Message.of("result_bonus_list", items=[
                Message.of("result_bonus", name=bonus_names(rules, b.name), fan=b.fan)
                for b in w.score.bonuses]) if w.score.bonuses else ""
            how = "self" if w.from_seat is None else w.from_seat
            out.append(SeatDetail(seat, names.get(seat, ""), w.order, pattern_names(w),
                                  w.score.pattern_fan, w.bonus_fan, w.fan, kinds["win"],
                                  kinds["ready"], kinds["kong"], kinds["other"],
                                  settlement.totals.get(seat, 0), bonuses, w.tile, how))
        else:
            out.append(SeatDetail(seat, names.get(seat, ""), None, "", None, None, None,
                                  kinds["win"], kinds["ready"], kinds["kong"], kinds["other"],
                                  settlement.totals.get(seat, 0)))
    return tuple(out)


def _details(record: HandRecord, settlement: Settlement, players: Mapping[str, str] | None,
             counted: Sequence[int], seats: Sequence[str], rules: Ruleset | None
             ) -> tuple[SeatDetail, ...]:
    """The 详细结算单, its totals replaced by the chips counted (an override's, say)."""
    if not settlement.ok:
        return ()
    by_seat = dict(zip(seats, counted, strict=True))
    return tuple(replace(d, total=by_seat.get(d.seat, d.total))
                 for d in seat_details(record, settlement, players, rules))


def hand_sheets(hands: Iterable[tuple[int, HandRecord, Settlement, dict]],
                seats: Sequence[str], players: Mapping[str, str] | None = None,
                rules: Ruleset | None = None) -> tuple[HandSheet, ...]:
    """Hands of one table in order, with running totals per seat (void hands count 0).

    Each item is ``(hand_no, record, settlement, info)``; ``info`` may carry ``hand_id``,
    ``status``, ``override``, ``version``, ``note``. ``rules``: as for :func:`seat_details`.
    """
    running = [0] * len(seats)
    out = []
    for hand_no, record, settlement, info in hands:
        status = info.get("status", "entered")
        counted = info.get("totals")  # what the standings count (override/void aware)
        if counted is not None:
            totals = tuple(int(counted.get(s, 0)) if status != "void" else 0 for s in seats)
        else:
            ok = status != "void" and settlement.ok
            totals = tuple(settlement.totals.get(s, 0) if ok else 0 for s in seats)
        running = [a + b for a, b in zip(running, totals, strict=True)]
        out.append(HandSheet(
            hand_no=hand_no, totals=totals, running=tuple(running),
            # itemised only where the settlement is what counts: a void hand counts
            # nothing, an override the head referee's chips (its ruling is printed)
            details=() if status == "void" or info.get("override") else
            _details(record, settlement, players, totals, seats, rules),
            hand_id=str(info.get("hand_id", "")), dealer=record.dealer, status=status,
            override=bool(info.get("override", False)), ok=settlement.ok,
            version=int(info.get("version", 1)), note=str(info.get("note", "")),
            amendments=tuple(info.get("amendments", ())),
            violations=tuple(info.get("violations", ())), ruling=str(info.get("ruling", ""))))
    return tuple(out)


def opponent_lines(hands: Iterable[tuple[str, Settlement | None, Mapping[str, str]]],
                   rules: Ruleset | None = None) -> tuple[OpponentLine, ...]:
    """个人结算单 per opponent, summed over hands.

    Each item is ``(player's seat, settlement, {seat: opponent name})``; opponents are
    keyed by name so the same opponent met at different seats is one line. A hand whose
    chips are not its settlement's (an override: the head referee's) is given with
    settlement None: it counts as a hand together, its chips are not itemised. ``rules``:
    the ruleset settled under, when it is not a shipped one (a club's file).
    """
    acc: dict[str, list[int]] = {}
    order: list[str] = []
    for seat, settlement, names in hands:
        met = set()
        for other, name in names.items():
            if other == seat:
                continue
            if name not in acc:
                acc[name] = [0, 0, 0, 0, 0]
                order.append(name)
            if name not in met:
                acc[name][0] += 1
                met.add(name)
        if settlement is None:
            continue
        for other, row in settlement.breakdown(seat, rules).items():
            name = names.get(other, other)
            line = acc.setdefault(name, [0, 0, 0, 0, 0])
            if name not in order:
                order.append(name)
            line[1] += row["win"]
            line[2] += row["ready"]
            line[3] += row["kong"]
            line[4] += row["other"]
    return tuple(OpponentLine(n, *acc[n]) for n in order)


def clauses_cited(settlement: Settlement, rules: Ruleset | None = None
                  ) -> tuple[Clause, ...]:
    """Every clause the settlement cites (errors, trace, payments, patterns, bonuses).

    In the order of first citation, so the ruling sheet reads like the trace. The texts
    come from ``rules`` (a tournament's own ruleset: a club's clause texts), by default
    from the shipped ruleset the settlement names.
    """
    rules = _rules(rules, settlement.ruleset)
    ids: list[str] = []

    def add(cid: str | None) -> None:
        if cid and cid not in ids:
            ids.append(cid)

    for e in settlement.errors:
        add(e.clause)
    for step in settlement.steps:
        add(step.clause)
    for w in settlement.wins:
        add(w.score.pattern_clause)
        for b in w.score.bonuses:
            add(b.clause)
    for p in settlement.payments:
        add(p.clause)
    return tuple(rules.clause(c) for c in ids)


