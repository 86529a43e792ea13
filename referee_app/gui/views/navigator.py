"""Navigator tree (tournament → rounds → tables → hands, with status marks) and seating view."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ..i18n import LANG, seat_name, tr
from ..messages import line_text
from .colours import brush

#: status -> (mark, colour); a hand shows every mark that applies
STATUS_MARKS: dict[str, tuple[str, str]] = {
    "entered": ("●", "#555555"),
    "verified": ("✔", "#1b7a3a"),
    "amended": ("✎", "#1d4f91"),
    "void": ("⊘", "#888888"),
    "override": ("⚠", "#b3261e"),
}


#: the navigator never takes more than this for its rows (it scrolls sideways beyond)
MAX_WIDTH = 380


def hand_marks(hand: Any) -> list[str]:
    """Status names of a HandInfo: its status plus amended / override flags."""
    marks = [hand.status.value if hasattr(hand.status, "value") else str(hand.status)]
    marks += [f for f in hand.flags if f not in marks]
    return marks


class Navigator(QTreeWidget):
    """Emits ``table_selected(round, table)`` and ``hand_selected(hand_id)`` when a node is
    *opened*: Enter, a click, or :meth:`select_key`. Moving with the arrow keys only moves
    (a referee browses without the form taking the focus); the tree keeps the rounds and
    tables the referee expanded across reloads; typing digits jumps among siblings (``9``
    → hand 9 of the table, ``3`` → table 3 of the round).
    """

    table_selected = Signal(int, int)
    hand_selected = Signal(int)
    round_selected = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("navigator")
        self.setHeaderHidden(True)
        self.setUniformRowHeights(True)
        # a row is never cut with "…": the column is as wide as its longest row, the tree
        # scrolls sideways beyond its width, and it starts wide enough for the usual rows.
        # The width is measured when rows come or open (_fit_column), not by the header's
        # ResizeToContents: that measured every shown row (2,000 tables at 1,000 players)
        # again at each selection, 15-24 ms a save
        self.header().setStretchLastSection(False)
        self.header().setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        self.itemExpanded.connect(self._fit_column)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.itemSelectionChanged.connect(self._moved)
        self.itemActivated.connect(lambda _it, _c: self._selected())
        self.itemClicked.connect(lambda _it, _c: self._selected())
        #: keys of expanded nodes (None: first build, default expansion)
        self._expanded: set[tuple] | None = None
        self._in_play: int | None = None  # the round in play (marked)
        self._data: tuple[str, Sequence[int],
                          Mapping[int, Mapping[int, Mapping[str, str]]]] | None = None
        #: the hands shown, by id (HandSummary or HandInfo values)
        self._hands: dict[int, Any] = {}
        self._items: dict[tuple, QTreeWidgetItem] = {}
        #: a collapsed table's hands, added to the tree when it opens (launch time: 2,000
        #: hand rows are not built for tables nobody has expanded)
        self._pending: dict[tuple[int, int], list[Any]] = {}
        self._hand_table: dict[int, tuple[int, int]] = {}
        self.itemExpanded.connect(self._expanding)
        LANG.changed.connect(self._rebuild)

    def populate(self, title: str, rounds: Sequence[int],
                 seating: Mapping[int, Mapping[int, Mapping[str, str]]],
                 hands: Sequence[Any], in_play: int | None = None) -> None:
        """``seating[round][table][seat] -> player``; ``hands`` are HandInfo values;
        ``in_play``: the round in play, marked."""
        if self._data is not None and self._data[0] != title:
            self._expanded = None  # another tournament: default expansion
        self._in_play = in_play
        self._data = (title, list(rounds), seating)
        self._hands = {h.id: h for h in hands}
        self._rebuild()

    def update_hands(self, hands: Sequence[Any]) -> bool:
        """Show these hands as they are now (a save changed them, here or at another desk):
        a shown row gets its new marks, a new hand its row in its table (or waits with the
        table's other rows until the table is opened); nothing else is rebuilt. False when a
        hand's table is not in the tree (a round seated meanwhile): populate again."""
        if self._data is None or any(("table", h.round, h.table) not in self._items
                                     for h in hands):
            return False
        blocked = self.signalsBlocked()
        self.blockSignals(True)
        for h in hands:
            self._hands[h.id] = h
            self._hand_table[h.id] = (h.round, h.table)
            table = (h.round, h.table)
            item = self._items.get(("hand", h.id))
            if item is not None:
                self._style(item, h)
            elif table in self._pending:
                rest = [x for x in self._pending[table] if x.id != h.id]
                self._pending[table] = sorted([*rest, h], key=lambda x: x.hand_no)
            else:
                ti = self._items[("table", *table)]
                at = 0
                while at < ti.childCount() and self._hands[
                        ti.child(at).data(0, Qt.ItemDataRole.UserRole)[1]].hand_no < h.hand_no:
                    at += 1
                ti.insertChild(at, self._hand_item(h))
        self.blockSignals(blocked)
        # a new or changed row in view may be wider than the column (a hand's row sits three
        # levels in; measured alone, not every row again)
        need = max((self.fontMetrics().horizontalAdvance(it.text(0)) + 3 * self.indentation()
                    + 24 for h in hands if (it := self._items.get(("hand", h.id)))), default=0)
        if need > self.columnWidth(0):
            self._fit_column()
        return True

    def expanded_keys(self) -> set[tuple]:
        """Keys of the nodes now expanded (kept across rebuilds)."""
        return {k for k, it in getattr(self, "_items", {}).items() if it.isExpanded()}

    def _item(self, key: tuple) -> QTreeWidgetItem | None:
        """The node of ``key``; a hand's row is built (with its table's) when first asked."""
        it = self._items.get(key)
        if it is None and key[:1] == ("hand",) and key[1] in self._hand_table:
            self._fill(self._hand_table[key[1]])
            it = self._items.get(key)
        return it

    def _expanding(self, item: QTreeWidgetItem) -> None:
        key = item.data(0, Qt.ItemDataRole.UserRole) or ()
        if key[:1] == ("table",):
            self._fill((key[1], key[2]))
            self._fit_width()

    def _fill(self, table: tuple[int, int]) -> None:
        """Add the hand rows of a table not built yet."""
        hands = self._pending.pop(table, None)
        ti = self._items.get(("table", *table))
        if hands is None or ti is None:
            return
        blocked = self.signalsBlocked()
        self.blockSignals(True)
        ti.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.DontShowIndicatorWhenChildless)
        for h in hands:
            ti.addChild(self._hand_item(h))
        self.blockSignals(blocked)

    def _hand_item(self, h: Any) -> QTreeWidgetItem:
        """A hand's row (kept in ``_items``)."""
        hi = QTreeWidgetItem()
        hi.setData(0, Qt.ItemDataRole.UserRole, ("hand", h.id))
        self._style(hi, h)
        self._items[("hand", h.id)] = hi
        return hi

    @staticmethod
    def _style(hi: QTreeWidgetItem, h: Any) -> None:
        """A hand row's text (number, marks, status words) and colour (its worst mark)."""
        marks = hand_marks(h)
        symbols = "".join(STATUS_MARKS.get(m, ("?", ""))[0] for m in marks)
        text = f"{tr('hand_n', n=h.hand_no)}  {symbols} " + ", ".join(
            tr(f"status_{m}") for m in marks)
        hi.setText(0, text)
        hi.setToolTip(0, text)
        worst = "override" if "override" in marks else "void" if "void" in marks \
            else marks[-1]
        hi.setForeground(0, brush(STATUS_MARKS.get(worst, ("", "#000000"))[1]))

    def _rebuild(self, *_args: object) -> None:
        if self._data is None:
            return
        title, rounds, seating = self._data
        hands = list(self._hands.values())
        keep = self.current_key()
        if getattr(self, "_items", None):
            self._expanded = self.expanded_keys()
        self.blockSignals(True)
        self.clear()
        root = QTreeWidgetItem([title])
        root.setToolTip(0, title)
        root.setData(0, Qt.ItemDataRole.UserRole, ("tournament",))
        self.addTopLevelItem(root)
        by_table: dict[tuple[int, int], list[Any]] = {}
        for h in hands:
            by_table.setdefault((h.round, h.table), []).append(h)
        tables_of: dict[int, set[int]] = {r: set(seating.get(r, {})) for r in rounds}
        for r, t in by_table:
            tables_of.setdefault(r, set()).add(t)
        self._items = {}
        self._pending = {}
        self._hand_table = {h.id: (h.round, h.table) for h in hands}
        for r in sorted(tables_of):
            ri = QTreeWidgetItem([tr("round_n", n=r) + (f" · {tr('round_in_play')}"
                                                         if r == self._in_play else "")])
            ri.setData(0, Qt.ItemDataRole.UserRole, ("round", r))
            root.addChild(ri)
            self._items[("round", r)] = ri
            for t in sorted(tables_of[r]):
                names = seating.get(r, {}).get(t, {})
                label = tr("table_n", n=t)
                if names:
                    label += " · " + " ".join(names.values())
                ti = QTreeWidgetItem([label])
                ti.setToolTip(0, label)
                ti.setData(0, Qt.ItemDataRole.UserRole, ("table", r, t))
                ri.addChild(ti)
                self._items[("table", r, t)] = ti
                mine = sorted(by_table.get((r, t), []), key=lambda h: h.hand_no)
                if mine:
                    self._pending[(r, t)] = mine
                    ti.setChildIndicatorPolicy(QTreeWidgetItem.ChildIndicatorPolicy.ShowIndicator)
        root.setExpanded(True)
        if self._expanded is None:  # first build: rounds open, tables closed
            for i in range(root.childCount()):
                root.child(i).setExpanded(True)
        else:
            for k in self._expanded:
                if k in self._items:
                    if k[:1] == ("table",):
                        self._fill((k[1], k[2]))
                    self._items[k].setExpanded(True)
        self.blockSignals(False)
        self._fit_column()
        if keep is not None and self._item(keep) is not None:
            self.select_key(keep, emit=False)
        self._fit_width()

    def _fit_column(self, *_args: object) -> None:
        """The column as wide as its widest shown row (rows added or opened)."""
        self.resizeColumnToContents(0)

    def _fit_width(self) -> None:
        """Wide enough for the tournament's name and its tables' rows (up to MAX_WIDTH):
        the window's splitter gives the tree at least that."""
        frame = 2 * self.frameWidth() + self.verticalScrollBar().sizeHint().width() + 8
        self.setMinimumWidth(min(MAX_WIDTH, max(200, self.sizeHintForColumn(0) + frame)))

    def item_text(self, key: tuple) -> str:
        """The text shown for a node (``("hand", id)``, ``("table", r, t)``, …), or ""."""
        it = self._item(key)
        return "" if it is None else it.text(0)

    def current_key(self) -> tuple | None:
        it = self.currentItem()
        return None if it is None else it.data(0, Qt.ItemDataRole.UserRole)

    def select_key(self, key: tuple, emit: bool = True) -> bool:
        """Make ``key`` current (expanding its parents); with ``emit`` also open it."""
        it = self._item(key)
        if it is None:
            return False
        self.blockSignals(True)
        p = it.parent()
        while p is not None:  # parents open first: the view lays its rows out once
            p.setExpanded(True)
            p = p.parent()
        self.setCurrentItem(it)
        it.setSelected(True)
        self.scrollToItem(it)
        self.blockSignals(False)
        if emit:
            self._selected()
        return True

    def keyboardSearch(self, search: str) -> None:
        """Type-ahead: digits jump to the sibling with that number (hand, table, round);
        other text matches the start of a node's text (the marks come after the name)."""
        cur = self.currentItem()
        if cur is None:
            return super().keyboardSearch(search)
        parent = cur.parent()
        siblings = [parent.child(i) for i in range(parent.childCount())] if parent else \
            [self.topLevelItem(i) for i in range(self.topLevelItemCount())]
        if search.isdigit():
            for it in siblings:
                key = it.data(0, Qt.ItemDataRole.UserRole) or ()
                if self._number(key) == int(search):
                    self.setCurrentItem(it)
                    return
        return super().keyboardSearch(search)

    def _number(self, key: tuple) -> int | None:
        """The number a referee types for a node: round, table or hand number."""
        if key[:1] == ("round",):
            return int(key[1])
        if key[:1] == ("table",):
            return int(key[2])
        if key[:1] == ("hand",) and key[1] in self._hands:
            return int(self._hands[key[1]].hand_no)
        return None

    def _moved(self) -> None:
        """Arrowing: only the seating tab follows the round; nothing opens."""
        key = self.current_key()
        if key and key[0] == "round":
            self.round_selected.emit(key[1])

    def _selected(self) -> None:
        key = self.current_key()
        if not key:
            return
        if key[0] == "hand":
            self.hand_selected.emit(key[1])
        elif key[0] == "table":
            self.table_selected.emit(key[1], key[2])
        elif key[0] == "round":
            self.round_selected.emit(key[1])


class SeatingView(QWidget):
    """A round's seating: one row per table, one column per seat of the ruleset.

    ``seat_round_requested`` and ``swap_requested(round, table, seat)`` ask the window to
    seat the next round or to put another player in the selected seat.
    """

    round_changed = Signal(int)
    seat_round_requested = Signal()
    start_round_requested = Signal()
    swap_requested = Signal(int, int, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.round_box = QComboBox()
        self.round_box.setObjectName("seating_round")
        self.round_box.currentIndexChanged.connect(self._round)
        self.lbl = QLabel()
        self.byes = QLabel()
        self.table = QTableWidget(0, 0)
        self.table.setObjectName("seating_table")
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().setDefaultSectionSize(26)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.itemSelectionChanged.connect(self._selection)
        self.table.itemActivated.connect(lambda _it: self._swap())
        self.btn_seat = QPushButton()
        self.btn_seat.setObjectName("seat_round_button")
        self.btn_seat.clicked.connect(self.seat_round_requested)
        self.btn_start = QPushButton()
        self.btn_start.setObjectName("start_round_button")
        self.btn_start.clicked.connect(self.start_round_requested)
        self.btn_swap = QPushButton()
        self.btn_swap.setObjectName("swap_button")
        self.btn_swap.setEnabled(False)
        self.btn_swap.clicked.connect(self._swap)
        self.problems = QLabel()
        self.problems.setObjectName("seating_problems")
        self.problems.setWordWrap(True)
        top = QHBoxLayout()
        top.addWidget(self.lbl)
        top.addWidget(self.round_box)
        top.addStretch(1)
        top.addWidget(self.btn_swap)
        top.addWidget(self.btn_start)
        top.addWidget(self.btn_seat)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(6, 6, 6, 6)
        lay.addLayout(top)
        lay.addWidget(self.table, 1)
        lay.addWidget(self.byes)
        lay.addWidget(self.problems)
        self._seating: Any = None
        self._stale = False  # another round chosen while the tab was hidden: drawn when shown
        self._rounds: list[int] = []
        self._next_round = 1
        self._problems: list[str] | None = None
        LANG.changed.connect(self.retranslate)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl.setText(tr("Round") + ":")
        self.btn_swap.setText(tr("Swap/move player…"))
        self.btn_start.setText(tr("Start round…"))
        self.btn_swap.setToolTip(tr("select_seat"))
        self.set_next_round(self._next_round)
        self.set_rounds(self._rounds)
        if self._seating is not None:
            self.show_seating(self._seating, self._problems)
        else:
            self.problems.setText(tr("no_rounds"))

    def show_empty(self) -> None:
        """No round is seated (a new tournament)."""
        self._seating, self._problems = None, None
        self.table.setRowCount(0)
        self.byes.setText("")
        self.problems.setText(tr("no_rounds"))
        self.problems.setStyleSheet("")
        self._selection()

    def set_next_round(self, n: int) -> None:
        """The round the "Seat round N…" button seats."""
        self._next_round = n
        self.btn_seat.setText(tr("Seat round n…", n=n))

    def selected_seat(self) -> tuple[int, int, str] | None:
        """(round, table, seat) of the selected seat cell, or None (table column, nothing,
        or the grid still an earlier round's)."""
        items = self.table.selectedItems()
        r = self.current_round()
        if not items or r is None or self._stale:
            return None
        key = items[0].data(Qt.ItemDataRole.UserRole)
        return None if not key else (r, int(key[0]), str(key[1]))

    def select_seat(self, table: int, seat: str) -> bool:
        for row in range(self.table.rowCount()):
            for col in range(1, self.table.columnCount()):
                it = self.table.item(row, col)
                key = None if it is None else it.data(Qt.ItemDataRole.UserRole)
                if key and tuple(key) == (table, seat):
                    self.table.setCurrentCell(row, col)
                    return True
        return False

    def _selection(self) -> None:
        self.btn_swap.setEnabled(self.selected_seat() is not None)

    def _swap(self) -> None:
        sel = self.selected_seat()
        if sel is not None:
            self.swap_requested.emit(*sel)

    def set_rounds(self, rounds: Sequence[int], prefer: int | None = None) -> None:
        """The rounds to choose from; the one shown stays, else ``prefer`` (the round in
        play), else the first."""
        current = self.current_round() or prefer or 0
        self._rounds = list(rounds)
        self.round_box.blockSignals(True)
        self.round_box.clear()
        for r in self._rounds:
            self.round_box.addItem(tr("round_n", n=r), r)
        idx = self.round_box.findData(current)
        self.round_box.setCurrentIndex(idx if idx >= 0 else 0)
        self.round_box.blockSignals(False)

    def _round(self, _i: int) -> None:
        """Another round chosen (here, or by the navigator following the form): its grid is
        read and drawn now if the tab is on screen, else when it is shown — 30 ms of 250
        tables redrawn unseen each time the form moved to another round's hand."""
        r = self.current_round()
        if r is None:
            return
        if not self.isVisible():
            self._stale = True  # the grid is an earlier round's until the tab is shown
            self.table.clearSelection()
            return
        self._stale = False
        self.round_changed.emit(r)

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self._round(-1)

    def current_round(self) -> int | None:
        if self.round_box.currentIndex() < 0:
            return None
        return int(self.round_box.currentData())

    def show_seating(self, seating: Any, problems: Sequence[str] | None = None) -> None:
        """Show a storage ``Seating`` (tables[table][seat] -> player, byes) and the store's
        ``seating_problems`` for that round under the grid."""
        self._stale = False
        self._seating = seating
        self._problems = None if problems is None else list(problems)
        seats = tuple(seating.seats)
        self.table.setColumnCount(1 + len(seats))
        self.table.setHorizontalHeaderLabels([tr("Table")] + [seat_name(s) for s in seats])
        tables = seating.tables
        self.table.setRowCount(len(tables))
        absent = set(getattr(seating, "absent", ()))
        for r, (t, row) in enumerate(tables.items()):
            item = QTableWidgetItem(tr("table_n", n=t))
            self.table.setItem(r, 0, item)
            item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsSelectable)
            for c, s in enumerate(seats, start=1):
                name = row.get(s, "—")
                cell = QTableWidgetItem(tr("absent_mark", name=name) if name in absent
                                        else name)
                if name in absent:  # seated but not here: to re-seat
                    cell.setForeground(brush("#b3261e"))
                cell.setData(Qt.ItemDataRole.UserRole, (t, s))
                self.table.setItem(r, c, cell)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        parts = [tr("repeat_pairs", n=seating.repeat_pairs)]
        if getattr(seating, "team_pairs", 0):
            parts.append(tr("team_pairs", n=seating.team_pairs))
        if seating.byes:
            parts.append(tr("byes", names=", ".join(seating.byes)))
        seated = {n for row in tables.values() for n in row.values()}
        if absent - seated:
            parts.append(tr("absent_list", names=", ".join(
                n for n in seating.absent if n not in seated)))
        self.byes.setText("   ".join(parts))
        if self._problems is None:
            self.problems.setText("")
        elif self._problems:
            self.problems.setText(tr("seating_problems", list="; ".join(
                line_text(p) for p in self._problems)))
            self.problems.setStyleSheet("color: #b3261e")
        else:
            self.problems.setText(tr("seating_ok"))
            self.problems.setStyleSheet("color: #1b7a3a")
        self._selection()
