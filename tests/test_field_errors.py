"""One base for every error about an input (issue 21): each failure is its own FieldError
subclass with a distinct stable ``code``; ``str(e)``, ``field`` and ``problem`` read as they
always did; every one survives pickle and copy with its own attributes."""

from __future__ import annotations

import copy
import importlib
import pickle
import pkgutil
import re
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

import pytest

import referee_app
from referee_app.cli.common import InputError, check_int
from referee_app.cli.report import OutputError
from referee_app.core import (
    FieldError,
    HandRecord,
    RecordError,
    RuleViolation,
    TileParseError,
    UnknownRulesetError,
)
from referee_app.core.input_files import InputTooLargeError
from referee_app.core.planning import PlanError, plan
from referee_app.core.ruleset_file import RulesetFileError
from referee_app.core.whatif import WhatIfError, parse_setting
from referee_app.gui.app import GuiError
from referee_app.gui.controllers.desk import DeskError
from referee_app.gui.controllers.record_input import NearMissError
from referee_app.gui.controllers.reports import PdfPageError, ReportRequestError
from referee_app.reports.base import ReportLayoutError
from referee_app.reports.detail import SettlementFormatError
from referee_app.reports.gather import ReportDataError
from referee_app.reports.template import TemplateError, template_from_dict
from referee_app.server.client import RecordRewrittenError, ServerUnreachable
from referee_app.server.remote import HandQueued
from referee_app.storage import errors as se
from referee_app.storage.signing import KeyFileError, KeyMissingError

#: every FieldError class, its code, and one error of it as the code raises it
TABLE: list[tuple[type[FieldError], str, Callable[[], FieldError]]] = [
    (FieldError, "field", lambda: FieldError("f", "p")),
    (RecordError, "record", lambda: RecordError("events[2].tile", "not a tile")),
    (RulesetFileError, "ruleset_file",
     lambda: RulesetFileError("cap_fan", "too big", source="club.json",
                              errors=[("cap_fan", "too big"), ("stake", "negative")])),
    (WhatIfError, "what_if", lambda: WhatIfError("what_if", "no such switch")),
    (PlanError, "plan", lambda: PlanError("players", "a player is listed twice")),
    (se.StorageError, "storage", lambda: se.StorageError("", "nothing here")),
    (se.NotATournamentError, "not_a_tournament", lambda: se.NotATournamentError("db", "no")),
    (se.TournamentExistsError, "tournament_exists",
     lambda: se.TournamentExistsError("db", "exists")),
    (se.UnknownPlayerError, "unknown_player", lambda: se.UnknownPlayerError("player", "no")),
    (se.DuplicatePlayerError, "duplicate_player",
     lambda: se.DuplicatePlayerError("name", "taken")),
    (se.SeatingError, "seating", lambda: se.SeatingError("round", "odd")),
    (se.SeatMismatchError, "seat_mismatch", lambda: se.SeatMismatchError("seats.E", "no")),
    (se.DuplicateHandError, "duplicate_hand", lambda: se.DuplicateHandError("hand_no", "x")),
    (se.UnknownHandError, "unknown_hand", lambda: se.UnknownHandError("hand_id", "none")),
    (se.HandChangedError, "hand_changed", lambda: se.HandChangedError(7, 2, 3)),
    (se.HandRuleError, "hand_rule",
     lambda: se.HandRuleError("record", "breaks", [RuleViolation("§2.4", "E", "11 tiles")])),
    (se.BundleError, "bundle", lambda: se.BundleError("chain[0]", "bad")),
    (se.CSVImportError, "csv_import", lambda: se.CSVImportError("line 2, name", "empty")),
    (se.PenaltyError, "penalty", lambda: se.PenaltyError("chips", "zero")),
    (se.AuthError, "auth", lambda: se.AuthError("pin", "wrong PIN")),
    (se.RecordIntegrityError, "record_integrity",
     lambda: se.RecordIntegrityError("chain", "hash differs", seq=4)),
    (se.StorageFault, "storage_fault", lambda: se.StorageFault("db", "cannot open")),
    (se.BusyError, "busy",
     lambda: se.fault_from(sqlite3.OperationalError("database is locked"), "x.sqlite")),
    (se.DiskFullError, "disk_full", lambda: se.DiskFullError("db", "full")),
    (se.ReadOnlyError, "read_only", lambda: se.ReadOnlyError("db", "read-only")),
    (se.DamagedError, "damaged", lambda: se.DamagedError("db", "damaged")),
    (se.FileReplacedError, "file_replaced", lambda: se.FileReplacedError("db", "moved")),
    (ServerUnreachable, "server_unreachable", lambda: ServerUnreachable("server", "down")),
    (HandQueued, "hand_queued", lambda: HandQueued("k1", 3)),
    (TileParseError, "tiles", lambda: TileParseError("", "bad")),
    (UnknownRulesetError, "unknown_ruleset", lambda: UnknownRulesetError("x")),
    (PdfPageError, "pdf_page", lambda: PdfPageError("page", "none")),
    (ReportLayoutError, "report_layout", lambda: ReportLayoutError("report", "too large")),
    (RecordRewrittenError, "record_rewritten",
     lambda: RecordRewrittenError.of("server", "record_rewritten", after=12)),
    (KeyMissingError, "key_missing",
     lambda: KeyMissingError.of("key", "key_missing", key="0123456789abcdef", folder="k")),
    (KeyFileError, "key_file", lambda: KeyFileError("file", "not a key file")),
    (TemplateError, "template", lambda: TemplateError("paper", "unknown")),
    (SettlementFormatError, "settlement_format",
     lambda: SettlementFormatError("wins[0]", "missing")),
    (ReportDataError, "report_data", lambda: ReportDataError("round", "no hands")),
    (DeskError, "desk", lambda: DeskError("seed", "not a number")),
    (ReportRequestError, "report_request", lambda: ReportRequestError("round", "choose one")),
    (GuiError, "gui", lambda: GuiError("size", "too small")),
    (NearMissError, "near_miss", lambda: NearMissError("seats.E", "playr", "player")),
    (InputError, "input", lambda: InputError("round", "expected a round")),
    (OutputError, "output", lambda: OutputError("output", "cannot write")),
    (InputTooLargeError, "input_too_large",
     lambda: InputTooLargeError.of("", "input_too_large", path="/dev/zero", limit=16)),
]


def _subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def test_every_field_error_class_has_its_own_distinct_code() -> None:
    for m in pkgutil.walk_packages(referee_app.__path__, "referee_app."):
        if not m.name.endswith("__main__"):
            importlib.import_module(m.name)
    found = {FieldError, *_subclasses(FieldError)}
    assert found == {cls for cls, _, _ in TABLE}, "a FieldError class missing from TABLE"
    codes = [code for _, code, _ in TABLE]
    assert len(set(codes)) == len(codes)
    for cls, code, _ in TABLE:
        assert cls.__dict__.get("code") == code, cls  # its own, not its parent's
        assert re.fullmatch(r"[a-z]+(_[a-z]+)*", code), code


@pytest.mark.parametrize("cls,code,make", TABLE, ids=[c.__name__ for c, _, _ in TABLE])
def test_raised_errors_carry_the_code_and_survive_pickle_and_copy(
        cls: type[FieldError], code: str, make: Callable[[], FieldError]) -> None:
    e = make()
    assert type(e) is cls and isinstance(e, ValueError)
    assert e.code == code and isinstance(e.params, dict)
    for again in (pickle.loads(pickle.dumps(e)), copy.copy(e), copy.deepcopy(e)):
        assert type(again) is cls and str(again) == str(e) and again.args == e.args
        assert vars(again) == vars(e)  # field, problem, params and the class's own


def test_one_raise_may_give_a_finer_code_and_its_values() -> None:
    e = se.SeatingError("round", "3 players left over", code="players_left_over",
                        params={"left": 3})
    assert (e.code, e.params, str(e)) == ("players_left_over", {"left": 3},
                                          "round: 3 players left over")
    assert se.SeatingError.code == "seating" and pickle.loads(pickle.dumps(e)).code == e.code
    changed = se.HandChangedError(7, 2, 3)
    assert changed.params == {"hand_id": 7, "expected": 2, "current": 3}
    assert (changed.hand_id, changed.expected, changed.current) == (7, 2, 3)
    near = NearMissError("seats.E", "playr", "player")
    assert near.params == {"near": "player"} and near.message_code == "near_miss"
    assert (near.where, near.key, near.near) == ("seats.E", "playr", "player")


def _raised(f: Callable[[], Any]) -> FieldError:
    with pytest.raises(FieldError) as info:
        f()
    return info.value


#: (raise, class, str(e), field): the texts as they read before the common base
SAMPLES: list[tuple[Callable[[], Any], type[FieldError], str, str]] = [
    (lambda: HandRecord.from_dict({"ruleset": "ottawa-2009", "dealer": "X", "seats": {},
                                   "events": []}),
     RecordError, "format: required field is missing", "format"),
    (lambda: HandRecord.from_dict([]), RecordError,
     "a hand record is a JSON object, got list", ""),
    (lambda: parse_setting("cap_fan=lots"), WhatIfError,
     "what_if: cap_fan takes a whole number or none, got 'lots'", "what_if"),
    (lambda: plan([1, 1, 2, 3], ("E", "S", "W", "N"), 1), PlanError,
     "players: a player is listed twice", "players"),
    (lambda: template_from_dict("standings", {"paper": "A5"}), TemplateError,
     "paper: unknown paper size 'A5' (use A4 or Letter)", "paper"),
    (lambda: check_int("1.5", 1, 10, "number", "round"), InputError,
     "round: expected a whole number >= 1, got '1.5'", "round"),
    (lambda: check_int("x", 1, 10, "id"), InputError,
     "expected an id (a whole number >= 1), got 'x'", ""),
]


@pytest.mark.parametrize("raise_it,cls,text,field", SAMPLES,
                         ids=[f"{c.__name__}-{i}" for i, (_, c, _, _) in enumerate(SAMPLES)])
def test_str_field_and_problem_read_as_before(raise_it: Callable[[], Any],
                                              cls: type[FieldError], text: str,
                                              field: str) -> None:
    e = _raised(raise_it)
    assert type(e) is cls and str(e) == text and e.field == field
    assert e.problem == (text.removeprefix(f"{field}: ") if field else text)


def test_constructed_texts_read_as_before() -> None:
    assert str(se.HandChangedError(7, 2, 3)) == (
        "hand_id: hand 7 was changed meanwhile (now version 3, you edited version 2); look "
        "at both and save again")
    assert str(se.StorageError("", "nothing here")) == "nothing here"
    assert str(RulesetFileError("patterns[3].fan", "not a number", source="club.json",
                                errors=[("patterns[3].fan", "not a number"), ("cap", "x")])
               ) == "club.json: patterns[3].fan: not a number (and 1 more problem)"
    assert str(NearMissError("seats.E", "playr", "player")) == \
        "seats.E.playr: unknown field; did you mean 'player'?"
    busy = se.fault_from(sqlite3.OperationalError("database is locked"), "x.sqlite")
    assert str(busy) == ("db: x.sqlite is busy: another desk kept it locked too long; try "
                         "again (close the other program if this repeats)")
