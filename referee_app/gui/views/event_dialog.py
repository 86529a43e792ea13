"""The compact dialog for one event of a hand: a kong or a win, in the record's own terms."""

from __future__ import annotations

from typing import Any

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

from referee_app.core import TileParseError, get_ruleset, parse_tiles

from ..i18n import seat_name, tr
from .tiles import TileGroup, TileStrip

KONG_KINDS = ("concealed", "added", "direct")


class EventDialog(QDialog):
    """Edit one event dict (``{"type": "kong"|"win", ...}``); :meth:`result_event` returns the result.

    It only collects fields: whether the event is legal is the engine's call, shown live in
    the entry form after the dialog closes.
    """

    def __init__(self, ruleset: str, event: dict[str, Any], parent: QWidget | None = None,
                 players: dict[str, str | None] | None = None) -> None:
        super().__init__(parent)
        self._rules = get_ruleset(ruleset)
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
                self.kind.addItem(tr(f"kind_{k}"), k)
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
        else:
            winners = set(event.get("seats") or [])
            box = QHBoxLayout()
            self.winners: dict[str, QCheckBox] = {}
            for s in seats:
                cb = QCheckBox(self._seat_label(s))
                cb.setObjectName(f"winner_{s}")
                cb.setChecked(s in winners)
                self.winners[s] = cb
                box.addWidget(cb)
            self.frm = QComboBox()
            self.frm.setObjectName("event_from")
            self.frm.addItem(tr("self_drawn"), "")
            for s in seats:
                self.frm.addItem(self._seat_label(s), s)
            self.frm.setCurrentIndex(max(0, self.frm.findData(event.get("from") or "")))
            flags_box = QVBoxLayout()
            self.flags: dict[str, QCheckBox] = {}
            have = set(event.get("flags") or [])
            for f in sorted(self._rules.flags):
                cb = QCheckBox(tr(f"flag_{f}"))
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

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                   | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(form)
        lay.addWidget(buttons)
        self._show_tile()

    def _seat_label(self, s: str) -> str:
        p = self._players.get(s)
        return f"{seat_name(s)} {p}" if p else seat_name(s)

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
            self.tile_msg.setText(str(e))
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
