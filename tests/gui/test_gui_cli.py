"""``referee-app gui``: the screenshot contract and clear errors for bad input."""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from pathlib import Path

import pytest
from gui_helpers import example_record, make_tournament

from referee_app.storage import Tournament

EXE = Path(sys.executable).with_name("referee-app")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    cmd = [str(EXE)] if EXE.exists() else [sys.executable, "-m", "referee_app"]
    env = {k: v for k, v in os.environ.items() if k != "QT_QPA_PLATFORM"}
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return subprocess.run(cmd + list(args), capture_output=True, text=True, timeout=120, env=env)


def _png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG file"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.fixture
def db(tmp_path: Path) -> Path:
    path = tmp_path / "t.sqlite"
    seating = make_tournament(path)
    with Tournament.open(path, backup_every=0) as t:
        t.hands.add(example_record(seating), round=1, table=1, hand_no=1)
    return path


@pytest.mark.parametrize("view", ["entry", "standings", "trace", "progress", "amend", "blind",
                                  "whatif"])
def test_screenshot_writes_png_of_the_window(db: Path, tmp_path: Path, view: str) -> None:
    out = tmp_path / f"gui-{view}.png"
    # no display and no QT_QPA_PLATFORM: the command must go offscreen by itself
    r = _run("gui", "--db", str(db), "--screenshot", str(out), "--view", view,
             "--size", "1200x800")
    assert r.returncode == 0, r.stderr
    assert out.stat().st_size > 20_000  # a real rendering, not an empty image
    assert _png_size(out) == (1200, 800)


def test_screenshot_views_differ(db: Path, tmp_path: Path) -> None:
    shots = []
    for view in ("entry", "standings"):
        out = tmp_path / f"{view}.png"
        assert _run("gui", "--db", str(db), "--screenshot", str(out), "--view", view,
                    "--size", "900x600").returncode == 0
        shots.append(out.read_bytes())
    assert shots[0] != shots[1]


def test_bad_input_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "missing.sqlite"
    r = _run("gui", "--db", str(missing), "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 2
    assert r.stderr.startswith("error: db: ") and "does not exist" in r.stderr
    assert not (tmp_path / "x.png").exists()
    r = _run("gui", "--screenshot", str(tmp_path / "x.png"))
    assert r.returncode == 2 and "error: db:" in r.stderr
    r = _run("gui", "--db", str(missing), "--size", "huge")
    assert r.returncode == 2 and "error: size:" in r.stderr
    r = _run("gui", "--db", str(missing), "--view", "nope")
    assert r.returncode == 2 and "nope" in r.stderr
    not_db = tmp_path / "notes.txt"
    not_db.write_text("hello", encoding="utf-8")
    r = _run("gui", "--db", str(not_db), "--screenshot", str(tmp_path / "y.png"))
    assert r.returncode == 2 and r.stderr.startswith("error: db: ")


def test_help_names_the_options() -> None:
    r = _run("gui", "--help")
    assert r.returncode == 0
    for opt in ("--db", "--demo", "--screenshot", "--view", "--lang"):
        assert opt in r.stdout
