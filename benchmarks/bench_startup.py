"""Benchmark of CLI start-up (issue 11): whole-process time of one command, fresh process.

Measures ``referee-app --help``, ``score --json`` on one record, and — on a scratch
tournament — ``hand add`` and ``standings``; each N times (default 15), printing the
median and best wall time and the median CPU time (user + system, which machine load
disturbs less than wall time), after one warm-up run, with byte code cached as in a
user's session. Target: median wall <= 0.5 s a command (``score --json``, ``hand add``,
``standings`` and ``--help``). It prints the figures to be read; no test asserts them (a
test would fail with the machine's load, not with the code).

Run: ``.venv/bin/python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_S = 0.5  # seconds, median wall, each command
ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "tests" / "fixtures" / "golden" / "hand_format_example.json"
PLAYERS = ["李伟", "张敏", "陈杰", "王芳"]


def cli() -> list[str]:
    """The console entry point beside this interpreter, else ``python -m referee_app``."""
    exe = Path(sys.executable).with_name("referee-app")
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "referee_app"]


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system of the child) and the exit code."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime
    if p.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode()[-300:]}")
    return wall, cpu, p.returncode


def measure(label: str, make_cmd, runs: int, env: dict[str, str],
            target: float | None) -> None:
    timed(make_cmd(runs), env)  # warm-up: byte code written, files in the page cache
    walls, cpus = [], []
    for i in range(runs):
        wall, cpu, _ = timed(make_cmd(i), env)
        walls.append(wall)
        cpus.append(cpu)
    med = statistics.median(walls)
    verdict = "" if target is None else (" OK" if med <= target else f" ABOVE {target} s")
    print(f"{label:<28} wall median {med:.3f} s  best {min(walls):.3f} s  "
          f"cpu median {statistics.median(cpus):.3f} s{verdict}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    base = cli()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH",
                                                                                "")}
    # as a user runs it: byte code cached (a session with PYTHONDONTWRITEBYTECODE=1 would
    # otherwise compile every module on every run, ~45 ms); the cache goes to a scratch
    # folder, never into the source tree
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    record = json.loads(FIXTURE.read_text(encoding="utf-8"))["record"]
    for seat in record["seats"].values():
        seat.pop("player", None)
    d = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    env["PYTHONPYCACHEPREFIX"] = str(d / "pycache")
    try:
        hand = d / "hand.json"
        hand.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        db = d / "t.sqlite"
        players = d / "players.csv"
        players.write_text("name\n" + "\n".join(PLAYERS) + "\n", encoding="utf-8")
        for setup in (["event", "new", "Bench", "--db", str(db)],
                      ["players", "import", str(players), "--db", str(db)],
                      ["round", "seat", "1", "--seed", "1", "--db", str(db)]):
            timed([*base, *setup], env)
        print(f"CLI start-up, {args.runs} fresh processes each ({' '.join(base)}; "
              f"load average {os.getloadavg()[0]:.2f})")
        measure("--help", lambda i: [*base, "--help"], args.runs, env, TARGET_S)
        measure("score --json (one record)", lambda i: [*base, "score", "--json", str(hand)],
                args.runs, env, TARGET_S)
        measure("hand add", lambda i: [*base, "hand", "add", str(hand), "--round", "1",
                                        "--table", "1", "--hand", str(i + 1), "--db",
                                        str(db)], args.runs, env, TARGET_S)
        measure("standings", lambda i: [*base, "standings", "--db", str(db)], args.runs,
                env, TARGET_S)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
