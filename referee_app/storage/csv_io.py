"""CSV in and out: the entry list in, standings and hands out (UTF-8 with BOM for spreadsheets).

Text cells that a spreadsheet would run as a formula (starting with ``= + - @``, a tab or
a carriage return) are written with a leading ``'`` (OWASP "CSV injection"); the import
removes that guard again, so an exported list re-imports unchanged.

The standard library's :mod:`csv`, not sqlite-utils' CSV facilities: sqlite-utils writes CSV
and JSON from its command line (``sqlite-utils query --csv``) over a table or a query, and its
library has no writer. These files are of computed rows (ranks, a column per round played, a
hand's flags and seats), not of a table, and every text cell passes :func:`guard_cell`; the
file is written whole or not at all (:func:`~.files.atomic_file`). Its reader
(``sqlite_utils.utils.rows_from_file``) yields a dict per row: a header naming a column twice
silently loses one of them, a short row comes padded with ``None``, and no row says its line,
which every error below names.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

from referee_app.core.errors import Message, os_reason
from referee_app.core.input_files import FILE_LIMIT, MIB, InputTooLargeError, read_limited
from referee_app.core.scores import json_number

from .errors import CSVImportError
from .files import atomic_file
from .models import HandInfo, Player, StandingRow, TeamRow

#: first characters that make a spreadsheet cell a formula (OWASP CSV injection)
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def guard_cell(value: Any) -> Any:
    """Text that would run as a formula gets a leading ``'``; numbers stay numbers."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def unguard_cell(value: str) -> str:
    """Undo :func:`guard_cell` on a cell read back from CSV."""
    if value.startswith("'") and value[1:].startswith(FORMULA_START):
        return value[1:]
    return value


def _guarded_writer(f: Any) -> Any:
    w = csv.writer(f)

    class _Writer:
        @staticmethod
        def writerow(row: list[Any]) -> None:
            w.writerow([guard_cell(v) for v in row])

    return _Writer()


#: header names (English, pinyin, Chinese) -> player field
CSV_COLUMNS = {"name": "name", "name_zh": "name", "姓名": "name", "name_latin": "name_latin",
               "latin": "name_latin", "pinyin": "name_latin", "club": "club", "俱乐部": "club",
               "status": "status", "team": "team", "队伍": "team", "队名": "team"}


def at_line(line: int | None, field: str | None = None) -> str:
    """Where in a CSV file: ``line 3`` or ``line 3, name`` (a message, said in the reader's
    words; just ``field`` when there is no line)."""
    if line is None:
        return field or ""
    if field is None:
        return Message.of("csv_line", line=line)
    return Message.of("csv_line_field", line=line, field=field)


def at_column(line: int, column: int) -> str:
    return Message.of("csv_line_column", line=line, column=column)


#: the csv module's reasons for refusing a file (fixed texts), as messages of the catalogue
_CSV_REASONS = {"line contains NUL": "csv_nul"}


def _csv_reason(e: csv.Error) -> Message | str:
    code = _CSV_REASONS.get(str(e))
    return Message.of(code) if code else str(e)


def read_players(source: str | Path | io.TextIOBase
                 ) -> tuple[list[tuple[Any, Any, Any, Any, Any]], list[int]]:
    """The rows of an entry list (header: name[, name_latin, club, status, team]) and the
    line each came from; :meth:`Players.import_csv <.players.Players.import_csv>` registers them."""
    try:
        if isinstance(source, str | Path):  # up to 16 MiB (an entry list is a few KB)
            text = read_limited(source).decode("utf-8-sig")
        else:
            text = source.read(FILE_LIMIT + 1)
            if len(text) > FILE_LIMIT:
                raise InputTooLargeError.of("", "input_too_large", path=str(source),
                                            limit=FILE_LIMIT // MIB)
    except OSError as e:
        raise CSVImportError.of("file", "csv_unreadable", source=str(source),
                                detail=os_reason(e)) from None
    except UnicodeDecodeError:
        raise CSVImportError.of("file", "csv_not_utf8", source=str(source)) from None
    text = text.lstrip("\ufeff")
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except StopIteration:
        raise CSVImportError.of(at_line(1), "csv_empty") from None
    except csv.Error as e:
        raise CSVImportError.of(at_line(1), "not_csv", detail=_csv_reason(e)) from None
    cols: dict[int, str] = {}
    for i, h in enumerate(header):
        key = CSV_COLUMNS.get(h.strip().lower()) or CSV_COLUMNS.get(h.strip())
        if key is None:
            raise CSVImportError.of(at_column(1, i + 1), "csv_unknown_column", got=h)
        if key in cols.values():
            raise CSVImportError.of(at_column(1, i + 1), "csv_column_twice", column=key)
        cols[i] = key
    if "name" not in cols.values():
        raise CSVImportError.of(at_line(1), "csv_no_name_column")
    rows: list[tuple[Any, Any, Any, Any, Any]] = []
    lines: list[int] = []
    try:
        for values in reader:
            if not any(v.strip() for v in values):
                continue
            if len(values) != len(header):
                raise CSVImportError.of(at_line(reader.line_num), "csv_row_length",
                                        values=len(values), header=len(header))
            d = {cols[i]: unguard_cell(v) for i, v in enumerate(values)}
            rows.append((d.get("name"), d.get("name_latin", ""), d.get("club", ""),
                         d.get("status", "") or "active", d.get("team", "")))
            lines.append(reader.line_num)
    except csv.Error as e:
        raise CSVImportError.of(at_line(reader.line_num), "not_csv",
                                detail=_csv_reason(e)) from None
    if not rows:
        raise CSVImportError.of("file", "csv_no_players")
    return rows, lines


#: the entry list's columns as written (the names :data:`CSV_COLUMNS` reads back)
PLAYER_COLUMNS = ("name", "name_latin", "club", "status", "team")


def write_players(path: str | Path, players: list[Player]) -> Path:
    """The entry list, one player a row in id order, in the columns an import reads."""
    path = Path(path)
    with atomic_file(path, encoding="utf-8-sig", newline="") as f:
        w = _guarded_writer(f)
        w.writerow(list(PLAYER_COLUMNS))
        for p in players:
            w.writerow([p.name, p.name_latin, p.club, p.status.value, p.team])
    return path


def write_standings(path: str | Path, rows: list[StandingRow]) -> Path:
    """The standings as a spreadsheet (one column per round played): under placement
    scoring the points first (two decimals at most) and each round's points; once the event
    is cut, each row's stage and what it carried in."""
    placement = any(r.points is not None for r in rows)
    staged = any(r.stage for r in rows)
    rounds = sorted({r for row in rows for r in (row.per_round_points if placement
                                                  else row.per_round)})
    path = Path(path)
    with atomic_file(path, encoding="utf-8-sig", newline="") as f:
        w = _guarded_writer(f)
        w.writerow(["rank", "player", "club", "status", *(["stage", "carried"] if staged else []),
                    *(["points"] if placement else []), "chips", "hands", "wins",
                    "self_drawn", "discards_paid", "flower_pigs", "largest_win_fan",
                    "penalties", *(["point_penalties"] if placement else []),
                    *[f"round_{n}" for n in rounds]])
        for r in rows:  # numbers as numbers (a half or a third to two decimals): a text
            # "-5" would be guarded as a formula ("'-5") and read back as text
            per: dict[int, Any] = r.per_round_points if placement else r.per_round
            w.writerow([r.rank, r.player, r.club, r.status.value,
                        *([r.stage, "" if r.carried is None else json_number(r.carried)]
                          if staged else []),
                        *([json_number(r.points)] if placement else []),
                        json_number(r.chips), r.hands, r.wins, r.self_drawn, r.discards_paid,
                        r.flower_pigs, r.largest_win_fan, r.penalties,
                        *([json_number(r.point_penalties)] if placement else []),
                        *[json_number(per[n]) if n in per else ("" if staged else 0)
                          for n in rounds]])
    return path


def write_team_standings(path: str | Path, rows: list[TeamRow]) -> Path:
    """The team standings as a spreadsheet: the members' sums (the points first under
    placement scoring), one column per round (its points under placement, else chips)."""
    placement = any(r.points is not None for r in rows)
    rounds = sorted({r for row in rows
                     for r in (row.per_round_points if placement else row.per_round)})
    columns = [c for c in rows[0].totals if c != "hand_chips"] if rows else ["chips"]
    path = Path(path)
    with atomic_file(path, encoding="utf-8-sig", newline="") as f:
        w = _guarded_writer(f)
        w.writerow(["rank", "team", "members", *columns, *[f"round_{n}" for n in rounds]])
        for r in rows:  # each round's points under placement scoring, else its chips
            per: dict[int, Any] = r.per_round_points if placement else r.per_round
            w.writerow([r.rank, r.team, ", ".join(r.members),
                        *[json_number(r.totals[c]) for c in columns],
                        *[json_number(per.get(n, 0)) for n in rounds]])
    return path


def write_hands(path: str | Path, seats: tuple[str, ...], hands: list[HandInfo]) -> Path:
    """Every hand's current version, one row each, the seats' players and chips."""
    path = Path(path)
    with atomic_file(path, encoding="utf-8-sig", newline="") as f:
        w = _guarded_writer(f)
        w.writerow(["hand_id", "round", "table", "hand_no", "version", "status", "flags",
                    "dealer", *[f"{s}_player" for s in seats], *[f"{s}_chips" for s in seats],
                    "entered_by", "entered_at", "updated_by", "updated_at"])
        for h in hands:
            w.writerow([h.id, h.round, h.table, h.hand_no, h.version, h.status.value,
                        " ".join(h.flags), h.dealer, *[h.players.get(s, "") for s in seats],
                        *[h.totals.get(s, 0) for s in seats], h.entered_by, h.entered_at,
                        h.updated_by, h.updated_at])
    return path

