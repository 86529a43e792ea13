"""Start-up (issue 11): what a command imports and builds decides its cold time.

The figures live in ``benchmarks/bench_startup.py``; these tests keep the causes away:
``score`` runs without storage, Qt, reportlab or sqlite3 and without building the suit
table for one record, and ``--help`` imports no command module.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from referee_app.cli import COMMANDS, SHORT_HELP

ROOT = Path(__file__).resolve().parent.parent
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
        "a = sys.modules.get('referee_app.core.analysis')\n"
        "print(json.dumps({'modules': sorted(sys.modules),\n"
        "                  'table': None if a is None else bool(a._TABLE)}))\n"
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
    assert got["table"] is False  # one record: searched, not the 30k-vector table


def test_help_imports_no_command_module() -> None:
    modules = _modules_after(["--help"])["modules"]
    assert [m for m in modules if m.startswith("referee_app.cli.")] == []
    assert [m for m in modules if m.startswith(("referee_app.core", *HEAVY))] == []


def test_every_command_has_a_short_help_line() -> None:
    assert set(SHORT_HELP) == set(COMMANDS)
    assert all(0 < len(v) <= 70 for v in SHORT_HELP.values())
