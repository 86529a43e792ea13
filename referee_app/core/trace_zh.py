"""Chinese renderings of the engine's trace lines and payment reasons.

The settlement JSON keeps English (it is the interchange format); a referee working in 中文
reads the same lines through :func:`trace_line_zh` and :func:`reason_zh`. Each rule below
matches one trace template of :mod:`.settle`; a test renders the traces of thousands of
generated hands under every ruleset and fails on any line left untranslated, so a new or
reworded template cannot slip through.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from .tiles import TILES, parse_indices

SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
_SEAT = r"[ESWN]"
_SEATS = r"(?:[ESWN](?:, [ESWN])*|nobody)"
_TILE = r"[1-9][mps]"
_KIND_ZH = {"direct": "直杠", "added": "补杠", "concealed": "暗杠"}
_WHY_ZH = {"相公, wrong tile count": "相公", "flower pig": "花猪", "not ready": "未下叫"}


def _t(name: str) -> str:
    """``9s`` -> ``九条``."""
    return TILES[parse_indices(name)[0]].chinese


def _s(seat: str) -> str:
    return SEAT_ZH.get(seat, seat)


def _ss(seats: str) -> str:
    if seats == "nobody":
        return "无人"
    return "、".join(_s(x) for x in seats.split(", "))


Rule = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]


def _rule(pattern: str, render: Callable[[re.Match[str]], str]) -> Rule:
    return re.compile(pattern), render


_RULES: list[Rule] = [
    _rule(rf"(?P<s>{_SEAT}) declares a direct kong of (?P<t>{_TILE}) on (?P<f>{_SEAT})'s "
          rf"discard; (?P=f) pays (?P<n>\d+)",
          lambda m: f"{_s(m['s'])}直杠{_t(m['t'])}（{_s(m['f'])}打出）；{_s(m['f'])}付{m['n']}"),
    _rule(rf"(?P<s>{_SEAT}) declares a direct kong of (?P<t>{_TILE}) on (?P<f>{_SEAT})'s "
          r"discard; no payment under this ruleset",
          lambda m: f"{_s(m['s'])}直杠{_t(m['t'])}（{_s(m['f'])}打出）；本规则不收杠钱"),
    _rule(rf"(?P<s>{_SEAT}) declares an? (?P<k>added|concealed) kong of (?P<t>{_TILE}); "
          rf"(?P<p>{_SEATS}) (?:is|are) unwon and pays? (?P<n>\d+)(?: each)?",
          lambda m: f"{_s(m['s'])}{_KIND_ZH[m['k']]}{_t(m['t'])}；未和的{_ss(m['p'])}"
                    f"各付{m['n']}"),
    _rule(rf"(?P<s>{_SEAT}) declares an? (?P<k>added|concealed) kong of (?P<t>{_TILE}); "
          r"no payment under this ruleset",
          lambda m: f"{_s(m['s'])}{_KIND_ZH[m['k']]}{_t(m['t'])}；本规则不收杠钱"),
    _rule(rf"(?P<s>{_SEAT}) wins (?:on (?P<f>{_SEAT})'s discard|self-drawn) (?P<t>{_TILE}): "
          r"(?P<parts>.+) = (?P<fan>\d+) fan(?: \(capped from (?P<raw>\d+)\))? = "
          r"(?P<c>\d+) chips?",
          lambda m: (f"{_s(m['s'])}"
                     + (f"和{_s(m['f'])}打出的{_t(m['t'])}" if m["f"] else f"自摸{_t(m['t'])}")
                     + f"：{m['parts']} = {m['fan']}番"
                     + (f"（封顶，原{m['raw']}番）" if m["raw"] else "")
                     + f" = {m['c']}筹码")),
    _rule(rf"(?P<s>{_SEAT}): (?P<name>\S+) \+(?P<n>\d+) fan",
          lambda m: f"{_s(m['s'])}：{m['name']} 加{m['n']}番"),
    _rule(rf"(?P<f>{_SEAT}) discarded (?P<t>{_TILE}) to (?P<s>{_SEAT}); (?P=f) pays (?P=s) "
          r"(?P<n>\d+)",
          lambda m: f"{_s(m['f'])}打出{_t(m['t'])}点炮给{_s(m['s'])}；{_s(m['f'])}付"
                    f"{_s(m['s'])} {m['n']}"),
    _rule(rf"(?P<f>{_SEAT}) had its added kong robbed by (?P<s>{_SEAT}); (?P=f) pays (?P=s) "
          r"(?P<n>\d+)",
          lambda m: f"{_s(m['f'])}补杠被{_s(m['s'])}抢杠；{_s(m['f'])}付{_s(m['s'])} {m['n']}"),
    _rule(rf"(?P<f>{_SEAT})'s added-kong tax on (?P<t>{_TILE}) goes to the robber "
          rf"(?P<s>{_SEAT}): (?:nobody pays|(?P<p>{_SEATS}) pays? (?P<n>\d+)(?: each)?)",
          lambda m: f"{_s(m['f'])}补杠{_t(m['t'])}的税款转给抢杠者{_s(m['s'])}："
                    + (f"{_ss(m['p'])}各付{m['n']}" if m["p"] else "无人需付")),
    _rule(rf"(?P<s>{_SEAT})'s 杠上花 follows a direct kong on (?P<f>{_SEAT})'s discard; "
          r"(?P=f) pays alone (?P<n>\d+)",
          lambda m: f"{_s(m['s'])}点杠花（{_s(m['f'])}点杠）；{_s(m['f'])}独付{m['n']}"),
    _rule(rf"(?P<s>{_SEAT}) self-draws (?P<t>{_TILE}); (?:nobody pays|(?P<p>{_SEATS}) pays? "
          r"(?P<n>\d+)(?: each)?)",
          lambda m: f"{_s(m['s'])}自摸{_t(m['t'])}；"
                    + (f"{_ss(m['p'])}各付{m['n']}" if m["p"] else "无人需付")),
    _rule(rf"(?P<s>{_SEAT})'s self-draw adds (?P<a>\d+) per payer \(自摸加底\); "
          rf"(?:nobody pays|(?P<p>{_SEATS}) pays? (?P<n>\d+)(?: each)?)",
          lambda m: f"{_s(m['s'])}自摸加底：每家另付{m['a']}；"
                    + (f"{_ss(m['p'])}各付{m['n']}" if m["p"] else "无人需付")),
    _rule(rf"(?P<f>{_SEAT})'s kong just collected (?P<n>\d+); it hands that to "
          rf"(?P<w>{_SEATS}) \((?P<e>\d+) each\)",
          lambda m: f"呼叫转移：{_s(m['f'])}把刚收的杠钱{m['n']}转给{_ss(m['w'])}"
                    f"（各{m['e']}）"),
    _rule(rf"(?P<s>{_SEAT}) is ready on (?P<w>[1-9mps ]+); maximum (?P<n>\d+) fan",
          lambda m: f"{_s(m['s'])}下叫，叫{'、'.join(_t(x) for x in m['w'].split())}；"
                    f"最大{m['n']}番"),
    _rule(rf"(?P<s>{_SEAT}) holds the wrong number of tiles \(相公\) and cannot be ready",
          lambda m: f"{_s(m['s'])}相公（牌数不对），不能下叫"),
    _rule(rf"(?P<s>{_SEAT}) is not ready",
          lambda m: f"{_s(m['s'])}未下叫"),
    _rule(rf"(?P<s>{_SEAT}) holds all three suits at the wall's end \(flower pig\); pays "
          rf"(?P<n>\d+) to each of (?P<p>{_SEATS})",
          lambda m: f"{_s(m['s'])}查花猪（三门齐全）；付{_ss(m['p'])}各{m['n']}"),
    _rule(rf"(?P<s>{_SEAT}) is not ready(?: \((?P<why>[^)]+)\))?; pays (?P<r>{_SEAT}) "
          r"(?P<n>\d+) for (?P=r)'s maximum (?P<f>\d+) fan",
          lambda m: f"{_s(m['s'])}查叫（{_WHY_ZH.get(m['why'] or 'not ready', m['why'])}）：按"
                    f"{_s(m['r'])}最大{m['f']}番付{_s(m['r'])} {m['n']}"),
    _rule(rf"(?P<a>{_SEAT}) \((?P<x>\d+) fan\) pays (?P<b>{_SEAT}) \((?P<y>\d+) fan\) the "
          r"difference (?P<n>\d+)",
          lambda m: f"补差价：{_s(m['a'])}（{m['x']}番）付{_s(m['b'])}（{m['y']}番）{m['n']}"),
    _rule(rf"(?P<s>{_SEAT}) is not ready and returns its kong income: (?P<l>.+)",
          lambda m: f"{_s(m['s'])}未下叫，退还刮风下雨所得："
                    + "、".join(f"退{_s(x.split(' to ')[1])} {x.split(' to ')[0]}"
                               for x in m["l"].split(", "))),
]


def trace_line_zh(line: str) -> str:
    """The Chinese rendering of one trace line; an unknown line is returned unchanged."""
    clause, _, rest = line.partition(" ")
    for pattern, render in _RULES:
        m = pattern.fullmatch(rest)
        if m:
            return f"{clause} {render(m)}"
    return line


def is_translated(line: str) -> bool:
    _, _, rest = line.partition(" ")
    return any(p.fullmatch(rest) for p, _ in _RULES)


_REASONS: list[Rule] = [
    _rule(rf"(?P<k>direct|added|concealed) kong (?P<t>{_TILE})",
          lambda m: f"{_KIND_ZH[m['k']]} {_t(m['t'])}"),
    _rule(rf"discard win (?P<t>{_TILE})", lambda m: f"点炮 {_t(m['t'])}"),
    _rule(rf"robbed kong (?P<t>{_TILE})", lambda m: f"抢杠 {_t(m['t'])}"),
    _rule(rf"robbed kong tax (?P<t>{_TILE})", lambda m: f"抢杠转税 {_t(m['t'])}"),
    _rule(rf"self-drawn win (?P<t>{_TILE})", lambda m: f"自摸 {_t(m['t'])}"),
    _rule(rf"self-draw extra (?P<t>{_TILE})", lambda m: f"自摸加底 {_t(m['t'])}"),
    _rule(rf"kong bloom after direct kong (?P<t>{_TILE})", lambda m: f"点杠花 {_t(m['t'])}"),
    _rule(r"kong discard transfer", lambda m: "杠上炮呼叫转移"),
    _rule(r"flower pig", lambda m: "查花猪"),
    _rule(rf"ready check: (?P<s>{_SEAT}) max (?P<n>\d+) fan",
          lambda m: f"查叫：{_s(m['s'])}最大{m['n']}番"),
    _rule(rf"price difference: (?P<a>{_SEAT}) (?P<x>\d+) fan, (?P<b>{_SEAT}) (?P<y>\d+) fan",
          lambda m: f"补差价：{_s(m['a'])} {m['x']}番，{_s(m['b'])} {m['y']}番"),
    _rule(r"refund: (?P<r>.+)", lambda m: f"退税：{reason_zh(m['r'])}"),
]


def reason_zh(reason: str) -> str:
    """The Chinese rendering of a payment's reason; an unknown one is returned unchanged."""
    for pattern, render in _REASONS:
        m = pattern.fullmatch(reason)
        if m:
            return render(m)
    return reason
