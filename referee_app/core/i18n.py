"""The one translator every layer uses: desk, printed reports, results pages (and the CLI).

Every static text lives in the gettext catalogues under ``referee_app/locale/`` —
``<lang>/LC_MESSAGES/referee_app.po`` (edited by a translator) compiled to ``.mo`` (read
here with the standard library; Babel is needed only to compile, see docs/i18n.md). A
message id is a stable key (``Save hand``, ``report.label.chips``, ``page.rank``), never
the English text itself, so rewording English does not orphan the Chinese.

A key the catalogue lacks is rendered as ``⟦key⟧`` and logged once, so a miss is seen on
screen and in a test, never passed off as a text.
"""

from __future__ import annotations

import gettext
import logging
from collections.abc import Iterator, Mapping
from functools import cache, cached_property
from pathlib import Path

#: the interface languages, in the order the desk offers them
LANGS: tuple[str, ...] = ("en", "zh")
DOMAIN = "referee_app"
#: the catalogues shipped in the package (package data; the ``.mo`` are committed)
LOCALE_DIR: Path = Path(__file__).resolve().parent.parent / "locale"

log = logging.getLogger(__name__)


class MissingText(gettext.NullTranslations):
    """The fallback of a catalogue: a visible ``⟦key⟧`` and one log line per key."""

    def __init__(self, lang: str) -> None:
        super().__init__()
        self.lang = lang
        self.missed: set[str] = set()

    def gettext(self, message: str) -> str:
        if message not in self.missed:
            self.missed.add(message)
            log.warning("no %s text for %r in the %s catalogue", self.lang, message, DOMAIN)
        return f"⟦{message}⟧"


class Catalogue(gettext.GNUTranslations):
    """One language's compiled catalogue; knows its keys (for checks and key families)."""

    @cached_property
    def keys(self) -> frozenset[str]:
        """Every message id with a text (the header entry aside); read once, as the
        desk asks on every keystroke (field words, seat names)."""
        return frozenset(k for k in self._catalog if isinstance(k, str) and k)


def mo_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def catalogue(lang: str) -> Catalogue:
    """The compiled catalogue of ``lang`` (read once, on first use: start-up stays short)."""
    if lang not in LANGS:
        raise ValueError(f"language: unknown code {lang!r} ({' or '.join(LANGS)})")
    with mo_path(lang).open("rb") as f:
        cat = Catalogue(f)
    cat.add_fallback(MissingText(lang))
    return cat


def text(key: str, lang: str, /, **fmt: object) -> str:
    """The text of ``key`` in ``lang``, formatted with ``fmt`` (``str.format`` fields)."""
    s = catalogue(lang).gettext(key)
    return s.format(**fmt) if fmt else s


def known(key: str, lang: str = "en") -> bool:
    """Whether the catalogue of ``lang`` has a text for ``key`` (no log, no marker)."""
    return key in catalogue(lang).keys


def keys_under(prefix: str, lang: str = "en") -> list[str]:
    """The keys that start with ``prefix`` (``report.label.``), prefix removed, sorted."""
    return sorted(k[len(prefix):] for k in catalogue(lang).keys if k.startswith(prefix))


class Texts(Mapping[str, str]):
    """The texts under one prefix in one language, as a read-only mapping (``t["rank"]``,
    or ``t.rank`` in a Jinja template): what a page or a report reads its words from."""

    def __init__(self, prefix: str, lang: str) -> None:
        # underscored: a template reads its words as attributes (``t.lang`` is a text)
        self._prefix = prefix
        self._lang = lang

    def __getitem__(self, key: str) -> str:
        return text(self._prefix + key, self._lang)

    def __iter__(self) -> Iterator[str]:
        return iter(keys_under(self._prefix, self._lang))

    def __len__(self) -> int:
        return len(keys_under(self._prefix, self._lang))
