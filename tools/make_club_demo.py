#!/usr/bin/env python3
"""Build ``sample_events/demo-club-ottawa-32.json``: a small demo tournament under a club's
own ruleset file (``sample_events/club-ottawa-32.ruleset.json``: Ottawa 2009 with a 32-chip
flower pig and a 6-fan cap).

8 players, 2 rounds x 2 tables x 6 hands, dealers following the club's next-dealer rule,
a few hands verified and one penalty. The ruleset is stored inside the tournament, so the
bundle travels without the ``.ruleset.json`` file. Records come from the engine's generator
(``random_record(rng, ruleset)`` with the club's Ruleset); at each hand the script draws a
few candidates and keeps the one that adds the most not-yet-seen payment clauses, and it
makes sure that at least one hand has a flower pig (§2.11, 32 chips to each seat).
Deterministic: same seed, same file (a synthetic clock: times are inside the hash chain,
so they are set while the record is written, never rewritten afterwards).

Usage:  python tools/make_club_demo.py [--seed 32] [--out sample_events/demo-club-ottawa-32.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from make_demo_event import synthetic_clock  # noqa: E402

from referee_app.core import HandRecord, Ruleset, ruleset_from_file, settle  # noqa: E402
from referee_app.core.generate import random_record  # noqa: E402
from referee_app.storage import Tournament  # noqa: E402

RULESET_FILE = ROOT / "sample_events" / "club-ottawa-32.ruleset.json"
ROUNDS, TABLES, HANDS = 2, 2, 6
PIG = "§2.11"

PLAYERS = [  # (name, latin, club)
    ("黄磊", "Huang Lei", "渥太华川渝同乡会"), ("杨芳", "Yang Fang", "渥太华川渝同乡会"),
    ("朱明", "Zhu Ming", "蒙特利尔麻将社"), ("宋佳", "Song Jia", "蒙特利尔麻将社"),
    ("邓超", "Deng Chao", "多伦多成都会馆"), ("曾静", "Zeng Jing", "多伦多成都会馆"),
    ("彭勇", "Peng Yong", "渥太华川渝同乡会"), ("谢娟", "Xie Juan", "蒙特利尔麻将社"),
]
REFEREES = ["梁裁判长", "唐文"]


def clauses_paid(rec: dict[str, Any], rules: Ruleset) -> set[str]:
    """The clauses under which one record moves chips, settled under the club's rules."""
    return {p.clause for p in settle(HandRecord.from_dict(rec, rules), rules).payments}


def pick_record(rng: random.Random, rules: Ruleset, dealer: str, players: dict[str, str],
                seen: Counter[str], want: str | None) -> dict[str, Any]:
    """The candidate adding the most unseen payment clauses; with ``want``, one that pays
    under that clause (tried for a while, then the best plain candidate)."""
    if want is not None:
        for _ in range(300):
            rec = random_record(rng, rules, dealer=dealer, players=players)
            if want in clauses_paid(rec, rules):
                return rec
    best: tuple[int, dict[str, Any]] | None = None
    for _ in range(6):
        rec = random_record(rng, rules, dealer=dealer, players=players)
        score = sum(1 for c in clauses_paid(rec, rules) if not seen[c])
        if best is None or score > best[0]:
            best = (score, rec)
    assert best is not None
    return best[1]


def build(seed: int, ruleset_file: Path = RULESET_FILE) -> tuple[dict[str, Any], Counter[str]]:
    rules = ruleset_from_file(ruleset_file)
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as d, synthetic_clock("2026-03-14"):
        t = Tournament.create(Path(d) / "club.sqlite", "川渝同乡会春季联谊赛 2026 (俱乐部规则演示)",
                              ruleset=rules, venue="Ottawa Chinese Community Centre",
                              start_date="2026-03-14", end_date="2026-03-14",
                              referees=REFEREES, head_referee=REFEREES[0], backup_every=0)
        for name, latin, club in PLAYERS:
            t.players.add(name, name_latin=latin, club=club, referee=REFEREES[0])
        for r in range(1, ROUNDS + 1):
            seating = t.rounds.seat(r, seed=seed * 10 + r, referee=REFEREES[0])
            for table in range(1, TABLES + 1):
                players = seating.tables[table]
                for n in range(1, HANDS + 1):
                    dealer = t.hands.next_dealer(r, table)
                    want = PIG if (r, n) == (1, 2) and not seen[PIG] else None
                    rec = pick_record(rng, rules, dealer, players, seen, want)
                    h = t.hands.add(rec, round=r, table=table, hand_no=n,
                                   referee=REFEREES[table % 2])
                    seen.update(clauses_paid(rec, rules))
                    if n % 2 == 0:
                        # a second referee verifies: the one who did not enter it
                        t.hands.set_status(h.id, "verified", referee=REFEREES[(table + 1) % 2])
        late = t.rounds.seating(2).tables[1]["E"]
        t.penalties.add([late], 4, "迟到 (late for round 2)", clause="§3", referee=REFEREES[0],
                      round=2)
        bundle = t.export_bundle()
        t.close()
    return bundle, seen


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=32)
    ap.add_argument("--ruleset-file", type=Path, default=RULESET_FILE)
    ap.add_argument("--out", type=Path,
                    default=ROOT / "sample_events" / "demo-club-ottawa-32.json")
    args = ap.parse_args(argv)
    bundle, seen = build(args.seed, args.ruleset_file)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out}: {len(bundle['players'])} players, {len(bundle['rounds'])} rounds, "
          f"{len(bundle['hands'])} hands, {len(bundle['penalties'])} penalty")
    print("payment clauses: " + "  ".join(f"{c} x{k}" for c, k in sorted(seen.items())))
    if not seen[PIG]:
        print(f"no hand pays under {PIG} (flower pig): try another --seed")
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
