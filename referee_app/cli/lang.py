"""The command line's language: 中文 or English, for everything it prints.

Chosen once per run: ``referee-app --lang zh|en``, else the environment variable
``REFEREE_LANG``, else the locale (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the
first one set decides; 中文 when it names Chinese, English otherwise). Options, command
names, JSON keys and exit codes are the same in both languages.

Every text comes from the one catalogue (docs/i18n.md): ``cli.<key>`` for the command
line's own words (:func:`say`), ``error.<code>`` for a refusal (:func:`problem`),
``field.*`` for a field's name, the desk's words for statuses and actions, and
``click.<English>`` for click's own words (usage errors, "Options", "[required]"), which
click asks ``gettext`` for: :func:`set_lang` hands it ours. Importing this module reads no
catalogue: a run that prints nothing translatable never opens one.
"""

from __future__ import annotations

import gettext
import json
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from typing import Any

from referee_app.core import errors
from referee_app.core.errors import FieldError, render
from referee_app.core.i18n import LANGS, known, text
from referee_app.core.wording import field_text, seat_word

from .layout import pad

#: the environment variable naming the command line's language (``zh`` or ``en``)
ENV = "REFEREE_LANG"
#: the locale's variables, in the order gettext reads them
LOCALE_ENV = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
#: the catalogue's prefix of the command line's own texts (``say("saved")`` is ``cli.saved``)
PREFIX = "cli."
#: the catalogue's prefix of click's own texts: ``click.<click's English>``
CLICK_PREFIX = "click."
#: click's modules that read their words through ``gettext`` (``_`` and ``ngettext``)
CLICK_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "types",
                 "termui", "utils", "shell_completion")
#: click's words it passes to ``_`` from a variable (an option's ``[required]``)
CLICK_INDIRECT = ("required",)

log = logging.getLogger(__name__)
_current = "en"
_explicit = False
_missed: set[str] = set()


def locale_lang(environ: Mapping[str, str] = os.environ) -> str:
    """The locale's language: ``zh`` when the first locale variable set names Chinese
    (``zh_CN.UTF-8``, ``zh_TW``, ``zh``), ``en`` otherwise (``C``, ``en_US``, ``fr_FR``)."""
    for var in LOCALE_ENV:
        value = environ.get(var, "")
        if value:
            first = value.split(":")[0].strip().lower()  # LANGUAGE is a list: zh_CN:en
            return "zh" if first.startswith("zh") else "en"
    return "en"


def chosen(args: Sequence[str], environ: Mapping[str, str] = os.environ) -> tuple[str, bool]:
    """The language of a run, read before click parses it (so that click's own errors and
    the help come out in it): ``--lang`` before the command, else ``REFEREE_LANG``, else
    the locale; and whether it was chosen (option or variable) rather than the locale's.
    A value that is no language is left to the option to refuse."""
    value: str | None = None
    it = iter(args)
    for arg in it:
        if arg == "--lang":
            value = next(it, None)
            break
        if arg.startswith("--lang="):
            value = arg.partition("=")[2]
            break
        if arg == "--" or not arg.startswith("-"):
            break  # the command: options after it are the command's own
    if value in LANGS:
        return str(value), True
    env = environ.get(ENV, "")
    if env in LANGS:
        return env, True
    return locale_lang(environ), False


def set_lang(code: str, explicit: bool = False) -> None:
    """Speak ``code`` from now on (this process): the CLI's texts and click's."""
    global _current, _explicit
    if code not in LANGS:
        raise ValueError(f"language: unknown code {code!r} ({' or '.join(LANGS)})")
    _current, _explicit = code, explicit
    _speak_click(code)


def lang() -> str:
    """The language of this run."""
    return _current


def explicit() -> bool:
    """Whether this run's language was chosen (``--lang`` or ``REFEREE_LANG``), not the
    locale's default (``gui`` then opens the desk in it)."""
    return _explicit


def say(key: str, /, **fields: object) -> str:
    """The command line's text ``cli.<key>`` in this run's language."""
    return text(PREFIX + key, _current, **fields)


def word(key: str, /, **fields: object) -> str:
    """A text the desk and the command line share (``byes``, ``status_verified``), in this
    run's language."""
    return text(key, _current, **fields)


def seat(s: str | None) -> str:
    """A seat as this language writes it (``E`` / ``东``); ``-`` for none."""
    return seat_word(_current)(s) if s else "-"


def term(prefix: str, value: str) -> str:
    """A stored word (a status, a flag, an action) in 中文 from the desk's words
    (``status_`` + ``verified``: 已核对); in English, and where there are none, the value
    itself, as ``--json`` and the options write it (``verified``, ``hand.add``)."""
    key = prefix + value
    if _current == "en" or not known(key, _current):
        return value
    return text(key, _current)


# ----------------------------------------------------------------------------- problems


def field_words(field: str) -> str:
    """A field (``start_date``, ``seats.S.concealed``, an option, a file): in 中文 named in
    words where the catalogue has them (开始日期, 南的手牌); in English, and where there are
    no words, as the record or the option names it (what the reader types)."""
    if _current == "en":
        return field
    return field_text(field, _current) or field


def problem(e: FieldError) -> str:
    """What is wrong, in the reader's language (its English ``problem`` while its code is
    no message of the catalogue)."""
    return e.text(_current)


def error_text(e: FieldError) -> str:
    """``error: <field>: <problem>`` in the reader's language (``错误：开始日期：…``); a
    file's error names the file first and says how many more problems it has."""
    what = problem(e)
    more = len(getattr(e, "errors", None) or ()) - 1
    if more > 0:
        what += say("more_problems", n=more)
    source = getattr(e, "source", None)
    if source:
        return error_line(what, ": ".join([source, field_words(e.field)]) if e.field
                          else source, named=True)
    return error_line(what, e.field)


def exception_text(e: Exception) -> str:
    """Any refusal as its error line: a field error by its code, an unknown ruleset by
    name and the rulesets there are, anything else as it says."""
    from referee_app.core.ruleset import UnknownRulesetError, ruleset_ids

    if isinstance(e, FieldError):
        return error_text(e)
    if isinstance(e, UnknownRulesetError):
        return error_line(render("unknown_ruleset", {"ruleset": e.ruleset_id,
                                                     "known": ", ".join(ruleset_ids())},
                                 _current), "ruleset")
    return error_line(str(e))


def error_line(what: str, field: str = "", named: bool = False) -> str:
    """``error: <field>: <what>``: the field in the reader's words (as given: ``named``)."""
    if field:
        return say("error.field", field=field if named else field_words(field), problem=what)
    return say("error.plain", problem=what)


def warning_line(what: str) -> str:
    return say("warning", problem=what)


def error_data(e: FieldError) -> dict[str, Any]:
    """A field error as JSON: ``field``, ``code`` (stable), ``params`` and the ``message``
    in the reader's language."""
    code = e.message_code or e.code
    return {"field": e.field, "code": code, "params": jsonable(e.params),
            "message": problem(e)}


def violation_data(v: Any) -> dict[str, Any]:
    """A rule violation as JSON: ``code``, ``clause``, ``seat``, ``params`` (stable) and
    the ``message`` in the reader's language."""
    from referee_app.core.wording import violation_text

    d = v.to_data()
    if v.code:
        d["message"] = violation_text(v.code, v.params, _current)
    return d


def violation_line(v: Any) -> str:
    """One broken rule under an error line: clause, seat and what is wrong."""
    return f"  {v.clause:<7} {pad(seat(v.seat), 2)} {violation_data(v)['message']}"


def jsonable(value: Any) -> Any:
    """Parameters as JSON values: a message inside them as its ``{"code", "params"}`` (as the
    API sends it), a path or another object as its text."""
    return json.loads(json.dumps(errors.jsonable(value), ensure_ascii=False, default=str))


# ----------------------------------------------------------------------------- click's words

_originals: dict[str, tuple[Any, Any]] = {}


def click_text(message: str) -> str:
    """click's ``message`` in this run's language (``click.<message>`` in the catalogue);
    click's English, logged once, when the catalogue lacks it (a newer click)."""
    key = CLICK_PREFIX + message
    if known(key, _current):
        return text(key, _current)
    if key not in _missed:
        _missed.add(key)
        log.warning("no %s text for click's %r", _current, message)
    return message


def _click_ngettext(singular: str, plural: str, n: int) -> str:
    return click_text(singular if n == 1 else plural)


def _speak_click(code: str) -> None:
    """Hand click our words (or give its own back, for English): click looks its texts up
    through the names ``_`` and ``ngettext`` each of its modules imported from gettext."""
    if code == "en" and not _originals:
        return  # click speaks English already
    for name in CLICK_MODULES:
        module = sys.modules.get(f"click.{name}")  # one imported later keeps its English
        if module is None or not hasattr(module, "_"):
            continue
        if name not in _originals:
            _originals[name] = (module._, getattr(module, "ngettext", gettext.ngettext))
        if code == "en":
            module._, ngettext = _originals[name]
            if hasattr(module, "ngettext"):
                module.ngettext = ngettext
        else:
            module._ = click_text
            if hasattr(module, "ngettext"):
                module.ngettext = _click_ngettext


__all__ = ["CLICK_INDIRECT", "CLICK_MODULES", "LANGS", "CLICK_PREFIX", "ENV", "LOCALE_ENV", "PREFIX", "chosen",
           "click_text", "error_data", "error_line", "error_text", "exception_text", "explicit", "field_words",
           "jsonable", "lang", "locale_lang", "problem", "say", "seat", "set_lang", "term",
           "violation_data", "violation_line", "warning_line", "word"]
