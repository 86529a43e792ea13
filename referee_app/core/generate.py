"""Random *valid* hand records, for property tests, fuzzing seeds and the benchmark.

Records are built the way a hand unfolds rather than drawn at random and filtered: first a
plan (who wins, in which win events, on whose discard, with which flags), then each seat's
tiles from one shared pool of 4 copies per tile kind (a tile won by several seats on one
discard is one physical tile; a robbed kong's pong keeps 3 copies and the winning tile is
the 4th), then the kongs are placed in event order before their owner's win. Everything is
pure Python and deterministic for a given ``random.Random`` state.

``random_record(rng, check=True)`` also settles the candidate and retries when the engine
says it is not ok; with ``check=False`` the record is returned as built, which lets tests
assert that records valid *by construction* settle ok.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .ruleset import DEFAULT_RULESET, Ruleset, get_ruleset
from .tiles import NUM_KINDS, format_tiles, tile_name

__all__ = ["GenerationError", "random_record", "random_records"]

_NAMES = ("Li Wei", "Zhang Min", "Chen Jie", "Wang Fang", "Liu Yang", "Zhao Lei", "Sun Li",
          "Zhou Qiang", "Wu Hao", "Xu Jing", "Ma Lin", "Hu Bo")

#: Roles of a seat still unwon at the wall's end, with their weights.
_END_ROLES = (("ready", 45), ("not_ready", 25), ("pig", 15), ("xianggong", 10),
              ("pig_xianggong", 5))


class GenerationError(RuntimeError):
    """No valid record could be built (only after many retries: a generator bug)."""


class _Retry(Exception):
    """The current attempt ran out of tiles or hit an impossible combination."""


@dataclass
class _Hand:
    """A seat's tiles: concealed count vector, exposed pongs, declared kongs (tile, kind)."""

    counts: list[int]
    pongs: list[int] = field(default_factory=list)
    kongs: list[tuple[int, str]] = field(default_factory=list)
    win_tile: int | None = None


@dataclass
class _WinPlan:
    seats: list[str]
    frm: str | None
    flags: list[str] = field(default_factory=list)
    tile: int | None = None


def _take(avail: list[int], tiles: Sequence[int]) -> bool:
    """Remove ``tiles`` from the pool if every copy is there (all or nothing)."""
    need: dict[int, int] = {}
    for t in tiles:
        need[t] = need.get(t, 0) + 1
    if any(avail[t] < n for t, n in need.items()):
        return False
    for t, n in need.items():
        avail[t] -= n
    return True


def _suit_tiles(suits: Sequence[int]) -> list[int]:
    return [s * 9 + r for s in suits for r in range(9)]


class _Builder:
    """One attempt at a record; raises _Retry when the random choices do not fit."""

    def __init__(self, rng: random.Random, rules: Ruleset, dealer: str | None,
                 players: Mapping[str, str] | Sequence[str] | None) -> None:
        self.rng = rng
        self.rules = rules
        self.seats = rules.seats
        self.suits = ["mps".index(s) for s in rules.suits]
        self.avail = [4 if t // 9 in self.suits else 0 for t in range(NUM_KINDS)]
        self.dealer = dealer if dealer is not None else rng.choice(self.seats)
        if players is None:
            names = rng.sample(_NAMES, len(self.seats))
            self.players = dict(zip(self.seats, names, strict=True))
        elif isinstance(players, Mapping):
            self.players = dict(players)
        else:
            self.players = dict(zip(self.seats, players, strict=False))
        self.forced_pongs: dict[str, list[int]] = {s: [] for s in self.seats}
        self.need_kong: set[str] = set()
        self.no_melds: set[str] = set()
        self.hands: dict[str, _Hand] = {}

    # ---------------------------------------------------------------- plan

    def plan(self) -> tuple[list[_WinPlan], bool]:
        rng, seats = self.rng, self.seats
        n = len(seats)
        max_w = min(self.rules.max_winners, n - 1)
        if not self.rules.blood_battle:
            max_w = min(max_w, 1)
        weights = [10, 25, 30, 35][: max_w + 1]
        k = rng.choices(range(max_w + 1), weights=weights)[0]
        order = rng.sample(list(seats), k)
        wins: list[_WinPlan] = []
        won: list[str] = []
        i = 0
        while i < k:
            left = k - i
            size = 1
            if left >= 2 and self.rules.blood_battle and rng.random() < 0.22:
                size = 3 if left >= 3 and rng.random() < 0.35 else 2
            group = order[i:i + size]
            unwon = [s for s in seats if s not in won]
            discarders = [s for s in unwon if s not in group]
            if size == 1 and (rng.random() < 0.45 or not discarders):
                wins.append(_WinPlan(group, None))
            else:
                wins.append(_WinPlan(group, rng.choice(discarders)))
            won.extend(group)
            i += size
        wall = k < n - 1 or rng.random() < 0.1
        flags = self.rules.flags
        for j, w in enumerate(wins):
            r = rng.random()
            if w.frm is None:
                if j == 0 and w.seats[0] == self.dealer and "heavenly" in flags and r < 0.08:
                    w.flags.append("heavenly")
                elif (j == 0 and w.seats[0] != self.dealer and "earthly" in flags
                      and r < 0.08):
                    w.flags.append("earthly")
                elif "kong_bloom" in flags and r < 0.3:
                    w.flags.append("kong_bloom")
            else:
                if "robbing_kong" in flags and r < 0.14:
                    w.flags.append("robbing_kong")
                elif "kong_discard" in flags and r < 0.28:
                    w.flags.append("kong_discard")
                elif (j == 0 and len(w.seats) == 1 and w.seats[0] != self.dealer
                      and "earthly" in flags and r < 0.34):
                    w.flags.append("earthly")
            if "heavenly" in w.flags or "earthly" in w.flags:
                self.no_melds.update(w.seats)
            if "kong_bloom" in w.flags:
                self.need_kong.add(w.seats[0])
            if "kong_discard" in w.flags and w.frm is not None:
                self.need_kong.add(w.frm)
        return wins, wall

    # ---------------------------------------------------------------- hands

    def _pick_suits(self, fixed: Sequence[int]) -> list[int]:
        fixed_set = sorted(set(fixed))
        if len(fixed_set) > 2:
            raise _Retry
        rng = self.rng
        want = 1 if rng.random() < 0.22 else 2
        want = min(max(want, len(fixed_set)), len(self.suits))
        chosen = list(fixed_set)
        others = [s for s in self.suits if s not in chosen]
        rng.shuffle(others)
        while len(chosen) < want and others:
            chosen.append(others.pop())
        if not chosen:
            chosen = [rng.choice(self.suits)]
        return chosen

    def _standard(self, seat: str, shared: int | None, run_only: bool,
                  melds_ok: bool) -> _Hand:
        """Four sets and a pair in one or two suits; ``shared`` is a tile already in the pool's
        account (the discard several seats win on, or a robbed kong's tile)."""
        rng = self.rng
        a = self.avail[:]
        forced = self.forced_pongs[seat]
        fixed = [t // 9 for t in forced] + ([shared // 9] if shared is not None else [])
        suits = self._pick_suits(fixed)
        counts = [0] * NUM_KINDS
        triplets: list[int] = []
        pair_done = False
        sets = len(forced)
        if shared is not None:
            r = shared % 9
            opts: list[tuple[str, list[int]]] = []
            for start in (r - 2, r - 1, r):
                if 0 <= start <= 6:
                    opts.append(("run", [shared - r + start + k for k in range(3)]))
            if not run_only:
                opts += [("pair", [shared, shared]), ("triplet", [shared] * 3)]
            rng.shuffle(opts)
            for kind, tiles in opts:
                rest = list(tiles)
                rest.remove(shared)
                if _take(a, rest):
                    for t in tiles:
                        counts[t] += 1
                    if kind == "pair":
                        pair_done = True
                    else:
                        sets += 1
                    break
            else:
                raise _Retry
        want_kong = seat in self.need_kong
        pool = _suit_tiles(suits)
        # A bias now and then towards the rarer patterns (all pongs, terminals, 2-5-8), so
        # that every row of the fan table shows up in generated records.
        style = rng.choices(("any", "pongs", "terminal", "258"), weights=(70, 12, 12, 6))[0]
        p_triplet = {"any": 0.35, "pongs": 1.0, "terminal": 0.5, "258": 1.0}[style]
        trip_pool = {"terminal": [t for t in pool if t % 9 in (0, 8)],
                     "258": [t for t in pool if t % 9 in (1, 4, 7)]}.get(style, pool)
        run_pool = [t for t in pool if t % 9 in (0, 6)] if style == "terminal" else pool
        tries = 0
        while sets < 4:
            tries += 1
            if tries > 40:
                raise _Retry
            if (want_kong and not triplets) or rng.random() < p_triplet:
                t = rng.choice(trip_pool)
                if _take(a, [t] * 3):
                    counts[t] += 3
                    triplets.append(t)
                    sets += 1
            else:
                t = rng.choice(run_pool)
                if t % 9 <= 6 and _take(a, [t, t + 1, t + 2]):
                    for x in (t, t + 1, t + 2):
                        counts[x] += 1
                    sets += 1
        if not pair_done:
            cands = [t for t in (trip_pool if style in ("terminal", "258") else pool)
                     if a[t] >= 2]
            if not cands:
                raise _Retry
            t = rng.choice(cands)
            a[t] -= 2
            counts[t] += 2
        hand = _Hand(counts, list(forced))
        if melds_ok:
            self._meld_triplets(hand, triplets, a, want_kong)
        elif want_kong:
            raise _Retry
        if shared is not None:
            hand.win_tile = shared
        else:
            hand.win_tile = rng.choice([t for t in range(NUM_KINDS) if counts[t]])
        self.avail = a
        return hand

    def _meld_triplets(self, hand: _Hand, triplets: list[int], a: list[int],
                       want_kong: bool) -> None:
        """Turn some concealed triplets into pongs or kongs (a kong takes the 4th copy)."""
        rng = self.rng
        for t in triplets:
            r = rng.random()
            if r < 0.3:
                hand.counts[t] -= 3
                hand.pongs.append(t)
            elif r < 0.62 and a[t] >= 1:
                a[t] -= 1
                hand.counts[t] -= 3
                hand.kongs.append((t, rng.choice(("direct", "added", "concealed"))))
        if want_kong and not hand.kongs:
            for t in triplets:
                if hand.counts[t] >= 3 and a[t] >= 1:
                    a[t] -= 1
                    hand.counts[t] -= 3
                    hand.kongs.append((t, rng.choice(("direct", "added", "concealed"))))
                    return
                if t in hand.pongs and a[t] >= 1:
                    a[t] -= 1
                    hand.pongs.remove(t)
                    hand.kongs.append((t, "added"))
                    return
            raise _Retry

    def _seven_pairs(self, seat: str, shared: int | None) -> _Hand:
        rng = self.rng
        a = self.avail[:]
        suits = self._pick_suits([shared // 9] if shared is not None else [])
        pool = _suit_tiles(suits)
        counts = [0] * NUM_KINDS
        pairs = 0
        if shared is not None:
            if not _take(a, [shared]):
                raise _Retry
            counts[shared] += 2
            pairs = 1
        terminal = rng.random() < 0.15  # 幺九暗七对 needs four-of-a-kinds of 1s and 9s
        if terminal:
            pool = [t for t in pool if t % 9 in (0, 8)]
        tries = 0
        while pairs < 7:
            tries += 1
            if tries > 40:
                raise _Retry
            t = rng.choice(pool)
            if counts[t] and not terminal and rng.random() < 0.8:
                continue  # a four-of-a-kind now and then, not every time
            if _take(a, [t, t]):
                counts[t] += 2
                pairs += 1
        hand = _Hand(counts)
        hand.win_tile = shared if shared is not None else rng.choice(
            [t for t in range(NUM_KINDS) if counts[t]])
        self.avail = a
        return hand

    def winning_hand(self, seat: str, shared: int | None = None,
                     run_only: bool = False) -> _Hand:
        """A complete 14-tile hand (counts include the winning tile)."""
        simple = not self.forced_pongs[seat] and seat not in self.need_kong and not run_only
        if simple and self.rng.random() < 0.16:
            return self._seven_pairs(seat, shared)
        return self._standard(seat, shared, run_only, seat not in self.no_melds)

    def end_hand(self, seat: str, role: str) -> _Hand:
        """The tiles of a seat still unwon when the wall runs out, in the given role."""
        rng = self.rng
        if role == "ready":
            hand = self.winning_hand(seat)
            t = rng.choice([x for x in range(NUM_KINDS) if hand.counts[x]])
            hand.counts[t] -= 1
            self.avail[t] += 1  # the tile it waits on stays in the wall
            hand.win_tile = None
            return hand
        a = self.avail[:]
        pig = role.startswith("pig") and len(self.suits) == 3
        forced = self.forced_pongs[seat]
        if pig:
            suits = list(self.suits)
        else:
            suits = self._pick_suits([t // 9 for t in forced])
        hand = _Hand([0] * NUM_KINDS, list(forced))
        pool = _suit_tiles(suits)
        if seat in self.need_kong or rng.random() < 0.25:
            cands = [t for t in pool if a[t] == 4]
            if cands:
                t = rng.choice(cands)
                a[t] = 0
                hand.kongs.append((t, rng.choice(("direct", "added", "concealed"))))
            elif seat in self.need_kong:
                raise _Retry
        elif rng.random() < 0.2:
            cands = [t for t in pool if a[t] >= 3]
            if cands:
                t = rng.choice(cands)
                a[t] -= 3
                hand.pongs.append(t)
        n = 13 - 3 * (len(hand.pongs) + len(hand.kongs))
        if role.endswith("xianggong"):
            n += rng.choice((-2, -1, 1, 1, 2))
        n = max(n, 1)
        if pig:  # one tile of every suit the melds do not already show
            shown = {t // 9 for t in hand.pongs} | {t // 9 for t, _ in hand.kongs}
            for s in self.suits:
                if s not in shown:
                    cands = [t for t in _suit_tiles([s]) if a[t]]
                    if not cands:
                        raise _Retry
                    t = rng.choice(cands)
                    a[t] -= 1
                    hand.counts[t] += 1
                    n -= 1
        for _ in range(max(n, 0)):
            cands = [t for t in pool if a[t]]
            if not cands:
                raise _Retry
            t = rng.choice(cands)
            a[t] -= 1
            hand.counts[t] += 1
        self.avail = a
        return hand

    # ---------------------------------------------------------------- events

    def build(self) -> dict[str, Any]:
        rng, seats = self.rng, self.seats
        wins, wall = self.plan()
        # Robbed kongs first: the robbed seat keeps a pong (3 copies), the win takes the 4th.
        for w in wins:
            if "robbing_kong" in w.flags:
                cands = [t for t in range(NUM_KINDS) if self.avail[t] == 4]
                t = rng.choice(cands)
                self.avail[t] = 0
                assert w.frm is not None
                self.forced_pongs[w.frm].append(t)
                w.tile = t
        for w in wins:
            run_only = "robbing_kong" in w.flags
            for s in w.seats:
                h = self.winning_hand(s, w.tile, run_only)
                w.tile = h.win_tile
                h.counts[h.win_tile] -= 1  # the record lists the hand without the winning tile
                self.hands[s] = h
        roles = [r for r, _ in _END_ROLES]
        weights = [wt for _, wt in _END_ROLES]
        for s in seats:
            if s not in self.hands:
                role = rng.choices(roles, weights=weights)[0] if wall else rng.choice(
                    ["ready", "not_ready"])
                self.hands[s] = self.end_hand(s, role)
        events = self._events(wins, wall)
        out_seats: dict[str, Any] = {}
        for s in seats:
            h = self.hands[s]
            entry: dict[str, Any] = {}
            if s in self.players:
                entry["player"] = self.players[s]
            entry["concealed"] = format_tiles(
                [t for t in range(NUM_KINDS) for _ in range(h.counts[t])])
            entry["pongs"] = [tile_name(t) for t in h.pongs]
            out_seats[s] = entry
        return {"format": "sichuan-hand/1", "ruleset": self.rules.id, "dealer": self.dealer,
                "seats": out_seats, "events": events, "wall_exhausted": wall}

    def _events(self, wins: list[_WinPlan], wall: bool) -> list[dict[str, Any]]:
        """Place every kong in a slot (slot j = just before win event j; slot m = after the
        last win, only when the wall runs out with two or more seats unwon)."""
        rng, seats = self.rng, self.seats
        m = len(wins)
        win_at = {s: j for j, w in enumerate(wins) for s in w.seats}
        n_won = len(win_at)
        # after the last win only while two or more seats play on (a first win ends
        # the hand in rulesets without blood battle)
        last_slot_open = n_won < len(seats) - 1 and (self.rules.blood_battle or not wins)
        first = 1 if wins and ({"heavenly", "earthly"} & set(wins[0].flags)) else 0
        slots: list[list[tuple[str, int, str]]] = [[] for _ in range(m + 1)]
        special: dict[int, tuple[str, int, str]] = {}
        for j, w in enumerate(wins):
            if "kong_bloom" in w.flags or "kong_discard" in w.flags:
                owner = w.seats[0] if "kong_bloom" in w.flags else w.frm
                assert owner is not None
                ks = self.hands[owner].kongs
                free = [k for k in ks if (owner, k[0], k[1]) not in special.values()]
                if not free or j < first:
                    raise _Retry
                t, kind = rng.choice(free)
                special[j] = (owner, t, kind)
        placed = set(special.values())
        for s in seats:
            hi = win_at.get(s, m if last_slot_open else m - 1)
            for t, kind in self.hands[s].kongs:
                if (s, t, kind) in placed:
                    continue
                if hi < first:
                    raise _Retry
                slots[rng.randint(first, hi)].append((s, t, kind))
        events: list[dict[str, Any]] = []
        for j in range(m + 1):
            group = slots[j]
            rng.shuffle(group)
            if j in special:
                group.append(special[j])
            for s, t, kind in group:
                ev: dict[str, Any] = {"type": "kong", "seat": s, "tile": tile_name(t),
                                      "kind": kind}
                if kind == "direct":
                    unwon = [x for x in seats if x != s and win_at.get(x, m + 1) >= j]
                    if not unwon:
                        raise _Retry
                    ev["from"] = rng.choice(unwon)
                events.append(ev)
            if j < m:
                w = wins[j]
                assert w.tile is not None
                ev = {"type": "win", "seats": list(w.seats), "tile": tile_name(w.tile)}
                if w.frm is not None:
                    ev["from"] = w.frm
                if w.flags:
                    ev["flags"] = list(w.flags)
                events.append(ev)
        return events


def random_record(rng: random.Random, ruleset_id: str | Ruleset = DEFAULT_RULESET, *,
                  dealer: str | None = None,
                  players: Mapping[str, str] | Sequence[str] | None = None,
                  check: bool = True, max_attempts: int = 200) -> dict[str, Any]:
    """A valid ``sichuan-hand/1`` record dict built from ``rng`` (deterministic per state).

    With ``check`` the candidate is settled and rebuilt until the engine accepts it; without
    it the record is returned as built (valid by construction, which tests can hold the
    engine to).
    """
    rules = ruleset_id if isinstance(ruleset_id, Ruleset) else get_ruleset(ruleset_id)
    if dealer is not None and dealer not in rules.seats:
        raise ValueError(f"dealer {dealer!r} is not a seat of {rules.id} "
                         f"({', '.join(rules.seats)})")
    for _ in range(max_attempts):
        try:
            rec = _Builder(rng, rules, dealer, players).build()
        except _Retry:
            continue
        if not check:
            return rec
        from .record import HandRecord
        from .settle import settle

        if settle(HandRecord.from_dict(rec, rules), rules).ok:
            return rec
    raise GenerationError(f"no valid {rules.id} record after {max_attempts} attempts")


def random_records(n: int, seed: int, ruleset_id: str | Ruleset = DEFAULT_RULESET, *,
                   check: bool = True) -> list[dict[str, Any]]:
    """``n`` valid records from one seeded generator: the same seed gives the same list."""
    rng = random.Random(seed)
    return [random_record(rng, ruleset_id, check=check) for _ in range(n)]
