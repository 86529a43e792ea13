"""Shared fixtures. Qt must run headless: without this pytest aborts silently."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
