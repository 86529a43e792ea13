"""Compile the message catalogues with Babel: ``referee_app/locale/*/LC_MESSAGES/*.po`` → ``.mo``.

Run it after editing a ``.po`` (``make locale``); the ``.mo`` are committed and shipped in the
wheel, and tests/test_i18n_catalogue.py fails when one is not exactly what this writes.
``--check`` only reports stale files (exit status 1).
"""

from __future__ import annotations

import sys
from io import BytesIO
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

LOCALE = Path(__file__).resolve().parent.parent / "referee_app" / "locale"


def compiled(po: Path) -> bytes:
    """The ``.mo`` Babel compiles from ``po`` (fuzzy entries left out, as gettext does)."""
    with po.open("rb") as f:
        catalog = read_po(f)
    buf = BytesIO()
    write_mo(buf, catalog, use_fuzzy=False)
    return buf.getvalue()


def main(argv: list[str]) -> int:
    stale = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        data = compiled(po)
        if mo.is_file() and mo.read_bytes() == data:
            continue
        stale.append(mo)
        if "--check" not in argv:
            mo.write_bytes(data)
            print(f"wrote {mo.relative_to(LOCALE.parent.parent)}")
    if "--check" in argv and stale:
        print("stale: " + ", ".join(str(m) for m in stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
