"""The round in play on the desk (``MainWindow.round_clock``): its clock in the status bar,
counting down each second when the round is timed, and Start round… (the head referee's
``round start``: a round in play, a clock of M minutes from now, or minutes added)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QComboBox, QLabel, QSpinBox, QWidget

from referee_app.core.display import duration
from referee_app.storage.models import RoundState
from referee_app.storage.round_state import MAX_MINUTES

from ..i18n import tr
from .manage import SubmitDialog
from .session import HeadCancelled

#: the clock choices of the Start round… form: keep (or none), from now, added
CLOCK_CHOICES = ("keep", "minutes", "extend")


def clock_text(state: RoundState | None) -> str:
    """``Round 2 · 42:10 left``, ``Round 2 · time is up``, ``Round 2 in play`` ("" none)."""
    if state is None:
        return ""
    left = state.seconds_left()
    if left is None:
        return tr("clock_in_play", n=state.round)
    return tr("clock_left", n=state.round, t=duration(left)) if left else \
        tr("clock_up", n=state.round)


class StartRoundDialog(SubmitDialog):
    """Round → Start round…: which round is in play, and its clock."""

    def __init__(self, rounds: Sequence[int], in_play: RoundState, submit: Any,
                 on_error: Any, parent: QWidget | None = None) -> None:
        super().__init__(tr("Start round"), submit, on_error, parent)
        self.setObjectName("start_round_dialog")
        self.setMinimumWidth(460)
        self.round = QComboBox()
        self.round.setObjectName("sr_round")
        for r in rounds:
            self.round.addItem(tr("round_n", n=r), r)
        self.round.setCurrentIndex(max(0, self.round.findData(in_play.round)))
        self.clock = QComboBox()
        self.clock.setObjectName("sr_clock")
        for c in CLOCK_CHOICES:
            self.clock.addItem(tr(f"clock_choice_{c}"), c)
        self.minutes = QSpinBox()
        self.minutes.setObjectName("sr_minutes")
        self.minutes.setRange(1, MAX_MINUTES)
        self.minutes.setValue(90)
        self.minutes.setSuffix(" " + tr("minutes_unit"))
        self.now = QLabel(clock_text(in_play))
        self.now.setObjectName("sr_now")
        self.form.addRow(tr("Round"), self.round)
        self.form.addRow(tr("Clock"), self.clock)
        self.form.addRow(tr("Minutes"), self.minutes)
        self.form.addRow("", self.now)
        self.clock.currentIndexChanged.connect(self._clock_changed)
        self._clock_changed()

    def _clock_changed(self, *_args: object) -> None:
        self.minutes.setEnabled(self.clock.currentData() != "keep")

    def values(self) -> dict[str, Any]:
        how = self.clock.currentData()
        m = self.minutes.value()
        return {"round": int(self.round.currentData()),
                "minutes": m if how == "minutes" else None,
                "extend": m if how == "extend" else None}


class RoundClock:
    """The status bar's clock of the round in play, and the Start round… action."""

    def __init__(self, win: Any, session: Any) -> None:
        self.win = win
        self.session = session
        self.state: RoundState | None = None
        self.label = QLabel()
        self.label.setObjectName("round_clock")
        self.label.setContentsMargins(16, 0, 0, 0)
        win.statusBar().addPermanentWidget(self.label)
        self.timer = QTimer(win)
        self.timer.setInterval(1000)
        self.timer.timeout.connect(self.tick)

    def refresh(self) -> None:
        """Read the round in play again (after a save, or another desk's change)."""
        desk = self.win.desk
        self.state = desk.in_play() if desk.rounds() else None
        self.tick()
        if self.state is not None and self.state.timed:
            self.timer.start()
        else:
            self.timer.stop()

    def tick(self) -> None:
        text = clock_text(self.state)
        self.label.setText(text)
        left = self.state.seconds_left() if self.state is not None else None
        self.label.setStyleSheet("" if left is None or left > 300 else
                                 "color: #b3261e; font-weight: bold" if left == 0 else
                                 "color: #a15c00; font-weight: bold")

    def start(self) -> bool:
        """Start round…: the head referee makes a round the one in play (and sets or extends
        its clock); refused changes are shown and nothing is written."""
        desk = self.win.desk
        rounds = desk.rounds()
        if not rounds:
            self.win.message(tr("no_rounds"))
            return False
        if self.win.faults.refuse_write():
            return False

        def submit(d: StartRoundDialog) -> Any:
            v = d.values()
            try:
                with self.session.head_signature("head_start_round") as signer:
                    return desk.start_round(v["round"], v["minutes"], v["extend"], signer)
            except HeadCancelled:
                return None  # said why; nothing written

        dlg = StartRoundDialog(rounds, desk.in_play(), submit,
                               lambda msg: self.win.message(tr("not_done", msg=msg)),
                               self.win if isinstance(self.win, QWidget) else None)
        if not self.win.run_dialog(dlg) or dlg.outcome is None:
            return False
        self.win.reload()
        self.win.message(clock_text(dlg.outcome), error=False)
        return True
