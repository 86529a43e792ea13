#!/usr/bin/env python3
"""Remake the report pictures in docs/img (report-*.png) from the demo tournament.

Each report is made as ``referee-app report`` makes it, from a fresh copy of the demo
(``sample_events/demo-ottawa-2009.json``) with a fixed time of printing, and its first
page (the seating chart's second, a table card) rasterised with ``pdftoppm -png -r 50``.
``--lang zh`` (or ``en``) prints them in that language only, as a template's
``language`` does (the pictures in the docs are the templates' default, both).

Usage:  python tools/report_images.py [--out docs/img] [--lang both|zh|en]
"""

from __future__ import annotations

import argparse
import dataclasses
import shutil
import subprocess
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WHEN = datetime(2009, 1, 3, 20, 0, tzinfo=UTC)


def main() -> int:
    from referee_app.reports.api import generate
    from referee_app.reports.template import load_template
    from referee_app.storage import Tournament, demo_db_path

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "img")
    ap.add_argument("--lang", choices=("both", "zh", "en"), default="both")
    args = ap.parse_args()
    if shutil.which("pdftoppm") is None:
        print("error: pdftoppm: not installed (apt-get install poppler-utils)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        t = Tournament.open(demo_db_path(tmp, fresh=True))
        try:
            disputed = t.hands.find(2, 3, 5)
            assert disputed is not None
            jobs = [("report-standings", "standings", {}, 1),
                    ("report-table", "table", {"round": 1}, 1),
                    ("report-player", "player", {"player": "李伟"}, 1),
                    ("report-hand", "hand", {"hand_id": disputed.id}, 1),
                    ("report-seating", "seating", {"round": 1}, 1),
                    ("report-tablecard", "seating", {"round": 1}, 2),
                    ("report-slips", "slips", {"round": 1}, 1)]
            for name, report, params, page in jobs:
                template = dataclasses.replace(load_template(report), language=args.lang)
                pdf = Path(tmp) / f"{name}.pdf"
                generate(report, t, out=pdf, template=template, generated_at=WHEN, **params)
                stem = args.out / name
                subprocess.run(["pdftoppm", "-png", "-r", "50", "-f", str(page), "-l",
                                str(page), "-singlefile", str(pdf), str(stem)], check=True)
                print(f"wrote {stem}.png")
        finally:
            t.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
