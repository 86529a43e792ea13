"""Reading hands: one hand, listings, versions with their changes, next hand number and dealer."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee_app.core import (
    HandRecord,
    settle,
)
from referee_app.core import next_dealer as core_next_dealer

from .base import TournamentBase, _lookup_int
from .models import (
    HandInfo,
    HandStatus,
    HandSummary,
    HandVersion,
    VersionAction,
)


def describe_changes(prev: HandVersion, cur: HandVersion) -> tuple[str, ...]:
    """What a new version changed, as lines a referee can read out: status, the record's
    seats and events, and the payments (``-`` removed, ``+`` added, with clauses)."""
    out: list[str] = []
    if prev.status is not cur.status:
        out.append(f"status {prev.status.value} -> {cur.status.value}")
    a, b = prev.record, cur.record
    if a.get("dealer") != b.get("dealer"):
        out.append(f"dealer {a.get('dealer')} -> {b.get('dealer')}")
    if a.get("wall_exhausted") != b.get("wall_exhausted"):
        out.append(f"wall_exhausted {a.get('wall_exhausted')} -> {b.get('wall_exhausted')}")
    for seat, sa in a.get("seats", {}).items():
        sb = b.get("seats", {}).get(seat, {})
        for key in ("concealed", "pongs"):
            if sa.get(key) != sb.get(key):
                out.append(f"{seat} {key}: {sa.get(key)} -> {sb.get(key)}")

    def ev_text(e: Mapping[str, Any]) -> str:
        if e.get("type") == "kong":
            frm = f" from {e['from']}" if e.get("from") else ""
            return f"kong {e.get('seat')} {e.get('tile')} {e.get('kind')}{frm}"
        frm = f" on {e['from']}'s discard" if e.get("from") else " self-drawn"
        flags = f" [{', '.join(e['flags'])}]" if e.get("flags") else ""
        return f"win {'+'.join(e.get('seats', []))} {e.get('tile')}{frm}{flags}"

    def pay_text(p: Mapping[str, Any]) -> str:
        return f"{p['clause']} {p['from']}->{p['to']} {p['chips']} ({p['reason']})"

    for label, fa, fb in (("event", [ev_text(e) for e in a.get("events", [])],
                           [ev_text(e) for e in b.get("events", [])]),
                          ("payment", [pay_text(p) for p in prev.settlement.get("payments", [])],
                           [pay_text(p) for p in cur.settlement.get("payments", [])])):
        ca, cb = Counter(fa), Counter(fb)
        removed, added = ca - cb, cb - ca
        out += [f"- {label} {x}" for x in removed.elements()]
        out += [f"+ {label} {x}" for x in added.elements()]
    if (prev.override_reason or None) != (cur.override_reason or None):
        out.append(f"override: {prev.override_reason or '-'} -> {cur.override_reason or '-'}")
    return tuple(out)



class HandQueriesMixin(TournamentBase):

    _HAND_SQL = (
        "SELECT h.id, h.round, h.table_no, h.hand_no, h.current_version, h.status, v.record, "
        "v.settlement, v.override_reason, v.referee, v.at, "
        "(SELECT referee FROM hand_versions f WHERE f.hand_id=h.id AND f.version=1), "
        "(SELECT at FROM hand_versions f WHERE f.hand_id=h.id AND f.version=1), "
        "(SELECT COUNT(*) FROM hand_versions a WHERE a.hand_id=h.id AND a.action='amended') "
        "FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND v.version=h.current_version ")

    def _hand_rows(self, where: str, params: Sequence[Any]) -> list[HandInfo]:
        rows = self.db.execute(self._HAND_SQL + where, params).fetchall()
        if not rows:
            return []
        ids = [r[0] for r in rows]
        seat_rows: dict[int, dict[str, tuple[str, int]]] = defaultdict(dict)
        for chunk in range(0, len(ids), 500):
            part = ids[chunk:chunk + 500]
            q = ("SELECT hs.hand_id, hs.seat, p.name, hs.chips FROM hand_seats hs JOIN hands h "
                 "ON h.id=hs.hand_id AND hs.version=h.current_version JOIN players p ON "
                 f"p.id=hs.player_id WHERE hs.hand_id IN ({','.join('?' * len(part))})")
            for hid, seat, name, chips in self.db.execute(q, part).fetchall():
                seat_rows[hid][seat] = (name, chips)
        seats = self._seats()
        out = []
        for r in rows:
            rec = json.loads(r[6])
            sr = seat_rows[r[0]]
            out.append(HandInfo(
                id=r[0], round=r[1], table=r[2], hand_no=r[3], version=r[4],
                status=HandStatus(r[5]), record=rec, settlement=json.loads(r[7]),
                totals={s: sr[s][1] for s in seats if s in sr},
                players={s: sr[s][0] for s in seats if s in sr},
                dealer=rec.get("dealer", seats[0]), entered_by=r[11], entered_at=r[12],
                updated_by=r[9], updated_at=r[10], amended=r[13] > 0, override_reason=r[8]))
        return out

    def hand(self, hand_id: int) -> HandInfo:
        self._current(hand_id)
        return self._hand_rows("WHERE h.id=?", (hand_id,))[0]

    def find_hand(self, round: int, table: int, hand_no: int) -> HandInfo | None:
        round, table = _lookup_int(round, "round"), _lookup_int(table, "table")
        hand_no = _lookup_int(hand_no, "hand_no")
        rows = self._hand_rows("WHERE h.round=? AND h.table_no=? AND h.hand_no=?",
                               (round, table, hand_no))
        return rows[0] if rows else None

    def hands(self, *, round: int | None = None, table: int | None = None,
              status: HandStatus | str | None = None) -> list[HandInfo]:
        """Current versions, ordered by round, table, hand number (void ones included)."""
        conds, params = [], []
        if round is not None:
            conds.append("h.round=?")
            params.append(_lookup_int(round, "round"))
        if table is not None:
            conds.append("h.table_no=?")
            params.append(_lookup_int(table, "table"))
        if status is not None:
            conds.append("h.status=?")
            params.append(HandStatus(status).value)
        where = ("WHERE " + " AND ".join(conds) + " ") if conds else ""
        return self._hand_rows(where + "ORDER BY h.round, h.table_no, h.hand_no", params)

    def hand_index(self) -> list[HandSummary]:
        """Every hand's number, status and flags, ordered as :meth:`hands` — for lists that
        show no record (the desk's navigator at launch)."""
        rows = self.db.execute(
            "SELECT h.id, h.round, h.table_no, h.hand_no, h.status, v.override_reason IS NOT "
            "NULL, EXISTS(SELECT 1 FROM hand_versions a WHERE a.hand_id=h.id AND "
            "a.action='amended') FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version ORDER BY h.round, h.table_no, h.hand_no").fetchall()
        return [HandSummary(r[0], r[1], r[2], r[3], HandStatus(r[4]), bool(r[6]), bool(r[5]))
                for r in rows]

    def _versions(self, hand_id: int, only: int | None = None) -> list[HandVersion]:
        q = ("SELECT version, action, status, record, settlement, override_reason, "
             "override_totals, reason, referee, at FROM hand_versions WHERE hand_id=?")
        params: list[Any] = [hand_id]
        if only is not None:
            q += " AND version=?"
            params.append(only)
        rows = self.db.execute(q + " ORDER BY version", params).fetchall()
        totals: dict[int, dict[str, int]] = defaultdict(dict)
        for v, seat, chips in self.db.execute("SELECT version, seat, chips FROM hand_seats WHERE "
                                              "hand_id=?", (hand_id,)).fetchall():
            totals[v][seat] = chips
        seats = self._seats()
        out: list[HandVersion] = []
        for r in rows:
            t = {s: totals[r[0]].get(s, 0) for s in seats if s in totals[r[0]]}
            prev = totals.get(r[0] - 1, {})
            diff = {s: t[s] - prev.get(s, 0) for s in t}
            v = HandVersion(hand_id, r[0], VersionAction(r[1]), HandStatus(r[2]),
                            json.loads(r[3]), json.loads(r[4]), t, diff, r[8], r[9],
                            r[7], r[5], json.loads(r[6]) if r[6] else None)
            if out and out[-1].version == v.version - 1:
                v = replace(v, changes=describe_changes(out[-1], v))
            out.append(v)
        return out

    def hand_history(self, hand_id: int) -> list[HandVersion]:
        """Every version, oldest first, each with its per-seat chip diff vs the previous."""
        self._current(hand_id)
        return self._versions(hand_id)

    def next_hand_no(self, round: int, table: int) -> int:
        round, table = _lookup_int(round, "round"), _lookup_int(table, "table")
        r = self.db.execute("SELECT MAX(hand_no) FROM hands WHERE round=? AND table_no=?",
                            (round, table)).fetchone()
        return (r[0] or 0) + 1

    def next_dealer(self, round: int, table: int) -> str:
        """The suggested dealer of the table's next hand (the engine's ``next_dealer`` rule).

        ``first_winner`` (Ottawa Reading, J10, C7, Z6): the first winner; on a shared first
        win the discarder; nobody won: the dealer stays. Where the engine has no automatic
        choice (``dice`` rulesets, or an overridden rule-breaking hand) the last dealer is
        suggested and the referee changes it. A table's first hand: the first seat (E).
        """
        seats = self._seats()
        round, table = _lookup_int(round, "round"), _lookup_int(table, "table")
        r = self.db.execute(
            "SELECT v.record FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version WHERE h.round=? AND h.table_no=? AND h.status<>'void' "
            "ORDER BY h.hand_no DESC LIMIT 1", (round, table)).fetchone()
        if r is None:
            return seats[0]
        rules = self.rules()
        rec = HandRecord.from_dict(json.loads(r[0]), rules)
        return core_next_dealer(rec, settle(rec, rules), rules) or rec.dealer

