"""The storage models as JSON: one converter over ``dataclasses.fields`` and type hints.

The server writes its answers with :func:`to_json` and a desk reads them back with
:func:`from_json`, so a model is described once (its dataclass) and both sides agree by
construction. Enums travel as their values, tuples as lists, ``dict[int, ...]`` keys as
text. Where a model's JSON differs from its fields (kept so for phones and desks already in
the field, see docs/server.md), :data:`SHAPES` says how, in one line per model.
"""

from __future__ import annotations

import dataclasses
import enum
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from typing import Any

from referee_app.core.scores import json_number

from .models import (
    HandInfo,
    Player,
    SeatAssignment,
    Seating,
    StandingRow,
    TeamRow,
    TournamentInfo,
)


@dataclass(frozen=True, slots=True)
class Shape:
    """How one model's JSON differs from its fields: ``omit`` fields never sent, ``extra``
    keys computed from the value (read back by nobody), ``only_if_set`` fields sent only when
    not at their default, ``write`` the model's own JSON, ``inherit`` fields the models
    nested in it take from it, ``flatten`` a dict field whose items are keys of the object
    itself (read back as every key that is not another field), and ``read`` turning a JSON
    object back into field values."""

    omit: tuple[str, ...] = ()
    flatten: str = ""
    extra: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)
    only_if_set: tuple[str, ...] = ()
    #: the model's own JSON instead of its fields (read back field by field)
    write: Callable[[Any], dict[str, Any]] | None = None
    inherit: tuple[str, ...] = ()
    read: Callable[[dict[str, Any]], dict[str, Any]] | None = None


def _hand_read(d: dict[str, Any]) -> dict[str, Any]:
    # a list row (without ``full``) carries no record or settlement
    return {"record": {}, "settlement": {}, **d, "amended": "amended" in d.get("flags", ())}


#: the models whose JSON is not just their fields
SHAPES: dict[type, Shape] = {
    HandInfo: Shape(omit=("amended",), extra={"flags": lambda h: list(h.flags)},
                    read=_hand_read),
    Seating: Shape(extra={"tables": lambda s: {str(k): v for k, v in s.tables.items()}},
                   inherit=("round",), only_if_set=("team_pairs", "absent")),
    # a team only when set: answers about events without teams stay as they were
    Player: Shape(only_if_set=("team",)),
    # a team's sums beside its name, as a player's row carries its figures
    TeamRow: Shape(flatten="totals", only_if_set=("per_round_points",)),
    SeatAssignment: Shape(omit=("round",)),
    # as ``standings --json`` writes it: the points first under placement scoring, the
    # placement and stage figures only when there are any
    StandingRow: Shape(write=StandingRow.to_dict),
    TournamentInfo: Shape(omit=("templates",),
                          only_if_set=("verified_only", "self_verify", "signing_key", "scoring",
                                       "placement_points"),
                          extra={"table_size": lambda i: i.table_size}),
}


class WireError(ValueError):
    """JSON that does not make the expected model (a server of another version)."""


def to_json(value: Any) -> Any:
    """``value`` (a model, a list of them, an enum, plain data) as JSON-ready data."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _object_json(value)
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Fraction):  # points: a number (two decimals at most)
        return json_number(value)
    if isinstance(value, tuple | list):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k) if isinstance(k, int) else k: to_json(v) for k, v in value.items()}
    return value


def _object_json(value: Any) -> dict[str, Any]:
    shape = SHAPES.get(type(value), Shape())
    if shape.write is not None:
        return shape.write(value)
    out: dict[str, Any] = {}
    for f in dataclasses.fields(value):
        if f.name in shape.omit:
            continue
        v = getattr(value, f.name)
        if f.name in shape.only_if_set and v == f.default:
            continue
        if f.name == shape.flatten:
            out.update(to_json(v))
            continue
        out[f.name] = to_json(v)
    for name, compute in shape.extra.items():
        out[name] = to_json(compute(value))
    return out


def from_json(tp: Any, data: Any, *, inherited: Mapping[str, Any] | None = None) -> Any:
    """``data`` read back as type ``tp`` (a model, ``list[HandInfo]``, ``int | None``...)."""
    if tp is Any or tp is object:
        return data
    origin = typing.get_origin(tp)
    if origin in (types.UnionType, typing.Union):
        kinds = typing.get_args(tp)
        if data is None and type(None) in kinds:
            return None
        if Fraction in kinds and isinstance(data, float):  # a score that is not whole
            return Fraction(str(data))
        return from_json(next(k for k in kinds if k is not type(None)), data,
                         inherited=inherited)
    if origin in (list, tuple):
        (item, *rest) = typing.get_args(tp) or (Any,)
        if not isinstance(data, list):
            raise WireError(f"expected a list for {tp}, got {type(data).__name__}")
        items = [from_json(item, v, inherited=inherited) for v in data]
        return tuple(items) if origin is tuple else items
    if origin is dict:
        key, val = typing.get_args(tp) or (Any, Any)
        if not isinstance(data, dict):
            raise WireError(f"expected an object for {tp}, got {type(data).__name__}")
        return {int(k) if key is int else k: from_json(val, v) for k, v in data.items()}
    if isinstance(tp, type) and issubclass(tp, enum.Enum):
        return tp(data)
    if tp is Fraction:
        if isinstance(data, bool) or not isinstance(data, int | float):
            raise WireError(f"expected a number, got {type(data).__name__}")
        return Fraction(str(data))
    if isinstance(tp, type) and dataclasses.is_dataclass(tp):
        return _object_from(tp, data, inherited or {})
    if tp in (dict, list) and not isinstance(data, tp):
        raise WireError(f"expected {tp.__name__}, got {type(data).__name__}")
    return data


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _object_from(cls: type, data: Any, inherited: Mapping[str, Any]) -> Any:
    if not isinstance(data, dict):
        raise WireError(f"expected an object for {cls.__name__}, got {type(data).__name__}")
    shape = SHAPES.get(cls, Shape())
    d = shape.read(data) if shape.read else data
    passed = {k: d[k] for k in shape.inherit if k in d}
    values: dict[str, Any] = {}
    hints = _hints(cls)
    for f in dataclasses.fields(cls):
        if f.name == shape.flatten:
            names = {g.name for g in dataclasses.fields(cls)}
            values[f.name] = {k: v for k, v in d.items() if k not in names}
        elif f.name in d:
            values[f.name] = from_json(hints[f.name], d[f.name], inherited=passed)
        elif f.name in inherited:
            values[f.name] = inherited[f.name]
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise WireError(f"{cls.__name__} without {f.name!r}")
    return cls(**values)
