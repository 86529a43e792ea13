"""Rule trace: every payment and trace line with its clause, and the clause's own texts.

Works on a settlement *dict* (``sichuan-settlement/1``), so it shows a stored hand's
settlement exactly as saved, or the entry form's live one. Selecting a line shows the
clause's original Chinese, the English rendering and the app's Reading, as returned by
``Ruleset.clause(cid)`` of the tournament's own ruleset (a club's file stored in the
tournament shows the club's texts).
"""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHeaderView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from referee_app.core import Ruleset, Settlement, UnknownRulesetError, get_ruleset
from referee_app.core.wording import reading_text

from ..i18n import (
    LANG,
    bonus_name,
    both,
    reason_text,
    seat_name,
    tr,
    trace_text,
    violation_words,
)
from ..messages import exception_text
from .colours import RED, brush
from .keyboard import start_above_rows, with_mnemonic
from .whatif import WhatIfPanel
from .wraplist import WrapList


def clause_html(ruleset: Ruleset | str, clause_id: str) -> str:
    """The clause's title, original Chinese, English and Reading, as rich text."""
    try:
        rules = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
        c = rules.clause(clause_id)
    except UnknownRulesetError as e:
        return f"<p>{escape(exception_text(e))}</p>"
    title = " · ".join(x for x in (c.title_zh, c.title_en) if x)
    parts = [f"<h3>{escape(c.id)} {escape(title)}</h3>"]
    for label, text in ((tr("Original"), c.zh), (tr("English"), c.en),
                        (tr("Reading"), reading_text(rules.id, c.id, c.reading, LANG.code))):
        if text:
            parts.append(f"<p><b>{escape(label)}</b><br>{escape(text)}</p>")
    if len(parts) == 1:
        parts.append("<p>—</p>")
    return "".join(parts)


def clause_of_line(line: str) -> str:
    """A trace line starts with its clause id (``§2.10 S declares …``)."""
    return line.split(" ", 1)[0] if line else ""


def _split(orientation: Qt.Orientation, *parts: tuple[QWidget, int]) -> QSplitter:
    """A splitter of (widget, stretch) parts, none of which collapses to nothing."""
    split = QSplitter(orientation)
    for i, (w, stretch) in enumerate(parts):
        split.addWidget(w)
        split.setStretchFactor(i, stretch)
    split.setChildrenCollapsible(False)
    return split


class TraceView(QWidget):
    """The rule-trace tab (also used inside the history dialog)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._settlement: dict[str, Any] | None = None
        self._data: Settlement | None = None
        self._ruleset: Ruleset | str = "ottawa-2009"
        self.title = QLabel()
        self.title.setObjectName("trace_title")
        f = self.title.font()
        f.setBold(True)
        f.setPointSize(f.pointSize() + 1)
        self.title.setFont(f)
        self.wins = WrapList()
        self.wins.max_lines_height = 110
        self.wins.setObjectName("trace_wins")
        self.payments = QTableWidget(0, 5)
        self.payments.setObjectName("trace_payments")
        self.payments.verticalHeader().setVisible(False)
        self.payments.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.payments.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.payments.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.payments.verticalHeader().setDefaultSectionSize(22)
        self.payments.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.lines = QListWidget()
        self.lines.setObjectName("trace_lines")
        self.lines.setWordWrap(True)
        self.clause = QTextBrowser()
        self.clause.setObjectName("clause_text")
        cf = self.clause.font()
        cf.setPointSizeF(cf.pointSizeF() * 1.15)  # the text read out at a dispute
        self.clause.setFont(cf)
        self.box_pay = QGroupBox()
        QVBoxLayout(self.box_pay).addWidget(self.payments)
        self.box_lines = QGroupBox()
        QVBoxLayout(self.box_lines).addWidget(self.lines)
        self.box_clause = QGroupBox()
        QVBoxLayout(self.box_clause).addWidget(self.clause)
        self.box_wins = QGroupBox()
        QVBoxLayout(self.box_wins).addWidget(self.wins)

        # left: what the hand paid, as tall as the window allows (the payments and the
        # trace lines share it); right: the clause read out at a dispute, and what-if
        lower = _split(Qt.Orientation.Vertical, (self.box_pay, 1), (self.box_lines, 1))
        left = QWidget()
        left_lay = QVBoxLayout(left)
        left_lay.setContentsMargins(0, 0, 0, 0)
        left_lay.addWidget(self.box_wins)  # as tall as its lines
        left_lay.addWidget(lower, 1)
        self.whatif = WhatIfPanel()
        right = _split(Qt.Orientation.Vertical, (self.box_clause, 1), (self.whatif, 0))
        split = _split(Qt.Orientation.Horizontal, (left, 3), (right, 2))
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addWidget(self.title)
        lay.addWidget(split, 1)

        self.payments.itemSelectionChanged.connect(self._payment_selected)
        self.lines.itemSelectionChanged.connect(lambda: self._list_selected(self.lines))
        self.wins.itemSelectionChanged.connect(lambda: self._list_selected(self.wins))
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.whatif.retranslate()
        # Alt+letter takes the focus to the box's list (the same letters in both languages)
        self.box_wins.setTitle(with_mnemonic(tr("Wins"), "W"))
        self.box_pay.setTitle(with_mnemonic(tr("Payments"), "P"))
        self.box_lines.setTitle(with_mnemonic(tr("Trace lines"), "T"))
        self.box_clause.setTitle(with_mnemonic(tr("clause_texts"), "C"))
        self.payments.setHorizontalHeaderLabels([tr("From"), tr("To"), tr("Chips"), tr("Clause"),
                                                 tr("Reason")])
        if self._settlement is not None:
            self.show_settlement(self._settlement, self._ruleset, self.title.text(),
                                 self._data)
        else:
            self.clause.setHtml(f"<p>{escape(tr('select_payment'))}</p>")

    def show_settlement(self, settlement: dict[str, Any] | None, ruleset: Ruleset | str,
                        title: str = "", data: Settlement | None = None) -> None:
        """Show a settlement dict; ``None`` clears the view. ``ruleset``: the tournament's
        own Ruleset (whose clause texts are shown), or a shipped id. ``data``: the same
        settlement as values (today's engine's), whose steps, reasons and violations are
        shown in the desk's language; without it the dict's English is shown as stored."""
        self._settlement, self._ruleset, self._data = settlement, ruleset, data
        self.title.setText(title)
        s = settlement or {}
        self.wins.clear()
        for w in s.get("wins", []):
            bonuses = " + ".join(f"{bonus_name(ruleset, b['name'])} {b['clause']}"
                                 for b in w.get("bonuses", []))
            text = (f"{seat_name(w['seat'])}: {w.get('pattern_clause', '')} "
                    f"{both(w.get('pattern', ''), w.get('pattern_en', ''))}"
                    + (f" + {bonuses}" if bonuses else "")
                    + f" = {w.get('fan')} {tr('fan_unit')} = {w.get('chips')} "
                    f"{tr('chip_unit' if w.get('chips') == 1 else 'chips_unit')}")
            it = QListWidgetItem(text)
            it.setData(Qt.ItemDataRole.UserRole, w.get("pattern_clause", ""))
            self.wins.addItem(it)
        self.wins.relayout()
        pays = s.get("payments", [])
        paid = data.payments if data is not None else ()
        self.payments.clearSelection()  # another hand: the first Down is its payment 1
        start_above_rows(self.payments)
        self.payments.setRowCount(len(pays))
        for r, p in enumerate(pays):
            cells = [seat_name(p["from"]), seat_name(p["to"]), str(p["chips"]), p["clause"],
                     reason_text(paid[r]) if r < len(paid) else p.get("reason", "")]
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, p["clause"])
                if c == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.payments.setItem(r, c, item)
        self.payments.resizeColumnsToContents()
        self.payments.horizontalHeader().setSectionResizeMode(4, QHeaderView.ResizeMode.Stretch)
        self.lines.clear()
        steps = data.steps if data is not None else ()
        for i, line in enumerate(s.get("trace", [])):
            shown = trace_text(steps[i]) if i < len(steps) else line
            it = QListWidgetItem(shown)
            it.setToolTip(shown)  # the whole line where the list is too narrow for it
            it.setData(Qt.ItemDataRole.UserRole,
                       steps[i].clause if i < len(steps) else clause_of_line(line))
            self.lines.addItem(it)
        broken = data.errors if data is not None else ()
        for i, e in enumerate(s.get("errors", [])):
            said = violation_words(broken[i]) if i < len(broken) else e["message"]
            it = QListWidgetItem(f"{e['clause']} ✗ {e.get('seat') or ''} {said}")
            it.setForeground(brush(RED))
            it.setData(Qt.ItemDataRole.UserRole, e["clause"])
            self.lines.addItem(it)
        self.clause.setHtml(f"<p>{escape(tr('select_payment'))}</p>")

    def show_clause(self, clause_id: str) -> None:
        self.clause.setHtml(clause_html(self._ruleset, clause_id))

    def select_payment(self, row: int) -> None:
        self.payments.selectRow(row)

    def _payment_selected(self) -> None:
        items = self.payments.selectedItems()
        if items:
            self.show_clause(items[0].data(Qt.ItemDataRole.UserRole))

    def _list_selected(self, lst: QListWidget) -> None:
        items = lst.selectedItems()
        if items:
            self.show_clause(items[0].data(Qt.ItemDataRole.UserRole))
