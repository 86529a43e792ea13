#!/usr/bin/env python3
"""Seating plan benchmark (issue 13): figures and time of whole-event plans.

Targets: 16×4, 16×5, 32×8, 64×8, 128×8 give 0 repeats; 16×6 and 16×8 reach the counting
bound; wind spread ≤ 1 everywhere and 0 at 4 and 8 rounds; each plan ≤ 5 s. Also prints
cases no design covers (searched), with byes, and 3-seat (Zigong) tables, for the record.

Usage:  python benchmarks/bench_seating.py [--seed 1]
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee_app.core.planning import plan
from referee_app.storage.seating import generate, pair

WINDS = ("E", "S", "W", "N")
TARGETS = [(16, 4), (16, 5), (16, 6), (16, 8), (32, 8), (64, 8), (128, 8)]
EXTRA = [(28, 8, WINDS), (20, 6, WINDS), (36, 7, WINDS), (100, 8, WINDS), (124, 8, WINDS),
         (18, 5, WINDS), (27, 6, WINDS[:3]), (30, 5, WINDS[:3])]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    print(f"{'players×rounds':>16} {'seats':>5} {'repeats':>7} {'bound':>5} {'wind':>4} "
          f"{'seat again':>10} {'time':>7} {'cpu':>6}  method")
    failed = []
    for n, rounds, seats in [(n, r, WINDS) for n, r in TARGETS] + EXTRA:
        t0, c0 = time.perf_counter(), time.process_time()
        p = plan(list(range(1, n + 1)), seats, rounds, seed=args.seed)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        f = p.figures
        print(f"{f'{n}×{rounds}':>16} {len(seats):>5} {f.repeats:>7} {f.bound:>5} "
              f"{f.wind_spread:>4} {f.same_seat_same_table:>10} {dt:>6.2f}s {cpu:>5.2f}s  "
              f"{p.method}")
        if (n, rounds) in TARGETS:
            if f.repeats != f.bound:
                failed.append(f"{n}×{rounds}: {f.repeats} repeats, bound {f.bound}")
            if f.wind_spread > (0 if rounds % 4 == 0 else 1):
                failed.append(f"{n}×{rounds}: wind spread {f.wind_spread}")
            if dt > 5:
                failed.append(f"{n}×{rounds}: {dt:.1f} s")
    print("\nre-planning after rounds already played (not targets: the played rounds limit what "
          "is possible; repeats come first, so winds may stay at 2 where 0 would cost a repeat):")
    for label, n, rounds, played in _replans(args.seed):
        t0, c0 = time.perf_counter(), time.process_time()
        p = plan(list(range(1, n + 1)), WINDS, rounds - len(played), played=played,
                 seed=args.seed)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        f = p.figures
        print(f"{f'{n}×{rounds}':>16} {4:>5} {f.repeats:>7} {f.bound:>5} "
              f"{f.wind_spread:>4} {f.same_seat_same_table:>10} {dt:>6.2f}s {cpu:>5.2f}s  "
              f"{p.method}  [{label}]")
    print("\nteam events (issue 26; targets: teams of 4 at tables of 4 give 0 team-mates and "
          "repeats at the bound of the players each may meet; any team: its least possible):")
    print(f"{'players×rounds':>16} {'teams':>12} {'mates':>5} {'least':>5} {'repeats':>7} "
          f"{'bound':>5} {'wind':>4} {'time':>7} {'cpu':>6}  method")
    for n, rounds, label, teams in _team_cases():
        t0, c0 = time.perf_counter(), time.process_time()
        p = plan(list(range(1, n + 1)), WINDS, rounds, seed=args.seed, teams=teams)
        dt, cpu = time.perf_counter() - t0, time.process_time() - c0
        f = p.figures
        print(f"{f'{n}×{rounds}':>16} {label:>12} {f.team_mates:>5} {f.team_bound:>5} "
              f"{f.repeats:>7} {f.bound:>5} {f.wind_spread:>4} {dt:>6.2f}s {cpu:>5.2f}s  "
              f"{p.method}")
        if f.team_mates != f.team_bound:
            failed.append(f"{n}×{rounds} {label}: {f.team_mates} team-mate pairs, least "
                          f"{f.team_bound}")
        if label.endswith("of 4") and f.repeats != f.bound:
            failed.append(f"{n}×{rounds} {label}: {f.repeats} repeats, bound {f.bound}")
        if dt > 5:
            failed.append(f"{n}×{rounds} {label}: {dt:.1f} s")
    print("targets met" if not failed else "MISSED: " + "; ".join(failed))
    return 1 if failed else 0


def _team_cases() -> list[tuple[int, int, str, dict[int, str]]]:
    """Teams of 4 (blocks of consecutive players), a team of 5 among 16, teams of 3."""
    out = []
    for n, rounds in ((16, 4), (16, 8), (32, 8), (64, 8), (128, 8)):
        out.append((n, rounds, f"{n // 4} of 4", {p: f"T{(p - 1) // 4}" for p in range(1, n + 1)}))
    out.append((16, 6, "one of 5", {p: "big" for p in range(1, 6)}))
    out.append((24, 6, "8 of 3", {p: f"T{(p - 1) // 3}" for p in range(1, 25)}))
    return out


def _replans(seed: int) -> list[tuple[str, int, int, list[list[tuple[int, ...]]]]]:
    """Played rounds as they arise at a desk: one hand-seated round; two rounds of an
    earlier plan (then ``round plan --fresh``); two rounds of ``round seat``'s search."""
    out = []
    for n, rounds in ((16, 4), (32, 8), (64, 8), (128, 8)):
        pool = list(range(1, n + 1))
        random.Random(n).shuffle(pool)
        out.append(("1 hand-seated", n, rounds, [[tuple(pool[i:i + 4]) for i in range(0, n, 4)]]))
    for n, rounds in ((16, 4), (16, 8), (32, 8), (64, 8)):
        earlier = plan(list(range(1, n + 1)), WINDS, rounds, seed=seed + 1000)
        out.append(("2 of an earlier plan", n, rounds, [list(r.tables) for r in earlier.rounds[:2]]))
    for n, rounds in ((16, 4), (16, 8), (32, 8), (64, 8)):
        played: list[list[tuple[int, ...]]] = []
        met: Counter[tuple[int, int]] = Counter()
        seats: dict[int, Counter[str]] = defaultdict(Counter)
        for r in range(2):
            tables = generate(list(range(1, n + 1)), WINDS, seed=seed + r, met=met,
                              seat_counts=seats)
            played.append([tuple(t) for t in tables])
            for t in tables:
                met.update(pair(a, b) for a, b in itertools.combinations(t, 2))
                for w, x in zip(WINDS, t, strict=True):
                    seats[x][w] += 1
        out.append(("2 by round seat", n, rounds, played))
    return out


if __name__ == "__main__":
    sys.exit(main())
