"""core.frozen: ``@frozen`` classes behave as ``@dataclass(frozen=True, slots=True)`` ones.

Each declaration below is made twice, once with each decorator, and the two classes are
compared on what the code base relies on: construction and defaults, equality, hash, order,
repr, immutability, dataclasses' helpers, pickling and copying, subclassing.
"""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import FrozenInstanceError, InitVar, dataclass, field
from typing import ClassVar

import pytest

from referee_app.core.frozen import frozen, frozen_builder


def _both(body: str, *, slots: bool = True, order: bool = False) -> tuple[type, type]:
    """The class ``C`` declared by ``body`` with the standard decorator and with ours."""
    made = []
    for deco in (dataclass(frozen=True, slots=slots, order=order),
                 frozen(slots=slots, order=order)):
        ns: dict = {"field": field}
        exec(f"class C:\n{body}", ns)  # noqa: S102 - the test's own declarations
        made.append(deco(ns["C"]))
    return made[0], made[1]


PLAIN = "    a: int\n    b: str = 'x'\n    c: list = field(default_factory=list)\n"
#: (declaration, arguments for two equal objects, arguments for a different one)
CASES = [
    (PLAIN, ((1,), {}), ((2, "y", [3]), {})),
    ("    a: int\n", ((5,), {}), ((6,), {})),
    ("    '''doc'''\n", ((), {}), None),
    ("    a: int\n    b: dict = field(default_factory=dict, repr=False, compare=False)\n",
     ((1,), {"b": {"k": 1}}), ((2,), {})),
    ("    a: int\n    b: int = field(default=0, hash=False)\n", ((1, 2), {}), ((1, 3), {})),
    ("    a: int\n    n: int = field(default=7, init=False)\n", ((1,), {}), ((2,), {})),
]


@pytest.mark.parametrize("slots", [True, False])
@pytest.mark.parametrize(("body", "same", "other"), CASES)
def test_same_behaviour_as_a_frozen_dataclass(body, same, other, slots) -> None:
    std, ours = _both(body, slots=slots)
    args, kwargs = same
    s, o, o2 = std(*args, **kwargs), ours(*args, **kwargs), ours(*args, **kwargs)
    assert repr(o) == repr(s)
    assert o == o2 and not (o != o2)
    try:
        hash(s)
    except TypeError:  # a list field: neither is hashable
        with pytest.raises(TypeError):
            hash(o)
    else:
        assert hash(o) == hash(o2)
    assert dataclasses.is_dataclass(ours) and ours.__dataclass_params__.frozen
    assert [f.name for f in dataclasses.fields(o)] == [f.name for f in dataclasses.fields(s)]
    assert dataclasses.asdict(o) == dataclasses.asdict(s)
    assert dataclasses.astuple(o) == dataclasses.astuple(s)
    assert ours.__match_args__ == std.__match_args__
    assert str(inspect.signature(ours)) == str(inspect.signature(std))
    assert ("__dict__" in dir(o)) == ("__dict__" in dir(s))
    assert o != s  # another class: never equal, as between two dataclasses
    for name in [f.name for f in dataclasses.fields(o)] + ["new"]:
        with pytest.raises(FrozenInstanceError):
            setattr(o, name, 1)
        with pytest.raises(FrozenInstanceError):
            delattr(o, name)
    for copied in (copy.copy(o), copy.deepcopy(o)):
        assert copied == o and type(copied) is ours
    if other is not None:
        d = ours(*other[0], **other[1])
        assert d != o and (d == o) == (std(*other[0], **other[1]) == s)
        if dataclasses.fields(o):
            first = dataclasses.fields(o)[0].name
            assert dataclasses.replace(o, **{first: getattr(d, first)}) == \
                ours(*((getattr(d, first),) + args[1:]), **kwargs)


@frozen
class _Slotted:
    a: int
    b: tuple = ()


@frozen(slots=False)
class _Open:
    a: int
    b: dict = field(default_factory=dict)


@pytest.mark.parametrize("obj", [_Slotted(1, (2, 3)), _Open(1, {"k": [1]})])
def test_pickles_and_copies(obj) -> None:
    for copied in (pickle.loads(pickle.dumps(obj)), copy.copy(obj), copy.deepcopy(obj)):
        assert copied == obj and type(copied) is type(obj)
    with pytest.raises(FrozenInstanceError):
        pickle.loads(pickle.dumps(obj)).a = 2


def test_default_factory_gives_each_object_its_own_value() -> None:
    _, ours = _both(PLAIN)
    x, y = ours(1), ours(1)
    assert x.c == [] and x.c is not y.c and x.b == "x"


def test_missing_and_unknown_arguments_are_the_same_type_errors() -> None:
    std, ours = _both(PLAIN)
    for args, kwargs in (((), {}), ((1,), {"zz": 2}), ((1, "b", [], 4), {})):
        with pytest.raises(TypeError):
            std(*args, **kwargs)
        with pytest.raises(TypeError):
            ours(*args, **kwargs)


def test_order_compares_fields_in_declaration_order() -> None:
    std, ours = _both("    a: int\n    b: int\n", order=True)
    pairs = [(1, 2), (1, 3), (0, 9), (1, 2)]
    objs = [ours(*p) for p in pairs]
    assert sorted(objs) == [ours(*p) for p in sorted(pairs)]
    assert (ours(1, 2) <= ours(1, 2)) and ours(2, 0) > ours(1, 9) and ours(1, 9) >= ours(1, 9)
    with pytest.raises(TypeError):
        _ = ours(1, 2) < std(1, 2)


def test_post_init_runs_and_may_refuse() -> None:
    @frozen
    class Rank:
        n: int

        def __post_init__(self) -> None:
            if not 1 <= self.n <= 9:
                raise ValueError(f"rank {self.n} is not in 1..9")

    assert Rank(3).n == 3
    with pytest.raises(ValueError, match="rank 10"):
        Rank(10)


def test_own_eq_hash_and_repr_are_kept() -> None:
    @frozen
    class Loose:
        a: int

        def __eq__(self, other: object) -> bool:
            return True

        def __repr__(self) -> str:
            return "loose"

    assert Loose(1) == Loose(2) and repr(Loose(1)) == "loose"
    assert hash(Loose(1)) == hash(Loose(1))  # a hash over the fields, as dataclasses adds

    @frozen
    class Hashed:
        a: int

        def __hash__(self) -> int:
            return 7

    assert hash(Hashed(1)) == 7


def test_subclass_adds_fields_and_stays_frozen() -> None:
    @frozen
    class Base:
        a: int

    @frozen
    class Child(Base):
        b: int = 0

    c = Child(1, 2)
    assert (c.a, c.b) == (1, 2) and c == Child(1, 2) and c != Child(1, 3)
    assert repr(c) == "test_subclass_adds_fields_and_stays_frozen.<locals>.Child(a=1, b=2)"
    with pytest.raises(FrozenInstanceError):
        c.a = 5
    with pytest.raises(TypeError):  # as dataclasses: a plain subclass may not thaw it
        dataclass(Child)


def test_undocumented_class_gets_its_signature_as_doc() -> None:
    @frozen
    class P:
        a: int
        b: str = "x"

    assert P.__doc__ == "P(a: 'int', b: 'str' = 'x')"


def test_declarations_it_does_not_cover_are_refused() -> None:
    with pytest.raises(TypeError, match="InitVar"):
        @frozen
        class WithInitVar:
            a: int
            b: InitVar[int]

    with pytest.raises(TypeError, match="non-default argument 'b'"):
        @frozen
        class Misordered:
            a: int = 0
            b: int


@pytest.mark.parametrize("slots", [True, False])
def test_builder_makes_the_same_object(slots: bool) -> None:
    _, ours = _both("    a: int\n    b: str\n", slots=slots)
    build = frozen_builder(ours)
    assert build(1, "x") == ours(1, "x") and type(build(1, "x")) is ours
    with pytest.raises(TypeError, match="not a frozen dataclass"):
        frozen_builder(dataclass(type("Open", (), {"__annotations__": {"a": "int"}})))


def test_declarations_dataclasses_must_read_still_work() -> None:
    """A ClassVar, or a dataclass among the bases, goes through dataclasses' own reading."""
    @frozen
    class Counted:
        kind: ClassVar[str] = "row"
        a: int

    assert [f.name for f in dataclasses.fields(Counted)] == ["a"] and Counted.kind == "row"
    assert Counted(1) == Counted(1) and repr(Counted(1)).endswith("Counted(a=1)")

    @dataclass(frozen=True)
    class StdBase:
        a: int

    @frozen
    class OnStd(StdBase):
        b: int = 2

    assert OnStd(1) == OnStd(1, 2) and [f.name for f in dataclasses.fields(OnStd)] == ["a", "b"]


def test_a_mutable_default_is_refused_as_dataclasses_does() -> None:
    with pytest.raises(ValueError, match="mutable default"):
        @frozen
        class Shared:
            items: list = []  # noqa: RUF012 - the mistake under test
