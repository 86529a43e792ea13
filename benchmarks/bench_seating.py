#!/usr/bin/env python3
"""Seating plan benchmark (issue 13): figures and time of whole-event plans.

Targets: 16×4, 16×5, 32×8, 64×8, 128×8 give 0 repeats; 16×6 and 16×8 reach the counting
bound; wind spread ≤ 1 everywhere and 0 at 4 and 8 rounds; each plan ≤ 5 s. Also prints
cases no design covers (searched), with byes, and 3-seat (Zigong) tables, for the record.

Usage:  python benchmarks/bench_seating.py [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.core.planning import plan  # noqa: E402

WINDS = ("E", "S", "W", "N")
TARGETS = [(16, 4), (16, 5), (16, 6), (16, 8), (32, 8), (64, 8), (128, 8)]
EXTRA = [(20, 6, WINDS), (36, 7, WINDS), (100, 8, WINDS), (124, 8, WINDS), (18, 5, WINDS),
         (27, 6, WINDS[:3]), (30, 5, WINDS[:3])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'players×rounds':>16} {'seats':>5} {'repeats':>7} {'bound':>5} {'wind':>4} "
          f"{'seat again':>10} {'time':>7}  method")
    failed = []
    for n, rounds, seats in [(n, r, WINDS) for n, r in TARGETS] + EXTRA:
        t0 = time.perf_counter()
        p = plan(list(range(1, n + 1)), seats, rounds, seed=args.seed)
        dt = time.perf_counter() - t0
        f = p.figures
        print(f"{f'{n}×{rounds}':>16} {len(seats):>5} {f.repeats:>7} {f.bound:>5} "
              f"{f.wind_spread:>4} {f.same_seat_same_table:>10} {dt:>6.2f}s  {p.method}")
        if (n, rounds) in TARGETS:
            if f.repeats != f.bound:
                failed.append(f"{n}×{rounds}: {f.repeats} repeats, bound {f.bound}")
            if f.wind_spread > (0 if rounds % 4 == 0 else 1):
                failed.append(f"{n}×{rounds}: wind spread {f.wind_spread}")
            if dt > 5:
                failed.append(f"{n}×{rounds}: {dt:.1f} s")
    print("\nafter a hand-seated round 1 (random), planning the rest:")
    for n, rounds in ((16, 4), (32, 8), (64, 8), (128, 8)):
        pool = list(range(1, n + 1))
        random.Random(n).shuffle(pool)
        first = [tuple(pool[i:i + 4]) for i in range(0, n, 4)]
        t0 = time.perf_counter()
        p = plan(list(range(1, n + 1)), WINDS, rounds - 1, played=[first], seed=args.seed)
        dt = time.perf_counter() - t0
        f = p.figures
        print(f"{f'{n}×{rounds}':>16} {4:>5} {f.repeats:>7} {f.bound:>5} "
              f"{f.wind_spread:>4} {f.same_seat_same_table:>10} {dt:>6.2f}s  {p.method}")
    print("targets met" if not failed else "MISSED: " + "; ".join(failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
