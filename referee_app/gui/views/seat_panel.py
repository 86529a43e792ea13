"""One seat of the entry form: concealed tiles and pongs typed in notation, drawn as tiles."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QGridLayout, QGroupBox, QLabel, QLineEdit, QSizePolicy, QWidget

from referee_app.core import TileParseError, parse_tiles

from ..i18n import seat_name, tr
from .tiles import TileGroup, TileStrip

#: one style sheet; a seat with a problem only flips the ``problem`` property (re-setting a
#: style sheet re-polished every child: most of a keystroke's time with 2,000 hands)
PANEL_STYLE = ("QGroupBox { border: 1px solid #b9b2a0; border-radius: 6px; margin-top: 1.2em; }"
               " QGroupBox::title { subcontrol-origin: margin; left: 8px; }"
               ' QGroupBox[problem="true"] { border: 2px solid #b3261e; }'
               ' QGroupBox[problem="true"]::title { color: #b3261e; }')


_FORM_KEYS = {QKeySequence("Ctrl+Z"), QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")}


class FormLineEdit(QLineEdit):
    """A line edit that leaves undo/redo keys to the form's undo stack (one history for
    the whole form, not one per field)."""

    def event(self, e: QEvent) -> bool:
        if e.type() == QEvent.Type.ShortcutOverride and (
                e.matches(QKeySequence.StandardKey.Undo) or e.matches(QKeySequence.StandardKey.Redo)
                or QKeySequence(e.keyCombination()) in _FORM_KEYS):
            e.ignore()
            return True
        return super().event(e)


def tiles_or_none(text: str) -> tuple[Any, ...] | None:
    try:
        return parse_tiles(text)
    except TileParseError:
        return None


class MessageLine(QLabel):
    """A seat's problems under its tiles. Room for two lines is always there; a longer
    message gets the lines it needs instead of being cut at the top and bottom (issue 25),
    and keeps that room while the hand is in the form: a typo that comes and goes does not
    make the form jump (nor re-lay out the whole tab on each keystroke)."""

    MIN_LINES = 2

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setStyleSheet("color: #b3261e")
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self._room = 0
        self._fit()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def forget_room(self) -> None:
        """Another hand: no message yet, back to two lines."""
        self._room = 0
        self.setText("")

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self._room = 0  # other widths, other line counts
            self._fit()

    def _fit(self) -> None:
        least = self.MIN_LINES * self.fontMetrics().lineSpacing() + 4
        need = self.heightForWidth(self.width()) if self.text() and self.width() > 0 else 0
        self._room = max(least, need, self._room)
        if self.minimumHeight() != self._room or self.maximumHeight() != self._room:
            self.setFixedHeight(self._room)


class SeatPanel(QGroupBox):
    """One seat: concealed tiles and pongs typed in notation, drawn as tiles as typed."""

    edited = Signal(str, str, str)  # seat, field ("concealed" | "pongs"), new text

    def __init__(self, seat: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.seat = seat
        self.setObjectName(f"seat_{seat}")
        self.player: str | None = None
        self.dealer = False
        self.kongs: tuple[Any, ...] = ()
        self.has_problem = False
        self.concealed = FormLineEdit()
        self.concealed.setObjectName(f"concealed_{seat}")
        self.pongs = FormLineEdit()
        self.pongs.setObjectName(f"pongs_{seat}")
        self.tiles = TileStrip(36)
        self.message = MessageLine()
        self.message.setObjectName(f"seat_message_{seat}")
        # as tall as the row it shares with its neighbour (a longer message grows both)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        #: the last tiles each field could be read as (shown faded while it cannot)
        self.last_good: dict[str, tuple[Any, ...]] = {"concealed": (), "pongs": ()}
        self.last_good_text: dict[str, str] = {"concealed": "", "pongs": ""}
        self.lbl_concealed = QLabel()
        self.lbl_pongs = QLabel()
        self.lbl_concealed.setBuddy(self.concealed)
        self.lbl_pongs.setBuddy(self.pongs)
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 14, 8, 6)
        grid.setVerticalSpacing(4)
        grid.addWidget(self.lbl_concealed, 0, 0)
        grid.addWidget(self.concealed, 0, 1)
        grid.addWidget(self.lbl_pongs, 1, 0)
        grid.addWidget(self.pongs, 1, 1)
        grid.addWidget(self.tiles, 2, 0, 1, 2)
        grid.addWidget(self.message, 3, 0, 1, 2)
        grid.setColumnStretch(1, 1)
        grid.setRowStretch(4, 1)  # a taller neighbour: the room goes below the message
        self.concealed.textEdited.connect(lambda t: self.edited.emit(self.seat, "concealed", t))
        self.pongs.textEdited.connect(lambda t: self.edited.emit(self.seat, "pongs", t))
        self.concealed.textChanged.connect(self._redraw)
        self.pongs.textChanged.connect(self._redraw)
        self.setProperty("problem", False)
        self.setStyleSheet(PANEL_STYLE)
        self.retranslate()

    def retranslate(self, *_args: object) -> None:
        self.lbl_concealed.setText(tr("Concealed"))
        self.lbl_pongs.setText(tr("Pongs"))
        self.concealed.setPlaceholderText(tr("concealed_hint"))
        self.pongs.setPlaceholderText(tr("pongs_hint"))
        self._title()

    def _title(self) -> None:
        parts = [seat_name(self.seat)]
        if self.player:
            parts.append(self.player)
        title = " · ".join(parts)
        if self.dealer:
            title += f"  【{tr('dealer_mark')}】"
        self.setTitle(title)

    def set_identity(self, player: str | None, dealer: bool) -> None:
        self.player, self.dealer = player, dealer
        self._title()

    def reset(self) -> None:
        """Another hand: forget the last good tiles of the previous one."""
        self.last_good = {"concealed": (), "pongs": ()}
        self.last_good_text = {"concealed": "", "pongs": ""}
        self.message.forget_room()

    def unreadable(self) -> list[str]:
        """The fields ("concealed", "pongs") whose text cannot be read as tiles now."""
        return [n for n, e in (("concealed", self.concealed), ("pongs", self.pongs))
                if tiles_or_none(e.text()) is None]

    def set_texts(self, concealed: str, pongs: str) -> None:
        """Show the form's text without echoing it back as an edit (keeps the cursor)."""
        for edit, text in ((self.concealed, concealed), (self.pongs, pongs)):
            if edit.text() != text:
                pos = edit.cursorPosition()
                edit.setText(text)
                edit.setCursorPosition(min(pos, len(text)))

    def set_problems(self, messages: list[str]) -> None:
        bad = bool(messages)
        if bad != self.has_problem:  # restyling is slow: only when the state flips
            self.has_problem = bad
            self.setProperty("problem", bad)
            self.style().unpolish(self)
            self.style().polish(self)
            self.update()
        text = "\n".join(messages)
        if self.message.text() != text:
            self.message.setText(text)

    def set_kongs(self, tiles: tuple[Any, ...]) -> None:
        """Kongs come from the event list; they are drawn as exposed groups of four."""
        if tiles != self.kongs:
            self.kongs = tiles
            self._redraw()

    def _redraw(self) -> None:
        stale = False
        got = {}
        for name, edit in (("concealed", self.concealed), ("pongs", self.pongs)):
            tiles = tiles_or_none(edit.text())
            if tiles is None:  # a typo: keep drawing what the field last said, faded
                stale = True
                tiles = self.last_good[name]
            else:
                self.last_good[name] = tuple(tiles)
                self.last_good_text[name] = edit.text()
            got[name] = tiles
        concealed, pongs = got["concealed"], got["pongs"]
        self.tiles.set_stale(stale)
        self.tiles.set_groups([TileGroup(tuple(concealed))]
                              + [TileGroup((t, t, t), exposed=True) for t in pongs]
                              + [TileGroup((t, t, t, t), exposed=True) for t in self.kongs])
