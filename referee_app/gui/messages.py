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

from referee_app.core.errors import MESSAGE_PREFIX, FieldError
from referee_app.core.errors import render as render_message
from referee_app.core.i18n import known, text

from .i18n import LANG, seat_name

_S = r"([ESWN])"
_SS = r"((?:[ESWN](?:, [ESWN])*)|nobody)"
_T = r"([1-9][mps])"

Render = Callable[[re.Match[str]], tuple[str, str]]


def _seats(text: str) -> str:
    if text == "nobody":
        return "无人" if LANG.code == "zh" else "nobody"
    return "、".join(seat_name(s) for s in text.split(", ")) if LANG.code == "zh" else \
        ", ".join(seat_name(s) for s in text.split(", "))


def _s(m: re.Match[str], i: int) -> str:
    return seat_name(m.group(i))


#: a win flag's name is the desk's ``flag_<name>`` (中文 only here: the English keeps the id)
FLAG_PREFIX = "flag_"

#: (pattern, render) — render returns (English, 中文) for the current seat names
_RULES: list[tuple[re.Pattern[str], Render]] = []


def _rule(pattern: str) -> Callable[[Render], Render]:
    def add(fn: Render) -> Render:
        _RULES.append((re.compile(f"^{pattern}$"), fn))
        return fn
    return add


# ---------------------------------------------------------------- tile notation (TileParseError)
@_rule(r"unexpected character '(.+)' at position (\d+)")
def _(m):  # noqa: ANN001, ANN202
    return (f"character {m[2]} '{m[1]}' is not a tile",
            f"第 {m[2]} 个字符 '{m[1]}' 不是牌")


@_rule(r"'0' at position (\d+) is not a tile rank \(ranks are 1-9\)")
def _(m):  # noqa: ANN001, ANN202
    return (f"character {m[1]} '0' is not a rank (ranks are 1–9)",
            f"第 {m[1]} 个字符 '0' 不是点数（点数为 1–9）")


@_rule(r"suit '(.+)' at position (\d+) has no digits before it")
def _(m):  # noqa: ANN001, ANN202
    return (f"suit '{m[1]}' at character {m[2]} has no digits before it",
            f"第 {m[2]} 个字符的花色 '{m[1]}' 前面没有数字")


@_rule(r"digits from position (\d+) have no suit letter after them")
def _(m):  # noqa: ANN001, ANN202
    return (f"the digits from character {m[1]} need a suit letter after them (m, p or s)",
            f"从第 {m[1]} 个字符起的数字后面缺少花色（m 万、p 筒、s 条）")


@_rule(r"expected exactly one tile, got (\d+) in '(.*)'")
def _(m):  # noqa: ANN001, ANN202
    return (f"write exactly one tile (got {m[1]} in '{m[2]}')",
            f"只能写一张牌（'{m[2]}' 中有 {m[1]} 张）")


@_rule(r"must hold exactly one tile, got (\d+) in '(.*)'")
def _(m):  # noqa: ANN001, ANN202
    return (f"write exactly one tile (got {m[1]} in '{m[2]}')",
            f"只能写一张牌（'{m[2]}' 中有 {m[1]} 张）")


# ---------------------------------------------------------------- record shape (RecordError)
@_rule(r"nothing is entered yet")
def _(m):  # noqa: ANN001, ANN202
    return ("nothing is entered yet — type each seat's tiles", "尚未录入 — 请输入各家的牌")


@_rule(r"required field is missing")
def _(m):  # noqa: ANN001, ANN202
    return ("missing", "未填写")


@_rule(r"a win needs at least one winning seat")
def _(m):  # noqa: ANN001, ANN202
    return ("a win needs at least one winner", "和牌至少要有一位和牌者")


@_rule(r"a direct kong needs the discarder in 'from'")
def _(m):  # noqa: ANN001, ANN202
    return ("a direct kong needs the discarder", "直杠需要写明点杠者")


@_rule(r"an (\w+) kong has no discarder; .*")
def _(m):  # noqa: ANN001, ANN202
    return (f"an {m[1]} kong has no discarder", "暗杠/补杠没有点杠者")


@_rule(r"unknown seat '(.*)' \(seats are .*\)")
def _(m):  # noqa: ANN001, ANN202
    return (f"'{m[1]}' is not a seat", f"'{m[1]}' 不是座位")


# ---------------------------------------------------------------- rules (settle errors)
@_rule(rf"the hand is not finished: {_SS} are unwon and wall_exhausted is not set")
def _(m):  # noqa: ANN001, ANN202
    return (f"the hand is not finished: {_seats(m[1])} have not won and 'Wall exhausted' is "
            "not ticked",
            f"本局未结束：{_seats(m[1])} 未和牌，且未勾选“流局/牌墙摸完”")


@_rule(r"event (\d+) comes after the hand is over \((.*)\)")
def _(m):  # noqa: ANN001, ANN202
    zh = "首家和牌即结束" if m[2].startswith("first") else "只剩一家未和牌"
    return (f"event {m[1]} comes after the hand is over ({m[2]})",
            f"第 {m[1]} 个事件发生在本局结束之后（{zh}）")


@_rule(rf"{_S} declares a kong of {_T} after it has won")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} kongs {m[2]} after having won", f"{_s(m, 1)} 和牌后不能再杠 {m[2]}")


@_rule(rf"{_S} cannot kong its own discard of {_T}")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} cannot kong its own discard {m[2]}", f"{_s(m, 1)} 不能杠自己打出的 {m[2]}")


@_rule(rf"{_S} has already won and cannot discard the {_T} that {_S} kongs")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} has already won and cannot discard the {m[2]} {_s(m, 3)} kongs",
            f"{_s(m, 1)} 已和牌，不能打出 {_s(m, 3)} 所杠的 {m[2]}")


@_rule(rf"{_S} holds (\d+) tiles before its winning tile \((\d+) concealed, (\d+) pong\(s\) "
       rf"and (\d+) kong\(s\) at 3 each\); a winner holds 13")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} holds {m[2]} tiles before the winning tile ({m[3]} concealed, {m[4]} "
            f"pongs, {m[5]} kongs at 3 each); a winner holds 13",
            f"{_s(m, 1)} 和牌前有 {m[2]} 张牌（手牌 {m[3]} 张，碰 {m[4]} 副，杠 {m[5]} 副各计 3 张）；"
            "和牌者应为 13 张")


@_rule(rf"{_S}'s winning hand holds all three suits \(false win, 诈和\)")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)}'s winning hand holds all three suits (false win)",
            f"{_s(m, 1)} 的和牌三门齐全（诈和）")


@_rule(rf"{_S} is listed twice in one win")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} is listed twice in one win", f"{_s(m, 1)} 在同一次和牌中出现两次")


@_rule(rf"{_S} wins a second time; a seat wins at most once")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} wins a second time; a seat wins at most once",
            f"{_s(m, 1)} 第二次和牌；每家最多和一次")


@_rule(r"a self-drawn win by several seats \((.*)\); only one seat can self-draw a tile")
def _(m):  # noqa: ANN001, ANN202
    return (f"a self-drawn win by several seats ({_seats(m[1])}); only one can self-draw",
            f"多家同时自摸（{_seats(m[1])}）；只有一家能自摸")


@_rule(rf"{_S} cannot win on its own discard of {_T}")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} cannot win on its own discard {m[2]}",
            f"{_s(m, 1)} 不能和自己打出的 {m[2]}")


@_rule(rf"{_S} has already won and cannot discard {_T}")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} has already won and cannot discard {m[2]}",
            f"{_s(m, 1)} 已和牌，不能打出 {m[2]}")


@_rule(rf"{_S}'s tiles with {_T} form no legal winning hand \(four sets and a pair, or seven "
       r"pairs\)")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)}'s tiles with {m[2]} are not a winning hand (four sets and a pair, "
            "or seven pairs)",
            f"{_s(m, 1)} 的牌加 {m[2]} 不成和牌（四副加一对，或七对）")


@_rule(rf"{_S} passed a win earlier in the go-around and may not win on a discard before its "
       r"next draw")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} passed a win this go-around and may not win on a discard before "
            "drawing", f"{_s(m, 1)} 本圈已过水，摸牌前不能和别人打出的牌")


@_rule(rf"{_S} passed a win of (\d+) fan earlier in the go-around and may win on a discard only "
       r"with more fan, but this win is (\d+) fan")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} passed a win of {m[2]} fan this go-around; this win is only {m[3]} fan",
            f"{_s(m, 1)} 本圈过水 {m[2]} 番，此次和牌只有 {m[3]} 番，须番数更高才能和")


@_rule(r"robbing_kong needs 'from': the seat whose added kong was robbed")
def _(m):  # noqa: ANN001, ANN202
    return ("robbing the kong needs the seat whose added kong was robbed",
            "抢杠需要写明被抢杠的一家")


@_rule(rf"{_S} holds no pong of {_T}, so it had no added kong of {_T} to rob")
def _(m):  # noqa: ANN001, ANN202
    return (f"{_s(m, 1)} has no pong of {m[2]}, so there was no added kong to rob",
            f"{_s(m, 1)} 没有碰 {m[2]}，无补杠可抢")


@_rule(r"kong_bloom \(杠上花\) is a self-drawn win, but this win is on a discard")
def _(m):  # noqa: ANN001, ANN202
    return ("kong bloom is a self-drawn win, but this win is on a discard",
            "杠上花是自摸，但此次和牌是点炮")


@_rule(rf"kong_bloom \(杠上花\): the event just before is not a kong by {_S}")
def _(m):  # noqa: ANN001, ANN202
    return (f"kong bloom: the event just before is not a kong by {_s(m, 1)}",
            f"杠上花：前一个事件不是 {_s(m, 1)} 的杠")


@_rule(r"kong_discard \(杠上炮\) is a win on a discard, but this win is self-drawn")
def _(m):  # noqa: ANN001, ANN202
    return ("kong discard is a win on a discard, but this win is self-drawn",
            "杠上炮是点炮和，但此次和牌是自摸")


@_rule(rf"kong_discard \(杠上炮\): the event just before is not a kong by {_S}")
def _(m):  # noqa: ANN001, ANN202
    return (f"kong discard: the event just before is not a kong by {_s(m, 1)}",
            f"杠上炮：前一个事件不是 {_s(m, 1)} 的杠")


_WHY: list[tuple[re.Pattern[str], Render]] = []
WHY_PREFIX = "why."


def _why(pattern: str, key: str) -> None:
    """A reason a special win is impossible: ``pattern`` of the engine's English, its words
    the catalogue's ``why.<key>`` (fields ``{s}`` seat, ``{t}`` tiles)."""
    def render(m: re.Match[str]) -> tuple[str, str]:
        seat = _s(m, 1) if m.groups() else ""
        tiles = m[2] if (m.lastindex or 0) >= 2 else ""
        return (text(WHY_PREFIX + key, "en", s=seat, t=tiles),
                text(WHY_PREFIX + key, "zh", s=seat, t=tiles))
    _WHY.append((re.compile(f"^{pattern}$"), render))


_why(rf"{_S} is not the dealer", "not_dealer")
_why(rf"{_S} is the dealer", "is_dealer")
_why(rf"{_S} has a pong or kong", "has_meld")
_why("the win is not self-drawn", "not_self_drawn")
_why("it is not the first event of the hand", "not_first_event")
_why("the win is shared with another seat", "shared_win")
_why("a kong precedes the win", "kong_before")
_why("the win is not on the dealer's discard", "not_dealer_discard")
_why("the dealer cannot win on its own first discard", "dealer_own_discard")
_why("only the dealer's concealed kongs may precede its first discard", "dealer_concealed_only")
_why(rf"{_S} holds a pong of ((?:[1-9][mps])(?:, [1-9][mps])*)", "holds_pong")
_why(rf"{_S} holds a kong", "holds_kong")
_why("another event precedes the dealer's first discard", "event_before_dealer")

#: the engine's name of an impossible special win -> its catalogue key
_IMPOSSIBLE = {"heavenly win (天和)": "impossible.heavenly",
               "earthly win (地和)": "impossible.earthly",
               "第一和 (first discard win)": "impossible.first_discard"}


@_rule(r"(heavenly win \(天和\)|earthly win \(地和\)|第一和 \(first discard win\)) impossible: "
       r"(.*)")
def _(m):  # noqa: ANN001, ANN202
    en, zh = text(_IMPOSSIBLE[m[1]], "en"), text(_IMPOSSIBLE[m[1]], "zh")
    parts_en, parts_zh = [], []
    for why in m[2].split("; "):
        got = _match(_WHY, why)
        if got is None:
            raise _Untranslated(why)
        parts_en.append(got[0])
        parts_zh.append(got[1])
    return f"{en}: " + "; ".join(parts_en), f"{zh}：" + "；".join(parts_zh)


#: what a declared-ready seat may not have -> its catalogue key
_DECLARED_MELD = {"a pong": "declared.pong", "a direct kong": "declared.direct_kong",
                  "an added kong": "declared.added_kong"}
_DECLARED_ITEM = re.compile(rf"^(a pong|a direct kong|an added kong) of {_T}$")


@_rule(rf"{_S} declared a ready hand \(报调\) and cannot have (.+): a declared hand does not "
       r"change")
def _(m):  # noqa: ANN001, ANN202
    en, zh = [], []
    for item in m[2].split(", "):
        got = _DECLARED_ITEM.match(item)
        if got is None:
            raise _Untranslated(item)
        words = (text(_DECLARED_MELD[got[1]], "en"), text(_DECLARED_MELD[got[1]], "zh"))
        en.append(f"{words[0]} of {got[2]}")
        zh.append(f"{words[1]} {got[2]}")
    return (f"{_s(m, 1)} declared ready (报调) and cannot have {', '.join(en)}",
            f"{_s(m, 1)} 已报调，不能有{'、'.join(zh)}")


@_rule(rf"{_T} appears (\d+) times in the record; there are only four of each tile")
def _(m):  # noqa: ANN001, ANN202
    return (f"{m[1]} appears {m[2]} times; there are only four of each tile",
            f"{m[1]} 出现 {m[2]} 次；每种牌只有四张")


@_rule(rf"{_T} is not a tile of this ruleset \(suits (.*)\)")
def _(m):  # noqa: ANN001, ANN202
    return (f"{m[1]} is not a tile of this ruleset (suits {m[2]})",
            f"{m[1]} 不是本规则使用的牌（花色 {m[2]}）")


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


def shown_problem(clause: str, message: str, rule: bool | None = None) -> tuple[str, str]:
    """(label, text) of a form problem: a rule's clause and its message, or — for a record
    that cannot be read (``rule`` False) — no clause and the field in words. ``rule`` None
    guesses from the clause (Ottawa's §-ids only)."""
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
    return render_message(code, e.params, LANG.code)


@_rule(r"unknown field; did you mean '(\w+)'\?")
def _(m):  # noqa: ANN001, ANN202
    return (f"not a field of a hand record; did you mean '{m[1]}'?",
            f"不是牌局记录的字段；您是想写 '{m[1]}' 吗？")


# ---------------------------------------------------------------- store lines shown as they are
def _reason(text: str) -> str:
    from .i18n import reason_text

    return reason_text(text)


@_rule(r"(§[\w.]+) ([+-]\d+) from ([ESWN]): (.*)")
def _(m):  # noqa: ANN001, ANN202
    return (f"{m[1]} {m[2]} from {_s(m, 3)}: {_reason(m[4])}",
            f"{m[1]} {m[2]} 来自 {_s(m, 3)}：{_reason(m[4])}")


@_rule(r"(§[\w.]+) ([+-]\d+) to ([ESWN]): (.*)")
def _(m):  # noqa: ANN001, ANN202
    return (f"{m[1]} {m[2]} to {_s(m, 3)}: {_reason(m[4])}",
            f"{m[1]} {m[2]} 付给 {_s(m, 3)}：{_reason(m[4])}")


@_rule(r"override: (.*)")
def _(m):  # noqa: ANN001, ANN202
    return (f"override: {m[1]}", f"裁判长裁定：{m[1]}")


@_rule(r"(§[\w.]+ )?penalty #(\d+): (?:share of a zero-sum penalty on (.*): )?(.*)")
def _(m):  # noqa: ANN001, ANN202
    share_en = f"share of a zero-sum penalty on {m[3]}: " if m[3] else ""
    share_zh = f"分摊 {m[3]} 的零和罚分：" if m[3] else ""
    return (f"{m[1] or ''}penalty #{m[2]}: {share_en}{m[4]}",
            f"{m[1] or ''}罚分 #{m[2]}：{share_zh}{m[4]}")


@_rule(rf"table (\d+) {_S}: seat is empty")
def _(m):  # noqa: ANN001, ANN202
    return (f"table {m[1]} {_s(m, 2)}: seat is empty", f"第{m[1]}桌 {_s(m, 2)}：座位空缺")


@_rule(rf"table (\d+) {_S}: (.+) has withdrawn")
def _(m):  # noqa: ANN001, ANN202
    return (f"table {m[1]} {_s(m, 2)}: {m[3]} has withdrawn",
            f"第{m[1]}桌 {_s(m, 2)}：{m[3]} 已退赛")


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


@_rule(rf"kong {_S} ([1-9]+[mps]) (concealed|added|direct)(?: from {_S})?")
def _(m):  # noqa: ANN001, ANN202
    en, zh = text(KONG_KIND_PREFIX + m[3], "en"), text(KONG_KIND_PREFIX + m[3], "zh")
    frm_en = f" from {_s(m, 4)}" if m[4] else ""
    frm_zh = f"（{_s(m, 4)} 点杠）" if m[4] else ""
    return f"{_s(m, 1)} {en} kong {m[2]}{frm_en}", f"{_s(m, 1)} {zh} {m[2]}{frm_zh}"


@_rule(r"win ([ESWN](?:,[ESWN])*) ([1-9]+[mps])(?: from ([ESWN])| self-drawn)"
       r"(?: \[([a-z_, ]+)\])?(?: passed (\d+))?")
def _(m):  # noqa: ANN001, ANN202
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
