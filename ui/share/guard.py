"""The share's door: connections counted per client address, the idle deadline, and a quiet error log.

Any device on the home network can reach the share, so none may lock the others out or fill the unit's log:

* :class:`Door` counts open connections, in all and per client IP address: a connection beyond
  ``Limits.connections`` or beyond ``Limits.per_client`` from one address is closed at once (one device's
  idle sockets cannot take every slot); a connection that has not become a live page within
  ``Limits.idle_s`` seconds is closed.
* :class:`QuietLog` stands in for aiohttp's server logger: a malformed request (or any error while
  serving one) is one short line, at most one per client address every ``Limits.log_every_s`` seconds,
  and the next line says how many were left out meanwhile. No traceback (one goes to DEBUG).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

log = logging.getLogger("ui.share.server")

MAX_TRACKED = 1024
"""Client addresses the quiet log remembers (the oldest is forgotten first)."""


def client_of(transport: asyncio.BaseTransport) -> str:
    """The client's IP address of a connection ("?" when the socket does not say)."""
    peer = transport.get_extra_info("peername")
    if isinstance(peer, tuple) and peer:
        return str(peer[0])
    return "?"


def one_line(text: object, limit: int = 160) -> str:
    """``text`` as one printable line of at most ``limit`` characters (a client's bytes may be in it)."""
    flat = " ".join(str(text).split())
    flat = "".join(c if c.isprintable() else "?" for c in flat)
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


class QuietLog:
    """aiohttp's server logger, quiet: :meth:`exception` writes one rate-limited line per client address.

    ``every_s``: seconds between two lines about the same client; ``clock``: monotonic seconds.
    """

    def __init__(self, every_s: float, clock: Callable[[], float] = time.monotonic,
                 target: logging.Logger = log) -> None:
        self.every_s = every_s
        self.clock = clock
        self.target = target
        self._last: OrderedDict[str, tuple[float, int]] = OrderedDict()  # client -> (last line, left out since)
        self.lines = 0
        self.left_out = 0

    def report(self, client: str, what: str) -> None:
        """One line about ``client`` unless one was written less than ``every_s`` seconds ago."""
        now = self.clock()
        last, skipped = self._last.get(client, (float("-inf"), 0))
        if now - last < self.every_s:
            self._last[client] = (last, skipped + 1)
            self.left_out += 1
            return
        self._last[client] = (now, 0)
        self._last.move_to_end(client)
        while len(self._last) > MAX_TRACKED:
            self._last.popitem(last=False)
        more = f" ({skipped} more from it left out in the last {self.every_s:g} s)" if skipped else ""
        self.lines += 1
        self.target.warning("share: %s from %s%s", what, client, more)

    # -- the part of logging.Logger that aiohttp's request handler calls ----------------------------------
    def exception(self, msg: str, *args: Any, exc_info: Any = None, **_kw: Any) -> None:
        client = str(args[0]) if args and "%s" in msg else "?"
        exc = exc_info if isinstance(exc_info, BaseException) else None
        if exc is not None:
            what = f"bad request ({one_line(f'{type(exc).__name__}: {exc}')})"
        else:
            what = one_line(msg % args if args else msg)
        self.target.debug("share: %s", msg % args if args else msg, exc_info=exc_info)
        self.report(client, what)

    def error(self, msg: str, *args: Any, **kw: Any) -> None:
        self.exception(msg, *args, **kw)

    def debug(self, msg: str, *args: Any, **kw: Any) -> None:
        self.target.debug(msg, *args, **kw)

    info = debug

    def warning(self, msg: str, *args: Any, **kw: Any) -> None:
        self.report("?", one_line(msg % args if args else msg))

    def loop_error(self, _loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """The event loop's exception handler: one rate-limited line too."""
        exc = context.get("exception")
        transport = context.get("transport")
        client = client_of(transport) if isinstance(transport, asyncio.BaseTransport) else "?"
        what = one_line(f"{context.get('message', 'error')}: {type(exc).__name__}: {exc}" if exc is not None
                        else context.get("message", "error"))
        self.target.debug("share: %s", what, exc_info=exc)
        self.report(client, what)


class Door(asyncio.Protocol):
    """aiohttp's protocol behind a door: the connection counts (all, per client) and the idle deadline."""

    def __init__(self, owner: Any) -> None:
        self.owner = owner  # the ShareServer: .limits, .guards, .per_client, .http
        self.inner: Any = None
        self.transport: asyncio.BaseTransport | None = None
        self.client = "?"
        self.streaming = False
        self._timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport
        self.client = client_of(transport)
        limits, counts = self.owner.limits, self.owner.per_client
        if len(self.owner.guards) >= limits.connections or counts.get(self.client, 0) >= limits.per_client:
            self.owner.refused += 1
            transport.abort()  # type: ignore[attr-defined]
            return
        assert self.owner.http is not None
        counts[self.client] = counts.get(self.client, 0) + 1
        self.inner = self.owner.http()
        self.owner.guards[transport] = self
        self.inner.connection_made(transport)
        self._timer = asyncio.get_running_loop().call_later(limits.idle_s, self._expire)

    def _expire(self) -> None:
        if not self.streaming and self.transport is not None:
            self.transport.abort()  # type: ignore[attr-defined]

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self.transport is not None and self.owner.guards.pop(self.transport, None) is not None:
            counts = self.owner.per_client
            left = counts.get(self.client, 1) - 1
            if left > 0:
                counts[self.client] = left
            else:
                counts.pop(self.client, None)
        if self.inner is not None:
            self.inner.connection_lost(exc)
