"""Fuzzing the storage-free commands (``score``, ``analyse``, ``rules``, ``rulesets``) with
generated arguments and files (issue 11): whatever comes in, the exit code is one of the
documented 0/1/2/3, no traceback is printed and no "internal error" line either (that
line is the last-resort handler; reaching it is a bug this test reports).

In-process through click's CliRunner for speed, plus a few real subprocess runs (real
argv and stdin bytes, the console entry point).
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee_app.cli import main as cli_main
from referee_app.core import ruleset_ids
from referee_app.core.generate import random_record
from tests.examples import spec_example

ROOT = Path(__file__).resolve().parents[2]
FUZZ = settings(max_examples=120, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
_TMP = tempfile.mkdtemp(prefix="referee-fuzz-")

# text as argv can carry it: any code point, lone surrogates included (surrogateescape)
ANY_TEXT = st.text(st.characters(codec=None, exclude_characters="\x00"), max_size=12)
TILE_TEXT = st.text(alphabet="123456789mps万筒条 0x\t\ud800é-", max_size=18)
NUMBER_TEXT = st.one_of(
    st.integers(min_value=-(10**25), max_value=10**25).map(str),
    st.sampled_from(["0", "1", "99", "100", "1000000", "1000001", "-1", "1.5", "1e3", "",
                     "٣", "9" * 5000, "0x10", " 7 "]),
)
KEYS = ["format", "ruleset", "dealer", "seats", "events", "wall_exhausted", "flag", "pong",
        "event", "wall_exausted", "note", "referee", "colour", "seat", "tile", "kind", "from"]
JUNK = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(min_value=-(10**30), max_value=10**30),
              st.floats(allow_nan=False, allow_infinity=False), ANY_TEXT,
              st.sampled_from(["E", "S", "7p", "1112345678999m", "kong", "win", "direct",
                               "robbing_kong", "sichuan-hand/1", "zigong-3p"])),
    lambda inner: st.one_of(st.lists(inner, max_size=4),
                            st.dictionaries(st.sampled_from(KEYS) | ANY_TEXT, inner,
                                            max_size=4)),
    max_leaves=12,
)


@st.composite
def record_bytes(draw: st.DrawFn) -> bytes:
    """A file's bytes: a valid record, a mutated one, or hostile JSON/bytes."""
    kind = draw(st.sampled_from(["valid", "mutated", "mutated", "mutated", "hostile",
                                 "junk_json", "bytes"]))
    if kind == "bytes":
        return draw(st.binary(max_size=64))
    if kind == "hostile":
        return draw(st.sampled_from([
            b"", b"\xef\xbb\xbf", b"   ", b"null", b"42", b'"x"', b"[]", b"[1,2]", b"true",
            b"[" * 50_000 + b"]" * 50_000, b'{"a": ' + b"9" * 5000 + b"}", b"NaN",
            b'{"format": "sichuan-hand/1", "x": Infinity}', b"\xff\xfe{}",
            b'{"seats": {"E": {"player": "\\ud800"}}}', b"{" * 3000,
        ]))
    if kind == "junk_json":
        return json.dumps(draw(JUNK)).encode()
    seed = draw(st.integers(min_value=0, max_value=10_000))
    rid = draw(st.sampled_from(ruleset_ids()))
    rec: Any = random_record(random.Random(seed), rid) if seed % 3 else spec_example()
    if kind == "mutated":
        rec = copy.deepcopy(rec)
        for _ in range(draw(st.integers(min_value=1, max_value=3))):
            target = rec
            path = draw(st.lists(st.sampled_from(["seats", "events", "E", "S", "N", 0, 1]),
                                 max_size=2))
            for p in path:
                if isinstance(target, dict) and p in target:
                    target = target[p]
                elif isinstance(target, list) and isinstance(p, int) and p < len(target):
                    target = target[p]
            if isinstance(target, dict) and target:
                key = draw(st.sampled_from(sorted(target)))
                action = draw(st.sampled_from(["drop", "rename", "junk", "tiles", "tiles"]))
                if action == "tiles" and isinstance(rec.get("seats"), dict) and all(
                        isinstance(v, dict) for v in rec["seats"].values()) and rec["seats"]:
                    # readable but likely against the rules: exit 1
                    seat = rec["seats"][draw(st.sampled_from(sorted(rec["seats"])))]
                    seat["concealed"] = draw(st.text(alphabet="123456789", min_size=1,
                                                     max_size=14)) + draw(
                        st.sampled_from(["m", "p", "s"]))
                elif action in ("drop", "tiles"):
                    del target[key]
                elif action == "rename":
                    target[draw(st.sampled_from(KEYS) | ANY_TEXT)] = target.pop(key)
                else:
                    target[key] = draw(JUNK)
    text = json.dumps(rec, ensure_ascii=draw(st.booleans()))
    if draw(st.booleans()):
        text = "\ufeff" + text
    return text.encode("utf-8", "surrogatepass")


def _file(data: bytes) -> str:
    fd, path = tempfile.mkstemp(dir=_TMP, suffix=".json")
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    return path


def check(args: list[str], stdin: bytes | None = None) -> None:
    res = CliRunner().invoke(cli_main, args, input=stdin)
    out = res.stdout + res.stderr
    assert res.exit_code in (0, 1, 2, 3), (args, res.exit_code, out[-500:], res.exception)
    assert res.exception is None or isinstance(res.exception, SystemExit), (
        args, repr(res.exception))
    assert "Traceback" not in out, (args, out[-500:])
    assert "internal error" not in res.stderr, (args, res.stderr)


@FUZZ
@given(data=record_bytes(), fmt=st.sampled_from([[], ["--json"], ["--jsonl"]]),
       cap=st.none() | st.none() | NUMBER_TEXT, stake=st.none() | st.none() | NUMBER_TEXT,
       stdin=st.booleans())
def test_score_fuzz(data: bytes, fmt: list[str], cap: str | None, stake: str | None,
                    stdin: bool) -> None:
    args = ["score", *fmt]
    if cap is not None:
        args += ["--cap-fan", cap]
    if stake is not None:
        args += ["--stake", stake]
    if stdin:
        check([*args, "-"], data)
    else:
        check([*args, _file(data)])


@FUZZ
@given(data=st.lists(record_bytes(), min_size=1, max_size=4))
def test_score_jsonl_fuzz(data: list[bytes]) -> None:
    lines = [d.replace(b"\n", b" ") for d in data]
    check(["score", "--jsonl", _file(b"\n".join(lines))])


def test_a_lone_surrogate_quoted_in_an_error_line_is_escaped() -> None:
    """Found by the fuzz above: a bad value with a lone surrogate in it, quoted back in a
    ``--jsonl`` error line, is written as a JSON escape (no UTF-8 carries it)."""
    line = (b'{"format": "sichuan-hand/1", "ruleset": "ottawa-2009", '
            b'"dealer": {"\\ud800": null}, "seats": {'
            b'"E": {"concealed": "1112345678999m", "pongs": []}, '
            b'"S": {"concealed": "2366p456s", "pongs": ["5p"]}, '
            b'"W": {"concealed": "35579m2468p1357s", "pongs": []}, '
            b'"N": {"concealed": "2344567p345678s", "pongs": []}}, "events": []}')
    check(["score", "--jsonl", _file(line)])
    res = CliRunner().invoke(cli_main, ["score", "--jsonl", _file(line)])
    out = json.loads(res.stdout)
    assert res.exit_code == 2 and out["errors"][0]["field"] == "dealer"
    assert out["errors"][0]["params"]["got"] == {"\ud800": None}


@FUZZ
@given(tiles=TILE_TEXT, win=st.none() | TILE_TEXT, pongs=st.lists(TILE_TEXT, max_size=2),
       kongs=st.lists(TILE_TEXT, max_size=2),
       ruleset=st.none() | st.sampled_from([*ruleset_ids(), "nope", "\ud800"]))
def test_analyse_fuzz(tiles: str, win: str | None, pongs: list[str], kongs: list[str],
                      ruleset: str | None) -> None:
    args = ["analyse", "--", tiles] if tiles.startswith("-") else ["analyse", tiles]
    opts: list[str] = []
    if win is not None:
        opts += ["--win", win]
    for p in pongs:
        opts += ["--pong", p]
    for k in kongs:
        opts += ["--kong", k]
    if ruleset is not None:
        opts += ["--ruleset", ruleset]
    check([args[0], *opts, *args[1:]])


@st.composite
def analyse_hands(draw: st.DrawFn) -> list[str]:
    """Well-formed notation with any counts: 13 or 14 tiles, fifth copies, melds."""
    counts = draw(st.lists(st.integers(min_value=0, max_value=6), min_size=27, max_size=27))
    tiles = "".join(f"{(i % 9 + 1)}{'mps'[i // 9]}" * c for i, c in enumerate(counts))
    n = draw(st.sampled_from([13, 14, len(tiles) // 2]))
    args = ["analyse", tiles[: 2 * n] or "1m"]
    for _ in range(draw(st.integers(min_value=0, max_value=2))):
        args += [draw(st.sampled_from(["--pong", "--kong"])),
                 draw(st.sampled_from(["1m", "5p", "9s", "2s"]))]
    return args


@FUZZ
@given(args=analyse_hands())
def test_analyse_counts_fuzz(args: list[str]) -> None:
    check(args)


@FUZZ
@given(ruleset=st.sampled_from(ruleset_ids()) | ANY_TEXT, clause=st.none() | ANY_TEXT |
       st.sampled_from(["§2.12", "Z3", "J1", "§99"]), extra=st.lists(ANY_TEXT, max_size=2))
def test_rules_and_rulesets_fuzz(ruleset: str, clause: str | None, extra: list[str]) -> None:
    args = ["rules", "--", ruleset] if ruleset.startswith("-") else ["rules", ruleset]
    if clause is not None:
        args = [args[0], "--clause", clause, *args[1:]]
    check(args)
    check(["rulesets", *extra])


def test_subprocess_runs_no_traceback(tmp_path: Path) -> None:
    """Real processes: argv and stdin bytes as a shell passes them."""
    hostile = [b"", b"null", b"[" * 100_000, b'{"a": ' + b"1" * 5000 + b"}", b"\xff\xfe",
               json.dumps(spec_example()).encode()]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    env.pop("REFEREE_APP_DEBUG", None)
    for data in hostile:
        for args in (["score", "-"], ["score", "--jsonl", "-"], ["score", "--json", "-"]):
            p = subprocess.run([sys.executable, "-m", "referee_app", *args], input=data,
                               capture_output=True, env=env, timeout=60)
            assert p.returncode in (0, 1, 2), (args, data[:20], p.stderr[-300:])
            assert b"Traceback" not in p.stderr + p.stdout
    for args in (["analyse", "11111111111111m"], ["analyse", "\udcff1m"],
                 ["score", "--stake", "9" * 30, "-"], ["rules", "x\udcff"]):
        p = subprocess.run([sys.executable, "-m", "referee_app", *args], input=b"{}",
                           capture_output=True, env=env, timeout=60)
        assert p.returncode in (1, 2), (args, p.stderr[-300:])
        assert b"Traceback" not in p.stderr
