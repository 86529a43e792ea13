"""The compact dialog for one event of a hand: a kong or a win, in the record's own terms.

Keys: one per seat — E S W N or 1–4 — picks the kong's seat, toggles a winner (focus on
the winners) or picks the discarder (focus on the discarder; 0 or - is self-drawn); c a d
pick the kong's kind; each flag has its underlined Alt+letter (the same letter as ``+r``
in the events line), the most common flags first. Enter is OK.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from referee_app.core import Ruleset, TileParseError, get_ruleset, parse_tiles

from ..controllers.event_line import FLAG_KEYS
from ..i18n import seat_name, tr
from ..messages import exception_text
from .tiles import TileGroup, TileStrip

KONG_KINDS = ("concealed", "added", "direct")
_SEAT_KEYS = {Qt.Key.Key_E: 0, Qt.Key.Key_S: 1, Qt.Key.Key_W: 2, Qt.Key.Key_N: 3,
              Qt.Key.Key_1: 0, Qt.Key.Key_2: 1, Qt.Key.Key_3: 2, Qt.Key.Key_4: 3}
_KIND_KEYS = {Qt.Key.Key_C: "concealed", Qt.Key.Key_A: "added", Qt.Key.Key_D: "direct"}
_SELF_KEYS = (Qt.Key.Key_0, Qt.Key.Key_Minus)


class _Keys(QObject):
    """Event filter: a plain key on a watched widget runs ``fn(key)``; True eats the key."""

    def __init__(self, fn: Any, parent: QObject) -> None:
        super().__init__(parent)
        self.fn = fn

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:
        if e.type() == QEvent.Type.KeyPress and not (
                e.modifiers() & (Qt.KeyboardModifier.AltModifier
                                 | Qt.KeyboardModifier.ControlModifier)):
            return bool(self.fn(e.key()))
        return False


class EventDialog(QDialog):
    """Edit one event dict (``{"type": "kong"|"win", ...}``); :meth:`result_event` returns the result.

    It only collects fields: whether the event is legal is the engine's call, shown live in
    the entry form after the dialog closes.
    """

    def __init__(self, ruleset: Ruleset | str, event: dict[str, Any],
                 parent: QWidget | None = None,
                 players: dict[str, str | None] | None = None) -> None:
        super().__init__(parent)
        self._rules = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
        self._type = event.get("type", "win")
        self._players = players or {}
        seats = self._rules.seats
        self.setWindowTitle(tr("Kong") if self._type == "kong" else tr("Win"))
        form = QFormLayout()
        self.tile = QLineEdit(str(event.get("tile", "")))
        self.tile.setObjectName("event_tile")
        self.tile.setPlaceholderText("5p / 5筒")
        self.tile_view = TileStrip(30)
        self.tile_msg = QLabel()
        self.tile_msg.setStyleSheet("color: #b3261e")
        tile_row = QHBoxLayout()
        tile_row.addWidget(self.tile, 1)
        tile_row.addWidget(self.tile_view, 1)
        self.tile.textChanged.connect(self._show_tile)

        if self._type == "kong":
            self.seat = QComboBox()
            self.seat.setObjectName("event_seat")
            for s in seats:
                self.seat.addItem(self._seat_label(s), s)
            self.seat.setCurrentIndex(max(0, self.seat.findData(event.get("seat", seats[0]))))
            self.kind = QComboBox()
            self.kind.setObjectName("event_kind")
            for k in KONG_KINDS:
                self.kind.addItem(f"{tr(f'kind_{k}')} ({k[0]})", k)  # its key shown
            self.kind.setCurrentIndex(max(0, self.kind.findData(event.get("kind", "concealed"))))
            self.frm = QComboBox()
            self.frm.setObjectName("event_from")
            self.frm.addItem("—", "")
            for s in seats:
                self.frm.addItem(self._seat_label(s), s)
            self.frm.setCurrentIndex(max(0, self.frm.findData(event.get("from") or "")))
            self.kind.currentIndexChanged.connect(self._kind_changed)
            form.addRow(tr("Seat"), self.seat)
            form.addRow(tr("Tile"), tile_row)
            form.addRow("", self.tile_msg)
            form.addRow(tr("Kind"), self.kind)
            form.addRow(tr("Discarder"), self.frm)
            self._kind_changed()
            seat_keys = _Keys(lambda k: self._pick(self.seat, k, 0), self)
            self.seat.installEventFilter(seat_keys)
            kind_keys = _Keys(self._kind_key, self)
            for w in (self.seat, self.kind):
                w.installEventFilter(kind_keys)
            self.frm.installEventFilter(_Keys(lambda k: self._pick(self.frm, k, 1), self))
            self.seat.setFocus()
        else:
            winners = set(event.get("seats") or [])
            box = QHBoxLayout()
            self.winners: dict[str, QCheckBox] = {}
            win_keys = _Keys(self._winner_key, self)
            for i, s in enumerate(seats):
                cb = QCheckBox(self._seat_label(s))
                cb.setObjectName(f"winner_{s}")
                cb.setChecked(s in winners)
                cb.installEventFilter(win_keys)
                if i:  # one Tab stop for the winners: the seat keys toggle each of them
                    cb.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
                self.winners[s] = cb
                box.addWidget(cb)
            self.frm = QComboBox()
            self.frm.setObjectName("event_from")
            self.frm.addItem(tr("self_drawn"), "")
            for s in seats:
                self.frm.addItem(self._seat_label(s), s)
            self.frm.setCurrentIndex(max(0, self.frm.findData(event.get("from") or "")))
            self.frm.installEventFilter(_Keys(lambda k: self._pick(self.frm, k, 1), self))
            flags_box = QVBoxLayout()
            self.flags: dict[str, QCheckBox] = {}
            have = set(event.get("flags") or [])
            order = [f for f in FLAG_KEYS if f in self._rules.flags] + sorted(
                f for f in self._rules.flags if f not in FLAG_KEYS)
            for f in order:
                key = FLAG_KEYS.get(f)
                cb = QCheckBox(f"{tr(f'flag_{f}')} (&{key.upper()})" if key else tr(f"flag_{f}"))
                cb.setObjectName(f"flag_{f}")
                cb.setChecked(f in have)
                self.flags[f] = cb
                flags_box.addWidget(cb)
            self.passed = QSpinBox()
            self.passed.setObjectName("event_passed_fan")
            self.passed.setRange(-1, 20)
            self.passed.setSpecialValueText(tr("none"))
            pf = event.get("passed_fan")
            self.passed.setValue(-1 if pf is None else int(pf))
            form.addRow(tr("Winners"), box)
            form.addRow(tr("Tile"), tile_row)
            form.addRow("", self.tile_msg)
            form.addRow(tr("Discarder"), self.frm)
            form.addRow(tr("Flags"), flags_box)
            form.addRow(tr("Passed fan"), self.passed)
            first = next(iter(self.winners.values()), None)
            if first is not None:
                first.setFocus()

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.keys_hint = QLabel(tr("dlg_keys_kong" if self._type == "kong" else "dlg_keys_win"))
        self.keys_hint.setObjectName("event_keys_hint")
        self.keys_hint.setWordWrap(True)
        self.keys_hint.setStyleSheet("color: #6b6455")
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(self.keys_hint)
        lay.addWidget(buttons)
        self._show_tile()

    def _seat_label(self, s: str) -> str:
        p = self._players.get(s)
        return f"{seat_name(s)} {p}" if p else seat_name(s)

    def _pick(self, combo: QComboBox, key: int, offset: int) -> bool:
        """A seat key on a seat box: choose that seat (``offset`` 1 skips the "—" item);
        0 or - on the discarder box: none / self-drawn."""
        if key in _SEAT_KEYS and _SEAT_KEYS[key] < len(self._rules.seats):
            combo.setCurrentIndex(_SEAT_KEYS[key] + offset)
            return True
        if offset and key in _SELF_KEYS:
            combo.setCurrentIndex(0)
            return True
        return False

    def _kind_key(self, key: int) -> bool:
        if key in _KIND_KEYS:
            self.kind.setCurrentIndex(self.kind.findData(_KIND_KEYS[key]))
            return True
        return False

    def _winner_key(self, key: int) -> bool:
        seats = self._rules.seats
        if key in _SEAT_KEYS and _SEAT_KEYS[key] < len(seats):
            cb = self.winners[seats[_SEAT_KEYS[key]]]
            cb.setChecked(not cb.isChecked())
            return True
        return False

    def _kind_changed(self) -> None:
        direct = self.kind.currentData() == "direct"
        self.frm.setEnabled(direct)
        if not direct:
            self.frm.setCurrentIndex(0)

    def _show_tile(self) -> None:
        try:
            tiles = parse_tiles(self.tile.text())
            self.tile_msg.setText("")
        except TileParseError as e:
            tiles = ()
            self.tile_msg.setText(exception_text(e))
        self.tile_msg.setVisible(bool(self.tile_msg.text()))
        self.tile_view.set_groups([TileGroup(tiles)])

    def result_event(self) -> dict[str, Any]:
        """The edited event dict, in the ``sichuan-hand/1`` shape."""
        d: dict[str, Any] = {"type": self._type}
        if self._type == "kong":
            d["seat"] = self.seat.currentData()
            d["tile"] = self.tile.text().strip()
            d["kind"] = self.kind.currentData()
            if d["kind"] == "direct":
                d["from"] = self.frm.currentData()
        else:
            d["seats"] = [s for s, cb in self.winners.items() if cb.isChecked()]
            d["tile"] = self.tile.text().strip()
            if self.frm.currentData():  # "" is self-drawn
                d["from"] = self.frm.currentData()
            flags = [f for f, cb in self.flags.items() if cb.isChecked()]
            if flags:
                d["flags"] = flags
            if self.passed.value() >= 0:
                d["passed_fan"] = self.passed.value()
        return d
