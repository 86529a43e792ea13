"""Issue 14: a QR code to the players' live results page on table cards and printed
standings when the tournament has a results address (``event set --results-url``).

The code is read back from the rendered page with ``zbarimg`` (poppler's ``pdftoppm``
rasterises it) where those tools are installed (.ci/run installs them)."""

from __future__ import annotations

import io
import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from pypdf import PdfReader
from server_helpers import HEAD, HEAD_PIN, make_event

from referee_app.cli import main
from referee_app.reports import api
from referee_app.reports.qr import qr_matrix
from referee_app.storage import StorageError, Tournament

URL = "http://192.168.1.10:8787/"
WHEN = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
TOOLS = shutil.which("pdftoppm") and shutil.which("zbarimg")


@pytest.fixture
def event(tmp_path: Path) -> Path:
    return make_event(tmp_path / "e.sqlite", players=8)


def set_url(db: Path, url: str) -> None:
    with Tournament.open(db, backup_every=0) as t:
        t.referees.sign_in(HEAD, HEAD_PIN)
        t.update_info(results_url=url, referee=HEAD)


def text(pdf: bytes) -> str:
    return "".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages)


def scanned(pdf: bytes, tmp_path: Path, page: int) -> list[str]:
    """What a phone reads from ``page`` of the PDF (150 dpi, zbarimg)."""
    (tmp_path / "r.pdf").write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "150", "-png", "-f", str(page), "-l", str(page),
                    str(tmp_path / "r.pdf"), str(tmp_path / "page")], check=True, timeout=60)
    png = next(tmp_path.glob("page*.png"))
    out = subprocess.run(["zbarimg", "-q", "--raw", str(png)], capture_output=True, text=True,
                         timeout=60).stdout.split()
    png.unlink()
    return out


def test_results_address_is_a_checked_setting(event: Path) -> None:
    with Tournament.open(event, backup_every=0) as t:
        assert t.info.results_url == ""
        t.referees.sign_in(HEAD, HEAD_PIN)
        for bad in ("ftp://x", "192.168.1.10:8787", "http://a b", "http://" + "x" * 500):
            with pytest.raises(StorageError, match="results_url: expected a web address"):
                t.update_info(results_url=bad, referee=HEAD)
        t.update_info(results_url=f"  {URL} ", referee=HEAD)
        assert t.info.results_url == URL
    r = CliRunner().invoke(main, ["event", "info", "--db", str(event)])
    assert f"results: {URL}" in r.output
    # the record holds it: a bundle carries it to another desk
    with Tournament.open(event, backup_every=0) as t:
        t.write_bundle(event.with_suffix(".bundle.json"))
    with Tournament.import_bundle(event.with_suffix(".bundle.json"),
                                  event.with_name("copy.sqlite"), head_pin="copy-pin") as c:
        assert c.info.results_url == URL


def test_no_results_address_no_qr_code(event: Path) -> None:
    with Tournament.open(event, backup_every=0) as t:
        pdf = api.generate("seating", t, round=1, generated_at=WHEN)
        standings = api.generate("standings", t, generated_at=WHEN)
    assert "Live results" not in text(pdf) and "Live results" not in text(standings)


def test_table_cards_and_standings_carry_the_qr_code(event: Path, tmp_path: Path) -> None:
    set_url(event, URL)
    with Tournament.open(event, backup_every=0) as t:
        seating = api.generate("seating", t, round=1, generated_at=WHEN)
        standings = api.generate("standings", t, generated_at=WHEN)
        again = api.generate("seating", t, round=1, generated_at=WHEN)
    assert seating == again  # drawn, not pasted: same data, same bytes
    pages = [p.extract_text() for p in PdfReader(io.BytesIO(seating)).pages]
    assert len(pages) == 3  # the chart, then one card per table
    assert all("扫码看实时成绩" in p and "Live results" in p for p in pages[1:])
    assert "Live results" not in pages[0]
    assert URL in text(standings) and "扫码看实时成绩" in text(standings)
    if TOOLS:
        assert scanned(seating, tmp_path, 2) == [URL]
        assert scanned(seating, tmp_path, 3) == [URL]
        assert scanned(standings, tmp_path, 1) == [URL]


def test_the_template_can_leave_the_code_out(event: Path) -> None:
    from referee_app.reports.template import load_template, template_from_dict

    set_url(event, URL)
    base = load_template("standings")
    assert base.option("results_qr") is True
    t_off = template_from_dict("standings", {"options": {"results_qr": False}})
    with Tournament.open(event, backup_every=0) as t:
        pdf = api.generate("standings", t, template=t_off, generated_at=WHEN)
    assert URL not in text(pdf)


def test_qr_matrix_is_segnos() -> None:
    import segno

    m = qr_matrix(URL)
    assert len(m) == segno.make(URL, error="m", micro=False).symbol_size(border=0)[0]


@pytest.mark.skipif(not TOOLS, reason="pdftoppm or zbarimg is not installed")
def test_tools_present_where_ci_installs_them() -> None:
    assert TOOLS
