"""Ruleset files: check a ``sichuan-ruleset/1`` document, build it, write it, compare two.

Two layers of checks, each error naming its path and the problem:

1. the published JSON Schema (``referee_app/data/ruleset.schema.json``, checked with
   ``jsonschema``): types, ranges, known names, no unknown fields (a typo is an error,
   never a silently ignored switch);
2. the engine's consistency checks: what the schema cannot say, e.g. every cited clause
   has a text, a bonus for a win flag needs the flag, 自摸加底 and 自摸加番 are
   alternatives, every legal hand finds a pattern row.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

from .errors import Message, RecordError, os_reason
from .i18n import text as catalogue_text
from .input_files import read_limited
from .jsonin import parse_json
from .ruleset import (
    PATTERN_FEATURES,
    RULESET_FORMAT,
    Ruleset,
    get_ruleset,
    ruleset_from_dict,
    ruleset_ids,
)

_SEAT_ORDER = ("E", "S", "W", "N")
_STANDARD = PATTERN_FEATURES["standard"]
_SEVEN_PAIRS = PATTERN_FEATURES["seven_pairs"]


class RulesetFileError(RecordError):
    """A ruleset document the app refuses: ``field`` is the path (``patterns[3].fan``),
    ``problem`` what is wrong; ``errors`` lists every (path, problem) found, first first.

    A RecordError, so every command that reports unreadable input (exit 2) reports it.
    """

    code = "ruleset_file"

    def __init__(self, field_path: str, problem: str, *, source: str | None = None,
                 errors: list[tuple[str, str]] | None = None) -> None:
        said = problem if isinstance(problem, Message) else None  # a message, as a rule
        super().__init__(field_path, str(problem), code=said.code if said else None,
                         params=said.params if said else None)
        self.path = field_path  # the same as ``field``
        self.source = source
        self.errors = errors or [(field_path, problem)]
        more = len(self.errors) - 1
        text = f"{field_path}: {problem}" if field_path else problem
        if source:
            text = f"{source}: {text}"
        if more > 0:
            text += f" (and {more} more problem{'s' if more > 1 else ''})"
        self.args = (text,)

    def __str__(self) -> str:
        return self.args[0]


# --------------------------------------------------------------------------- schema


@cache
def schema() -> dict[str, Any]:
    """The published JSON Schema of ``sichuan-ruleset/1``."""
    from importlib import resources  # here: its import costs every command ~10 ms

    text = resources.files("referee_app").joinpath("data", "ruleset.schema.json").read_text(
        encoding="utf-8")
    return json.loads(text)


@cache
def _validator() -> Any:
    import jsonschema  # imported on first use: shipped rulesets load without it

    cls = jsonschema.validators.validator_for(schema())
    return cls(schema())


def path_text(parts: Any) -> str:
    """``["patterns", 3, "fan"]`` -> ``patterns[3].fan``."""
    out = ""
    for p in parts:
        if isinstance(p, int):
            out += f"[{p}]"
        else:
            out += f".{p}" if out else str(p)
    return out


def _either(options: list[Message]) -> Message:
    """``a or b or c``: the first option, then each further one (in the reader's words)."""
    out = options[0]
    for o in options[1:]:
        out = Message.of("expect_or", a=out, b=o)
    return out


def _expected(sub: dict[str, Any]) -> Message:
    """What a subschema accepts, as a message (for type and range problems)."""
    if "x-problem-code" in sub:  # the schema's own words for a pattern (error.<code>)
        return Message.of(str(sub["x-problem-code"]))
    types = sub.get("type")
    if types is None and "anyOf" in sub:
        return _either([_expected(s) for s in sub["anyOf"]])
    if types is None and "$ref" in sub:
        return _expected(_resolve(sub["$ref"]))
    if isinstance(types, list):
        return _either([_expected({**sub, "type": t}) for t in types])
    if types == "integer":
        lo, hi = sub.get("minimum"), sub.get("maximum")
        if lo is not None and hi is not None:
            return Message.of("expect_int_range", lo=lo, hi=hi)
        if lo is not None:
            return Message.of("expect_int_min", lo=lo)
        return Message.of("expect_int")
    if "enum" in sub:
        return Message.of("expect_one_of",
                          values=[json.dumps(v, ensure_ascii=False) for v in sub["enum"]])
    if "const" in sub:
        return Message.of("expect_value", value=json.dumps(sub["const"], ensure_ascii=False))
    return Message.of("expect_type", schema_type=str(types))


def _resolve(ref: str) -> dict[str, Any]:
    node: Any = schema()
    for part in ref.lstrip("#/").split("/"):
        node = node[part]
    return node


def _problem(err: Any) -> tuple[str, Message]:
    """(path, problem) of one jsonschema error, as the app's message: read from the
    error's data (validator, its value, the instance), never from its English text."""
    path = list(err.absolute_path)
    sub = err.schema if isinstance(err.schema, dict) else {}
    v = err.validator
    if v == "required":
        have = err.instance if isinstance(err.instance, dict) else {}
        name = next((k for k in err.validator_value if k not in have), "?")
        return path_text([*path, name]), Message.of("field_missing")
    if v == "additionalProperties":
        extra = sorted(set(err.instance) - set(sub.get("properties", {})))
        return (path_text([*path, extra[0]]) if extra else path_text(path),
                Message.of("unknown_field_here", allowed=list(sub.get("properties", {}))))
    if "propertyNames" in err.schema_path:
        return path_text([*path, str(err.instance)]), Message.of("unknown_name",
                                                                 want=_expected(sub))
    if v == "minimum" and sub.get("maximum") is None and sub.get("type") == "integer":
        return path_text(path), Message.of("must_be_at_least", lo=sub["minimum"])
    if v in ("type", "minimum", "maximum", "enum", "const", "pattern", "anyOf"):
        return path_text(path), Message.of("must_be", want=_expected(sub))
    if v == "uniqueItems":
        return path_text(path), Message.of("item_twice")
    if v in ("minItems", "maxItems"):
        if "maxItems" in sub:
            return path_text(path), Message.of("items_between", lo=sub.get("minItems", 0),
                                               hi=sub["maxItems"])
        return path_text(path), Message.of("items_at_least", lo=sub.get("minItems", 0))
    if v in ("minLength",):
        return path_text(path), Message.of("not_empty")
    return path_text(path), Message.of("schema_other", rule=str(v))


def schema_errors(data: Any) -> list[tuple[str, Message]]:
    """Every schema violation as (path, problem), in document order of their paths."""
    errs = sorted(_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    out: list[tuple[str, Message]] = []
    for e in errs:
        item = _problem(e)
        if item not in out:
            out.append(item)
    return out


# --------------------------------------------------------------------------- consistency


def _cited(d: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(clause id, the path citing it) for every clause the data cites."""
    for i, p in enumerate(d["patterns"]):
        yield p["clause"], f"patterns[{i}]"
    for k, b in d["bonuses"].items():
        yield b["clause"], f"bonuses.{k}"
    for k, v in d["kong_payments"].items():
        yield v["clause"], f"kong_payments.{k}"
    win = d["win_payments"]
    yield win["discard"], "win_payments.discard"
    yield win["self_drawn"], "win_payments.self_drawn"
    if win.get("self_drawn_extra"):
        yield win["self_drawn_extra"]["clause"], "win_payments.self_drawn_extra"
    yield d["robbed_kong"]["clause"], "robbed_kong"
    if d.get("kong_discard_transfer"):
        yield d["kong_discard_transfer"], "kong_discard_transfer"
    for k, v in (d.get("end_check") or {}).items():
        if v:
            yield v["clause"], f"end_check.{k}"
    if d.get("passed_win"):
        yield d["passed_win"]["clause"], "passed_win"
    if d["chips"].get("cap_clause"):
        yield d["chips"]["cap_clause"], "chips.cap_clause"
    for k, c in d["validation_clauses"].items():
        yield c, f"validation_clauses.{k}"


#: a win flag -> the validation check it needs and the bonus or pattern that rewards it
_FLAG_CHECK = {"kong_bloom": "kong_bloom", "kong_discard": "kong_discard",
               "robbing_kong": "robbing_kong", "heavenly": "heavenly_earthly",
               "earthly": "heavenly_earthly", "declared_ready": "declared_ready",
               "first_discard": "first_discard", "last_tile": "last_tile"}
_REQUIRED_CHECKS = ("tile_count", "hand_size", "missing_suit", "legal_hand", "blood_battle",
                    "discard_win", "direct_kong", "self_drawn")


def consistency_errors(d: dict[str, Any]) -> list[tuple[str, Message]]:
    """What a schema-valid document asks that the engine cannot settle, as (path, problem)."""
    out: list[tuple[str, Message]] = []
    seats = d["seats"]
    if tuple(seats) != _SEAT_ORDER[:len(seats)]:
        out.append(("seats", Message.of("rs_seat_order")))
    if d["max_winners"] > len(seats) - 1:
        out.append(("max_winners", Message.of("rs_max_winners", most=len(seats) - 1,
                                              seats=len(seats))))
    if d["max_suits_in_win"] > len(d["suits"]):
        out.append(("max_suits_in_win", Message.of("rs_max_suits", suits=len(d["suits"]))))
    rows = [p for p in d["patterns"] if not p.get("situational") and not p.get("consumes_root")]
    for bit, name in ((_STANDARD, "standard"), (_SEVEN_PAIRS, "seven_pairs")):
        if not any(_mask(p["requires"]) & ~bit == 0 for p in rows):
            out.append(("patterns", Message.of(f"rs_no_row_{name}", name=name)))
    flags = set(d["flags"])
    bonuses = d["bonuses"]
    checks = d["validation_clauses"]
    for c in _REQUIRED_CHECKS:
        if c not in checks:
            out.append((f"validation_clauses.{c}", Message.of("rs_check_missing")))
    for f in d["flags"]:
        need = _FLAG_CHECK[f]
        if need not in checks:
            out.append((f"validation_clauses.{need}", Message.of("rs_flag_check_missing",
                                                                 flag=f)))
    for k in ("robbing_kong", "kong_bloom", "kong_discard", "declared_ready", "first_discard",
              "last_tile"):
        if k in bonuses and k not in flags:
            out.append((f"bonuses.{k}", Message.of("rs_bonus_needs_flag", flag=k)))
    for k in ("heavenly", "earthly"):
        wants = k in bonuses or any(k in p["requires"] for p in d["patterns"])
        if wants and k not in flags:
            out.append((f"bonuses.{k}" if k in bonuses else "patterns",
                        Message.of("rs_needs_flag", flag=k)))
    if d.get("passed_win") and "passed_win" not in checks:
        out.append(("validation_clauses.passed_win", Message.of("rs_passed_win_check")))
    if d["win_payments"].get("self_drawn_extra") and "self_drawn" in bonuses:
        out.append(("win_payments.self_drawn_extra", Message.of("rs_self_drawn_twice")))
    if "single_wait" in bonuses and any("single_wait" in p["requires"] for p in d["patterns"]):
        out.append(("bonuses.single_wait", Message.of("rs_single_wait_twice")))
    ec = d.get("end_check") or {}
    if ec and not d["blood_battle"]:
        out.append(("end_check", Message.of("rs_end_check_needs_blood")))
    if ec.get("price_difference") and not ec.get("ready_check"):
        out.append(("end_check.price_difference", Message.of("rs_price_needs_ready")))
    if d.get("kong_discard_transfer") and "kong_discard" not in flags:
        out.append(("kong_discard_transfer", Message.of("rs_needs_flag", flag="kong_discard")))
    cap = d["chips"]
    if cap.get("cap_name") and cap.get("cap_fan") is None:
        out.append(("chips.cap_name", Message.of("rs_cap_name_no_cap")))
    texts = d["clauses"]
    seen: set[str] = set()
    for cid, where in _cited(d):
        if cid not in texts and cid not in seen:
            seen.add(cid)
            out.append(("clauses", Message.of("rs_clause_no_text", clause=cid, where=where)))
    return out


def _mask(names: list[str]) -> int:
    m = 0
    for n in names:
        m |= PATTERN_FEATURES[n]
    return m


# --------------------------------------------------------------------------- build


def ruleset_from_data(data: Any, *, source: str | None = None) -> Ruleset:
    """Check a ruleset document (schema, then consistency) and build it (from a copy: a
    later change of ``data`` changes nothing)."""
    data = copy.deepcopy(data)
    errs = schema_errors(data)
    if not errs:
        errs = consistency_errors(data)
    if errs:
        path, problem = errs[0]
        raise RulesetFileError(path, problem, source=source, errors=errs)
    return ruleset_from_dict(data)


def ruleset_from_file(path: str | Path) -> Ruleset:
    """Read a ruleset file; RulesetFileError names the file, the path and the problem."""
    name = str(path)
    try:
        raw = read_limited(path)
    except OSError as e:
        raise RulesetFileError("", Message.of("cannot_read_it", why=os_reason(e)),
                               source=name) from None
    try:  # the shared reader: BOM accepted, "FILE is empty", deep nesting, huge numbers
        data = parse_json(raw, name)
    except RecordError as e:
        err = RulesetFileError("", Message(e.code, e.params))  # it names the file already
        err.source = name
        raise err from None
    return ruleset_from_data(data, source=name)


# --------------------------------------------------------------------------- write


def format_ruleset_json(data: dict[str, Any]) -> str:
    """The document as a ruleset file: one pattern row, bonus or clause field per line."""
    return _fmt(data, 0, top=True) + "\n"


def _fmt(v: Any, indent: int, top: bool = False) -> str:
    flat = json.dumps(v, ensure_ascii=False, separators=(", ", ": "))
    if not isinstance(v, dict | list) or not v:
        return flat
    if not top and indent + len(flat) <= 200 and not (isinstance(v, dict) and "zh" in v):
        return flat  # short parts on one line; a clause's texts always one per line
    pad = " " * (indent + 2)
    if isinstance(v, list):
        items = [pad + _fmt(x, indent + 2) for x in v]
        return "[\n" + ",\n".join(items) + "\n" + " " * indent + "]"
    items = [f"{pad}{json.dumps(k, ensure_ascii=False)}: {_fmt(x, indent + 2)}"
             for k, x in v.items()]
    return "{\n" + ",\n".join(items) + "\n" + " " * indent + "}"


# --------------------------------------------------------------------------- compare


def _flatten(v: Any, path: str, out: dict[str, Any]) -> None:
    if isinstance(v, dict) and v:
        for k, x in v.items():
            _flatten(x, f"{path}.{k}" if path else str(k), out)
    elif isinstance(v, list) and v and all(isinstance(x, dict) for x in v):
        for i, x in enumerate(v):
            _flatten(x, f"{path}[{i}]", out)
    else:
        out[path] = v


_ABSENT = object()


def diff_rulesets(a: Ruleset, b: Ruleset) -> list[tuple[str, Any, Any]]:
    """Every difference of ``b`` from ``a`` as (path, value in a, value in b).

    Paths are those of the ruleset file (``end_check.flower_pig.chips``,
    ``clauses.§2.11.zh``); a value absent on one side is :data:`ABSENT`. Identity
    (``format``, ``id``, names, source) is compared too, so a club file shows its own.
    """
    fa: dict[str, Any] = {}
    fb: dict[str, Any] = {}
    _flatten(a.to_data(), "", fa)
    _flatten(b.to_data(), "", fb)
    out = []
    for k in list(fa) + [k for k in fb if k not in fa]:
        x, y = fa.get(k, _ABSENT), fb.get(k, _ABSENT)
        if x != y:
            out.append((k, x, y))
    return out


ABSENT = _ABSENT


def value_text(v: Any, lang: str = "en") -> str:
    """A diff value for display: JSON, or ``(absent)`` in ``lang``."""
    if v is _ABSENT:
        return catalogue_text("value_absent", lang)
    text = json.dumps(v, ensure_ascii=False)
    return text if len(text) <= 70 else text[:67] + "…"


def diff_texts(a: Any, b: Any, width: int = 60, lang: str = "en") -> tuple[str, str]:
    """Both sides of one difference for display; long texts are cut around where they
    first differ (``…赔16个筹码给…`` / ``…赔32个筹码给…``)."""
    if not (isinstance(a, str) and isinstance(b, str)) or max(len(a), len(b)) <= width:
        return value_text(a, lang), value_text(b, lang)
    i = next((k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, i - width // 3)

    def cut(t: str) -> str:
        part = t[start:start + width]
        return (("…" if start else "") + json.dumps(part, ensure_ascii=False)
                + ("…" if start + width < len(t) else ""))
    return cut(a), cut(b)


_IDENTITY = ("format", "id", "name", "name_zh", "source", "source_note", "spec", "based_on")


def nearest_shipped(rules: Ruleset) -> tuple[str, list[tuple[str, Any, Any]]]:
    """The shipped ruleset with the fewest differences (identity aside), and those."""
    best: tuple[int, str, list[tuple[str, Any, Any]]] | None = None
    for rid in ruleset_ids():
        d = [x for x in diff_rulesets(get_ruleset(rid), rules) if x[0] not in _IDENTITY]
        if best is None or len(d) < best[0]:
            best = (len(d), rid, d)
    assert best is not None
    return best[1], best[2]


__all__ = ["ABSENT", "RULESET_FORMAT", "RulesetFileError", "consistency_errors",
           "diff_rulesets", "diff_texts", "format_ruleset_json", "nearest_shipped", "ruleset_from_data",
           "ruleset_from_file", "schema", "schema_errors", "value_text"]
