"""The entry form's live preview: problems with their clauses, wins, payments and totals."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QListWidgetItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..controllers.entry import Evaluation
from ..i18n import LANG, bonus_name, both, reason_text, seat_name, tr
from ..messages import shown_problem
from .colours import GREEN, RED, brush
from .wraplist import WrapList, WrappedRows

STALE = "#9a9a9a"  # what rests on a seat's last readable tiles


class PreviewPanel(QWidget):
    """Problems (each with its clause), wins, payments and totals of the form as it stands."""

    problem_activated = Signal(object)  # Problem

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.validation_box = QGroupBox()
        self.problems = WrapList()
        self.problems.setObjectName("problems")
        self.problems.itemActivated.connect(self._problem_activated)
        v = QVBoxLayout(self.validation_box)
        v.addWidget(self.problems)

        self.settle_box = QGroupBox()
        self.wins = QTableWidget(0, 5)
        self.wins.setObjectName("wins")
        self.payments = QTableWidget(0, 5)
        self.payments.setObjectName("payments")
        for t in (self.wins, self.payments):
            t.verticalHeader().setVisible(False)
            t.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            t.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            t.verticalHeader().setDefaultSectionSize(22)
        self.wins.setMaximumHeight(120)
        self.wins_rows = WrappedRows(self.wins)  # a long pattern wraps, never "…"
        for table, stretch in ((self.wins, 2), (self.payments, 4)):
            header = table.horizontalHeader()
            for c in range(table.columnCount()):
                header.setSectionResizeMode(c, QHeaderView.ResizeMode.Stretch if c == stretch
                                            else QHeaderView.ResizeMode.ResizeToContents)
        self.totals_row = QHBoxLayout()
        self.total_labels: dict[str, QLabel] = {}
        self.lbl_wins, self.lbl_payments, self.lbl_totals = QLabel(), QLabel(), QLabel()
        for lbl in (self.lbl_wins, self.lbl_payments, self.lbl_totals):
            f = lbl.font()
            f.setBold(True)
            lbl.setFont(f)
        s = QVBoxLayout(self.settle_box)
        s.addWidget(self.lbl_wins)
        s.addWidget(self.wins)
        s.addWidget(self.lbl_payments)
        s.addWidget(self.payments, 1)
        s.addWidget(self.lbl_totals)
        s.addLayout(self.totals_row)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.validation_box)
        lay.addWidget(self.settle_box, 1)
        self._players: dict[str, str | None] = {}
        self._last: Evaluation | None = None
        self._stale: set[str] = set()
        self._problems_given: tuple[Any, ...] | None = None
        self._shown_totals = {}
        self._label_colours = {}
        self._problem_rows: list[Any] = []
        self._problem_texts: list[str] = []
        #: the wins' and payments' lines shown, in a language: the same again is not rewritten
        self._settled_rows: tuple[str, list[Any], list[Any]] | None = None
        self.retranslate()

    def _problem_activated(self, item: QListWidgetItem) -> None:
        row = self.problems.row(item)
        if 0 <= row < len(self._problem_rows):
            self.problem_activated.emit(self._problem_rows[row])

    def retranslate(self, *_args: object) -> None:
        self.validation_box.setTitle(tr("Validation"))
        self.settle_box.setTitle(tr("Settlement"))
        self.lbl_wins.setText(tr("Wins"))
        self.lbl_payments.setText(tr("Payments"))
        self.lbl_totals.setText(tr("Totals"))
        self.wins.setHorizontalHeaderLabels([tr("Seat"), tr("Player"), tr("Pattern"), tr("Fan"),
                                             tr("Chips")])
        self.payments.setHorizontalHeaderLabels([tr("From"), tr("To"), tr("Chips"), tr("Clause"),
                                                 tr("Reason")])
        if self._last is not None:
            self.show_evaluation(self._last, self._players, self._stale, self._problems_given)

    def set_seats(self, seats: tuple[str, ...]) -> None:
        while self.totals_row.count():
            item = self.totals_row.takeAt(0)
            if item.widget():
                item.widget().deleteLater()
        self.total_labels = {}
        self._shown_totals: dict[str, int | None] = {}
        self._label_colours: dict[str, str] = {}
        for s in seats:
            lbl = QLabel()
            lbl.setObjectName(f"total_{s}")
            lbl.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lbl.setFrameShape(QFrame.Shape.StyledPanel)
            f = lbl.font()
            f.setPointSize(f.pointSize() + 3)
            f.setBold(True)
            lbl.setFont(f)
            lbl.setMinimumHeight(48)
            self.total_labels[s] = lbl
            self.totals_row.addWidget(lbl)

    def set_void(self, void: bool) -> None:
        if void != getattr(self, "_void", False):
            self._void = void
            self.settle_box.setEnabled(not void)
            self.settle_box.setTitle(tr("Settlement") + (f" — ⊘ {tr('void_counts_nothing')}"
                                                         if void else ""))

    def totals(self) -> dict[str, int | None]:
        """The totals as shown (None where no total is shown): what the referee reads."""
        return {s: self._shown_totals.get(s) for s in self.total_labels}

    def show_evaluation(self, ev: Evaluation, players: dict[str, str | None],
                        stale: set[str] | frozenset[str] = frozenset(),
                        problems: tuple[Any, ...] | None = None) -> None:
        """Show ``ev``. ``stale`` seats were settled with their last readable tiles (the
        real form has a typo there, listed in ``problems``): what involves them is greyed,
        the rest shows as usual."""
        self._last, self._players = ev, players
        self._stale, self._problems_given = set(stale), problems
        problems = ev.problems if problems is None else problems
        self._problem_rows = list(problems)
        texts = []
        for p in problems:
            clause, message = shown_problem(p)
            if not clause:  # an unreadable field: the message names it in words
                texts.append(message)
                continue
            where = seat_name(p.seat) if p.seat else ""
            if p.event is not None:
                where = (where + " " if where else "") + f"#{p.event + 1}"
            texts.append(f"{clause}  {where}: {message}" if where else f"{clause}  {message}")
        texts = texts or [tr("empty_form") if ev.blank else tr("no_problems")]
        if texts != self._problem_texts:  # most keystrokes leave the problems as they were
            self._problem_texts = texts
            self.problems.clear()
            colour = brush(RED if problems else "#666666" if ev.blank else GREEN)
            rules = ev.rules if ev.record is not None else None
            for i, text in enumerate(texts):
                it = QListWidgetItem(text)
                it.setForeground(colour)
                if rules and i < len(problems) and problems[i].rule:
                    c = rules.clause(problems[i].clause)
                    title = (c.title_zh or c.title_en) if LANG.code == "zh" else \
                        (c.title_en or c.title_zh)
                    if title:
                        it.setToolTip(f"{c.id} {title}")
                self.problems.addItem(it)
            self.problems.relayout()
        s = ev.settlement
        wins = s.wins if s is not None and s.ok else ()
        pays = s.payments if s is not None and s.ok else ()
        win_rows = []
        for w in wins:
            sc = w.score
            pattern = both(sc.pattern, sc.pattern_en)
            if sc.bonuses:
                pattern += " + " + " + ".join(bonus_name(ev.rules or s.ruleset, b.name)
                                              for b in sc.bonuses)
            win_rows.append(([seat_name(w.seat), players.get(w.seat) or "", pattern, str(w.fan),
                              str(w.chips)], w.seat in stale))
        pay_rows = [([seat_name(p.payer), seat_name(p.payee), str(p.chips), p.clause,
                      reason_text(p)], p.payer in stale or p.payee in stale) for p in pays]
        if (LANG.code, win_rows, pay_rows) != self._settled_rows:  # a save, a reload: the same
            self._settled_rows = (LANG.code, win_rows, pay_rows)
            self._show_wins(win_rows)
            self._show_payments(pay_rows)
        totals = s.totals if s is not None and s.ok else {}
        # a total depends on a stand-in seat if it is one, or paid/was paid by one
        touched = set(stale) | {q for p in pays for q in (p.payer, p.payee)
                                if {p.payer, p.payee} & set(stale)}
        for seat, lbl in self.total_labels.items():
            name = players.get(seat) or ""
            val = totals.get(seat)
            self._shown_totals[seat] = None if seat in touched else val
            if val is not None and seat in touched:
                colour = STALE
                lbl.setText(f"{seat_name(seat)} {name}\n≈{val:+d}")
                lbl.setToolTip(tr("stale_tip"))
            elif val is not None:
                colour = GREEN if val > 0 else RED if val < 0 else "#444444"
                lbl.setText(f"{seat_name(seat)} {name}\n{val:+d}")
            else:
                colour = "#777777"
                lbl.setText(f"{seat_name(seat)} {name}\n—")
            if self._label_colours.get(seat) != colour:  # recolour only on a change
                self._label_colours[seat] = colour
                pal = lbl.palette()  # a palette, not a style sheet: no re-polish per key
                pal.setColor(QPalette.ColorRole.WindowText, QColor(colour))
                lbl.setPalette(pal)

    def _show_wins(self, rows: list[tuple[list[str], bool]]) -> None:
        """The wins' lines: a win's fan and chips rest on the winner's tiles (dimmed when
        they are stand-ins)."""
        before = [[self.wins.item(r, 2).text() if self.wins.item(r, 2) else ""]
                  for r in range(self.wins.rowCount())]
        self.wins.setRowCount(len(rows))
        for r, (cells, dim) in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(tr("stale_tip") if dim else text)
                if dim:
                    item.setForeground(brush(STALE))
                self.wins.setItem(r, c, item)
        if before != [[self.wins.item(r, 2).text()] for r in range(len(rows))]:
            self.wins_rows.fit()  # only a changed pattern can change a row's lines

    def _show_payments(self, rows: list[tuple[list[str], bool]]) -> None:
        self.payments.setRowCount(len(rows))
        for r, (cells, dim) in enumerate(rows):
            for c, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if dim:
                    item.setForeground(brush(STALE))
                    item.setToolTip(tr("stale_tip"))
                if c == 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                self.payments.setItem(r, c, item)
