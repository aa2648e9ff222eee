"""The share's HTTP surface on loopback (docs/share.md): only the token's four URLs answer, the rest is 404;
no write endpoint; the security headers and no banner; limits hold against huge requests and slow clients;
a new game's token ends the old pages."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from sharekit import SSE, FakeEvent, connect, get, parse, raw, started, view, wait_for

from ui.share.server import Limits


@pytest.fixture
def share():  # type: ignore[no-untyped-def]
    s = started()
    yield s
    s.stop()


def test_the_token_serves_the_page_the_script_and_the_style(share) -> None:  # type: ignore[no-untyped-def]
    port, token = share.server.port, share.token
    for path, kind in (("", "text/html"), ("page.js", "text/javascript"), ("page.css", "text/css")):
        status, headers, body = get(port, f"/{token}/{path}")
        assert status == 200 and headers["content-type"].startswith(kind) and body
    assert share.url == f"http://127.0.0.1:{port}/{token}/"


@pytest.mark.parametrize("path", [
    "/", "/favicon.ico", "/page.js", "/events", "/{bad}/", "/{short}/", "/{token}", "/{token}x/",
    "/{token}/page.html", "/{token}/static/", "/{token}/static/page.js", "/{token}/../{token}/page.js",
    "/{token}/%2e%2e/", "/{token}/events/more", "/{token}//", "/{token}/page.js/", "/x/{token}/",
])
def test_every_other_url_answers_404_and_nothing_else(share, path: str) -> None:  # type: ignore[no-untyped-def]
    token = share.token
    bad = ("A" if token[0] != "A" else "B") + token[1:]
    status, headers, body = get(share.server.port, path.format(token=token, bad=bad, short=token[:-1]))
    assert status == 404 and body == b"Not found\n"
    assert "server" not in headers


@pytest.mark.parametrize("method", ["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])
def test_there_is_no_write_endpoint(share, method: str) -> None:  # type: ignore[no-untyped-def]
    for path in ("", "events", "page.js"):
        data = raw(share.server.port, f"{method} /{share.token}/{path} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n"
                                      f"Connection: close\r\n\r\n{{}}".encode())
        assert parse(data)[0] == 404


def test_security_headers_and_no_banner_on_every_answer(share) -> None:  # type: ignore[no-untyped-def]
    answers = [get(share.server.port, f"/{share.token}/"), get(share.server.port, "/nothing"),
               parse(raw(share.server.port, b"GET /" + b"a" * 10000 + b" HTTP/1.1\r\nHost: x\r\n\r\n"))]
    for _status, headers, _ in answers:
        assert "server" not in headers, headers
        assert "default-src 'none'" in headers["content-security-policy"]
        assert headers["referrer-policy"] == "no-referrer"
        assert headers["x-content-type-options"] == "nosniff"
    assert answers[2][0] == 400


def test_a_huge_request_is_refused_and_the_server_goes_on(share) -> None:  # type: ignore[no-untyped-def]
    port = share.server.port
    huge_header = f"GET /{share.token}/ HTTP/1.1\r\nHost: x\r\nX-Big: {'b' * 100_000}\r\n\r\n".encode()
    assert parse(raw(port, huge_header))[0] in (400, 0)
    many = f"GET /{share.token}/ HTTP/1.1\r\nHost: x\r\n".encode() + b"".join(
        f"X-{i}: 1\r\n".encode() for i in range(500)) + b"\r\n"
    assert parse(raw(port, many))[0] in (400, 0)
    body = f"GET /{share.token}/ HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n".encode() + b"x" * 65536
    assert parse(raw(port, body))[0] == 404  # a body is never read
    assert get(port, f"/{share.token}/")[0] == 200


def test_200_slow_clients_neither_block_a_phone_nor_stay(share) -> None:  # type: ignore[no-untyped-def]
    share.stop()
    s = started(Limits(idle_s=1.5))
    try:
        port = s.server.port
        # 20 devices, 10 dribbling connections each (within the 16 one device may hold)
        slow = [connect(port, f"127.0.0.{10 + n // 10}") for n in range(200)]
        for sock in slow:
            sock.sendall(b"GET /" + s.token.encode()[:5])  # a request dribbled, never finished
        began = time.monotonic()
        assert get(port, f"/{s.token}/", source="127.0.0.2")[0] == 200
        phone = SSE(port, f"/{s.token}/events", source="127.0.0.2")
        assert next(phone.messages())[0] == "view"
        assert time.monotonic() - began < 2.0
        time.sleep(2.5)
        closed = 0
        for sock in slow:
            sock.settimeout(2)
            try:
                closed += sock.recv(10) == b""
            except ConnectionResetError:
                closed += 1
            sock.close()
        assert closed == 200
        s.publish(1, (FakeEvent(1),), view(1))  # the live page outlived the slow ones
        kind, seq, _ = next(phone.messages())
        assert (kind, seq) == ("ev", 1)
        phone.close()
    finally:
        s.stop()


def test_connections_beyond_the_limit_are_closed_at_once(share) -> None:  # type: ignore[no-untyped-def]
    share.stop()
    s = started(Limits(connections=20, streams=3))
    try:
        port = s.server.port
        phones = [SSE(port, f"/{s.token}/events") for _ in range(3)]
        assert all(p.status == 200 for p in phones)
        assert get(port, f"/{s.token}/events")[0] == 503
        held = [connect(port, f"127.0.0.{3 + n % 5}") for n in range(25)]  # 5 devices, 5 each
        time.sleep(0.3)
        assert len(s.server.guards) <= 20
        for sock in held:
            sock.close()
        for p in phones:
            p.close()
        wait_for(lambda: len(s.server.guards) == 0)
        assert get(port, f"/{s.token}/")[0] == 200
    finally:
        s.stop()


def test_events_in_order_once_and_from_last_event_id_after_a_reconnect(share) -> None:  # type: ignore[no-untyped-def]
    port = share.server.port
    phone = SSE(port, f"/{share.token}/events?lang=ru")
    assert phone.headers["content-type"].startswith("text/event-stream")
    messages = phone.messages()
    assert next(messages)[0] == "view"
    for seq in range(1, 6):
        share.publish(1, (FakeEvent(seq),), view(seq, 1500 - seq))
    seen: list[int] = []
    while len(seen) < 5:  # views of updates close together are coalesced: the events all come
        kind, seq, _ = next(messages)
        if kind == "ev":
            seen.append(seq)  # type: ignore[arg-type]
    assert seen == [1, 2, 3, 4, 5]
    kind, _, last = next(messages)
    assert kind == "view" and last["seq"] == 5 and last["players"][0]["balance"] == "M1\u00a0495"
    phone.close()
    share.publish(1, (FakeEvent(6), FakeEvent(7)), view(7))
    wait_for(lambda: share.server.hub.last_seq == 7)
    again = SSE(port, f"/{share.token}/events", last_id=5)
    got = [next(again.messages()) for _ in range(3)]
    assert [(k, s) for k, s, _ in got] == [("ev", 6), ("ev", 7), ("view", None)]
    assert got[2][2]["players"][0]["balance"] == "M1,500"
    again.close()


def test_a_new_game_changes_the_token_and_ends_the_old_pages(share) -> None:  # type: ignore[no-untyped-def]
    port, old = share.server.port, share.token
    phone = SSE(port, f"/{old}/events")
    next(phone.messages())
    share.publish(None, (), view(0))  # New game: back to setup
    assert share.token != old
    with pytest.raises(EOFError):
        for _ in phone.messages():
            pass
    wait_for(lambda: share.server.hub.token == share.token)
    assert get(port, f"/{old}/")[0] == 404
    assert get(port, f"/{share.token}/")[0] == 200
    share.publish(2, (FakeEvent(1),), view(1))  # the next game starts: the URL stays
    assert get(port, f"/{share.token}/")[0] == 200


def test_the_page_speaks_the_phones_language(share) -> None:  # type: ignore[no-untyped-def]
    port, token = share.server.port, share.token
    assert b'lang="ru"' in get(port, f"/{token}/", "Accept-Language: ru-RU,ru;q=0.9,en;q=0.5\r\n")[2]
    assert b'lang="ja"' in get(port, f"/{token}/?lang=ja", "Accept-Language: ru\r\n")[2]
    assert b'lang="en"' in get(port, f"/{token}/", "Accept-Language: de-DE\r\n")[2]
    phone = SSE(port, f"/{token}/events?lang=ru")
    assert next(phone.messages())[2]["players"][0]["balance"] == "M1\u00a0500"
    phone.close()


def test_publish_never_waits_for_the_server(share) -> None:  # type: ignore[no-untyped-def]
    phones = [SSE(share.server.port, f"/{share.token}/events") for _ in range(5)]  # they read nothing
    began = time.perf_counter()
    for seq in range(1, 2001):
        share.publish(1, (FakeEvent(seq),), view(seq))
    assert (time.perf_counter() - began) / 2000 < 0.001  # under a millisecond per reaction
    wait_for(lambda: share.server.hub.last_seq == 2000)
    for p in phones:
        p.close()
    assert threading.active_count() < 50
