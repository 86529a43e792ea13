"""Rebuild the bundled CJK font ``referee_app/fonts/WenQuanYiMicroHei-Subset.ttf``.

This is a developer tool, not part of the app: it needs fontTools (``pip install
fonttools``) and the Debian package ``fonts-wqy-microhei`` (``apt-get install
fonts-wqy-microhei``), which provides ``/usr/share/fonts/truetype/wqy/wqy-microhei.ttc``.

Face 0 of that collection ("WenQuanYi Micro Hei", TrueType ``glyf`` outlines,
Apache-2.0) is cut down with fontTools' pyftsubset to:

* ASCII and Latin-1 (U+0020-007E, U+00A0-00FF)
* General Punctuation (U+2000-206F)
* CJK Symbols and Punctuation (U+3000-303F)
* Halfwidth and Fullwidth Forms (U+FF00-FFEF)
* every character of GB 2312 (all 7,445 two-byte code points: 6,763 hanzi plus
  the symbol, kana, Greek, Cyrillic, pinyin and box-drawing rows)
* Big5 level-1 (the 5,401 common traditional hanzi), so traditional spellings
  such as 萬 條 餅 槓 莊 閒 龍 render too
* the app's mahjong vocabulary (:data:`MAHJONG_TERMS`), simplified and traditional

Usage (from the repository root)::

    python tools/subset_font.py [--source PATH] [--output PATH]

It prints the equivalent ``pyftsubset`` command line before running it.
"""

from __future__ import annotations

import argparse
import shlex
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_SOURCE = Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc")
DEFAULT_OUTPUT = REPO / "referee_app" / "fonts" / "WenQuanYiMicroHei-Subset.ttf"
FONT_NUMBER = 0  # 0 = "WenQuanYi Micro Hei", 1 = "WenQuanYi Micro Hei Mono"

UNICODE_RANGES = [
    "U+0020-007E",  # ASCII
    "U+00A0-00FF",  # Latin-1 Supplement
    "U+2000-206F",  # General Punctuation
    "U+3000-303F",  # CJK Symbols and Punctuation
    "U+FF00-FFEF",  # Halfwidth and Fullwidth Forms
]

# Sichuan mahjong (血战到底) vocabulary used by the app; nearly all of it is in
# GB 2312 / Big5 already, it is listed so it can never be dropped by accident.
MAHJONG_TERMS = (
    "万筒饼条索杠碰胡和番庄闲炮摸根猪叫幺龙 血战到底 血流成河 自摸 点炮 放炮 接炮"
    "清一色 对对胡 七对 龙七对 金钩钓 将对 带幺九 门清 中张 天胡 地胡 杠上开花 杠上炮"
    "抢杠胡 海底捞月 海底炮 查叫 查花猪 花猪 定缺 换三张 刮风下雨 呼叫转移 明杠 暗杠"
    "补杠 弯杠 直杠 一二三四五六七八九十 东南西北 局 圈 场 桌 轮 分 积分 罚分 裁判 选手"
    "萬筒餅條索槓碰胡和番莊閒炮摸根豬叫幺龍 血戰到底 自摸 點炮 清一色 對對胡 七對 龍七對"
    "金鉤釣 將對 帶幺九 門清 中張 天胡 地胡 槓上開花 搶槓胡 海底撈月 查叫 花豬 定缺 換三張"
    "颳風下雨 呼叫轉移 明槓 暗槓 補槓 裁判 選手 積分 罰分"
)


def gb2312_chars() -> set[str]:
    """Every character encodable in GB 2312 (rows 0xA1-0xF7, cells 0xA1-0xFE)."""
    chars: set[str] = set()
    for lead in range(0xA1, 0xF8):
        for trail in range(0xA1, 0xFF):
            try:
                chars.add(bytes([lead, trail]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return chars


def big5_level1_hanzi() -> set[str]:
    """Big5 level-1 hanzi: the common traditional characters, 0xA440-0xC67E."""
    chars: set[str] = set()
    trails = [*range(0x40, 0x7F), *range(0xA1, 0xFF)]
    for lead in range(0xA4, 0xC7):
        for trail in trails:
            if (lead, trail) > (0xC6, 0x7E):
                continue
            try:
                chars.add(bytes([lead, trail]).decode("big5"))
            except UnicodeDecodeError:
                pass
    return chars


def subset_text() -> str:
    chars = gb2312_chars() | big5_level1_hanzi() | set(MAHJONG_TERMS)
    chars.discard(" ")
    return "".join(sorted(chars))


def pyftsubset_args(source: Path, output: Path, text_file: Path) -> list[str]:
    return [
        str(source),
        f"--font-number={FONT_NUMBER}",
        f"--unicodes={','.join(UNICODE_RANGES)}",
        f"--text-file={text_file}",
        f"--output-file={output}",
        "--layout-features=*",
        "--name-IDs=0,1,2,3,4,5,6,13,14",  # keep copyright and licence records
        "--drop-tables+=FFTM",
        "--notdef-outline",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE)
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT)
    options = parser.parse_args(argv)

    try:
        from fontTools import subset
    except ImportError:
        print("fontTools is needed: pip install fonttools", file=sys.stderr)
        return 2
    if not options.source.is_file():
        print(f"{options.source} not found: apt-get install fonts-wqy-microhei", file=sys.stderr)
        return 2

    with tempfile.TemporaryDirectory() as tmp:
        text_file = Path(tmp) / "chars.txt"
        text = subset_text()
        text_file.write_text(text, encoding="utf-8")
        args = pyftsubset_args(options.source, options.output, text_file)
        print(f"{len(text)} characters from GB 2312, Big5 level 1 and MAHJONG_TERMS")
        print("pyftsubset " + " ".join(shlex.quote(a) for a in args))
        subset.main(args)

    size = options.output.stat().st_size
    print(f"wrote {options.output} ({size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
