"""The one base of every error about an input, and messages as data (a code and params).

Core is the lowest layer, so storage, reports, the GUI, the server and the CLI all raise
subclasses of :class:`FieldError`: one class per kind of failure, each with its own stable
``code``, so a caller can tell failures apart without reading the English sentence. A line
that is not an error (a statement's payment, a seating problem, why a file is read-only) is
a :class:`Message`: the same code + params, rendered from the catalogue in any language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Self

#: the catalogue's prefix of a message id: code ``bad_chips`` is ``error.bad_chips``
MESSAGE_PREFIX = "error."
#: a parameter named so (or so plus digits: ``seat2``) is itself a word of the catalogue,
#: rendered in the reader's language: a seat letter (or a list of them), an action phrase,
#: a hand's status, the kind of a JSON value (``list`` → 列表) or a Python type, a kong's
#: kind, win flags, a field's name
TERMS: dict[str, str] = {"seat": "seat.", "seats": "seat.", "action": "action.",
                         "status": "status_", "kind": "json.", "type": "type.",
                         "schema_type": "schema_type.", "kong": "kong_kind.",
                         "flags": "flag.", "field": "field.top.",
                         "version_action": "action_", "types": "type."}


def render(code: str, params: Mapping[str, Any], lang: str) -> str:
    """The text of message ``code`` in ``lang``, its ``{param}`` fields filled from
    ``params`` (term parameters in that language's words, see :data:`TERMS`; a parameter
    that is itself a message — a :class:`Message`, or ``{"code", "params"}`` — in that
    language too)."""
    from .i18n import known, text

    def word(name: str, value: Any) -> Any:
        if isinstance(value, Message):  # a message inside the message
            return value.text(lang)
        if isinstance(value, Mapping):
            if "code" in value:
                return render(value["code"], value.get("params", {}), lang)
            said = read_data(value)  # a violation or a reason of the engine, sent as JSON
            return said.text(lang) if said is not None else value
        if isinstance(value, list | tuple):  # several values, in the language's list
            sep = MESSAGE_PREFIX + "list_sep"
            if known(f"{sep}.{name}", lang):  # this list's own separator ("; ")
                sep = f"{sep}.{name}"
            return text(sep, lang).join(str(word(name, v)) for v in value)
        prefix = TERMS.get(name.rstrip("0123456789"))
        key = f"{prefix}{value}"
        return text(key, lang) if prefix is not None and known(key, lang) else value

    # always formatted (a message's text is a format string, ``{{`` a brace, with or
    # without parameters)
    return text(MESSAGE_PREFIX + code, lang).format(
        **{name: word(name, value) for name, value in params.items()})


#: readers of the engine's own messages sent as JSON (a violation, a payment's reason):
#: :mod:`.wording` adds its reader when ``referee_app.core`` is imported
DATA_READERS: list[Callable[[Any], Message | None]] = []


def read_data(data: Any) -> Message | None:
    """A message of the engine sent as JSON, ready to be said in any language (or None)."""
    for reader in DATA_READERS:
        said = reader(data)
        if said is not None:
            return said
    return None


def message(code: str, /, **params: Any) -> dict[str, Any]:
    """A message as a parameter of another message (rendered in the reader's language)."""
    return {"code": code, "params": params}


def jsonable(value: Any) -> Any:
    """Parameters as JSON: a :class:`Message` (or an error) inside them becomes its
    ``{"code", "params"}``, so a client renders it in its own language."""
    if isinstance(value, Message):
        return value.data()
    if isinstance(value, FieldError) and value.message_code is not None:
        return message(value.message_code, **jsonable(value.params))
    if isinstance(value, Mapping):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [jsonable(v) for v in value]
    return value


class Message(str):
    """A line as data: its message ``code`` and ``params``; the string itself is the
    English text (what the CLI prints and a log keeps), so a caller that only prints a line
    reads it as before, while a screen says it in its reader's language (:meth:`text`)."""

    code: str
    params: dict[str, Any]

    def __new__(cls, code: str, params: Mapping[str, Any] | None = None) -> Self:
        params = dict(params or {})
        self = super().__new__(cls, render(code, params, "en"))
        self.code, self.params = code, params
        return self

    @classmethod
    def of(cls, code: str, /, **params: Any) -> Self:
        return cls(code, params)

    @classmethod
    def from_data(cls, data: Any) -> Message | str:
        """A message sent as ``{"code", "params"}`` (or the engine's violation or reason;
        a text sent as text stays one)."""
        if isinstance(data, Mapping) and isinstance(data.get("code"), str):
            return cls(data["code"], data.get("params") or {})
        return read_data(data) or str(data)

    def text(self, lang: str) -> str:
        """This message in ``lang``."""
        return render(self.code, self.params, lang)

    def data(self) -> dict[str, Any]:
        """``{"code", "params"}``: the message as JSON (the server sends it so)."""
        return message(self.code, **jsonable(self.params))

    def __reduce__(self) -> tuple[Any, ...]:
        return type(self), (self.code, self.params)


def said(value: Any, lang: str) -> str:
    """A line in ``lang``: a :class:`Message` (or an error that is one) rendered, any other
    text as it is (a name, a line stored before it was data)."""
    if isinstance(value, Message | FieldError):
        return value.text(lang)
    if isinstance(value, Mapping) and "code" in value:
        return render(value["code"], value.get("params", {}), lang)
    return str(value)


#: the operating system's reasons a file cannot be used, by errno, as messages of the
#: catalogue (``error.os_<name>``); any other is its own (short, technical) words
_OS_REASONS = {2: "os_not_found", 13: "os_denied", 1: "os_denied", 21: "os_is_folder",
               20: "os_not_folder", 28: "os_disk_full", 30: "os_read_only", 36: "os_name_long",
               17: "os_exists", 39: "os_not_empty", 5: "os_io"}


def os_reason(e: OSError) -> Message | str:
    """Why the system refused a file (``e.strerror``), in the reader's words when known."""
    code = _OS_REASONS.get(e.errno or -1)
    return Message.of(code) if code else (e.strerror or type(e).__name__)


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
    def about(cls, field: str, said: Message) -> Self:
        """The error of a message made elsewhere (``text_problem``'s why) about ``field``."""
        return cls(field, str(said), code=said.code, params=said.params)

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
