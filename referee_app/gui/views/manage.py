"""Forms for running a tournament from the window: new tournament, add player, seat a
round, move a player to a seat.

Each form only lays out its fields. Pressing OK hands the form to a ``submit`` callback
(the window's, which makes one store call through the Desk); if the store refuses, the
error is shown by ``on_error`` and the form stays open with what was typed, so nothing is
lost and nothing was saved.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from ..i18n import LANG, seat_name, tr
from ..messages import exception_text
from .keyboard import cannot_be_undone
from .ruleset_file import RulesetFilePanel

#: the ruleset box's entry for a club's ruleset file
FROM_FILE = "\x00file"
#: player statuses in the order the forms list them (the store's PlayerStatus values)
PLAYER_STATUSES = ("active", "absent", "withdrawn", "late", "substitute")


class SubmitDialog(QDialog):
    """A form whose OK runs ``submit(self)``; a ValueError/OSError keeps it open."""

    def __init__(self, title: str, submit: Callable[[Any], object],
                 on_error: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(title)
        self._submit = submit
        self._on_error = on_error
        self.outcome: object = None  # what submit returned (e.g. the new Desk)
        self.form = QFormLayout()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok
                                        | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.button(QDialogButtonBox.StandardButton.Ok).setText(tr("OK"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(tr("Cancel"))
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        lay = QVBoxLayout(self)
        lay.addLayout(self.form)
        lay.addWidget(self.buttons)

    def cannot_be_undone(self, ok: str, letter: str) -> None:
        """OK cannot be undone: it says what it does, Cancel is the default (Enter never
        does it), and its Alt+letter or a click does; the form says so above the buttons."""
        note = cannot_be_undone(self.buttons, ok, letter)
        lay = self.layout()
        assert isinstance(lay, QVBoxLayout)
        lay.insertWidget(lay.count() - 1, note)

    def fields(self) -> list[QWidget]:
        """The form's fields that take the focus, top to bottom."""
        out: list[QWidget] = []

        def walk(item: Any) -> None:
            if item is None:
                return
            w = item.widget()
            if w is not None:
                if w.focusPolicy() & Qt.FocusPolicy.TabFocus and not w.isHidden():
                    out.append(w)
                return
            lay = item.layout()
            if lay is not None:
                for i in range(lay.count()):
                    walk(lay.itemAt(i))

        for row in range(self.form.rowCount()):
            for role in (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole,
                         QFormLayout.ItemRole.SpanningRole):
                walk(self.form.itemAt(row, role))
        return out

    def showEvent(self, event: Any) -> None:
        """Tab goes down the fields, then OK and Cancel; the first field has the focus
        (the buttons, made first, were first in the chain: the focus started on one)."""
        super().showEvent(event)
        chain = self.fields() + [b for b in self.buttons.buttons() if b.isVisible()]
        for a, b in zip(chain, chain[1:], strict=False):
            QWidget.setTabOrder(a, b)
        if chain:
            chain[0].setFocus(Qt.FocusReason.TabFocusReason)

    def accept(self) -> None:
        try:
            self.outcome = self._submit(self)
        except (ValueError, OSError) as e:
            self._on_error(exception_text(e))
            return
        super().accept()


class NewTournamentDialog(SubmitDialog):
    """File → New tournament…: where to save it, name, ruleset (a shipped one, or a club's
    file with its differences listed), venue, dates, stake."""

    def __init__(self, rulesets: Sequence[tuple[str, str, str]],
                 ask_save_file: Callable[[str, str, str], str], submit: Callable[[Any], object],
                 on_error: Callable[[str], None], parent: QWidget | None = None,
                 ask_open_file: Callable[[str, str], str] | None = None,
                 load_ruleset_file: Callable[[str], Any] | None = None) -> None:
        super().__init__(tr("New tournament"), submit, on_error, parent)
        self.setObjectName("new_tournament_dialog")
        self.resize(620, 0)
        self._ask_save_file = ask_save_file
        self.path = QLineEdit()
        self.path.setObjectName("nt_path")
        browse = self.browse = QPushButton(tr("Browse…"))
        browse.setObjectName("nt_browse")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        self.name = QLineEdit()
        self.name.setObjectName("nt_name")
        self.ruleset = QComboBox()
        self.ruleset.setObjectName("nt_ruleset")
        for rid, en, zh in rulesets:
            self.ruleset.addItem(f"{zh if LANG.code == 'zh' else en}  ({rid})", rid)
            self.ruleset.setItemData(self.ruleset.count() - 1, f"{zh}\n{en}",
                                     Qt.ItemDataRole.ToolTipRole)  # both names
        self.venue = QLineEdit()
        self.venue.setObjectName("nt_venue")
        self.start_date = QLineEdit()
        self.start_date.setObjectName("nt_start")
        self.end_date = QLineEdit()
        self.end_date.setObjectName("nt_end")
        for w in (self.start_date, self.end_date):
            w.setPlaceholderText(tr("date_hint"))
        self.stake = QSpinBox()
        self.stake.setObjectName("nt_stake")
        self.stake.setRange(1, 1_000_000)
        self.cap = QSpinBox()
        self.cap.setObjectName("nt_cap")
        self.cap.setRange(0, 99)
        self.cap.setSpecialValueText(tr("cap_none"))  # 0 shows as "the ruleset's"
        self.form.addRow(tr("Tournament file"), row)
        self.form.addRow(tr("Name"), self.name)
        self.form.addRow(tr("Ruleset"), self.ruleset)
        self.file_rules: Any = None  # the club's Ruleset when "from file" is chosen
        self.ruleset_file: RulesetFilePanel | None = None
        if ask_open_file is not None and load_ruleset_file is not None:
            self.ruleset_file = RulesetFilePanel(ask_open_file, load_ruleset_file,
                                                 self._file_loaded)
            self.form.addRow("", self.ruleset_file)
        self.form.addRow(tr("Venue"), self.venue)
        self.form.addRow(tr("Start date"), self.start_date)
        self.form.addRow(tr("End date"), self.end_date)
        self.form.addRow(tr("Stake"), self.stake)
        self.form.addRow(tr("Cap"), self.cap)

    def _file_loaded(self, result: Any) -> None:
        """The checked file becomes the chosen ruleset (one "from file" entry), its stake
        the form's."""
        self.file_rules = result.rules
        i = self.ruleset.findData(FROM_FILE)
        if i < 0:
            self.ruleset.addItem("", FROM_FILE)
            i = self.ruleset.count() - 1
        r = result.rules
        name = r.name_zh if LANG.code == "zh" else r.name
        self.ruleset.setItemText(i, f"{name}  ({r.id}) — {tr('from_file')}")
        self.ruleset.setItemData(i, f"{r.name_zh}\n{r.name}\n{result.path}",
                                 Qt.ItemDataRole.ToolTipRole)
        self.ruleset.setCurrentIndex(i)
        self.stake.setValue(r.stake)

    def _browse(self) -> None:
        path = self._ask_save_file(tr("Tournament file"), tr("db_file"), self.path.text())
        if path:
            self.path.setText(path)

    def values(self) -> dict[str, Any]:
        return {"path": self.path.text().strip(), "name": self.name.text(),
                "ruleset": (self.file_rules if self.ruleset.currentData() == FROM_FILE
                            else self.ruleset.currentData()), "venue": self.venue.text(),
                "start_date": self.start_date.text().strip(),
                "end_date": self.end_date.text().strip(), "stake": self.stake.value(),
                "cap_fan": self.cap.value() or None}


class AddPlayerDialog(SubmitDialog):
    """Players → Add player…: the record name (unique), Latin name, club, status."""

    def __init__(self, submit: Callable[[Any], object], on_error: Callable[[str], None],
                 parent: QWidget | None = None) -> None:
        super().__init__(tr("Add player"), submit, on_error, parent)
        self.setObjectName("add_player_dialog")
        self.resize(420, 0)
        self.name = QLineEdit()
        self.name.setObjectName("ap_name")
        self.name_latin = QLineEdit()
        self.name_latin.setObjectName("ap_latin")
        self.club = QLineEdit()
        self.club.setObjectName("ap_club")
        self.team = QLineEdit()
        self.team.setObjectName("ap_team")
        self.team.setPlaceholderText(tr("team_hint"))
        self.status = QComboBox()
        self.status.setObjectName("ap_status")
        for st in PLAYER_STATUSES:
            self.status.addItem(tr(f"pstatus_{st}"), st)
        self.form.addRow(tr("Name"), self.name)
        self.form.addRow(tr("Latin name"), self.name_latin)
        self.form.addRow(tr("Club"), self.club)
        self.form.addRow(tr("team_col"), self.team)
        self.form.addRow(tr("Status"), self.status)

    def values(self) -> dict[str, str]:
        return {"name": self.name.text(), "name_latin": self.name_latin.text(),
                "club": self.club.text(), "status": self.status.currentData(),
                "team": self.team.text()}


class EditPlayerDialog(SubmitDialog):
    """Players → Edit player…: Latin name, club and team of one player (and the record
    name, which the store refuses to change once the player has a hand)."""

    def __init__(self, player: Any, submit: Callable[[Any], object],
                 on_error: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(tr("edit_player_title", name=player.name), submit, on_error, parent)
        self.setObjectName("edit_player_dialog")
        self.resize(420, 0)
        self.player = player
        self.name = QLineEdit(player.name)
        self.name.setObjectName("ep_name")
        self.name_latin = QLineEdit(player.name_latin)
        self.name_latin.setObjectName("ep_latin")
        self.club = QLineEdit(player.club)
        self.club.setObjectName("ep_club")
        self.team = QLineEdit(player.team)
        self.team.setObjectName("ep_team")
        self.team.setPlaceholderText(tr("team_hint"))
        self.form.addRow(tr("Name"), self.name)
        self.form.addRow(tr("Latin name"), self.name_latin)
        self.form.addRow(tr("Club"), self.club)
        self.form.addRow(tr("team_col"), self.team)
        self.team.setFocus()

    def changes(self) -> dict[str, str]:
        """Only the fields the referee changed (an unchanged name is not sent: it is fixed
        once the player has hands)."""
        now = {"name": self.name.text().strip(), "name_latin": self.name_latin.text().strip(),
               "club": self.club.text().strip(), "team": self.team.text().strip()}
        return {k: v for k, v in now.items() if v != getattr(self.player, k)}


class SeatRoundDialog(SubmitDialog):
    """Seating → Seat round N…: an optional seed; byes or substitutes when tables are short."""

    def __init__(self, round_no: int, players: int, size: int, submit: Callable[[Any], object],
                 on_error: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(tr("Seat round", n=round_no), submit, on_error, parent)
        self.setObjectName("seat_round_dialog")
        self.resize(460, 0)
        self.round_no = round_no
        extra = players % size
        self.seed = QLineEdit()
        self.seed.setObjectName("sr_seed")
        self.seed.setPlaceholderText(tr("seed_hint"))
        self.note = QLabel(tr("fill_note", n=players, size=size, extra=extra) if extra
                           else tr("fill_none", n=players, size=size))
        self.note.setObjectName("sr_note")
        self.note.setWordWrap(True)
        self.fill = QComboBox()
        self.fill.setObjectName("sr_fill")
        for f in ("byes", "substitutes"):
            self.fill.addItem(tr(f"fill_{f}"), f)
        self.form.addRow(tr("Seed"), self.seed)
        self.form.addRow("", self.note)
        self.form.addRow(tr("Fill"), self.fill)
        self.fill.setEnabled(bool(extra))
        self.form.setRowVisible(self.fill, bool(extra))
        self.cannot_be_undone(tr("Seat round", n=round_no), "S")

    def values(self) -> dict[str, Any]:
        return {"seed": self.seed.text(),
                "fill": self.fill.currentData() if self.fill.isEnabled() else None}


class SwapDialog(SubmitDialog):
    """Seating → Swap/move player…: who takes the selected seat (the store swaps)."""

    def __init__(self, round_no: int, table: int, seat: str, current: str,
                 choices: Sequence[tuple[str, str]], submit: Callable[[Any], object],
                 on_error: Callable[[str], None], parent: QWidget | None = None) -> None:
        super().__init__(tr("Swap/move player"), submit, on_error, parent)
        self.setObjectName("swap_dialog")
        self.resize(480, 0)
        self.round_no, self.table, self.seat = round_no, table, seat
        where = QLabel(tr("swap_where", round=tr("round_n", n=round_no),
                          table=tr("table_n", n=table), seat=seat_name(seat), player=current))
        where.setObjectName("sw_where")
        help_ = QLabel(tr("swap_help"))
        help_.setWordWrap(True)
        self.player = QComboBox()
        self.player.setObjectName("sw_player")
        for name, place in choices:
            self.player.addItem(f"{name}  ({place})", name)
        self.form.addRow(where)
        self.form.addRow(tr("Put here"), self.player)
        help_.setMinimumHeight(help_.heightForWidth(440))  # wrapped text gets its lines
        self.layout().insertWidget(1, help_)  # type: ignore[union-attr]

    def values(self) -> dict[str, str]:
        return {"player": self.player.currentData() or ""}
