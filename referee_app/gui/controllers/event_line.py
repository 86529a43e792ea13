"""A hand's events typed as one line: ``k S 9s; w N 7p W; w E 1m; x``.

Parts are separated by ``;`` or ``,``; spaces inside a part are optional:

* kong: ``k`` seat tile [kind] [from] — kind ``c`` concealed (default), ``a`` added,
  ``d`` direct (then the discarder's seat follows): ``kS9s``, ``k S 5p a``, ``kN3md W``;
* win: ``w`` winners tile [from] [flags] — no discarder means self-drawn; several winners
  are written together (``w ESW 5p N``); flags are ``+`` and the letter the win dialog
  underlines (``+r`` robbing the kong, ``+b`` kong bloom, ``+g`` kong discard, ``+t``
  declared ready, ``+f`` first discard, ``+h`` heavenly, ``+e`` earthly);
* ``x``: the wall was exhausted.

Seats are E S W N (or 东 南 西 北), in either case. The line only builds event dicts: the
engine judges them exactly as if they came from the dialogs.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

#: flag -> its one-letter key (the mnemonic shown in the win dialog), most common first
FLAG_KEYS: dict[str, str] = {
    "robbing_kong": "r",
    "kong_bloom": "b",
    "kong_discard": "g",
    "declared_ready": "t",
    "first_discard": "f",
    "heavenly": "h",
    "earthly": "e",
}
_KEY_FLAG = {v: k for k, v in FLAG_KEYS.items()}
_SEAT = {"e": "E", "s": "S", "w": "W", "n": "N", "东": "E", "南": "S", "西": "W", "北": "N"}
_KIND = {"c": "concealed", "a": "added", "d": "direct", "暗": "concealed", "补": "added",
         "直": "direct"}
_PART = re.compile(
    r"^(?P<type>[kw杠和胡])(?P<seats>[eswn东南西北]*)(?P<tile>\d(?:[mps]|万|筒|条|饼|索))"
    r"(?P<kind>[cad暗补直])?(?P<frm>[eswn东南西北])?(?P<flags>(?:\+[a-z])*)$", re.IGNORECASE)


class EventLineError(ValueError):
    """Part ``part`` (1-based) of the line cannot be read; ``msg_id`` names the problem."""

    def __init__(self, msg_id: str, part: int, text: str) -> None:
        super().__init__(f"{msg_id}: part {part} {text!r}")
        self.msg_id = msg_id
        self.part = part
        self.text = text


@dataclass
class EventLine:
    events: list[dict[str, Any]] = field(default_factory=list)
    wall_exhausted: bool = False


def parse_event_line(line: str) -> EventLine:
    """The events of ``line`` (see the module text); :class:`EventLineError` names the part."""
    out = EventLine()
    parts = [p for p in re.split(r"[;,；，]", line)]
    for i, raw in enumerate(parts, start=1):
        text = re.sub(r"\s+", "", raw)
        if not text:
            continue
        if text.lower() in ("x", "流"):
            out.wall_exhausted = True
            continue
        m = _PART.match(text)
        if m is None:
            raise EventLineError("line_unreadable", i, raw.strip())
        seats = [_SEAT[c.lower()] for c in m["seats"]]
        tile = m["tile"]
        frm = _SEAT[m["frm"].lower()] if m["frm"] else None
        kind = m["type"].lower()
        if kind in ("k", "杠"):
            if len(seats) != 1:
                raise EventLineError("line_kong_seat", i, raw.strip())
            if m["flags"]:
                raise EventLineError("line_kong_flags", i, raw.strip())
            k = _KIND[(m["kind"] or "c").lower()]
            ev: dict[str, Any] = {"type": "kong", "seat": seats[0], "tile": tile, "kind": k}
            if frm is not None:
                ev["from"] = frm
        else:
            if not seats:
                raise EventLineError("line_win_seats", i, raw.strip())
            if m["kind"]:
                raise EventLineError("line_unreadable", i, raw.strip())
            ev = {"type": "win", "seats": list(dict.fromkeys(seats)), "tile": tile}
            if frm is not None:
                ev["from"] = frm
            flags = []
            for letter in re.findall(r"\+([a-z])", m["flags"].lower()):
                if letter not in _KEY_FLAG:
                    raise EventLineError("line_flag", i, raw.strip())
                flags.append(_KEY_FLAG[letter])
            if flags:
                ev["flags"] = flags
        out.events.append(ev)
    return out
