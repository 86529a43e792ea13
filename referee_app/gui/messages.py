"""The engine's and the store's messages in the referee's words, 中文 or English.

The store's refusals are data — a message ``code`` and its ``params`` — rendered here from
the catalogue in the desk's language (:func:`message_text`); nothing reads their English.
The core still writes one English line per problem (for the CLI, the JSON and the trace)
and names fields by path (``seats.S.concealed``). A referee reads neither: this table turns
each known engine message shape into a message id with both texts, and each path into
words ("南 S 的手牌"). :func:`is_translated` lets a test fail on any shape that has no
entry.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from string import Formatter

from referee_app.core.errors import MESSAGE_PREFIX, FieldError
from referee_app.core.errors import render as render_message
from referee_app.core.i18n import known, text
from referee_app.core.results import RuleViolation

from .i18n import LANG, seat_name, violation_words

_S = r"([ESWN])"

Render = Callable[[re.Match[str]], tuple[str, str]]


def _s(m: re.Match[str], i: int) -> str:
    return seat_name(m.group(i))


#: a win flag's name is the desk's ``flag_<name>`` (中文 only here: the English keeps the id)
FLAG_PREFIX = "flag_"

#: (pattern, render) — render returns (English, 中文) for the current seat names
_RULES: list[tuple[re.Pattern[str], Render]] = []


def message_rule(pattern: str) -> Callable[[Render], Render]:
    """Register ``fn`` as the words for messages matching ``pattern`` (the server desk adds its
    own); kept until the messages it matches are data."""
    def add(fn: Render) -> Render:
        _RULES.append((re.compile(f"^{pattern}$"), fn))
        return fn
    return add


# ---------------------------------------------------------------- tile notation (TileParseError)
@message_rule(r"unexpected character '(.+)' at position (\d+)")
def _(m):
    return (f"character {m[2]} '{m[1]}' is not a tile",
            f"第 {m[2]} 个字符 '{m[1]}' 不是牌")


@message_rule(r"'0' at position (\d+) is not a tile rank \(ranks are 1-9\)")
def _(m):
    return (f"character {m[1]} '0' is not a rank (ranks are 1–9)",
            f"第 {m[1]} 个字符 '0' 不是点数（点数为 1–9）")


@message_rule(r"suit '(.+)' at position (\d+) has no digits before it")
def _(m):
    return (f"suit '{m[1]}' at character {m[2]} has no digits before it",
            f"第 {m[2]} 个字符的花色 '{m[1]}' 前面没有数字")


@message_rule(r"digits from position (\d+) have no suit letter after them")
def _(m):
    return (f"the digits from character {m[1]} need a suit letter after them (m, p or s)",
            f"从第 {m[1]} 个字符起的数字后面缺少花色（m 万、p 筒、s 条）")


@message_rule(r"expected exactly one tile, got (\d+) in '(.*)'")
def _(m):
    return (f"write exactly one tile (got {m[1]} in '{m[2]}')",
            f"只能写一张牌（'{m[2]}' 中有 {m[1]} 张）")


@message_rule(r"must hold exactly one tile, got (\d+) in '(.*)'")
def _(m):
    return (f"write exactly one tile (got {m[1]} in '{m[2]}')",
            f"只能写一张牌（'{m[2]}' 中有 {m[1]} 张）")


# ---------------------------------------------------------------- record shape (RecordError)
@message_rule(r"nothing is entered yet")
def _(m):
    return ("nothing is entered yet — type each seat's tiles", "尚未录入 — 请输入各家的牌")


@message_rule(r"required field is missing")
def _(m):
    return ("missing", "未填写")


@message_rule(r"a win needs at least one winning seat")
def _(m):
    return ("a win needs at least one winner", "和牌至少要有一位和牌者")


@message_rule(r"a direct kong needs the discarder in 'from'")
def _(m):
    return ("a direct kong needs the discarder", "直杠需要写明点杠者")


@message_rule(r"an (\w+) kong has no discarder; .*")
def _(m):
    return (f"an {m[1]} kong has no discarder", "暗杠/补杠没有点杠者")


@message_rule(r"unknown seat '(.*)' \(seats are .*\)")
def _(m):
    return (f"'{m[1]}' is not a seat", f"'{m[1]}' 不是座位")


class _Untranslated(LookupError):
    pass


def _match(rules: list[tuple[re.Pattern[str], Render]], text: str) -> tuple[str, str] | None:
    for pat, render in rules:
        m = pat.match(text)
        if m is not None:
            try:
                return render(m)
            except _Untranslated:
                return None
    return None


# ---------------------------------------------------------------- field paths
#: a field's words are the catalogue's ``field.<name>`` (inside a seat or an event) and
#: ``field.top.<path>`` (a whole path); :func:`field_words` says None for any other
FIELD_PREFIX = "field."
TOP_PREFIX = "field.top."
_SEAT_PATH = re.compile(r"^seats\.([A-Z])(?:\.(\w+))?(?:\[(\d+)\])?$")
_EVENT_PATH = re.compile(r"^events\[(\d+)\](?:\.(\w+))?(?:\[(\d+)\])?$")


def field_words(path: str) -> str | None:
    """``seats.S.concealed`` → ``南 S 的手牌`` / ``S 南 concealed tiles``; None if unknown."""
    zh = LANG.code == "zh"
    if known(TOP_PREFIX + path):
        return text(TOP_PREFIX + path, LANG.code)
    if m := _SEAT_PATH.match(path):
        seat = seat_name(m[1])
        if m[2] is None:
            return seat
        if not known(FIELD_PREFIX + m[2]):
            return None
        words = text(FIELD_PREFIX + m[2], LANG.code)
        return f"{seat} 的{words}" if zh else f"{seat} {words}"
    if m := _EVENT_PATH.match(path):
        n = int(m[1]) + 1
        if m[2] is None:
            return f"第 {n} 个事件" if zh else f"event {n}"
        if not known(FIELD_PREFIX + m[2]):
            return None
        words = text(FIELD_PREFIX + m[2], LANG.code)
        return f"第 {n} 个事件的{words}" if zh else f"event {n} {words}"
    return None


def problem_text(message: str) -> str:
    """A core message in the current language (unchanged if its shape is unknown)."""
    got = _match(_RULES, message)
    if got is None:
        return message
    return got[1] if LANG.code == "zh" else got[0]


def error_text(path: str, problem: str) -> str:
    """``seats.S.concealed`` + problem → ``南 S 的手牌：第 11 个字符 'z' 不是牌``."""
    return _placed(path, problem_text(problem))


def _placed(path: str, said: str) -> str:
    """A problem said in words after the words of its field (the path when it has none)."""
    where = field_words(path)
    sep = "：" if LANG.code == "zh" else ": "
    if where is None:
        return f"{path}{sep}{said}" if path else said
    return f"{where}{sep}{said}"


def is_translated(path: str | None, message: str) -> bool:
    """Whether :func:`error_text` has words for ``path`` and a rule for ``message``."""
    return (path is None or field_words(path) is not None) and \
        _match(_RULES, message) is not None


def shown_problem(clause: str, message: str, rule: bool | None = None,
                  violation: RuleViolation | None = None) -> tuple[str, str]:
    """(label, text) of a form problem: a rule's clause and its message (the engine's
    ``violation``, rendered from the catalogue), or — for a record that cannot be read
    (``rule`` False) — no clause and the field in words. ``rule`` None guesses from the
    clause (Ottawa's §-ids only)."""
    if violation is not None:
        return clause, violation_words(violation)
    if rule if rule is not None else clause.startswith("§"):
        return clause, problem_text(message)
    return "", error_text(clause, message)


def exception_text(e: BaseException) -> str:
    """A store or engine refusal (``field`` + ``problem``) in the referee's words; a fault
    outside the input (busy, disk full, read-only, damaged) as its one translated line."""
    from .faults import fault_text

    fault = fault_text(e)
    if fault is not None:
        return fault
    if isinstance(e, FieldError) and (said := message_text(e)) is not None:
        return _placed(e.field, said)
    field = getattr(e, "field", None)
    problem = getattr(e, "problem", None)
    if isinstance(field, str) and isinstance(problem, str):
        return error_text(field, problem)
    return problem_text(str(e))


#: the desk's own wording of a message (``error.desk.<code>``), where the CLI's English
#: names a command-line option the desk has no use for
DESK_VARIANT = "desk."


def message_text(e: FieldError) -> str | None:
    """A refusal that is data (its ``code`` a message of the catalogue) in the current
    language, from its code and parameters; None for an error that is not (yet) one."""
    code = e.message_code
    if code is None:
        return None
    if known(MESSAGE_PREFIX + DESK_VARIANT + code):
        code = DESK_VARIANT + code
    fields = {name.split(".")[0].split("[")[0] for _, name, _, _ in
              Formatter().parse(text(MESSAGE_PREFIX + code, "en")) if name}
    if not fields <= set(e.params):  # rebuilt without its values (an old outbox entry)
        return None
    return render_message(code, e.params, LANG.code)


@message_rule(r"unknown field; did you mean '(\w+)'\?")
def _(m):
    return (f"not a field of a hand record; did you mean '{m[1]}'?",
            f"不是牌局记录的字段；您是想写 '{m[1]}' 吗？")


# ---------------------------------------------------------------- store lines shown as they are
def _reason(text: str) -> str:
    """A payment's reason inside a store line, known only as its stored English until the
    store's statement lines carry codes: read back against the catalogue's own texts."""
    from referee_app.core.wording import Words, stored_reason, tile_word

    got = stored_reason(text)
    if got is None:
        return text
    return Words(LANG.code, None, tile_word(LANG.code)).say("reason.", *got)


@message_rule(r"(§[\w.]+) ([+-]\d+) from ([ESWN]): (.*)")
def _(m):
    return (f"{m[1]} {m[2]} from {_s(m, 3)}: {_reason(m[4])}",
            f"{m[1]} {m[2]} 来自 {_s(m, 3)}：{_reason(m[4])}")


@message_rule(r"(§[\w.]+) ([+-]\d+) to ([ESWN]): (.*)")
def _(m):
    return (f"{m[1]} {m[2]} to {_s(m, 3)}: {_reason(m[4])}",
            f"{m[1]} {m[2]} 付给 {_s(m, 3)}：{_reason(m[4])}")


@message_rule(r"override: (.*)")
def _(m):
    return (f"override: {m[1]}", f"裁判长裁定：{m[1]}")


@message_rule(r"(§[\w.]+ )?penalty #(\d+): (?:share of a zero-sum penalty on (.*): )?(.*)")
def _(m):
    share_en = f"share of a zero-sum penalty on {m[3]}: " if m[3] else ""
    share_zh = f"分摊 {m[3]} 的零和罚分：" if m[3] else ""
    return (f"{m[1] or ''}penalty #{m[2]}: {share_en}{m[4]}",
            f"{m[1] or ''}罚分 #{m[2]}：{share_zh}{m[4]}")


@message_rule(rf"table (\d+) {_S}: seat is empty")
def _(m):
    return (f"table {m[1]} {_s(m, 2)}: seat is empty", f"第{m[1]}桌 {_s(m, 2)}：座位空缺")


@message_rule(rf"table (\d+) {_S}: (.+) has withdrawn")
def _(m):
    return (f"table {m[1]} {_s(m, 2)}: {m[3]} has withdrawn",
            f"第{m[1]}桌 {_s(m, 2)}：{m[3]} 已退赛")


@message_rule(rf"table (\d+) {_S}: (.+) is absent")
def _(m):
    return (f"table {m[1]} {_s(m, 2)}: {m[3]} is absent",
            f"第{m[1]}桌 {_s(m, 2)}：{m[3]} 缺席")


def impact_text(imp: object) -> str:
    """An :class:`~referee_app.storage.impact.AmendImpact` in the referee's words."""
    from .i18n import tr

    zh = LANG.code == "zh"
    head = tr("amending", a=imp.version_from, b=imp.version_to)  # type: ignore[attr-defined]
    if imp.totals_after is None:  # type: ignore[attr-defined]
        return f"{head} · {tr('impact_breaks')}"
    changes = imp.seat_changes  # type: ignore[attr-defined]
    players = imp.players  # type: ignore[attr-defined]
    parts = [f"{seat_name(s)} {players.get(s, '')} "
             f"{imp.totals_before.get(s, 0):+d} → {imp.totals_after.get(s, 0):+d}"  # type: ignore[attr-defined]
             for s, d in changes.items() if d]
    totals = ("；" if zh else "; ").join(parts) if parts else tr("impact_no_change")
    ranks = [f"{r.player} {r.rank_before} → {r.rank_after}"
             for r in imp.rank_changes]  # type: ignore[attr-defined]
    rank_text = ("，" if zh else ", ").join(ranks) if ranks else tr("impact_no_rank")
    return f"{head} · {tr('impact_totals')}{totals}\n{tr('impact_ranks')}{rank_text}"


# ---------------------------------------------------------------- events as verification compares them
#: a kong's kind in a compared event is the catalogue's ``kong_kind.<kind>``
KONG_KIND_PREFIX = "kong_kind."


@message_rule(rf"kong {_S} ([1-9]+[mps]) (concealed|added|direct)(?: from {_S})?")
def _(m):
    en, zh = text(KONG_KIND_PREFIX + m[3], "en"), text(KONG_KIND_PREFIX + m[3], "zh")
    frm_en = f" from {_s(m, 4)}" if m[4] else ""
    frm_zh = f"（{_s(m, 4)} 点杠）" if m[4] else ""
    return f"{_s(m, 1)} {en} kong {m[2]}{frm_en}", f"{_s(m, 1)} {zh} {m[2]}{frm_zh}"


@message_rule(r"win ([ESWN](?:,[ESWN])*) ([1-9]+[mps])(?: from ([ESWN])| self-drawn)"
       r"(?: \[([a-z_, ]+)\])?(?: passed (\d+))?")
def _(m):
    seats = [seat_name(x) for x in m[1].split(",")]
    flags = [f.strip() for f in (m[4] or "").split(",") if f.strip()]
    if any(not known(FLAG_PREFIX + f) for f in flags):
        raise _Untranslated(m[0])
    fl_en = f" [{', '.join(f.replace('_', ' ') for f in flags)}]" if flags else ""
    fl_zh = f"［{'、'.join(text(FLAG_PREFIX + f, 'zh') for f in flags)}］" if flags else ""
    pf_en = f" (passed {m[5]} fan)" if m[5] else ""
    pf_zh = f"（过水 {m[5]} 番）" if m[5] else ""
    if m[3]:
        return (f"{'+'.join(seats)} win on {seat_name(m[3])}'s {m[2]}{fl_en}{pf_en}",
                f"{'、'.join(seats)} 和 {seat_name(m[3])} 打出的 {m[2]}{fl_zh}{pf_zh}")
    return (f"{'+'.join(seats)} self-drawn {m[2]}{fl_en}{pf_en}",
            f"{'、'.join(seats)} 自摸 {m[2]}{fl_zh}{pf_zh}")
