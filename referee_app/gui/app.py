"""Start the desk: the QApplication, the bundled CJK font, the window; or a screenshot.

``run`` is what ``referee-app gui`` calls. With ``screenshot`` it renders the window
offscreen (no display needed), writes a PNG and returns, which is how the docs' images
are made and how checks confirm the window builds.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

VIEWS = ("entry", "standings", "trace")


class GuiError(ValueError):
    """Bad input to ``referee-app gui`` (field and problem, like the store's errors)."""

    def __init__(self, field: str, problem: str) -> None:
        super().__init__(f"{field}: {problem}")
        self.field = field
        self.problem = problem


@dataclass(frozen=True)
class LaunchOptions:
    db: Path | None = None
    demo: bool = False
    screenshot: Path | None = None
    view: str = "entry"
    lang: str = "zh"
    referee: str = ""
    size: tuple[int, int] = (1500, 900)
    exit_when_ready: bool = False  # benchmarks: quit once the shown window processed an event


def _need_offscreen() -> bool:
    if os.environ.get("QT_QPA_PLATFORM"):
        return False
    if sys.platform.startswith("linux"):
        return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
    return False


def demo_database() -> Path:
    """The demo tournament's database (imported from ``sample_events/`` by the store)."""
    from referee_app.storage import demo_db_path

    try:
        return demo_db_path()
    except FileNotFoundError as e:
        raise GuiError("demo", str(e)) from None


def run(opts: LaunchOptions) -> int:
    """Open the window (blocking until it closes), or render it to ``opts.screenshot``."""
    if opts.view not in VIEWS:
        raise GuiError("view", f"unknown view {opts.view!r} (one of {', '.join(VIEWS)})")
    if opts.db is None and not opts.demo:
        raise GuiError("db", "give --db PATH or --demo")
    if opts.screenshot is not None and _need_offscreen():
        os.environ["QT_QPA_PLATFORM"] = "offscreen"

    from referee_app.storage.errors import StorageError

    from .controllers.desk import Desk

    db = demo_database() if opts.demo else opts.db
    assert db is not None
    try:
        desk = Desk.open(db, opts.referee)
    except StorageError as e:
        raise GuiError(e.field or "db", e.problem) from None

    from PySide6.QtWidgets import QApplication

    from referee_app.fonts import register_qt_font

    from .i18n import LANG, tr
    from .views.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    register_qt_font()
    LANG.set(opts.lang)
    win = MainWindow(desk, banner=tr("demo_banner") if opts.demo else "")
    win.resize(*opts.size)
    if opts.screenshot is not None:
        prepare_view(win, opts.view)
        win.show()
        for _ in range(3):
            app.processEvents()
        ok = win.grab().save(str(opts.screenshot), "PNG")
        win.close()
        desk.close()
        if not ok:
            raise GuiError("screenshot", f"could not write {opts.screenshot}")
        return 0
    win.show()
    if opts.exit_when_ready:
        from PySide6.QtCore import QTimer

        def ready() -> None:
            print("ready", flush=True)
            app.quit()

        QTimer.singleShot(0, ready)
    code = app.exec()
    desk.close()
    return int(code)


def prepare_view(win: object, view: str) -> None:
    """Put the window in a state worth a picture: a hand with kongs and wins, its trace."""
    from .views.main_window import MainWindow

    assert isinstance(win, MainWindow)
    hands = win.desk.hands()
    if hands:
        def interest(h: object) -> tuple[int, int, int]:
            st = h.settlement  # type: ignore[attr-defined]
            events = h.record.get("events", [])  # type: ignore[attr-defined]
            kinds = {e.get("type") for e in events}
            return (int(bool(st.get("ok"))), len(kinds), len(st.get("payments", [])))

        best = max(hands[:200], key=interest)
        win.navigator.select_key(("hand", best.id))
    elif win.desk.rounds():
        r = win.desk.rounds()[0]
        tables = win.desk.seating(r).tables
        if tables:
            win.new_hand(r, next(iter(tables)))
    if view == "standings":
        win.tabs.setCurrentWidget(win.standings)
    elif view == "trace":
        win.tabs.setCurrentWidget(win.trace)
        if win.trace.payments.rowCount():
            win.trace.select_payment(0)
    else:
        win.tabs.setCurrentWidget(win.entry)
