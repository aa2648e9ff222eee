"""The share's URL as a QR code: a matrix of dark/light modules from ``segno`` (pure Python, no Pillow).

The touch screen turns the matrix into a Kivy texture (ui/touch/widgets/qr.py); nothing here imports Kivy.
"""

from __future__ import annotations

from functools import lru_cache

QUIET_ZONE = 2  # modules of light border around the code (the standard asks 4; phones read 2, and the
# unit's screen is small: the light border is drawn on the dark screen anyway)


@lru_cache(maxsize=4)
def qr_rows(text: str, border: int = QUIET_ZONE) -> tuple[tuple[bool, ...], ...]:
    """``text`` as QR code rows, top row first, True = dark module, with ``border`` light modules around;
    error correction M (a scratched or glared screen still scans). A URL whose path is upper case (the share's
    token) is encoded as ``HTTP://...``, in the denser alphanumeric mode (a smaller code)."""
    import segno

    if text.startswith("http://") and text[7:] == text[7:].upper():
        text = "HTTP://" + text[7:]
    code = segno.make(text, error="m", boost_error=False)
    return tuple(tuple(bool(module) for module in row) for row in code.matrix_iter(scale=1, border=border))


def rgba_bytes(rows: tuple[tuple[bool, ...], ...]) -> bytes:
    """The rows as RGBA bytes, BOTTOM row first (OpenGL's texture order): dark = black, light = white."""
    dark, light = b"\x00\x00\x00\xff", b"\xff\xff\xff\xff"
    return b"".join(dark if module else light for row in reversed(rows) for module in row)
