"""The engine's and the store's messages in the referee's words, 中文 or English.

Every refusal, line and problem is data — a message ``code`` and its ``params`` (a
:class:`~referee_app.core.errors.FieldError`, a :class:`~referee_app.core.errors.Message`,
a :class:`~referee_app.core.results.RuleViolation`) — rendered here from the catalogue in
the desk's language; nothing reads a message's English. A field is named by its path
(``seats.S.concealed``), which :func:`field_words` says in words ("南 S 的手牌").
"""

from __future__ import annotations

from string import Formatter
from typing import Any

from referee_app.core.errors import MESSAGE_PREFIX, FieldError, os_reason, said
from referee_app.core.errors import render as render_message
from referee_app.core.i18n import known, text
from referee_app.core.wording import FIELD_PREFIX, TOP_FIELD_PREFIX, field_text

from .i18n import LANG, seat_name, violation_words

#: a win flag's name is the desk's ``flag_<name>`` (中文 only here: the English keeps the id)
FLAG_PREFIX = "flag_"
#: a kong's kind in a compared event is the catalogue's ``kong_kind.<kind>``
KONG_KIND_PREFIX = "kong_kind."

# ---------------------------------------------------------------- field paths
#: a field's words are the catalogue's ``field.<name>`` (inside a seat or an event) and
#: ``field.top.<path>`` (a whole path); :func:`field_words` says None for any other
FIELD_PREFIX = FIELD_PREFIX
TOP_PREFIX = TOP_FIELD_PREFIX


def field_words(path: str) -> str | None:
    """``seats.S.concealed`` → ``南 S的手牌`` / ``S 南 concealed tiles`` (seats as the desk
    names them); a place that is a message (a CSV file's ``line 3, name``) in the desk's
    language; None if unknown."""
    return field_text(path, LANG.code, seat=seat_name)


def _placed(path: str, words: str) -> str:
    """A problem said in words after the words of its field (the path when it has none)."""
    where = field_words(path)
    if where is None:
        where = str(path)
    return text("field_problem", LANG.code, field=where, problem=words) if where else words


def error_words(e: FieldError) -> str:
    """A refusal's problem alone (no field) in the desk's language, from its code and
    params; the desk's own wording (``error.desk.<code>``) where the CLI's names a
    command-line option."""
    said_now = message_text(e)
    return said_now if said_now is not None else e.text(LANG.code)


def exception_text(e: BaseException) -> str:
    """A store or engine refusal (its field in words, then its problem) in the referee's
    words; a fault outside the input (busy, disk full, read-only, damaged) as its one
    translated line; any other exception as its own words."""
    from .faults import fault_text

    fault = fault_text(e)
    if fault is not None:
        return fault
    if isinstance(e, FieldError):
        return _placed(e.field, error_words(e))
    if isinstance(e, OSError):  # a file the system refused: why, in the reader's words
        return said(os_reason(e), LANG.code)
    return str(e)


def shown_problem(p: Any) -> tuple[str, str]:
    """(label, text) of a form problem (``controllers.entry.Problem``): a rule's clause and
    the engine's violation in words, or — for a record that cannot be read — no clause and
    the field in words before what is wrong."""
    if p.violation is not None:
        return p.clause, violation_words(p.violation)
    if p.error is not None:
        return "", exception_text(p.error)
    return p.clause, p.message


#: the desk's own wording of a message (``error.desk.<code>``), where the CLI's English
#: names a command-line option the desk has no use for
DESK_VARIANT = "desk."


def message_text(e: FieldError) -> str | None:
    """A refusal that is data (its ``code`` a message of the catalogue) in the current
    language, from its code and parameters; None for an error that is not one."""
    code = e.message_code
    if code is None:
        return None
    if known(MESSAGE_PREFIX + DESK_VARIANT + code):
        code = DESK_VARIANT + code
    fields = {name.split(".")[0].split("[")[0] for _, name, _, _ in
              Formatter().parse(text(MESSAGE_PREFIX + code, "en")) if name}
    if not fields <= set(e.params):  # rebuilt without its values (an old outbox entry)
        return None
    return render_message(code, e.params, LANG.code)


def line_text(line: object) -> str:
    """A line of the store (a statement's payment, a seating problem, a compared event)
    in the desk's language; a plain text as it is."""
    return said(line, LANG.code)


def impact_text(imp: object) -> str:
    """An :class:`~referee_app.storage.impact.AmendImpact` in the referee's words."""
    from .i18n import tr

    zh = LANG.code == "zh"
    head = tr("amending", a=imp.version_from, b=imp.version_to)  # type: ignore[attr-defined]
    if imp.totals_after is None:  # type: ignore[attr-defined]
        return f"{head} · {tr('impact_breaks')}"
    changes = imp.seat_changes  # type: ignore[attr-defined]
    players = imp.players  # type: ignore[attr-defined]
    parts = [f"{seat_name(s)} {players.get(s, '')} "
             f"{imp.totals_before.get(s, 0):+d} → {imp.totals_after.get(s, 0):+d}"  # type: ignore[attr-defined]
             for s, d in changes.items() if d]
    totals = ("；" if zh else "; ").join(parts) if parts else tr("impact_no_change")
    ranks = [f"{r.player} {r.rank_before} → {r.rank_after}"
             for r in imp.rank_changes]  # type: ignore[attr-defined]
    rank_text = ("，" if zh else ", ").join(ranks) if ranks else tr("impact_no_rank")
    return f"{head} · {tr('impact_totals')}{totals}\n{tr('impact_ranks')}{rank_text}"
