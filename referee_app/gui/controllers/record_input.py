"""A hand record loaded from a file or pasted: read it as the CLI does.

The same core functions as ``referee-app hand add`` and ``score``: :func:`parse_json`
(BOM, empty input, deep nesting, huge numbers), the record's known fields with
:func:`near_field` (a key within edit distance 2 of a known field, such as ``flag``, is a
typo that would silently change the result, so the record is refused with "did you
mean"), and :func:`record_warnings` for other unknown keys (kept or ignored; shown as a
warning).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee_app.core.errors import RecordError, render
from referee_app.core.jsonin import json_kind, parse_json
from referee_app.core.record import (
    EVENT_FIELDS,
    SEAT_FIELDS,
    TOP_FIELDS,
    near_field,
    unknown_fields,
)

from .entry import EntryForm


class NearMissError(RecordError):
    """A key that is a typo of a known field: ``key`` at ``where`` (a record path, "" for
    the top level), probably meant ``near``."""

    code = "near_miss"

    def __init__(self, where: str, key: str, near: str) -> None:
        params = {"near": near}
        super().__init__(f"{where}.{key}" if where else key,
                         render("near_miss", params, "en"), code="near_miss", params=params)
        self.where, self.key, self.near = where, key, near


@dataclass(frozen=True)
class RecordInput:
    record: dict[str, Any]
    #: ``(path, kept)``: unknown keys; top-level ones are kept, deeper ones ignored
    unknown: tuple[tuple[str, bool], ...]


def near_misses(data: dict[str, Any]) -> list[NearMissError]:
    """Every typo'd key of the record, at every level the format defines."""
    out = [NearMissError("", k, n) for k in data if (n := near_field(k, TOP_FIELDS))]
    seats = data.get("seats")
    if isinstance(seats, dict):
        for label, s in seats.items():
            if isinstance(s, dict):
                out += [NearMissError(f"seats.{label}", k, n) for k in s
                        if (n := near_field(k, SEAT_FIELDS))]
    events = data.get("events")
    if isinstance(events, list):
        for i, e in enumerate(events):
            if isinstance(e, dict):
                out += [NearMissError(f"events[{i}]", k, n) for k in e
                        if (n := near_field(k, EVENT_FIELDS))]
    return out


def read_record(data: Any) -> RecordInput:
    """A parsed record: refused (the first near miss) or accepted with its unknown keys."""
    if not isinstance(data, dict):
        raise RecordError.of("", "record_not_json_object", kind=json_kind(data))
    misses = near_misses(data)
    if misses:
        raise misses[0]
    return RecordInput(data, tuple(unknown_fields(data)))


def read_record_text(text: str | bytes, source: str | None = None) -> RecordInput:
    """Text (a file's bytes, the clipboard) -> :func:`read_record`; RecordError with one
    clear line for anything that is not a hand record."""
    return read_record(parse_json(text, source))


def form_from_record(got: RecordInput, old: EntryForm) -> EntryForm:
    """A loaded record in place of the form ``old``: its tiles and events under the form's
    ruleset; the players and the hand's place (round, table, number) stay the seating's."""
    form = EntryForm.from_record({**got.record, "ruleset": old.ruleset})
    for seat, inp in form.seats.items():
        inp.player = old.seats[seat].player if seat in old.seats else None
    for key in ("round", "table", "hand_no"):
        if key in old.extra:
            form.extra[key] = old.extra[key]
    return form
