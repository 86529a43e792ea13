"""Whole-event seating plan (pure): every remaining round at once, played rounds kept.

Four goals, in this order (issues 13 and 26):

0. **Team-mates apart** (a team event, ``teams``): no two players of one team at one
   table whenever the numbers allow, as few such pairs as possible otherwise. When the
   teams fit whole into tables, the team partition is laid onto one class of a known
   design, so its other classes never put team-mates together (16 players in 4 teams of 4:
   4 rounds without a team-mate or a repeat); otherwise the search weighs a pair of
   team-mates far above any repeat. A team-mate pair is never counted as a repeat meeting.
1. **Repeat meetings** (a pair sharing a table once more than the first time) as few as
   possible. Known resolvable designs (:mod:`referee_app.core.designs`) give 0 where the
   player count allows; otherwise, and for rounds beyond a design, a seeded simulated
   annealing over swaps of two players of one round, which stops when the counting bound
   is reached (each player meets ``(size-1)·R`` others among ``n-1``, so at least
   ``max(0, (size-1)·R - (n-1))`` of those meetings repeat; halved because a pair is two
   players).
2. **Seat winds** balanced per player: rounds are taken in blocks of ``size`` rounds; in a
   block the players and the tables form a bipartite graph of maximum degree ``size``,
   which König's theorem colours with ``size`` winds so that every table has all winds and
   no player has one wind twice. So the spread is 0 whenever R is a multiple of the table
   size and at most 1 otherwise (byes can add one).
3. **Same seat at the same table twice** avoided by numbering each round's tables (an
   assignment of groups to table numbers, improved by swaps).

Same inputs and seed give the same plan on every machine.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from .designs import relabel, resolvable
from .errors import FieldError
from .plan_search import counting_bound, search
from .teams import least_team_pairs, team_numbers, team_pairs, team_round
from .winds import balance_block_winds, order_for_open_block, polish_winds

Table = tuple[int, ...]  # player ids in seat order (index i sits in seats[i])


@dataclass(frozen=True)
class PlannedRound:
    number: int
    tables: tuple[Table, ...]  # tables[t - 1] is table number t
    byes: tuple[int, ...] = ()


@dataclass(frozen=True)
class PlanFigures:
    """How good a whole schedule (played plus planned rounds) is."""

    repeats: int  # sum over pairs of max(0, meetings - 1)
    bound: int  # the counting lower bound for repeats
    wind_spread: int  # worst player's most-minus-fewest times in one seat
    same_seat_same_table: int  # times a player sits in a seat of a table they had before
    max_meetings: int  # most times one pair shares a table
    #: pairs of team-mates at one table, summed over tables and rounds (None: no teams)
    team_mates: int | None = None
    #: the least ``team_mates`` possible for these rounds' numbers (None: no teams)
    team_bound: int | None = None

    def lines(self) -> list[str]:
        teams = ([] if self.team_mates is None else
                 [f"team-mates at one table: {self.team_mates} (least possible "
                  f"{self.team_bound})"])
        return [*teams, f"repeat meetings: {self.repeats} (counting bound {self.bound})",
                f"seat wind spread: {self.wind_spread}",
                f"same seat at the same table again: {self.same_seat_same_table}",
                f"most meetings of one pair: {self.max_meetings}"]

    def key(self) -> tuple[int, int, int, int]:
        """What makes one schedule better than another, most important first."""
        return (self.team_mates or 0, self.repeats, self.wind_spread,
                self.same_seat_same_table)


@dataclass(frozen=True)
class Plan:
    seats: tuple[str, ...]
    played: tuple[PlannedRound, ...]
    rounds: tuple[PlannedRound, ...]  # the planned rounds only
    figures: PlanFigures
    method: str  # which design or search gave the groups
    seed: int


class PlanError(FieldError):
    """Bad planning input; ``field`` names what to fix."""

    code = "plan"


# ----------------------------------------------------------------------------- figures

def figures(rounds: Sequence[Sequence[Sequence[int]]], seats: Sequence[str],
            players: Sequence[int] | None = None, teams: Mapping[int, str] | None = None,
            team_bound: int | None = None) -> PlanFigures:
    """Figures of a schedule given as rounds → tables (table number = index + 1) → seat;
    with ``teams`` (player → team) the team-mate pairs too, ``team_bound`` their least."""
    size = len(seats)
    met: Counter[tuple[int, int]] = Counter()
    wind: dict[int, Counter[int]] = defaultdict(Counter)
    spot: Counter[tuple[int, int, int]] = Counter()
    plays: Counter[int] = Counter()
    for rnd in rounds:
        for t, table in enumerate(rnd):
            for i, p in enumerate(table):
                wind[p][i] += 1
                spot[(p, t, i)] += 1
                plays[p] += 1
            for a, b in itertools.combinations(sorted(table), 2):
                met[(a, b)] += 1
    everyone = set(players) if players is not None else set(plays)
    everyone |= set(plays)
    spread = max((max(wind[p][i] for i in range(size)) - min(wind[p][i] for i in range(size))
                  for p in everyone), default=0)
    mates = None
    together = None
    if teams:
        together = team_pairs((t for rnd in rounds for t in rnd), teams)
        if team_bound == 0:  # team-mates can be kept apart: each meets only the others
            size_of = Counter(teams[p] for p in everyone if teams.get(p))
            mates = {p: size_of[teams[p]] - 1 for p in everyone if teams.get(p)}
    return PlanFigures(
        repeats=sum(m - 1 for m in met.values() if m > 1),
        bound=counting_bound({p: plays[p] for p in everyone}, len(everyone), size, mates),
        wind_spread=spread,
        same_seat_same_table=sum(c - 1 for c in spot.values() if c > 1),
        max_meetings=max(met.values(), default=0),
        team_mates=together, team_bound=team_bound if teams else None)


def schedule_figures(played: Sequence[Sequence[Sequence[int]]],
                     planned: Sequence[Sequence[Sequence[int]]], seats: Sequence[str],
                     players: Sequence[int], teams: Mapping[int, str] | None = None
                     ) -> PlanFigures:
    """The figures of ``played`` rounds followed by ``planned`` ones; with ``teams``, the
    least team-mate pairs possible is what the played rounds seated plus each planned
    round's least (:func:`~.teams.least_team_pairs`)."""
    least = None
    if teams:
        least = team_pairs((t for rnd in played for t in rnd), teams) + sum(
            least_team_pairs([p for t in rnd for p in t], len(rnd), teams) for rnd in planned)
    return figures([list(r) for r in played] + [list(r) for r in planned], seats, players,
                   teams, least)


# ----------------------------------------------------------------------------- byes

def _choose_byes(players: Sequence[int], rounds: int, per_round: int,
                 earlier: Counter[int], rng: random.Random) -> list[list[int]]:
    """Who sits out each planned round: fewest byes so far first, seeded tie-break."""
    counts = Counter({p: earlier.get(p, 0) for p in players})
    tie = {p: rng.random() for p in players}
    out = []
    for _ in range(rounds):
        order = sorted(players, key=lambda p: (counts[p], tie[p]))
        sit = order[:per_round]
        for p in sit:
            counts[p] += 1
            tie[p] += 1.0  # rotate: nobody sits out twice before everyone once
        out.append(sorted(sit))
    return out


# ----------------------------------------------------------------------------- groups

def _wind_targets(ids: list[int], size: int, played: Sequence[Sequence[Sequence[int]]],
                  partial: int) -> list[dict[int, int]] | None:
    """For the rounds that finish a wind block left open by ``partial`` played rounds:
    the wind each player must get in each of them (every player each missing wind once,
    every wind ``n/size`` times a round), or None when the played rounds do not allow it.

    Each wind's players are cut into slots of ``r`` (the rounds left in the block); slots
    and players form an ``r``-regular bipartite graph, coloured by round (König)."""
    from .winds import colour_bipartite

    r = size - partial
    recent: dict[int, list[int]] = {p: [] for p in ids}
    for rnd in played[len(played) - partial:]:
        for table in rnd:
            for i, p in enumerate(table):
                if p in recent:
                    recent[p].append(i)
    missing = {p: [w for w in range(size) if w not in had] for p, had in recent.items()}
    if any(len(m) != r or len(recent[p]) != partial for p, m in missing.items()):
        return None
    slots: list[tuple[int, list[int]]] = []
    for w in range(size):
        holders = [p for p in ids if w in missing[p]]
        if len(holders) % r:
            return None
        for k in range(0, len(holders), r):
            slots.append((w * 100_000 + k, holders[k:k + r]))
    colour = colour_bipartite(slots, r)
    targets: list[dict[int, int]] = [{} for _ in range(r)]
    for (key, p), c in colour.items():
        targets[c][p] = key // 100_000
    if any(len(t) != len(ids) for t in targets):
        return None
    return targets


def _wind_first(ids: list[int], size: int, played: Sequence[Sequence[Sequence[int]]],
                rounds: int, seed: int, budget: int | None,
                teams: Mapping[int, str] | None = None
                ) -> tuple[list[list[list[int]]], int] | None:
    """Rounds that finish the open wind block seated wind-first (each table takes one
    player per target wind; the search only swaps players of the same seat), then the
    other rounds as groups. Returns (rounds, how many are already seated) or None."""
    partial = len(played) % size
    if not partial or len(ids) % size:
        return None
    targets = _wind_targets(ids, size, played, partial)
    if targets is None:
        return None
    rng = random.Random(seed)
    index = {p: i for i, p in enumerate(ids)}
    n = len(ids)
    seated_rounds = min(rounds, len(targets))
    planned: list[list[list[int]]] = []
    for k in range(seated_rounds):
        by_wind = [[index[p] for p in ids if targets[k][p] == w] for w in range(size)]
        for col in by_wind:
            rng.shuffle(col)
        planned.append([list(t) for t in zip(*by_wind, strict=True)])
    for _ in range(seated_rounds, rounds):
        pool = list(range(n))
        rng.shuffle(pool)
        planned.append([pool[i:i + size] for i in range(0, n, size)])
    fixed = [[[index[p] for p in t if p in index] for t in rnd] for rnd in played]
    search(n, size, fixed, planned, rng, budget, team_numbers(ids, teams),
            same_seat=frozenset(range(seated_rounds)))
    return [[[ids[i] for i in t] for t in r] for r in planned], seated_rounds


def _open_block_test(played: Sequence[Sequence[Sequence[int]]], size: int
                     ) -> Callable[[dict[int, int], list[list[list[int]]]], int] | None:
    """When two played rounds leave the wind block open by two rounds: a score for a
    design relabelling, 0 when two of its classes can finish the block exactly."""
    partial = len(played) % size
    if size - partial != 2 or partial < 2:
        return None
    recent: dict[int, list[int]] = defaultdict(list)
    for rnd in played[len(played) - partial:]:
        for table in rnd:
            for i, p in enumerate(table):
                recent[p].append(i)

    def test(mapping: dict[int, int], classes: list[list[list[int]]]) -> int:
        rounds = [[[mapping[pt] for pt in line] for line in c] for c in classes]
        return 0 if order_for_open_block(rounds, size, recent) is not rounds else 1

    return test


def _groups(players: list[int], size: int, played: Sequence[Sequence[Sequence[int]]],
            byes: list[list[int]], seed: int, budget: int | None,
            teams: Mapping[int, str] | None = None) -> tuple[str, list[list[list[int]]]]:
    """Which players share a table in each planned round (seat order not yet decided).

    A design's rounds are used as they are when nothing was played (or when the last played
    round can be read as the design's first class); other rounds come from the search, which
    also repairs a design against older played rounds. With ``teams``, when nothing was
    played and the teams fit whole into tables, the design's first class is laid onto the
    teams (and not played), so no other class seats team-mates together; a design that
    still seats some is repaired by the search, which keeps team-mates apart first.
    """
    team = team_numbers(players, teams)
    rng = random.Random(seed)
    nrounds = len(byes)
    index = {p: i for i, p in enumerate(players)}
    n = len(players)
    method = "search"
    start = 0
    design: list[list[list[int]]] = []
    anchor = played  # the rounds the design's first classes are laid onto
    if nrounds and not any(byes):
        pool = list(players)
        rng.shuffle(pool)
        name, classes = resolvable(n, size, nrounds + 2, rng)
        # the wind test rarely finds a map for larger designs, where the wind-first
        # search below reaches 0 repeats and spread 0 anyway
        prefer = _open_block_test(played, size) if n <= 32 else None
        if team is not None and not played and teams:
            grouped = team_round(players, size, teams)
            anchor = [grouped] if grouped is not None else played
        mapping, start, classes = relabel(anchor, classes, pool, rng, prefer) if classes \
            else ({}, 0, classes)
        if classes and (not played or start):
            rest_classes = classes[start:]
            if played:  # first the classes whose tables mix the last round's winds
                seat_of = {p: i for t in played[-1] for i, p in enumerate(t)}

                def clashes(cls: list[list[int]]) -> int:
                    return sum(len(line) - len({seat_of.get(mapping[pt]) for pt in line})
                               for line in cls)

                rest_classes = sorted(rest_classes, key=clashes)
            design = [[[index[mapping[pt]] for pt in line] for line in cls]
                      for cls in rest_classes[:nrounds]]
            method = name
    fixed = [[[index[p] for p in t if p in index] for t in rnd] for rnd in played]
    rest: list[list[list[int]]] = []
    for k in range(len(design), nrounds):
        seated = [index[p] for p in players if p not in set(byes[k])]
        rng.shuffle(seated)
        rest.append([seated[i:i + size] for i in range(0, len(seated), size)])
    mates_together = team is not None and any(
        team[a] == team[b] for rnd in design for t in rnd for a, b in itertools.combinations(t, 2))
    if (len(played) > start and design) or mates_together:
        frozen, free = fixed, design + rest  # repair the design against older rounds/teams
    else:
        frozen, free = fixed + design, rest
    if free:
        search(n, size, frozen, free, rng, budget, team)
        if design:
            method += " + search"
    if design and team is not None and len(anchor) > len(played):
        method += ", teams as one class"
    return method, [[[players[i] for i in t] for t in r] for r in design + rest]


# ----------------------------------------------------------------------------- tables

def _number_tables(rounds: list[list[list[int]]], played: Sequence[Sequence[Sequence[int]]],
                   rng: random.Random) -> list[list[list[int]]]:
    """Permute each round's table numbers so nobody gets a seat of a table twice: round by
    round, then each round again against all the others while that removes a repeat."""
    used: Counter[tuple[int, int, int]] = Counter()
    for rnd in played:
        for t, table in enumerate(rnd):
            used.update((p, t, i) for i, p in enumerate(table))
    perms: list[list[int]] = []

    def best_perm(rnd: list[list[int]], start: list[int]) -> list[int]:
        nt = len(rnd)
        cost = [[sum(used[(p, t, i)] > 0 for i, p in enumerate(g)) for t in range(nt)]
                for g in rnd]
        perm = list(start)  # group g -> table number perm[g]
        if nt <= 6:  # few tables: the best numbering outright
            perm = list(min(itertools.permutations(range(nt)),
                            key=lambda q: (sum(cost[g][q[g]] for g in range(nt)),
                                           q != tuple(start))))
        improved = True
        while improved:
            improved = False
            for g, h in itertools.combinations(range(nt), 2):
                x, y = perm[g], perm[h]
                if cost[g][y] + cost[h][x] < cost[g][x] + cost[h][y]:
                    perm[g], perm[h] = y, x
                    improved = True
        return perm

    def add(rnd: list[list[int]], perm: list[int], d: int) -> None:
        for g, t in enumerate(perm):
            for i, p in enumerate(rnd[g]):
                used[(p, t, i)] += d

    for rnd in rounds:
        start = list(range(len(rnd)))
        rng.shuffle(start)
        perm = best_perm(rnd, start)
        add(rnd, perm, 1)
        perms.append(perm)
    for _ in range(3):  # later rounds may now make an earlier numbering worse than needed
        changed = False
        for k, rnd in enumerate(rounds):
            add(rnd, perms[k], -1)
            perm = best_perm(rnd, perms[k])
            changed |= perm != perms[k]
            add(rnd, perm, 1)
            perms[k] = perm
        if not changed:
            break
    out = []
    for rnd, perm in zip(rounds, perms, strict=True):
        numbered: list[list[int]] = [[] for _ in range(len(rnd))]
        for g, t in enumerate(perm):
            numbered[t] = rnd[g]
        out.append(numbered)
    return out


# ----------------------------------------------------------------------------- plan

def plan(players: Sequence[int], seats: Sequence[str], rounds: int, *,
         played: Sequence[Sequence[Sequence[int]]] = (), seed: int = 1,
         budget: int | None = None,
         initial: Sequence[Sequence[Sequence[int]]] | None = None,
         teams: Mapping[int, str] | None = None) -> Plan:
    """Plan ``rounds`` more rounds for ``players`` after the ``played`` ones.

    ``played`` holds each played round as tables of player ids in seat order; their
    players who are no longer in ``players`` (withdrawn) are ignored when planning. When
    ``len(players)`` is not a multiple of the table size the remainder sit out each round
    (byes, spread evenly); to use substitutes instead, include them in ``players``.
    ``budget`` caps the search's moves (default grows with the size of the problem).
    ``initial``: the rounds planned before (seat order kept); when, repaired for players
    who withdrew or arrived, they are at least as good as a new plan they are kept —
    re-planning changes as little as possible.
    ``teams``: player id → team name (a team event): team-mates are kept apart first of
    all, and the figures say how many pairs of them still share a table and the least
    possible (16 players in 4 teams of 4: 0 for any number of rounds; a team of 5 among 16
    players at 4 tables: at least one pair a round).
    """
    size = len(seats)
    teams = {p: t for p, t in (teams or {}).items() if t} or None
    if size < 2:
        raise PlanError.of("seats", "plan_table_too_small")
    ids = list(dict.fromkeys(players))
    if len(ids) != len(players):
        raise PlanError.of("players", "plan_player_twice")
    if len(ids) < size:
        raise PlanError.of("players", "plan_too_few", n=len(ids), size=size)
    if rounds < 0:
        raise PlanError.of("rounds", "plan_rounds_negative")
    for k, rnd in enumerate(played, start=1):
        flat = [p for t in rnd for p in t]
        if len(flat) != len(set(flat)):
            raise PlanError.of(f"played[{k - 1}]", "plan_sits_twice", round=k)
        if any(len(t) != size for t in rnd):
            raise PlanError.of(f"played[{k - 1}]", "plan_table_size", round=k, size=size)
    rng = random.Random(seed)
    earlier_byes: Counter[int] = Counter()
    for rnd in played:
        present = {p for t in rnd for p in t}
        earlier_byes.update(p for p in ids if p not in present)
    byes = _choose_byes(ids, rounds, len(ids) % size, earlier_byes, rng)
    method, groups = _groups(ids, size, played, byes, rng.randrange(2**31), budget, teams)
    counts: dict[int, Counter[int]] = defaultdict(Counter)
    for rnd in played:
        for table in rnd:
            for i, p in enumerate(table):
                counts[p][i] += 1
    # the blocks give spread 0 / 1 from scratch; after played rounds or with byes a few
    # seeded attempts (tables coloured in other orders) are compared and the best kept
    total = len(played) + rounds
    target = 0 if total % size == 0 and not any(byes) and not earlier_byes else 1
    best: tuple[tuple[int, int], list[list[list[int]]]] | None = None
    partial = len(played) % size
    recent: dict[int, list[int]] = defaultdict(list)
    for rnd in played[len(played) - partial:] if partial else []:
        for table in rnd:
            for i, p in enumerate(table):
                recent[p].append(i)
    if partial and not any(byes):
        groups = order_for_open_block(groups, size, recent)
    for attempt in range(12):
        trial = {p: Counter(c) for p, c in counts.items()}
        trial = defaultdict(Counter, trial)
        got = balance_block_winds(groups, size, len(played), trial,
                     random.Random(seed * 31 + attempt) if attempt else None,
                     recent if partial and attempt == 0 else None)
        polish_winds(got, size, trial)
        score = (max((max(trial[p][i] for i in range(size))
                      - min(trial[p][i] for i in range(size)) for p in ids), default=0),
                 sum(v * v for p in ids for v in trial[p].values()))
        if best is None or score < best[0]:
            best = (score, got)
        if score[0] <= target:
            break
    assert best is not None
    ordered = best[1]
    numbered = _number_tables(ordered, played, rng)
    planned = tuple(PlannedRound(len(played) + k + 1, tuple(tuple(t) for t in rnd),
                                 tuple(byes[k]))
                    for k, rnd in enumerate(numbered))
    done = tuple(PlannedRound(k + 1, tuple(tuple(t) for t in rnd),
                              tuple(sorted(set(ids) - {p for t in rnd for p in t})))
                 for k, rnd in enumerate(played))

    def figures_of(rnds: Sequence[PlannedRound]) -> PlanFigures:
        return schedule_figures(played, [r.tables for r in rnds], seats, ids, teams)

    fresh = Plan(seats=tuple(seats), played=done, rounds=planned,
                 figures=figures_of(planned), method=method, seed=seed)
    if fresh.figures.wind_spread > target and not any(byes):
        # played rounds left a wind block open that these groups cannot finish: try
        # seating that block wind-first and keep it when it is at least as good
        alt = _wind_first(ids, size, played, rounds, seed, budget, teams)
        if alt is not None:
            got, seated = alt
            trial = defaultdict(Counter, {p: Counter(c) for p, c in counts.items()})
            for rnd in got[:seated]:
                for table in rnd:
                    for i, p in enumerate(table):
                        trial[p][i] += 1
            rest = balance_block_winds(got[seated:], size, len(played) + seated, trial)
            polish_winds(rest, size, trial)
            tables = _number_tables(got[:seated] + rest, played, random.Random(seed))
            alt_rounds = tuple(PlannedRound(len(played) + k + 1, tuple(tuple(t) for t in rnd),
                                            ()) for k, rnd in enumerate(tables))
            f = figures_of(alt_rounds)
            if f.key() < fresh.figures.key():
                fresh = Plan(seats=tuple(seats), played=done, rounds=alt_rounds, figures=f,
                             method="winds first + search", seed=seed)
    if initial is not None and len(initial) >= rounds > 0:
        kept = _keep_initial(initial[:rounds], ids, size, played, earlier_byes, teams)
        if kept is not None:
            rounds_kept, moved = kept
            f = figures_of(rounds_kept)
            if f.key() <= fresh.figures.key():
                how = "kept from the stored plan" + (f" ({moved} seat(s) refilled)"
                                                       if moved else "")
                return Plan(seats=tuple(seats), played=done, rounds=rounds_kept,
                            figures=f, method=how, seed=seed)
    return fresh


def _keep_initial(initial: Sequence[Sequence[Sequence[int]]], ids: list[int], size: int,
                  played: Sequence[Sequence[Sequence[int]]], earlier_byes: Counter[int],
                  teams: Mapping[int, str] | None = None
                  ) -> tuple[tuple[PlannedRound, ...], int] | None:
    """The stored rounds, with withdrawn players' seats refilled (:func:`repair`), or None
    when they no longer fit (a table short, byes not what the player count needs)."""
    out = []
    moved = 0
    byes = Counter(earlier_byes)
    for k, rnd in enumerate(initial):
        if any(len(t) != size for t in rnd):
            return None
        seated = {p for t in rnd for p in t}
        spare = sorted((p for p in ids if p not in seated), key=lambda p: (byes[p], p))
        try:
            r = repair(rnd, ids, spare, dissolve=True, teams=teams)
        except PlanError:
            return None
        if len(r.byes) != len(ids) % size:
            return None
        byes.update(r.byes)
        moved += len(r.moved)
        out.append(PlannedRound(len(played) + k + 1, r.tables, tuple(sorted(r.byes))))
    return tuple(out), moved


# ----------------------------------------------------------------------------- repair

@dataclass(frozen=True)
class Repair:
    """A planned round re-seated after withdrawals: what changed, and what stayed."""

    tables: tuple[Table, ...]
    byes: tuple[int, ...]  # seatable players left without a seat
    moved: tuple[int, ...]  # players who took a seat they did not have in the plan
    dissolved: tuple[int, ...]  # plan table numbers (1-based) that no longer play
    changed: tuple[int, ...] = ()  # every player whose table and seat (or bye) changed


def repair(tables: Sequence[Sequence[int]], seatable: Sequence[int], fillers: Sequence[int],
           *, met: Mapping[tuple[int, int], int] | None = None,
           dissolve: bool = False, teams: Mapping[int, str] | None = None) -> Repair:
    """Re-seat a planned round changing as few seats as possible.

    Seats of players not in ``seatable`` (withdrawn or absent) are vacant; ``fillers`` (in
    order of preference: newcomers, players on a bye, substitutes) take them, each vacancy
    getting the filler with fewest team-mates at that table (``teams``: player → team),
    then who met its tablemates least. Everyone else keeps table and seat. When the
    fillers run out and ``dissolve`` is true, the tables with most vacancies are dissolved
    (their players fill other vacancies first, the rest sit out); otherwise
    :class:`PlanError` says how many players are missing.
    """
    met = met or {}
    teams = teams or {}
    playing = set(seatable)
    ok = playing | set(fillers)
    grid = [list(t) for t in tables]
    pool = [p for p in dict.fromkeys(fillers) if p not in {x for t in grid for x in t}]
    dissolved: list[int] = []
    byes: list[int] = []
    moved: list[int] = []

    def vacancies() -> list[tuple[int, int]]:
        return [(t, i) for t, row in enumerate(grid) if t not in dissolved
                for i, p in enumerate(row) if p not in ok]

    while True:
        empty = vacancies()
        if len(empty) <= len(pool):
            break
        if not dissolve:
            raise PlanError.of("players", "plan_need_players", more=len(empty) - len(pool),
                               empty=len(empty))
        live = [t for t in range(len(grid)) if t not in dissolved]
        if len(live) <= 1:
            raise PlanError.of("players", "plan_too_few_left")
        worst = max(live, key=lambda t: (sum(p not in ok for p in grid[t]), t))
        dissolved.append(worst)
        pool = [p for p in grid[worst] if p in ok] + pool
    for t, i in vacancies():
        mates = [p for p in grid[t] if p in ok]
        best = min(range(len(pool)), key=lambda k: (
            sum(1 for q in mates if teams.get(pool[k]) and teams.get(pool[k]) == teams.get(q)),
            sum(met.get((min(pool[k], q), max(pool[k], q)), 0) for q in mates), k))
        grid[t][i] = pool.pop(best)
        moved.append(grid[t][i])
    byes = [p for p in pool if p in playing]  # unused substitutes simply stay out
    kept = tuple(tuple(row) for t, row in enumerate(grid) if t not in dissolved)
    old = {p: (t, i) for t, row in enumerate(tables) for i, p in enumerate(row) if p in ok}
    new = {p: (t, i) for t, row in enumerate(grid) if t not in dissolved
           for i, p in enumerate(row)}
    changed = sorted(p for p in set(old) | set(new) if old.get(p) != new.get(p))
    return Repair(kept, tuple(byes), tuple(moved), tuple(t + 1 for t in sorted(dissolved)),
                  tuple(changed))
