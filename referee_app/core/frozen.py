"""Frozen value classes that cost little to define: :func:`frozen` and :func:`frozen_builder`.

Every command starts a fresh interpreter and defines some forty frozen dataclasses before it
does any work. On Python 3.11 ``@dataclass(frozen=True, slots=True)`` compiles six methods
per class, one ``exec`` each (about 2 ms a class, 80 ms of a 0.2 s start-up budget).
:func:`frozen` gives the same class: it records what dataclasses records (the
``Field`` objects, parameters, match args, slots — read here for the usual declaration, by
dataclasses itself for anything else), so :func:`dataclasses.fields`,
:func:`~dataclasses.replace`, :func:`~dataclasses.asdict`, pickling and
``FrozenInstanceError`` behave as before; only ``__init__`` is compiled (one code object
per shape of fields), and equality, hash, order, ``repr`` and the frozen ``__setattr__`` are
shared functions over the fields. A
declaration it does not cover (``InitVar``, keyword-only fields) is refused with a
``TypeError``: declare such a class with :func:`dataclasses.dataclass`.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable
from operator import attrgetter
from types import CodeType
from typing import Any, TypeVar

__all__ = ["frozen", "frozen_builder"]

T = TypeVar("T")
_MISSING = dataclasses.MISSING
_FIELD = dataclasses._FIELD  # a regular field (not a ClassVar or InitVar pseudo-field)
_INITVAR = dataclasses._FIELD_INITVAR


class _Factory:
    """Default of an ``__init__`` argument whose field has a ``default_factory``."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_FACTORY = _Factory()


def frozen(cls: type[T] | None = None, /, *, slots: bool = True,
           order: bool = False) -> Any:
    """``@dataclass(frozen=True, slots=slots, order=order)``, defined in a fraction of the time."""

    def wrap(c: type[T]) -> type[T]:
        return _process(c, slots, order)

    return wrap if cls is None else wrap(cls)


def _process(cls: type[T], slots: bool, order: bool) -> type[T]:
    own = cls.__dict__
    explicit_hash = own.get("__hash__", _MISSING)
    has_explicit_hash = not (explicit_hash is _MISSING
                             or (explicit_hash is None and "__eq__" in own))
    keep_eq, keep_repr = "__eq__" in own, "__repr__" in own
    documented = bool(cls.__doc__)
    fields = _plain_fields(cls)
    frozen_bases = False
    if fields is not None:  # the usual declaration: read here, a third of dataclasses' time
        c = _declare(cls, fields, slots, order)
    else:  # anything else (dataclass bases, ClassVar, …): dataclasses reads it
        if not documented:
            # a placeholder, or dataclasses would read object.__init__'s text signature
            # (tokenize and its patterns, ~4 ms) only for this to be replaced below
            cls.__doc__ = "-"
        # dataclasses refuses a non-frozen subclass of a frozen dataclass: only such a
        # subclass lets it compile its own frozen __setattr__/__delattr__
        frozen_bases = any(getattr(getattr(b, "__dataclass_params__", None), "frozen", False)
                           for b in cls.__mro__[1:])
        c = dataclasses.dataclass(cls, init=False, repr=False, eq=False, frozen=frozen_bases,
                                  slots=slots)
        pseudo = c.__dataclass_fields__.values()
        fields = [f for f in pseudo if f._field_type is _FIELD]
        if any(f._field_type is _INITVAR for f in pseudo) or any(f.kw_only for f in fields):
            raise TypeError(f"{cls.__name__}: InitVar and keyword-only fields need "
                            "dataclasses.dataclass, not frozen")
    c.__init__ = _init(c, fields, slots)
    if not frozen_bases:
        _freeze(c, [f.name for f in fields], slots)
    if not documented:  # as dataclasses does: the signature, now that __init__ is known
        import inspect

        c.__doc__ = c.__name__ + str(inspect.signature(c)).replace(" -> None", "")
    compared = [f.name for f in fields if f.compare]
    key = _key(compared)
    if not keep_eq:
        c.__eq__ = _eq(key)
    if not has_explicit_hash:
        c.__hash__ = _hash(_key([f.name for f in fields
                                 if (f.compare if f.hash is None else f.hash)]))
    if not keep_repr:
        c.__repr__ = _repr([f.name for f in fields if f.repr])
    if order:
        for name, op in (("__lt__", tuple.__lt__), ("__le__", tuple.__le__),
                         ("__gt__", tuple.__gt__), ("__ge__", tuple.__ge__)):
            setattr(c, name, _compare(key, op, name))
    params = c.__dataclass_params__  # say what the class now has
    for name, value in (("init", True), ("repr", True), ("eq", True), ("order", order),
                        ("frozen", True)):
        try:
            setattr(params, name, value)
        except AttributeError:  # a read-only record in some later Python: left as built
            break
    return c


#: compiled ``__init__`` bodies by shape (which fields are arguments, have defaults or
#: factories, live in slots; a ``__post_init__``): classes of one shape share the code,
#: renamed for their fields, so most classes cost no compilation at all
_TEMPLATES: dict[tuple[Any, ...], CodeType] = {}


#: annotation words only dataclasses' own reading handles (pseudo-fields, markers)
_SPECIAL = ("ClassVar", "InitVar", "KW_ONLY")


def _plain_fields(cls: type) -> list[dataclasses.Field] | None:
    """The fields of a class declared the usual way — no dataclass among its bases, every
    annotation a field — read as dataclasses reads them; None for anything else."""
    annotations = cls.__dict__.get("__annotations__")
    if not isinstance(annotations, dict):
        return None
    if any("__dataclass_fields__" in b.__dict__ for b in cls.__mro__[1:]):
        return None
    fields = []
    for name, kind in annotations.items():
        if any(word in str(kind) for word in _SPECIAL):
            return None
        value = cls.__dict__.get(name, _MISSING)
        f = value if isinstance(value, dataclasses.Field) else dataclasses.field(default=value)
        if f.kw_only not in (_MISSING, False):
            return None
        f.name, f.type, f._field_type, f.kw_only = name, kind, _FIELD, False
        if f.default is not _MISSING and f.default.__class__.__hash__ is None:
            raise ValueError(f"mutable default {type(f.default)} for field {name} is not "
                             "allowed: use default_factory")
        fields.append(f)
    return fields


def _declare(cls: type, fields: list[dataclasses.Field], slots: bool, order: bool) -> type:
    """What dataclasses records on a class (fields, parameters, match args, defaults as
    class attributes) and, with ``slots``, the class rebuilt with a slot per field."""
    cls.__dataclass_fields__ = {f.name: f for f in fields}
    params = {"init": True, "repr": True, "eq": True, "order": order, "unsafe_hash": False,
              "frozen": True, "match_args": True, "kw_only": False, "slots": slots,
              "weakref_slot": False}
    cls.__dataclass_params__ = dataclasses._DataclassParams(
        **{k: params[k] for k in dataclasses._DataclassParams.__slots__})
    if "__match_args__" not in cls.__dict__:
        cls.__match_args__ = tuple(f.name for f in fields if f.init)
    for f in fields:
        if isinstance(cls.__dict__.get(f.name), dataclasses.Field):
            if f.default is _MISSING:
                delattr(cls, f.name)
            else:
                setattr(cls, f.name, f.default)
    if not slots:
        return cls
    names = dict.fromkeys(f.name for f in fields)
    inherited = {n for b in cls.__mro__[1:-1] for n in _slot_names(b)}
    body = {k: v for k, v in cls.__dict__.items()
            if k not in names and k not in ("__dict__", "__weakref__")}
    body["__slots__"] = tuple(n for n in names if n not in inherited)
    qualname = cls.__qualname__
    made = type(cls)(cls.__name__, cls.__bases__, body)
    made.__qualname__ = qualname
    return made


def _slot_names(b: type) -> tuple[str, ...]:
    declared = b.__dict__.get("__slots__", ())
    return (declared,) if isinstance(declared, str) else tuple(declared)


def _init(c: type, fields: list[dataclasses.Field], slots: bool) -> Callable[..., None]:
    """``__init__`` for this class: each field stored through its slot."""
    env: dict[str, Any] = {"FACTORY": _HAS_FACTORY, "set": object.__setattr__}
    shape: list[tuple[bool, str, bool]] = []
    names: list[str] = []
    defaults: list[Any] = []
    for f in fields:
        j = len(shape)
        if f.default is not _MISSING:
            kind = "d"
            env[f"d{j}"] = f.default
        elif f.default_factory is not _MISSING:
            kind = "f"
            env[f"f{j}"] = f.default_factory
        else:
            kind = ""
        if f.init:
            if not kind and defaults:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")
            names.append(f.name)
            if kind:
                defaults.append(f.default if kind == "d" else _HAS_FACTORY)
        elif not kind:
            continue  # init=False without a default: left unset, as dataclasses does
        slot = _slot(c, f.name) if slots else None
        if slot is not None:
            env[f"s{j}"] = slot
        else:
            env[f"n{j}"] = f.name
        shape.append((f.init, kind, slot is not None))
    key = (tuple(shape), hasattr(c, "__post_init__"))
    code = _TEMPLATES.get(key) or _template(key)
    qualname = f"{c.__qualname__}.__init__"
    init = types.FunctionType(code.replace(co_varnames=("self", *names), co_qualname=qualname),
                              env, "__init__", tuple(defaults) or None)
    init.__qualname__ = qualname
    init.__annotations__ = {f.name: f.type for f in fields if f.init} | {"return": None}
    return init


def _template(key: tuple[Any, ...]) -> CodeType:
    """Compile the ``__init__`` of one shape; its arguments are ``p0, p1, …``."""
    shape, post_init = key
    params, body = [], []
    for j, (init, kind, slot) in enumerate(shape):
        if init:
            params.append(f"p{j}")
            if kind == "f":
                body.append(f"  if p{j} is FACTORY: p{j} = f{j}()")
            value = f"p{j}"
        else:
            value = f"d{j}" if kind == "d" else f"f{j}()"
        body.append(f"  s{j}(self, {value})" if slot else f"  set(self, n{j}, {value})")
    if post_init:
        body.append("  self.__post_init__()")
    src = (f"def __init__(self{''.join(', ' + p for p in params)}):\n"
           + ("\n".join(body) or "  pass") + "\n")
    ns: dict[str, Any] = {}
    exec(src, ns)  # noqa: S102 - built from the shape alone: p/d/f/s/n and a field number
    code = _TEMPLATES[key] = ns["__init__"].__code__
    return code


def _slot(c: type, name: str) -> Callable[[Any, Any], None] | None:
    """The ``__set__`` of the slot that holds ``name`` (possibly a base class's), if any."""
    for k in c.__mro__:
        if name in k.__dict__:
            desc = k.__dict__[name]
            return desc.__set__ if type(desc).__name__ == "member_descriptor" else None
    return None


def _freeze(c: type, names: list[str], slots: bool) -> None:
    """The frozen ``__setattr__``/``__delattr__`` of dataclasses, and with slots its pickle
    state (which must bypass them), as shared functions instead of compiled ones."""
    fields = frozenset(names)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is c or name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(c, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is c or name in fields:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(c, self).__delattr__(name)

    c.__setattr__, c.__delattr__ = __setattr__, __delattr__
    if slots and "__getstate__" not in c.__dict__:
        get = _key(names)

        def __getstate__(self: Any) -> list[Any]:
            return list(get(self))

        def __setstate__(self: Any, state: list[Any]) -> None:
            for name, value in zip(names, state, strict=False):
                object.__setattr__(self, name, value)

        c.__getstate__, c.__setstate__ = __getstate__, __setstate__


def _key(names: list[str]) -> Callable[[Any], tuple]:
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        get = attrgetter(names[0])
        return lambda obj: (get(obj),)
    return attrgetter(*names)


def _eq(key: Callable[[Any], tuple]) -> Callable[[Any, Any], Any]:
    def __eq__(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return key(self) == key(other)
        return NotImplemented
    return __eq__


def _hash(key: Callable[[Any], tuple]) -> Callable[[Any], int]:
    def __hash__(self: Any) -> int:
        return hash(key(self))
    return __hash__


def _compare(key: Callable[[Any], tuple], op: Callable[[tuple, tuple], bool],
             name: str) -> Callable[[Any, Any], Any]:
    def compare(self: Any, other: Any) -> Any:
        if other.__class__ is self.__class__:
            return op(key(self), key(other))
        return NotImplemented
    compare.__name__ = name
    return compare


def _repr(names: list[str]) -> Callable[[Any], str]:
    def __repr__(self: Any) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__}({inner})"
    return __repr__


def frozen_builder(cls: type) -> Callable[..., Any]:
    """A fast positional constructor for a frozen dataclass without __post_init__.

    The generated ``__init__`` sets each field in turn; this builder skips the type call
    and sets them through the slot descriptors directly (or, without slots, into the
    instance dict), about twice as fast as a standard frozen dataclass. The object is the
    same: same type, fields, equality and hash. Every field must be passed, in declaration
    order (no defaults). The engine builds tens of these per hand (payments, wins, events),
    hence the fast path.
    """
    if not (dataclasses.is_dataclass(cls) and cls.__dataclass_params__.frozen
            and not hasattr(cls, "__post_init__")):
        raise TypeError(f"{cls.__name__} is not a frozen dataclass without __post_init__")
    names = [f.name for f in dataclasses.fields(cls)]
    namespace: dict[str, Any] = {"new": object.__new__, "cls": cls}
    slots = {n: _slot(cls, n) for n in names}
    if None not in slots.values():
        body = "".join(f"    set_{n}(o, {n})\n" for n in names)
        namespace.update({f"set_{n}": slots[n] for n in names})
    else:
        body = "    d = o.__dict__\n" + "".join(f"    d[{n!r}] = {n}\n" for n in names)
    src = f"def build({', '.join(names)}):\n    o = new(cls)\n{body}    return o\n"
    exec(src, namespace)  # noqa: S102 - the source is built from the class's own field names
    build = namespace["build"]
    build.__doc__ = f"{cls.__name__}({', '.join(names)}), built field by field."
    return build
