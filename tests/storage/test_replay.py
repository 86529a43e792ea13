"""The chain replayed with its inserts pooled (``verify``'s fast path) builds exactly what
the entry-by-entry replay builds; where rows cannot be applied it says so, and the exact
replay names the entry."""

from __future__ import annotations

import sqlite3

import pytest

from referee_app.storage import chain
from referee_app.storage import db as dbm


def _copy(entries: list[chain.Entry], **kw: object) -> sqlite3.Connection:
    conn = sqlite3.connect(":memory:")
    conn.executescript(dbm.SCHEMA)
    conn.execute("BEGIN")
    chain.replay(entries, conn, **kw)  # type: ignore[arg-type]
    return conn


def _tables(conn: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
            for t in chain.RECORD_TABLES}


@pytest.mark.parametrize("every", [1, 3, 512])
def test_pooled_replay_builds_what_the_exact_one_builds(make_tournament, record_for,
                                                        monkeypatch, every: int) -> None:
    monkeypatch.setattr(chain, "POOL_ENTRIES", every)
    t = make_tournament(rounds=2)
    ids = [t.hands.add(record_for(t, r, table, seed=r * 10 + table + n), round=r, table=table,
                       hand_no=n).id
           for r in (1, 2) for table in (1, 2) for n in (1, 2)]
    t.hands.amend(ids[0], record_for(t, 1, 1, seed=77), reason="corrected")
    t.hands.void(ids[1], reason="wrong table")
    t.hands.set_status(ids[2], "verified", referee="孙")
    p = t.penalties.add([t.rounds.seating(1).tables[1]["E"]], 5, "late", round=1)
    t.penalties.void(p.id, reason="clock wrong")
    entries = t.record._read_all_entries()
    exact, pooled = _copy(entries), _copy(entries, pooled=True)
    assert _tables(pooled) == _tables(exact)
    assert _tables(exact)["hands"]  # something was built
    assert t.record.verify().versions == len(_tables(exact)["hand_versions"])


def test_rows_that_cannot_be_applied_are_said_and_the_exact_replay_names_the_entry(
        make_tournament, record_for) -> None:
    t = make_tournament()
    t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    t.hands.add(record_for(t, 1, 2, seed=2), round=1, table=2, hand_no=1)
    entries = t.record._read_all_entries()
    last = entries[-1]
    twice = last.rows + [r for r in last.rows if r[0] == "hand_versions"]  # inserted twice
    entries[-1] = chain.Entry(last.seq, last.prev, last.at, last.referee, last.action,
                              last.detail, twice, last.hash)
    with pytest.raises(chain.ChainError) as e:
        _copy(entries, pooled=True)
    assert e.value.seq is None and e.value.code == "chain_rows_unapplicable"
    with pytest.raises(chain.ChainError) as e:
        _copy(entries)
    assert e.value.seq == last.seq


def test_import_replays_pooled_and_names_the_entry_whose_rows_cannot_be_applied(
        make_tournament, record_for) -> None:
    """A bundle's chain is replayed pooled (as verify does); where that fails, the entry is
    named, as the entry-by-entry replay names it, and the tables hold nothing half-built."""
    from referee_app.storage.bundle_import import _replay
    from referee_app.storage.errors import BundleError

    t = make_tournament()
    t.hands.add(record_for(t, 1, 1, seed=1), round=1, table=1, hand_no=1)
    t.hands.add(record_for(t, 1, 2, seed=2), round=1, table=2, hand_no=1)
    entries = t.record._read_all_entries()
    conn = sqlite3.connect(":memory:")
    conn.executescript(dbm.SCHEMA)
    conn.execute("BEGIN")
    _replay(entries, conn)
    assert _tables(conn) == _tables(_copy(entries))
    conn.execute("ROLLBACK")

    last = entries[-1]
    twice = last.rows + [r for r in last.rows if r[0] == "hand_versions"]
    entries[-1] = chain.Entry(last.seq, last.prev, last.at, last.referee, last.action,
                              last.detail, twice, last.hash)
    conn.execute("BEGIN")
    with pytest.raises(BundleError) as e:
        _replay(entries, conn)
    assert e.value.field == f"chain[{last.seq - 1}]"
    assert e.value.message_code == "chain_rows_unapplicable"
