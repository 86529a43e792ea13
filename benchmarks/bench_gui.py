"""Benchmark of the referee desk window (issue 4, 12 and 23 targets).

* launch to a usable window <= 1.5 s: ``referee-app gui --db BIG`` in a subprocess, timed
  from spawn until the shown window has processed its first event (``--exit-when-ready``);
* a keystroke in the entry form to an updated settlement <= 30 ms median: QTest key
  clicks in a seat's tile field, timed until the preview (problems, payments, totals) has
  been rebuilt and the repaint flushed;
* keys per hand (issue 12): the README hand, a robbed-kong hand and a three-winner hand
  typed from the new-hand form through Ctrl+S with keys sent to whatever has the focus
  (``tests/gui_keys.py``); every key beyond the tile characters counts, <= 22 per hand;
  and a saved hand opened with Ctrl+G in <= 8 keys. Counts, not times;
* a desk's save to its window refreshed <= 100 ms at 1,000 players (issue 23): the window
  open on the 1,000-player event of ``event_cache.py``, a hand typed in (loaded into the
  form) at a table of the last round, timed from Ctrl+S's save until the window (navigator,
  standings, digest, the saved hand reopened) is repainted; also with the progress tab
  open, and for another desk's save followed (the one-second look) with the entry tab open
  and with the standings tab open (its changed lines repainted on screen).

Data: 16 players, 5 rounds x 4 tables x 100 hands of valid random records
(``referee_app.core.generate``) stored through ``referee_app.storage`` (building is
timed separately and not part of either figure).

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/bench_gui.py [--runs 5] [--keys 200]
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

LAUNCH_LIMIT_S = 1.5
KEY_LIMIT_MS = 30.0
SAVE_LIMIT_MS = 100.0
OTHER_KEYS_LIMIT = 22
GOTO_KEYS_LIMIT = 8
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # gui_keys: the counting keyboard
sys.path.insert(0, str(ROOT / "benchmarks"))  # event_cache: the 1,000-player event


def build(path: Path, rounds: int = 5, hands_per_table: int = 100, seed: int = 4) -> int:
    """A tournament file of 16 players with rounds x 4 tables x hands_per_table hands."""
    from referee_app.core.generate import random_record
    from referee_app.storage import Tournament

    names = ["李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强", "吴昊", "徐静",
             "马林", "胡波", "郭涛", "何敏", "高飞", "林娜"]
    t = Tournament.create(path, "基准赛 Benchmark Open", backup_every=0)
    rng = random.Random(seed)
    n = 0
    try:
        for name in names:
            t.players.add(name)
        for rnd in range(1, rounds + 1):
            seating = t.rounds.seat(rnd, seed=seed + rnd)
            for table, row in seating.tables.items():
                for hand_no in range(1, hands_per_table + 1):
                    t.hands.add(random_record(rng, players=row), round=rnd, table=table,
                               hand_no=hand_no)
                    n += 1
    finally:
        t.close()
    return n


#: what Qt's offscreen platform says of every window it shows (nothing to act on)
_OFFSCREEN_NOTE = "This plugin does not support propagateSizeHints()"


def _application() -> Any:
    """The QApplication of the in-process measures, Qt's own messages to stderr except the
    offscreen platform's note on each window shown (it filled the benchmark's output)."""
    from PySide6.QtCore import qInstallMessageHandler
    from PySide6.QtWidgets import QApplication

    def say(_kind: object, _context: object, message: str) -> None:
        if message != _OFFSCREEN_NOTE:
            print(message, file=sys.stderr)

    qInstallMessageHandler(say)
    return QApplication.instance() or QApplication([])


def launch_times(db: Path, runs: int) -> tuple[list[float], list[float]]:
    """Seconds from spawning ``referee-app gui`` to its window being up and responsive, and
    the CPU seconds (user + system) each launch used: on a shared, loaded machine the wall
    time mostly measures the wait for a core, the CPU time what the launch itself costs."""
    import resource

    exe = Path(sys.executable).with_name("referee-app")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "referee_app"]
    cmd += ["gui", "--db", str(db), "--exit-when-ready"]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    out, cpu = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env,
                                text=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        elapsed = time.perf_counter() - t0
        proc.wait(timeout=30)
        if line.strip() != "ready":
            raise RuntimeError(f"the window did not come up (got {line!r}, exit {proc.returncode})")
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.append(elapsed)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out, cpu


def keystroke_times(db: Path, keys: int) -> tuple[list[float], list[float], int]:
    """Milliseconds per keystroke until the settlement preview is updated and painted, and
    the CPU milliseconds each took (what it costs when the machine is shared)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    import referee_app.gui  # noqa: F401  (applies the PySide refcount fix first)
    from referee_app.fonts import register_qt_font
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.views.main_window import MainWindow

    app = _application()
    register_qt_font()
    desk = Desk.open(db)
    win = MainWindow(desk)
    win.confirm_discard = lambda: True  # closing with the typed edits: no prompt
    win.resize(1500, 900)
    win.show()
    app.processEvents()
    hands = desk.hands()
    win.navigator.select_key(("hand", hands[len(hands) // 2].id))
    app.processEvents()
    field = win.entry.panels["E"].concealed
    field.setFocus()
    field.end(False)
    updates = []
    win.entry.evaluated.connect(lambda ev: updates.append(ev))
    # alternate: add a tile (the hand turns invalid), delete it (valid again)
    sequence = [(Qt.Key.Key_5, "5"), (Qt.Key.Key_M, "m"), (Qt.Key.Key_Backspace, ""),
                (Qt.Key.Key_Backspace, "")]
    times, cpu = [], []
    for i in range(keys):
        key, _ = sequence[i % len(sequence)]
        before = len(updates)
        c0, t0 = time.process_time(), time.perf_counter()
        QTest.keyClick(field, key)
        app.processEvents()  # flush the repaint of the preview
        times.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        if len(updates) != before + 1:
            raise RuntimeError("a keystroke did not update the settlement preview")
    n = len(hands)
    win.close()
    desk.close()
    return times, cpu, n


def save_times(tmp: Path, players: int, saves: int) -> dict[str, tuple[list[float],
                                                                        list[float]]]:
    """Milliseconds (wall, CPU) from a desk's save to its window refreshed and repainted,
    on the cached event of ``players`` players: saves with the entry tab open, saves with
    the progress tab open, and saves by another desk followed by the window's poll."""
    import json
    import random
    import shutil

    from event_cache import HEAD, HEAD_PIN, event_file

    import referee_app.gui  # noqa: F401
    from referee_app.core.generate import random_record
    from referee_app.fonts import register_qt_font
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.views.main_window import MainWindow
    from referee_app.storage import Tournament

    db = tmp / f"event-{players}.sqlite"
    shutil.copyfile(event_file(players), db)
    with Tournament.open(db) as t:  # its first backup point (the whole record) beforehand
        t.backups.write()
    app = _application()
    register_qt_font()
    desk = Desk.open(db, HEAD)
    desk.sign_in(HEAD, HEAD_PIN)
    win = MainWindow(desk)
    win.show_message = lambda _text: None
    win.confirm_discard = lambda: True
    win.confirm_dealer = lambda _text: True  # random records: any seat deals
    win.resize(1500, 900)
    win.show()
    app.processEvents()
    rng = random.Random(23)
    last = max(desk.rounds())
    tables = desk.seating(last).tables
    out: dict[str, tuple[list[float], list[float]]] = {}
    other = Tournament.open(db)
    other.referees.sign_in(HEAD, HEAD_PIN)
    for kind in ("entry tab open", "progress tab open", "another desk's save followed",
                 "another desk's save, standings tab open"):
        walls, cpus = out.setdefault(kind, ([], []))
        if kind.endswith("standings tab open"):
            win.tabs.setCurrentWidget(win.standings)
            app.processEvents()
        for i in range(saves):
            table = 1 + (i * 37 + len(walls) * 11) % len(tables)
            rec = random_record(rng, "ottawa-2009", players=tables[table])
            if kind.startswith("another desk's save"):
                other.hands.add(rec, round=last, table=table,
                                hand_no=other.hands.next_no(last, table), referee=HEAD)
                c0, t0 = time.process_time(), time.perf_counter()
                if not win.faults.follower.poll():
                    raise RuntimeError("the window did not see the other desk's save")
            else:
                win.navigator.select_key(("table", last, table))
                if kind == "progress tab open":
                    win.tabs.setCurrentWidget(win.progress)
                    win.progress.round_box.setCurrentIndex(win.progress.round_box.count() - 1)
                app.processEvents()
                if not win.faults.load_record_text(json.dumps(rec), "bench"):
                    raise RuntimeError(f"the record was not loaded: {win.messages[-1:]}")
                app.processEvents()
                c0, t0 = time.process_time(), time.perf_counter()
                if not win.save():
                    raise RuntimeError(f"the hand was not saved: {win.messages[-1:]}")
            app.processEvents()  # the refreshed parts repainted
            walls.append((time.perf_counter() - t0) * 1000)
            cpus.append((time.process_time() - c0) * 1000)
        win.tabs.setCurrentWidget(win.entry)
    other.close()
    win.close()
    desk.close()
    return out


def key_counts(tmp: Path) -> tuple[dict[str, tuple[int, int]], int]:
    """(tile characters, other keys) per hand of ``gui_keys.HANDS``, and the keys Ctrl+G
    takes to open a saved hand — on a fresh one-round tournament."""
    from gui_keys import HANDS, Keyboard, golden_record, type_hand

    import referee_app.gui  # noqa: F401
    from referee_app.fonts import register_qt_font
    from referee_app.gui.controllers.desk import Desk
    from referee_app.gui.i18n import LANG
    from referee_app.gui.views.main_window import MainWindow
    from referee_app.storage import Tournament

    app = _application()
    register_qt_font()
    LANG.set("zh")
    path = tmp / "keys.sqlite"
    t = Tournament.create(path, "键盘赛 Keys Open", backup_every=0)
    for name in ("李伟", "张敏", "陈杰", "王芳"):
        t.players.add(name)
    t.rounds.seat(1, seed=1)
    t.close()
    desk = Desk.open(path)
    win = MainWindow(desk)
    win.show_message = lambda _text: None
    win.resize(1500, 900)
    win.show()
    win.activateWindow()
    app.processEvents()
    out = {}
    for name, (golden, line) in HANDS.items():
        win.navigator.select_key(("table", 1, 1))  # the new-hand form, focus in E's tiles
        app.processEvents()
        kb = Keyboard()
        before = len(desk.hands())
        type_hand(kb, golden_record(golden), line)
        if len(desk.hands()) != before + 1:
            raise RuntimeError(f"the {name} was not saved: {win.messages[-1:]}")
        out[name] = (kb.tiles, kb.others)
    win.navigator.setFocus()
    kb = Keyboard()
    kb.chord("Ctrl+G")
    kb.type("1 1 2\n")
    if win.context is None or win.context[2] != 2 or win.context[3] is None:
        raise RuntimeError("Ctrl+G 1 1 2 did not open saved hand 2")
    win.close()
    desk.close()
    return out, kb.total


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="launches to time")
    ap.add_argument("--keys", type=int, default=200, help="keystrokes to time")
    ap.add_argument("--saves", type=int, default=12, help="saves to time, each way")
    ap.add_argument("--players", type=int, default=1000, help="event size for the saves")
    ap.add_argument("--saves-only", action="store_true", help="the save figures only")
    args = ap.parse_args()
    if args.saves_only:
        with tempfile.TemporaryDirectory() as d:
            return 0 if report_saves(Path(d), args) else 1
    with tempfile.TemporaryDirectory() as d:
        db = Path(d) / "bench-2000.sqlite"
        t0 = time.perf_counter()
        n = build(db)
        print(f"built {n} hands in {time.perf_counter() - t0:.1f} s (not timed below)")

        launches, cpu = launch_times(db, args.runs)
        med_launch = statistics.median(launches)
        print(f"launch to usable window ({n} hands): median {med_launch:.2f} s, "
              f"max {max(launches):.2f} s over {len(launches)} runs "
              f"(limit {LAUNCH_LIMIT_S:.1f} s); CPU used median {statistics.median(cpu):.2f} s; "
              f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")

        counts, goto_keys = key_counts(Path(d))
        for name, (tiles, others) in counts.items():
            print(f"keys for the {name}: {tiles + others} in all, {tiles} tile characters, "
                  f"{others} others (limit {OTHER_KEYS_LIMIT} others)")
        print(f"open a saved hand with Ctrl+G: {goto_keys} keys (limit {GOTO_KEYS_LIMIT})")
        keys_ok = all(o <= OTHER_KEYS_LIMIT for _t, o in counts.values()) and \
            goto_keys <= GOTO_KEYS_LIMIT

        keys, key_cpu, n_open = keystroke_times(db, args.keys)
        med_key = statistics.median(keys)
        p95 = sorted(keys)[int(len(keys) * 0.95) - 1]
        print(f"keystroke -> updated settlement ({n_open} hands open): median {med_key:.1f} ms, "
              f"p95 {p95:.1f} ms, max {max(keys):.1f} ms over {len(keys)} keys "
              f"(limit {KEY_LIMIT_MS:.0f} ms median); CPU median "
              f"{statistics.median(key_cpu):.1f} ms; load average {os.getloadavg()[0]:.1f}")
        saves_ok = report_saves(Path(d), args)
    ok = med_launch <= LAUNCH_LIMIT_S and med_key <= KEY_LIMIT_MS and keys_ok and saves_ok
    print("OK" if ok else "TOO SLOW")
    return 0 if ok else 1


def report_saves(tmp: Path, args: argparse.Namespace) -> bool:
    ok = True
    for kind, (walls, cpus) in save_times(tmp, args.players, args.saves).items():
        med = statistics.median(walls)
        print(f"save -> window refreshed, {args.players} players, {kind}: median "
              f"{med:.0f} ms, max {max(walls):.0f} ms over {len(walls)} saves (limit "
              f"{SAVE_LIMIT_MS:.0f} ms median); CPU median {statistics.median(cpus):.0f} ms; "
              f"load average {os.getloadavg()[0]:.1f}")
        ok = ok and med <= SAVE_LIMIT_MS
    return ok


if __name__ == "__main__":
    sys.exit(main())
