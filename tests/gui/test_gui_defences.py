"""Issue 24 in the desk window: a refused hand is renumbered in a spin box of the hand
numbers there are (1-999), so nothing else can be typed."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from PySide6.QtWidgets import QInputDialog, QWidget

from referee_app.core.errors import render
from referee_app.gui.views.outbox_status import ConflictsDialog
from referee_app.server.outbox import CONFLICT, OutboxItem


class Backend:
    """The little of a server desk the conflicts dialog uses."""

    def __init__(self, next_no: int) -> None:
        params = {"hand_no": 7, "table": 3, "round": 1, "hand_id": 5}
        self.item = OutboxItem("k1", 1, 3, 7, {}, state=CONFLICT, error_field="hand_no",
                               problem=render("duplicate_hand", params, "en"),
                               code="duplicate_hand", params=params)
        self.hands = SimpleNamespace(next_no=lambda r, t: next_no)
        self.renumbered: list[tuple[str, int]] = []

    def conflicts(self) -> list[Any]:
        return [] if self.renumbered else [self.item]

    def renumber(self, key: str, hand_no: int) -> Any:
        self.renumbered.append((key, hand_no))
        return SimpleNamespace(queued=False, problem="")


def _dialog(qtbot, backend: Backend) -> ConflictsDialog:
    win = QWidget()
    qtbot.addWidget(win)
    win.reload = lambda: None
    win.message = lambda *a, **k: None
    status = SimpleNamespace(win=win, backend=backend, refresh=lambda: None)
    return ConflictsDialog(status)  # type: ignore[arg-type]


def test_renumbering_asks_in_a_1_to_999_spin_box(qtbot, monkeypatch) -> None:
    asked: list[tuple[Any, ...]] = []

    def get_int(parent, title, label, value, low, high, *rest):
        asked.append((value, low, high))
        return 8, True

    monkeypatch.setattr(QInputDialog, "getInt", get_int)
    backend = Backend(next_no=8)
    dlg = _dialog(qtbot, backend)
    dlg._renumber_clicked()
    assert asked == [(8, 1, 999)] and backend.renumbered == [("k1", 8)]


def test_the_suggestion_stays_within_the_bounds(qtbot, monkeypatch) -> None:
    """A table whose last hand is 999 (or a file saved with 2^63-1) suggests 999, never a
    number the server refuses to take."""
    asked: list[int] = []
    monkeypatch.setattr(QInputDialog, "getInt",
                        lambda p, t, lbl, value, low, high, *r: (asked.append(value), (0, False))[1])
    dlg = _dialog(qtbot, Backend(next_no=2**63))
    dlg._renumber_clicked()
    assert asked == [999] and not dlg.status.backend.renumbered
