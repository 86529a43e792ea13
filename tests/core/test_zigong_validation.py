"""Zigong Z3 validation Readings (other-rulesets.md), one row per way a record meets them.

第一和 (``first_discard``): a non-dealer wins on the dealer's first discard, so nothing was
claimed before it — the winner holds no pong and no kong of any kind, and only the
dealer's own concealed kongs may precede the win. 报调 (``declared_ready``): the declared
hand does not change — no pong and no direct or added kong for the declaring winner; a
concealed kong is allowed. Either otherwise is an error citing Z3, for the winner it
concerns. Hands are tile strings; every row is checked through the API and ``score``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.core import HandRecord, settle

FD, DR = ["first_discard"], ["declared_ready"]
# E deals. S waits on 2p/5p with 123s 456s 789s 34p 55p; with a meld of 9p it holds 10 tiles.
E13, E10 = "11247p11356789s", "11247p13567s"
W13 = "12233668p12349s"
S13, S10 = "123s456s789s34p55p", "456s789s34p55p"


def _win(seats: list[str], tile: str, frm: str | None, flags: list[str]) -> dict[str, Any]:
    e: dict[str, Any] = {"type": "win", "seats": seats, "tile": tile, "flags": flags}
    if frm:
        e["from"] = frm
    return e


def _kong(seat: str, tile: str, kind: str, frm: str | None = None) -> dict[str, Any]:
    e = {"type": "kong", "seat": seat, "tile": tile, "kind": kind}
    if frm:
        e["from"] = frm
    return e


def _record(seats: dict[str, tuple[str, list[str]]], events: list[dict[str, Any]]
            ) -> dict[str, Any]:
    return {"format": "sichuan-hand/1", "ruleset": "zigong-3p", "dealer": "E",
            "seats": {k: {"concealed": c, "pongs": p} for k, (c, p) in seats.items()},
            "events": events, "wall_exhausted": False}


def _deal(s: str = S13, s_pongs: tuple[str, ...] = (), e: str = E13
          ) -> dict[str, tuple[str, list[str]]]:
    return {"E": (e, []), "S": (s, list(s_pongs)), "W": (W13, [])}


# S and W both win on E's 2p; W holds 13p 66p 345678s and a pong of 1p
_DOUBLE = {"E": ("447799p2235566s", []), "S": (S13, []), "W": ("1366p345678s", ["1p"])}

CASES = [
    # (id, seats, events, expected errors)
    ("fd-valid", _deal(), [_win(["S"], "2p", "E", FD)], []),
    ("fd-pong", _deal(S10, ("9p",)), [_win(["S"], "2p", "E", FD)], [("Z3", "S")]),
    ("fd-own-direct-kong", _deal(S10), [_kong("S", "9p", "direct", "E"),
                                        _win(["S"], "2p", "E", FD)], [("Z3", "S")]),
    ("fd-own-added-kong", _deal(S10), [_kong("S", "9p", "added"),
                                       _win(["S"], "2p", "E", FD)], [("Z3", "S")]),
    ("fd-own-concealed-kong", _deal(S10), [_kong("S", "9p", "concealed"),
                                           _win(["S"], "2p", "E", FD)], [("Z3", "S")]),
    ("fd-dealer-concealed-kong", _deal(e=E10), [_kong("E", "9p", "concealed"),
                                                _win(["S"], "2p", "E", FD)], []),
    ("fd-dealer-added-kong", _deal(e=E10), [_kong("E", "9p", "added"),
                                            _win(["S"], "2p", "E", FD)], [("Z3", "S")]),
    ("fd-dealer-direct-kong", _deal(e=E10), [_kong("E", "9p", "direct", "W"),
                                             _win(["S"], "2p", "E", FD)], [("Z3", "S")]),
    ("fd-self-drawn", _deal(), [_win(["S"], "2p", None, FD)], [("Z3", "S")]),
    ("fd-not-dealers-discard", _deal(), [_win(["S"], "2p", "W", FD)], [("Z3", "S")]),
    ("fd-double-win-valid", _DOUBLE, [_win(["S", "W"], "2p", "E", [])], []),
    # the Z3 error is W's, whichever winner the event lists first
    ("fd-double-win-second-holds-pong", _DOUBLE, [_win(["S", "W"], "2p", "E", FD)],
     [("Z3", "W")]),
    ("fd-double-win-first-holds-pong", _DOUBLE, [_win(["W", "S"], "2p", "E", FD)],
     [("Z3", "W")]),
    ("dr-valid", _deal(), [_win(["S"], "2p", "E", DR)], []),
    ("dr-pong", _deal(S10, ("9p",)), [_win(["S"], "2p", "E", DR)], [("Z3", "S")]),
    ("dr-direct-kong", _deal(S10), [_kong("S", "9p", "direct", "E"),
                                    _win(["S"], "2p", "E", DR)], [("Z3", "S")]),
    ("dr-added-kong", _deal(S10), [_kong("S", "9p", "added"),
                                   _win(["S"], "2p", "E", DR)], [("Z3", "S")]),
    ("dr-concealed-kong", _deal(S10), [_kong("S", "9p", "concealed"),
                                       _win(["S"], "2p", "E", DR)], []),
    ("dr-double-win-pong", _DOUBLE, [_win(["S", "W"], "2p", "E", DR)], [("Z3", "W")]),
]


@pytest.mark.parametrize(("seats", "events", "expected"), [c[1:] for c in CASES],
                         ids=[c[0] for c in CASES])
def test_z3_readings(seats: dict[str, tuple[str, list[str]]], events: list[dict[str, Any]],
                     expected: list[tuple[str, str]], tmp_path: Path) -> None:
    record = _record(seats, events)
    s = settle(HandRecord.from_dict(record))
    assert sorted((e.clause, e.seat) for e in s.errors) == expected
    assert s.ok is (not expected)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record, ensure_ascii=False), "utf-8")
    out = CliRunner().invoke(main, ["score", "--json", str(path)])
    assert out.exit_code == (1 if expected else 0), out.output
    got = json.loads(out.stdout)
    assert sorted((e["clause"], e["seat"]) for e in got["errors"]) == expected
