#!/usr/bin/env python3
"""Remake the results pages' pictures in docs/img (server-*.png) with a real browser.

Serves a copy of the demo tournament with ``referee-app serve`` on a free port of
127.0.0.1 and photographs ``/`` (standings, phone size), a player's page with a hand
opened, find-your-seat and ``/projector`` (1920×1080, round 4 started with a 90-minute
clock) with Debian's headless ``chromium`` — the same
flags as tests/server/test_server_browser.py (fresh profile, no sandbox, GPU, first run or
background networking). The server is stopped by its PID.

Usage:  python tools/server_screenshots.py [--out docs/img]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

PAGES = (("server-standings.png", "/?lang=zh", "412,900"),
         ("server-player.png", "/player/11?lang=en&hand=4", "412,1100"),
         ("server-seating.png", "/seating?lang=zh&q=李", "412,900"),
         ("server-projector.png", "/projector", "1920,1080"))


def main() -> int:
    from server_helpers import ServerProcess

    from referee_app.storage import Tournament, demo_db_path

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    args = ap.parse_args()
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        print("error: chromium: not installed (apt-get install chromium)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "demo.sqlite"
        shutil.copy(demo_db_path(), db)
        with Tournament.open(db, backup_every=0) as t:  # round 4 in play: its clock shows
            t.rounds.start(4, minutes=90)
        s = ServerProcess(db, None, "--public-url", "http://192.168.1.10:8787/").start()
        try:
            for name, path, size in PAGES:
                out = args.out / name
                subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu",
                                "--disable-background-networking", "--no-first-run",
                                "--no-default-browser-check", "--disable-dev-shm-usage",
                                "--hide-scrollbars", f"--user-data-dir={tmp}/profile-{name}",
                                f"--window-size={size}", f"--screenshot={out}", s.url + path],
                               capture_output=True, timeout=120, check=True)
                print(f"wrote {out}")
        finally:
            s.stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
