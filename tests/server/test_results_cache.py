"""Incremental results equal a full recompute (issue 23): after every step of seeded random
sequences of writes — hands added, amended, voided, restored, verified; penalties given and
voided; players withdrawn and back; rounds seated, seats swapped; the tie-break and the
verified-only switch changed; under placement scoring too (penalties in points, the scoring
switched, stage cuts made and cancelled) — what a long-lived server shows (``Results`` brought forward
save by save, the storage's kept seatings and standings, the pages' kept renderings) is
exactly what a fresh connection computes from scratch. So caching never shows a stale
standing. Writes come from another connection (a desk, the CLI) and, for the storage's own
caches, from the same one."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import make_event

from referee_app.core import get_ruleset, settle
from referee_app.core.generate import random_record
from referee_app.core.record import HandRecord
from referee_app.server.app import create_app
from referee_app.server.results import Results
from referee_app.storage import StorageError, Tournament
from referee_app.storage import db as dbm
from referee_app.storage.models import PlayerStatus
from referee_app.storage.progress import round_progress

RULES = get_ruleset("ottawa-2009")
PAGES = ["/?lang=en", "/?round=1&lang=zh", "/progress?lang=en", "/progress?round=1",
         "/seating?q=Player%201&lang=en", "/player/3?lang=zh", "/player/5?lang=en",
         "/api/standings", "/api/standings?through=1", "/api/rounds/1/progress",
         "/api/tournament", "/teams?lang=zh", "/api/standings/teams", "/projector",
         "/seating?round=1&q=Player%202&lang=zh"]


def _record(rng: random.Random, players: dict[str, str]) -> dict[str, Any]:
    while True:
        rec = random_record(rng, "ottawa-2009", players=players)
        if settle(HandRecord.from_dict(rec), RULES).ok:
            return rec


def _step(t: Tournament, rng: random.Random) -> str:
    """One random write through ``t`` (skipped quietly when the store refuses it: a
    refusal writes nothing, which the comparison checks too)."""
    rounds = [r.number for r in t.rounds.list()]
    hands = t.hands.list()
    kind = rng.choice(["add"] * 6 + ["amend"] * 2 + ["void", "restore", "verify", "unverify",
                                                     "penalty", "unpenalty", "withdraw",
                                                     "return", "seat", "swap", "settings",
                                                     "absent", "team"]
                      + (["points", "cut", "seat", "cancel", "scoring"]
                         if t.info.placement or t.stages.list()[1:] else []))
    try:
        if kind == "add" or not hands and kind in ("amend", "void", "restore", "verify",
                                                   "unverify"):
            rnd = rng.choice(rounds)
            seating = t.rounds.seating(rnd).tables
            table = rng.choice(sorted(seating))
            no = t.hands.next_no(rnd, table) + (1 if rng.random() < 0.2 else 0)  # a gap
            t.hands.add(_record(rng, seating[table]), round=rnd, table=table, hand_no=no)
        elif kind == "amend":
            h = rng.choice(hands)
            t.hands.amend(h.id, {**_record(rng, h.players), "hand_no": h.hand_no},
                          reason="slip misread")
        elif kind == "void":
            t.hands.void(rng.choice(hands).id, reason="wrong table")
        elif kind == "restore":
            t.hands.restore(rng.choice(hands).id, reason="right table after all")
        elif kind in ("verify", "unverify"):
            t.hands.set_status(rng.choice(hands).id,
                               "verified" if kind == "verify" else "entered")
        elif kind == "penalty":
            who = rng.sample([p.name for p in t.players.list()], rng.choice([1, 2]))
            t.penalties.add(who, rng.randint(-5, 20), "late", round=rng.choice([None, *rounds]),
                            zero_sum=False)
        elif kind == "unpenalty":
            pens = [p for p in t.penalties.list() if not p.void]
            if pens:
                t.penalties.void(rng.choice(pens).id, reason="withdrawn")
        elif kind in ("withdraw", "return"):
            p = rng.choice(t.players.list())
            t.players.set_status(p.id, PlayerStatus.WITHDRAWN if kind == "withdraw"
                                 else PlayerStatus.ACTIVE)
        elif kind == "absent":  # check-in (issue 26): the seating marks them until a hand
            p = rng.choice(t.players.list())
            t.players.set_status(p.id, PlayerStatus.ABSENT)
        elif kind == "team":  # a team event: team-mate pairs and team standings
            p = rng.choice(t.players.list())
            t.players.update(p.id, team=rng.choice(["川军", "蓉城", ""]))
        elif kind == "seat":
            t.rounds.seat(max(rounds) + 1, seed=rng.randint(1, 99), fill="byes")
        elif kind == "swap":
            rnd = rng.choice(rounds)
            a = rng.choice(t.rounds.seating(rnd).assignments)
            b = rng.choice(t.rounds.seating(rnd).assignments)
            t.rounds.set_seat(rnd, a.table, a.seat, b.player_id)
        elif kind == "points":
            t.penalties.add([rng.choice(t.players.list()).name], rng.choice([-1, 1, 2]),
                            "conduct", round=rng.choice([None, *rounds]), unit="points")
        elif kind == "cut":
            t.stages.cut(max(rounds), rng.randint(4, 12), rng.choice(["full", "half", "none"]))
        elif kind == "cancel":
            t.stages.cancel(reason="cut after the wrong round")
        elif kind == "scoring":
            t.update_info(scoring="chips" if t.info.placement else "placement")
        elif kind == "settings":
            info = t.info
            if rng.random() < 0.5:
                t.update_info(verified_only=not info.verified_only)
            else:
                t.update_info(tie_break=rng.choice([("chips", "wins"),
                                                    ("wins", "-discards_paid", "chips")]))
    except StorageError:
        return f"{kind} (refused)"
    return kind


def _same_as_fresh(results: Results, kept: Tournament, db: Path, step: str) -> None:
    """What the long-lived results and ``kept`` show equals a fresh connection's."""
    with Tournament.open(db, backup_every=0) as fresh, dbm.read_transaction(kept.db):
        results.advance(kept)
        rounds = [r.number for r in fresh.rounds.list()]
        assert results.rounds(kept) == fresh.rounds.list(), step
        again = Results()  # the same, made afresh: the round numbers, the round in play
        with dbm.read_transaction(fresh.db):
            again.advance(fresh)
            assert results.round_numbers(kept) == again.round_numbers(fresh) == tuple(rounds), \
                step
            assert results.current_round(kept) == again.current_round(fresh), step
            assert results.in_play(kept) == again.in_play(fresh), step
        for n in rounds:
            got = kept.rounds.seating(n)
            assert got.repeat_pairs == fresh.rounds.seats.repeat_pairs_before(n), step
            assert got == fresh.rounds.seating(n), step
            assert results.progress(kept, n) == round_progress(fresh, n), step
        for scope in [(None, None), *((n, None) for n in rounds), *((None, n) for n in rounds)]:
            assert results.standings(kept, *scope) == fresh.standings.table(
                scope[0], through_round=scope[1]), (step, scope)
        for st in fresh.stages.list():
            assert kept.standings.table(stage=st.number) == fresh.standings.table(
                stage=st.number), (step, st)
            assert results.provisional(kept, *scope) == fresh.standings.provisional(
                scope[0], through_round=scope[1]), (step, scope)
            assert results.teams(kept, *scope) == fresh.standings.teams(
                scope[0], through_round=scope[1]), (step, scope)
        assert kept.standings.table(include_substitutes=True) == fresh.standings.table(
            include_substitutes=True), step
        for p in fresh.players.list():
            assert results.player(kept, p.id) == p, step
            assert results.statement(kept, p.id) == fresh.standings.statement(p.id), step
            assert results.penalties(kept, p.id) == fresh.penalties.list(player=p.id), step
        for h in fresh.hands.list():
            assert results.hand(kept, h.id) == h, step


def _pages(app: Any) -> list[tuple[int, bytes]]:
    async def run() -> list[tuple[int, bytes]]:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            return [((r := await c.get(p)).status_code, r.content) for p in PAGES]

    return asyncio.run(run())


# one sequence of each scoring in the quick loop, more with the slow tests
@pytest.mark.parametrize(("seed", "scoring"), [
    (1, "chips"), (8, "placement"), pytest.param(2, "chips", marks=pytest.mark.slow),
    pytest.param(3, "chips", marks=pytest.mark.slow),
    pytest.param(14, "placement", marks=pytest.mark.slow),
    pytest.param(16, "placement", marks=pytest.mark.slow)])
def test_results_brought_forward_equal_a_full_recompute(tmp_path: Path, seed: int,
                                                         scoring: str) -> None:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    if scoring == "placement":
        with Tournament.open(db, backup_every=0) as t:
            t.update_info(scoring="placement")
    rng = random.Random(seed)
    kept = Tournament.open(db, backup_every=0)  # the results worker's connection
    results = Results()
    app = create_app(db, backup_every=0)  # a server running all along
    try:
        with Tournament.open(db, backup_every=0) as desk:  # another connection writes
            for i in range(45):
                step = f"step {i}: {_step(desk, rng)}"
                _same_as_fresh(results, kept, db, step)
                if i % 5 == 4:  # the pages of the server running all along, and of a new one
                    assert _pages(app) == _pages(create_app(db, backup_every=0)), step
    finally:
        kept.close()


def test_the_storage_kept_values_follow_writes_on_their_own_connection(tmp_path: Path) -> None:
    """The seatings and standings a connection keeps hold after its own saves too (and are
    not trusted in the middle of one)."""
    db = make_event(tmp_path / "e.sqlite", referees=False)
    rng = random.Random(7)
    with Tournament.open(db, backup_every=0) as t:
        t.update_info(scoring="placement")
        for i in range(40):
            step = f"step {i}: {_step(t, rng)}"
            t.standings.table()  # kept now, to be brought forward by the next step
            with Tournament.open(db, backup_every=0) as fresh:
                assert t.standings.table() == fresh.standings.table(), step
                assert t.rounds.list() == fresh.rounds.list(), step
                for r in fresh.rounds.list():
                    assert t.rounds.seating(r.number) == fresh.rounds.seating(r.number), step
