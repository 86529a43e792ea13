#!/usr/bin/env python3
"""Build ``sample_events/demo-ottawa-2009.json``: a realistic, fully valid demo tournament.

16 players (Chinese names), 4 rounds x 4 tables x 8 hands under ``ottawa-2009``, dealers
following the ruleset's next-dealer rule, one amended hand and one penalty. Records come
from the engine's generator (``referee_app.core.generate.random_record``); at each hand the
script draws a few candidates and keeps the one that adds the most not-yet-seen clauses and
situations, so that between them the hands exercise every payment clause (§2.6-§2.14),
every reachable pattern and bonus, every kong kind, multi-wins, robbed kongs, flower pigs,
ready checks, price differences and refunds. Patterns the generator rarely builds are
transplanted into a generated hand as a crafted winning hand, and kept only if the engine
settles it ok. Deterministic: same seed, same file (timestamps are synthetic).

Usage:  python tools/make_demo_event.py [--seed 2009] [--out sample_events/demo-ottawa-2009.json]

``--placement`` builds the placement-scored variant instead,
``sample_events/demo-placement.json``: the same 16 players ranked by placement points
(比赛分 4,2,1,0 a table each round, chips breaking ties), three qualifying rounds × 4 tables
× 6 hands, a cut after round 3 sending the top 8 to the final (决赛) with half their points
carried, one final round × 2 tables × 6 hands, one penalty in points and one in chips.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import itertools
import json
import random
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee_app.core import HandRecord, settle  # noqa: E402
from referee_app.core.generate import random_record  # noqa: E402
from referee_app.storage import Tournament  # noqa: E402

RULESET = "ottawa-2009"
ROUNDS, TABLES, HANDS = 4, 4, 8

PLAYERS = [  # (name, latin, club)
    ("李伟", "Li Wei", "渥太华川渝同乡会"), ("张敏", "Zhang Min", "渥太华川渝同乡会"),
    ("陈杰", "Chen Jie", "蒙特利尔麻将社"), ("王芳", "Wang Fang", "多伦多成都会馆"),
    ("刘洋", "Liu Yang", "渥太华川渝同乡会"), ("赵磊", "Zhao Lei", "蒙特利尔麻将社"),
    ("孙丽", "Sun Li", "多伦多成都会馆"), ("周强", "Zhou Qiang", "渥太华川渝同乡会"),
    ("吴昊", "Wu Hao", "蒙特利尔麻将社"), ("徐静", "Xu Jing", "多伦多成都会馆"),
    ("马林", "Ma Lin", "渥太华川渝同乡会"), ("胡波", "Hu Bo", "蒙特利尔麻将社"),
    ("郭涛", "Guo Tao", "多伦多成都会馆"), ("何敏", "He Min", "渥太华川渝同乡会"),
    ("高飞", "Gao Fei", "蒙特利尔麻将社"), ("林娜", "Lin Na", "多伦多成都会馆"),
]
REFEREES = ["赵建国", "钱文", "孙丽华"]

#: every clause that moves chips under ottawa-2009 (the test checks the bundle holds all)
PAYMENT_CLAUSES = ("§2.6", "§2.7", "§2.8A", "§2.8B", "§2.9", "§2.10", "§2.11", "§2.12",
                   "§2.13", "§2.14")
PATTERN_CLAUSES = ("§4.1", "§4.2", "§4.3", "§4.4", "§4.5", "§4.6", "§4.6b", "§4.7", "§4.7b",
                   "§4.8", "§4.9", "§4.10")
BONUS_CLAUSES = ("§5.1", "§5.2", "§5.3", "§5.4", "§5.5")
SITUATIONS = ("kong:direct", "kong:added", "kong:concealed", "multi-win", "triple-win",
              "robbed-kong", "flower-pig", "ready-check", "price-difference", "refund",
              "self-drawn", "discard-win", "wall-exhausted", "dealer-stays")

#: crafted winning hands (13 concealed tiles, winning tile) for rarely generated patterns
CRAFTED = {
    "§4.4": ("123789m123789p1m", "1m"),      # 幺九: every set and the pair hold a 1 or 9
    "§4.6b": ("222555m888222p5p", "5p"),     # 将对: pongs and pair of 2, 5, 8
    "§4.8": ("123123789789m1m", "1m"),       # 清一色带幺九
    "§4.10": ("1111m9999m1111p9p", "9p"),    # 幺九暗七对
    "§4.7": ("111999m111999p9m", "9m"),      # 幺九对 (needs 5 terminal kinds: see report)
}


def coverage_of(rec: dict[str, Any]) -> set[str]:
    """Clauses and situations one valid record exercises."""
    r = HandRecord.from_dict(rec)
    s = settle(r)
    out = {p.clause for p in s.payments}
    for w in s.wins:
        out.add(w.score.pattern_clause)
        out |= {b.clause for b in w.score.bonuses}
        out.add("self-drawn" if w.from_seat is None else "discard-win")
    for e in rec["events"]:
        if e["type"] == "kong":
            out.add(f"kong:{e['kind']}")
        elif len(e["seats"]) > 1:
            out.add("multi-win")
            if len(e["seats"]) == 3:
                out.add("triple-win")
        if "robbing_kong" in e.get("flags", []):
            out.add("robbed-kong")
    names = {"§2.11": "flower-pig", "§2.12": "ready-check", "§2.13": "price-difference",
             "§2.14": "refund"}
    out |= {names[c] for c in list(out) if c in names}
    if rec.get("wall_exhausted"):
        out.add("wall-exhausted")
    if not s.wins:
        out.add("dealer-stays")
    return out


def transplant(base: dict[str, Any], concealed: str, tile: str) -> dict[str, Any] | None:
    """Put a crafted winning hand into a generated record's plain single win, if any."""
    kong_seats = {e["seat"] for e in base["events"] if e["type"] == "kong"}
    robbed = {e.get("from") for e in base["events"]
              if e["type"] == "win" and "robbing_kong" in e.get("flags", [])}
    for e in base["events"]:
        if e["type"] != "win" or len(e["seats"]) != 1 or e.get("flags"):
            continue
        seat = e["seats"][0]
        if seat in kong_seats or seat in robbed or base["seats"][seat]["pongs"]:
            continue
        rec = copy.deepcopy(base)
        rec["seats"][seat]["concealed"] = concealed
        for ev in rec["events"]:
            if ev is not None and ev["type"] == "win" and ev["seats"] == [seat]:
                ev["tile"] = tile
        return rec
    return None


def pick_record(rng: random.Random, dealer: str, players: dict[str, str], seen: Counter[str],
                want_pattern: str | None) -> dict[str, Any]:
    """The candidate adding the most unseen items (ties: the first drawn)."""
    if want_pattern is not None:
        concealed, tile = CRAFTED[want_pattern]
        for _ in range(400):
            base = random_record(rng, RULESET, dealer=dealer, players=players)
            rec = transplant(base, concealed, tile)
            if rec is None:
                continue
            s = settle(HandRecord.from_dict(rec))
            if s.ok and any(w.score.pattern_clause == want_pattern for w in s.wins):
                return rec
    best: tuple[int, dict[str, Any]] | None = None
    for _ in range(10):
        rec = random_record(rng, RULESET, dealer=dealer, players=players)
        cov = coverage_of(rec)
        score = sum(3 if seen[c] == 0 else (1 if seen[c] < 3 else 0) for c in cov)
        if best is None or score > best[0]:
            best = (score, rec)
    assert best is not None
    return best[1]


@contextlib.contextmanager
def synthetic_clock(day: str) -> Iterator[None]:
    """A plausible tournament-day clock (75 s a step) instead of the real one, so the demo
    is the same on every run: times are part of the hash-chained record, so they are set
    while it is written, never rewritten afterwards."""
    from referee_app.storage import db as dbm

    start = datetime.fromisoformat(f"{day}T08:30:00+00:00")
    steps = itertools.count()
    real = dbm.now
    dbm.now = lambda: (start + timedelta(seconds=75 * next(steps))).isoformat(
        timespec="microseconds")
    try:
        yield
    finally:
        dbm.now = real


def build(seed: int) -> tuple[dict[str, Any], Counter[str]]:
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as d, synthetic_clock("2009-01-03"):
        t = Tournament.create(Path(d) / "demo.sqlite", "渥太华川渝同乡会有奖麻将大赛 2009 (演示)",
                              ruleset=RULESET, venue="Ottawa Chinese Community Centre",
                              start_date="2009-01-03", end_date="2009-01-03",
                              referees=REFEREES, head_referee=REFEREES[0], backup_every=0)
        for name, latin, club in PLAYERS:
            t.players.add(name, name_latin=latin, club=club, referee=REFEREES[0])
        crafted_slots = {(1, 2, 3): "§4.4", (1, 4, 6): "§4.6b", (2, 1, 4): "§4.8",
                         (2, 3, 7): "§4.10", (3, 2, 2): "§4.7"}
        amend_slot = (2, 3, 5)
        for r in range(1, ROUNDS + 1):
            seating = t.rounds.seat(r, seed=seed * 10 + r, referee=REFEREES[0])
            for table in range(1, TABLES + 1):
                players = seating.tables[table]
                for n in range(1, HANDS + 1):
                    dealer = t.hands.next_dealer(r, table)
                    want = crafted_slots.get((r, table, n))
                    rec = pick_record(rng, dealer, players, seen, want)
                    referee = REFEREES[(table + r) % len(REFEREES)]
                    if (r, table, n) == amend_slot:
                        wrong = amend_from(rec)
                        while wrong is None:  # the story needs a hand with a kong to miss
                            rec = pick_record(rng, dealer, players, seen, want)
                            wrong = amend_from(rec)
                        h = t.hands.add(wrong, round=r, table=table, hand_no=n, referee=referee)
                        t.hands.amend(h.id, rec, referee=REFEREES[0], reason=KONG_REASON)
                    else:
                        h = t.hands.add(rec, round=r, table=table, hand_no=n, referee=referee)
                    seen.update(coverage_of(rec))
                    if n % 3 == 0:
                        t.hands.set_status(h.id, "verified", referee=REFEREES[(table + r + 1) % 3])
        penalised = t.rounds.seating(3).tables[2]["W"]
        t.penalties.add([penalised], 8, "诈和 (false win declared; hand continued)",
                      clause="§2.4", referee=REFEREES[0], zero_sum=True, round=3)
        bundle = t.export_bundle()
        t.close()
    return bundle, seen


PLACEMENT_ROUNDS, PLACEMENT_HANDS, FINAL_TOP = 3, 6, 8


def build_placement(seed: int) -> tuple[dict[str, Any], Counter[str]]:
    """The placement-scored variant (see the module doc)."""
    rng = random.Random(seed)
    seen: Counter[str] = Counter()
    with tempfile.TemporaryDirectory() as d, synthetic_clock("2009-01-04"):
        t = Tournament.create(Path(d) / "demo.sqlite", "渥太华川渝同乡会比赛分赛 2009 (演示)",
                              ruleset=RULESET, venue="Ottawa Chinese Community Centre",
                              start_date="2009-01-04", end_date="2009-01-04",
                              referees=REFEREES, head_referee=REFEREES[0], backup_every=0,
                              scoring="placement", placement_points="4,2,1,0")
        for name, latin, club in PLAYERS:
            t.players.add(name, name_latin=latin, club=club, referee=REFEREES[0])

        def play(r: int) -> None:
            seating = t.rounds.seat(r, seed=seed * 10 + r, referee=REFEREES[0])
            for table in sorted(seating.tables):
                players = seating.tables[table]
                for n in range(1, PLACEMENT_HANDS + 1):
                    dealer = t.hands.next_dealer(r, table)
                    rec = pick_record(rng, dealer, players, seen, None)
                    h = t.hands.add(rec, round=r, table=table, hand_no=n,
                                    referee=REFEREES[(table + r) % len(REFEREES)])
                    seen.update(coverage_of(rec))
                    if n % 2 == 0:
                        t.hands.set_status(h.id, "verified",
                                           referee=REFEREES[(table + r + 1) % 3])

        for r in range(1, PLACEMENT_ROUNDS + 1):
            play(r)
        late = t.rounds.seating(2).tables[3]["N"]
        t.penalties.add([late], 1, "迟到 (late for round 2: one placement point)",
                        clause="§3", referee=REFEREES[0], round=2, unit="points")
        rude = t.rounds.seating(3).tables[1]["E"]
        t.penalties.add([rude], 8, "诈和 (false win declared; hand continued)",
                        clause="§2.4", referee=REFEREES[0], zero_sum=True, round=3)
        rows = [r for r in t.standings.table(through_round=PLACEMENT_ROUNDS)]
        top = FINAL_TOP
        while rows[top - 1].rank == rows[top].rank:  # no tie across the cut in the demo
            top += 1
        t.stages.cut(PLACEMENT_ROUNDS, top, "half", name="决赛", referee=REFEREES[0])
        play(PLACEMENT_ROUNDS + 1)
        bundle = t.export_bundle()
        t.close()
    return bundle, seen


KONG_REASON = ("表上记分单: 漏记了一个杠 (a kong was missed at entry; corrected from the "
               "table's score sheet)")


def amend_from(rec: dict[str, Any]) -> dict[str, Any] | None:
    """The record as first (wrongly) entered: without its last kong, when still valid;
    None when the hand has no kong that can be left out (the reason would not match)."""
    kongs = [i for i, e in enumerate(rec["events"]) if e["type"] == "kong"]
    for i in reversed(kongs):
        wrong = copy.deepcopy(rec)
        ev = wrong["events"].pop(i)
        seat = wrong["seats"][ev["seat"]]
        if ev["kind"] == "added":
            seat["pongs"].append(ev["tile"])
        elif ev["kind"] == "concealed":
            seat["concealed"] += ev["tile"] * 3  # entered as three concealed tiles
        if settle(HandRecord.from_dict(wrong)).ok:
            return wrong
    return None


def kongs(record: dict[str, Any]) -> int:
    return sum(e["type"] == "kong" for e in record["events"])


def check_amendments(bundle: dict[str, Any]) -> list[str]:
    """Every amendment in the demo must be the change its reason tells (issue 13)."""
    bad = []
    for h in bundle["hands"]:
        for before, after in zip(h["versions"], h["versions"][1:], strict=False):
            if after["action"] != "amended":
                continue
            if after.get("reason") == KONG_REASON and \
                    kongs(after["record"]) != kongs(before["record"]) + 1:
                bad.append(f"hand {h['id']} v{after['version']}: reason says a kong was "
                           "missed but the kongs did not change by one")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=2009)
    ap.add_argument("--placement", action="store_true",
                    help="the placement-scored variant (sample_events/demo-placement.json)")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args(argv)
    if args.out is None:
        args.out = ROOT / "sample_events" / ("demo-placement.json" if args.placement
                                             else "demo-ottawa-2009.json")
    bundle, seen = build_placement(args.seed) if args.placement else build(args.seed)
    wrong = check_amendments(bundle)
    if wrong:
        print("\n".join(wrong))
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(bundle, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    hands = bundle["hands"]
    print(f"wrote {args.out}: {len(bundle['players'])} players, {len(bundle['rounds'])} rounds, "
          f"{len(hands)} hands, "
          f"{sum(v['action'] == 'amended' for h in hands for v in h['versions'])} amendment(s), "
          f"{len(bundle['penalties'])} penalty")
    missing = []
    for title, items in (("payment clauses", PAYMENT_CLAUSES), ("patterns", PATTERN_CLAUSES),
                         ("bonuses", BONUS_CLAUSES), ("situations", SITUATIONS)):
        print(f"{title}:")
        print("  " + "  ".join(f"{c} x{seen[c]}" for c in items))
        missing += [c for c in items if not seen[c]]
    if missing:
        print("not covered: " + ", ".join(missing))
    lacking = [c for c in PAYMENT_CLAUSES if not seen[c]]
    return 1 if lacking else 0


if __name__ == "__main__":
    raise SystemExit(main())
