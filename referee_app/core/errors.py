"""The one base of every error about an input: it names the field (or file) and the problem.

Core is the lowest layer, so storage, reports, the GUI, the server and the CLI all raise
subclasses of :class:`FieldError`: one class per kind of failure, each with its own stable
``code``, so a caller can tell failures apart without reading the English sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class FieldError(ValueError):
    """Input that cannot be used: ``field`` names which input (a path like
    ``events[2].tile``, an option, a file; "" for the input as a whole), ``problem`` says
    what is wrong in a sentence, ``code`` is the failure's stable machine name and
    ``params`` the values the sentence was made from (for messages built from a catalogue).

    ``str(e)`` is ``"field: problem"`` (just the problem when no field is named).
    """

    #: the stable machine name of this kind of failure; every subclass sets its own, and
    #: one raise may give a finer one (``code=``)
    code: str = "field"

    def __init__(self, field: str, problem: str, *, code: str | None = None,
                 params: Mapping[str, Any] | None = None) -> None:
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field = field
        self.problem = problem
        if code is not None:
            self.code = code
        self.params: dict[str, Any] = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        # subclasses take other arguments than the message in ``args``: rebuild without
        # calling __init__, so pickle and copy work for every one of them
        return _rebuild, (type(self), self.args), self.__dict__


def _rebuild(cls: type[FieldError], args: tuple[Any, ...]) -> FieldError:
    return cls.__new__(cls, *args)


class RecordError(FieldError):
    """A hand record that cannot be read; ``field`` is a path like ``events[2].tile``."""

    code = "record"
