"""Work around a reference-count bug of the PySide6 6.12 wheels on Python 3.11.

Those wheels (stable ABI) return ``None``/``True``/``False`` from wrapped C++ calls without
taking a reference, as is correct only on Python >= 3.12 where these objects are immortal
(PEP 683). On 3.11 every ``label.setText(...)`` then steals one reference from ``None``;
``None`` starts with a few thousand, so after a few minutes of use the interpreter aborts
with "Fatal Python error: none_dealloc". Measured here: 1,000 ``QLabel.setText`` calls
lower ``sys.getrefcount(None)`` by exactly 1,000.

The fix gives these singletons a reference count so large that the leak can never
exhaust it (2**60: more than a million years at a million calls a second), which is what
immortality means on 3.12. Nothing else changes; on 3.12+ this is a no-op.
"""

from __future__ import annotations

import ctypes
import sys

_PINNED = False
_MARGIN = 1 << 60


def pin_singletons() -> bool:
    """Make None, True, False, Ellipsis and NotImplemented effectively immortal (3.11)."""
    global _PINNED
    if _PINNED or sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return False
    for obj in (None, True, False, Ellipsis, NotImplemented):
        ctypes.c_ssize_t.from_address(id(obj)).value += _MARGIN
    _PINNED = True
    return True
