"""The small checks of stored values every part of a tournament applies (names, numbers,
dates, chips): one place, so every field is refused with the same words."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from typing import Any

from referee_app.core.recheck import dump as dump  # the stored form of a JSON value
from referee_app.core.ruleset import MAX_CAP_FAN, MAX_STAKE

from .errors import StorageError
from .models import TIE_BREAK_KEYS

PlayerRef = int | str


#: SQLite's INTEGER range: ids, round, table and hand numbers are checked against it
MAX_INT = 2**63 - 1
#: chips in one penalty or override entry; stake per unit
MAX_CHIPS = 1_000_000
#: hand numbers at a table and table numbers of a round: 1..999 (a table plays a few dozen
#: hands a round; 999 tables seat 3,996 players). Files saved before the bound may hold
#: larger numbers: they open, list and show progress; new hands and seatings are bounded
MAX_HAND_NO = 999
MAX_TABLE_NO = 999


def shown(value: Any) -> str:
    """A value for an error message (a 5,000-digit number is not repeated back)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**24:
        return f"a number of about {int(value.bit_length() * 0.30103) + 1} digits"
    return repr(value)[:60]


def positive_int(value: Any, field: str, maximum: int = MAX_INT) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= maximum:
        raise StorageError.of(field, "bad_count", max=maximum, got=shown(value))
    return value


def hand_no_int(value: Any) -> int:
    """A hand number to save: 1..:data:`MAX_HAND_NO`."""
    return positive_int(value, "hand_no", MAX_HAND_NO)


def table_int(value: Any, field: str = "table") -> int:
    """A table number to seat or save at: 1..:data:`MAX_TABLE_NO`."""
    return positive_int(value, field, MAX_TABLE_NO)


def lookup_int(value: Any, field: str) -> int:
    """A number to look something up by: any whole number SQLite can hold (none matches
    beyond; a 20-digit one is refused here rather than overflowing in the query)."""
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_INT:
        raise StorageError.of(field, "bad_int", max=MAX_INT, got=shown(value))
    return value


def check_stake(value: Any) -> int:
    """Chips per unit: a whole number 1..1,000,000 (beyond that chips lose precision)."""
    return positive_int(value, "stake", MAX_STAKE)


def check_chips(value: Any, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_CHIPS:
        raise StorageError.of(field, "bad_chip_count", max=MAX_CHIPS, got=shown(value))
    return value


def check_cap(value: Any) -> int | None:
    """A tournament cap on total fan (V2 "可以临时协商"): a whole number 1..99, or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_CAP_FAN:
        raise StorageError.of("cap_fan", "bad_cap_fan", max=MAX_CAP_FAN, got=shown(value))
    return value


#: invisible format characters a name may hold: the joiners some scripts and emoji need
_JOINERS = frozenset("\u200c\u200d")


def bad_char(text: str) -> str | None:
    """A control character, line separator or lone surrogate: these break every listing,
    CSV and PDF (a name is one line of printable text). Likewise an invisible format
    character (a right-to-left override U+202E turns the rest of a listing's line around; a
    zero-width space U+200B or BOM makes two names that look the same, or one that looks
    empty), except the joiners U+200C/U+200D."""
    if text.isprintable():  # the common case, at C speed
        return None
    for c in text:
        cat = unicodedata.category(c)
        if cat in ("Cc", "Cs", "Zl", "Zp") or (cat == "Cf" and c not in _JOINERS):
            return f"U+{ord(c):04X}"
    return None


#: Longest name, club, venue, referee or clause (characters): far beyond any real one, and
#: short enough for every printed report (a 1,000-character name broke their page layout,
#: a 10,000-character event name kept the seating chart busy for minutes).
MAX_TEXT = 200
#: Longest reason (a void, an amendment, an override, a penalty): a few sentences.
MAX_REASON = 1000


def check_text(value: Any, field: str, *, required: bool = False, limit: int = MAX_TEXT) -> str:
    if value is None:
        value = ""
    if not isinstance(value, str):
        raise StorageError.of(field, "not_text", type=type(value).__name__)
    value = value.strip()
    if required and not value:
        raise StorageError.of(field, "required")
    if len(value) > limit:
        raise StorageError.of(field, "too_long", length=len(value), limit=limit)
    bad = bad_char(value)
    if bad:
        raise StorageError.of(field, "control_character", char=bad)
    return value


def check_date(value: Any, field: str) -> str:
    """A tournament date: '' (none) or YYYY-MM-DD, a real day (printed on every report)."""
    text = check_text(value, field)
    if text:
        import datetime  # here: only a command that sets a date pays for it

        try:
            ok = len(text) == 10 and datetime.date.fromisoformat(text).isoformat() == text
        except ValueError:
            ok = False
        if not ok:
            raise StorageError.of(field, "bad_date", got=shown(text))
    return text


def check_names(value: Any, field: str) -> list[str]:
    """A list of names (referees): each one line of text."""
    if isinstance(value, str) or not isinstance(value, list | tuple):
        raise StorageError.of(field, "not_name_list", type=type(value).__name__)
    out = []
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise StorageError.of(f"{field}[{i}]", "not_name", type=type(v).__name__)
        name = check_text(v, f"{field}[{i}]")
        if name:
            out.append(name)
    return out


def check_tie_break(order: Iterable[str]) -> tuple[str, ...]:
    if isinstance(order, str) or not isinstance(order, Iterable):
        raise StorageError.of("tie_break", "not_key_list", type=type(order).__name__)
    out = tuple(order)
    for key in out:
        if not isinstance(key, str) or key.lstrip("-") not in TIE_BREAK_KEYS:
            raise StorageError.of("tie_break", "unknown_tie_break", got=key,
                                     known=list(TIE_BREAK_KEYS))
    if not out:
        raise StorageError.of("tie_break", "no_tie_break")
    return out
