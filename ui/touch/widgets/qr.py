"""The share's QR code on the touch screen (the banker menu, and a corner of the table while sharing).

:data:`SHARE` holds the page's URL ("" while not sharing); every :class:`ShareCode` follows it and draws
the code as a texture made from the module matrix (no Pillow, no image file): one texel per module,
scaled up with nearest filtering so the edges stay sharp.
"""

from __future__ import annotations

from typing import Any

from kivy.event import EventDispatcher
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import StringProperty
from kivy.uix.widget import Widget


class ShareState(EventDispatcher):
    """The live page's URL while the share runs, else ""."""

    url = StringProperty("")


SHARE = ShareState()


def qr_texture(url: str) -> Texture:
    """``url`` as a QR code texture, one texel per module (quiet zone included)."""
    from ui.share.qr import qr_rows, rgba_bytes

    rows = qr_rows(url)
    side = len(rows)
    texture = Texture.create(size=(side, side), colorfmt="rgba")
    texture.blit_buffer(rgba_bytes(rows), colorfmt="rgba", bufferfmt="ubyte")
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class ShareCode(Widget):
    """A square QR code of :attr:`url` (follows :data:`SHARE`), as large as the widget allows; nothing is
    drawn while the URL is empty."""

    url = StringProperty("")

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._shown = ""
        with self.canvas:
            self._colour = Color(1, 1, 1, 0)
            self._rect = Rectangle()
        self.bind(pos=self._redraw, size=self._redraw, url=self._redraw)
        SHARE.bind(url=self.setter("url"))
        self.url = SHARE.url

    def _redraw(self, *_args: Any) -> None:
        side = min(self.width, self.height)
        self._rect.pos = (self.x + (self.width - side) / 2, self.y + (self.height - side) / 2)
        self._rect.size = (side, side)
        if self.url != self._shown:
            self._shown = self.url
            self._rect.texture = qr_texture(self.url) if self.url else None
        self._colour.a = 1 if self.url else 0
