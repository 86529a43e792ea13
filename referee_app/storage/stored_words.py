"""A stored settlement's English words, said in another language when asked.

The settlement stored with each hand keeps its payments' reasons in English (the
``sichuan-settlement/1`` document, verified byte for byte). A line that shows one (a
player's statement, a hand's history) holds it as a :class:`StoredReason`: its English as
stored, and — only when a screen asks for another language — the same reason said from
today's settlement of the record, when that is exactly the stored one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee_app.core import Ruleset
from referee_app.core.errors import Message
from referee_app.core.settle import as_stored
from referee_app.core.wording import Reason


class StoredReason(Message):
    """A payment's reason on a statement: the string is its stored English; :meth:`text`
    says it in another language from today's settlement of the record, settled only then
    (and only when that is the stored settlement: else the stored words stay)."""

    def __new__(cls, stored: str, fresh: Callable[[], Sequence[Any] | None],
                index: int) -> StoredReason:  # type: ignore[misc]
        self = str.__new__(cls, stored)
        self.code, self.params = "", {}
        self._fresh, self._index = fresh, index
        return self

    def text(self, lang: str) -> str:
        pays = self._fresh() if lang != "en" else None
        if not pays:
            return str(self)
        p = pays[self._index]
        return Reason(p.code, p.params).text(lang)

    def data(self) -> dict[str, Any]:  # type: ignore[override]
        return {"message": str(self)}

    def __reduce__(self) -> tuple[Any, ...]:
        return str, (str(self),)


def today_if_stored(record: Mapping[str, Any], settlement: Mapping[str, Any],
                    rules: Ruleset) -> Callable[[], Any]:
    """:func:`hand_detail`'s ``settled``: the record settled now under ``rules``, when
    that is the stored settlement (None otherwise, or when the record no longer reads)."""
    def settled() -> Any:
        return as_stored(settlement, record, rules)
    return settled
