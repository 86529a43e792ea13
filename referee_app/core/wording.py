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

from collections.abc import Callable, Iterable
from functools import cache, lru_cache
from typing import Any

from .errors import DATA_READERS, Message
from .i18n import catalogue, known, text
from .record import path_parts
from .tiles import TILES, parse_indices

#: a value's parameters: ``(name, value)`` pairs, hashable (a violation is a dict key)
Params = tuple[tuple[str, Any], ...]
Namer = Callable[[str], str]

_SEAT_KEYS = frozenset("sfrab")
_NAMED_KEYS = _SEAT_KEYS | {"t"}
#: parameters that are one value each: a seat, a tile, or shown as they are
_PLAIN_KEYS = _NAMED_KEYS | {"n", "event", "c", "x", "y", "fan", "raw", "held", "concealed", "pongs",
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


def params_data(params: Params) -> dict[str, Any]:
    """Parameters as JSON: sub-messages become ``{"code", "params"}`` objects."""
    out: dict[str, Any] = {}
    for k, v in params:
        if k in ("why", "melds"):
            v = [{"code": c, "params": params_data(p)} for c, p in v]
        elif k == "reason":
            v = {"code": v[0], "params": params_data(v[1])}
        elif isinstance(v, tuple):
            v = [list(x) if isinstance(x, tuple) else x for x in v]
        out[k] = v
    return out


#: a field's words: ``field.top.<path>`` for a whole path, ``field.<name>`` for a field
#: inside a seat or an event of a hand record (the desk's words for the same fields)
FIELD_PREFIX = "field."
TOP_FIELD_PREFIX = "field.top."


def field_text(path: str, lang: str, seat: Namer | None = None) -> str | None:
    """A field named in words: ``start_date`` → ``开始日期``, ``seats.S.concealed`` →
    ``南的手牌`` / ``S concealed tiles``, ``events[2].tile`` → ``第 3 个事件的牌``; None when
    the catalogue has no words for it (an option, a file: shown as it is). A place that is
    a message (a CSV file's ``line 3, name``) is said as it says itself."""
    if isinstance(path, Message):
        return path.text(lang)
    if not path:
        return None
    if known(TOP_FIELD_PREFIX + path, lang):
        return text(TOP_FIELD_PREFIX + path, lang)
    parts = path_parts(path)
    if len(parts) < 2 or parts[0] not in ("seats", "events"):
        return None
    head, rest = parts[1], parts[2:]
    name = rest[0] if rest else None
    if rest and (not isinstance(name, str) or not known(FIELD_PREFIX + name, lang)
                 or any(not isinstance(x, int) for x in rest[1:])):
        return None
    words = text(FIELD_PREFIX + name, lang) if isinstance(name, str) else ""
    if parts[0] == "seats" and isinstance(head, str):
        who = (seat or seat_word(lang))(head)
        return text("field.at_seat", lang, seat=who, field=words) if rest else who
    if parts[0] == "events" and isinstance(head, int):
        n = head + 1
        return text("field.at_event", lang, n=n, field=words) if rest else \
            text("field.event_n", lang, n=n)
    return None


def params_from_data(data: Any) -> Params:
    """The engine's parameters read back from JSON (:func:`.results.params_data`): lists
    become tuples, sub-messages ``(code, params)`` again."""
    out = []
    for k, v in (data or {}).items():
        if k in ("why", "melds") and isinstance(v, list):
            v = tuple((d.get("code", ""), params_from_data(d.get("params"))) for d in v
                      if isinstance(d, dict))
        elif k == "reason" and isinstance(v, dict):
            v = (v.get("code", ""), params_from_data(v.get("params")))
        elif isinstance(v, list):
            v = tuple(tuple(x) if isinstance(x, list) else x for x in v)
        out.append((k, v))
    return tuple(out)


def engine_message(data: Any) -> Message | None:
    """A violation or a payment's reason sent as JSON (``{"violation"|"reason": code,
    "params", "message"}``), ready to be said in any language; None for anything else."""
    if not isinstance(data, dict):
        return None
    for key, cls in (("violation", Violation), ("reason", Reason)):
        if isinstance(data.get(key), str):
            return cls(data[key], params_from_data(data.get("params")), data.get("message"))
    return None


DATA_READERS.append(engine_message)


class _EngineMessage(Message):
    """A message of the engine as a parameter of another (a violation, a payment's reason):
    the string is its English (as stored), :meth:`text` any language from the engine's
    ``code`` and ``params``; one read back without a code keeps its English."""

    #: the key of its code in JSON (``{"violation": code, "params", "message"}``)
    family = ""

    @staticmethod
    def say(code: str, params: Params, lang: str) -> str:
        raise NotImplementedError

    def __new__(cls, code: str, params: Any = (), english: str | None = None
                ) -> _EngineMessage:  # type: ignore[misc]
        self = str.__new__(cls, english if english is not None
                           else cls.say(code, params, "en"))
        self.code, self.params = code, params
        return self

    def text(self, lang: str) -> str:
        return self.say(self.code, self.params, lang) if self.code else str(self)  # type: ignore[arg-type]

    def data(self) -> dict[str, Any]:
        return {self.family: self.code, "params": params_data(self.params),  # type: ignore[arg-type]
                "message": str(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.code, self.params, str(self))


class Violation(_EngineMessage):
    """A rule the record breaks, inside the store's "breaks the rules (…)"."""

    family = "violation"
    say = staticmethod(violation_text)


def violation_line(v: Any) -> Message:
    """A rule broken (a :class:`~.results.RuleViolation`) as a line: its clause, its seat
    and what is wrong, in the engine's words of any language."""
    what = Violation(v.code, v.params, v.message)
    if v.seat:
        return Message.of("violation_at", clause=v.clause, seat=v.seat, what=what)
    return Message.of("violation_line", clause=v.clause, what=what)


class Reason(_EngineMessage):
    """A payment's reason, inside a statement's "+6 from W: direct kong 9s"."""

    family = "reason"
    say = staticmethod(_plain_reason)  # type: ignore[assignment]


__all__ = ["engine_message", "field_text", "params_data", "params_from_data", "reading_text",
           "Params", "Reason", "tiles_text", "Violation", "Words", "reason_text", "seat_word",
           "step_text", "tile_word", "trace_key", "violation_line", "violation_text"]
