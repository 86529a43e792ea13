"""Benchmark of the printable reports (issue 5 targets).

* standings for 500 players: <= 2 s (database read + PDF)
* all table sheets of a 16-table round (8 hands per table): <= 5 s

Data: valid random hands from ``referee_app.core.generate`` stored through
``referee_app.storage`` (built once in a temp directory; building is not timed).

    .venv/bin/python benchmarks/bench_reports.py [--runs 3]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from referee_app.core.generate import random_record
from referee_app.reports import api
from referee_app.reports.sample import player_names

WHEN = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)


def build(path: Path, players: int, rounds: int, hands_per_table: int, seed: int = 1):
    from referee_app.storage import Tournament

    t = Tournament.create(path, f"Benchmark {players} players", ruleset="ottawa-2009")
    for cn, latin, club in player_names(players, seed):
        t.players.add(cn, name_latin=latin, club=club)
    rng = random.Random(seed)
    for rnd in range(1, rounds + 1):
        seating = t.rounds.seat(rnd, seed=seed + rnd)
        for table, row in seating.tables.items():
            for hand_no in range(1, hands_per_table + 1):
                t.hands.add(random_record(rng, players=row), round=rnd, table=table,
                           hand_no=hand_no)
    return t


def _pages(pdf: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def timed(runs: int, fn) -> tuple[float, object]:
    times, result = [], None
    for _ in range(runs):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    ok = True
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        big = build(Path(d) / "500.sqlite", players=500, rounds=1, hands_per_table=2)
        print(f"built 500 players, {len(big.hands.list())} hands in {time.perf_counter() - t0:.1f} s")
        api.generate("standings", big, generated_at=WHEN)  # warm-up: font, imports
        g, data = timed(args.runs, lambda: api.gather_data("standings", big, WHEN))
        r, pdf = timed(args.runs, lambda: api.render("standings", data))
        total, _ = timed(args.runs, lambda: api.generate("standings", big, generated_at=WHEN))
        pages = _pages(pdf)
        print(f"standings, 500 players: gather {g:.3f} s + render {r:.3f} s; "
              f"end to end {total:.3f} s (median of {args.runs}), {len(pdf):,} bytes, "
              f"{pages} pages  [target <= 2 s]")
        ok &= total <= 2.0
        big.close()

        t0 = time.perf_counter()
        rnd = build(Path(d) / "64.sqlite", players=64, rounds=1, hands_per_table=8)
        print(f"built 16 tables x 8 hands ({len(rnd.hands.list())} hands) in "
              f"{time.perf_counter() - t0:.1f} s")
        g, sheets = timed(args.runs, lambda: api.gather_data("table", rnd, WHEN, round=1))
        r, pdf = timed(args.runs, lambda: api.render("table", sheets))
        total, _ = timed(args.runs, lambda: api.generate("table", rnd, generated_at=WHEN,
                                                         round=1))
        print(f"table sheets, 16 tables x 8 hands: gather {g:.3f} s + render {r:.3f} s; "
              f"end to end {total:.3f} s (median of {args.runs}), {len(pdf):,} bytes, "
              f"{_pages(pdf)} pages  [target <= 5 s]")
        ok &= total <= 5.0
        rnd.close()
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
