"""The tamper-evident record as the referee reads it: the chain's entries (who, when, what),
the same entries ``referee-app log --hand ID`` prints, and the record's digest line for the
status bar (so a posted sheet can be matched to this database)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from ..i18n import tr
from .wraplist import WrappedRows

#: chain actions the GUI names in words (others are shown as stored)
ACTIONS = ("hand.add", "hand.amend", "hand.status", "hand.voided", "hand.restored",
           "event.create", "event.update", "event.import_legacy", "backup.restore",
           "penalty.add", "penalty.void", "players.add", "players.status", "players.update",
           "referee.add", "referee.locked", "referee.pin", "referee.remove", "round.plan",
           "round.seat", "round.set_seating", "round.set_seat", "round.reseat",
           "event.migrate", "round.start", "round.extend", "record.key")
#: detail keys shown in words; hand ids are the dialog's own hand and are left out
DETAIL_KEYS = ("version", "status", "reason", "override", "round", "table", "hand_no", "name",
               "head", "players", "penalty_id", "cap_fan", "stake", "ruleset", "seat",
               "player", "client", "self_verify", "minutes", "fingerprint", "previous",
               "pins_moved_out", "first", "started")


def action_text(action: str) -> str:
    return tr(f"log_{action}") if action in ACTIONS else action


def _value(key: str, v: Any) -> str:
    if key == "status" and isinstance(v, str):
        return tr(f"status_{v}") if v in ("entered", "verified", "void") else v
    if isinstance(v, bool):
        return tr("yes") if v else tr("no")
    if isinstance(v, list):
        return ", ".join(str(x) for x in v)
    return str(v)


def detail_text(detail: Mapping[str, Any]) -> str:
    """``version 2 · reason: wrong tile`` from an entry's detail (empty values left out)."""
    parts = []
    for k, v in detail.items():
        if k in ("hand_id", "log", "redacted") or v in (None, "", [], {}):
            continue
        label = tr(f"logkey_{k}") if k in DETAIL_KEYS else k
        parts.append(f"{label}: {_value(k, v)}")
    return " · ".join(parts)


def digest_text(entries: int, short: str, key: str = "") -> str:
    """The status bar's record line: entry count, the chain's 12-digit digest and the short
    form of the key that signs it (as every report's footer)."""
    if key:
        return tr("record_digest_key", n=entries, digest=short, fp=key)
    return tr("record_digest", n=entries, digest=short)


class RecordLogTable(QTableWidget):
    """One row per chain entry: number, when, referee, what, details."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 5, parent)
        self.setObjectName("record_log")
        self.verticalHeader().setVisible(False)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.entries: list[dict[str, Any]] = []
        self.wrapped = WrappedRows(self)  # long details wrap, never "…"

    def set_entries(self, entries: Sequence[Mapping[str, Any]]) -> None:
        self.entries = [dict(e) for e in entries]
        self.setHorizontalHeaderLabels([tr("log_entry_no"), tr("When"), tr("Referee"), tr("Action"),
                                        tr("Details")])
        self.setRowCount(len(self.entries))
        for r, e in enumerate(self.entries):
            at = str(e.get("at", ""))
            cells = [str(e["id"]), at[:19].replace("T", " "), e.get("referee") or "—",
                     action_text(str(e.get("action", ""))), detail_text(e.get("detail") or {})]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                self.setItem(r, c, item)
        self.resizeColumnsToContents()
        self.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.wrapped.fit()

    def rows(self) -> list[list[str]]:
        """The cells as shown (tests, copying)."""
        return [[self.item(r, c).text() for c in range(self.columnCount())]
                for r in range(self.rowCount())]
