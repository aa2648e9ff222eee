"""Helpers of the share's tests: a share on loopback fed by hand, raw HTTP, and a Server-Sent Events reader."""

from __future__ import annotations

import json
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from engine.banker.viewmodel import PlayerView, ViewModel
from ui.share.address import Address
from ui.share.server import Limits
from ui.share.share import Share


@dataclass(frozen=True)
class FakeEvent:
    """An event with only a seq (it moves no money)."""

    seq: int
    command: int = 0


def view(seq: int, balance: int = 1500) -> ViewModel:
    players = (PlayerView("p1", "Ann", "red", balance, balance), PlayerView("p2", "Bob", "blue", 1500, 1500))
    return ViewModel(state="idle", edition="ultimate-uk", currency="M", players=players, seq=seq, phase="play",
                     turn="p1")


def started(limits: Limits | None = None) -> Share:
    share = Share(Address("127.0.0.1", 0), limits).start()
    share.publish(1, (), view(0))
    wait_for(lambda: share.server.hub.token == share.token)
    return share


def wait_for(check: Any, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("timed out waiting")
        time.sleep(0.01)


def connect(port: int, source: str = "127.0.0.1", timeout: float | None = None) -> socket.socket:
    """A connection to the share on 127.0.0.1 from the loopback address ``source`` (127.0.0.2, ... are
    other clients: the whole 127.0.0.0/8 is this machine's loopback)."""
    return socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))


def raw(port: int, request: bytes, timeout: float = 5.0, source: str = "127.0.0.1") -> bytes:
    """Send ``request`` bytes, return everything the server answers until it closes or ``timeout``."""
    with connect(port, source, timeout) as sock:
        sock.sendall(request)
        chunks = []
        try:
            while chunk := sock.recv(65536):
                chunks.append(chunk)
                if b"\r\n\r\n" in b"".join(chunks) and _complete(b"".join(chunks)):
                    break
        except (TimeoutError, ConnectionResetError):
            pass
    return b"".join(chunks)


def _complete(data: bytes) -> bool:
    head, _, body = data.partition(b"\r\n\r\n")
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(body) >= int(line.split(b":")[1])
    return False


def get(port: int, path: str, headers: str = "", source: str = "127.0.0.1") -> tuple[int, dict[str, str], bytes]:
    data = raw(port, f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n{headers}\r\n".encode(),
               source=source)
    return parse(data)


def parse(data: bytes) -> tuple[int, dict[str, str], bytes]:
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0] else 0
    fields = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        fields[name.strip().lower()] = value.strip()
    return status, fields, body


class SSE:
    """A blocking Server-Sent Events client on a socket: :meth:`messages` yields (event, id, data)."""

    def __init__(self, port: int, path: str, last_id: int | None = None, timeout: float = 10.0,
                 source: str = "127.0.0.1") -> None:
        self.sock = connect(port, source, timeout)
        extra = f"Last-Event-ID: {last_id}\r\n" if last_id is not None else ""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{extra}\r\n".encode())
        self.buffer = b""
        head = self._until(b"\r\n\r\n")
        self.status, self.headers, _ = parse(head + b"\r\n\r\n")
        self.chunked = self.headers.get("transfer-encoding") == "chunked"
        self._body = b""

    def _until(self, mark: bytes) -> bytes:
        while mark not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk
        part, _, self.buffer = self.buffer.partition(mark)
        return part

    def _read_body(self) -> None:
        if not self.chunked:
            chunk = self.buffer or self.sock.recv(65536)
            self.buffer = b""
            if not chunk:
                raise EOFError("closed")
            self._body += chunk
            return
        size = int(self._until(b"\r\n"), 16)
        if size == 0:
            raise EOFError("end of stream")
        while len(self.buffer) < size + 2:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise EOFError("closed")
            self.buffer += chunk
        self._body += self.buffer[:size]
        self.buffer = self.buffer[size + 2:]

    def messages(self) -> Iterator[tuple[str, int | None, Any]]:
        while True:
            while b"\n\n" not in self._body:
                self._read_body()
            block, _, self._body = self._body.partition(b"\n\n")
            kind, seq, data = "message", None, None
            for line in block.decode().split("\n"):
                name, _, value = line.partition(": ")
                if name == "event":
                    kind = value
                elif name == "id":
                    seq = int(value)
                elif name == "data":
                    data = json.loads(value)
            if data is not None:
                yield kind, seq, data

    def close(self) -> None:
        self.sock.close()
