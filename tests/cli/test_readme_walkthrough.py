"""README's "A tournament day" walkthrough runs as written (issue 25): its shell blocks
between the ``walkthrough`` markers are taken from README.md itself, so the test fails
as soon as the README and the app drift apart."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START, END = "<!-- walkthrough: start -->", "<!-- walkthrough: end -->"


def walkthrough() -> str:
    """The README's walkthrough: every ```sh block between the markers, in order."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert START in text and END in text, "README.md lost its walkthrough markers"
    part = text[text.index(START):text.index(END)]
    blocks = re.findall(r"```sh\n(.*?)```", part, re.S)
    assert blocks, "no ```sh block in the README's walkthrough"
    return "".join(blocks)


def test_the_walkthrough_names_no_placeholder() -> None:
    """Runs as written: no ``N``, ``ID``, ``[--option]`` or ``a|b`` for the reader to fill."""
    for line in walkthrough().splitlines():
        command = re.sub(r'"[^"]*"', '""', line.split("#", 1)[0])  # a quoted text is text
        if not command.startswith("referee-app"):
            continue
        assert not re.search(r"\[|\]|\||\.\.\.|…|\b(N|ID|HAND_ID)\b", command), line


@pytest.mark.slow
def test_the_readme_walkthrough_runs_as_written(tmp_path: Path) -> None:
    script = tmp_path / "walkthrough.sh"
    script.write_text("set -eu\n" + walkthrough(), encoding="utf-8")
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "referee-app").exists(), "referee-app is not installed beside python"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("REFEREE_", "NEW_REFEREE"))}
    env.update(PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}", QT_QPA_PLATFORM="offscreen",
               XDG_DATA_HOME=str(tmp_path / "data"), HOME=str(tmp_path))
    work = tmp_path / "event"
    work.mkdir()
    p = subprocess.run([shutil.which("bash") or "/bin/bash", str(script)], cwd=work, env=env,
                       capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
    assert p.returncode == 0, f"the walkthrough stopped:\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"
    assert "Traceback" not in p.stdout + p.stderr
    out = p.stdout
    # what the walkthrough says it does, it did
    assert "round 1 is in play" in out and "90 min" in out
    assert "hand 1 amended: version 2" in out
    assert "counted in round 1 (the round in play" in out
    for pdf in ("standings", "tables", "statement", "ruling", "seating", "slips"):
        assert (work / f"{pdf}.pdf").read_bytes()[:5] == b"%PDF-", pdf
    assert re.search(r"^ok \d+ [0-9a-f]{12}$", out, re.M)  # verify
    bundle = json.loads((work / "open.json").read_text(encoding="utf-8"))
    assert [h["versions"][-1]["status"] for h in bundle["hands"]] == ["verified"]
    assert bundle["rounds"][0]["state"]["minutes"] == 90
