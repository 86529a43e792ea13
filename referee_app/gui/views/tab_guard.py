"""Keep a keystroke's repaint to what changed.

Qt re-lays out a page after any child's text or size changes and then, unconditionally,
asks its parent to re-lay out too ("ideally only if sizeHint() has changed", says
``QLayout::activate``). A ``QTabWidget`` answers that request by repainting itself whole —
so each keystroke in a seat's tiles repainted the entire entry tab (most of the keystroke
time with a large tournament). The guard lets such a request through only when something
the tab widget lays out by has changed: its tab bar's size or its pages' size hints.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QStackedWidget, QTabWidget


class TabLayoutGuard(QObject):
    """Event filter on a ``QTabWidget``: drops a layout request that would change nothing."""

    def __init__(self, tabs: QTabWidget) -> None:
        super().__init__(tabs)
        self.tabs = tabs
        self.stack = tabs.findChild(QStackedWidget)
        self._last: tuple | None = None
        self.dropped = 0  # layout requests that changed nothing (tests read it)
        tabs.installEventFilter(self)

    def _key(self) -> tuple:
        bar = self.tabs.tabBar()
        parts: tuple = (self.tabs.size(), bar.sizeHint(), bar.count(), self.tabs.currentIndex())
        if self.stack is not None:
            parts += (self.stack.minimumSizeHint(), self.stack.sizeHint())
        return tuple((p.width(), p.height()) if hasattr(p, "width") else p for p in parts)

    def eventFilter(self, obj: QObject, e: QEvent) -> bool:
        if obj is self.tabs and e.type() == QEvent.Type.LayoutRequest:
            key = self._key()
            if key == self._last:
                self.dropped += 1
                return True
            self._last = key
        return False
