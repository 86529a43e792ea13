"""Zigong Z3 validation cases shared by the core and desk tests (one row per way a record
meets the first-discard and declared-ready Readings; see core/test_zigong_validation.py)."""

from __future__ import annotations

from typing import Any

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


def zigong_record(seats: dict[str, tuple[str, list[str]]], events: list[dict[str, Any]]
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
