"""A settlement as the command line shows it, in the run's language: the text a referee
reads (``score``, ``hand show``) and the JSON with codes beside the words (``--json``)."""

from __future__ import annotations

from typing import Any

from referee_app.core import Settlement
from referee_app.core.i18n import text
from referee_app.core.wording import reason_text, step_text, tile_word, tiles_text

from .lang import lang, say, seat, violation_data, violation_line
from .layout import table


def render_text(s: Settlement) -> str:
    """The readable settlement a referee reads at the desk, in the run's language: wins,
    the wall's-end checks, payments with clauses, totals and the rule trace."""
    lg = lang()
    tile = tile_word(lg)
    lines: list[str] = [say("score.ruleset", ruleset=s.ruleset)]
    if not s.ok:
        lines.append(say("score.invalid"))
        lines += [violation_line(e) for e in s.errors]
        return "\n".join(lines)
    lines += ["", say("score.wins")]
    if not s.wins:
        lines.append("  " + say("score.none"))
    for w in s.wins:
        how = (say("score.on_discard", seat=seat(w.from_seat)) if w.from_seat
               else say("score.self_drawn"))
        bonus = say("list_sep").join(say("score.bonus", name=b.name, fan=b.fan, clause=b.clause)
                                     for b in w.score.bonuses) or "-"
        lines.append("  " + say("score.win", order=w.order, seat=seat(w.seat), tile=tile(w.tile),
                                how=how, pattern=w.pattern, clause=w.score.pattern_clause,
                                pattern_fan=w.score.pattern_fan, bonus=bonus, fan=w.fan,
                                chips=w.chips, unit=unit(w.chips)))
    if s.end_check is not None and s.end_check.applies:
        ec = s.end_check
        seats = say("list_sep").join
        lines += ["", say("score.end_check")]
        lines.append("  " + say("score.pigs", pigs=seats(map(seat, ec.flower_pigs)) or "-",
                                xianggong=seats(map(seat, ec.xianggong)) or "-"))
        for st, r in ec.ready.items():
            state = (say("score.ready", waits=tiles_text(r.waits, lg), fan=r.max_fan)
                     if r.ready else say("score.not_ready"))
            lines.append("  " + say("score.seat_state", seat=seat(st), state=state))
    lines += ["", say("score.payments")]
    lines += table([say("col.from"), say("col.to"), say("col.chips"), say("col.clause"),
                    say("col.reason")],
                   [(seat(p.payer), seat(p.payee), p.chips, p.clause, reason_text(p, lg))
                    for p in s.payments], "llrll", (3, 3, 5, 6), indent="  ")
    lines += ["", say("score.totals", totals="  ".join(f"{seat(k)} {v:+d}"
                                                      for k, v in s.totals.items()))]
    lines += ["", say("score.trace")]
    lines += [f"  {step_text(st, lg)}" for st in s.steps]
    return "\n".join(lines)


def unit(chips: int) -> str:
    """``chip`` / ``chips`` (筹码) after a number."""
    return text(f"trace.unit.{'one' if chips == 1 else 'many'}", lang())


def settlement_json(s: Settlement) -> dict[str, Any]:
    """``score --json``: the settlement document with each problem's, payment's and trace
    step's code and parameters beside its words, the words in the run's language (English:
    exactly the stored document's)."""
    d = s.data()
    lg = lang()
    if lg == "en":
        return d
    d["errors"] = [violation_data(e) for e in s.errors]
    for p, pd in zip(s.payments, d["payments"], strict=True):
        pd["reason"] = reason_text(p, lg)
    d["trace"] = [step_text(st, lg) for st in s.steps]
    for st, sd in zip(s.steps, d["steps"], strict=True):
        sd["text"] = step_text(st, lg)
    return d


__all__ = ["render_text", "settlement_json", "unit"]
