"""Readable hand analysis (core.explain) and the `referee-app analyse` command."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from referee_app.cli import main
from referee_app.core import TileParseError
from referee_app.core.explain import analyse_ready, analyse_win


@pytest.mark.parametrize(("tiles", "win", "readings", "best", "fan"), [
    # spec §4 example 2: the only reading is 111 123 456 789 99; flush + root
    ("1112345678999m", "1m", 1, "清一色", 4),
    # two pongs readings vs runs: the all-pongs flush reading is the best
    ("1112223334449m", "9m", 3, "清一色对子和", 4),
    # seven pairs and a terminal standard reading tie at 3: table order gives §4.4
    ("112233m112233p9m", "9m", 2, "幺九", 3),
    # 龙七对 is seven pairs + a root under Ottawa (§4 note)
    ("11222244m55779p", "9p", 1, "暗七对", 4),
])
def test_analyse_win(tiles: str, win: str, readings: int, best: str, fan: int) -> None:
    a = analyse_win(tiles, win)
    assert a.legal
    assert len(a.readings) == readings
    assert a.best is not None and a.best.pattern == best and a.best.fan == fan


def test_bad_notation_is_a_parse_error() -> None:
    with pytest.raises(TileParseError):
        analyse_win("123q", None)


def test_analyse_win_reports_problems() -> None:
    a = analyse_win("123m456p789s1122m", "2m")
    assert not a.legal
    assert any("holds all three suits (false win" in p and p.startswith("§2.4") for p in a.problems)


@pytest.mark.parametrize(("tiles", "pongs", "kongs", "waits", "max_fan"), [
    ("2366p456s", ("5p",), ("9s",), ("1p", "4p"), 2),  # hand-format.md example, S
    ("1112345678999m", (), (), tuple(f"{r}m" for r in range(1, 10)), 4),  # nine gates
    ("35579m2468p1357s", (), (), (), 0),  # W of the example: a flower pig, not ready
    ("1111m", ("2p", "3p", "4p"), (), (), 0),  # holds all four 1m: cannot wait on 1m
])
def test_analyse_ready(tiles: str, pongs: tuple[str, ...], kongs: tuple[str, ...],
                       waits: tuple[str, ...], max_fan: int) -> None:
    r = analyse_ready(tiles, pongs=pongs, kongs=kongs)
    assert tuple(w.tile for w in r.waits) == waits
    assert r.ready == bool(waits)
    assert r.max_fan == max_fan


def test_analyse_cli() -> None:
    runner = CliRunner()
    res = runner.invoke(main, ["analyse", "2366p456s", "--pong", "5p", "--kong", "9s"])
    assert res.exit_code == 0
    assert "ready on 1p 4p; maximum 2 fan" in res.output
    res = runner.invoke(main, ["analyse", "1112345678999m", "--win", "1m"])
    assert "best: 清一色 (§4.3) 3 + 根 1 = 4 fan" in res.output
    res = runner.invoke(main, ["analyse", "12x"])
    assert res.exit_code == 2 and "position 3" in res.output
