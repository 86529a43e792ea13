"""The desk's projector (``MainWindow.projector``): the full-screen standings window on a
second screen (F11) and its settings, kept for the next session."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtWidgets import QDialog, QWidget

from ..i18n import tr
from .projector import (
    ProjectorSettingsDialog,
    ProjectorWindow,
    projector_settings,
    save_projector_settings,
)


class ProjectorHost(Protocol):
    """What the projector uses of its window (the main window): a protocol, so this
    module does not import the window that holds it."""

    desk: Any
    run_dialog: Callable[[QDialog], bool]


class DeskProjector:
    """Opens one projector window on the desk's standings and applies its settings."""

    def __init__(self, win: ProjectorHost) -> None:
        self.win = win
        #: the projector window once opened (None: not opened, or closed with the desk)
        self.window: ProjectorWindow | None = None
        #: seconds a projector page stays up (QSettings "projector/page_seconds")
        self.page_seconds = projector_settings()[0]

    def open(self) -> ProjectorWindow:
        """View → Projector window (F11): full screen, opened once and shown again."""
        if self.window is None:
            win = self.win  # its desk of the moment (another file may have been opened)
            self.window = ProjectorWindow(
                lambda: win.desk.projector_data(f"{win.desk.title} · {tr('Standings')}"),
                page_seconds=self.page_seconds, show_progress=projector_settings()[1])
        self.window.showFullScreen()
        return self.window

    def settings(self) -> None:
        """View → Projector settings: seconds per page and the round progress page; kept
        for the next session and applied to an open projector at once."""
        seconds, progress = projector_settings()
        dlg = ProjectorSettingsDialog(seconds, progress,
                                      self.win if isinstance(self.win, QWidget) else None)
        if not self.win.run_dialog(dlg):
            return
        seconds, progress = dlg.seconds.value(), dlg.progress.isChecked()
        save_projector_settings(seconds, progress)
        self.page_seconds = seconds
        if self.window is not None:
            self.window.set_page_seconds(seconds)
            self.window.set_show_progress(progress)

    def close(self) -> None:
        """The desk closes: the projector's timer stops and its window goes."""
        if self.window is not None:
            self.window.timer.stop()
            self.window.close()
            self.window.deleteLater()
            self.window = None
