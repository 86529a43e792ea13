"""Benchmark of the scoring engine (issue 2 targets).

1. Settle N (default 10,000) varied valid records in one process — HandRecord.from_dict +
   settle — and print hands/second. Target: >= 10,000 hands/s on the 2-core machines.
2. Cold ``referee-app score --json`` on one record in a fresh process, wall seconds,
   best of 5. Target: <= 0.4 s.

Records come from referee_app.core.generate (deterministic per --seed); the mix is printed
so the figure can be judged. Run: ``.venv/bin/python benchmarks/bench_settle.py``.
"""

from __future__ import annotations

import argparse
import collections
import gc
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from referee_app.core import HandRecord, settle
from referee_app.core.generate import random_records

TARGET_HANDS_PER_S = 10_000
TARGET_COLD_S = 0.4


def mix(records: list[dict[str, Any]], settlements: list[Any]) -> collections.Counter[str]:
    """What the records exercise: kongs, multi-wins, flags, end checks."""
    c: collections.Counter[str] = collections.Counter()
    for rec, s in zip(records, settlements, strict=True):
        c["records"] += 1
        kinds = [e["kind"] for e in rec["events"] if e["type"] == "kong"]
        c["records with a kong"] += bool(kinds)
        for k in kinds:
            c[f"kong: {k}"] += 1
        for e in rec["events"]:
            if e["type"] != "win":
                continue
            c["win events"] += 1
            if len(e["seats"]) > 1:
                c[f"one discard, {len(e['seats'])} winners"] += 1
            c["self-drawn wins" if e.get("from") is None else "discard wins"] += 1
            for f in e.get("flags", []):
                c[f"flag: {f}"] += 1
        c[f"hands with {len(s.wins)} winner(s)"] += 1
        for w in s.wins:
            c[f"win pattern {w.score.pattern_clause} {w.pattern}"] += 1
            c["wins with a root (§5.1)"] += any(b.clause == "§5.1" for b in w.score.bonuses)
        ec = s.end_check
        if ec is not None and ec.applies:
            c["end checks"] += 1
            c["end check: flower pigs"] += len(ec.flower_pigs)
            c["end check: 相公"] += len(ec.xianggong)
            c["end check: ready seats"] += sum(r.ready for r in ec.ready.values())
            c["end check: not-ready seats"] += sum(not r.ready for r in ec.ready.values())
        clauses = {p.clause for p in s.payments}
        c["hands with a price difference (§2.13)"] += "§2.13" in clauses
        c["hands with a refund (§2.14)"] += "§2.14" in clauses
    return c


def time_settle(records: list[dict[str, Any]]) -> tuple[float, int]:
    """Seconds to load and settle every record, and how many settled ok.

    Only the count is kept, as a scoring run over a tournament's hands would: keeping all
    10,000 settlements alive makes the garbage collector rescan them during the pass and
    measures that instead (see ``time_settle_keeping``).
    """
    t0 = time.perf_counter()
    ok = 0
    for r in records:
        ok += settle(HandRecord.from_dict(r)).ok
    return time.perf_counter() - t0, ok


def time_settle_keeping(records: list[dict[str, Any]]) -> tuple[float, list[Any]]:
    """The same pass keeping every settlement (for the mix, and as a second figure)."""
    t0 = time.perf_counter()
    out = [settle(HandRecord.from_dict(r)) for r in records]
    return time.perf_counter() - t0, out


def cold_cli(record: dict[str, Any], runs: int = 5) -> list[float]:
    exe = Path(sys.executable).parent / "referee-app"
    cmd = [str(exe)] if exe.exists() else [shutil.which("referee-app") or "referee-app"]
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "hand.json"
        f.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            proc = subprocess.run([*cmd, "score", str(f), "--json"], capture_output=True,
                                  check=False)
            times.append(time.perf_counter() - t0)
            if proc.returncode != 0:
                raise SystemExit(f"referee-app score failed: {proc.stderr.decode()}")
    return times


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-n", type=int, default=10_000, help="records to settle (10,000)")
    ap.add_argument("--seed", type=int, default=2009, help="generator seed (2009)")
    ap.add_argument("--ruleset", default="ottawa-2009")
    ap.add_argument("--passes", type=int, default=3, help="timed passes over the records")
    args = ap.parse_args(argv)

    t0 = time.perf_counter()
    records = random_records(args.n, args.seed, args.ruleset, check=False)
    gen_s = time.perf_counter() - t0
    print(f"generated {len(records):,} {args.ruleset} records (seed {args.seed}) "
          f"in {gen_s:.2f} s")
    # Collect once before timing, as timeit-style harnesses do: otherwise the first pass pays
    # for a full collection triggered by the ~300k objects the generator just made.
    gc.collect()

    timings = []
    oks = []
    for _ in range(max(args.passes, 1)):
        secs, ok = time_settle(records)
        timings.append(secs)
        oks.append(ok)
    keep_secs, settlements = time_settle_keeping(records)
    bad = sum(not s.ok for s in settlements)
    assert all(ok == len(records) - bad for ok in oks), "timed passes disagree with the mix pass"
    print("\nmix:")
    for k, v in sorted(mix(records, settlements).items()):
        print(f"  {v:>7,}  {k}")
    if bad:
        print(f"\nWARNING: {bad} generated records did not settle ok")

    first, best = timings[0], min(timings)
    rate_first, rate_best = len(records) / first, len(records) / best
    print(f"\nsettle (from_dict + settle), {len(records):,} records, {len(timings)} passes:")
    print(f"  first pass  {first:.3f} s = {rate_first:,.0f} hands/s (cold memo tables)")
    print(f"  best pass   {best:.3f} s = {rate_best:,.0f} hands/s")
    print(f"  (a further pass keeping all {len(records):,} settlements in a list: "
          f"{keep_secs:.3f} s = {len(records) / keep_secs:,.0f} hands/s)")
    ok_rate = rate_first >= TARGET_HANDS_PER_S
    print(f"  target >= {TARGET_HANDS_PER_S:,} hands/s: {'PASS' if ok_rate else 'FAIL'} "
          "(judged on the first pass)")

    times = cold_cli(records[0])
    cold = min(times)
    ok_cold = cold <= TARGET_COLD_S
    print(f"\ncold `referee-app score --json` on one record, 5 runs: "
          f"{', '.join(f'{t:.3f}' for t in times)} s")
    print(f"  best {cold:.3f} s; target <= {TARGET_COLD_S} s: {'PASS' if ok_cold else 'FAIL'}")
    return 0 if ok_rate and ok_cold and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
