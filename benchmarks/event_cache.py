"""Events the size of a real tournament, built through the library and cached.

``event_file(players, rounds, hands)`` builds a tournament of ``players`` players with a
head referee and 8 desk referees, ``rounds`` rounds seated by the library and ``hands``
hands at every table of every round (1,000 players x 8 rounds x 4 hands: 8,000 hands), all
through :class:`Tournament` as a desk would save them. Building takes minutes at 1,000
players, so the file is kept in a cache folder (``$REFEREE_BENCH_CACHE``, default
``<tmp>/referee-bench-cache``) under a name that says everything it depends on: the same
arguments and seed give the same players, seating and records (only the times differ).
Callers copy it before changing anything (:func:`fresh_copy`).
"""

from __future__ import annotations

import os
import random
import shutil
import tempfile
import time
from pathlib import Path

from referee_app.core.generate import random_record
from referee_app.reports.sample import player_names
from referee_app.storage import Tournament
from referee_app.storage import db as dbm

HEAD, HEAD_PIN = "head", "bench-head-pin"
DESKS = 8
#: bump when the built content changes, so stale cached files are not reused
BUILD = 1


def desk_login(d: int) -> tuple[str, str]:
    """Desk ``d``'s referee name and PIN (1-based)."""
    return f"desk{d}", f"desk-pin-{d}"


def cache_dir() -> Path:
    d = Path(os.environ.get("REFEREE_BENCH_CACHE")
             or Path(tempfile.gettempdir()) / "referee-bench-cache")
    d.mkdir(parents=True, exist_ok=True)
    return d


def build(path: Path, players: int, rounds: int, hands: int, seed: int) -> None:
    """The event, written through the library (``synchronous=OFF`` while building only:
    the figures measured afterwards open the file with the normal settings)."""
    with Tournament.create(path, f"Bench {players} players", ruleset="ottawa-2009",
                           backup_every=0, head_referee=HEAD, head_pin=HEAD_PIN) as t:
        t.db.execute("PRAGMA synchronous=OFF")
        t.referees.sign_in(HEAD, HEAD_PIN)
        for d in range(1, DESKS + 1):
            name, pin = desk_login(d)
            t.referees.add(name, pin=pin, referee=HEAD)
        for cn, latin, club in player_names(players, seed):
            t.players.add(cn, name_latin=latin, club=club, referee=HEAD)
        rng = random.Random(seed)
        for rnd in range(1, rounds + 1):
            seating = t.rounds.seat(rnd, seed=seed + rnd, referee=HEAD)
            for table, row in sorted(seating.tables.items()):
                for hand_no in range(1, hands + 1):
                    rec = random_record(rng, "ottawa-2009", players=row)
                    t.hands.add(rec, round=rnd, table=table, hand_no=hand_no, referee=HEAD)


def event_file(players: int, rounds: int = 8, hands: int = 4, seed: int = 23) -> Path:
    """The cached event (built first if missing); never modify it: :func:`fresh_copy`."""
    name = f"event-p{players}-r{rounds}-h{hands}-s{seed}-v{dbm.SCHEMA_VERSION}.{BUILD}.sqlite"
    path = cache_dir() / name
    if path.exists():
        return path
    tmp = path.with_suffix(f".building-{os.getpid()}")
    for suffix in ("", "-wal", "-shm"):
        Path(str(tmp) + suffix).unlink(missing_ok=True)
    t0 = time.perf_counter()
    print(f"building {players} players x {rounds} rounds x {hands} hands (cached in "
          f"{path.parent}) ...", flush=True)
    build(tmp, players, rounds, hands, seed)
    os.replace(tmp, path)
    shutil.rmtree(Path(str(tmp) + ".backups"), ignore_errors=True)
    print(f"  built in {time.perf_counter() - t0:.0f} s", flush=True)
    return path


def fresh_copy(players: int, folder: Path, name: str = "event.sqlite", **kw: int) -> Path:
    """A copy of the cached event in ``folder``, free to change."""
    dst = folder / name
    shutil.copyfile(event_file(players, **kw), dst)
    return dst
