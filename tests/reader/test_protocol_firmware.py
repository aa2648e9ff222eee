"""The firmware's codec (hardware/firmware/protocol.py, run under CPython) against the same golden frames,
and agreement between the firmware's and the host's codecs."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_sim.bridge import load_firmware_module
from reader import protocol as host

fw = load_firmware_module("protocol")
GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "hardware" / "golden_frames.json").read_text())
FRAMES: list[dict[str, Any]] = GOLDEN["frames"]
STREAMS: list[dict[str, Any]] = GOLDEN["streams"]


def raw(text: str) -> bytes:
    return text.encode("latin-1")


def test_firmware_crc_is_the_hosts_binascii_crc_hqx() -> None:
    import binascii

    for payload in (b"", b"123456789", b"TAP 04A22B1C", bytes(range(256))):
        assert fw.checksum(payload) == binascii.crc_hqx(payload, 0xFFFF) == host.checksum(payload)


def test_firmware_speaks_version_2_with_the_hosts_limits() -> None:
    assert fw.PROTOCOL_VERSION == host.PROTOCOL_VERSION == GOLDEN["protocol_version"]
    assert fw.MAX_FRAME == host.MAX_FRAME == 64
    assert set(fw.DEVICE_VERBS) == host.DEVICE_VERBS
    assert set(fw.HOST_VERBS) == host.HOST_VERBS


@pytest.mark.parametrize("case", FRAMES, ids=[f["name"] for f in FRAMES])
def test_golden_frame_decodes_as_documented(case: dict[str, Any]) -> None:
    line = raw(case["frame"])
    if case["result"] == "ok":
        assert fw.decode(line) == (case["verb"], case["args"])
    else:
        with pytest.raises(fw.ProtocolError) as info:
            fw.decode(line)
        assert info.value.kind == case["error"]
        assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("case", [f for f in FRAMES if f["result"] == "ok" and not f["frame"].endswith("\r\n")],
                         ids=lambda f: f["name"])
def test_encoder_produces_the_golden_bytes(case: dict[str, Any]) -> None:
    assert fw.encode(case["verb"], case["args"]) == raw(case["frame"])


@pytest.mark.parametrize("case", STREAMS, ids=[s["name"] for s in STREAMS])
def test_splitter_and_decoder_yield_the_documented_frames(case: dict[str, Any]) -> None:
    data = raw(case["bytes"])
    splitter = fw.Splitter()
    got = []
    for i in range(0, len(data), 3):  # in awkward 3-byte pieces
        for line in splitter.feed(data[i : i + 3]):
            with contextlib.suppress(fw.ProtocolError):
                got.append(list(fw.decode(line)))
    assert got == [[v, a] for v, a in case["frames"]]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_both_codecs_agree_on_any_bytes(data: bytes) -> None:
    """The firmware splitter+decoder and the host's FrameDecoder accept exactly the same frames."""
    splitter = fw.Splitter()
    fw_frames = []
    for line in splitter.feed(data):
        try:
            verb, args = fw.decode(line)
        except fw.ProtocolError:
            continue
        fw_frames.append(host.Frame(verb, tuple(args)))
    decoder = host.FrameDecoder()
    assert decoder.feed(data) == fw_frames
    assert decoder.stats["junk_bytes"] == splitter.junk_bytes
    assert decoder.stats["overlong"] == splitter.overlong


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(["TAP", "GONE", "ACK", "PONG", "PING", "BEEP", "LED", "ERR", "HELLO", "VER?", "NEWVERB"]),
    st.lists(st.text(st.sampled_from("0123456789ABCDEFokerrgoblue.x"), min_size=1, max_size=12), max_size=4),
)
def test_both_codecs_agree_on_structured_frames(verb: str, args: list[str]) -> None:
    """Random verb/argument mixes: both decoders give the same verdict on the firmware's encoding."""
    try:
        data = fw.encode(verb, args)
    except ValueError:
        with pytest.raises(ValueError):
            host.encode(verb, *args)
        return
    assert host.encode(verb, *args) == data
    try:
        expected: object = host.decode(data)
    except host.ProtocolError as exc:
        expected = exc.kind
    try:
        v, a = fw.decode(data)
        got: object = host.Frame(v, tuple(a))
    except fw.ProtocolError as exc:
        got = exc.kind
    assert got == expected
