"""The bundled CJK font: file, coverage, reportlab embedding and Qt registration."""

from __future__ import annotations

import importlib.util
import io
import os
import struct
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path

import pytest

from referee_app.fonts import (
    CJK_FONT_FAMILY,
    CJK_FONT_PATH,
    register_qt_font,
    register_reportlab_font,
)

MAHJONG_TERMS = "万筒饼条索杠碰胡和番庄闲炮摸根猪叫幺龙血战到底自摸清一色七对"
TRADITIONAL_TERMS = "萬條餅槓莊閒龍豬對"


def _subset_tool():
    """tools/subset_font.py (stdlib at import time): its character set is what was kept."""
    path = Path(__file__).resolve().parents[2] / "tools" / "subset_font.py"
    spec = importlib.util.spec_from_file_location("subset_font", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gb2312_chars = _subset_tool().gb2312_chars


def sfnt_table_tags(data: bytes) -> tuple[bytes, set[bytes]]:
    """The sfnt version tag and the table tags, from the table directory."""
    version, num_tables = struct.unpack_from(">4sH", data, 0)
    tags = {struct.unpack_from(">4s", data, 12 + 16 * i)[0] for i in range(num_tables)}
    return version, tags


@pytest.fixture(scope="module")
def face():
    from reportlab.pdfbase.ttfonts import TTFont

    return TTFont("RefereeCJKProbe", str(CJK_FONT_PATH)).face


def test_font_file_is_shipped_in_the_package():
    assert CJK_FONT_PATH.is_file()
    assert CJK_FONT_PATH.parent.name == "fonts"
    assert CJK_FONT_PATH.stat().st_size < 5 * 1024 * 1024
    packaged = resources.files("referee_app.fonts") / CJK_FONT_PATH.name
    assert packaged.is_file()
    assert (CJK_FONT_PATH.parent / "LICENSE-WenQuanYiMicroHei.txt").is_file()
    assert (CJK_FONT_PATH.parent / "README.md").is_file()


def test_font_is_truetype_with_glyf_outlines():
    data = CJK_FONT_PATH.read_bytes()
    version, tags = sfnt_table_tags(data)
    assert version in (b"\x00\x01\x00\x00", b"true"), version
    assert {b"glyf", b"loca", b"cmap", b"head", b"hmtx"} <= tags
    assert b"CFF " not in tags and b"CFF2" not in tags


def test_font_covers_ascii_latin1_and_mahjong_terms(face):
    cmap = face.charToGlyph
    missing = [
        ch
        for ch in [chr(c) for c in range(0x20, 0x7F)]
        + [chr(c) for c in range(0xA0, 0x100)]
        + list(MAHJONG_TERMS + TRADITIONAL_TERMS + "，。、：；！？（）「」《》…—·")
        if ord(ch) not in cmap or cmap[ord(ch)] == 0
    ]
    assert missing == []


def test_font_covers_all_of_gb2312(face):
    chars = gb2312_chars()
    assert len(chars) == 7445
    missing = sorted(ch for ch in chars if ord(ch) not in face.charToGlyph)
    assert missing == []


def test_module_imports_neither_qt_nor_reportlab():
    code = textwrap.dedent(
        """
        import sys
        import referee_app.fonts
        heavy = [m for m in ("PySide6", "reportlab") if m in sys.modules]
        assert not heavy, heavy
        """
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_register_reportlab_font_is_idempotent():
    from reportlab.pdfbase import pdfmetrics

    assert register_reportlab_font() == "RefereeCJK"
    assert register_reportlab_font() == "RefereeCJK"
    assert register_reportlab_font("RefereeCJKOther") == "RefereeCJKOther"
    assert "RefereeCJK" in pdfmetrics.getRegisteredFontNames()
    assert pdfmetrics.getFont("RefereeCJK").face.filename == str(CJK_FONT_PATH)


def test_register_reportlab_font_refuses_a_name_taken_by_another_font():
    from reportlab.pdfbase import pdfmetrics

    pdfmetrics.getFont("Helvetica")  # standard fonts register on first use
    with pytest.raises(ValueError):
        register_reportlab_font("Helvetica")


def test_reportlab_pdf_embeds_the_font_and_text_extracts_as_chinese():
    import pypdf
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.pdfgen import canvas
    from reportlab.platypus import Paragraph

    name = register_reportlab_font()
    buffer = io.BytesIO()
    pdf = canvas.Canvas(buffer)
    pdf.setFont(name, 18)
    pdf.drawString(72, 760, "血战到底 万筒条杠 Round 1")
    para = Paragraph("<b>庄家</b> 自摸 清一色 +16 番", ParagraphStyle("cjk", fontName=name))
    para.wrapOn(pdf, 400, 100)
    para.drawOn(pdf, 72, 700)
    pdf.save()

    reader = pypdf.PdfReader(io.BytesIO(buffer.getvalue()))
    text = reader.pages[0].extract_text()
    assert "血战到底 万筒条杠 Round 1" in text
    assert "自摸 清一色 +16 番" in text

    fonts = reader.pages[0]["/Resources"]["/Font"]
    embedded = []
    for ref in fonts.values():
        font = ref.get_object()
        if "WenQuanYi" in str(font["/BaseFont"]):
            descriptor = font["/FontDescriptor"].get_object()
            embedded.append("/FontFile2" in descriptor)
    assert embedded and all(embedded)


def test_register_qt_font(qapp):
    from PySide6.QtGui import QFont, QFontDatabase, QFontMetrics, QGuiApplication, QRawFont

    family = register_qt_font()
    assert family == CJK_FONT_FAMILY
    assert register_qt_font() == family
    assert family in QFontDatabase.families()

    font = QFont(family, 16)
    assert QFontMetrics(font).inFont("万")
    raw = QRawFont.fromFont(font)
    for ch in "万筒条杠A":
        # Pass the code point: PySide6 mis-converts some 1-char str arguments to QChar.
        assert raw.supportsCharacter(ord(ch)), ch
    assert 0 not in raw.glyphIndexesForString("万筒条杠")

    # The default application font falls back to it, once, after the platform font.
    families = QGuiApplication.font().families()
    assert families.count(family) == 1
    assert families[-1] == family
    assert QFontMetrics(QGuiApplication.font()).inFont("万")
    assert family.lower() in [f.lower() for f in QFont.substitutes("SimSun")]


QT_WITHOUT_SYSTEM_FONTS = textwrap.dedent(
    """
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QColor, QFont, QFontMetrics, QGuiApplication, QImage, QPainter

    from referee_app.fonts import register_qt_font

    app = QGuiApplication([])
    assert not QFontMetrics(QGuiApplication.font()).inFont("万"), "a system CJK font leaked in"
    family = register_qt_font()
    assert QFontMetrics(QGuiApplication.font()).inFont("万")

    def render(text, font):
        image = QImage(64, 64, QImage.Format.Format_Grayscale8)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.setFont(font)
        painter.setPen(Qt.GlobalColor.black)
        painter.drawText(8, 48, text)
        painter.end()
        return bytes(image.constBits())

    blank = render("", QFont(family, 32))
    # Distinct glyphs render differently; missing-glyph boxes would all look alike.
    for font in (QFont(family, 32), QGuiApplication.font()):
        font.setPointSize(32)
        images = [render(ch, font) for ch in "万筒条"]
        assert all(image != blank for image in images)
        assert len(set(images)) == 3
    print("ok", family)
    """
)


def test_qt_renders_chinese_with_no_system_font_at_all(tmp_path):
    """With fontconfig seeing no font directory, only the bundled font exists."""
    conf = tmp_path / "fonts.conf"
    conf.write_text(
        '<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n'
        f"<fontconfig><cachedir>{tmp_path / 'cache'}</cachedir></fontconfig>\n"
    )
    env = {
        **os.environ,
        "FONTCONFIG_FILE": str(conf),
        "QT_QPA_PLATFORM": "offscreen",
    }
    env.pop("FONTCONFIG_PATH", None)
    result = subprocess.run(
        [sys.executable, "-c", QT_WITHOUT_SYSTEM_FONTS],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith(f"ok {CJK_FONT_FAMILY}")
