"""The one base of every error about an input: it names the field (or file) and the problem.

Core is the lowest layer, so storage, reports, the GUI, the server and the CLI all raise
subclasses of :class:`FieldError`: one class per kind of failure, each with its own stable
``code``, so a caller can tell failures apart without reading the English sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

#: the catalogue's prefix of an error's message id: code ``bad_chips`` is ``error.bad_chips``
MESSAGE_PREFIX = "error."
#: a parameter named so (or so plus digits: ``seat2``) is itself a word of the catalogue,
#: rendered in the reader's language: a seat letter, an action phrase, a hand's status
TERMS: dict[str, str] = {"seat": "seat.", "action": "action.", "status": "status_"}


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The text of message ``code`` in ``lang``, its ``{param}`` fields filled from
    ``params`` (term parameters in that language's words, see :data:`TERMS`)."""
    from .i18n import known, text

    def word(name: str, value: Any) -> Any:
        if isinstance(value, Mapping) and "code" in value:  # a message inside the message
            return render(value["code"], value.get("params", {}), lang)
        if isinstance(value, list):  # several values, in the language's list
            return text(MESSAGE_PREFIX + "list_sep", lang).join(
                str(word(name, v)) for v in value)
        prefix = TERMS.get(name.rstrip("0123456789"))
        key = f"{prefix}{value}"
        return text(key, lang) if prefix is not None and known(key, lang) else value

    return text(MESSAGE_PREFIX + code, lang,
                **{name: word(name, value) for name, value in params.items()})


def message(code: str, /, **params: Any) -> dict[str, Any]:
    """A message as a parameter of another message (rendered in the reader's language)."""
    return {"code": code, "params": params}


def nested(e: FieldError) -> dict[str, Any] | str:
    """An error as a parameter of another's message (rendered in the reader's language);
    one whose code is not (yet) a message of the catalogue is its English ``problem``."""
    code = e.message_code
    return e.problem if code is None else message(code, **e.params)


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

    @classmethod
    def of(cls, field: str, code: str, /, **params: Any) -> Self:
        """The error of message ``code`` with its ``params``: ``problem`` is the
        catalogue's English rendering (what ``str(e)``, the CLI and the logs show); a
        screen renders ``code`` + ``params`` in its own language with :func:`render`."""
        return cls(field, render(code, params, "en"), code=code, params=params)

    @classmethod
    def like(cls, field: str, e: FieldError) -> Self:
        """``e``'s problem as this class's error about ``field`` (its message, when it is
        one): a caller names the input its own way without rewording what went wrong."""
        code = e.message_code
        return cls(field, e.problem, code=code, params=e.params if code else None)

    @property
    def message_code(self) -> str | None:
        """The code when this error is a message of the catalogue (its ``problem`` rendered
        from ``code`` + ``params``): given by this raise (``of``, ``code=``), not merely the
        class's kind — a class's code may name a message whose fields a bare raise lacks."""
        from .i18n import known

        code = vars(self).get("code")
        return code if isinstance(code, str) and known(MESSAGE_PREFIX + code) else None

    def text(self, lang: str) -> str:
        """The problem in ``lang`` (the English ``problem`` when the code is no message)."""
        code = self.message_code
        return self.problem if code is None else render(code, self.params, lang)

    def __reduce__(self) -> tuple[Any, ...]:
        # subclasses take other arguments than the message in ``args``: rebuild without
        # calling __init__, so pickle and copy work for every one of them
        return _rebuild, (type(self), self.args), self.__dict__


def _rebuild(cls: type[FieldError], args: tuple[Any, ...]) -> FieldError:
    return cls.__new__(cls, *args)


class RecordError(FieldError):
    """A hand record that cannot be read; ``field`` is a path like ``events[2].tile``."""

    code = "record"
