"""QR codes (segno) pointing players at the results pages.

:func:`results_qr_png` is for anyone who prints the results address: the projector page
here, and table cards or printed standings in the reports when the tournament has a
results address.
"""

from __future__ import annotations

import io


def results_qr_png(url: str, *, scale: int = 8, border: int = 2) -> bytes:
    """A PNG of a QR code for ``url`` (error correction M, black on white)."""
    import segno

    if not url or len(url) > 1000:
        raise ValueError("url: expected a web address of at most 1000 characters")
    buf = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buf, kind="png", scale=scale, border=border)
    return buf.getvalue()


def results_qr_svg(url: str, *, scale: int = 8, border: int = 2) -> str:
    """The same QR code as SVG text (sharp at any size on a projector)."""
    import segno

    buf = io.BytesIO()
    segno.make(url, error="m", micro=False).save(buf, kind="svg", scale=scale, border=border,
                                                 xmldecl=False, svgns=True)
    return buf.getvalue().decode("utf-8")
