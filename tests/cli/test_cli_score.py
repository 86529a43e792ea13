"""``referee-app score`` (issue 2 CLI contract) and ``--help`` on every command."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner

from referee_app.cli import COMMANDS
from referee_app.cli import main as cli_main
from referee_app.core import HandRecord, settle

GOLDEN = Path(__file__).resolve().parents[1] / "fixtures" / "golden"
ROOT = Path(__file__).resolve().parents[2]


def golden(name: str) -> dict[str, Any]:
    return json.loads((GOLDEN / f"{name}.json").read_text("utf-8"))


def example() -> dict[str, Any]:
    return golden("hand_format_example")["record"]


def broken() -> dict[str, Any]:
    """Readable, but breaks §2.4: N's winning hand holds three suits."""
    r = golden("ottawa_ex3_seven_pairs_root")["record"]
    r["seats"]["N"]["concealed"] = "345567m789p678s8s"
    return r


def run(args: list[str], stdin: str | None = None) -> Any:
    return CliRunner().invoke(cli_main, args, input=stdin)


def write(tmp_path: Path, obj: Any, name: str = "hand.json") -> Path:
    p = tmp_path / name
    p.write_text(obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False),
                 encoding="utf-8")
    return p


# --------------------------------------------------------------------------- score FILE


def test_score_text(tmp_path: Path) -> None:
    res = run(["score", str(write(tmp_path, example()))])
    assert res.exit_code == 0, res.output
    out = res.stdout
    # the wins with pattern and bonus, the payments table, totals and the trace
    for needle in ("清一色", "根", "§5.1", "基本和", "§2.10", "§2.11", "flower pig", "§2.12"):
        assert needle in out, needle
    assert "E +30" in out and "W -61" in out and "S +16" in out and "N +15" in out
    trace = settle(HandRecord.from_dict(example())).trace
    assert all(line in out for line in trace)


def test_score_text_invalid_lists_errors(tmp_path: Path) -> None:
    res = run(["score", str(write(tmp_path, broken()))])
    assert res.exit_code == 1
    assert "§2.4" in res.stdout and "N" in res.stdout


def test_score_json_is_the_settlement(tmp_path: Path) -> None:
    res = run(["score", str(write(tmp_path, example())), "--json"])
    assert res.exit_code == 0
    d = json.loads(res.stdout)
    s = settle(HandRecord.from_dict(example()))
    assert d == s.data()
    # the stored document, with the data beside it: steps, reasons' and errors' codes
    stored = s.to_dict()
    assert {k: v for k, v in d.items() if k != "steps"} == stored | {"payments": [
        p | {"reason_code": x.code, "reason_params": d["payments"][i]["reason_params"]}
        for i, (p, x) in enumerate(zip(stored["payments"], s.payments, strict=True))]}
    assert [st["text"] for st in d["steps"]] == stored["trace"]
    assert d["format"] == "sichuan-settlement/1"
    assert d["totals"] == {"E": 30, "S": 16, "W": -61, "N": 15}


def test_score_json_invalid_exit_1(tmp_path: Path) -> None:
    res = run(["score", str(write(tmp_path, broken())), "--json"])
    assert res.exit_code == 1
    d = json.loads(res.stdout)
    assert d["ok"] is False and [e["clause"] for e in d["errors"]] == ["§2.4"]
    assert [e["code"] for e in d["errors"]] == ["false_win"]
    assert d["errors"][0]["params"]["s"] == d["errors"][0]["seat"]
    assert d["payments"] == [] and d["totals"] == {} and d["end_check"] is None


def test_score_stdin() -> None:
    res = run(["score", "-", "--json"], stdin=json.dumps(example(), ensure_ascii=False))
    assert res.exit_code == 0
    assert json.loads(res.stdout)["totals"]["W"] == -61


@pytest.mark.parametrize(("content", "field"), [
    ("{not json", ""),
    (json.dumps({"format": "sichuan-hand/1", "ruleset": "ottawa-2009", "seats": {},
                 "events": []}), "seats.E"),
    ("BAD_TILE", "seats.W.concealed"),
    ("BAD_FLAG", "events[1].flags[0]"),
    ("NO_FROM", "events[0].from"),
])
def test_score_unreadable_exit_2(tmp_path: Path, content: str, field: str) -> None:
    if content == "BAD_TILE":
        r = example()
        r["seats"]["W"]["concealed"] = "35579m2468p13x7s"
        content = json.dumps(r)
    elif content == "BAD_FLAG":
        r = example()
        r["events"][1]["flags"] = ["dragon"]
        content = json.dumps(r)
    elif content == "NO_FROM":
        r = example()
        r["events"][0]["kind"] = "direct"
        content = json.dumps(r)
    for args in (["score", str(write(tmp_path, content))],
                 ["score", str(write(tmp_path, content)), "--json"]):
        res = run(args)
        assert res.exit_code == 2
        if "--json" in args:  # no settlement: the error as JSON, its code beside the words
            err = json.loads(res.stdout)["error"]
            assert err["field"] == field and err["code"] and "params" in err
            assert f"error: {field + ': ' if field else ''}{err['message']}" in res.stderr
        else:
            assert res.stdout == ""  # nothing written
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: ")
        if field:
            assert f"error: {field}: " in lines[0]
        if content.startswith("{not"):
            assert "JSON" in lines[0]


def test_score_missing_file_exit_2(tmp_path: Path) -> None:
    res = run(["score", str(tmp_path / "nope.json")])
    assert res.exit_code == 2 and res.stderr.startswith("error: ")


# --------------------------------------------------------------------------- --jsonl


def test_jsonl_batch_goes_on_after_bad_lines(tmp_path: Path) -> None:
    lines = [json.dumps(example(), ensure_ascii=False), "{oops",
             json.dumps(broken(), ensure_ascii=False), "",
             json.dumps(golden("one_discard_three_winners")["record"])]
    f = write(tmp_path, "\n".join(lines) + "\n", "batch.jsonl")
    res = run(["score", str(f), "--jsonl"])
    assert res.exit_code == 2  # the highest of the lines' codes
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert len(out) == 4  # the blank line yields nothing
    assert out[0]["ok"] is True and out[0]["totals"]["W"] == -61
    assert out[1]["ok"] is False and out[1]["line"] == 2 and out[1]["errors"]
    assert set(out[1]) >= {"ok", "errors", "line"}
    assert out[2]["ok"] is False and out[2]["errors"][0]["clause"] == "§2.4"
    assert out[3]["ok"] is True and out[3]["totals"]["S"] == -19
    # each output line is one compact JSON document
    assert all("\n" not in x for x in res.stdout.splitlines())


def test_jsonl_exit_codes(tmp_path: Path) -> None:
    ok = json.dumps(example())
    res = run(["score", str(write(tmp_path, ok + "\n" + ok + "\n")), "--jsonl"])
    assert res.exit_code == 0 and len(res.stdout.splitlines()) == 2
    res = run(["score", str(write(tmp_path, ok + "\n" + json.dumps(broken()) + "\n")),
               "--jsonl"])
    assert res.exit_code == 1


def test_jsonl_from_stdin() -> None:
    text = json.dumps(example()) + "\n" + json.dumps(["not", "a", "record"]) + "\n"
    res = run(["score", "-", "--jsonl"], stdin=text)
    assert res.exit_code == 2
    out = [json.loads(x) for x in res.stdout.splitlines()]
    assert out[0]["ok"] is True and out[1] == {**out[1], "ok": False, "line": 2}


# --------------------------------------------------------------------------- --help


def _all_commands() -> list[tuple[str, ...]]:
    """Every command path: the COMMANDS entries and the subcommands of groups."""
    out: list[tuple[str, ...]] = []
    for name, target in sorted(COMMANDS.items()):
        module, attr = target.split(":")
        cmd = getattr(importlib.import_module(module), attr)
        out.append((name,))
        if isinstance(cmd, click.Group):
            out += [(name, sub) for sub in sorted(cmd.commands)]
    return out


@pytest.mark.parametrize("path", _all_commands(), ids=" ".join)
def test_every_command_has_help(path: tuple[str, ...]) -> None:
    res = run([*path, "--help"])
    assert res.exit_code == 0, res.output
    assert "Usage:" in res.stdout
    # a help text that says something beyond the usage line
    assert len(res.stdout.strip().splitlines()) >= 3


def test_top_level_help_lists_every_command() -> None:
    """Each command with the first line of its own help, whole (not cut off with ...)."""
    res = run(["--help"])
    assert res.exit_code == 0
    lines = {line.split()[0]: line for line in res.stdout.splitlines()
             if line.startswith("  ") and line.split() and line.split()[0] in COMMANDS}
    assert set(lines) == set(COMMANDS)
    for name, line in lines.items():
        first = run([name, "--help"]).stdout.split("\n\n")[1].strip().splitlines()[0]
        assert line.split(None, 1)[1] == first and not line.endswith("..."), name


# --------------------------------------------------------------------------- real process


def test_real_subprocess(tmp_path: Path) -> None:
    exe = Path(sys.executable).parent / "referee-app"
    if not exe.exists():
        exe = ROOT / ".venv" / "bin" / "referee-app"
    f = write(tmp_path, example())
    proc = subprocess.run([str(exe), "score", str(f), "--json"], capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["totals"] == {"E": 30, "S": 16, "W": -61, "N": 15}
    bad = write(tmp_path, "{", "bad.json")
    proc = subprocess.run([str(exe), "score", str(bad)], capture_output=True, text=True,
                          timeout=60, check=False)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("error: ") and "Traceback" not in proc.stderr
