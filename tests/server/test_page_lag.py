"""Results pages may be behind the record by ``PAGE_LAG`` seconds at most, and only while the
results worker is busy (issue 23): a kept page that lacks only recent saves is sent at once
and a newer one is made in the background, once for everyone who asked (single flight);
a page that lacks an older save is made (or waited for) first; the API's shared reads, which
the desks read, are never behind. The change watch is driven by hand on a clock the test
holds, so "recent" and "older" are exact."""

from __future__ import annotations

import asyncio
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import make_event

from referee_app.server import state as state_mod
from referee_app.server import watch as watch_mod
from referee_app.server.app import create_app
from referee_app.server.results import Results
from referee_app.storage import Tournament
from referee_app.storage.standings import Standings

REVISION = re.compile(r'data-revision="(-?\d+)"')


def _revision(page: httpx.Response) -> int:
    m = REVISION.search(page.text)
    assert m is not None, page.text[:200]
    return int(m.group(1))


def _head(db: Path) -> int:
    with Tournament.open(db, backup_every=0) as t:
        return t.record.digest()[0]


def _penalty(db: Path, chips: int) -> int:
    """A penalty on player 1 written by another process's hand (the CLI); the new revision."""
    with Tournament.open(db, backup_every=0) as t:
        t.penalties.add([t.players.get(1).name], chips, "late")
        return t.record.digest()[0]


class _Busy:
    """Holds the results worker inside the seating page (which no other page here reads)
    until let go: the worker is busy making another answer."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.entered, self.go = threading.Event(), threading.Event()
        self.held = True
        self.standings = threading.Event()
        real = Results.latin

        def latin(results: Results, t: Tournament) -> dict[str, str]:
            if self.held:
                self.entered.set()
                assert self.go.wait(30), "never let go"
            return real(results, t)

        monkeypatch.setattr(Results, "latin", latin)

    async def hold(self, c: httpx.AsyncClient) -> asyncio.Task[httpx.Response]:
        self.entered.clear()
        self.go.clear()
        self.held = True
        task = asyncio.create_task(c.get("/seating?lang=en"))
        assert await asyncio.to_thread(self.entered.wait, 10)
        return task

    def release(self) -> None:
        self.held = False
        self.go.set()


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    db = make_event(tmp_path / "e.sqlite", referees=False)
    app = create_app(db, backup_every=0)
    state = app.state.server
    clock = [1000.0]
    state.watch.clock = lambda: clock[0]
    tables: list[int] = []
    real = Standings.table
    monkeypatch.setattr(state_mod, "FRESH_WAIT", 30.0)  # a slow test machine: see below
    standings_open = threading.Event()
    standings_open.set()

    def counted(self: Standings, *a: Any, **kw: Any) -> Any:
        tables.append(1)  # the standings page reads it once per making
        assert standings_open.wait(30)
        return real(self, *a, **kw)

    monkeypatch.setattr(Standings, "table", counted)
    busy = _Busy(monkeypatch)
    busy.standings = standings_open  # clear it: the standings page's making waits
    return db, app, state, clock, tables, busy


def _run(app: Any, body: Callable[[httpx.AsyncClient], Any]) -> Any:
    async def go() -> Any:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as c:
            return await body(c)

    return asyncio.run(go())


def test_a_page_is_served_behind_within_the_bound_and_made_again_once(served: Any) -> None:
    db, app, state, clock, tables, busy = served

    async def body(c: httpx.AsyncClient) -> tuple[int, int, list[int], int, int, int]:
        r0 = _head(db)
        state.watch.update(r0)
        first = await c.get("/?lang=en")
        made = len(tables)
        r1 = _penalty(db, 5)
        state.watch.update(r1)  # announced at 1000.0
        clock[0] += watch_mod.PAGE_LAG - 0.1  # the save is not yet PAGE_LAG old
        held = await busy.hold(c)
        # twenty phones while the worker is held: each is answered at once, behind
        pages = await asyncio.wait_for(asyncio.gather(*(c.get("/?lang=en")
                                                        for _ in range(20))), 5)
        behind = [_revision(p) for p in pages]
        during = len(tables)
        busy.release()
        await held
        for _ in range(100):  # the refresh: one making for all twenty
            await asyncio.sleep(state_mod.REFRESH_EVERY)
            if len(tables) > during:
                break
        await asyncio.sleep(3 * state_mod.REFRESH_EVERY)
        after = await c.get("/?lang=en")
        return _revision(first), r1, behind, during - made, len(tables) - during, \
            _revision(after)

    shown, r1, behind, made_while_held, refreshes, after = _run(app, body)
    assert behind == [shown] * 20 and shown < r1  # served at once, one save behind
    assert made_while_held == 0
    assert refreshes == 1  # single flight: twenty askers, one making in the background
    assert after == r1  # the refreshed page, sent without another making


def test_a_page_is_never_served_beyond_the_bound(served: Any) -> None:
    db, app, state, clock, tables, busy = served

    async def body(c: httpx.AsyncClient) -> tuple[int, bool, list[int], int]:
        state.watch.update(_head(db))
        await c.get("/?lang=en")
        r1 = _penalty(db, 5)
        state.watch.update(r1)
        clock[0] += watch_mod.PAGE_LAG + 0.01  # the save is now older than the bound
        held = await busy.hold(c)
        made = len(tables)
        phones = [asyncio.create_task(c.get("/?lang=en")) for _ in range(10)]
        await asyncio.sleep(0.3)
        waited = not any(p.done() for p in phones)  # they wait for the worker
        busy.release()
        await held
        pages = await asyncio.gather(*phones)
        return r1, waited, [_revision(p) for p in pages], len(tables) - made

    r1, waited, shown, made = _run(app, body)
    assert waited
    assert shown == [r1] * 10 and made == 1  # made once for the ten, at the save


def test_an_idle_worker_makes_the_page_current_at_once(served: Any) -> None:
    """Behind only while the worker is busy: a quiet event's pages are always current."""
    db, app, state, clock, tables, busy = served

    async def body(c: httpx.AsyncClient) -> tuple[int, int]:
        state.watch.update(_head(db))
        await c.get("/?lang=en")
        r1 = _penalty(db, 5)
        state.watch.update(r1)
        clock[0] += 0.1
        return r1, _revision(await c.get("/?lang=en"))

    r1, shown = _run(app, body)
    assert shown == r1


def test_a_slow_making_does_not_hold_a_page_within_the_bound(
        served: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The idle worker makes the page current, but a phone is not kept waiting for it past
    FRESH_WAIT when the page it has is within the bound; the page made meanwhile is kept."""
    db, app, state, clock, tables, busy = served
    monkeypatch.setattr(state_mod, "FRESH_WAIT", 0.2)

    async def body(c: httpx.AsyncClient) -> tuple[int, int, float, int, int]:
        state.watch.update(_head(db))
        shown = _revision(await c.get("/?lang=en"))
        r1 = _penalty(db, 5)
        state.watch.update(r1)
        clock[0] += 0.1
        busy.standings.clear()  # the making of "/" takes long
        t0 = asyncio.get_running_loop().time()
        sent = _revision(await c.get("/?lang=en"))
        took = asyncio.get_running_loop().time() - t0
        busy.standings.set()
        for _ in range(100):
            await asyncio.sleep(0.05)
            if not state._making:
                break
        return shown, r1, took, sent, _revision(await c.get("/?lang=en"))

    shown, r1, took, sent, after = _run(app, body)
    assert sent == shown < r1 and took < 5  # not held for the making (30 s at most)
    assert after == r1  # the making went on and was kept


def test_the_page_says_how_far_behind_it_may_be(served: Any) -> None:
    db, app, state, clock, tables, busy = served

    async def body(c: httpx.AsyncClient) -> tuple[str, str]:
        state.watch.update(_head(db))
        return (await c.get("/?lang=en")).text, (await c.get("/progress?lang=zh")).text

    en, zh = _run(app, body)
    lag = f"{watch_mod.MOST_BEHIND:g}"
    assert f"at most {lag} s behind the record" in en
    assert f"最多比记录晚 {lag} 秒" in zh


def test_a_desks_api_read_is_never_behind(served: Any) -> None:
    """``/api/standings`` (what a desk reads after its own save) waits for the busy worker
    rather than answer what it read before the save."""
    db, app, state, clock, tables, busy = served

    async def body(c: httpx.AsyncClient) -> tuple[int, bool, int]:
        state.watch.update(_head(db))
        before = (await c.get("/api/standings")).json()
        state.watch.update(_penalty(db, 7))
        clock[0] += 0.1
        held = await busy.hold(c)
        read = asyncio.create_task(c.get("/api/standings"))
        await asyncio.sleep(0.3)
        waited = not read.done()
        busy.release()
        await held
        after = (await read).json()

        def chips(rows: Any) -> int:
            rows = rows["rows"] if isinstance(rows, dict) else rows
            return next(r["chips"] for r in rows if r["player_id"] == 1)

        return chips(before), waited, chips(after)

    before, waited, after = _run(app, body)
    assert waited and after == before - 7


def _no_file() -> Tournament:
    raise AssertionError("the watch is told revisions here, it reads none")


def test_the_watch_knows_the_revision_of_each_moment_of_the_bound() -> None:
    watch = watch_mod.ChangeWatch(_no_file, lambda: None)
    clock = [50.0]
    watch.clock = lambda: clock[0]

    async def run() -> list[int]:
        for rev in (3, 4, 7):
            watch.update(rev)
            clock[0] += 0.5
        # 50.0: 3, 50.5: 4, 51.0: 7; now 51.5
        return [watch.revision_at(t) for t in (49.0, 50.0, 50.4, 50.5, 50.99, 51.0, 51.5)]

    assert asyncio.run(run()) == [3, 3, 3, 4, 4, 7, 7]
    watch2 = watch_mod.ChangeWatch(_no_file, lambda: None)
    watch2.clock = lambda: clock[0]

    async def restored() -> int:
        watch2.update(9)
        clock[0] += 0.1
        watch2.update(5)  # another file, a lower revision: nothing before it counts
        return watch2.revision_at(clock[0] - 1)

    assert asyncio.run(restored()) == 5


def test_while_pages_are_paced_they_may_be_behind_by_the_pace_too() -> None:
    """A phone told to refresh every 3 s comes back with a page 3 s old: the bound grows by
    what the pages were told beyond a second, for as long as they may still be waiting, and
    never past MOST_BEHIND."""
    pace = watch_mod.Pace()
    assert pace.lag(now=10.0) == watch_mod.PAGE_LAG
    for d in (0.4, 0.4):  # the worker busy 0.8 s of the last 2 s: pages told to wait longer
        pace.worked(d, now=10.0)
    every = pace.tell(now=10.0)
    assert every > watch_mod.PACE_EVERY
    assert pace.lag(now=10.5) == pytest.approx(watch_mod.PAGE_LAG + every - watch_mod.PACE_EVERY)
    assert pace.lag(now=10.0 + watch_mod.PACE_MAX + watch_mod.PAGE_LAG + 0.1) == \
        watch_mod.PAGE_LAG  # told long ago: every phone has asked again since
    for _ in range(20):
        pace.worked(1.0, now=30.0)
    pace.tell(now=30.0)
    assert pace.lag(now=30.0) == watch_mod.MOST_BEHIND == watch_mod.PAGE_LAG + \
        watch_mod.PACE_MAX - watch_mod.PACE_EVERY


class _NaivePace:
    """The pace as first written: every span and every answer kept for the window, summed
    and searched at each call (the reference the kept sums and longest must agree with)."""

    def __init__(self) -> None:
        self.spans: list[tuple[float, float]] = []
        self.told: list[tuple[float, float]] = []

    def busy(self, now: float) -> float:
        return sum(d for t, d in self.spans if t >= now - watch_mod.PACE_WINDOW) / \
            watch_mod.PACE_WINDOW

    def every(self, now: float) -> float:
        return round(min(watch_mod.PACE_MAX, watch_mod.PACE_EVERY * max(
            1.0, self.busy(now) / watch_mod.PACE_BUSY)), 2)

    def lag(self, now: float) -> float:
        recent = [e for t, e in self.told
                  if t >= now - watch_mod.PACE_MAX - watch_mod.PAGE_LAG]
        return watch_mod.PAGE_LAG + max(0.0, max(recent, default=watch_mod.PACE_EVERY)
                                        - watch_mod.PACE_EVERY)


def test_the_pace_keeps_its_sums_and_longest_as_the_naive_one_computes_them() -> None:
    """Under a flood of long-polls the pace was told hundreds of times a second and each
    page searched all of it (a third of a second of the event loop in an 18-second run):
    it keeps the busy seconds' sum and the longest told now, with the same answers."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    steps = st.lists(st.tuples(st.sampled_from(["worked", "tell", "lag", "every"]),
                               st.floats(0, 1.5), st.floats(0, 1.0)), max_size=120)

    @settings(max_examples=300, deadline=None)
    @given(steps)
    def check(ops: list[tuple[str, float, float]]) -> None:
        pace, naive, now = watch_mod.Pace(), _NaivePace(), 100.0
        for op, dt, x in ops:
            now += dt
            if op == "worked":
                pace.worked(x, now=now)
                naive.spans.append((now, x))
            elif op == "tell":
                every = pace.tell(now=now)
                assert every == naive.every(now)
                if every > watch_mod.PACE_EVERY:
                    naive.told.append((now, every))
            elif op == "lag":
                assert pace.lag(now=now) == pytest.approx(naive.lag(now))
            else:
                assert pace.every(now=now) == naive.every(now)

    check()
