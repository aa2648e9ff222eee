"""``boardbank run --share``: the touch app hands every reaction to the share and shows its QR code.

:func:`follow` wraps the app's ``on_reaction`` (no change to the app's own loop): the reaction's events and
view-model go to the share's queue first (microseconds: the server works on its own thread), then the
screen renders as before; the QR code (:data:`ui.touch.widgets.qr.SHARE`) follows the URL, which changes at
New game.
"""

from __future__ import annotations

from typing import Any


def follow(app: Any, share: Any, banker: Any) -> None:
    """Publish every reaction of ``app`` to ``share`` and keep the QR code's URL current."""
    from ui.touch.widgets.qr import SHARE

    inner = app.on_reaction

    def on_reaction(reaction: Any) -> None:
        share.publish_reaction(banker, reaction)
        if SHARE.url != share.url:
            SHARE.url = share.url
        inner(reaction)

    app.on_reaction = on_reaction
    SHARE.url = share.url


def unfollow() -> None:
    """The share stopped: no QR code."""
    from ui.touch.widgets.qr import SHARE

    SHARE.url = ""
