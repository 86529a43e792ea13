"""Interface language (中文 / English) of the desk, switchable at run time.

The texts come from the one catalogue every layer reads (:mod:`referee_app.core.i18n`,
gettext files under ``referee_app/locale/``); this module keeps the desk's current language.
Views call :func:`tr` whenever they (re)build their texts and listen to
:data:`LANG.changed` to retranslate. A key the catalogue lacks shows as ``⟦key⟧``.
"""

from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QObject, QTranslator, Signal

from referee_app.core.i18n import LANGS, known, text
from referee_app.core.results import Payment, RuleViolation, TraceStep
from referee_app.core.wording import reason_text as payment_reason
from referee_app.core.wording import step_text, violation_text

log = logging.getLogger(__name__)

#: Qt's own catalogue for a desk language (English needs none: it is Qt's source text)
QT_CATALOGUES: dict[str, str] = {"zh": "qtbase_zh_CN"}


#: the catalogue's keys for Qt's own texts that the shipped qtbase catalogue lacks
QT_PREFIX = "qt."


class CatalogueQtTexts(QTranslator):
    """Qt's texts missing from the qtbase catalogue (Qt 6 reworded "&Look in:" and "Files of
    &type:"), from ours: key ``qt.<context>.<source text>``; searched before qtbase."""

    def __init__(self, parent: QObject, code: str) -> None:
        super().__init__(parent)
        self.code = code

    def isEmpty(self) -> bool:
        return False

    def translate(self, context: str, source: str, disambiguation: str | None = None,
                  n: int = -1) -> str | None:
        key = f"{QT_PREFIX}{context}.{source}"
        # None is Qt's null string: "not mine", so the next translator (qtbase) is asked
        return text(key, self.code) if known(key, self.code) else None


class QtTranslation:
    """Qt's own words (OK/Cancel, the file dialogs) in the desk's language: the qtbase
    translations PySide6 ships, installed on the application while the desk is in 中文,
    and our catalogue's few texts qtbase lacks."""

    def __init__(self) -> None:
        self.translator: QTranslator | None = None
        self.supplement: QTranslator | None = None

    def follow(self, code: str) -> None:
        """Install (or remove) Qt's catalogue for ``code``; nothing before a QApplication."""
        app = QCoreApplication.instance()
        if app is None:
            return
        name = QT_CATALOGUES.get(code)
        current = self.translator
        if current is not None and current.parent() is app and \
                current.objectName() == (name or ""):
            return
        for old in (current, self.supplement):
            if old is not None:
                QCoreApplication.removeTranslator(old)
                old.deleteLater()  # a switch back loads afresh: none pile up on the app
        self.translator = self.supplement = None
        if name is None:
            return
        translator = QTranslator(app)
        folder = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
        if not translator.load(name, folder):
            log.warning("Qt's %s translations are not in %s", name, folder)
            return
        translator.setObjectName(name)
        QCoreApplication.installTranslator(translator)
        self.translator = translator
        self.supplement = CatalogueQtTexts(app, code)
        QCoreApplication.installTranslator(self.supplement)


QT_TRANSLATION = QtTranslation()

#: a seat's wind in 中文 is the catalogue's ``seat.<E|S|W|N>``
SEAT_PREFIX = "seat."


class _Language(QObject):
    """The current interface language; emits ``changed`` after a switch."""

    changed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.code = "zh"

    def set(self, code: str) -> None:
        if code not in LANGS:
            raise ValueError(f"language: unknown code {code!r} (en or zh)")
        QT_TRANSLATION.follow(code)
        if code != self.code:
            self.code = code
            self.changed.emit(code)


LANG = _Language()


def tr(key: str, **fmt: object) -> str:
    """The text for ``key`` in the current language (``⟦key⟧``, logged once, when unknown)."""
    return text(key, LANG.code, **fmt)


def trace_text(step: TraceStep) -> str:
    """A trace step in the current language, from the catalogue."""
    return step_text(step, LANG.code)


def reason_text(payment: Payment) -> str:
    """A payment's reason in the current language."""
    return payment_reason(payment, LANG.code)


def violation_words(v: RuleViolation) -> str:
    """A broken rule's message in the current language (seats as the desk names them); a
    violation known only by its stored English (no code) is shown as stored."""
    if not v.code:
        return v.message
    return violation_text(v.code, v.params, LANG.code, seat=seat_name)


def seat_name(seat: str) -> str:
    """``东 E`` in Chinese mode, ``E 东`` in English: both scripts, so either reader finds it."""
    if not known(SEAT_PREFIX + seat):
        return seat
    zh = text(SEAT_PREFIX + seat, "zh")
    return f"{zh} {seat}" if LANG.code == "zh" else f"{seat} {zh}"


def bonus_name(ruleset: Any, zh: str) -> str:
    """A bonus item's name in both languages, English from the ruleset's data (a Ruleset,
    the tournament's own; or a shipped id), as the reports name it."""
    from referee_app.core import Ruleset, get_ruleset
    from referee_app.reports.detail import bonus_names

    rules = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    names = bonus_names(rules, zh)
    return both(zh, names.text("en"))


def both(zh: str, en: str) -> str:
    """A name shown in both languages (pattern names), the current language first."""
    if not en or en == zh:
        return zh
    return f"{zh} {en}" if LANG.code == "zh" else f"{en} {zh}"
