"""Players: registration, status and details, and the entry list from CSV (read by
:mod:`.csv_io`)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee_app.core.errors import Message

from . import csv_io
from . import db as dbm
from .checks import MAX_INT, PlayerRef, bad_char, check_text, shown
from .csv_io import at_line
from .errors import (
    CSVImportError,
    DuplicatePlayerError,
    StorageError,
    UnknownPlayerError,
)
from .models import (
    Player,
    PlayerStatus,
)
from .store import Store


class Players:
    """``t.players``: registering players, their status and details, the entry list."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.db = store.db

    @staticmethod
    def _player_row(r: Sequence[Any]) -> Player:
        return Player(id=r[0], name=r[1], name_latin=r[2], club=r[3],
                      status=PlayerStatus(r[4]), registered_at=r[5], team=r[6])

    # reads stay SQL text: they run for every hand saved or shown, and a sqlite-utils
    # ``Table`` read (``get``, ``rows_where``) reads the table's schema again each call
    # (``get`` 0.02 → 0.13 ms measured); the writes below are at a referee's pace
    _PLAYER_COLS = "id, name, name_latin, club, status, registered_at, team"

    def list(self, *, status: PlayerStatus | str | None = None) -> list[Player]:
        rows = self.db.execute(f"SELECT {self._PLAYER_COLS} FROM players ORDER BY id").fetchall()
        out = [self._player_row(r) for r in rows]
        if status is not None:
            out = [p for p in out if p.status is PlayerStatus(status)]
        return out

    def get(self, ref: PlayerRef, field: str = "player") -> Player:
        """A player by id, ``#id``, exact name, or Latin name (case-insensitive)."""
        pid = self.id_of(ref, field)
        r = self.db.execute(f"SELECT {self._PLAYER_COLS} FROM players WHERE id=?",
                            (pid,)).fetchone()
        return self._player_row(r)

    def id_of(self, ref: PlayerRef, field: str) -> int:
        """The id of the player ``ref`` names (as :meth:`get`); ``field`` names it in errors."""
        if isinstance(ref, bool):
            raise UnknownPlayerError.of(field, "bad_player_ref", got=ref)
        if isinstance(ref, int) or (isinstance(ref, str) and ref.startswith("#")
                                    and ref[1:].isdigit()):
            pid = int(ref[1:]) if isinstance(ref, str) else ref
            if pid > MAX_INT:
                raise UnknownPlayerError.of(field, "no_player_id", player_id=shown(pid))
            if self.db.execute("SELECT 1 FROM players WHERE id=?", (pid,)).fetchone():
                return pid
            raise UnknownPlayerError.of(field, "no_player_id", player_id=pid)
        if not isinstance(ref, str):
            raise UnknownPlayerError.of(field, "bad_player_ref", got=ref)
        name = ref.strip()
        if bad_char(name):
            raise UnknownPlayerError.of(field, "player_name_unprintable", got=ref)
        r = self.db.execute("SELECT id FROM players WHERE name=?", (name,)).fetchone()
        if r is None and name:
            rows = self.db.execute("SELECT id FROM players WHERE name_latin<>'' AND "
                                   "lower(name_latin)=lower(?)", (name,)).fetchall()
            if len(rows) == 1:
                r = rows[0]
        if r is None:
            raise UnknownPlayerError.of(field, "unknown_player", got=ref)
        return int(r[0])

    def _validate_player_fields(self, name: Any, name_latin: Any, club: Any, status: Any,
                                team: Any, line: int | None
                                ) -> tuple[str, str, str, PlayerStatus, str]:
        name = check_text(name, at_line(line, "name"), required=True)
        if name.startswith("#"):
            raise StorageError.of(at_line(line, "name"), "name_starts_with_hash", got=name)
        try:
            st = PlayerStatus(status or "active")
        except ValueError:
            raise StorageError.of(at_line(line, "status"), "unknown_player_status", got=status,
                                  choices=[s.value for s in PlayerStatus]) from None
        return (name, check_text(name_latin, at_line(line, "name_latin")),
                check_text(club, at_line(line, "club")), st,
                check_text(team, at_line(line, "team")))

    def add(self, name: str, *, name_latin: str = "", club: str = "",
                   status: PlayerStatus | str = PlayerStatus.ACTIVE,
                   referee: str = "", team: str = "") -> Player:
        """Register a player; the name is what hand records carry and must be unique.
        ``team``: the team the player's results count for in team standings ("": none)."""
        return self._add_many([(name, name_latin, club, status, team)], referee)[0]

    def _add_many(self, rows: Sequence[tuple[Any, Any, Any, Any, Any]], referee: str,
                     lines: Sequence[int] | None = None) -> list[Player]:
        """Validate every row first, then insert all in one transaction (all or nothing).

        ``lines``: each row's line in a CSV file, named in errors (``line 3, name``).
        """
        referee = self.store.authorize(referee, action="registering players")
        existing = {p.name for p in self.list()}
        checked = []
        seen: dict[str, int | None] = {}
        for i, (name, latin, club, status, team) in enumerate(rows):
            line = lines[i] if lines else None
            n, la, cl, st, tm = self._validate_player_fields(name, latin, club, status, team,
                                                             line)
            if n in existing:
                raise DuplicatePlayerError.of(at_line(line, "name"), "duplicate_player", name=n)
            if n in seen:
                first = seen[n]
                if first is not None:
                    raise DuplicatePlayerError.of(at_line(line, "name"), "player_listed_twice_at",
                                                  name=n, first=Message.of("csv_line", line=first))
                raise DuplicatePlayerError.of(at_line(line, "name"), "player_listed_twice", name=n)
            seen[n] = line
            checked.append((n, la, cl, st, tm))
        at = dbm.now()
        ids = []
        with self.store.write():
            players = self.db["players"]
            for n, la, cl, st, tm in checked:
                players.insert({"name": n, "name_latin": la, "club": cl, "status": st.value,
                                "registered_at": at, "team": tm})
                ids.append(players.last_pk)
            self.store.note(referee, "players.add", {"players": [c[0] for c in checked]}, at)
        self.store.saved()
        return [self.get(i) for i in ids]

    def set_status(self, player: PlayerRef, status: PlayerStatus | str, *,
                          referee: str = "", reason: str = "") -> Player:
        """Withdraw, re-activate, mark late entry, substitute or absent (results are kept).

        Absent (check-in: not here) and back to active can go either way as often as the
        day needs; an absent player is not seated by ``round seat``/``round reseat``."""
        referee = self.store.authorize(referee, action="changing a player's status")
        pid = self.id_of(player, "player")
        try:
            st = PlayerStatus(status)
        except ValueError:
            raise StorageError.of("status", "unknown_status", got=status) from None
        at = dbm.now()
        with self.store.write():
            self.db["players"].update(pid, {"status": st.value})
            self.store.note(referee, "players.status", {"player_id": pid, "status": st.value,
                                                  "reason": reason}, at)
        self.store.saved()
        return self.get(pid)

    def update(self, player: PlayerRef, *, referee: str = "", **fields: Any) -> Player:
        """Correct a player's name_latin, club or team (the record name is fixed once hands
        exist). A team is text like a club ("" takes the player out of any team)."""
        referee = self.store.authorize(referee, action="changing a player")
        pid = self.id_of(player, "player")
        allowed = {"name_latin", "club", "name", "team"}
        for k in fields:
            if k not in allowed:
                raise StorageError.of(k, "player_field_fixed")
        if not fields:
            raise StorageError.of("player", "nothing_to_change")
        if "name" in fields:
            new = check_text(fields["name"], "name", required=True)
            if self.db.execute("SELECT 1 FROM hand_seats WHERE player_id=?", (pid,)).fetchone():
                raise StorageError.of("name", "player_name_fixed")
            if self.db.execute("SELECT 1 FROM players WHERE name=? AND id<>?",
                               (new, pid)).fetchone():
                raise DuplicatePlayerError.of("name", "duplicate_player", name=new)
            fields["name"] = new
        at = dbm.now()
        with self.store.write():
            for k, v in fields.items():  # one UPDATE a field: the record's rows as before
                self.db["players"].update(pid, {k: check_text(v, k)})
            self.store.note(referee, "players.update", {"player_id": pid, **fields}, at)
        self.store.saved()
        return self.get(pid)

    def import_csv(self, source: str | Path | io.TextIOBase, *, referee: str = "",
                   skip_existing: bool = False) -> list[Player]:
        """Register players from CSV (header: name[, name_latin, club, status, team]); all or
        nothing.

        ``skip_existing``: rows naming an already registered player are left out (re-importing
        an updated entry list with late entries); otherwise they are an error.
        """
        rows, lines = csv_io.read_players(source)
        if skip_existing:
            existing = {p.name for p in self.list()}
            keep = [i for i, r in enumerate(rows)
                    if not (isinstance(r[0], str) and r[0].strip() in existing)]
            rows, lines = [rows[i] for i in keep], [lines[i] for i in keep]
            if not rows:
                return []
        try:
            return self._add_many(rows, referee, lines)
        except StorageError as e:
            raise CSVImportError.like(e.field, e) from None

    def export_csv(self, path: str | Path) -> Path:
        """The entry list as CSV (the columns :meth:`import_csv` reads, team included), so a
        list exported, corrected in a spreadsheet and imported elsewhere comes back the same."""
        return csv_io.write_players(path, self.list())

    def teams(self) -> dict[str, list[Player]]:
        """Each team (by name, in name order) and its players (in id order); players without
        a team are in none."""
        out: dict[str, list[Player]] = {}
        for p in self.list():
            if p.team:
                out.setdefault(p.team, []).append(p)
        return dict(sorted(out.items()))
