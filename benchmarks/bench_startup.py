"""Benchmark of CLI start-up (issue 11): whole-process time of one command, fresh process.

Measures ``referee-app --help``, ``score --json`` on one record, and — on an event the size
of a real tournament (issue 23: ``event_cache.py``, 256 players x 8 rounds x 4 hands by
default, ``--players 1000``; a copy, backups on) — ``hand add`` (a hand of the last round:
open, check, save, the backup point on closing), ``standings``, ``hand list`` of one table
and ``report player``; each N times (default 15), printing the median and best wall time
and the median CPU time (user + system, which machine load disturbs less than wall time),
after one warm-up run, with byte code cached as in a user's session. Target: median wall
<= 0.5 s a command (``score --json``, ``hand add``, ``standings`` and ``--help``). It prints
the figures to be read; no test asserts them (a test would fail with the machine's load,
not with the code).

Run: ``.venv/bin/python benchmarks/bench_startup.py [--runs N] [--players 1000]``.
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
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


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
    ap.add_argument("--players", type=int, default=256, help="the event's size")
    args = ap.parse_args()
    from event_cache import HEAD, HEAD_PIN, event_file, fresh_copy

    from referee_app.storage import Tournament

    base = cli()
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH",
                                                                                ""),
           "REFEREE_PIN": HEAD_PIN}
    # as a user runs it: byte code cached (a session with PYTHONDONTWRITEBYTECODE=1 would
    # otherwise compile every module on every run, ~45 ms); the cache goes to a scratch
    # folder, never into the source tree
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    record = json.loads(FIXTURE.read_text(encoding="utf-8"))["record"]
    for seat in record["seats"].values():
        seat.pop("player", None)
    event_file(args.players)  # built (and cached) before anything is timed
    d = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    env["PYTHONPYCACHEPREFIX"] = str(d / "pycache")
    try:
        hand = d / "hand.json"
        hand.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        db = fresh_copy(args.players, d)
        with Tournament.open(db) as t:
            last = max(r.number for r in t.rounds.list())
            first = t.hands.next_no(last, 1)
            player = t.players.list()[len(t.players.list()) // 2].name
            hands, size = len(t.hands.index()), db.stat().st_size
            t.backups.write()  # its first backup point (the whole record) beforehand
        print(f"CLI start-up, {args.runs} fresh processes each ({' '.join(base)}; event of "
              f"{args.players} players, {hands} hands, {size / 1e6:.0f} MB; load average "
              f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores)")
        measure("--help", lambda i: [*base, "--help"], args.runs, env, TARGET_S)
        measure("score --json (one record)", lambda i: [*base, "score", "--json", str(hand)],
                args.runs, env, TARGET_S)
        measure("hand add", lambda i: [*base, "hand", "add", str(hand), "--round", str(last),
                                        "--table", "1", "--hand", str(first + i + 1),
                                        "--referee", HEAD, "--db", str(db)], args.runs, env,
                TARGET_S)
        measure("standings", lambda i: [*base, "standings", "--db", str(db)], args.runs,
                env, TARGET_S)
        measure("hand list (one table)", lambda i: [*base, "hand", "list", "--round",
                                                     str(last), "--table", "1", "--db",
                                                     str(db)], args.runs, env, None)
        measure("report player", lambda i: [*base, "report", "player", player,
                                             "-o", str(d / f"p{i}.pdf"), "--db", str(db)],
                args.runs, env, None)
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
