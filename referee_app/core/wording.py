"""The engine's messages as words: violations, trace steps and payment reasons, in a language.

The engine reports values (a code and its parameters, see :mod:`.results`), never
sentences; this module renders them from the catalogue (``violation.<code>``,
``trace.<kind>``, ``reason.<code>`` in ``referee_app/locale``). The English rendering is
also the stored form (the ``sichuan-settlement/1`` document keeps English lines), so the
English texts of these keys are fixed: a test pins them on every golden fixture.

Parameters are named by what they hold, so one rule formats them in every language:
``s f r a b`` a seat, ``p w`` a list of seats, ``t`` a tile, ``ts`` a list of tiles,
``why``/``melds`` a list of sub-messages ``(code, params)``, ``reason`` one sub-message,
``back`` a list of ``(chips, seat)`` refunds; any other parameter is shown as it is.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from typing import Any

from .i18n import catalogue, keys_under, known, text
from .tiles import TILES, parse_indices

#: a value's parameters: ``(name, value)`` pairs, hashable (a violation is a dict key)
Params = tuple[tuple[str, Any], ...]
Namer = Callable[[str], str]

_SEAT_KEYS = frozenset("sfrab")
_NAMED_KEYS = _SEAT_KEYS | {"t"}
#: parameters that are one value each: a seat, a tile, or shown as they are
_PLAIN_KEYS = _NAMED_KEYS | {"n", "c", "x", "y", "fan", "raw", "held", "concealed", "pongs",
                             "kongs", "suits", "parts", "name", "unit"}
_SEATS_KEYS = frozenset("pw")
#: a trace's list of tiles (a ready seat's waits): "1p 4p" / "一筒、四筒" (a catalogue text
#: of a lone space would not survive the translators' tools)
_TRACE_TILE_SEP = {"en": " ", "zh": "、"}
_SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
#: the trace steps whose payers are written "W pays 2" / "E, W pay 2 each" / "nobody pays"
_PAY_EACH = frozenset({"robbed_tax", "self_draw", "self_draw_extra"})
#: trace kinds: the payers' count chooses the sentence (``.one``/``.many``)
_BY_COUNT = frozenset({"added_kong", "concealed_kong"})


def seat_word(lang: str) -> Namer:
    """The plain name of a seat: its letter in English, its wind (东) in 中文."""
    if lang == "zh":
        return lambda s: _SEAT_ZH.get(s, s)
    return str


def tile_word(lang: str) -> Namer:
    """A tile in the trace: ``9s`` in English, ``九条`` in 中文."""
    if lang == "zh":
        return lambda t: TILES[parse_indices(t)[0]].chinese
    return str


def tiles_text(tiles: Iterable[str], lang: str) -> str:
    """Tiles as the trace lists them: ``1p 4p`` / ``一筒、四筒``."""
    return _TRACE_TILE_SEP.get(lang, " ").join(map(tile_word(lang), tiles))


@cache
def _tpl(key: str, lang: str) -> str:
    """The catalogue's text of ``key`` (read once: the English renders every stored step)."""
    return text(key, lang)


class Words:
    """How one rendering writes seats and tiles (the desk names seats ``东 E``)."""

    __slots__ = ("group", "lang", "plain", "seat", "sep_seats", "tile")

    def __init__(self, lang: str, seat: Namer | None = None, tile: Namer | None = None,
                 group: str = "trace") -> None:
        self.lang = lang
        self.seat = seat or seat_word(lang)
        self.tile = tile or str
        self.group = group  # whose list separators: ``trace.join.*`` or ``violation.join.*``
        self.plain = self.seat is str and self.tile is str  # English: names as they are
        self.sep_seats = _tpl("trace.join.seats", lang)

    def seats(self, seats: Iterable[str]) -> str:
        names = list(seats) if self.seat is str else [self.seat(s) for s in seats]
        if not names:
            return _tpl("trace.nobody", self.lang)
        return self.sep_seats.join(names)

    def fields(self, params: Iterable[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        plain = self.plain
        for k, v in params:
            if k in _PLAIN_KEYS:
                out[k] = v if plain or k not in _NAMED_KEYS else (
                    self.tile(v) if k == "t" else self.seat(v))
            elif k in _SEATS_KEYS:
                out[k] = self.seats(v)
            elif k == "ts":
                sep = (_TRACE_TILE_SEP.get(self.lang, " ") if self.group == "trace"
                       else _tpl("violation.join.tiles", self.lang))
                out[k] = sep.join(self.tile(x) for x in v)
            elif k in ("why", "melds"):
                sep = _tpl(f"violation.join.{k}", self.lang)
                out[k] = sep.join(self.say(f"violation.{k}.", c, p) for c, p in v)
            elif k == "reason":
                out[k] = self.say("reason.", v[0], v[1])
            elif k == "back":
                item = _tpl("trace.refund.item", self.lang)
                out[k] = self.sep_seats.join(item.format(n=n, r=self.seat(r)) for n, r in v)
            else:
                out[k] = v
        return out

    def say(self, prefix: str, code: str, params: Params) -> str:
        return _tpl(prefix + code, self.lang).format(**self.fields(params))


@cache
def _plain_words(lang: str) -> Words:
    """Each language's own words for seats and tiles (the trace's and reasons' default)."""
    return Words(lang, None, tile_word(lang))


def violation_text(code: str, params: Params, lang: str, seat: Namer | None = None) -> str:
    """A rule violation's message (tiles in notation, as the referee types them)."""
    return Words(lang, seat, group="violation").say("violation.", code, params)


def trace_key(kind: str, params: Params) -> str:
    """The catalogue key of a trace step: its kind, and for a kong the payers' count."""
    if kind in _BY_COUNT:
        payers = next((v for k, v in params if k == "p"), ())
        return f"trace.{kind}.{'one' if len(payers) == 1 else 'many'}"
    return f"trace.{kind}"


def step_text(step: Any, lang: str, seat: Namer | None = None,
              tile: Namer | None = None) -> str:
    """One trace step as a line, ``"§2.10 S declares a concealed kong of 9s; …"``.

    ``step`` is a :class:`~.results.TraceStep`; a step kept only as text (a settlement read
    back from a file, whose engine may have been older) is its stored line in every language.
    """
    if step.kind == "text":
        return str(step.params[0][1])
    if seat is None and tile is None:
        return _plain_step(step, lang)
    return _step(step, lang, Words(lang, seat, tile or tile_word(lang)))


@lru_cache(maxsize=1 << 16)
def _plain_step(step: Any, lang: str) -> str:
    """A step in its language's own words, memoised: every stored settlement renders its
    steps in English (``to_dict``, and ``verify`` compares it), and steps recur."""
    return _step(step, lang, _plain_words(lang))


def _step(step: Any, lang: str, words: Words) -> str:
    params = step.params
    fields = words.fields(params) if params else {}
    seat, tile, amount = step.seat, step.tile, step.amount
    if words.plain:
        if seat is not None:
            fields["s"] = seat
        if tile is not None:
            fields["t"] = tile
    else:
        if seat is not None:
            fields["s"] = words.seat(seat)
        if tile is not None:
            fields["t"] = words.tile(tile)
    if amount is not None:
        fields["n"] = amount
    kind = step.kind
    if "unit" in fields:  # "1 chip" / "2 chips"
        fields["unit"] = _tpl(f"trace.unit.{fields['unit']}", lang)
    if kind in _PAY_EACH:
        payers = next((v for k, v in params if k == "p"), ())
        sub = "none" if not payers else ("one" if len(payers) == 1 else "many")
        fields["pays"] = _tpl(f"trace.pays.{sub}", lang).format(p=fields.get("p", ""),
                                                               n=step.amount)
    key = trace_key(kind, params) if kind in _BY_COUNT else f"trace.{kind}"
    return f"{step.clause} {_tpl(key, lang).format(**fields)}"


def reason_text(payment: Any, lang: str, seat: Namer | None = None,
                tile: Namer | None = None) -> str:
    """A payment's reason (``direct kong 9s`` / ``直杠 九条``); a reason kept only as text
    (read back from a file) is shown as stored."""
    if payment.code == "text":
        return str(payment.params[0][1])
    if seat is None and tile is None:
        return _plain_reason(payment.code, payment.params, lang)
    return Words(lang, seat, tile or tile_word(lang)).say("reason.", payment.code,
                                                         payment.params)


@lru_cache(maxsize=1 << 14)
def _plain_reason(code: str, params: Params, lang: str) -> str:
    """A reason in its language's own words, memoised (the same few recur in every hand)."""
    return _plain_words(lang).say("reason.", code, params)


def reading_text(ruleset_id: str, clause_id: str, reading: str | None,
                 lang: str) -> str | None:
    """A clause's Reading (解读) in ``lang``: a shipped ruleset's from the catalogue
    (``reading.<ruleset>.<clause>``), when its English there is the ``reading`` given — a
    club's file that reuses a shipped id but words a Reading its own way keeps its words."""
    if not reading or lang == "en":
        return reading
    key = f"reading.{ruleset_id}.{clause_id}"
    if key in catalogue(lang).keys and text(key, "en") == reading:
        return text(key, lang)
    return reading


#: a field's words: ``field.top.<path>`` for a whole path, ``field.<name>`` for a field
#: inside a seat or an event of a hand record (the desk's words for the same fields)
FIELD_PREFIX = "field."
TOP_FIELD_PREFIX = "field.top."
_SEAT_PATH = re.compile(r"^seats\.([A-Z])(?:\.(\w+))?(?:\[(\d+)\])?$")
_EVENT_PATH = re.compile(r"^events\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\])?$")


def field_text(path: str, lang: str, seat: Namer | None = None) -> str | None:
    """A field named in words: ``start_date`` → ``开始日期``, ``seats.S.concealed`` →
    ``南的手牌`` / ``S concealed tiles``, ``events[2].tile`` → ``第 3 个事件的牌``; None when
    the catalogue has no words for it (an option, a file: shown as it is)."""
    if not path:
        return None
    if known(TOP_FIELD_PREFIX + path, lang):
        return text(TOP_FIELD_PREFIX + path, lang)
    name = seat or seat_word(lang)
    if m := _SEAT_PATH.match(path):
        if m[2] is None:
            return name(m[1])
        if not known(FIELD_PREFIX + m[2], lang):
            return None
        return text("field.at_seat", lang, seat=name(m[1]),
                    field=text(FIELD_PREFIX + m[2], lang))
    if m := _EVENT_PATH.match(path):
        n = int(m[1]) + 1
        if m[2] is None:
            return text("field.event_n", lang, n=n)
        if not known(FIELD_PREFIX + m[2], lang):
            return None
        return text("field.at_event", lang, n=n, field=text(FIELD_PREFIX + m[2], lang))
    return None


_FIELD_RE = {"t": r"(?P<t>[1-9][mps])", "r": r"(?P<r>[ESWN])", "a": r"(?P<a>[ESWN])",
             "b": r"(?P<b>[ESWN])", "x": r"(?P<x>\d+)", "y": r"(?P<y>\d+)",
             "fan": r"(?P<fan>\d+)", "reason": r"(?P<reason>.+)"}


@cache
def _reason_patterns() -> tuple[tuple[str, re.Pattern[str]], ...]:
    out = []
    for code in keys_under("reason."):
        parts = []
        for lit, name, _, _ in string.Formatter().parse(text("reason." + code, "en")):
            parts.append(re.escape(lit))
            if name:
                parts.append(_FIELD_RE[name])
        out.append((code, re.compile("".join(parts))))
    return tuple(out)


def stored_reason(reason: str) -> tuple[str, Params] | None:
    """The code and params of a reason known only as its stored English (a line the store
    writes from a stored settlement), matched against the catalogue's English ``reason.*``
    texts — not hand-written patterns; None when no text matches."""
    for code, pat in _reason_patterns():
        m = pat.fullmatch(reason)
        if m:
            params = dict(m.groupdict())
            if "reason" in params:
                inner = stored_reason(params["reason"])
                if inner is None:
                    return None
                params["reason"] = inner  # type: ignore[assignment]
            return code, tuple(params.items())
    return None


__all__ = ["field_text", "reading_text", "tiles_text", "stored_reason", "Params", "Words", "reason_text", "seat_word", "step_text", "tile_word",
           "trace_key", "violation_text"]
