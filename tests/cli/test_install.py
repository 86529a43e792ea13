"""A plain (non-editable) install carries its templates and demo (issue 13).

Builds the wheel from a copy of the sources (no build isolation: the running environment's
setuptools), installs it with ``--no-deps`` into a fresh virtual environment that borrows
the running environment's site-packages for PySide6 & co. (no download), then, from
another directory, opens ``gui --demo --screenshot`` and prints every report.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # builds and installs the wheel in a new virtual environment

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "referee_app",
           "templates", "sample_events")
REPORTS = (["standings"], ["table", "--round", "1"], ["player", "1"], ["hand", "1"],
           ["seating", "--round", "1"], ["slips", "--round", "1"])


def _run(args: list[str], cwd: Path, env: dict[str, str], timeout: int = 120) -> str:
    p = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True,
                       timeout=timeout)
    assert p.returncode == 0, f"{' '.join(args)}\n{p.stdout}\n{p.stderr}"
    return p.stdout + p.stderr


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str], Path]:
    base = tmp_path_factory.mktemp("install")
    src = base / "src"
    src.mkdir()
    for name in SOURCES:
        p = ROOT / name
        if p.is_dir():
            shutil.copytree(p, src / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(p, src / name)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(QT_QPA_PLATFORM="offscreen", HOME=str(base / "home"),
               XDG_DATA_HOME=str(base / "data"), XDG_CONFIG_HOME=str(base / "config"),
               PIP_DISABLE_PIP_VERSION_CHECK="1")
    build = _run([sys.executable, "-m", "pip", "wheel", "-v", "--no-deps",
                  "--no-build-isolation", "-w", str(base / "dist"), str(src)], base, env)
    # the warnings setuptools printed on every install (project.license as a table)
    assert "Warning" not in build.replace("byte-compiling is disabled", ""), build
    wheel = next((base / "dist").glob("referee_app-*.whl"))
    venv = base / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], base, env)
    site = Path(_run([str(venv / "bin" / "python"), "-c",
                      "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                     base, env).strip())
    # the dependencies come from this environment (appended after the venv's own packages)
    here = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    (site / "zz_shared_deps.pth").write_text("\n".join(sorted(here)) + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install",
          "--no-deps", "--no-index", str(wheel)], base, env)
    elsewhere = base / "elsewhere"
    elsewhere.mkdir()
    return venv, env, elsewhere


def test_wheel_ships_templates_and_demo(installed) -> None:
    venv, env, elsewhere = installed
    where = _run([str(venv / "bin" / "python"), "-c",
                  "import referee_app, pathlib; print(pathlib.Path(referee_app.__file__)"
                  ".parent)"], elsewhere, env).strip()
    pkg = Path(where)
    assert pkg.is_relative_to(venv), f"imported from {pkg}, not the fresh install"
    for t in (ROOT / "templates").glob("*.toml"):
        assert (pkg / "data" / "templates" / t.name).read_bytes() == t.read_bytes()
    assert (pkg / "data" / "sample_events" / "demo-ottawa-2009.json").is_file()
    for mo in (ROOT / "referee_app" / "locale").glob("*/LC_MESSAGES/*.mo"):  # issue 22
        assert (pkg / mo.relative_to(ROOT / "referee_app")).read_bytes() == mo.read_bytes()
    wheel = next((venv.parent / "dist").glob("*.whl"))
    with zipfile.ZipFile(wheel) as z:
        meta = z.read(next(n for n in z.namelist() if n.endswith("METADATA"))).decode()
    assert "License-Expression: MIT" in meta


def test_installed_gui_demo_and_every_report(installed) -> None:
    venv, env, elsewhere = installed
    app = str(venv / "bin" / "referee-app")
    shot = elsewhere / "demo.png"
    _run([app, "gui", "--demo", "--screenshot", str(shot)], elsewhere, env)
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    db = next((elsewhere.parent / "data").rglob("demo-ottawa-2009.sqlite"))
    for args in REPORTS:
        out = elsewhere / f"{args[0]}.pdf"
        _run([app, "report", *args, "--db", str(db), "-o", out.name], elsewhere, env)
        assert out.read_bytes()[:5] == b"%PDF-"
    helptext = _run([app, "report", "standings", "--help"], elsewhere, env)
    assert "templates/<report>.toml" not in helptext
    _run([app, "templates", "export", "mine"], elsewhere, env)
    assert (elsewhere / "mine" / "standings.toml").read_bytes() == \
        (ROOT / "templates" / "standings.toml").read_bytes()
