#!/usr/bin/env python3
"""Storage benchmark: standings over 200 players / 10,000 hands; adding one hand durably;
then events the size of a real tournament (issue 23).

Targets (issue 3): standings recomputed in <= 1 s; add_hand (validate, settle, commit with
synchronous=FULL) <= 30 ms median. Issue 10: verify (chain, every version re-settled,
integrity_check) <= 3 s; the chain adds <= 2 ms to saving a hand. Issue 24: signing each
write's head adds <= 1 ms to saving a hand; verify of 10,000 signed hands <= 3 s. The
10,000-hand setup is written with synchronous=OFF to keep the set-up short; the measured
adds reopen the file with the real settings: synchronous=FULL and automatic backups (a
point every 25 saves).

Issue 23, on the events of ``event_cache.py`` (256 and 1,000 players x 8 rounds x 4 hands,
built through the library): export and import of the whole event <= 3 s each, verify <=
1.5 s, one player's statement (``report player``) <= 0.3 s, blank slips <= 5 ms a page and
<= 200 MiB at 1,000 pages; then a round of saves at every table with backups on and
synchronous=FULL: bytes written for backups per saved hand <= 10x the hand's record, the
backup folder <= 4x the file. Each time is printed as wall and CPU seconds beside the load
average (the machine is shared: CPU is what the code costs, wall what a referee waits).

Issue 26: standings under placement scoring (each round's places at every table) for
1,000 players x 8 rounds (the cached event of ``event_cache.py``) <= 2x the chips standings'
time, made afresh (a new connection's first standings) and brought forward after one more
hand (the kept sums: one table placed again), the two alternated so machine load hits both
alike.

Usage:  python benchmarks/bench_storage.py [--players 200] [--hands 10000]
                                           [--event 256 --event 1000 | --no-event]
                                           [--placement-players 1000 | 0 to skip]
"""

from __future__ import annotations

import argparse
import io
import json
import multiprocessing
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from referee_app.core import DEFAULT_RULESET
from referee_app.core.generate import random_record
from referee_app.storage import Tournament


def _chain_cost(pool: list, players: list[str], n: int) -> tuple[float, float]:
    """Median add_hand time with the chain minus without it (capture triggers dropped and
    the entry not written), alternating the two so machine load hits both alike, in wall
    and in CPU milliseconds (CPU: what the chain computes, which a loaded machine disturbs
    less than the wall clock). Done on a throwaway copy of the setup: writing without the
    chain is exactly what verify refuses."""
    from referee_app.storage import chain

    d = tempfile.mkdtemp()
    t = Tournament.create(Path(d) / "chain.sqlite", "chain cost", backup_every=0)
    for name in players:
        t.players.add(name)
    t.rounds.seat(1, seed=1)
    rnd, tables = 1, len(players) // 4
    real_append = chain.append
    with_chain: list[float] = []
    without: list[float] = []
    cpu_with: list[float] = []
    cpu_without: list[float] = []
    base = t.hands.next_no(rnd, 1)
    for i in range(2 * n):
        off = i % 2 == 1
        if off:
            for (name,) in t.db.execute("SELECT name FROM sqlite_temp_master WHERE "
                                        "type='trigger'").fetchall():
                t.db.execute(f"DROP TRIGGER temp.{name}")
            chain.append = lambda conn, **kw: (0, "")
        a, c = time.perf_counter(), time.process_time()
        t.hands.add(pool[(i * 11) % len(pool)], round=rnd, table=1 + i % tables,
                   hand_no=base + n + i // tables)
        (without if off else with_chain).append(time.perf_counter() - a)
        (cpu_without if off else cpu_with).append(time.process_time() - c)
        if off:
            chain.append = real_append
            chain.install_capture(t.db.conn)
    t.close()
    med = statistics.median
    return ((med(with_chain) - med(without)) * 1000, (med(cpu_with) - med(cpu_without)) * 1000)


def _signing_cost(pool: list, players: list[str], n: int) -> tuple[float, float]:
    """Median add_hand time with the head signed minus without (the record's key not looked
    up, the entry written unsigned), alternating the two as :func:`_chain_cost` does, in
    wall and CPU milliseconds; on a throwaway copy (an unsigned entry of a signed record is
    exactly what verify refuses)."""
    from referee_app.storage.store import Store

    d = tempfile.mkdtemp()
    t = Tournament.create(Path(d) / "sign.sqlite", "signing cost", backup_every=0)
    for name in players:
        t.players.add(name)
    t.rounds.seat(1, seed=1)
    tables = len(players) // 4
    real_key, real_start = Store.signing_key, Store._start_signing
    signed: list[float] = []
    unsigned: list[float] = []
    cpu_signed: list[float] = []
    cpu_unsigned: list[float] = []
    base = t.hands.next_no(1, 1)
    try:
        for i in range(2 * n):
            off = i % 2 == 1
            if off:
                Store.signing_key = lambda self: None  # type: ignore[method-assign]
                Store._start_signing = lambda self, referee, at: None  # type: ignore[method-assign,assignment]
            a, c = time.perf_counter(), time.process_time()
            t.hands.add(pool[(i * 13) % len(pool)], round=1, table=1 + i % tables,
                        hand_no=base + i // tables)
            (unsigned if off else signed).append(time.perf_counter() - a)
            (cpu_unsigned if off else cpu_signed).append(time.process_time() - c)
            Store.signing_key, Store._start_signing = real_key, real_start  # type: ignore[method-assign]
    finally:
        Store.signing_key, Store._start_signing = real_key, real_start  # type: ignore[method-assign]
        t.close()
    med = statistics.median
    return ((med(signed) - med(unsigned)) * 1000, (med(cpu_signed) - med(cpu_unsigned)) * 1000)


def _sign_alone(n: int = 2000) -> float:
    """What signing one head costs by itself (the key's Ed25519 signature), in ms."""
    from referee_app.storage import signing

    key = signing.SigningKey.generate()
    a = time.process_time()
    for i in range(n):
        key.sign(i + 1, "0" * 64)
    return (time.process_time() - a) / n * 1000


def _timed(fn: object) -> tuple[float, float, object]:
    """(wall s, CPU s, result) of one call."""
    a, c = time.perf_counter(), time.process_time()
    out = fn()  # type: ignore[operator]
    return time.perf_counter() - a, time.process_time() - c, out


def placement_figures(players: int, repeats: int = 9) -> dict[str, dict[str, list[float]]]:
    """Standings of the cached event by chips and by placement points: afresh and after one
    more hand, alternating chips and placement (wall and CPU seconds per kind)."""
    from event_cache import HEAD, HEAD_PIN, fresh_copy

    out: dict[str, dict[str, list[float]]] = {
        f"{scope} {kind}": {"wall": [], "cpu": []}
        for scope in ("afresh", "after a hand") for kind in ("chips", "placement")}
    with tempfile.TemporaryDirectory() as d:
        dbs = {"chips": fresh_copy(players, Path(d), "chips.sqlite"),
               "placement": fresh_copy(players, Path(d), "placement.sqlite")}
        with Tournament.open(dbs["placement"], backup_every=0) as t:
            t.referees.sign_in(HEAD, HEAD_PIN)
            t.update_info(scoring="placement", referee=HEAD)
        for _ in range(repeats):
            for kind, db in dbs.items():
                with Tournament.open(db, backup_every=0) as t:
                    wall, cpu, rows = _timed(t.standings.table)
                    assert len(rows) == players  # type: ignore[arg-type]
                out[f"afresh {kind}"]["wall"].append(wall)
                out[f"afresh {kind}"]["cpu"].append(cpu)
        opened = {kind: Tournament.open(db, backup_every=0) for kind, db in dbs.items()}
        try:
            rng = random.Random(26)
            last = max(r.number for r in opened["chips"].rounds.list())
            seating = opened["chips"].rounds.seating(last).tables
            for t in opened.values():
                t.referees.sign_in(HEAD, HEAD_PIN)
                t.standings.table()  # kept from now on
            for i in range(repeats):
                table = 1 + (i * 37) % len(seating)
                rec = random_record(rng, DEFAULT_RULESET, players=seating[table])
                for kind, t in opened.items():
                    t.hands.add(rec, round=last, table=table,
                                hand_no=t.hands.next_no(last, table), referee=HEAD)
                    wall, cpu, _ = _timed(t.standings.table)
                    out[f"after a hand {kind}"]["wall"].append(wall)
                    out[f"after a hand {kind}"]["cpu"].append(cpu)
        finally:
            for t in opened.values():
                t.close()
    return out


def print_placement(players: int) -> bool:
    """The figures of :func:`placement_figures`, printed; whether placement stays within 2x."""
    import os

    figures = placement_figures(players)
    ok = True
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    for scope in ("afresh", "after a hand"):
        med = {k: {m: statistics.median(v) * 1000 for m, v in figures[f"{scope} {k}"].items()}
               for k in ("chips", "placement")}
        ratio = med["placement"]["cpu"] / max(med["chips"]["cpu"], 1e-9)
        ok = ok and ratio <= 2
        print(f"standings {scope}, {players} players x 8 rounds: chips {med['chips']['wall']:.1f}"
              f" ms wall / {med['chips']['cpu']:.1f} ms CPU; placement "
              f"{med['placement']['wall']:.1f} ms wall / {med['placement']['cpu']:.1f} ms CPU; "
              f"placement / chips (CPU) {ratio:.2f} (target <= 2; load average {load})")
    return ok


def classic(args: argparse.Namespace) -> bool:
    """The 200-player, 10,000-hand file of issues 3 and 10."""
    rng = random.Random(7)
    pool = []
    for _ in range(400):
        rec = random_record(rng, DEFAULT_RULESET)
        for s in rec["seats"].values():
            s.pop("player", None)  # names come from the seating at add time
        pool.append(rec)
    tables = args.players // 4
    per_round = tables * 20
    rounds = max(1, -(-args.hands // per_round))
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "bench.sqlite"
        t = Tournament.create(path, "Benchmark", backup_every=0)
        for i in range(args.players):
            t.players.add(f"选手{i:03d}", name_latin=f"Player {i}")
        t0 = time.perf_counter()
        t.db.execute("PRAGMA synchronous=OFF")
        n = 0
        for r in range(1, rounds + 1):
            t.rounds.seat(r, seed=r)
            for hand_no in range(1, 21):
                for table in range(1, tables + 1):
                    if n >= args.hands:
                        break
                    t.hands.add(pool[n % len(pool)], round=r, table=table, hand_no=hand_no)
                    n += 1
        setup = time.perf_counter() - t0
        t.close()
        size_mb = path.stat().st_size / 1e6
        print(f"setup: {args.players} players, {n} hands in {rounds} rounds written in "
              f"{setup:.1f} s ({setup / n * 1000:.2f} ms/hand unsynced); file {size_mb:.1f} MB")

        opens = []
        for _ in range(5):
            a = time.perf_counter()
            Tournament.open(path, backup_every=0).close()
            opens.append(time.perf_counter() - a)
        print(f"open (tournament checks + PRAGMA quick_check, {size_mb:.0f} MB): median "
              f"{statistics.median(opens) * 1000:.0f} ms")
        t = Tournament.open(path)  # the real settings: FULL, a backup point every 25 saves
        assert t.db.execute("PRAGMA synchronous").fetchone()[0] == 2
        t.backups.write()  # the first point ships the record so far: not counted below
        times = []
        for _ in range(7):
            a = time.perf_counter()
            rows = t.standings.table()
            times.append(time.perf_counter() - a)
        assert len(rows) == args.players and sum(r.chips for r in rows) == 0
        print(f"standings ({len(rows)} players, {n} hands): median {statistics.median(times)*1000:.0f} ms, "
              f"max {max(times)*1000:.0f} ms  (target <= 1000 ms)")
        a = time.perf_counter()
        t.standings.table(round=1)
        print(f"standings for one round: {(time.perf_counter() - a) * 1000:.0f} ms")
        a = time.perf_counter()
        hs = t.hands.list(round=1, table=1)
        print(f"hands(round=1, table=1) [{len(hs)} hands]: {(time.perf_counter() - a) * 1000:.1f} ms")

        a = time.perf_counter()
        hs = t.hands.list()
        print(f"hands() [all {len(hs)} hands, records + settlements parsed]: "
              f"{time.perf_counter() - a:.2f} s")
        a = time.perf_counter()
        st = t.standings.statement(rows[0].player)
        print(f"player_statement ({len(st.lines)} lines): {(time.perf_counter() - a) * 1000:.0f} ms")

        r_extra = rounds + 1
        t.rounds.seat(r_extra, seed=99)
        written = t.backups.written
        add_times = []
        for i in range(args.adds):
            rec = pool[(i * 7) % len(pool)]
            a = time.perf_counter()
            t.hands.add(rec, round=r_extra, table=1 + i % tables, hand_no=1 + i // tables)
            add_times.append(time.perf_counter() - a)
        med = statistics.median(add_times) * 1000
        p90 = sorted(add_times)[int(len(add_times) * 0.9)] * 1000
        print(f"add_hand (validate + settle + durable commit, synchronous=FULL, WAL, backups "
              f"on): median {med:.1f} ms, p90 {p90:.1f} ms, max {max(add_times) * 1000:.1f} "
              f"ms over {len(add_times)} adds (target <= 30 ms); backups "
              f"{(t.backups.written - written) / len(add_times):.0f} bytes per add")
        chain_ms, chain_cpu = _chain_cost(pool, [p.name for p in t.players.list()], 2 * args.adds)
        print(f"the chain's cost per saved hand (add_hand with - without row capture and "
              f"entry): {chain_ms:.2f} ms wall, {chain_cpu:.2f} ms CPU, medians "
              f"(target <= 2 ms)")
        sign_ms, sign_cpu = _signing_cost(pool, [p.name for p in t.players.list()],
                                          2 * args.adds)
        print(f"signing's cost per saved hand (add_hand with - without the head signed): "
              f"{sign_ms:.2f} ms wall, {sign_cpu:.2f} ms CPU, medians (target <= 1 ms); "
              f"one Ed25519 signature alone {_sign_alone():.3f} ms CPU")
        h = t.hands.list(round=r_extra)[0]
        a = time.perf_counter()
        t.hands.amend(h.id, pool[3], reason="bench")
        print(f"amend_hand: {(time.perf_counter() - a) * 1000:.1f} ms")
        a = time.perf_counter()
        b = t.export_bundle()
        print(f"export_bundle ({len(b['hands'])} hands): {time.perf_counter() - a:.2f} s")
        a = time.perf_counter()
        t.backups.write()
        print(f"a backup point (what changed since the last): "
              f"{(time.perf_counter() - a) * 1000:.1f} ms; a whole copy as before issue 23 "
              f"(SQLite backup API, every 25 saves): {whole_copy(t) * 1000:.0f} ms")
        a, c = time.perf_counter(), time.process_time()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        rep = t.record.verify()
        verify_s, here = time.perf_counter() - a, time.process_time() - c
        child = children_cpu(r0)
        signed = sum(b - a + 1 for _, a, b in rep.keys)
        print(f"verify ({rep.entries} chain entries, {signed} signed: each signature's form, "
              f"the last of each key with Ed25519, "
              f"{rep.versions} versions re-settled, integrity_check): {verify_s:.2f} s "
              f"(target <= 3 s); CPU {here:.2f} s here + {child:.2f} s in "
              f"the worker process")
        cli_wall, _, cli_cpu = cli_verify(t.path)
        print(f"verify as a user runs it (referee-app verify, start-up included): "
              f"{cli_wall:.2f} s wall, CPU {cli_cpu:.2f} s (the command and its worker)")
        a, c = time.perf_counter(), time.process_time()
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t.record.verify(every_signature=True)
        wall, here = time.perf_counter() - a, time.process_time() - c
        child = children_cpu(r0)
        print(f"verify --every-signature (each of the {signed} checked with Ed25519): "
              f"{wall:.2f} s; CPU {here:.2f} s here + "
              f"{child:.2f} s in the worker process")
        t.close()
        return (statistics.median(times) <= 1.0 and med <= 30 and verify_s <= 3
                and chain_ms <= 2 and sign_ms <= 1)


def whole_copy(t: Tournament) -> float:
    """Seconds to copy the open file whole with SQLite's backup API (what a backup was
    before the logs, every 25 saves, in the saving thread)."""
    import sqlite3

    with tempfile.TemporaryDirectory() as d:
        dst = sqlite3.connect(str(Path(d) / "copy.sqlite"))
        a = time.perf_counter()
        t.db.conn.backup(dst)
        dst.close()
        return time.perf_counter() - a


def children_cpu(r0: resource.struct_rusage) -> float:
    """CPU s of the child processes since ``r0`` (a ``getrusage``), once they have ended:
    verify does not wait for its worker's exit, so it is waited for here (after the wall
    time was taken), else its CPU would not be counted yet."""
    for child in multiprocessing.active_children():
        child.join()
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime


def timed(fn: Callable[[], object]) -> tuple[float, float, float, object]:
    """(wall s, CPU s here, CPU s of child processes, result) of ``fn()``."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    a, c = time.perf_counter(), time.process_time()
    out = fn()
    wall, cpu = time.perf_counter() - a, time.process_time() - c
    return wall, cpu, children_cpu(r0), out


def cli_verify(db: Path) -> tuple[float, float, float]:
    """(wall s, 0, CPU s of the command and its worker) of ``referee-app verify`` on ``db``:
    what a referee waits for. In this process, ``verify``'s spawned worker also imports
    this benchmark's own modules (as any spawned process imports the program's main
    module); the command's worker imports the core only."""
    return cli_run(["verify", "--db", str(db)])


def cli_run(args: list[str], env: dict[str, str] | None = None) -> tuple[float, float, float]:
    """(wall s, 0, CPU s of the command and its workers) of ``referee-app ARGS`` in a fresh
    process, start-up included."""
    wall, _, child, run = timed(lambda: subprocess.run(
        [sys.executable, "-m", "referee_app", *args], capture_output=True, text=True,
        check=False, env=None if env is None else {**os.environ, **env}))
    if run.returncode != 0:  # type: ignore[attr-defined]
        raise SystemExit(f"referee-app {args[0]} failed: {run.stderr}")  # type: ignore[attr-defined]
    return wall, 0.0, child


def shown(label: str, wall: float, cpu: float, child: float = 0.0, target: float | None = None,
          extra: str = "") -> bool:
    """Print one figure (wall and CPU, the worker's CPU when there is one, the target)."""
    worker = f" + {child:.2f} s in the worker" if child > 0.01 else ""
    goal = f"    target <= {target:g} s" if target is not None else ""
    print(f"  {label}: {wall:.2f} s wall, CPU {cpu:.2f} s{worker}{extra}{goal}")
    return target is None or wall <= target


def peak_kib() -> int:
    """This process's peak resident memory (VmHWM, KiB): ``ru_maxrss`` would carry the
    parent's peak across the exec of a child on Linux."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # pragma: no cover


def slips_child(players: int) -> None:
    """In a process of its own (``--slips-child``): blank slips for every table of the
    last round, 8 a table (1,000 pages at 1,000 players, two slips a page); prints pages,
    wall and CPU seconds, and the peak memory before and after."""
    from event_cache import event_file

    from referee_app.reports import render_slips  # noqa: F401  (imported before measuring)
    from referee_app.reports.api import generate

    with Tournament.open(event_file(players), backup_every=0) as t:
        last = max(r.number for r in t.rounds.list())
        generate("slips", t, round=last, table=1, count=1)  # fonts and templates loaded
        before = peak_kib()
        a, c = time.perf_counter(), time.process_time()
        pdf = generate("slips", t, round=last, count=8)
        wall, cpu = time.perf_counter() - a, time.process_time() - c
    from pypdf import PdfReader

    pages = len(PdfReader(io.BytesIO(pdf)).pages)
    after = peak_kib()
    print(json.dumps({"pages": pages, "wall": wall, "cpu": cpu, "before": before,
                      "after": after}))


def event(players: int) -> bool:
    """Issue 23's figures on an event of ``players`` players x 8 rounds x 4 hands."""
    from event_cache import HEAD, HEAD_PIN, event_file, fresh_copy

    from referee_app.reports.api import generate
    from referee_app.storage.backup_files import folder_size

    event_file(players)  # built (and cached) before anything is timed
    print(f"event of {players} players x 8 rounds x 4 hands (load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {os.uname().nodename})")
    ok = True
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        db = fresh_copy(players, tmp)
        with Tournament.open(db, backup_every=0) as t:
            n = len(t.hands.index())
            ok &= shown(f"export ({n} hands)", *timed(
                lambda: t.write_bundle(tmp / "event.json"))[:3], target=3)
            wall, cpu, child, rep = timed(t.record.verify)
            ok &= shown(f"verify ({rep.versions} versions re-settled)",  # type: ignore[attr-defined]
                        wall, cpu, child, target=1.5)
            shown("verify as a user runs it (referee-app verify, start-up included)",
                  *cli_verify(db), target=1.5)
            table = t.standings.table()
            pid = table[len(table) // 2].player_id
            first = timed(lambda: generate("player", t, player=pid))
            ok &= shown("report player (first in this process: fonts, templates)", *first[:3],
                        target=0.3)
            ok &= shown("report player (again)", *timed(
                lambda: generate("player", t, player=pid))[:3], target=0.3)
        ok &= shown("import (every entry checked, verified)", *timed(
            lambda: Tournament.import_bundle(tmp / "event.json", tmp / "imported.sqlite",
                                             backup_every=0, head_pin=HEAD_PIN
                                             ).close())[:3], target=3)
        shown("import as a user runs it (referee-app event import, start-up included)",
              *cli_run(["event", "import", str(tmp / "event.json"), "--db",
                        str(tmp / "imported-cli.sqlite")], {"NEW_REFEREE_PIN": HEAD_PIN}),
              target=3)
        run = subprocess.run([sys.executable, __file__, "--slips-child", str(players)],
                             capture_output=True, text=True, check=True)
        got = json.loads(run.stdout.strip().splitlines()[-1])
        per_page = got["cpu"] / got["pages"] * 1000
        print(f"  slips: {got['pages']} pages in {got['wall']:.1f} s wall, CPU "
              f"{per_page:.1f} ms a page (target <= 5 ms); the process's memory "
              f"{got['before'] / 1024:.0f} MiB before, {got['after'] / 1024:.0f} MiB at most "
              f"(target <= 200 MiB)")
        ok &= per_page <= 5 and got["after"] / 1024 <= 200
        ok &= backups_round(db, players, HEAD, HEAD_PIN, folder_size)
    print(f"  memory of this process at most {peak_kib() / 1024:.0f} MiB")
    return ok


def backups_round(db: Path, players: int, head: str, pin: str,
                  folder_size: Callable[[Path], int]) -> bool:
    """A round of saves at every table, as desks make them: synchronous=FULL, a backup
    point every 25 saves; the bytes the backups wrote per saved hand and the folder's
    size against the file's."""
    t = Tournament.open(db)  # the real settings
    t.referees.sign_in(head, pin)
    wall, cpu, _, _ = timed(t.backups.write)
    first = t.backups.written
    print(f"  backups: the first point of a file that had none ships its whole record: "
          f"{first / 1e6:.1f} MB in {wall:.2f} s (CPU {cpu:.2f} s), once")
    rnd = max(r.number for r in t.rounds.list()) + 1
    seating = t.rounds.seat(rnd, seed=rnd, referee=head)
    t.backups.write()
    before = t.backups.written
    rng = random.Random(23)
    sizes, saves, pointed = [], [], []
    for table, row in sorted(seating.tables.items()):
        rec = random_record(rng, DEFAULT_RULESET, players=row)
        sizes.append(len(json.dumps(rec, separators=(",", ":")).encode("utf-8")))
        w0 = t.backups.written
        a = time.perf_counter()
        t.hands.add(rec, round=rnd, table=table, hand_no=1, referee=head)
        (pointed if t.backups.written > w0 else saves).append(time.perf_counter() - a)
    t.close()  # the last point
    per_hand = (t.backups.written - before) / len(sizes)
    record = statistics.mean(sizes)
    size = db.stat().st_size
    folder = folder_size(db)
    print(f"  backups over {len(sizes)} saves (one a table, synchronous=FULL): "
          f"{per_hand / 1e3:.1f} kB written per saved hand = {per_hand / record:.1f}x the "
          f"hand's record ({record / 1e3:.2f} kB) (target <= 10x); a save median "
          f"{statistics.median(saves) * 1000:.1f} ms, one that wrote a point median "
          f"{statistics.median(pointed or [0]) * 1000:.1f} ms")
    print(f"  backup folder {folder / 1e6:.1f} MB = {folder / size:.2f}x the file "
          f"({size / 1e6:.1f} MB) (target <= 4x); a whole copy every 25 saves wrote "
          f"{size / 25 / 1e3:.0f} kB per hand")
    return per_hand <= 10 * record and folder <= 4 * size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=200)
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--adds", type=int, default=60, help="durable adds to time")
    ap.add_argument("--event", type=int, action="append",
                    help="event size in players (repeatable; default 256 and 1000)")
    ap.add_argument("--no-event", action="store_true", help="the 10,000-hand file only")
    ap.add_argument("--no-classic", action="store_true", help="the events only")
    ap.add_argument("--placement-players", type=int, default=1000,
                    help="players of the placement-vs-chips standings figures (0: skip)")
    ap.add_argument("--only-placement", action="store_true",
                    help="only the placement-vs-chips standings figures")
    ap.add_argument("--slips-child", type=int, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.slips_child:
        slips_child(args.slips_child)
        return 0
    if args.only_placement:
        return 0 if print_placement(args.placement_players) else 1
    ok = True
    if not args.no_classic:
        ok = classic(args)
    if args.placement_players:
        ok = print_placement(args.placement_players) and ok
    if not args.no_event:
        for players in args.event or [256, 1000]:
            ok = event(players) and ok
    print("PASS" if ok else "FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
