"""The share's web server: aiohttp's low-level server on its own thread and event loop, beside Kivy's.

It serves exactly four URLs under the game's token, all read-only: ``/<token>/`` (the page),
``/<token>/page.js``, ``/<token>/page.css`` and ``/<token>/events`` (Server-Sent Events). Anything else,
including every other method, a wrong token and no token, answers 404 with the same small body. The token
is compared with :func:`hmac.compare_digest`.

The banker's thread never waits on this one: :meth:`ShareServer.submit` puts an :class:`Update` (immutable
snapshots: the view-model and engine events are frozen dataclasses) on a thread-safe queue, which the
server's loop polls every ``coalesce_s`` seconds (no wake-up, no system call on the tap path). The server
never calls into the banker or the engine.

Limits (:class:`Limits`): connections at once, in all and from one client address, live pages at once,
the request line and header sizes (aiohttp's parser refuses more with 400), and a connection that has not
become an event stream within ``idle_s`` seconds is closed (a slow client dribbling a request cannot hold
a slot); ui/share/guard.py keeps that door. A malformed request is one short log line, at most one per
client every ``log_every_s`` seconds. Every response has the security headers and no ``Server`` banner.

The listening socket is bound by :meth:`ShareServer.bind` in the caller's thread, before anything else
starts, so a port in use or an address that is not the unit's is known before the installation file is
opened.
"""

from __future__ import annotations

import asyncio
import errno
import hmac
import logging
import queue
import socket
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from ui.share.address import Address
from ui.share.guard import Door, QuietLog
from ui.share.stream import Hub, Subscriber

log = logging.getLogger(__name__)

SECURITY_HEADERS = {
    "Content-Security-Policy": ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                                "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
    "Cross-Origin-Resource-Policy": "same-origin",
}
NOT_FOUND = b"Not found\n"


class ShareError(OSError):
    """The share could not start (the address is not this unit's, the port is taken)."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's limits: ``connections`` TCP connections at once and ``per_client`` from one client IP
    address (more are closed at once), ``streams``
    live pages at once (more get 503), request line / each header at most ``line_bytes``, at most
    ``headers`` header lines, ``idle_s`` seconds for a connection to become a live page, ``backlog``
    events queued for one phone before it is dropped (it reconnects and catches up), every event but
    only the last view of the updates that arrived since the queue was last looked at (every ``coalesce_s``
    seconds); at most one log line per client every ``log_every_s`` seconds about its bad requests."""

    connections: int = 256
    per_client: int = 16
    streams: int = 64
    line_bytes: int = 4096
    headers: int = 48
    idle_s: float = 10.0
    backlog: int = 4096
    heartbeat_s: float = 15.0
    coalesce_s: float = 0.02  # the queue is looked at this often; what came meanwhile goes out together
    log_every_s: float = 60.0


@dataclass(frozen=True, slots=True)
class Update:
    """What the banker hands over after a reaction: the game id (None in setup), the token of that game,
    the new events (engine events, in seq order) and the view-model after them."""

    game: int | None
    token: str
    events: tuple[Any, ...]
    view: Any


def _bind_words(exc: OSError, address: Address) -> str:
    """Why a bind failed, in words a family can act on."""
    if exc.errno == errno.EADDRINUSE:
        return f"port {address.port} is in use (another program, or another boardbank, listens on it)"
    if exc.errno == errno.EADDRNOTAVAIL:
        return f"{address.host} is not an address of this unit"
    if exc.errno == errno.EACCES:
        return f"port {address.port} needs more rights (below 1024); use one above 1023 such as 8024"
    return str(exc.strerror or exc)


class _Request(web.BaseRequest):
    async def _prepare_hook(self, response: web.StreamResponse) -> None:
        response.headers.pop("Server", None)
        response.headers.update(SECURITY_HEADERS)


@dataclass
class ShareServer:
    """The server thread. :meth:`bind` takes ``address`` (port 0: any free one, see :attr:`port`) or raises
    :class:`ShareError`; :meth:`start` serves (binding first if need be); :meth:`submit` is the banker's only
    call while it runs; :meth:`stop`."""

    address: Address
    page: Callable[[str], bytes]  # the page's HTML in a language
    files: dict[str, tuple[bytes, str]]  # other file name -> (bytes, content type)
    limits: Limits = field(default_factory=Limits)
    port: int = 0
    guards: dict[asyncio.BaseTransport, Door] = field(default_factory=dict)
    per_client: dict[str, int] = field(default_factory=dict)  # client IP -> its open connections
    refused: int = 0  # connections closed at once (over a limit)
    http: web.Server | None = None
    hub: Hub = field(default_factory=Hub)
    quiet: QuietLog | None = None
    _inbox: queue.SimpleQueue[Update | None] = field(default_factory=queue.SimpleQueue)
    _loop: asyncio.AbstractEventLoop | None = None
    _thread: threading.Thread | None = None
    _stopped: asyncio.Event | None = None
    _sock: socket.socket | None = None

    def bind(self) -> None:
        """Bind and listen on ``address`` now, in this thread (nothing is served yet); idempotent.
        :class:`ShareError` (an OSError) with one line when the port is taken or the address is not the
        unit's."""
        if self._sock is not None:
            return
        host, port = self.address.host, self.address.port
        sock: socket.socket | None = None
        try:
            family, kind, proto, _, where = socket.getaddrinfo(
                host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE | socket.AI_NUMERICHOST)[0]
            sock = socket.socket(family, kind, proto)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and self.address.every_interface:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)  # [::] takes IPv4 phones too
            sock.bind(where)
            sock.listen(128)
            sock.setblocking(False)
        except OSError as exc:
            if sock is not None:
                sock.close()
            raise ShareError(f"the share cannot listen on {self.address}: {_bind_words(exc, self.address)}") from exc
        self._sock = sock
        self.port = int(sock.getsockname()[1])

    def release(self) -> None:
        """Close a socket bound but never served (the start of the program failed after :meth:`bind`)."""
        if self._sock is not None and self._thread is None:
            self._sock.close()
            self._sock = None

    def start(self) -> None:
        self.bind()
        ready: queue.SimpleQueue[BaseException | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._main, args=(ready,), name="boardbank-share", daemon=True)
        self._thread.start()
        failure = ready.get()
        if failure is not None:
            self._thread.join(5)
            self._thread = None
            self.release()
            raise ShareError(f"the share cannot listen on {self.address}: {failure}") from failure

    def submit(self, update: Update) -> None:
        """Thread-safe and never blocking, no system call: put ``update`` on the queue the server's loop
        polls every ``coalesce_s`` seconds."""
        self._inbox.put(update)

    def stop(self) -> None:
        """Close every connection and end the thread; idempotent."""
        loop, self._loop = self._loop, None
        if loop is not None and self._stopped is not None:
            loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        self.release()

    # -- the server's own thread ---------------------------------------------------------------------------
    def _main(self, ready: queue.SimpleQueue[BaseException | None]) -> None:
        loop = asyncio.new_event_loop()
        try:
            loop.run_until_complete(self._serve(loop, ready))
        except BaseException as exc:
            ready.put(exc)
        finally:
            loop.close()

    async def _serve(self, loop: asyncio.AbstractEventLoop, ready: queue.SimpleQueue[BaseException | None]) -> None:
        limits = self.limits
        self._stopped = asyncio.Event()
        self.quiet = QuietLog(limits.log_every_s)
        loop.set_exception_handler(self.quiet.loop_error)
        self.http = web.Server(
            self._handle, request_factory=self._make_request, handler_cancellation=True, access_log=None,
            max_line_size=limits.line_bytes, max_field_size=limits.line_bytes, max_headers=limits.headers,
            keepalive_timeout=5.0, logger=self.quiet)
        sock, self._sock = self._sock, None
        assert sock is not None  # start() bound it
        server = await loop.create_server(lambda: Door(self), sock=sock)
        self._loop = loop
        ready.put(None)
        self._drain()
        poller = loop.create_task(self._poll())
        await self._stopped.wait()
        poller.cancel()
        server.close()
        self.hub.close_all()
        for transport in list(self.guards):
            transport.abort()  # type: ignore[attr-defined]
        await self.http.shutdown(1.0)
        await server.wait_closed()

    def _make_request(self, message: Any, payload: Any, protocol: Any, writer: Any, task: Any) -> web.BaseRequest:
        return _Request(message, payload, protocol, writer, task, asyncio.get_running_loop())

    async def _poll(self) -> None:
        while True:  # the banker never wakes this loop: it looks at the queue on its own time
            await asyncio.sleep(self.limits.coalesce_s)
            if not self._inbox.empty():
                self._drain()

    def _drain(self) -> None:
        batch: list[Update] = []
        while True:
            try:
                update = self._inbox.get_nowait()
            except queue.Empty:
                break
            if update is not None:
                batch.append(update)
        for i, update in enumerate(batch):
            same = i + 1 < len(batch) and (batch[i + 1].token, batch[i + 1].game) == (update.token, update.game)
            self.hub.update(update.game, update.token, update.events, update.view, send_view=not same)

    async def _handle(self, request: web.BaseRequest) -> web.StreamResponse:
        name = self._route(request)
        if name is None:
            return web.Response(status=404, body=NOT_FOUND, content_type="text/plain")
        if name == "events":
            return await self._events(request)
        if name == "":
            from ui.share.render import pick_language

            lang = pick_language(request.query.get("lang"), request.headers.get("Accept-Language"))
            return web.Response(body=self.page(lang), content_type="text/html", charset="utf-8")
        body, kind = self.files[name]
        return web.Response(body=body, content_type=kind, charset="utf-8")

    def _route(self, request: web.BaseRequest) -> str | None:
        if request.method not in ("GET", "HEAD") or request.can_read_body:
            return None
        path = request.raw_path.split("?", 1)[0]
        token, slash, name = path[1:].partition("/")
        if not path.startswith("/") or not slash or not self.hub.token or not hmac.compare_digest(token.encode(), self.hub.token.encode()):
            return None
        if name in self.files or name == "" or (name == "events" and request.method == "GET"):
            return name
        return None

    async def _events(self, request: web.BaseRequest) -> web.StreamResponse:
        from ui.share.render import pick_language

        if len(self.hub.subscribers) >= self.limits.streams:
            return web.Response(status=503, body=b"Too many phones at once\n", content_type="text/plain",
                                headers={"Retry-After": "5"})
        guard = self.guards.get(request.transport) if request.transport is not None else None
        if guard is not None:
            guard.streaming = True
        lang = pick_language(request.query.get("lang"), request.headers.get("Accept-Language"))
        last = request.headers.get("Last-Event-ID") or request.query.get("last") or "0"
        since = int(last) if last.isdigit() and len(last) < 12 else 0
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream; charset=utf-8",
                                               "X-Accel-Buffering": "no"})
        await response.prepare(request)
        sub = Subscriber(lang, self.limits.backlog)
        try:
            await response.write(b"retry: 1000\n\n" + self.hub.join(sub, since))
            while True:
                try:
                    chunk = await asyncio.wait_for(sub.next_chunk(), self.limits.heartbeat_s)
                except TimeoutError:
                    chunk = b": alive\n\n"
                if chunk is None:
                    break
                await response.write(chunk)
        except ConnectionError:
            pass
        finally:
            self.hub.leave(sub)
        return response
