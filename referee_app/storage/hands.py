"""Hands: validate and settle a record, then save it as a new version (add, amend, void,
status); and reading them back (one hand, listings, versions, next number and dealer).
Nothing is overwritten: every change is a version."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee_app.core import (
    HandRecord,
    RecordError,
    Settlement,
    settle,
)
from referee_app.core import next_dealer as core_next_dealer
from referee_app.core.errors import nested
from referee_app.core.jsonin import json_kind

from . import csv_io
from . import db as dbm
from .checks import (
    MAX_INT,
    MAX_REASON,
    check_chips,
    check_text,
    dump,
    hand_no_int,
    lookup_int,
    positive_int,
    shown,
    table_int,
)
from .errors import (
    AuthError,
    DuplicateHandError,
    HandChangedError,
    HandRuleError,
    SeatingError,
    SeatMismatchError,
    StorageError,
    UnknownHandError,
    UnknownPlayerError,
)
from .hand_queries import describe_changes
from .models import (
    HandInfo,
    HandStatus,
    HandSummary,
    HandVersion,
    SentHand,
    VersionAction,
)
from .players import Players
from .store import Store

#: longest idempotency key kept (a desk sends a UUID: 36 characters)
MAX_KEY = 200


class Hands:
    """``t.hands``: saving hands (add, amend, void, restore, status) and reading them back.
    Nothing is overwritten: every change is a new version."""

    def __init__(self, store: Store, players: Players) -> None:
        self.store = store
        self.db = store.db
        self.players = players

    def _table_seats(self, number: int, table: int) -> dict[str, tuple[int, str]]:
        rows = self.db.execute(
            "SELECT s.seat, s.player_id, p.name FROM seats s JOIN players p ON p.id=s.player_id "
            "WHERE s.round=? AND s.table_no=?", (number, table)).fetchall()
        if not rows:
            if not self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone():
                raise SeatingError.of("round", "round_not_seated", round=number)
            n = self.db.execute("SELECT MAX(table_no) FROM seats WHERE round=?",
                                (number,)).fetchone()[0]
            raise SeatingError.of("table", "no_such_table", round=number, table=table, tables=n)
        return {r[0]: (r[1], r[2]) for r in rows}

    def _as_record(self, record: HandRecord | Mapping[str, Any] | str) -> HandRecord:
        """Read a record under the tournament's own ruleset (a club's file included)."""
        if isinstance(record, HandRecord):
            return record
        if isinstance(record, str):
            return HandRecord.from_json(record, self.store.ruleset())
        if not isinstance(record, Mapping):
            raise RecordError.of("", "record_not_json_object", kind=json_kind(record))
        return HandRecord.from_dict(dict(record), self.store.ruleset())

    def match(self, rec: HandRecord, number: int, table: int) -> tuple[HandRecord, dict[str, int]]:
        """Fill/verify each seat's player against the seating; returns record and seat->id."""
        seated = self._table_seats(number, table)
        by_id = {pid: s for s, (pid, _) in seated.items()}
        filled = []
        ids: dict[str, int] = {}
        for sh in rec.seats:
            if sh.seat not in seated:
                raise SeatMismatchError.of(f"seats.{sh.seat}", "seat_empty_at_table", seat=sh.seat,
                                           table=table, round=number)
            pid, name = seated[sh.seat]
            if sh.player not in (None, ""):
                try:
                    named = self.players.id_of(sh.player, f"seats.{sh.seat}.player")
                except UnknownPlayerError as e:
                    raise SeatMismatchError.of(
                        e.field, "player_not_at_table", why=nested(e), table=table,
                        round=number, seating=[{"code": "seat_player", "params": {
                            "seat": s, "name": seated[s][1]}} for s in seated]) from None
                if named != pid:
                    if named in by_id:
                        raise SeatMismatchError.of(
                            f"seats.{sh.seat}.player", "player_sits_elsewhere",
                            player=sh.player, seat2=by_id[named], seat=sh.seat, name=name)
                    raise SeatMismatchError.of(
                        f"seats.{sh.seat}.player", "player_not_seated_here", player=sh.player,
                        table=table, round=number, seat=sh.seat, name=name)
            filled.append(replace(sh, player=name))
            ids[sh.seat] = pid
        return replace(rec, seats=tuple(filled)), ids

    @staticmethod
    def _seat_values(record: Mapping[str, Any], settlement: Mapping[str, Any],
                     ids: Mapping[str, int], totals: Mapping[str, int], *, counted: bool,
                     overridden: bool) -> list[tuple[Any, ...]]:
        """Per seat: player, counted, chips and the tie-break statistics of one version, read
        from its stored record and settlement (never re-settled). An overridden hand counts
        the ruling's chips and one hand, and credits no win, self-draw, discard paid, flower
        pig or win fan: its record's claims are exactly what the ruling set aside."""
        wins = {w["seat"]: w for w in settlement.get("wins", [])}
        discards: Counter[str] = Counter()
        for ev in record.get("events", []):
            if ev.get("type") == "win" and ev.get("from"):
                discards[ev["from"]] += 1
        ec = settlement.get("end_check") or {}
        pigs = set(ec.get("flower_pigs", [])) if ec.get("applies") else set()
        out = []
        for seat in record.get("seats", {}):
            if not counted:
                out.append((seat, ids[seat], 0, 0, 0, 0, 0, 0, 0))
                continue
            if overridden:
                out.append((seat, ids[seat], 1, int(totals.get(seat, 0)), 0, 0, 0, 0, 0))
                continue
            w = wins.get(seat)
            won = 1 if w is not None else 0
            self_drawn = 1 if w is not None and not w.get("from") else 0
            out.append((seat, ids[seat], 1, int(totals.get(seat, 0)), won, self_drawn,
                        discards[seat], 1 if seat in pigs else 0, int(w["fan"]) if w else 0))
        return out

    def check_override(self, s: Settlement, seats: Sequence[str], override_reason: str | None,
                        override_totals: Mapping[str, int] | None, *,
                        legacy: bool = False) -> dict[str, int]:
        """The chips a version counts: the settlement's, or the head referee's override,
        which names every seat's chips, summing to 0 (an override without them would count
        0 for everyone, silently). ``legacy``: a bundle from before that rule, whose
        overrides may lack totals (they count 0, as then)."""
        reason = check_text(override_reason, "override_reason", limit=MAX_REASON) or None
        if reason is not None and override_totals is None and not legacy and not s.ok:
            raise StorageError.of("override_totals", "override_needs_totals",
                                  example=",".join(f"{seat}=…" for seat in seats))
        if override_totals is not None:
            if reason is None:
                raise StorageError.of("override_totals", "override_needs_reason")
            ot = dict(override_totals)
            for k, v in ot.items():
                if k not in seats:
                    raise StorageError.of(f"override_totals.{k}", "override_unknown_seat")
                check_chips(v, f"override_totals.{k}")
            missing = [seat for seat in seats if seat not in ot]
            if missing and not legacy:
                raise StorageError.of(f"override_totals.{missing[0]}", "override_seat_missing",
                                      seats=list(seats))
            if sum(ot.values()) != 0:
                raise StorageError.of("override_totals", "override_not_zero_sum",
                                      sum=sum(ot.values()))
            return {seat: int(ot.get(seat, 0)) for seat in seats}
        if not s.ok:
            if reason is None:
                raise HandRuleError.breaking("record", s.errors)
            return {seat: 0 for seat in seats}
        if reason is not None:
            raise StorageError.of("override_reason", "nothing_to_override")
        return {seat: int(s.totals.get(seat, 0)) for seat in seats}

    def insert_version(self, hand_id: int, version: int, action: VersionAction,
                        status: HandStatus, record: Mapping[str, Any],
                        settlement: Mapping[str, Any], settings: Mapping[str, Any],
                        ids: Mapping[str, int], totals: Mapping[str, int], *, referee: str,
                        at: str, reason: str | None, override_reason: str | None,
                        override_totals: Mapping[str, int] | None) -> None:
        """Write one version exactly as given: its settlement and the settings that produced
        it are stored together and never computed again.

        SQL text here and in the other writes of hands, not sqlite-utils' ``Table`` methods
        (as the rarer writes of players, rounds and penalties use): this runs for every saved
        version, and each ``Table`` call reads the table's schema again (``insert`` some
        0.08 ms, ``update`` 0.2 ms as it reads the row first); measured, they made saving a
        hand about 45 % more CPU (2.0 → 2.9 ms, ``hands.add`` unsynced)."""
        counted = status is not HandStatus.VOID
        self.db.execute(
            "INSERT INTO hand_versions(hand_id, version, action, status, record, settlement, ok, "
            "override_reason, override_totals, reason, referee, at, settings) "
            "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (hand_id, version, action.value, status.value, dump(record), dump(settlement),
             int(bool(settlement.get("ok"))), override_reason,
             dump(dict(override_totals)) if override_totals is not None else None,
             reason, referee, at, dump(settings)))
        for row in self._seat_values(record, settlement, ids, totals, counted=counted,
                                     overridden=override_reason is not None):
            self.db.execute(
                "INSERT INTO hand_seats(hand_id, version, seat, player_id, counted, chips, won, "
                "self_drawn, discards_paid, flower_pig, win_fan) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (hand_id, version, *row))
        self.db.execute("UPDATE hands SET current_version=?, status=? WHERE id=?",
                        (version, status.value, hand_id))

    def _prepare(self, record: HandRecord | Mapping[str, Any] | str, number: int, table: int,
                 hand_no: int, override_reason: str | None,
                 override_totals: Mapping[str, int] | None
                 ) -> tuple[HandRecord, Settlement, dict[str, Any], dict[str, int],
                            dict[str, int]]:
        """Check and settle a record under the tournament's current settings: the record,
        its settlement, those settings, seat -> player id, and the chips it counts."""
        rec = self._as_record(record)
        ruleset = self.store.ruleset_id()
        if rec.ruleset != ruleset:
            raise StorageError.of("ruleset", "other_ruleset", got=rec.ruleset, plays=ruleset)
        for key, want in (("round", number), ("table", table), ("hand_no", hand_no)):
            got = rec.extra.get(key)
            if got is not None and got != want and str(got) != str(want):
                raise StorageError.of(key, "record_says_other", got=got, want=want)
        rec, ids = self.match(rec, number, table)
        rec = replace(rec, extra={**rec.extra, "round": number, "table": table,
                                  "hand_no": hand_no})
        settings = self.store.settings()
        s = settle(rec, self.store.rules_for(settings))
        totals = self.check_override(s, [sh.seat for sh in rec.seats], override_reason,
                                      override_totals)
        return rec, s, settings, ids, totals

    def add(self, record: HandRecord | Mapping[str, Any] | str, *, round: int, table: int,
                 hand_no: int, referee: str = "", override_reason: str | None = None,
                 override_totals: Mapping[str, int] | None = None,
                 key: str | None = None) -> HandInfo:
        """Validate, settle and save a finished hand (one transaction); returns it.

        Refused: an unreadable record (RecordError), another ruleset, a player not seated
        there (SeatMismatchError), a used hand number (DuplicateHandError), a rule-breaking
        record without ``override_reason`` (HandRuleError listing the engine's errors), an
        override by anyone but the head referee. Table and hand numbers are 1..999.

        ``key``: the idempotency key a desk sent the hand with, saved in the same
        transaction as the hand (:meth:`by_key`): saved together or not at all, so a
        resend after any crash finds the hand it saved, never a half.
        """
        number = positive_int(round, "round")
        table = table_int(table)
        hand_no = hand_no_int(hand_no)
        key = check_text(key, "idempotency_key", limit=MAX_KEY) or None
        referee = check_text(referee, "referee")
        rec, s, settings, ids, totals = self._prepare(record, number, table, hand_no,
                                                      override_reason, override_totals)
        if not referee and not self.store.has_referees() and isinstance(rec.extra.get("referee"),
                                                                   str):
            referee = rec.extra["referee"].strip()  # hand-format.md's optional field
        override = check_text(override_reason, "override_reason", limit=MAX_REASON) or None
        referee = self.store.authorize(referee, head=override is not None,
                                  action="recording a hand that breaks the rules"
                                  if override else "saving a hand", override=override)
        at = dbm.now()
        with self.store.write():
            dup = self.db.execute("SELECT id FROM hands WHERE round=? AND table_no=? AND "
                                  "hand_no=?", (number, table, hand_no)).fetchone()
            if dup:
                raise DuplicateHandError.of("hand_no", "duplicate_hand", hand_no=hand_no,
                                            table=table, round=number, hand_id=dup[0])
            cur = self.db.execute("INSERT INTO hands(round, table_no, hand_no, current_version, "
                                  "status) VALUES (?,?,?,?,?)",
                                  (number, table, hand_no, 1, HandStatus.ENTERED.value))
            hand_id = int(cur.lastrowid or 0)
            self.insert_version(hand_id, 1, VersionAction.ENTERED, HandStatus.ENTERED,
                                 rec.to_dict(), s.to_dict(), settings, ids, totals,
                                 referee=referee, at=at, reason=None, override_reason=override,
                                 override_totals=override_totals)
            if key is not None:  # outside the record: the chain neither holds nor replays it
                self.db.execute("INSERT INTO hand_keys(key, hand_id, referee, round, table_no, "
                                "hand_no, at) VALUES (?,?,?,?,?,?,?)",
                                (key, hand_id, referee, number, table, hand_no, at))
            self.store.note(referee, "hand.add", {"hand_id": hand_id, "round": number, "table": table,
                                            "hand_no": hand_no, "override": override}, at)
            result = self.get(hand_id)  # read inside the transaction: exactly what we wrote
        self.store.saved()
        return result

    def _current(self, hand_id: int) -> tuple[int, int, int, int, str]:
        if isinstance(hand_id, bool) or not isinstance(hand_id, int) or abs(hand_id) > MAX_INT:
            raise UnknownHandError.of("hand_id", "bad_hand_id", max=MAX_INT, got=shown(hand_id))
        r = self.db.execute("SELECT round, table_no, hand_no, current_version, status FROM hands "
                            "WHERE id=?", (hand_id,)).fetchone()
        if r is None:
            raise UnknownHandError.of("hand_id", "unknown_hand", hand_id=hand_id)
        return r[0], r[1], r[2], r[3], r[4]

    def amend(self, hand_id: int, record: HandRecord | Mapping[str, Any] | str, *,
                   reason: str, referee: str = "", override_reason: str | None = None,
                   override_totals: Mapping[str, int] | None = None,
                   expected_version: int | None = None) -> HandInfo:
        """Correct a hand: a new version with its reason, settled under the tournament's
        current settings; the old versions stay. A void hand is restored first
        (:meth:`restore`); amending a verified hand is the head referee's.

        ``expected_version``: the version the caller edited; if another desk saved a newer
        one meanwhile, :class:`HandChangedError` and nothing is written (checked inside the
        write lock, so the other change can never be overwritten unseen)."""
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        referee = check_text(referee, "referee")
        number, table, hand_no, _, status = self._current(hand_id)
        if status == HandStatus.VOID.value:
            raise StorageError.of("hand_id", "amend_void_hand", hand_id=hand_id)
        rec, s, settings, ids, totals = self._prepare(record, number, table, hand_no,
                                                      override_reason, override_totals)
        override = check_text(override_reason, "override_reason", limit=MAX_REASON) or None
        head = override is not None or status == HandStatus.VERIFIED.value
        referee = self.store.authorize(referee, head=head, override=override,
                                  action="amending a verified hand" if status == "verified"
                                  else "recording a hand that breaks the rules" if override
                                  else "amending a hand")
        at = dbm.now()
        with self.store.write():
            _, _, _, version, now_status = self._current(hand_id)
            if expected_version is not None and version != expected_version:
                raise HandChangedError(hand_id, expected_version, version)
            if now_status != status:
                raise StorageError.of("hand_id", "hand_status_changed", hand_id=hand_id,
                                      status=now_status)
            self.insert_version(hand_id, version + 1, VersionAction.AMENDED, HandStatus.ENTERED,
                                 rec.to_dict(), s.to_dict(), settings, ids, totals,
                                 referee=referee, at=at, reason=reason, override_reason=override,
                                 override_totals=override_totals)
            self.store.note(referee, "hand.amend", {"hand_id": hand_id, "version": version + 1,
                                              "reason": reason}, at)
            result = self.get(hand_id)
        self.store.saved()
        return result

    def _copy_version(self, hand_id: int, action: VersionAction, status: HandStatus,
                      referee: str, reason: str | None,
                      expected_version: int | None = None, *,
                      second_referee: bool = False) -> HandInfo:
        """A new version that changes only the status: the record, its stored settlement and
        the settings that produced it are copied as they are (nothing is settled again).
        ``second_referee``: refused when ``referee`` wrote the record (:meth:`author`),
        checked under the write lock."""
        at = dbm.now()
        with self.store.write():
            number, table, _, version, _ = self._current(hand_id)
            if expected_version is not None and version != expected_version:
                raise HandChangedError(hand_id, expected_version, version)
            if second_referee:
                self._check_second_referee(hand_id, referee)
            r = self.db.execute(
                "SELECT record, settlement, settings, override_reason, override_totals FROM "
                "hand_versions WHERE hand_id=? AND version=?", (hand_id, version)).fetchone()
            record, settlement = json.loads(r[0]), json.loads(r[1])
            settings, orr = json.loads(r[2]), r[3]
            ot = json.loads(r[4]) if r[4] is not None else None
            if status is HandStatus.VOID:
                ids = {seat: pid for seat, pid in self.db.execute(
                    "SELECT seat, player_id FROM hand_seats WHERE hand_id=? AND version=?",
                    (hand_id, version))}
            else:  # a hand that counts must still match the seating (restoring, verifying)
                _, ids = self.match(HandRecord.from_dict(record, self.store.ruleset()), number, table)
            if ot is not None:
                totals = {seat: int(ot.get(seat, 0)) for seat in ids}
            elif settlement.get("ok"):
                totals = {seat: int(settlement["totals"].get(seat, 0)) for seat in ids}
            else:
                totals = {seat: 0 for seat in ids}
            self.db.execute(
                "INSERT INTO hand_versions(hand_id, version, action, status, record, settlement, "
                "ok, override_reason, override_totals, reason, referee, at, settings) "
                "SELECT hand_id, ?, ?, ?, record, settlement, ok, override_reason, "
                "override_totals, ?, ?, ?, settings FROM hand_versions WHERE hand_id=? AND "
                "version=?", (version + 1, action.value, status.value, reason, referee, at,
                              hand_id, version))
            for row in self._seat_values(record, settlement, ids, totals,
                                         counted=status is not HandStatus.VOID,
                                         overridden=orr is not None):
                self.db.execute(
                    "INSERT INTO hand_seats(hand_id, version, seat, player_id, counted, chips, "
                    "won, self_drawn, discards_paid, flower_pig, win_fan) "
                    "VALUES (?,?,?,?,?,?,?,?,?,?,?)", (hand_id, version + 1, *row))
            self.db.execute("UPDATE hands SET current_version=?, status=? WHERE id=?",
                            (version + 1, status.value, hand_id))
            del number, table, settings
            self.store.note(referee, f"hand.{action.value}", {"hand_id": hand_id,
                                                        "version": version + 1,
                                                        "status": status.value,
                                                        "reason": reason}, at)
            result = self.get(hand_id)
        self.store.saved()
        return result

    def void(self, hand_id: int, *, reason: str, referee: str = "",
                  expected_version: int | None = None) -> HandInfo:
        """Void a hand (head referee): it stays listed (as void) and counts nothing.
        ``expected_version`` as in :meth:`amend`."""
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        _, _, _, _, status = self._current(hand_id)
        if status == HandStatus.VOID.value:
            raise StorageError.of("hand_id", "hand_already_void", hand_id=hand_id)
        referee = self.store.authorize(referee, head=True, action="voiding a hand")
        return self._copy_version(hand_id, VersionAction.VOIDED, HandStatus.VOID, referee,
                                  reason, expected_version)

    def restore(self, hand_id: int, *, reason: str, referee: str = "") -> HandInfo:
        """Bring a void hand back (head referee, with a reason): the only way back from void.
        It counts again exactly as it was saved."""
        reason = check_text(reason, "reason", required=True, limit=MAX_REASON)
        _, _, _, _, status = self._current(hand_id)
        if status != HandStatus.VOID.value:
            raise StorageError.of("hand_id", "hand_not_void", hand_id=hand_id, status=status)
        referee = self.store.authorize(referee, head=True, action="restoring a void hand")
        return self._copy_version(hand_id, VersionAction.RESTORED, HandStatus.ENTERED, referee,
                                  reason)

    def set_status(self, hand_id: int, status: HandStatus | str, *, referee: str = "",
                   reason: str | None = None, expected_version: int | None = None
                   ) -> HandInfo:
        """Mark a hand verified (or back to entered). Voiding goes through :meth:`void`
        and back from void only through :meth:`restore`. ``expected_version``: the
        version the caller looked at (as in :meth:`amend`)."""
        try:
            st = HandStatus(status)
        except ValueError:
            raise StorageError.of("status", "unknown_hand_status", got=status) from None
        _, _, _, _, cur = self._current(hand_id)
        if st is HandStatus.VOID:
            return self.void(hand_id, reason=reason or "", referee=referee,
                                  expected_version=expected_version)
        if cur == HandStatus.VOID.value:
            raise StorageError.of("status", "status_void_hand", hand_id=hand_id)
        if cur == st.value:
            raise StorageError.of("status", "hand_already_status", hand_id=hand_id, status=st.value)
        referee = self.store.authorize(referee, head=cur == HandStatus.VERIFIED.value,
                                  action="un-verifying a hand" if cur == "verified"
                                  else "verifying a hand")
        return self._copy_version(hand_id, VersionAction.STATUS, st, referee,
                                  check_text(reason, "reason", limit=MAX_REASON) or None,
                                  expected_version,
                                  second_referee=st is HandStatus.VERIFIED)

    def author(self, hand_id: int) -> str:
        """Who wrote the hand's record as it stands: the referee who entered it, or who
        last amended it (a status change, void or restore copies the record unchanged)."""
        self._current(hand_id)
        r = self.db.execute("SELECT referee FROM hand_versions WHERE hand_id=? AND action IN "
                            "('entered', 'amended') ORDER BY version DESC LIMIT 1",
                            (hand_id,)).fetchone()
        return str(r[0]) if r else ""

    def _check_second_referee(self, hand_id: int, referee: str) -> None:
        """Verifying means a second referee checked the slip: the record's own author may
        not, unless a one-referee event allows it (``event set --self-verify``, effective
        while at most one referee is registered)."""
        author = self.author(hand_id)
        if not referee or referee != author:
            return
        if self.store.info.self_verify and self.db.execute(
                "SELECT COUNT(*) FROM referees").fetchone()[0] <= 1:
            return
        raise AuthError.of("referee", "verify_own_hand", name=referee, hand_id=hand_id)


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
        seats = self.store.seats()
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

    def get(self, hand_id: int) -> HandInfo:
        self._current(hand_id)
        return self._hand_rows("WHERE h.id=?", (hand_id,))[0]

    def by_key(self, key: str) -> SentHand | None:
        """The hand saved with idempotency key ``key`` (:meth:`add`), or None."""
        key = key.strip() if isinstance(key, str) else ""
        if not key or len(key) > MAX_KEY:
            return None
        r = self.db.execute("SELECT key, hand_id, referee, round, table_no, hand_no FROM "
                            "hand_keys WHERE key=?", (key,)).fetchone()
        return SentHand(*r) if r is not None else None

    def find(self, round: int, table: int, hand_no: int) -> HandInfo | None:
        round, table = lookup_int(round, "round"), lookup_int(table, "table")
        hand_no = lookup_int(hand_no, "hand_no")
        rows = self._hand_rows("WHERE h.round=? AND h.table_no=? AND h.hand_no=?",
                               (round, table, hand_no))
        return rows[0] if rows else None

    def list(self, *, round: int | None = None, table: int | None = None,
              status: HandStatus | str | None = None, player: int | None = None
              ) -> list[HandInfo]:
        """Current versions, ordered by round, table, hand number (void ones included).
        ``player`` (an id): only the hands whose current version seats that player — read
        through the player index, so one player's statement costs their hands, not all."""
        where, params = _where(player=player, round=round, table=table, status=status)
        return self._hand_rows(where + "ORDER BY h.round, h.table_no, h.hand_no", params)

    def index(self, ids: Sequence[int] | None = None, *, round: int | None = None,
              table: int | None = None) -> list[HandSummary]:
        """Every hand's number, status and flags, ordered as :meth:`list` — for lists that
        show no record (the desk's navigator at launch, a round's progress); ``ids``: those
        hands only (the ones a save changed); ``round``, ``table``: that round's, that
        table's."""
        where, params = _where(ids=ids, round=round, table=table)
        rows = self.db.execute(
            "SELECT h.id, h.round, h.table_no, h.hand_no, h.status, v.override_reason IS NOT "
            "NULL, EXISTS(SELECT 1 FROM hand_versions a WHERE a.hand_id=h.id AND "
            "a.action='amended'), v.at FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version " + where + "ORDER BY h.round, h.table_no, h.hand_no",
            params).fetchall()
        return [HandSummary(r[0], r[1], r[2], r[3], HandStatus(r[4]), bool(r[6]), bool(r[5]),
                            r[7] or "") for r in rows]

    def versions(self, hand_id: int, only: int | None = None) -> list[HandVersion]:
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
        seats = self.store.seats()
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

    def history(self, hand_id: int) -> list[HandVersion]:
        """Every version, oldest first, each with its per-seat chip diff vs the previous."""
        self._current(hand_id)
        return self.versions(hand_id)

    def next_no(self, round: int, table: int) -> int:
        round, table = lookup_int(round, "round"), lookup_int(table, "table")
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
        seats = self.store.seats()
        round, table = lookup_int(round, "round"), lookup_int(table, "table")
        r = self.db.execute(
            "SELECT v.record FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version WHERE h.round=? AND h.table_no=? AND h.status<>'void' "
            "ORDER BY h.hand_no DESC LIMIT 1", (round, table)).fetchone()
        if r is None:
            return seats[0]
        rules = self.store.rules()
        rec = HandRecord.from_dict(json.loads(r[0]), rules)
        return core_next_dealer(rec, settle(rec, rules), rules) or rec.dealer

    def export_csv(self, path: str | Path, *, round: int | None = None) -> Path:
        """The hands (as :meth:`list`) written as a spreadsheet, atomically."""
        return csv_io.write_hands(path, self.store.seats(), self.list(round=round))


def _where(*, ids: Sequence[int] | None = None, player: int | None = None,
           round: int | None = None, table: int | None = None,
           status: HandStatus | str | None = None) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (with its parameters) choosing current hands (``h``) by id,
    seated player, round, table and status; empty for all."""
    conds: list[str] = []
    params: list[Any] = []
    if ids is not None:
        conds.append(f"h.id IN ({','.join('?' * len(ids))})")
        params.extend(ids)
    if player is not None:
        conds.append("h.id IN (SELECT hs.hand_id FROM hand_seats hs JOIN hands c ON "
                     "c.id=hs.hand_id AND hs.version=c.current_version WHERE hs.player_id=?)")
        params.append(lookup_int(player, "player"))
    if round is not None:
        conds.append("h.round=?")
        params.append(lookup_int(round, "round"))
    if table is not None:
        conds.append("h.table_no=?")
        params.append(lookup_int(table, "table"))
    if status is not None:
        conds.append("h.status=?")
        params.append(HandStatus(status).value)
    return ("WHERE " + " AND ".join(conds) + " ") if conds else "", params
