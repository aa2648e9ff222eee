"""The banker's side of the share: the game's token, the URL, and handing snapshots to the server.

Everything here runs on the banker's thread and returns at once: :meth:`Share.publish` puts the reaction's
events and view-model (immutable) on the server's queue. The token is random per game
(:func:`secrets.token_bytes`, in base32) and changes when the game changes (New game): the old URL then serves
nothing.
"""

from __future__ import annotations

import base64
import secrets
from functools import lru_cache
from importlib import resources
from typing import Any

from ui.share.address import Address, advertised_host
from ui.share.server import Limits, ShareServer, Update

TOKEN_BYTES = 16  # 128 random bits


def new_token() -> str:
    """A fresh random token for a game's URL: 26 characters A-Z, 2-7 (base32 of :data:`TOKEN_BYTES`
    random bytes from :mod:`secrets`), so the whole URL fits a QR code's compact alphanumeric mode."""
    return base64.b32encode(secrets.token_bytes(TOKEN_BYTES)).decode("ascii").rstrip("=")


@lru_cache(maxsize=8)
def _asset(name: str) -> bytes:
    return resources.files("ui.share").joinpath("static", name).read_bytes()


@lru_cache(maxsize=8)
def page_html(lang: str) -> bytes:
    """The page in ``lang``: the HTML with its words (a JSON data block; no inline script runs)."""
    import json

    from ui.share.marks import marks_json
    from ui.share.render import LANGUAGE_NAMES, page_strings

    strings = json.dumps(page_strings(lang), ensure_ascii=False).replace("<", "\\u003c")
    current = ' aria-current="true"'
    links = "".join(f'<a href="?lang={code}"{current if code == lang else ""} lang="{code}">{name}</a>'
                    for code, name in LANGUAGE_NAMES.items())
    html = _asset("page.html").decode()
    return (html.replace("{{lang}}", lang).replace("{{strings}}", strings).replace("{{languages}}", links)
            .replace("{{title}}", page_strings(lang)["share.title"]).replace("{{marks}}", marks_json())).encode()


def game_of(banker: Any, view: Any) -> int | None:
    """The game the table is on: the journal's game id, None in setup (after New game the finished game
    stays the banker's until the next one starts; the page of the finished game closes at New game)."""
    durable = banker.durable
    if durable is None or getattr(view, "state", "") == "setup":
        return None
    return int(durable.game_id)


class Share:
    """The share of one unit: ``address`` to listen on; :meth:`start`, :meth:`publish`, :meth:`stop`."""

    def __init__(self, address: Address, limits: Limits | None = None) -> None:
        self.address = address
        self.server = ShareServer(address, page_html, {
            "page.js": (_asset("page.js"), "text/javascript"),
            "page.css": (_asset("page.css"), "text/css"),
        }, limits or Limits())
        self._token = new_token()
        self._game: int | None = None
        self.started = False
        # where phones reach it: the LAN address when it listens on every interface (looked up once, here)
        self.reachable = advertised_host(address)
        self.host = self.reachable or ("[::1]" if ":" in address.host else "127.0.0.1")

    @property
    def token(self) -> str:
        """The current game's token (changes at New game)."""
        return self._token

    @property
    def url(self) -> str:
        """The page's address for the QR code: ``http://ADDR:PORT/TOKEN/``, ADDR the one phones can reach
        (:attr:`host`: never 0.0.0.0 nor ::; loopback only when the unit has no LAN address at all)."""
        port = self.server.port or self.address.port
        return f"http://{self.host}:{port}/{self._token}/"

    def bind(self) -> Share:
        """Take the address now (:class:`~ui.share.server.ShareError` when it cannot be used), serve later
        with :meth:`start`: the caller learns of a taken port before it opens anything."""
        self.server.bind()
        return self

    def release(self) -> None:
        """Give back an address bound by :meth:`bind` and never served."""
        if not self.started:
            self.server.release()

    def start(self, banker: Any = None) -> Share:
        """Serve (binding first unless :meth:`bind` did; :class:`~ui.share.server.ShareError` when the
        address cannot be used); with ``banker``, the game so far is handed over at once (a resumed game's
        whole journal)."""
        self.server.hub.token = self._token  # served from the first moment (the loop is not running yet)
        self.server.start()
        self.started = True
        if banker is not None:
            durable = banker.durable
            events = tuple(durable.game.events) if durable is not None else ()
            self.publish(game_of(banker, banker.view), events, banker.view)
        return self

    def publish(self, game: int | None, events: tuple[Any, ...], view: Any) -> None:
        """After a reaction (banker's thread): ``game`` id (None in setup), the reaction's new events, its
        view-model. A different game than the last one gets a new token first."""
        if self._game is not None and game != self._game:
            self._token = new_token()
        self._game = game
        if self.started:
            self.server.submit(Update(game, self._token, tuple(events), view))

    def publish_reaction(self, banker: Any, reaction: Any) -> None:
        """:meth:`publish` of a banker's ``reaction`` (a duplicate input's events are already known)."""
        events = () if getattr(reaction, "duplicate", False) else tuple(reaction.events)
        self.publish(game_of(banker, reaction.view), events, reaction.view)

    def stop(self) -> None:
        """Close every page and the server; idempotent."""
        if self.started:
            self.server.stop()
            self.started = False
