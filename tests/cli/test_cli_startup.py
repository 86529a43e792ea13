"""Start-up (issue 11): what a command imports and builds decides its cold time.

The figures live in ``benchmarks/bench_startup.py``; these tests keep the causes away:
``score`` runs without storage, Qt, reportlab or sqlite3 and without building the suit
table for one record, and ``--help`` imports no command module; ``hand add`` and
``standings`` load storage but none of what they do not use (sqlite_utils with dateutil and
pluggy, multiprocessing, platformdirs when ``--db`` is given, importlib.resources, the
report, GUI and server stacks).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee_app.cli import COMMANDS, SHORT_HELP

ROOT = Path(__file__).resolve().parents[2]
HEAVY = ("PySide6", "shiboken6", "sqlite3", "sqlite_utils", "reportlab", "referee_app.storage",
         "referee_app.reports", "referee_app.gui")


def _modules_after(args: list[str]) -> dict[str, object]:
    """Run the CLI in a fresh interpreter; the modules loaded and the table's state."""
    code = (
        "import json, sys\n"
        "from referee_app.cli import main\n"
        "try:\n"
        f"    main({args!r}, standalone_mode=False)\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(json.dumps({'modules': sorted(sys.modules)}))\n"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       cwd=ROOT, timeout=120, check=True)
    return json.loads(p.stdout.strip().splitlines()[-1])


def test_score_runs_without_storage_qt_or_the_suit_table(tmp_path: Path) -> None:
    rec = json.loads((ROOT / "tests/fixtures/golden/hand_format_example.json")
                     .read_text(encoding="utf-8"))["record"]
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    got = _modules_after(["score", "--json", str(f)])
    modules = got["modules"]
    assert "referee_app.core.settle" in modules  # it really settled
    assert [m for m in modules if m.startswith(HEAVY)] == []
    assert "importlib.resources" not in modules


#: what a desk command on a named file never needs (storage itself is allowed)
NOT_FOR_DESK = ("PySide6", "shiboken6", "sqlite_utils", "dateutil", "pluggy", "reportlab",
                "starlette", "uvicorn", "multiprocessing", "platformdirs",
                "importlib.resources", "importlib.metadata", "referee_app.reports",
                "referee_app.gui", "referee_app.server")


def _desk_file(tmp_path: Path) -> tuple[Path, Path]:
    """The README's hand (seats unnamed) and a tournament of four seated players."""
    from referee_app.storage import Tournament

    rec = json.loads((ROOT / "tests/fixtures/golden/hand_format_example.json")
                     .read_text(encoding="utf-8"))["record"]
    for seat in rec["seats"].values():
        seat.pop("player", None)
    f = tmp_path / "hand.json"
    f.write_text(json.dumps(rec), encoding="utf-8")
    db = tmp_path / "t.sqlite"
    with Tournament.create(db, "Start-up", backup_every=0) as t:
        for name in ("A", "B", "C", "D"):
            t.add_player(name)
        t.seat_round(1, seed=1)
    return f, db


def test_hand_add_and_standings_load_only_what_they_use(tmp_path: Path) -> None:
    f, db = _desk_file(tmp_path)
    for args in (["hand", "add", str(f), "--round", "1", "--table", "1", "--hand", "1",
                  "--db", str(db)],
                 ["standings", "--db", str(db)]):
        modules = _modules_after(args)["modules"]
        assert "referee_app.storage.tournament" in modules  # it really opened the file
        assert [m for m in modules if m.startswith(NOT_FOR_DESK)] == [], args[0]
    from referee_app.storage import Tournament

    with Tournament.open(db) as t:
        assert len(t.hands()) == 1  # the hand really was saved


def test_help_imports_no_command_module() -> None:
    modules = _modules_after(["--help"])["modules"]
    assert [m for m in modules if m.startswith("referee_app.cli.")] == []
    assert [m for m in modules if m.startswith(("referee_app.core", *HEAVY))] == []


def test_every_command_has_a_short_help_line() -> None:
    assert set(SHORT_HELP) == set(COMMANDS)
    assert all(0 < len(v) <= 70 for v in SHORT_HELP.values())
