"""What one version of a hand changed against the one before, as data and as lines a
referee reads (in either language: ``change.*`` in the catalogue)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from referee_app.core.i18n import known, text
from referee_app.core.results import Payment
from referee_app.core.wording import reason_text, seat_word

from .models import (
    HandVersion,
)

#: one change: its kind (``change.<kind>`` in the catalogue) and its values
Change = tuple[str, dict[str, Any]]


def change_items(prev: HandVersion, cur: HandVersion,
                 payments: tuple[Sequence[Payment], Sequence[Payment]] | None = None
                 ) -> list[Change]:
    """What a new version changed: status, the record's seats and events, and the payments
    (removed, then added, with clauses), and the override.

    ``payments``: both versions' payments as data (their settlements settled again and equal
    to the stored ones), so that their reasons can be said in any language; without them a
    payment's reason is its stored English text."""
    out: list[Change] = []
    if prev.status is not cur.status:
        out.append(("status", {"a": prev.status.value, "b": cur.status.value}))
    a, b = prev.record, cur.record
    if a.get("dealer") != b.get("dealer"):
        out.append(("dealer", {"a": a.get("dealer"), "b": b.get("dealer")}))
    if a.get("wall_exhausted") != b.get("wall_exhausted"):
        out.append(("wall_exhausted", {"a": a.get("wall_exhausted"),
                                       "b": b.get("wall_exhausted")}))
    for seat, sa in a.get("seats", {}).items():
        sb = b.get("seats", {}).get(seat, {})
        for key in ("concealed", "pongs"):
            if sa.get(key) != sb.get(key):
                out.append(("tiles", {"s": seat, "field": key, "a": sa.get(key),
                                      "b": sb.get(key)}))
    for label, xs, ys in (("event", [_event(e) for e in a.get("events", [])],
                           [_event(e) for e in b.get("events", [])]),
                          ("payment", *(
                              [_payment(p) for p in payments[i]] if payments else
                              [_payment(p) for p in v.settlement.get("payments", [])]
                              for i, v in enumerate((prev, cur))))):
        english = {change_text(x, "en"): x for x in xs + ys}
        ca = Counter(change_text(x, "en") for x in xs)
        cb = Counter(change_text(x, "en") for x in ys)
        out += [(f"{label}_removed", {"item": english[k]}) for k in (ca - cb).elements()]
        out += [(f"{label}_added", {"item": english[k]}) for k in (cb - ca).elements()]
    if (prev.override_reason or None) != (cur.override_reason or None):
        out.append(("override", {"a": prev.override_reason or "-",
                                 "b": cur.override_reason or "-"}))
    return out


def _event(e: Mapping[str, Any]) -> Change:
    if e.get("type") == "kong":
        return ("kong_from" if e.get("from") else "kong",
                {"s": e.get("seat"), "t": e.get("tile"), "kind": e.get("kind"),
                 "f": e.get("from")})
    return ("win_on_discard" if e.get("from") else "win_self_drawn",
            {"p": list(e.get("seats", [])), "t": e.get("tile"), "f": e.get("from"),
             "flags": list(e.get("flags") or ())})


def _payment(p: Mapping[str, Any] | Payment) -> Change:
    if isinstance(p, Payment):  # its reason as data: said in the reader's language
        return ("payment", {"clause": p.clause, "f": p.payer, "s": p.payee, "n": p.chips,
                            "reason": p})
    return ("payment", {"clause": p["clause"], "f": p["from"], "s": p["to"],
                        "n": p["chips"], "reason": p["reason"]})


def change_text(change: Change, lang: str) -> str:
    """One change as a line in ``lang`` (seats and statuses in its words, a payment's reason
    too when it is data; tiles, clauses and a reason kept only as text as they are)."""
    code, params = change
    name = seat_word(lang)
    sep = text("error.list_sep", lang)
    fields: dict[str, Any] = {}
    for k, v in params.items():
        if k in ("s", "f") or (code == "dealer" and k in ("a", "b")):
            fields[k] = name(v) if isinstance(v, str) else v
        elif k == "p":
            fields[k] = "+".join(name(x) for x in v)
        elif code == "status" and k in ("a", "b"):
            fields[k] = _word("status_", v, lang)
        elif k == "field":
            fields[k] = _word("field.", v, lang)
        elif k == "kind":
            fields[k] = _word("kong_kind.", str(v), lang)
        elif k == "flags":
            fields[k] = text("change.flags", lang, flags=sep.join(
                _word("flag_", f, lang) for f in v)) if v else ""
        elif k == "item":
            fields[k] = change_text(v, lang)
        elif k == "reason" and isinstance(v, Payment):
            fields[k] = reason_text(v, lang)
        else:
            fields[k] = v
    return text(f"change.{code}", lang, **fields)


def _word(prefix: str, value: str, lang: str) -> str:
    key = prefix + value
    return text(key, lang) if known(key, lang) else value


def describe_changes(prev: HandVersion, cur: HandVersion) -> tuple[str, ...]:
    """What a new version changed, as English lines a referee can read out (kept with each
    version: ``hand history --json``)."""
    return tuple(change_text(c, "en") for c in change_items(prev, cur))
