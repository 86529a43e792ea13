"""A small realistic tournament database for report tests, the benchmark and docs/img.

Random but reproducible (seeded) valid hands from ``referee_app.core.generate``; besides
plain hands it holds one amended hand, one voided hand, one head-referee override and
two penalties, so every report has something of each kind to show.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import TYPE_CHECKING

from referee_app.core import Ruleset, format_tiles, get_ruleset, parse_tiles
from referee_app.core.generate import random_record

if TYPE_CHECKING:
    from referee_app.storage import Tournament

SURNAMES = "李王张刘陈杨赵黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏飞斌辉宇浩凯"
LATIN_S = {"李": "Li", "王": "Wang", "张": "Zhang", "刘": "Liu", "陈": "Chen", "杨": "Yang",
           "赵": "Zhao", "黄": "Huang", "周": "Zhou", "吴": "Wu"}
CLUBS = ("渥太华川渝同乡会", "Montréal Mahjong", "多伦多麻将社", "Kingston Club")


def player_names(n: int, seed: int = 1) -> list[tuple[str, str, str]]:
    """``n`` distinct (Chinese name, Latin name, club) triples."""
    rng = random.Random(seed)
    out: list[tuple[str, str, str]] = []
    seen: set[str] = set()
    while len(out) < n:
        name = rng.choice(SURNAMES) + rng.choice(GIVEN) + (rng.choice(GIVEN) if rng.random()
                                                           < 0.5 else "")
        if name in seen:
            continue
        seen.add(name)
        latin = f"{LATIN_S[name[0]]} {len(out) + 1}" if name[0] in LATIN_S else ""
        out.append((name, latin, CLUBS[len(out) % len(CLUBS)]))
    return out


def build_sample(path: str | Path, *, ruleset: str | Ruleset = "ottawa-2009",
                 players: int | None = None,
                 rounds: int = 2, hands_per_table: int = 4, seed: int = 7,
                 name: str = "渥太华川渝同乡会麻将大赛 2026 Ottawa Open",
                 extras: bool = True) -> Tournament:
    """Create (and return, open) a tournament at ``path`` filled with valid hands.

    ``ruleset``: a shipped id or a club's own :class:`Ruleset` (``ruleset_from_file``)."""
    from referee_app.storage import Tournament

    rules = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    size = len(rules.seats)
    players = players or 2 * size
    t = Tournament.create(path, name, ruleset=ruleset, venue="Ottawa",
                          start_date="2026-11-28", end_date="2026-11-29",
                          referees=["吴裁判"], head_referee="赵总裁判")
    for cn, latin, club in player_names(players, seed):
        t.players.add(cn, name_latin=latin, club=club)
    rng = random.Random(seed)
    for rnd in range(1, rounds + 1):
        seating = t.rounds.seat(rnd, seed=seed + rnd)
        for table, row in seating.tables.items():
            dealer = rules.seats[0]
            for hand_no in range(1, hands_per_table + 1):
                rec = random_record(rng, rules, dealer=dealer, players=row)
                rec.update(round=rnd, table=table, hand_no=hand_no)
                t.hands.add(rec, round=rnd, table=table, hand_no=hand_no, referee="吴裁判")
                dealer = t.hands.next_dealer(rnd, table)
    if extras:
        _add_extras(t, rng, rules)
    return t


def _add_extras(t: Tournament, rng: random.Random, ruleset: Ruleset) -> None:
    """An amendment, a void, an override and penalties: the cases reports must mark."""
    hands = t.hands.list(round=1, table=1)
    seats = t.rounds.seating(1).tables[1]
    if len(hands) >= 2:
        rec = random_record(rng, ruleset, dealer=hands[1].dealer, players=seats)
        t.hands.amend(hands[1].id, rec, reason="记分单抄错，按原始记分单重录 (slip copied "
                     "wrongly; re-entered from the table's slip)",
                     referee="赵总裁判")
    if len(hands) >= 3:
        t.hands.void(hands[2].id, reason="entered at the wrong table", referee="赵总裁判")
    # a record that breaks §2.4 (three suits in a winning hand), kept by override
    bad = random_record(rng, ruleset, players=seats)
    while not any(ev["type"] == "win" for ev in bad["events"]):
        bad = random_record(rng, ruleset, players=seats)
    winner = next(ev for ev in bad["events"] if ev["type"] == "win")["seats"][0]
    n = len(parse_tiles(bad["seats"][winner]["concealed"]))
    bad["seats"][winner]["concealed"] = format_tiles(parse_tiles("123m456p789s1122m")[:n])
    seat_list = list(seats)
    totals = {s: 0 for s in seat_list}
    totals[seat_list[0]], totals[seat_list[1]] = 8, -8
    nxt = t.hands.next_no(1, 1)
    try:
        t.hands.add(bad, round=1, table=1, hand_no=nxt, referee="赵总裁判",
                   override_reason="裁判长裁定：按现场约定计分 (head referee ruling)",
                   override_totals=totals)
    except ValueError:
        pass  # the storage may refuse unreadable records even with an override
    names = list(seats.values())
    t.penalties.add([names[0]], 5, "迟到 late arrival", clause="§3", referee="吴裁判", round=1)
    t.penalties.add([names[1]], 2, "出错牌 wrong discard", referee="吴裁判", round=1,
                  zero_sum=True)
