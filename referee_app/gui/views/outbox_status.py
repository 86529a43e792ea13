"""A server desk's status line: online or offline, "3 hands waiting", refused hands.

:func:`attach` adds it to the main window of a desk opened with ``--server``. A watcher
thread long-polls the server's ``/api/changes`` (the window reloads within a second of any
desk's write) and sends the outbox's waiting hands as soon as the server answers again. A
hand the server refuses after waiting (its number was taken meanwhile) is listed in the
:class:`ConflictsDialog` for the referee to renumber or drop — never dropped by itself.
"""

from __future__ import annotations

import threading
from typing import Any

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from referee_app.server.client import item_error
from referee_app.storage import StorageError
from referee_app.storage.checks import MAX_HAND_NO

from ..i18n import LANG, tr
from ..messages import error_words, exception_text, line_text
from ..server_desk import HandQueued, ServerBackend, ServerUnreachable
from .prompts import confirm_destructive
from .session import HeadCancelled


class _Signals(QObject):
    changed = Signal(int)        # the record's revision moved (any desk, the CLI)
    reachable = Signal(bool)     # the server answered / did not
    flushed = Signal(int, int)   # waiting hands sent, refused (conflicts) in this flush
    rewritten = Signal(int)      # the server's record no longer extends what this desk saw


class Watcher(threading.Thread):
    """Long-polls the server and sends waiting hands; talks to the window by signals."""

    def __init__(self, backend: ServerBackend, poll: float = 5.0) -> None:
        super().__init__(name="server-watcher", daemon=True)
        self.backend, self.poll = backend, poll
        self.signals = _Signals()
        self.stopped = threading.Event()

    def run(self) -> None:
        client = self.backend.client
        since: int | None = None
        while not self.stopped.is_set():
            try:
                if since is None:  # (re)connected: does the server's record extend ours?
                    since = int(client.tournament()["revision"])
                    self._witness()
                    self.signals.reachable.emit(True)
                # nobody signed in (locked), or a rewritten record: the hands wait
                if client.waiting() and client.referee and client.rewritten_after is None:
                    before = len(client.conflicts())
                    rep = client.flush()
                    if rep.sent or len(rep.conflicts) != before:
                        self.signals.flushed.emit(len(rep.sent), len(rep.conflicts) - before)
                    if rep.problem and client.rewritten_after is None:
                        # the server cannot take them now: wait for it
                        raise ServerUnreachable.of("server", "server_busy")
                rev = client.changes(since, timeout=self.poll)
                self.signals.reachable.emit(True)
                if rev != since:
                    since = rev
                    self._witness()
                    self.signals.changed.emit(rev)
            except ServerUnreachable:
                since = None  # a restarted server counts again from its own record
                self.signals.reachable.emit(False)
                self.stopped.wait(1.0)
            except Exception:
                if self.stopped.is_set():
                    return
                self.stopped.wait(1.0)

    def _witness(self) -> None:
        """Check the server's record against the digests this desk was given."""
        client = self.backend.client
        if client.rewritten_after is None and client.check_record() is not None:
            self.signals.rewritten.emit(int(client.rewritten_after or 0))

    def stop(self) -> None:
        self.stopped.set()


class OutboxStatus(QWidget):
    """The status bar's server part (see the module doc)."""

    def __init__(self, win: Any, backend: ServerBackend, *, watch: bool = True,
                 poll: float = 5.0) -> None:
        super().__init__()
        self.win, self.backend = win, backend
        self.setObjectName("server_status")
        self.label = QLabel()
        self.label.setObjectName("server_state")
        self.conflicts_button = QPushButton()
        self.conflicts_button.setObjectName("server_conflicts")
        self.conflicts_button.setStyleSheet("color: #b00020; font-weight: bold")
        self.conflicts_button.clicked.connect(self.open_conflicts)
        lay = QHBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(self.label)
        lay.addWidget(self.conflicts_button)
        self.online = True
        #: asks before a destructive decision (tests answer it)
        self.confirm: Any = lambda text, action: confirm_destructive(
            win if isinstance(win, QWidget) else None, text, action)
        self.watcher: Watcher | None = None
        if watch:
            self.watcher = Watcher(backend, poll)
            self.watcher.signals.changed.connect(self._changed)
            self.watcher.signals.reachable.connect(self._reachable)
            self.watcher.signals.flushed.connect(self._flushed)
            self.watcher.signals.rewritten.connect(lambda _n: self.refresh())
            self.watcher.start()
        LANG.changed.connect(self.refresh)
        self.refresh()

    # ------------------------------------------------------------------ showing

    def text(self) -> str:
        url = self.backend.client.base_url
        parts = [tr("srv_online", url=url, referee=self.backend.client.referee or "")
                 if self.online else tr("srv_offline", url=url)]
        n = self.backend.waiting()
        if n:
            parts.append(tr("srv_waiting_1") if n == 1 else tr("srv_waiting", n=n))
        return " · ".join(parts)

    def refresh(self) -> None:
        self.label.setText(self.text())
        self.label.setStyleSheet("" if self.online else "color: #b00020")
        n = len(self.backend.conflicts())
        self.conflicts_button.setText(tr("srv_conflicts", n=n))
        self.conflicts_button.setVisible(n > 0)
        self.show_rewritten()

    # ------------------------------------------------------------------ the witness

    def show_rewritten(self) -> None:
        """The red banner while the server's record does not extend what this desk saw."""
        banners = getattr(getattr(self.win, "faults", None), "banners", None)
        if banners is None:
            return
        after = self.backend.client.rewritten_after
        if after is None:
            banners.clear("rewritten")
            return
        banners.show_banner("rewritten", tr("srv_rewritten", n=after), "danger",
                            [(tr("srv_rewritten_accept"), self.accept_record)])

    def accept_record(self) -> bool:
        """The head referee accepts the server's record as it now is (after saying why it
        changed, e.g. a backup restored): the desk witnesses it afresh and sends again."""
        client = self.backend.client
        found = client.witness.found or (0, "")
        if not self.confirm(tr("srv_rewritten_prompt", entries=found[0], digest=found[1][:12]),
                            tr("srv_rewritten_accept")):
            return False
        try:
            with self.win.session.head_signature("head_accept_record"):
                client.accept_record()
        except HeadCancelled:
            return False
        self.win.message(tr("srv_rewritten_accepted"), error=False)
        self.refresh()
        if self.backend.waiting():
            self.send_now()
        return True

    def _reachable(self, ok: bool) -> None:
        if ok != self.online:
            self.online = ok
            self.refresh()

    def _changed(self, _rev: int) -> None:
        """Another desk (or the CLI) wrote: the window's follower refreshes at once, with
        its care for a form being edited, instead of at its next one-second look."""
        self.online = True
        self.win.faults.follower.poll()  # paused under a modal dialog: its next look catches up
        self.refresh()

    def _flushed(self, sent: int, refused: int) -> None:
        if sent:
            self.win.message(tr("srv_sent", n=sent), error=False)
            self.win.reload()
        if refused > 0:
            self.win.message(tr("srv_new_conflicts", n=refused), error=False)
        self.refresh()

    # ------------------------------------------------------------------ hooks of the window

    def took(self, e: BaseException) -> bool:
        """After a save: a hand queued in the outbox is done for the referee (the form moves
        on to the table's next hand); anything else is the window's usual error."""
        if not isinstance(e, HandQueued) or self.win.context is None:
            return False
        r, t, n, _hid = self.win.context
        self.win.new_hand(r, t)
        if e.code in ("record_rewritten", "key_missing"):  # answered, but nothing is saved
            self.win.message(exception_text(e))
        else:
            self.online = False
            self.win.message(tr("srv_queued", n=n, k=self.backend.waiting()), error=False)
        self.refresh()
        return True

    def send_now(self) -> Any:
        """Send the waiting hands now (what the watcher does when the server is back)."""
        before = len(self.backend.conflicts())
        rep = self.backend.flush()
        self.online = not rep.problem
        self._flushed(len(rep.sent), len(rep.conflicts) - before)
        return rep

    def open_conflicts(self) -> ConflictsDialog:
        dlg = ConflictsDialog(self)
        self.win.run_dialog(dlg)
        return dlg

    def close(self) -> bool:  # type: ignore[override]
        if self.watcher is not None:
            self.watcher.stop()
        return super().close()


class ConflictsDialog(QDialog):
    """The refused hands, each with the server's reason; renumber (send again) or drop."""

    def __init__(self, status: OutboxStatus) -> None:
        super().__init__(status.win)
        self.status = status
        self.setObjectName("conflicts_dialog")
        self.setWindowTitle(tr("srv_conflicts_title"))
        intro = QLabel(tr("srv_conflicts_intro"))
        intro.setWordWrap(True)
        self.list = QListWidget()
        self.list.setWordWrap(True)
        self.error = QLabel()
        self.error.setStyleSheet("color: #b00020")
        self.error.setWordWrap(True)
        renumber = QPushButton(tr("srv_renumber"))
        renumber.setObjectName("conflict_renumber")
        renumber.clicked.connect(self._renumber_clicked)
        drop = QPushButton(tr("srv_drop"))
        drop.setObjectName("conflict_drop")
        drop.clicked.connect(self._drop_clicked)
        close = QPushButton(tr("Close"))
        close.clicked.connect(self.accept)
        row = QHBoxLayout()
        for b in (renumber, drop):
            row.addWidget(b)
        row.addStretch(1)
        row.addWidget(close)
        lay = QVBoxLayout(self)
        lay.addWidget(intro)
        lay.addWidget(self.list, 1)
        lay.addWidget(self.error)
        lay.addLayout(row)
        self.resize(820, 360)
        self.fill()

    def fill(self) -> None:
        self.list.clear()
        self.items = self.status.backend.conflicts()
        for it in self.items:
            err = item_error(it)
            why = (tr("srv_number_taken", n=it.hand_no, t=it.table, r=it.round,
                      id=err.params.get("hand_id", "?"))
                   if err.message_code == "duplicate_hand" else error_words(err))
            line = tr("srv_conflict_line", r=it.round, t=it.table, n=it.hand_no, problem=why)
            w = QListWidgetItem(line)
            w.setData(256, it.key)
            self.list.addItem(w)
        if self.items:
            self.list.setCurrentRow(0)

    def _current(self) -> Any:
        row = self.list.currentRow()
        return self.items[row] if 0 <= row < len(self.items) else None

    def renumber(self, key: str, hand_no: int) -> bool:
        """Send the refused hand ``key`` again as ``hand_no``."""
        try:
            r = self.status.backend.renumber(key, hand_no)
        except (ValueError, StorageError) as e:
            self.error.setText(exception_text(e))
            self.fill()
            return False
        self.error.setText("" if r is None or not r.queued else line_text(r.problem))
        self.status.win.reload()
        if r is not None and not r.queued:
            self.status.win.message(tr("srv_resent", n=hand_no), error=False)
        self.fill()
        self.status.refresh()
        return True

    def drop(self, key: str) -> None:
        """The referee's decision: the hand is not sent (its file is kept in dropped/)."""
        self.status.backend.drop(key)
        self.fill()
        self.status.refresh()

    def _renumber_clicked(self) -> None:
        it = self._current()
        if it is None:
            return
        suggested = self.status.backend.hands.next_no(it.round, it.table)
        # a spin box of the hand numbers there are (1-999): nothing else can be typed
        n, ok = QInputDialog.getInt(
            self, tr("srv_renumber_title"),
            tr("srv_renumber_prompt", r=it.round, t=it.table, n=it.hand_no),
            min(max(suggested, 1), MAX_HAND_NO), 1, MAX_HAND_NO)
        if ok:
            self.renumber(it.key, n)

    def _drop_clicked(self) -> None:
        it = self._current()
        if it is not None and confirm_destructive(
                self, tr("srv_drop_prompt", r=it.round, t=it.table, n=it.hand_no),
                tr("srv_drop")):
            self.drop(it.key)


def attach(win: Any, backend: ServerBackend, *, watch: bool = True,
           poll: float = 5.0) -> OutboxStatus:
    """Give a window opened on a server its status line (and the window's ``remote`` hook)."""
    status = OutboxStatus(win, backend, watch=watch, poll=poll)
    win.statusBar().addPermanentWidget(status)
    win.remote = status
    win.session.show_referee()  # signed in before the window was built (REFEREE_PIN)
    win.destroyed.connect(lambda *_: status.watcher and status.watcher.stop())
    return status


__all__ = ["ConflictsDialog", "OutboxStatus", "ServerUnreachable", "Watcher", "attach"]
