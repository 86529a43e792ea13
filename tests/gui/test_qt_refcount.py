"""Guard against the PySide6 6.12.0 wheels' reference leak on Python 3.11.

Those wheels return ``None`` from wrapped calls without taking a reference (safe only on
3.12+, where ``None`` is immortal); on 3.11 the app died with "none_dealloc" after a few
minutes. pyproject.toml pins PySide6-Essentials below 6.12; this test fails if a leaking
build comes back.
"""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QApplication, QLabel


def test_wrapped_calls_do_not_steal_references_to_none() -> None:
    app = QApplication.instance() or QApplication([])
    label = QLabel()
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("x")
        label.setVisible(False)
    assert sys.getrefcount(None) - before > -100
    assert app is not None
