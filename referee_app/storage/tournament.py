"""The tournament store: one SQLite file per tournament, reached only through this class.

The GUI, the reports and the CLI all call :class:`Tournament`; they never run SQL.
Every mutating method is one durable transaction that either fully happens or changes
nothing; every read returns frozen dataclasses (``models.py``). Hands are append-only:
an amendment, a status change or a void writes a new *version*; standings are always
recomputed from the current versions on each call (never a stored running total).
"""

from __future__ import annotations

import csv
import io
import json
import random
import sqlite3
import warnings
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import sqlite_utils

from referee_app.core import (
    DEFAULT_RULESET,
    HandRecord,
    RecordError,
    Ruleset,
    Settlement,
    UnknownRulesetError,
    WinEvent,
    get_ruleset,
    settle,
)
from referee_app.core import next_dealer as core_next_dealer

from . import db as dbm
from . import seating as seating_mod
from .errors import (
    CSVImportError,
    DuplicateHandError,
    DuplicatePlayerError,
    HandRuleError,
    NotATournamentError,
    PenaltyError,
    SeatingError,
    SeatMismatchError,
    StorageError,
    TournamentExistsError,
    UnknownHandError,
    UnknownPlayerError,
)
from .models import (
    DEFAULT_TIE_BREAK,
    TIE_BREAK_KEYS,
    HandInfo,
    HandStatus,
    HandVersion,
    Penalty,
    Player,
    PlayerStatement,
    PlayerStatus,
    RoundInfo,
    SeatAssignment,
    Seating,
    StandingRow,
    StatementLine,
    TournamentInfo,
    VersionAction,
)

PlayerRef = int | str


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=False)


def _positive_int(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise StorageError(field, f"expected a whole number >= 1, got {value!r}")
    return value


def _cap(value: Any) -> int | None:
    """A tournament cap on total fan (V2 "可以临时协商"): a whole number >= 1, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise StorageError("cap_fan", f"expected a whole number of fan >= 1 or none, got {value!r}")
    return value


def _text(value: Any, field: str, *, required: bool = False) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise StorageError(field, f"expected text, got {type(value).__name__}")
    value = value.strip()
    if required and not value:
        raise StorageError(field, "is required and may not be empty")
    return value


def _check_tie_break(order: Iterable[str]) -> tuple[str, ...]:
    out = tuple(order)
    for key in out:
        if key.lstrip("-") not in TIE_BREAK_KEYS:
            raise StorageError("tie_break", f"unknown key {key!r} (known: "
                               f"{', '.join(TIE_BREAK_KEYS)}; prefix '-' for fewer-is-better)")
    if not out:
        raise StorageError("tie_break", "needs at least one key")
    return out


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


class Tournament:
    """One tournament in one SQLite file. Use :meth:`create` or :meth:`open`.

    ``backup_every`` changes (and on :meth:`close`) a copy is written with SQLite's backup
    API to ``<file>.backups/``, keeping the newest ``backup_keep``. ``backup_every=0``
    turns automatic backups off (tests, benchmarks).
    """

    def __init__(self, path: Path, db: sqlite_utils.Database, *, backup_every: int = 25,
                 backup_keep: int = 10) -> None:
        self.path = path
        self.db = db
        self.backup_every = backup_every
        self.backup_keep = backup_keep
        self._changes = 0
        self._closed = False
        self.backup_error: str | None = None  # the last automatic backup's failure, if any

    # ------------------------------------------------------------------ lifecycle

    @classmethod
    def create(cls, path: str | Path, name: str, *, ruleset: str = DEFAULT_RULESET,
               start_date: str = "", end_date: str = "", venue: str = "",
               stake: int | None = None, tie_break: Sequence[str] = DEFAULT_TIE_BREAK,
               referees: Sequence[str] = (), head_referee: str = "",
               cap_fan: int | None = None,
               _log_create: bool = True, **kwargs: Any) -> Tournament:
        """Create a new tournament file; refuses to overwrite an existing database."""
        path = Path(path)
        name = _text(name, "name", required=True)
        try:
            rules = get_ruleset(ruleset)
        except UnknownRulesetError as e:
            raise StorageError("ruleset", str(e)) from None
        tb = _check_tie_break(tie_break)
        if stake is not None:
            stake = _positive_int(stake, "stake")
        cap_fan = _cap(cap_fan)
        if path.exists() and path.stat().st_size > 0:
            raise TournamentExistsError("db", f"{path} already exists; choose another file "
                                        "or open it instead")
        path.parent.mkdir(parents=True, exist_ok=True)
        db = dbm.connect(path)
        try:
            dbm.create_schema(db)
            info = {"app": dbm.APP_ID, "name": name, "ruleset": rules.id,
                    "start_date": _text(start_date, "start_date"),
                    "end_date": _text(end_date, "end_date"), "venue": _text(venue, "venue"),
                    "stake": rules.stake if stake is None else stake,
                    "tie_break": list(tb), "referees": list(referees),
                    "head_referee": _text(head_referee, "head_referee"),
                    "cap_fan": cap_fan, "created_at": dbm.now()}
            with dbm.write_transaction(db):
                for k, v in info.items():
                    db.execute("INSERT INTO meta(key, value) VALUES (?, ?)", (k, _dump(v)))
                if _log_create:
                    db.execute("INSERT INTO log(at, referee, action, detail) VALUES (?,?,?,?)",
                               (info["created_at"], head_referee or "", "event.create",
                                _dump({"name": name, "ruleset": rules.id})))
        except BaseException:
            db.close()
            for suffix in ("", "-wal", "-shm"):  # leave no half-made tournament behind
                Path(str(path) + suffix).unlink(missing_ok=True)
            raise
        return cls(path, db, **kwargs)

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> Tournament:
        """Open an existing tournament file (raises NotATournamentError otherwise)."""
        path = Path(path)
        if not path.exists():
            raise NotATournamentError("db", f"{path} does not exist (create it with "
                                      "'referee-app event new NAME' or import a bundle)")
        try:
            conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
            try:
                row = conn.execute("SELECT value FROM meta WHERE key='app'").fetchone()
                version = conn.execute("PRAGMA user_version").fetchone()[0]
            finally:
                conn.close()
        except sqlite3.DatabaseError as e:
            raise NotATournamentError("db", f"{path} is not a tournament database ({e})") \
                from None
        if row is None or json.loads(row[0]) != dbm.APP_ID:
            raise NotATournamentError("db", f"{path} is not a Referee Desk tournament")
        if version > dbm.SCHEMA_VERSION:
            raise NotATournamentError("db", f"{path} was written by a newer Referee Desk "
                                      f"(schema {version}; this one reads up to "
                                      f"{dbm.SCHEMA_VERSION}); update the app")
        return cls(path, dbm.connect(path), **kwargs)

    def close(self) -> None:
        """Back up (if anything changed) and close the file."""
        if self._closed:
            return
        try:
            if self.backup_every and self._changes:
                self._try_backup()
        finally:
            self.db.close()
            self._closed = True

    def __enter__(self) -> Tournament:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def backup(self) -> Path:
        """Write a backup now (SQLite backup API); returns its path."""
        p = dbm.backup(self.db, self.path, self.backup_keep)
        self._changes = 0
        return p

    def backups(self) -> list[Path]:
        return dbm.list_backups(self.path)

    def _saved(self) -> None:
        """Count a committed change; back up every ``backup_every``. A failing backup never
        turns a committed save into an error: it is kept in ``backup_error`` and warned."""
        self._changes += 1
        if self.backup_every and self._changes >= self.backup_every:
            self._try_backup()

    def _try_backup(self) -> None:
        try:
            self.backup()
            self.backup_error = None
        except (OSError, sqlite3.Error) as e:
            self.backup_error = f"backup failed: {e}"
            warnings.warn(self.backup_error, RuntimeWarning, stacklevel=3)

    def _log(self, referee: str, action: str, detail: Mapping[str, Any], at: str) -> None:
        self.db.execute("INSERT INTO log(at, referee, action, detail) VALUES (?,?,?,?)",
                        (at, referee, action, _dump(detail)))

    def log(self, limit: int | None = None) -> list[dict[str, Any]]:
        """The audit log (every change, who and when), newest last."""
        sql = "SELECT id, at, referee, action, detail FROM log ORDER BY id"
        rows = [{"id": r[0], "at": r[1], "referee": r[2], "action": r[3],
                 "detail": json.loads(r[4])} for r in self.db.execute(sql).fetchall()]
        return rows[-limit:] if limit else rows

    # ------------------------------------------------------------------ tournament info

    @property
    def info(self) -> TournamentInfo:
        meta = {k: json.loads(v) for k, v in self.db.execute("SELECT key, value FROM meta")}
        rules = get_ruleset(meta["ruleset"])
        return TournamentInfo(
            name=meta["name"], ruleset=rules.id, seats=tuple(rules.seats),
            start_date=meta.get("start_date", ""), end_date=meta.get("end_date", ""),
            venue=meta.get("venue", ""), stake=int(meta.get("stake", 1)),
            tie_break=tuple(meta.get("tie_break", DEFAULT_TIE_BREAK)),
            referees=tuple(meta.get("referees", ())),
            head_referee=meta.get("head_referee", ""), created_at=meta.get("created_at", ""),
            cap_fan=meta.get("cap_fan"))

    def rules(self) -> Ruleset:
        """The tournament's ruleset under its own settings (cap), used for every settlement."""
        info = self.info
        return get_ruleset(info.ruleset).with_settings(cap_fan=info.cap_fan)

    def update_info(self, *, referee: str = "", **fields: Any) -> TournamentInfo:
        """Change name, dates, venue, stake, cap_fan, tie_break, referees or head_referee.

        A changed cap applies to hands saved from then on; saved versions keep their
        settlement (amend a hand to settle it again).
        """
        allowed = {"name", "start_date", "end_date", "venue", "stake", "tie_break", "referees",
                   "head_referee", "cap_fan"}
        for k in fields:
            if k not in allowed:
                raise StorageError(k, f"cannot be changed (changeable: {', '.join(sorted(allowed))})")
        if "tie_break" in fields:
            fields["tie_break"] = list(_check_tie_break(fields["tie_break"]))
        if "name" in fields:
            fields["name"] = _text(fields["name"], "name", required=True)
        if "referees" in fields:
            fields["referees"] = list(fields["referees"])
        if "stake" in fields:
            fields["stake"] = _positive_int(fields["stake"], "stake")
        if "cap_fan" in fields:
            fields["cap_fan"] = _cap(fields["cap_fan"])
        at = dbm.now()
        with dbm.write_transaction(self.db):
            for k, v in fields.items():
                self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)",
                                (k, _dump(v)))
            self._log(referee, "event.update", fields, at)
        self._saved()
        return self.info

    # ------------------------------------------------------------------ players

    @staticmethod
    def _player_row(r: Sequence[Any]) -> Player:
        return Player(id=r[0], name=r[1], name_latin=r[2], club=r[3],
                      status=PlayerStatus(r[4]), registered_at=r[5])

    _PLAYER_COLS = "id, name, name_latin, club, status, registered_at"

    def players(self, *, status: PlayerStatus | str | None = None) -> list[Player]:
        rows = self.db.execute(f"SELECT {self._PLAYER_COLS} FROM players ORDER BY id").fetchall()
        out = [self._player_row(r) for r in rows]
        if status is not None:
            out = [p for p in out if p.status is PlayerStatus(status)]
        return out

    def player(self, ref: PlayerRef, field: str = "player") -> Player:
        """A player by id, ``#id``, exact name, or Latin name (case-insensitive)."""
        pid = self._player_id(ref, field)
        r = self.db.execute(f"SELECT {self._PLAYER_COLS} FROM players WHERE id=?",
                            (pid,)).fetchone()
        return self._player_row(r)

    def _player_id(self, ref: PlayerRef, field: str) -> int:
        if isinstance(ref, bool):
            raise UnknownPlayerError(field, f"expected a player name or id, got {ref!r}")
        if isinstance(ref, int) or (isinstance(ref, str) and ref.startswith("#")
                                    and ref[1:].isdigit()):
            pid = int(ref[1:]) if isinstance(ref, str) else ref
            if self.db.execute("SELECT 1 FROM players WHERE id=?", (pid,)).fetchone():
                return pid
            raise UnknownPlayerError(field, f"no player with id {pid}")
        if not isinstance(ref, str):
            raise UnknownPlayerError(field, f"expected a player name or id, got {ref!r}")
        name = ref.strip()
        r = self.db.execute("SELECT id FROM players WHERE name=?", (name,)).fetchone()
        if r is None and name:
            rows = self.db.execute("SELECT id FROM players WHERE name_latin<>'' AND "
                                   "lower(name_latin)=lower(?)", (name,)).fetchall()
            if len(rows) == 1:
                r = rows[0]
        if r is None:
            raise UnknownPlayerError(field, f"unknown player {ref!r} (not registered)")
        return int(r[0])

    def _validate_player_fields(self, name: Any, name_latin: Any, club: Any, status: Any,
                                field: str) -> tuple[str, str, str, PlayerStatus]:
        name = _text(name, f"{field}name", required=True)
        if name.startswith("#"):
            raise StorageError(f"{field}name", f"may not start with '#' ({name!r})")
        try:
            st = PlayerStatus(status or "active")
        except ValueError:
            raise StorageError(f"{field}status", f"unknown status {status!r} (one of "
                               f"{', '.join(s.value for s in PlayerStatus)})") from None
        return name, _text(name_latin, f"{field}name_latin"), _text(club, f"{field}club"), st

    def add_player(self, name: str, *, name_latin: str = "", club: str = "",
                   status: PlayerStatus | str = PlayerStatus.ACTIVE,
                   referee: str = "") -> Player:
        """Register a player; the name is what hand records carry and must be unique."""
        return self._add_players([(name, name_latin, club, status)], referee)[0]

    def _add_players(self, rows: Sequence[tuple[Any, Any, Any, Any]], referee: str,
                     locs: Sequence[str] | None = None) -> list[Player]:
        """Validate every row first, then insert all in one transaction (all or nothing).

        ``locs`` names each row's origin in errors (``"line 3, "`` for a CSV file).
        """
        existing = {p.name for p in self.players()}
        checked = []
        seen: dict[str, str] = {}
        for i, (name, latin, club, status) in enumerate(rows):
            loc = locs[i] if locs else ""
            n, la, cl, st = self._validate_player_fields(name, latin, club, status, loc)
            if n in existing:
                raise DuplicatePlayerError(f"{loc}name", f"player {n!r} is already registered")
            if n in seen:
                raise DuplicatePlayerError(f"{loc}name", f"player {n!r} is listed twice"
                                           + (f" (first at {seen[n]})" if seen[n] else ""))
            seen[n] = loc.rstrip(", ")
            checked.append((n, la, cl, st))
        at = dbm.now()
        ids = []
        with dbm.write_transaction(self.db):
            for n, la, cl, st in checked:
                cur = self.db.execute("INSERT INTO players(name, name_latin, club, status, "
                                      "registered_at) VALUES (?,?,?,?,?)",
                                      (n, la, cl, st.value, at))
                ids.append(cur.lastrowid)
            self._log(referee, "players.add", {"players": [c[0] for c in checked]}, at)
        self._saved()
        return [self.player(i) for i in ids]

    def set_player_status(self, player: PlayerRef, status: PlayerStatus | str, *,
                          referee: str = "", reason: str = "") -> Player:
        """Withdraw, re-activate, mark late entry or substitute (results are kept)."""
        pid = self._player_id(player, "player")
        try:
            st = PlayerStatus(status)
        except ValueError:
            raise StorageError("status", f"unknown status {status!r}") from None
        at = dbm.now()
        with dbm.write_transaction(self.db):
            self.db.execute("UPDATE players SET status=? WHERE id=?", (st.value, pid))
            self._log(referee, "players.status", {"player_id": pid, "status": st.value,
                                                  "reason": reason}, at)
        self._saved()
        return self.player(pid)

    def update_player(self, player: PlayerRef, *, referee: str = "", **fields: Any) -> Player:
        """Correct a player's name_latin or club (the record name is fixed once hands exist)."""
        pid = self._player_id(player, "player")
        allowed = {"name_latin", "club", "name"}
        for k in fields:
            if k not in allowed:
                raise StorageError(k, "cannot be changed here")
        if "name" in fields:
            new = _text(fields["name"], "name", required=True)
            if self.db.execute("SELECT 1 FROM hand_seats WHERE player_id=?", (pid,)).fetchone():
                raise StorageError("name", "the player already appears on hand records; "
                                   "a record name cannot change afterwards")
            if self.db.execute("SELECT 1 FROM players WHERE name=? AND id<>?",
                               (new, pid)).fetchone():
                raise DuplicatePlayerError("name", f"player {new!r} is already registered")
            fields["name"] = new
        at = dbm.now()
        with dbm.write_transaction(self.db):
            for k, v in fields.items():
                self.db.execute(f"UPDATE players SET {k}=? WHERE id=?", (_text(v, k), pid))
            self._log(referee, "players.update", {"player_id": pid, **fields}, at)
        self._saved()
        return self.player(pid)

    CSV_COLUMNS = {"name": "name", "name_zh": "name", "姓名": "name", "name_latin": "name_latin",
                   "latin": "name_latin", "pinyin": "name_latin", "club": "club", "俱乐部": "club",
                   "status": "status"}

    def import_players_csv(self, source: str | Path | io.TextIOBase, *, referee: str = "",
                           skip_existing: bool = False) -> list[Player]:
        """Register players from CSV (header: name[, name_latin, club, status]); all or nothing.

        ``skip_existing``: rows naming an already registered player are left out (re-importing
        an updated entry list with late entries); otherwise they are an error.
        """
        try:
            if isinstance(source, str | Path):
                with open(source, encoding="utf-8-sig", newline="") as f:
                    text = f.read()
            else:
                text = source.read()
        except OSError as e:
            raise CSVImportError("file", f"cannot read {source}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise CSVImportError("file", f"{source} is not UTF-8 text") from None
        text = text.lstrip("\ufeff")
        reader = csv.reader(io.StringIO(text))
        try:
            header = next(reader)
        except StopIteration:
            raise CSVImportError("line 1", "the file is empty (expected a header row with "
                                 "'name')") from None
        except csv.Error as e:
            raise CSVImportError("line 1", f"not readable as CSV: {e}") from None
        cols: dict[int, str] = {}
        for i, h in enumerate(header):
            key = self.CSV_COLUMNS.get(h.strip().lower()) or self.CSV_COLUMNS.get(h.strip())
            if key is None:
                raise CSVImportError(f"line 1, column {i + 1}",
                                     f"unknown column {h!r} (known: name, name_latin, club, "
                                     "status)")
            if key in cols.values():
                raise CSVImportError(f"line 1, column {i + 1}", f"column {key!r} appears twice")
            cols[i] = key
        if "name" not in cols.values():
            raise CSVImportError("line 1", "the header needs a 'name' column")
        rows: list[tuple[Any, Any, Any, Any]] = []
        lines: list[int] = []
        try:
            for values in reader:
                if not any(v.strip() for v in values):
                    continue
                if len(values) != len(header):
                    raise CSVImportError(f"line {reader.line_num}",
                                         f"{len(values)} values, the header has {len(header)}")
                d = {cols[i]: v for i, v in enumerate(values)}
                rows.append((d.get("name"), d.get("name_latin", ""), d.get("club", ""),
                             d.get("status", "") or "active"))
                lines.append(reader.line_num)
        except csv.Error as e:
            raise CSVImportError(f"line {reader.line_num}", f"not readable as CSV: {e}") from None
        if not rows:
            raise CSVImportError("file", "no players listed under the header")
        if skip_existing:
            existing = {p.name for p in self.players()}
            keep = [i for i, r in enumerate(rows)
                    if not (isinstance(r[0], str) and r[0].strip() in existing)]
            rows, lines = [rows[i] for i in keep], [lines[i] for i in keep]
            if not rows:
                return []
        try:
            return self._add_players(rows, referee, [f"line {n}, " for n in lines])
        except StorageError as e:
            raise CSVImportError(e.field, e.problem) from None

    # ------------------------------------------------------------------ seating

    def _seats(self) -> tuple[str, ...]:
        return tuple(get_ruleset(self._ruleset_id()).seats)

    def _ruleset_id(self) -> str:
        return json.loads(self.db.execute("SELECT value FROM meta WHERE key='ruleset'")
                          .fetchone()[0])

    def rounds(self) -> list[RoundInfo]:
        out = []
        for (n,) in self.db.execute("SELECT number FROM rounds ORDER BY number").fetchall():
            s = self.seating(n)
            hands = self.db.execute("SELECT COUNT(*) FROM hands WHERE round=?", (n,)).fetchone()[0]
            out.append(RoundInfo(n, len(s.tables), len(s.assignments), s.byes, hands))
        return out

    def _met_before(self, before_round: int) -> tuple[Counter[tuple[int, int]],
                                                      dict[int, Counter[str]]]:
        rows = self.db.execute("SELECT round, table_no, seat, player_id FROM seats WHERE round<?",
                               (before_round,)).fetchall()
        tables: dict[tuple[int, int], list[int]] = defaultdict(list)
        seat_counts: dict[int, Counter[str]] = defaultdict(Counter)
        for rnd, tbl, seat, pid in rows:
            tables[(rnd, tbl)].append(pid)
            seat_counts[pid][seat] += 1
        met: Counter[tuple[int, int]] = Counter()
        for ps in tables.values():
            for i, a in enumerate(ps):
                for b in ps[i + 1:]:
                    met[seating_mod.pair(a, b)] += 1
        return met, seat_counts

    def seat_round(self, number: int, *, seed: int | None = None, fill: str | None = None,
                   referee: str = "", replace_existing: bool = False) -> Seating:
        """Generate and save round ``number``'s seating.

        Round 1 is a seeded shuffle; later rounds minimise repeat opponents, then balance
        seats. When the seatable players do not fill whole tables, ``fill`` decides:
        ``"byes"`` (the players with the fewest byes so far sit out) or ``"substitutes"``
        (players registered with status substitute fill the empty seats).
        """
        number = _positive_int(number, "round")
        seats = self._seats()
        size = len(seats)
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError("round", f"round {number} is already seated (edit seats, or "
                               "re-seat with replace_existing / --replace)")
        if exists and self._has_live_hands(number):
            raise SeatingError("round", f"round {number} already has hands entered; "
                               "it cannot be re-seated (edit single seats instead)")
        if number > 1 and not self.db.execute("SELECT 1 FROM rounds WHERE number=?",
                                              (number - 1,)).fetchone():
            raise SeatingError("round", f"round {number - 1} is not seated yet")
        seatable = [p for p in self.players()
                    if p.status in (PlayerStatus.ACTIVE, PlayerStatus.LATE)]
        subs = [p for p in self.players() if p.status is PlayerStatus.SUBSTITUTE]
        if not seatable:
            raise SeatingError("players", "no active players registered")
        if seed is None:
            seed = random.SystemRandom().randrange(1, 2**31)
        rng = random.Random(seed)
        byes: list[Player] = []
        extra = len(seatable) % size
        if extra:
            missing = size - extra
            if fill is None:
                raise SeatingError(
                    "players",
                    f"{len(seatable)} active players do not fill tables of {size}: choose "
                    f"byes ({extra} player(s) sit out this round; fill='byes', "
                    f"CLI --fill byes) or substitutes ({missing} substitute(s) needed, "
                    f"{len(subs)} registered; fill='substitutes', CLI --fill substitutes)")
            if fill == "byes":
                counts = Counter(pid for (pid,) in self.db.execute(
                    "SELECT player_id FROM byes").fetchall())
                order = sorted(seatable, key=lambda p: (counts[p.id], rng.random()))
                byes = order[:extra]
                seatable = [p for p in seatable if p not in byes]
            elif fill == "substitutes":
                if len(subs) < missing:
                    raise SeatingError("fill", f"{missing} substitute(s) needed, only "
                                       f"{len(subs)} registered with status substitute")
                seatable = seatable + subs[:missing]
            else:
                raise SeatingError("fill", f"unknown option {fill!r} (byes or substitutes)")
        met, seat_counts = self._met_before(number)
        tables = seating_mod.generate([p.id for p in seatable], seats, seed=seed, met=met,
                                      seat_counts=seat_counts)
        rows = [(t, s, pid) for t, ps in enumerate(tables, start=1)
                for s, pid in zip(seats, ps, strict=True)]
        return self._write_round(number, rows, [p.id for p in byes], seed=seed,
                                 referee=referee, replace_existing=replace_existing,
                                 action="round.seat", detail={"seed": seed, "fill": fill})

    def set_seating(self, number: int, tables: Mapping[int, Mapping[str, PlayerRef]], *,
                    byes: Sequence[PlayerRef] = (), referee: str = "",
                    replace_existing: bool = False) -> Seating:
        """Save a manual seating for a whole round (validated: no empty seat, nobody twice,
        no withdrawn player)."""
        number = _positive_int(number, "round")
        seats = self._seats()
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError("round", f"round {number} is already seated")
        if exists and self._has_live_hands(number):
            raise SeatingError("round", f"round {number} already has hands entered")
        rows: list[tuple[int, str, int]] = []
        where: dict[int, str] = {}
        for t in sorted(tables):
            _positive_int(t, "table")
            row = tables[t]
            for s in row:
                if s not in seats:
                    raise SeatingError(f"table {t}.{s}", f"unknown seat (seats are "
                                       f"{', '.join(seats)})")
            for s in seats:
                if row.get(s) in (None, ""):
                    raise SeatingError(f"table {t}.{s}", "seat is empty")
                pid = self._player_id(row[s], f"table {t}.{s}")
                self._check_seatable(pid, f"table {t}.{s}")
                if pid in where:
                    raise SeatingError(f"table {t}.{s}", f"{self.player(pid).name} is already "
                                       f"seated at {where[pid]}")
                where[pid] = f"table {t} {s}"
                rows.append((t, s, pid))
        bye_ids = [self._player_id(b, "byes") for b in byes]
        for b in bye_ids:
            if b in where:
                raise SeatingError("byes", f"{self.player(b).name} is seated at {where[b]}")
        return self._write_round(number, rows, bye_ids, seed=None, referee=referee,
                                 replace_existing=replace_existing,
                                 action="round.set_seating", detail={})

    def _write_round(self, number: int, rows: list[tuple[int, str, int]], bye_ids: list[int],
                     *, seed: int | None, referee: str, replace_existing: bool, action: str,
                     detail: dict[str, Any]) -> Seating:
        """Save a round's seats and byes in one transaction (replacing it when allowed)."""
        at = dbm.now()
        with dbm.write_transaction(self.db):
            exists = self._check_round_free(number, replace_existing)
            if exists:
                self.db.execute("DELETE FROM seats WHERE round=?", (number,))
                self.db.execute("DELETE FROM byes WHERE round=?", (number,))
                self.db.execute("DELETE FROM rounds WHERE number=?", (number,))
            self.db.execute("INSERT INTO rounds(number, seed, created_at, created_by) "
                            "VALUES (?,?,?,?)", (number, seed, at, referee))
            for t, s, pid in rows:
                self.db.execute("INSERT INTO seats(round, table_no, seat, player_id) "
                                "VALUES (?,?,?,?)", (number, t, s, pid))
            for b in bye_ids:
                self.db.execute("INSERT INTO byes(round, player_id) VALUES (?,?)", (number, b))
            self._log(referee, action, {"round": number, **detail, "replaced": bool(exists)},
                      at)
        self._saved()
        return self.seating(number)

    def _has_live_hands(self, number: int, table: int | None = None) -> bool:
        """Hands that still count (not void) fix the seats they were played in."""
        q = "SELECT 1 FROM hands WHERE round=? AND status<>'void'"
        params: list[Any] = [number]
        if table is not None:
            q += " AND table_no=?"
            params.append(table)
        return self.db.execute(q, params).fetchone() is not None

    def _check_round_free(self, number: int, replace_existing: bool) -> bool:
        """Inside the write transaction: is the round seated (and may it be replaced)?"""
        exists = self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone()
        if exists and not replace_existing:
            raise SeatingError("round", f"round {number} is already seated")
        return exists is not None

    def _check_seatable(self, pid: int, field: str) -> None:
        p = self.player(pid)
        if p.status is PlayerStatus.WITHDRAWN:
            raise SeatingError(field, f"{p.name} has withdrawn and cannot be seated")

    def set_seat(self, number: int, table: int, seat: str, player: PlayerRef, *,
                 referee: str = "") -> Seating:
        """Put ``player`` in one seat. If the player sits elsewhere this round, the two swap
        seats (so nobody is ever at two tables); a player on a bye simply takes the seat and
        the previous occupant takes the bye."""
        number = _positive_int(number, "round")
        table = _positive_int(table, "table")
        seats = self._seats()
        if seat not in seats:
            raise SeatingError("seat", f"unknown seat {seat!r} (seats are {', '.join(seats)})")
        if not self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone():
            raise SeatingError("round", f"round {number} is not seated yet")
        pid = self._player_id(player, "player")
        self._check_seatable(pid, "player")
        cur = self.db.execute("SELECT player_id FROM seats WHERE round=? AND table_no=? AND "
                              "seat=?", (number, table, seat)).fetchone()
        if cur is None:
            raise SeatingError("table", f"round {number} has no table {table}")
        old_pid = cur[0]
        if old_pid == pid:
            return self.seating(number)
        other = self.db.execute("SELECT table_no, seat FROM seats WHERE round=? AND player_id=?",
                                (number, pid)).fetchone()
        touched = {table} | ({other[0]} if other else set())
        for t in touched:
            if self._has_live_hands(number, t):
                raise SeatingError("table", f"table {t} of round {number} already has hands "
                                   "entered; void them before changing its seats")
        at = dbm.now()
        with dbm.write_transaction(self.db):
            self.db.execute("DELETE FROM seats WHERE round=? AND table_no=? AND seat=?",
                            (number, table, seat))
            if other:
                self.db.execute("UPDATE seats SET player_id=? WHERE round=? AND table_no=? "
                                "AND seat=?", (old_pid, number, other[0], other[1]))
            else:
                self.db.execute("DELETE FROM byes WHERE round=? AND player_id=?", (number, pid))
                self.db.execute("INSERT OR IGNORE INTO byes(round, player_id) VALUES (?,?)",
                                (number, old_pid))
            self.db.execute("INSERT INTO seats(round, table_no, seat, player_id) VALUES "
                            "(?,?,?,?)", (number, table, seat, pid))
            self._log(referee, "round.set_seat", {"round": number, "table": table, "seat": seat,
                                                  "player_id": pid, "replaced": old_pid}, at)
        self._saved()
        return self.seating(number)

    def seating(self, number: int) -> Seating:
        """A round's seating (empty when the round is not seated)."""
        rows = self.db.execute(
            "SELECT s.table_no, s.seat, s.player_id, p.name FROM seats s JOIN players p "
            "ON p.id=s.player_id WHERE s.round=?", (number,)).fetchall()
        seats = self._seats()
        order = {s: i for i, s in enumerate(seats)}
        rows.sort(key=lambda r: (r[0], order.get(r[1], 99)))
        assignments = tuple(SeatAssignment(number, r[0], r[1], r[2], r[3]) for r in rows)
        byes = tuple(r[0] for r in self.db.execute(
            "SELECT p.name FROM byes b JOIN players p ON p.id=b.player_id WHERE b.round=? "
            "ORDER BY p.id", (number,)).fetchall())
        met, _ = self._met_before(number)
        tables: dict[int, list[int]] = defaultdict(list)
        for a in assignments:
            tables[a.table].append(a.player_id)
        return Seating(number, seats, assignments, byes,
                       seating_mod.repeat_pairs(list(tables.values()), met))

    def seating_problems(self, number: int) -> list[str]:
        """Problems with a round's seating as it stands (withdrawn player seated, …)."""
        s = self.seating(number)
        out = []
        for t, row in s.tables.items():
            for seat in s.seats:
                if seat not in row:
                    out.append(f"table {t} {seat}: seat is empty")
        for a in s.assignments:
            if self.player(a.player_id).status is PlayerStatus.WITHDRAWN:
                out.append(f"table {a.table} {a.seat}: {a.player} has withdrawn")
        return out

    # ------------------------------------------------------------------ hands: writing

    def _table_seats(self, number: int, table: int) -> dict[str, tuple[int, str]]:
        rows = self.db.execute(
            "SELECT s.seat, s.player_id, p.name FROM seats s JOIN players p ON p.id=s.player_id "
            "WHERE s.round=? AND s.table_no=?", (number, table)).fetchall()
        if not rows:
            if not self.db.execute("SELECT 1 FROM rounds WHERE number=?", (number,)).fetchone():
                raise SeatingError("round", f"round {number} is not seated yet "
                                   f"(referee-app round seat {number})")
            n = self.db.execute("SELECT MAX(table_no) FROM seats WHERE round=?",
                                (number,)).fetchone()[0]
            raise SeatingError("table", f"round {number} has no table {table} (tables 1-{n})")
        return {r[0]: (r[1], r[2]) for r in rows}

    @staticmethod
    def _as_record(record: HandRecord | Mapping[str, Any] | str) -> HandRecord:
        if isinstance(record, HandRecord):
            return record
        if isinstance(record, str):
            return HandRecord.from_json(record)
        return HandRecord.from_dict(dict(record))

    def _match(self, rec: HandRecord, number: int, table: int) -> tuple[HandRecord, dict[str, int]]:
        """Fill/verify each seat's player against the seating; returns record and seat->id."""
        seated = self._table_seats(number, table)
        by_id = {pid: s for s, (pid, _) in seated.items()}
        filled = []
        ids: dict[str, int] = {}
        for sh in rec.seats:
            if sh.seat not in seated:
                raise SeatMismatchError(f"seats.{sh.seat}", f"no player is seated at "
                                        f"{sh.seat} of table {table} in round {number}")
            pid, name = seated[sh.seat]
            if sh.player not in (None, ""):
                try:
                    named = self._player_id(sh.player, f"seats.{sh.seat}.player")
                except UnknownPlayerError as e:
                    raise SeatMismatchError(e.field, f"{e.problem}; table {table} of round "
                                            f"{number}: " + ", ".join(
                                                f"{s} {seated[s][1]}" for s in seated)) from None
                if named != pid:
                    where = (f"sits at {by_id[named]} of this table" if named in by_id
                             else f"is not seated at table {table} in round {number}")
                    raise SeatMismatchError(f"seats.{sh.seat}.player",
                                            f"{sh.player!r} {where}; {sh.seat} is {name}")
            filled.append(replace(sh, player=name))
            ids[sh.seat] = pid
        return replace(rec, seats=tuple(filled)), ids

    def _seat_values(self, rec: HandRecord, s: Settlement, ids: Mapping[str, int],
                     totals: Mapping[str, int], counted: bool) -> list[tuple[Any, ...]]:
        wins = {w.seat: w for w in s.wins}
        claimed: dict[str, WinEvent] = {}
        discards: Counter[str] = Counter()
        for ev in rec.events:
            if isinstance(ev, WinEvent):
                for seat in ev.seats:
                    claimed.setdefault(seat, ev)
                if ev.from_seat is not None:
                    discards[ev.from_seat] += 1
        pigs = set(s.end_check.flower_pigs) if s.end_check and s.end_check.applies else set()
        out = []
        for sh in rec.seats:
            seat = sh.seat
            if not counted:
                out.append((seat, ids[seat], 0, 0, 0, 0, 0, 0, 0))
                continue
            w = wins.get(seat)
            ev = claimed.get(seat)
            won = 1 if (w is not None or (not s.ok and ev is not None)) else 0
            self_drawn = 1 if won and ev is not None and ev.from_seat is None else 0
            out.append((seat, ids[seat], 1, int(totals.get(seat, 0)), won, self_drawn,
                        discards[seat], 1 if seat in pigs else 0, w.fan if w else 0))
        return out

    def _check_head_referee(self, referee: str, override: str | None) -> None:
        """An override is the head referee's ruling: when the tournament names a head
        referee, only that referee may record one (issue 3; the name is what is signed)."""
        head = self.info.head_referee
        if override and head and referee != head:
            who = f"referee {referee!r}" if referee else "no referee was named"
            raise StorageError("referee", f"only the head referee ({head}) may record a hand "
                               f"that breaks the rules; {who} (give the head referee's name)")

    def _check_override(self, s: Settlement, seats: Sequence[str], override_reason: str | None,
                        override_totals: Mapping[str, int] | None) -> dict[str, int]:
        """The chips a version counts: the settlement's, or the head referee's override."""
        reason = _text(override_reason, "override_reason") or None
        if override_totals is not None:
            if reason is None:
                raise StorageError("override_totals", "needs an override_reason")
            ot = dict(override_totals)
            for k, v in ot.items():
                if k not in seats:
                    raise StorageError(f"override_totals.{k}", "unknown seat")
                if isinstance(v, bool) or not isinstance(v, int):
                    raise StorageError(f"override_totals.{k}", f"expected whole chips, got {v!r}")
            if sum(ot.values()) != 0:
                raise StorageError("override_totals", f"must sum to 0, sums to {sum(ot.values())}")
            return {seat: int(ot.get(seat, 0)) for seat in seats}
        if not s.ok:
            if reason is None:
                problems = "; ".join(f"{e.clause} {e.seat or '-'}: {e.message}" for e in s.errors)
                raise HandRuleError("record", f"breaks the rules ({problems}); a head referee "
                                    "may record it with an override reason", s.errors)
            return {seat: 0 for seat in seats}
        if reason is not None:
            raise StorageError("override_reason", "the record breaks no rule; nothing to "
                               "override (give override_totals to overrule the chips)")
        return {seat: int(s.totals.get(seat, 0)) for seat in seats}

    def _insert_version(self, hand_id: int, version: int, action: VersionAction,
                        status: HandStatus, rec: HandRecord, s: Settlement,
                        ids: Mapping[str, int], totals: Mapping[str, int], *, referee: str,
                        at: str, reason: str | None, override_reason: str | None,
                        override_totals: Mapping[str, int] | None) -> None:
        counted = status is not HandStatus.VOID
        self.db.execute(
            "INSERT INTO hand_versions(hand_id, version, action, status, record, settlement, ok, "
            "override_reason, override_totals, reason, referee, at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            (hand_id, version, action.value, status.value, _dump(rec.to_dict()),
             _dump(s.to_dict()), int(s.ok), override_reason,
             _dump(dict(override_totals)) if override_totals is not None else None,
             reason, referee, at))
        for row in self._seat_values(rec, s, ids, totals, counted):
            self.db.execute(
                "INSERT INTO hand_seats(hand_id, version, seat, player_id, counted, chips, won, "
                "self_drawn, discards_paid, flower_pig, win_fan) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
                (hand_id, version, *row))
        self.db.execute("UPDATE hands SET current_version=?, status=? WHERE id=?",
                        (version, status.value, hand_id))

    def _prepare(self, record: HandRecord | Mapping[str, Any] | str, number: int, table: int,
                 hand_no: int, override_reason: str | None,
                 override_totals: Mapping[str, int] | None
                 ) -> tuple[HandRecord, Settlement, dict[str, int], dict[str, int]]:
        rec = self._as_record(record)
        ruleset = self._ruleset_id()
        if rec.ruleset != ruleset:
            raise StorageError("ruleset", f"the record is {rec.ruleset!r}; this tournament "
                               f"plays {ruleset!r}")
        for key, want in (("round", number), ("table", table), ("hand_no", hand_no)):
            got = rec.extra.get(key)
            if got is not None and got != want and str(got) != str(want):
                raise StorageError(key, f"the record says {got!r} but it is being saved as "
                                   f"{want!r}")
        rec, ids = self._match(rec, number, table)
        rec = replace(rec, extra={**rec.extra, "round": number, "table": table,
                                  "hand_no": hand_no})
        s = settle(rec, self.rules())
        totals = self._check_override(s, [sh.seat for sh in rec.seats], override_reason,
                                      override_totals)
        return rec, s, ids, totals

    def add_hand(self, record: HandRecord | Mapping[str, Any] | str, *, round: int, table: int,
                 hand_no: int, referee: str = "", override_reason: str | None = None,
                 override_totals: Mapping[str, int] | None = None) -> HandInfo:
        """Validate, settle and save a finished hand (one transaction); returns it.

        Refused: an unreadable record (RecordError), another ruleset, a player not seated
        there (SeatMismatchError), a used hand number (DuplicateHandError), a rule-breaking
        record without ``override_reason`` (HandRuleError listing the engine's errors).
        """
        number = _positive_int(round, "round")
        table = _positive_int(table, "table")
        hand_no = _positive_int(hand_no, "hand_no")
        referee = _text(referee, "referee")
        rec, s, ids, totals = self._prepare(record, number, table, hand_no, override_reason,
                                            override_totals)
        if not referee and isinstance(rec.extra.get("referee"), str):
            referee = rec.extra["referee"].strip()  # hand-format.md's optional field
        override = _text(override_reason, "override_reason") or None
        self._check_head_referee(referee, override)
        at = dbm.now()
        with dbm.write_transaction(self.db):
            dup = self.db.execute("SELECT id FROM hands WHERE round=? AND table_no=? AND "
                                  "hand_no=?", (number, table, hand_no)).fetchone()
            if dup:
                raise DuplicateHandError("hand_no", f"hand {hand_no} of table {table} in round "
                                         f"{number} is already saved as hand id {dup[0]}; "
                                         "amend or void it instead")
            cur = self.db.execute("INSERT INTO hands(round, table_no, hand_no, current_version, "
                                  "status) VALUES (?,?,?,?,?)",
                                  (number, table, hand_no, 1, HandStatus.ENTERED.value))
            hand_id = int(cur.lastrowid or 0)
            self._insert_version(hand_id, 1, VersionAction.ENTERED, HandStatus.ENTERED, rec, s,
                                 ids, totals, referee=referee, at=at, reason=None,
                                 override_reason=override, override_totals=override_totals)
            self._log(referee, "hand.add", {"hand_id": hand_id, "round": number, "table": table,
                                            "hand_no": hand_no, "override": override}, at)
            result = self.hand(hand_id)  # read inside the transaction: exactly what we wrote
        self._saved()
        return result

    def _current(self, hand_id: int) -> tuple[int, int, int, int, str]:
        if isinstance(hand_id, bool) or not isinstance(hand_id, int):
            raise UnknownHandError("hand_id", f"expected a hand id number, got {hand_id!r}")
        r = self.db.execute("SELECT round, table_no, hand_no, current_version, status FROM hands "
                            "WHERE id=?", (hand_id,)).fetchone()
        if r is None:
            raise UnknownHandError("hand_id", f"no hand with id {hand_id}")
        return r[0], r[1], r[2], r[3], r[4]

    def amend_hand(self, hand_id: int, record: HandRecord | Mapping[str, Any] | str, *,
                   reason: str, referee: str = "", override_reason: str | None = None,
                   override_totals: Mapping[str, int] | None = None) -> HandInfo:
        """Correct a hand: a new version with its reason; the old versions stay."""
        reason = _text(reason, "reason", required=True)
        referee = _text(referee, "referee")
        number, table, hand_no, _, _ = self._current(hand_id)
        rec, s, ids, totals = self._prepare(record, number, table, hand_no, override_reason,
                                            override_totals)
        override = _text(override_reason, "override_reason") or None
        self._check_head_referee(referee, override)
        at = dbm.now()
        with dbm.write_transaction(self.db):
            _, _, _, version, _ = self._current(hand_id)
            self._insert_version(hand_id, version + 1, VersionAction.AMENDED, HandStatus.ENTERED,
                                 rec, s, ids, totals, referee=referee, at=at, reason=reason,
                                 override_reason=override, override_totals=override_totals)
            self._log(referee, "hand.amend", {"hand_id": hand_id, "version": version + 1,
                                              "reason": reason}, at)
            result = self.hand(hand_id)
        self._saved()
        return result

    def _copy_version(self, hand_id: int, action: VersionAction, status: HandStatus,
                      referee: str, reason: str | None) -> HandInfo:
        at = dbm.now()
        with dbm.write_transaction(self.db):
            number, table, _, version, _ = self._current(hand_id)
            prev = self._versions(hand_id, version)[0]
            rec = HandRecord.from_dict(prev.record)
            s = settle(rec, self.rules())
            _, ids = self._match(rec, number, table)
            totals = prev.override_totals if prev.override_totals is not None else (
                {seat: int(s.totals.get(seat, 0)) for seat in ids} if s.ok
                else {seat: 0 for seat in ids})
            self._insert_version(hand_id, version + 1, action, status, rec, s, ids, totals,
                                 referee=referee, at=at, reason=reason,
                                 override_reason=prev.override_reason,
                                 override_totals=prev.override_totals)
            self._log(referee, f"hand.{action.value}", {"hand_id": hand_id,
                                                        "version": version + 1,
                                                        "status": status.value,
                                                        "reason": reason}, at)
            result = self.hand(hand_id)
        self._saved()
        return result

    def void_hand(self, hand_id: int, *, reason: str, referee: str = "") -> HandInfo:
        """Void a hand: it stays listed (as void) and counts nothing."""
        reason = _text(reason, "reason", required=True)
        _, _, _, _, status = self._current(hand_id)
        if status == HandStatus.VOID.value:
            raise StorageError("hand_id", f"hand {hand_id} is already void")
        return self._copy_version(hand_id, VersionAction.VOIDED, HandStatus.VOID,
                                  _text(referee, "referee"), reason)

    def set_status(self, hand_id: int, status: HandStatus | str, *, referee: str = "",
                   reason: str | None = None) -> HandInfo:
        """Mark a hand verified (or back to entered); un-voiding needs a reason."""
        try:
            st = HandStatus(status)
        except ValueError:
            raise StorageError("status", f"unknown status {status!r} (entered, verified, "
                               "void)") from None
        _, _, _, _, cur = self._current(hand_id)
        if st is HandStatus.VOID:
            return self.void_hand(hand_id, reason=reason or "", referee=referee)
        if cur == st.value:
            raise StorageError("status", f"hand {hand_id} is already {st.value}")
        action = VersionAction.STATUS
        if cur == HandStatus.VOID.value:
            reason = _text(reason, "reason", required=True)
            action = VersionAction.RESTORED
        return self._copy_version(hand_id, action, st, _text(referee, "referee"), reason)

    # ------------------------------------------------------------------ hands: reading

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
        rows = self._hand_rows("WHERE h.round=? AND h.table_no=? AND h.hand_no=?",
                               (round, table, hand_no))
        return rows[0] if rows else None

    def hands(self, *, round: int | None = None, table: int | None = None,
              status: HandStatus | str | None = None) -> list[HandInfo]:
        """Current versions, ordered by round, table, hand number (void ones included)."""
        conds, params = [], []
        if round is not None:
            conds.append("h.round=?")
            params.append(round)
        if table is not None:
            conds.append("h.table_no=?")
            params.append(table)
        if status is not None:
            conds.append("h.status=?")
            params.append(HandStatus(status).value)
        where = ("WHERE " + " AND ".join(conds) + " ") if conds else ""
        return self._hand_rows(where + "ORDER BY h.round, h.table_no, h.hand_no", params)

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
        r = self.db.execute(
            "SELECT v.record FROM hands h JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version WHERE h.round=? AND h.table_no=? AND h.status<>'void' "
            "ORDER BY h.hand_no DESC LIMIT 1", (round, table)).fetchone()
        if r is None:
            return seats[0]
        rec = HandRecord.from_dict(json.loads(r[0]))
        return core_next_dealer(rec, settle(rec, self.rules())) or rec.dealer

    # ------------------------------------------------------------------ penalties

    def add_penalty(self, players: Sequence[PlayerRef] | PlayerRef, chips: int, reason: str, *,
                    clause: str | None = None, referee: str = "", zero_sum: bool = False,
                    round: int | None = None) -> Penalty:
        """Take ``chips`` from each named player (negative chips: a credit/adjustment).

        ``zero_sum``: each penalised player pays ``chips`` to each other player at their
        table in ``round`` (required), so the tournament total stays zero. Otherwise it is
        a deduction. Counted in the standings (in that round's column when a round is given).
        """
        if isinstance(players, str | int):
            players = [players]
        if not players:
            raise PenaltyError("players", "name at least one player")
        if isinstance(chips, bool) or not isinstance(chips, int) or chips == 0:
            raise PenaltyError("chips", f"expected a non-zero whole number, got {chips!r}")
        reason = _text(reason, "reason", required=True)
        clause = _text(clause, "clause") or None
        referee = _text(referee, "referee")
        ids = []
        for i, p in enumerate(players):
            pid = self._player_id(p, f"players[{i}]")
            if pid in ids:
                raise PenaltyError(f"players[{i}]", f"{p!r} is listed twice")
            ids.append(pid)
        if round is not None:
            round = _positive_int(round, "round")
        entries: Counter[int] = Counter()
        if zero_sum:
            if round is None:
                raise PenaltyError("round", "a zero-sum penalty needs the round (its chips go "
                                   "to the player's tablemates in that round)")
            for i, pid in enumerate(ids):
                r = self.db.execute("SELECT table_no FROM seats WHERE round=? AND player_id=?",
                                    (round, pid)).fetchone()
                if r is None:
                    raise PenaltyError(f"players[{i}]", f"{self.player(pid).name} is not seated "
                                       f"in round {round}")
                mates = [m for (m,) in self.db.execute(
                    "SELECT player_id FROM seats WHERE round=? AND table_no=? AND player_id<>?",
                    (round, r[0], pid)).fetchall()]
                entries[pid] -= chips * len(mates)
                for m in mates:
                    entries[m] += chips
        else:
            for pid in ids:
                entries[pid] -= chips
        at = dbm.now()
        with dbm.write_transaction(self.db):
            cur = self.db.execute(
                "INSERT INTO penalties(players, chips, reason, clause, referee, at, zero_sum, "
                "round) VALUES (?,?,?,?,?,?,?,?)",
                (_dump(ids), chips, reason, clause, referee, at, int(zero_sum), round))
            pen_id = int(cur.lastrowid or 0)
            for pid, c in entries.items():
                if c:
                    self.db.execute("INSERT INTO penalty_entries(penalty_id, player_id, chips) "
                                    "VALUES (?,?,?)", (pen_id, pid, c))
            self._log(referee, "penalty.add", {"penalty_id": pen_id, "players": ids,
                                               "chips": chips, "reason": reason}, at)
        self._saved()
        return self.penalty(pen_id)

    def void_penalty(self, penalty_id: int, *, reason: str, referee: str = "") -> Penalty:
        """Cancel a penalty: it stays listed (void) and counts nothing."""
        reason = _text(reason, "reason", required=True)
        p = self.penalty(penalty_id)
        if p.void:
            raise PenaltyError("penalty_id", f"penalty {penalty_id} is already void")
        at = dbm.now()
        with dbm.write_transaction(self.db):
            self.db.execute("INSERT INTO penalty_voids(penalty_id, reason, referee, at) VALUES "
                            "(?,?,?,?)", (penalty_id, reason, _text(referee, "referee"), at))
            self._log(referee, "penalty.void", {"penalty_id": penalty_id, "reason": reason}, at)
        self._saved()
        return self.penalty(penalty_id)

    def penalty(self, penalty_id: int) -> Penalty:
        rows = self.penalties(_only=penalty_id)
        if not rows:
            raise PenaltyError("penalty_id", f"no penalty with id {penalty_id}")
        return rows[0]

    def penalties(self, *, player: PlayerRef | None = None, _only: int | None = None
                  ) -> list[Penalty]:
        names = {p.id: p.name for p in self.players()}
        q = ("SELECT p.id, p.players, p.chips, p.reason, p.clause, p.referee, p.at, p.zero_sum, "
             "p.round, v.reason FROM penalties p LEFT JOIN penalty_voids v ON "
             "v.penalty_id=p.id")
        params: list[Any] = []
        if _only is not None:
            q += " WHERE p.id=?"
            params.append(_only)
        entries: dict[int, dict[str, int]] = defaultdict(dict)
        for pen, pid, c in self.db.execute("SELECT penalty_id, player_id, chips FROM "
                                           "penalty_entries").fetchall():
            entries[pen][names[pid]] = c
        out = []
        for r in self.db.execute(q + " ORDER BY p.id", params).fetchall():
            out.append(Penalty(r[0], tuple(names[i] for i in json.loads(r[1])), r[2], r[3], r[4],
                               r[5], r[6], bool(r[7]), r[8], entries[r[0]], r[9] is not None,
                               r[9]))
        if player is not None:
            name = self.player(player).name
            out = [p for p in out if name in p.entries]
        return out

    # ------------------------------------------------------------------ standings

    def standings(self, round: int | None = None, *, through_round: int | None = None,
                  include_substitutes: bool = False) -> list[StandingRow]:
        """The leaderboard, recomputed now from the current version of every hand.

        ``round``: that round only; ``through_round``: rounds 1..N; neither: everything.
        Ranked by the tournament's tie-break order; players still tied share a rank.
        """
        from .standings import compute

        with dbm.read_transaction(self.db):
            players = self.players()
            hand_rows = self.db.execute(
                "SELECT hs.player_id, h.round, SUM(hs.chips), SUM(hs.counted), SUM(hs.won), "
                "SUM(hs.self_drawn), SUM(hs.discards_paid), SUM(hs.flower_pig), MAX(hs.win_fan) "
                "FROM hands h JOIN hand_seats hs ON hs.hand_id=h.id AND "
                "hs.version=h.current_version GROUP BY hs.player_id, h.round").fetchall()
            pen_rows = self.db.execute(
                "SELECT e.player_id, p.round, SUM(e.chips) FROM penalty_entries e JOIN penalties p "
                "ON p.id=e.penalty_id LEFT JOIN penalty_voids v ON v.penalty_id=p.id "
                "WHERE v.penalty_id IS NULL GROUP BY e.player_id, p.round").fetchall()
            tie_break = self.info.tie_break
        return compute(players, hand_rows, pen_rows, tie_break, round=round,
                       through_round=through_round, include_substitutes=include_substitutes)

    def player_statement(self, player: PlayerRef) -> PlayerStatement:
        """Every hand and penalty of one player, each hand with its payments and clauses."""
        p = self.player(player)
        rows = self.db.execute(
            "SELECT h.id, h.round, h.table_no, h.hand_no, hs.seat, hs.chips, h.status, "
            "v.settlement, v.override_reason FROM hand_seats hs JOIN hands h ON h.id=hs.hand_id "
            "AND hs.version=h.current_version JOIN hand_versions v ON v.hand_id=h.id AND "
            "v.version=h.current_version WHERE hs.player_id=? ORDER BY h.round, h.table_no, "
            "h.hand_no", (p.id,)).fetchall()
        lines = []
        total = 0
        for hid, rnd, tbl, hno, seat, chips, status, sjson, override in rows:
            st = json.loads(sjson)
            detail = tuple(
                f"{pay['clause']} {'+' if pay['to'] == seat else '-'}{pay['chips']} "
                f"{'from ' + pay['from'] if pay['to'] == seat else 'to ' + pay['to']}: "
                f"{pay['reason']}"
                for pay in st.get("payments", []) if seat in (pay["from"], pay["to"]))
            flags = tuple(f for f, on in (("void", status == "void"),
                                          ("override", override is not None)) if on)
            if override is not None:
                detail += (f"override: {override}",)
            lines.append(StatementLine(rnd, tbl, hno, hid, seat, chips, detail, flags))
            total += chips
        for pen in self.penalties(player=p.id):
            c = 0 if pen.void else pen.entries.get(p.name, 0)
            who = ("" if p.name in pen.players
                   else f"share of a zero-sum penalty on {', '.join(pen.players)}: ")
            lines.append(StatementLine(pen.round, None, None, None, None, c,
                                       (f"{pen.clause + ' ' if pen.clause else ''}penalty "
                                        f"#{pen.id}: {who}{pen.reason}",),
                                       ("void",) if pen.void else ("penalty",)))
            total += c
        return PlayerStatement(p, tuple(lines), total)

    # ------------------------------------------------------------------ files

    def export_bundle(self, path: str | Path | None = None) -> dict[str, Any]:
        """The whole tournament as one JSON document (written to ``path`` if given)."""
        from .bundle import export_bundle

        return export_bundle(self, path)

    @classmethod
    def import_bundle(cls, bundle: str | Path | Mapping[str, Any], db_path: str | Path,
                      **kwargs: Any) -> Tournament:
        """Create ``db_path`` from a bundle; all or nothing (nothing is left on failure)."""
        from .bundle import import_bundle

        return import_bundle(cls, bundle, Path(db_path), **kwargs)

    def export_standings_csv(self, path: str | Path, *, round: int | None = None,
                             through_round: int | None = None) -> Path:
        rows = self.standings(round, through_round=through_round)
        rounds = sorted({r for row in rows for r in row.per_round})
        path = Path(path)
        with open(path, "w", encoding="utf-8-sig", newline="") as f:
            w = csv.writer(f)
            w.writerow(["rank", "player", "club", "status", "chips", "hands", "wins",
                        "self_drawn", "discards_paid", "flower_pigs", "largest_win_fan",
                        "penalties", *[f"round_{n}" for n in rounds]])
            for r in rows:
                w.writerow([r.rank, r.player, r.club, r.status.value, r.chips, r.hands, r.wins,
                            r.self_drawn, r.discards_paid, r.flower_pigs, r.largest_win_fan,
                            r.penalties, *[r.per_round.get(n, 0) for n in rounds]])
        return path

    def export_hands_csv(self, path: str | Path, *, round: int | None = None) -> Path:
        seats = self._seats()
        path = Path(path)
        with open(path, "w", encoding="utf-8-sig", newline="") as f:
            w = csv.writer(f)
            w.writerow(["hand_id", "round", "table", "hand_no", "version", "status", "flags",
                        "dealer", *[f"{s}_player" for s in seats], *[f"{s}_chips" for s in seats],
                        "entered_by", "entered_at", "updated_by", "updated_at"])
            for h in self.hands(round=round):
                w.writerow([h.id, h.round, h.table, h.hand_no, h.version, h.status.value,
                            " ".join(h.flags), h.dealer, *[h.players.get(s, "") for s in seats],
                            *[h.totals.get(s, 0) for s in seats], h.entered_by, h.entered_at,
                            h.updated_by, h.updated_at])
        return path

    def revision(self) -> tuple[int, int]:
        """A cheap token that changes whenever the file changes — by this object or by another
        process (the CLI while the GUI is open). Poll it (e.g. once a second) and refresh
        views when it differs from the last value seen."""
        other = int(self.db.execute("PRAGMA data_version").fetchone()[0])
        return other, self.db.conn.total_changes

    def integrity_check(self) -> str:
        return str(self.db.execute("PRAGMA integrity_check").fetchone()[0])


__all__ = ["Tournament", "RecordError"]
