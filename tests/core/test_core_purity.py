"""referee_app.core stays pure: no Qt, SQL or reportlab (issue 2), so scoring starts fast.

Checked twice: statically (every import statement of every module under core, including
imports inside functions) and dynamically (import the package in a fresh interpreter and
look at sys.modules, which also catches indirect imports through other packages).
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[2] / "referee_app" / "core"
FORBIDDEN = ("PySide6", "shiboken6", "sqlite3", "sqlite_utils", "reportlab")
CORE_FILES = sorted(CORE.rglob("*.py"))


def forbidden_imports(source: str) -> list[str]:
    """Top-level names of forbidden modules imported anywhere in ``source``."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute | ast.Name)
              and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
                  "import_module", "__import__")
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            names = [node.args[0].value]
        found += [n for n in names if n.split(".")[0] in FORBIDDEN]
    return found


def test_core_has_modules() -> None:
    assert len(CORE_FILES) >= 5  # the check below must not pass vacuously


@pytest.mark.parametrize("path", CORE_FILES, ids=lambda p: p.name)
def test_no_forbidden_import_statements(path: Path) -> None:
    assert forbidden_imports(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("source", [
    "import PySide6",
    "from PySide6.QtWidgets import QApplication",
    "import sqlite3 as db",
    "def f():\n    import sqlite_utils",
    "from reportlab.pdfgen import canvas",
    "import importlib\nimportlib.import_module('PySide6.QtCore')",
])
def test_the_static_check_can_fail(source: str) -> None:
    assert forbidden_imports(source)


def test_importing_core_loads_none_of_them() -> None:
    code = (
        "import json, sys\n"
        "import referee_app.core\n"
        "from referee_app.core import generate, HandRecord, settle, get_ruleset, ruleset_ids\n"
        "from referee_app.core.generate import random_record\n"
        "import random\n"
        "for rid in ruleset_ids():\n"
        "    settle(HandRecord.from_dict(random_record(random.Random(1), rid)))\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    loaded = json.loads(proc.stdout)
    bad = [m for m in loaded if m.split(".")[0] in FORBIDDEN]
    assert bad == []
    assert "referee_app.core.settle" in loaded  # it really imported the engine


def test_score_command_loads_none_of_them() -> None:
    """The CLI's score path (what the cold-start target measures) stays pure as well."""
    code = (
        "import json, sys\n"
        "import referee_app.cli.score\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=True)
    bad = [m for m in json.loads(proc.stdout) if m.split(".")[0] in FORBIDDEN]
    assert bad == []
