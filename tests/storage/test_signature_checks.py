"""Every signature of a record checked apart from the reader (``Signatures(every=True)``):
in a process of their own for a long chain, on a thread for a short one; the same first
bad entry named either way, and where the process cannot be had."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

import pytest

from referee_app.storage import chain, trust


def _signed_chain(make_tournament, record_for) -> tuple[list[chain.Entry], dict[int, str]]:
    t = make_tournament(rounds=1)
    for table in (1, 2, 3, 4):
        for n in (1, 2, 3):
            t.hands.add(record_for(t, 1, table, seed=table * 10 + n), round=1, table=table,
                        hand_no=n)
    entries = t.record._read_all_entries()
    sigs = dict(t.db.execute("SELECT seq, sig FROM chain").fetchall())
    return entries, sigs


def _first_bad(entries: list[chain.Entry], sigs: dict[int, str], **kw: Any) -> int | None:
    s = trust.Signatures(every=True, **kw)
    for e in entries:
        s.see(e, sigs[e.seq])
    s.finish(wait=False)
    bad = s.first_bad()
    return None if bad is None else bad.seq


def _flipped(sig: str) -> str:
    return ("0" if sig[0] != "0" else "1") + sig[1:]


@pytest.mark.parametrize("processes", [True, False])
def test_the_first_bad_signature_is_named_in_a_process_or_on_a_thread(
        make_tournament, record_for, monkeypatch, processes: bool) -> None:
    monkeypatch.setattr(trust.Signatures, "BATCH", 3)  # several batches, a bad one later
    monkeypatch.setattr(trust, "PROCESS_FROM", 1 if processes else 10**9)
    entries, sigs = _signed_chain(make_tournament, record_for)
    many = len(entries)
    s = trust.Signatures(every=True, many=many)
    assert s._processes == (processes and trust.os.cpu_count() > 1)
    assert _first_bad(entries, sigs, many=many) is None
    late, later = entries[-4].seq, entries[-2].seq
    forged = {**sigs, late: _flipped(sigs[late]), later: _flipped(sigs[later])}
    assert _first_bad(entries, forged, many=many) == late


def test_where_no_process_can_be_had_the_signatures_are_checked_here(
        make_tournament, record_for, monkeypatch) -> None:
    entries, sigs = _signed_chain(make_tournament, record_for)
    mid = entries[len(entries) // 2].seq
    forged = {**sigs, mid: _flipped(sigs[mid])}

    class Refusing(ThreadPoolExecutor):
        def submit(self, *a: Any, **k: Any) -> Future[Any]:
            raise RuntimeError("cannot start a process")

    class Dying(ThreadPoolExecutor):
        def submit(self, *a: Any, **k: Any) -> Future[Any]:
            f: Future[Any] = Future()
            f.set_exception(OSError("the process died"))
            return f

    for pool in (Refusing, Dying):
        monkeypatch.setattr(trust, "_checker", lambda processes, pool=pool: pool(1))
        assert _first_bad(entries, sigs, many=10**6) is None
        assert _first_bad(entries, forged, many=10**6) == mid
