"""The shape of the code (issue 9): layers, no import circles, no overlong modules.

Layers, lowest first: ``core`` (pure domain) → ``storage`` → ``reports`` → ``gui`` and
``server`` → ``cli``. A package may import its own layer and those below it, never one
above. Every import statement counts — at module level, inside functions (lazy imports)
and under ``if TYPE_CHECKING`` — because each is a dependency a reader has to follow.
The import graph is read from the source with :mod:`ast`, not kept by hand.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "referee_app"
MAX_LINES = 700

#: top-level subpackage -> layer (higher may import lower, never the reverse)
LAYERS = {"core": 0, "data": 0, "fonts": 0, "storage": 1, "reports": 2, "gui": 3, "server": 3,
          "cli": 4}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PKG.rglob("*.py"))}


def imported(path: Path, source: str, known: Iterable[str]) -> set[str]:
    """The project modules ``source`` (the file at ``path``) imports, anywhere in it.

    ``from pkg import name`` counts as an import of ``pkg.name`` when that is a module,
    otherwise of ``pkg``; relative imports are resolved against the file's package."""
    known = set(known)
    me = module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[:len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for a in node.names:
                sub = f"{base}.{a.name}"
                out.add(sub if sub in known else base)
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(
                node.func, "id", "")) in ("import_module", "__import__") and node.args
              and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            out.add(node.args[0].value)
    # a dotted name imports its deepest known module
    resolved = set()
    for name in out:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name and name != me:
            resolved.add(name)
    return resolved


def import_graph() -> dict[str, set[str]]:
    mods = all_modules()
    return {m: imported(p, p.read_text(encoding="utf-8"), mods) for m, p in mods.items()}


def layer(module: str) -> int | None:
    parts = module.split(".")
    return LAYERS.get(parts[1]) if len(parts) > 1 else None


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    bad = []
    for m, deps in graph.items():
        lm = layer(m)
        for d in deps:
            ld = layer(d)
            if lm is not None and ld is not None and ld > lm:
                bad.append(f"{m} imports {d}")
    return sorted(bad)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), plus self-loops."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_every_package_has_a_layer() -> None:
    subpackages = {p.name for p in PKG.iterdir() if (p / "__init__.py").exists()}
    assert subpackages <= set(LAYERS), f"give {subpackages - set(LAYERS)} a layer"


def test_layers_only_import_downwards() -> None:
    assert layer_violations(import_graph()) == []


def test_no_import_circles() -> None:
    assert cycles(import_graph()) == []


@pytest.mark.parametrize("path", sorted(PKG.rglob("*.py")), ids=lambda p: str(p.relative_to(PKG)))
def test_no_module_over_the_length_limit(path: Path) -> None:
    n = len(path.read_text(encoding="utf-8").splitlines())
    assert n <= MAX_LINES, f"{path.relative_to(ROOT)} has {n} lines (limit {MAX_LINES})"


# ----------------------------------------------------------------- the checks can fail

def _graph_of(files: dict[str, str]) -> dict[str, set[str]]:
    mods = {module_name(ROOT / f): ROOT / f for f in files}
    return {module_name(ROOT / f): imported(ROOT / f, src, mods) for f, src in files.items()}


def test_a_lazy_or_type_checking_circle_is_found() -> None:
    g = _graph_of({
        "referee_app/storage/__init__.py": "",
        "referee_app/storage/a.py": "def f():\n    from .b import x\n",
        "referee_app/storage/b.py": "from typing import TYPE_CHECKING\n"
                                    "if TYPE_CHECKING:\n    from referee_app.storage.a import f\n",
    })
    assert cycles(g) == [["referee_app.storage.a", "referee_app.storage.b"]]


def test_an_upward_import_is_found() -> None:
    g = _graph_of({
        "referee_app/core/__init__.py": "",
        "referee_app/core/x.py": "import importlib\nimportlib.import_module('referee_app.gui.app')\n",
        "referee_app/gui/__init__.py": "",
        "referee_app/gui/app.py": "from referee_app.core import x\n",
    })
    assert layer_violations(g) == ["referee_app.core.x imports referee_app.gui.app"]


def test_from_package_import_module_counts_the_module() -> None:
    g = _graph_of({
        "referee_app/gui/__init__.py": "",
        "referee_app/gui/views/__init__.py": "",
        "referee_app/gui/views/a.py": "from . import b\n",
        "referee_app/gui/views/b.py": "from .a import thing\n",
    })
    assert cycles(g) == [["referee_app.gui.views.a", "referee_app.gui.views.b"]]
