"""Shared fixtures. Qt must run headless: without this pytest aborts silently."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
# the tournaments' private signing keys go to a folder of this run, never the user's data
# folder (commands run as subprocesses inherit it; tests of a desk without the key point it
# elsewhere)
if not os.environ.get("REFEREE_APP_KEYS"):
    import tempfile as _tempfile

    os.environ["REFEREE_APP_KEYS"] = _tempfile.mkdtemp(prefix="referee-keys-")
# the desk's own settings (QSettings: the projector's pages, window places) go to a folder of
# this run too: one a test saved, or a person's own, would change what the next run sees
if not os.environ.get("REFEREE_TESTS_CONFIG"):
    import tempfile as _tempfile

    os.environ["REFEREE_TESTS_CONFIG"] = os.environ["XDG_CONFIG_HOME"] = _tempfile.mkdtemp(
        prefix="referee-config-")
# the command line speaks the locale's language unless told (docs/i18n.md): the tests read
# its English unless a test chooses (tests/cli/test_cli_lang.py)
os.environ["REFEREE_LANG"] = "en"


# --------------------------------------------------------------------------- storage fixtures
# (tournament database: referee_app.storage; used by tests/test_storage*.py and friends)

import random as _random
import sqlite3 as _sqlite3
from collections.abc import Callable as _Callable
from pathlib import Path as _Path
from typing import Any as _Any

import pytest

DEMO_NAMES_16 = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强",
                 "吴昊", "徐静", "马林", "胡波", "郭涛", "何敏", "高飞", "林娜")


@pytest.fixture
def fresh_db(tmp_path: _Path) -> _Path:
    """Path for a tournament database that does not exist yet."""
    return tmp_path / "event.sqlite"


@pytest.fixture
def make_tournament(tmp_path: _Path) -> _Callable[..., _Any]:
    """Factory: a tournament with ``n`` players (Chinese names) and ``rounds`` seated rounds."""
    from referee_app.storage import Tournament

    made: list[_Any] = []

    def make(n: int = 16, rounds: int = 1, ruleset: str = "ottawa-2009",
             name: str = "Test Open", **kw: _Any) -> _Any:
        path = tmp_path / f"t{len(made)}.sqlite"
        kw.setdefault("backup_every", 0)
        t = Tournament.create(path, name, ruleset=ruleset, **kw)
        for i in range(n):
            t.players.add(DEMO_NAMES_16[i] if i < 16 else f"选手{i + 1}",
                         name_latin=f"Player {i + 1}", club=("Ottawa", "Montreal")[i % 2])
        for r in range(1, rounds + 1):
            t.rounds.seat(r, seed=100 + r)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


@pytest.fixture
def record_for() -> _Callable[..., dict[str, _Any]]:
    """A valid random record whose seats name the players seated at (round, table)."""
    from referee_app.core.generate import random_record

    def make(t: _Any, round: int, table: int, seed: int = 0,
             dealer: str | None = None) -> dict[str, _Any]:
        seating = t.rounds.seating(round).tables[table]
        rng = _random.Random(seed)
        return random_record(rng, t.info.ruleset, dealer=dealer or t.info.seats[0],
                             players=seating)

    return make


@pytest.fixture
def db_dump() -> _Callable[[_Path], str]:
    """Every row of every table (SQL text) — to assert a failed call changed nothing."""

    def dump(path: _Path) -> str:
        conn = _sqlite3.connect(str(path))
        try:
            return "\n".join(conn.iterdump())
        finally:
            conn.close()

    return dump


# --------------------------------------------------------------------------- collection


def pytest_configure(config: pytest.Config) -> None:
    """With ``-n``, rewrite the test modules' asserts once, here, before the workers start:
    each worker would otherwise rewrite every module itself (~8 s CPU a worker, most of
    its collection), as pytest keeps a rewritten module only where bytecode may be written.
    Skipped where it may not (PYTHONDONTWRITEBYTECODE) and on a pytest whose internals
    differ: the workers then rewrite as before."""
    import sys

    if sys.dont_write_bytecode or hasattr(config, "workerinput") or \
            not getattr(config.option, "numprocesses", None):
        return
    try:
        from _pytest.assertion import rewrite
    except ImportError:
        return
    state = config.stash.get(rewrite.assertstate_key, None)
    if state is None:  # --assert=plain
        return
    root = _Path(__file__).resolve().parent
    modules = set(root.rglob("conftest.py"))
    for arg in config.args:  # the paths asked for (testpaths when none): not every module
        where = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        modules |= set(where.rglob("test_*.py")) if where.is_dir() else {where}
    for fn in sorted(m for m in modules if m.suffix == ".py" and m.is_file()
                     and m.is_relative_to(root)):
        pyc = rewrite.get_cache_dir(fn) / (fn.name[:-3] + rewrite.PYC_TAIL)
        try:
            if rewrite._read_pyc(fn, pyc) is not None:
                continue
            if not rewrite.try_makedirs(pyc.parent):
                return
            source_hash, co = rewrite._rewrite_test(fn, config)
        except SyntaxError:
            continue  # reported by the worker that collects it
        except (AttributeError, TypeError, ValueError, OSError):
            return  # another pytest, or not writable: each worker rewrites them itself
        try:
            rewrite._write_pyc(state, co, source_hash, pyc)
        except (AttributeError, TypeError, ValueError, OSError):
            return
