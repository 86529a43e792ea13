"""Following other writers: the desk notices what another process saved.

Several desks (and the CLI, and the results server) may write one tournament file. The
window polls :meth:`Tournament.revision` about once a second — ``PRAGMA data_version``,
one cheap query that changes only when *another* connection committed — and refreshes
what it shows. :func:`open_hand_state` says whether the hand in the form is still the
version the referee is looking at; saving passes that version to the store, which refuses
(``HandChangedError``) instead of overwriting a change made meanwhile.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from referee_app.storage.errors import FileReplacedError, UnknownHandError
from referee_app.storage.models import HandInfo
from referee_app.storage.verification import Difference, compare_records

from .entry import EntryForm

#: how often the file is looked at (milliseconds): "about once a second"
POLL_MS = 1000


def others_revision(desk: Any) -> int:
    """A number that changes whenever another connection committed to the desk's file (our
    own saves do not change it: the window refreshes itself after those). A store that
    answers one number (the results server's client) counts every change."""
    rev = desk.t.revision()
    return int(rev[0]) if isinstance(rev, tuple) else int(rev)


class Follower(QObject):
    """Polls the open desk's file; ``changed`` when another process wrote, ``replaced`` when
    the path names another file (a backup restored elsewhere), ``failed`` (with the
    exception) once when the file cannot be read, until it can again."""

    changed = Signal()
    failed = Signal(object)
    #: the path names another file now (a backup restored by another process): reopen it
    replaced = Signal()

    def __init__(self, desk: Callable[[], Any], parent: QObject | None = None,
                 interval_ms: int = POLL_MS, paused: Callable[[], bool] = lambda: False
                 ) -> None:
        """``paused``: while true (a modal dialog is up, a save is half-asked) nothing is
        refreshed; the change is noticed by the first poll after it."""
        super().__init__(parent)
        self._desk = desk
        self._paused = paused
        self._seen: tuple[int, int] | None = None  # (id of the desk, its revision)
        self._failing = False
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.poll)

    def start(self) -> None:
        self.mark_seen()
        self.timer.start()

    def stop(self) -> None:
        self.timer.stop()

    def mark_seen(self) -> None:
        """What the window shows now is up to date (after opening another file)."""
        desk = self._desk()
        try:
            self._seen = (id(desk), others_revision(desk))
        except Exception:
            self._seen = None

    def poll(self) -> bool:
        """Look once; returns whether another writer changed the file since the last look."""
        if self._paused():
            return False
        desk = self._desk()
        try:
            rev = others_revision(desk)
        except FileReplacedError:
            self.replaced.emit()
            return False
        except Exception as e:
            if not self._failing:
                self._failing = True
                self.failed.emit(e)
            return False
        self._failing = False
        seen, self._seen = self._seen, (id(desk), rev)
        if seen is None or seen[0] != id(desk) or seen[1] == rev:
            return False
        self.changed.emit()
        return True


@dataclass(frozen=True)
class HandState:
    """The form's hand against the file: ``same``; ``changed`` (a newer version was saved
    elsewhere: ``current``); ``taken`` (a new hand's number was used elsewhere:
    ``current`` is that hand); ``gone`` (no such hand any more: a restored backup)."""

    kind: str
    current: HandInfo | None = None


def open_hand_state(desk: Any, context: tuple[int, int, int, int | None] | None,
                    shown: HandInfo | None) -> HandState:
    if context is None:
        return HandState("same")
    r, t, n, hid = context
    if hid is None:
        found = desk.find_hand(r, t, n)
        return HandState("taken", found) if found is not None else HandState("same")
    try:
        cur = desk.hand(hid)
    except UnknownHandError:
        return HandState("gone")
    if shown is not None and cur.version != shown.version:
        return HandState("changed", cur)
    return HandState("same", cur)


def conflict_differences(theirs: HandInfo, form: EntryForm) -> list[Difference]:
    """Where the version saved elsewhere and the referee's edit differ (tiles compared as
    tiles, events in order), for the compare dialog."""
    return compare_records(theirs.record, form.to_record_dict())
