#!/usr/bin/env python3
"""Write tests/fixtures/schema2/: a tournament made by Referee Desk *before* signed records
(schema 2: PIN hashes in the chain, no signatures) and its bundle, as the code of that time
wrote them. Run it with that code first on the path, e.g.::

    git archive 10cbecb referee_app | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old python tools/make_schema2_fixture.py

The tests check that such files still verify (and say they are unsigned), upgrade, sign
from their next write, and that their exports no longer carry the PIN hashes.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "schema2"
#: the referees and PINs of the fixture (4-digit PINs, as that time allowed)
PINS = {"赵建国": "2468", "钱文": "1357", "孙丽华": "9090"}


def main() -> int:
    from referee_app.core.generate import random_record
    from referee_app.storage import Tournament
    from referee_app.storage import db as dbm

    assert dbm.SCHEMA_VERSION == 2, "run with the code from before signed records"
    OUT.mkdir(parents=True, exist_ok=True)
    db = OUT / "event.sqlite"
    for suffix in ("", "-wal", "-shm"):
        Path(str(db) + suffix).unlink(missing_ok=True)
    head = "赵建国"
    t = Tournament.create(db, "旧赛事 (schema 2)", head_referee=head, head_pin=PINS[head],
                          start_date="2026-01-10", backup_every=0)
    t.referees.sign_in(head, PINS[head])
    for name in ("李伟", "张敏", "陈杰", "王芳", "刘洋", "赵磊", "孙丽", "周强"):
        t.players.add(name)
    t.referees.add("钱文", pin="0000")
    t.referees.change_pin("钱文", PINS["钱文"])
    t.referees.add("孙丽华", pin=PINS["孙丽华"], head=True)
    t.rounds.seat(1, seed=3)
    rng = random.Random(11)
    for table in (1, 2):
        seating = t.rounds.seating(1).tables[table]
        for n in (1, 2, 3):
            t.hands.add(random_record(rng, t.info.ruleset, players=seating), round=1,
                        table=table, hand_no=n)
    t.penalties.add([t.players.list()[0].id], -5, "late", round=1)
    t.write_bundle(OUT / "event.bundle.json")
    t.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    t.close()
    conn = sqlite3.connect(db)
    conn.execute("VACUUM")
    conn.close()
    (OUT / "pins.json").write_text(json.dumps(PINS, ensure_ascii=False, indent=1) + "\n",
                                   encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
