"""No traceback for any input, file or fault (issue 11).

A hypothesis fuzz runs the tournament commands in-process with generated arguments and
record files and asserts the contract: exit code 0/1/2/3, no ``Traceback``, and the
database still passes ``integrity_check`` (and ``verify()`` when the record has one).
Real subprocesses cover the faults: a locked database, a read-only file, a damaged file
and a full disk (the last two need a tmpfs, so root; skipped otherwise).
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.cli import main
from referee_app.core.generate import random_record
from referee_app.storage import Tournament
from referee_app.storage.bundle import LEGACY_FORMAT

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强")


def _check_db(db: Path) -> None:
    """The database is still sound: SQLite's check and, when it exists, the record's own."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        conn.close()
    with Tournament.open(db, backup_every=0) as t:
        t.record.verify()  # raises RecordIntegrityError naming the first entry that does not hold


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A small tournament (8 players, round 1 seated, 3 hands, a penalty) and a record."""
    d = tmp_path_factory.mktemp("faults")
    db = d / "template.sqlite"
    with Tournament.create(db, "Fault Open", head_referee="Zhao", backup_every=0) as t:
        for n in NAMES:
            t.players.add(n)
        t.rounds.seat(1, seed=3)
        rng = random.Random(5)
        records = []
        for table in (1, 2):
            seating = t.rounds.seating(1).tables[table]
            records.append(random_record(rng, "ottawa-2009", players=seating))
        for i in range(3):
            seating = t.rounds.seating(1).tables[1]
            rec = random_record(rng, "ottawa-2009", players=seating, dealer="E")
            t.hands.add(rec, round=1, table=1, hand_no=i + 1, referee="Zhao")
        t.penalties.add([NAMES[0]], 5, "late", round=1)
        bundle = t.export_bundle()
    return {"db": db, "record": records[0], "record2": records[1], "dir": d,
            "bundle": json.loads(json.dumps(bundle, ensure_ascii=False))}


def _paths(obj: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into a JSON value (to replace one of them)."""
    out = [prefix]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*prefix, i))
    return out


REPLACEMENTS = [..., None, 0, -1, 2**63, 10**20, "", "x", "\ud800", "a\tb", [], {}, [1, 2],
                True, "=1+1", "zigong-3p", "sichuan-jipin"]


def _legacy(bundle: dict[str, Any]) -> dict[str, Any]:
    """The bundle as written before the record had a chain (imported with --legacy)."""
    out = {k: v for k, v in bundle.items() if k not in ("chain", "head")}
    out["format"] = LEGACY_FORMAT
    return out


def _bundle_variants(bundle: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """The template's bundle with one (or two) values replaced or removed."""
    paths = _paths(bundle)[1:]

    def mutate(changes: list[tuple[tuple[Any, ...], Any]]) -> bytes:
        b = json.loads(json.dumps(bundle))
        for path, value in changes:
            node = b
            try:
                for k in path[:-1]:
                    node = node[k]
                if value is ...:
                    del node[path[-1]]
                else:
                    node[path[-1]] = value
            except (KeyError, IndexError, TypeError):
                pass
        return json.dumps(b).encode()

    change = st.tuples(st.sampled_from(paths), st.sampled_from(REPLACEMENTS))
    return st.lists(change, min_size=1, max_size=2).map(mutate)


def _csv_files() -> st.SearchStrategy[bytes]:
    cells = st.one_of(TEXT, st.sampled_from(["'=1+1", "'+x", "=cmd|' /C calc'!A0", "a,b",
                                             '"q"', "late", "withdrawn", "\ufeffname"]))
    header = st.sampled_from(["name", "name,club", "name,name_latin,club,status", "姓名,俱乐部",
                              "club", "name,name", ""])
    rows = st.lists(st.lists(cells, min_size=1, max_size=4).map(
        lambda cells: ",".join(c.replace("\n", " ") for c in cells)), max_size=4)
    return st.tuples(st.booleans(), header, rows).map(
        lambda t: (("\ufeff" if t[0] else "") + "\n".join([t[1], *t[2]]) + "\n")
        .encode("utf-8", "surrogatepass"))


# ------------------------------------------------------------------ generated arguments

BIG = st.sampled_from([2**63, 2**63 - 1, 10**20, -(10**20), 10**25, 0, -1])
INTS = st.one_of(st.integers(-3, 12), BIG).map(str)
#: mostly numbers that exist in the template (round 1, tables 1-2, hands 1-3), some not
NUM = st.one_of(st.sampled_from(["1", "1", "2", "3", "4"]), INTS)
NUM_OR_JUNK = st.one_of(INTS, st.sampled_from(["x", "", "1e3", "٣", " 7"]))
TEXT = st.one_of(
    st.text(st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=10),
    st.sampled_from(["李伟", "=HYPERLINK(\"x\")", "+1+1", "@SUM(A1)", "a\tb", "a\nb",
                     "\x00", "\ud800", "x\udcff", "  ", "Zhao", "\u202eevil", "\u200b",
                     "长" * 201, "理" * 1001, "2026-02-30", "2026-03-01"]))
PLAYER = st.one_of(st.sampled_from([*NAMES, "#1", "#0", f"#{10**20}", "nobody"]), TEXT)
TOTALS = st.one_of(
    st.sampled_from(["E=5,S=-5,E=7,S=-7", "E=4,S=-4,W=0,N=0", f"E={10**20},S=-{10**20}",
                     "E=x", "Q=1", ",,", "E=1000001,S=-1000001"]), TEXT)


def _record_variants(rec: dict[str, Any]) -> st.SearchStrategy[bytes]:
    """Record files: valid, renamed or dropped keys, wrong types, and hostile JSON."""

    def dump(obj: Any) -> bytes:
        text = json.dumps(obj, ensure_ascii=False)
        try:
            return text.encode()
        except UnicodeEncodeError:  # a lone surrogate: written as the JSON escape \ud800
            return json.dumps(obj).encode()

    def mutate(key: str, value: Any) -> bytes:
        r = json.loads(json.dumps(rec))
        if value is ...:
            r.pop(key, None)
        else:
            r[key] = value
        return dump(r)

    keys = sorted(rec)
    variants = [
        st.just(dump(rec)),
        st.builds(mutate, st.sampled_from(keys), st.sampled_from(
            [..., None, 42, "x", [], {}, 10**20, "\ud800", [[[]]]])),
        st.builds(lambda k: mutate("flag" if k else "wall_exausted", ["x"]), st.booleans()),
        st.sampled_from([b"", b"\xef\xbb\xbf" + dump(rec), b"null", b"42", b'"x"', b"[]",
                         b"[" * 5000 + b"]" * 5000, b"1" * 5000, b"\xff\xfe{",
                         b'{"seats": "\\ud800"}', b"{" * 3000]),
    ]
    return st.sampled_from(variants).flatmap(lambda s: s)


def _commands(rec: dict[str, Any], bundle: dict[str, Any]) -> st.SearchStrategy[list[Any]]:
    """One command line; ``FILE`` and ``OUT`` are replaced by files of the example, ``NEW``
    by a database path that does not exist yet."""
    record = _record_variants(rec)
    kinds = [
        _bundle_variants(bundle).map(lambda b: ["event", "import", ("FILE", b), "NEW"]),
        _bundle_variants(_legacy(bundle)).map(
            lambda b: ["event", "import", ("FILE", b), "--legacy", "NEW"]),
        _csv_files().map(lambda c: ["players", "import", ("FILE", c)]),
        st.tuples(st.just(["players", "add"]), TEXT).map(lambda t: [*t[0], t[1]]),
        st.tuples(st.just(["players", "statement"]), PLAYER).map(lambda t: [*t[0], t[1]]),
        st.tuples(PLAYER, st.sampled_from(["active", "withdrawn"])).map(
            lambda t: ["players", "status", t[0], t[1]]),
        st.just(["players", "list"]),
        st.tuples(INTS, INTS).map(lambda t: ["round", "seat", t[0], "--seed", t[1]]),
        NUM_OR_JUNK.map(lambda n: ["round", "show", n]),
        st.tuples(INTS, INTS, st.sampled_from(["E", "S", "Q", ""]), PLAYER).map(
            lambda t: ["round", "set-seat", *t]),
        st.tuples(record, NUM, NUM, NUM).map(
            lambda t: ["hand", "add", ("FILE", t[0]), "--round", t[1], "--table", t[2],
                       "--hand", t[3], "--referee", "Zhao"]),
        record.map(lambda r: ["hand", "add", ("FILE", r), "--round", "1", "--table", "1",
                              "--hand", "4", "--referee", "Zhao"]),
        record.map(lambda r: ["hand", "amend", "1", ("FILE", r), "--reason", "slip misread",
                              "--referee", "Zhao"]),
        st.tuples(record, TEXT, TOTALS).map(
            lambda t: ["hand", "add", ("FILE", t[0]), "--round", "1", "--table", "1",
                       "--hand", "4", "--referee", "Zhao", "--override-reason", t[1] or "x",
                       "--totals", t[2]]),
        st.tuples(NUM, record, TEXT).map(
            lambda t: ["hand", "amend", t[0], ("FILE", t[1]), "--reason", t[2]]),
        st.tuples(st.sampled_from(["void", "verify", "show", "history"]), NUM).map(
            lambda t: ["hand", t[0], t[1], *(["--reason", "r"] if t[0] == "void" else [])]),
        st.tuples(INTS, INTS).map(lambda t: ["hand", "list", "--round", t[0], "--table", t[1]]),
        st.tuples(PLAYER, NUM, TEXT, NUM).map(
            lambda t: ["penalty", "add", t[0], "--chips", t[1], "--reason", t[2], "--round",
                       t[3]]),
        st.tuples(NUM, TEXT).map(lambda t: ["penalty", "void", t[0], "--reason", t[1]]),
        st.just(["penalty", "list"]),
        st.tuples(INTS, INTS).map(lambda t: ["standings", "--round", t[0], "--through", t[1]]),
        st.just(["standings", "--csv", "OUT"]),
        st.tuples(st.sampled_from(["--stake", "--cap-fan", "--referees", "--name",
                                   "--tie-break"]), st.one_of(INTS, TEXT)).map(
            lambda t: ["event", "set", t[0], t[1]]),
        st.just(["event", "info"]),
        st.just(["event", "export", "OUT"]),
        st.just(["event", "backup"]),
        st.just(["backup", "list"]),
        st.tuples(INTS, TEXT).map(lambda t: ["backup", "restore", t[0], "--referee", t[1]]),
        st.tuples(NUM_OR_JUNK, st.booleans()).map(
            lambda t: ["round", "progress", t[0], *(["--json"] if t[1] else [])]),
        st.tuples(INTS, TEXT).map(lambda t: ["log", "--hand", t[0], "--referee", t[1]]),
        st.just(["log", "--json"]),
        st.just(["verify"]),
        st.just(["referee", "list"]),
        # found by the attack pass (tests/cli/test_cli_attack.py): other JSON readers, dates,
        # every number option, stdout-heavy listings
        st.tuples(NUM, record).map(lambda t: ["hand", "verify", t[0], "--record",
                                              ("FILE", t[1])]),
        st.tuples(NUM, record).map(lambda t: ["hand", "amend", t[0], ("FILE", t[1]),
                                              "--reason", "r", "--dry-run"]),
        record.map(lambda r: ["event", "new", "X", "--ruleset-file", ("FILE", r), "NEW"]),
        record.map(lambda r: ["report", "standings", "--template", ("FILE", r), "-o", "OUT"]),
        st.tuples(st.sampled_from(["--start-date", "--end-date", "--venue"]), TEXT).map(
            lambda t: ["event", "set", t[0], t[1]]),
        st.tuples(NUM_OR_JUNK, NUM_OR_JUNK).map(
            lambda t: ["round", "plan", "--rounds", t[0], "--seed", t[1]]),
        NUM_OR_JUNK.map(lambda n: ["round", "reseat", n]),
        NUM_OR_JUNK.map(lambda n: ["report", "hand", n, "-o", "OUT"]),
        NUM_OR_JUNK.map(lambda n: ["report", "slips", "--round", "1", "--count", n, "-o",
                                   "OUT"]),
    ]
    # every kind of command equally often (one_of favours the first branches)
    return st.sampled_from(kinds).flatmap(lambda s: s)


@contextlib.contextmanager
def _example_dir(template: dict[str, Any]) -> Iterator[Path]:
    d = Path(tempfile.mkdtemp(dir=template["dir"]))
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def _invoke(args: list[str], stdin: bytes | None = None) -> Any:
    return CliRunner().invoke(main, args, input=stdin, catch_exceptions=True)


def _assert_contract(result: Any, args: list[str]) -> None:
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), (args, repr(exc))
    assert result.exit_code in (0, 1, 2, 3), (args, result.exit_code, result.output)
    assert "Traceback" not in result.output, (args, result.output)
    assert "internal error" not in result.output, (args, result.output)  # an unexpected one


@settings(max_examples=80, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_fuzz_tournament_commands(template: dict[str, Any], data: st.DataObject) -> None:
    with _example_dir(template) as d:
        db = d / "t.sqlite"
        shutil.copy(template["db"], db)
        cmds = data.draw(st.lists(_commands(template["record"], template["bundle"]),
                                  min_size=1, max_size=3))
        for n, cmd in enumerate(cmds):
            args, target = [], db
            for a in cmd:
                if isinstance(a, tuple):
                    f = d / f"in{n}"
                    f.write_bytes(a[1])
                    a = str(f)
                elif a == "OUT":
                    a = str(d / f"out{n}")
                elif a == "NEW":
                    target = d / f"new{n}.sqlite"
                    continue
                args.append(a)
            r = _invoke([*args, "--db", str(target)])
            _assert_contract(r, args)
            if target != db and target.exists():
                assert r.exit_code == 0, r.output  # an import is all or nothing
                _check_db(target)
        _check_db(db)


@pytest.mark.parametrize("stdin", [b"\xff\xfe", b"", b"\xef\xbb\xbf{}", b"null",
                                   b"[" * 100000])
def test_hand_add_from_stdin_never_crashes(template: dict[str, Any], tmp_path: Path,
                                           stdin: bytes) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    r = _invoke(["hand", "add", "-", "--round", "1", "--table", "1", "--hand", "4",
                 "--db", str(db)], stdin)
    _assert_contract(r, ["hand", "add", "-"])
    assert r.exit_code == 2
    _check_db(db)


# ------------------------------------------------------------------ files that are not ours


def _not_tournaments(d: Path) -> dict[str, Path]:
    out = {}
    p = d / "meta_only.sqlite"
    c = sqlite3.connect(p)
    c.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    c.execute("INSERT INTO meta VALUES ('app', '\"referee-desk-tournament\"')")
    c.commit()
    c.close()
    out["meta_only"] = p
    out["random"] = d / "random.sqlite"
    out["random"].write_bytes(os.urandom(5000))
    out["text"] = d / "notes.sqlite"
    out["text"].write_text("hello", encoding="utf-8")
    out["folder"] = d / "folder.sqlite"
    out["folder"].mkdir()
    return out


def test_files_that_are_not_tournaments_are_bad_input(template: dict[str, Any],
                                                        tmp_path: Path) -> None:
    cases = _not_tournaments(tmp_path)
    bad_meta = tmp_path / "bad_meta.sqlite"
    shutil.copy(template["db"], bad_meta)
    c = sqlite3.connect(bad_meta)
    c.execute("UPDATE meta SET value='not json{' WHERE key='stake'")
    c.commit()
    c.close()
    cases["bad_meta"] = bad_meta
    for name, p in cases.items():
        for args in (["standings"], ["hand", "list"], ["event", "info"]):
            r = _invoke([*args, "--db", str(p)])
            _assert_contract(r, args)
            assert r.exit_code == 2, (name, r.output)
            if name == "folder":  # click's own check of --db
                assert "is a directory" in r.output
                continue
            assert r.output.count("\n") == 1 and "error: db:" in r.output, (name, r.output)


# ------------------------------------------------------------------ faults, real processes


def _cli(*args: str, env: dict[str, str] | None = None, timeout: float = 60
         ) -> subprocess.CompletedProcess[str]:
    e = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    return subprocess.run([sys.executable, "-m", "referee_app", *args], capture_output=True,
                          text=True, env=e, timeout=timeout, cwd=ROOT)


def _one_error_line(r: subprocess.CompletedProcess[str], code: int, *words: str) -> None:
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("error:")]
    assert len(errors) == 1, r.stderr
    for w in words:
        assert w in errors[0], r.stderr


def test_locked_database_waits_then_exits_3(template: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("PRAGMA journal_mode=WAL")
    holder.execute("BEGIN IMMEDIATE")
    try:
        r = _cli("players", "add", "New", "--db", str(db),
                 env={"REFEREE_APP_BUSY_TIMEOUT": "1.6"})
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    _one_error_line(r, 3, "busy", "try again")
    assert "waiting for another desk" in r.stderr
    _check_db(db)


def _damage_page(db: Path, page: int) -> None:
    data = bytearray(db.read_bytes())
    size = int.from_bytes(data[16:18], "big")
    data[(page - 1) * size:(page - 1) * size + 12] = b"\xff" * 12
    db.write_bytes(bytes(data))


def test_damaged_file_is_refused_with_exit_3(template: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    with Tournament.open(db) as t:
        t.backups.write()
    _damage_page(db, 3)
    r = _cli("standings", "--db", str(db))
    _one_error_line(r, 3, "damaged", "referee-app backup list")
    rec = tmp_path / "r.json"
    rec.write_text(json.dumps(template["record"]), encoding="utf-8")
    r = _invoke(["hand", "add", str(rec), "--round", "1", "--table", "1", "--hand", "4",
                 "--db", str(db)])
    _assert_contract(r, ["hand", "add"])
    assert r.exit_code == 3 and "damaged" in r.output
    # the way back: list and restore the backup
    r = _invoke(["backup", "list", "--db", str(db)])
    assert r.exit_code == 0 and " 1  " in r.output, r.output
    r = _invoke(["backup", "restore", "1", "--referee", "Zhao", "--db", str(db)])
    assert r.exit_code == 0, r.output
    _check_db(db)
    assert _invoke(["standings", "--db", str(db)]).exit_code == 0


def _damage_schema(db: Path) -> None:
    data = bytearray(db.read_bytes())
    at = data.index(b"CREATE TRIGGER")
    data[at:at + 6] = b"CRE\x05?z"
    db.write_bytes(bytes(data))


def _damage_meta(db: Path) -> None:
    c = sqlite3.connect(db)
    c.execute("UPDATE meta SET value='{\x01' WHERE key='venue'")
    c.commit()
    c.close()


@pytest.mark.parametrize("damage", [lambda db: _damage_page(db, 2), _damage_schema,
                                    _damage_meta], ids=["page-2", "schema", "meta"])
def test_a_damaged_tournament_is_damaged_not_a_stranger(template: dict[str, Any],
                                                         tmp_path: Path, damage: Any) -> None:
    """SQLite's "database disk image is malformed" / "malformed database schema (...)" on
    open, or a meta value no longer JSON in a file with backups, said "not a tournament
    database" (exit 2, no way back named; the schema case echoed the damaged bytes)."""
    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    with Tournament.open(db) as t:
        t.backups.write()
    damage(db)
    for args in (["standings"], ["hand", "list"], ["verify"]):
        r = _invoke([*args, "--db", str(db)])
        _assert_contract(r, args)
        assert r.exit_code == 3, (args, r.output)
        assert "damaged" in r.output and "referee-app backup list" in r.output, r.output
        assert "\x05" not in r.output and "?z" not in r.output
    assert _invoke(["backup", "list", "--db", str(db)]).exit_code == 0
    r = _invoke(["backup", "restore", "1", "--referee", "Zhao", "--db", str(db)])
    assert r.exit_code == 0, r.output
    _check_db(db)


def test_damaged_values_refuse_listing_and_export_clearly(template: dict[str, Any],
                                                          tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    data = bytearray(db.read_bytes())
    at = data.find(b'"dealer"')
    assert at > 0
    data[at:at + 3] = b"\xff\xfe\xfd"
    db.write_bytes(bytes(data))
    for args in (["hand", "list"], ["event", "export", str(tmp_path / "out.json")]):
        r = _invoke([*args, "--db", str(db)])
        _assert_contract(r, args)
        assert r.exit_code == 3 and "backup list" in r.output, r.output
        assert "\ufffd" not in r.output


def _mount_tmpfs(where: Path, size: str) -> bool:
    if os.geteuid() != 0 or shutil.which("mount") is None:
        return False
    where.mkdir(exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)],
                       capture_output=True)
    return r.returncode == 0


@pytest.fixture
def tmpfs(tmp_path: Path) -> Iterator[Any]:
    mounted: list[Path] = []

    def make(size: str) -> Path:
        where = tmp_path / f"mnt{len(mounted)}"
        if not _mount_tmpfs(where, size):
            pytest.skip("needs root and tmpfs to simulate a read-only medium or a full disk")
        mounted.append(where)
        return where

    yield make
    for m in mounted:
        subprocess.run(["umount", "-l", str(m)], capture_output=True)


def test_read_only_file_opens_for_viewing_and_refuses_writes(
        template: dict[str, Any], tmpfs: Any) -> None:
    mnt = tmpfs("8m")
    db = mnt / "t.sqlite"
    shutil.copy(template["db"], db)
    subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
    r = _cli("standings", "--db", str(db))
    assert r.returncode == 0 and "李伟" in r.stdout, r.stderr
    r = _cli("players", "add", "New", "--db", str(db))
    _one_error_line(r, 3, "viewing only", "read-only")
    r = _invoke(["event", "export", str(mnt.parent / "out.json"), "--db", str(db)])
    assert r.exit_code == 0, r.output


def test_full_disk_exits_3_and_leaves_no_temp_files(template: dict[str, Any],
                                                     tmpfs: Any) -> None:
    mnt = tmpfs("1m")
    db = mnt / "t.sqlite"
    shutil.copy(template["db"], db)
    free = shutil.disk_usage(mnt).free
    (mnt / "filler").write_bytes(b"\0" * max(0, free - 48 * 1024))  # a few pages left
    codes: list[int] = []
    while 3 not in codes and len(codes) < 80:  # the longest reasons (1,000) until it is full
        r = _cli("penalty", "add", NAMES[1], "--chips", "1", "--reason",
                 "r" * 995 + str(len(codes)), "--db", str(db))
        assert "Traceback" not in r.stderr and "RuntimeWarning" not in r.stderr, r.stderr
        codes.append(r.returncode)
        if r.returncode == 3:
            assert "full" in r.stderr, r.stderr
    assert 3 in codes and set(codes) <= {0, 3}, codes
    r = _cli("event", "backup", "--db", str(db))
    assert r.returncode in (0, 3) and "Traceback" not in r.stderr
    assert not [p for p in mnt.rglob("*.tmp*")], list(mnt.rglob("*"))
    (mnt / "filler").unlink()
    _check_db(db)


def test_a_stray_read_only_shm_means_viewing_only(template: dict[str, Any], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``-shm`` left read-only (by another user) that cannot be made writable again: the
    file opens for viewing and a change is refused with one line naming the ``-shm``."""
    from referee_app.storage import ReadOnlyError, opening

    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    shm = Path(f"{db}-shm")
    shm.write_bytes(b"")
    shm.chmod(0o444)
    real = opening._writable
    monkeypatch.setattr(opening, "_writable",
                        lambda p: False if str(p).endswith("-shm") else real(p))
    with Tournament.open(db, backup_every=0) as t:
        assert t.read_only is not None and "-shm is read-only" in t.read_only
        assert len(t.hands.list()) == 3
        with pytest.raises(ReadOnlyError, match="viewing only"):
            t.players.add("New")
    monkeypatch.undo()
    with Tournament.open(db, backup_every=0) as t:  # once it is writable: changes work
        assert t.read_only is None
        t.players.add("New")
    _check_db(db)


def test_a_file_made_writable_again_after_viewing_it_read_only_takes_changes(
        template: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Viewing a read-only file creates its ``-wal`` and ``-shm`` read-only too (SQLite gives
    them the file's mode). Once the file was made writable again, the ``-shm`` was fixed but
    the ``-wal`` kept every change refused ("-wal is read-only")."""
    from referee_app.storage import opening

    def writable(p: Path) -> bool:  # the mode bits, as for a user without root's override
        return bool(os.stat(p).st_mode & stat.S_IWUSR)

    monkeypatch.setattr(opening, "_writable", writable)
    db = tmp_path / "t.sqlite"
    shutil.copy(template["db"], db)
    db.chmod(0o444)
    with Tournament.open(db, backup_every=0) as t:
        assert t.read_only is not None and len(t.hands.list()) == 3
    sides = [Path(f"{db}-wal"), Path(f"{db}-shm")]
    for side in sides:  # what the viewing left (as SQLite leaves them, or a crash)
        if not side.exists():
            side.write_bytes(b"")
        side.chmod(0o444)
    db.chmod(0o644)
    with Tournament.open(db, backup_every=0) as t:
        assert t.read_only is None, t.read_only
        t.players.add("New")
    assert all(writable(side) for side in sides if side.exists())
    _check_db(db)


def test_a_read_only_folder_is_named(tmpfs: Any) -> None:
    mnt = tmpfs("1m")
    subprocess.run(["mount", "-o", "remount,ro", str(mnt)], check=True)
    r = _cli("event", "new", "X", "--db", str(mnt / "new.sqlite"))
    _one_error_line(r, 3, "folder", "read-only")
    assert "not a tournament" not in r.stderr


def _set(obj: Any, path: tuple[Any, ...], value: Any) -> Any:
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    return value


@pytest.mark.parametrize(("path", "value", "expected"), [
    (("tournament", "referees"), [1, 2], "tournament.referees[0]: expected a name"),
    (("tournament", "ruleset"), "nope", "tournament.ruleset: unknown ruleset 'nope'"),
    (("tournament", "ruleset"), "sichuan-jipin", "record.ruleset: the hand is under"),
    (("hands", 0, "versions", 0, "record", "seats", "E", "player"), "nobody",
     "hands[0].versions[0].record.seats.E.player: unknown player 'nobody'"),
    (("hands", 0, "versions", 0, "record"), [], "hands[0].versions[0].record: expected dict"),
    (("players", 0, "name"), "a\tb", "players[0].name: contains a control character"),
    (("players", 0, "id"), 10**20, "players[0].id: expected a whole number up to"),
    (("rounds", 0, "tables", "1", "E"), ["x"], "rounds[0].tables.1.E: unknown player"),
])
def test_bad_bundles_are_refused_with_one_line(template: dict[str, Any], tmp_path: Path,
                                               path: tuple[Any, ...], value: Any,
                                               expected: str) -> None:
    bundle = json.loads(json.dumps(template["bundle"]))
    bundle = _legacy(bundle)  # no chain to refuse the edit first: the checks themselves
    _set(bundle, path, value)
    f = tmp_path / "b.json"
    f.write_text(json.dumps(bundle, ensure_ascii=False), encoding="utf-8")
    db = tmp_path / "new.sqlite"
    args = ["event", "import", str(f), "--legacy"]
    r = _invoke([*args, "--db", str(db)])
    _assert_contract(r, args)
    assert r.exit_code == 2 and expected in r.output, r.output
    assert r.output.count("\n") == 1 and r.output.count("versions[0].record") <= 1
    assert not db.exists()
