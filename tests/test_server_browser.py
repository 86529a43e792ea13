"""A real browser (Debian's chromium, headless) loads the results pages of a running
server: standings, a player's page and the projector render (skipped without chromium)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from server_helpers import ServerProcess

from referee_app.storage import demo_db_path

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")


def test_pages_render_in_headless_chromium(tmp_path: Path) -> None:
    db = tmp_path / "demo.sqlite"
    shutil.copy(demo_db_path(), db)
    s = ServerProcess(db).start()
    try:
        for name, path, size in (("standings", "/?lang=zh", "412,900"),
                                 ("player", "/player/11?lang=en&hand=4", "412,900"),
                                 ("projector", "/projector", "1600,900")):
            png = tmp_path / f"{name}.png"
            subprocess.run([str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
                            "--hide-scrollbars", f"--window-size={size}",
                            f"--screenshot={png}", s.url + path],
                           capture_output=True, timeout=90)
            data = png.read_bytes()
            assert data[:8] == b"\x89PNG\r\n\x1a\n"
            assert len(data) > 15_000, f"{name}: the page looks blank"
    finally:
        s.stop()
