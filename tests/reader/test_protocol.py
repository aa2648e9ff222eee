"""The host's bridge codec (reader/protocol.py) against the golden frames, plus Hypothesis properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.protocol import MAX_FRAME, Frame, FrameDecoder, ProtocolError, checksum, decode, encode

GOLDEN = json.loads((Path(__file__).resolve().parents[2] / "hardware" / "golden_frames.json").read_text())
FRAMES: list[dict[str, Any]] = GOLDEN["frames"]
STREAMS: list[dict[str, Any]] = GOLDEN["streams"]


def raw(text: str) -> bytes:
    """Golden files hold bytes as latin-1 characters."""
    return text.encode("latin-1")


def test_golden_file_is_version_2_and_covers_both_outcomes() -> None:
    assert GOLDEN["protocol_version"] == 2
    results = {f["result"] for f in FRAMES}
    assert results == {"ok", "error"}
    assert {f["error"] for f in FRAMES if f["result"] == "error"} == {"syntax", "checksum", "overlong", "args"}


@pytest.mark.parametrize("case", FRAMES, ids=[f["name"] for f in FRAMES])
def test_golden_frame_decodes_as_documented(case: dict[str, Any]) -> None:
    line = raw(case["frame"])
    if case["result"] == "ok":
        frame = decode(line)
        assert frame == Frame(case["verb"], tuple(case["args"]))
        assert frame.known == case.get("known", True)
    else:
        with pytest.raises(ProtocolError) as info:
            decode(line)
        assert info.value.kind == case["error"]
        assert repr(line[:10])[2:-1] in str(info.value)  # the message shows the bad input


@pytest.mark.parametrize("case", [f for f in FRAMES if f["result"] == "ok" and not f["frame"].endswith("\r\n")],
                         ids=lambda f: f["name"])
def test_encoder_produces_the_golden_bytes(case: dict[str, Any]) -> None:
    assert encode(case["verb"], *case["args"]) == raw(case["frame"])


@pytest.mark.parametrize("case", STREAMS, ids=[s["name"] for s in STREAMS])
def test_golden_streams_split_into_the_documented_frames(case: dict[str, Any]) -> None:
    data = raw(case["bytes"])
    expected = [Frame(v, tuple(a)) for v, a in case["frames"]]
    whole = FrameDecoder()
    assert whole.feed(data) == expected
    bytewise = FrameDecoder()
    got: list[Frame] = []
    for i in range(len(data)):
        got += bytewise.feed(data[i : i + 1])
    assert got == expected
    assert bytewise.stats == whole.stats


def test_decoder_counts_what_it_drops() -> None:
    d = FrameDecoder()
    good = encode("TAP", "04A22B1C")
    bad_sum = good[:-5] + (b"0000\n" if good[-5:-1] != b"0000" else b"1111\n")
    frames = d.feed(b"noise" + bad_sum + b"$" + b"X" * 80 + b"\n" + good)
    assert frames == [Frame("TAP", ("04A22B1C",))]
    assert d.stats["junk_bytes"] == 5
    assert d.stats["checksum"] == 1
    assert d.stats["overlong"] == 1
    assert d.stats["frames"] == 1
    assert isinstance(d.last_error, ProtocolError)


def test_encoder_refuses_what_cannot_be_a_frame() -> None:
    with pytest.raises(ValueError, match="printable"):
        encode("TAP", "04 A2")
    with pytest.raises(ValueError, match="printable"):
        encode("LED", "")
    with pytest.raises(ValueError, match="at most 64 bytes"):
        encode("ERR", 3, "x" * 60)


def test_checksum_is_crc16_ccitt_with_initial_value_ffff() -> None:
    assert checksum(b"123456789") == 0x29B1  # the catalogued check value of CRC-16/CCITT-FALSE
    assert checksum(b"PONG 42") == 0x0CBD  # the worked example in hardware/protocol.md
    assert checksum(b"") == 0xFFFF


# ---------------------------------------------------------------------------------------------- properties

UIDS = st.sampled_from([4, 7, 10]).flatmap(lambda n: st.binary(min_size=n, max_size=n)).map(lambda b: b.hex().upper())
VALID = st.one_of(
    UIDS.map(lambda u: ("TAP", (u,))),
    UIDS.map(lambda u: ("GONE", (u,))),
    st.integers(0, 65535).map(lambda n: ("PONG", (str(n),))),
    st.integers(0, 65535).map(lambda n: ("PING", (str(n),))),
    st.sampled_from(["ok", "err", "go"]).map(lambda b: ("BEEP", (b,))),
    st.tuples(st.integers(0, 999), st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7E,
                                                        exclude_characters="$*"), min_size=1, max_size=20))
    .filter(lambda t: t[1].strip(" ") == t[1] and "  " not in t[1])
    .map(lambda t: ("ERR", (str(t[0]), t[1]))),
)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes_never_raise_and_never_make_a_tap(data: bytes) -> None:
    d = FrameDecoder()
    frames = d.feed(data)
    # a random stream could only yield a TAP by containing a whole valid TAP frame, checksum included
    for f in frames:
        if f.verb == "TAP":
            assert encode("TAP", *f.args)[:-1] in data


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=30), max_size=6), VALID, st.binary(max_size=30))
def test_a_valid_frame_survives_any_noise_before_it(noise: list[bytes], frame: tuple[str, tuple[str, ...]],
                                                    tail: bytes) -> None:
    verb, args = frame
    data = encode(verb, *args)
    d = FrameDecoder()
    d.feed(b"".join(noise))
    got = d.feed(data)
    assert got[-1:] == [Frame(verb, args)]
    d.feed(tail)


@settings(max_examples=200, deadline=None)
@given(VALID)
def test_valid_frames_round_trip(frame: tuple[str, tuple[str, ...]]) -> None:
    verb, args = frame
    data = encode(verb, *args)
    assert len(data) <= MAX_FRAME
    assert decode(data) == Frame(verb, args)


@settings(max_examples=200, deadline=None)
@given(UIDS, st.integers(0, 63), st.integers(1, 255))
def test_any_single_corruption_of_a_tap_is_dropped_or_harmless(uid: str, pos: int, flip: int) -> None:
    data = bytearray(encode("TAP", uid))
    pos %= len(data) - 1  # keep the final newline
    data[pos] ^= flip
    d = FrameDecoder()
    frames = d.feed(bytes(data))
    assert [f for f in frames if f.verb == "TAP" and f.args != (uid,)] == []


def test_every_example_frame_in_the_spec_is_valid() -> None:
    """hardware/protocol.md's examples must stay true: each `$...*HH` in it decodes."""
    import re

    spec = (Path(__file__).resolve().parents[2] / "hardware" / "protocol.md").read_text()
    examples = re.findall(r"\$[A-Z?][\x20-\x23\x25-\x29\x2B-\x7E]*\*[0-9A-F]{4}", spec)
    assert len(examples) >= 15
    for text in examples:
        decode(text.encode("ascii"))  # raises ProtocolError if the document is wrong


# ---------------------------------------------------------------------------------------------- damage
# The v1 failure mode: an XOR-8 check let 137 of 100,000 damaged TAPs through as other cards
# ($TAP 04A22B1C*10 -> $TAP 06C22B1C*10: two bit flips in one column cancel). A CRC-16 detects every
# error burst of up to 16 bits, so no damage to one byte, or to two adjacent bytes, of a frame can
# give a different valid frame; the tests below try every single-byte damage of every golden frame
# and random one- and two-byte bursts of random frames.


def _v1_xor(payload: bytes) -> int:
    c = 0
    for b in payload:
        c ^= b
    return c


def test_the_v1_failure_mode_is_real_and_gone_in_v2() -> None:
    """The issue's example: flipping the same bit in two payload bytes keeps an XOR-8 but not a CRC-16."""
    good, damaged = b"TAP 04A22B1C", b"TAP 06C22B1C"  # 0x34->0x36 and 0x41->0x43: bit 1 flipped twice
    assert _v1_xor(good) == _v1_xor(damaged) == 0x10  # v1 took the damaged frame for card 06C22B1C
    frame = encode("TAP", "04A22B1C")
    with pytest.raises(ProtocolError) as info:
        decode(frame.replace(b"04A22B1C", b"06C22B1C"))
    assert info.value.kind == "checksum"


def _decoded(data: bytes) -> list[Frame]:
    return FrameDecoder().feed(data)


GOLDEN_OK = [raw(f["frame"]) for f in FRAMES if f["result"] == "ok"]


@pytest.mark.parametrize("line", GOLDEN_OK, ids=[f["name"] for f in FRAMES if f["result"] == "ok"])
def test_no_single_byte_damage_of_a_golden_frame_decodes_as_another_frame(line: bytes) -> None:
    original = _decoded(line)
    assert len(original) == 1
    for pos in range(len(line)):
        for value in range(256):
            if value == line[pos]:
                continue
            damaged = line[:pos] + bytes([value]) + line[pos + 1 :]
            got = _decoded(damaged + b"\n")  # a trailing newline closes a frame whose own one was hit
            assert all(f == original[0] for f in got), f"{damaged!r} decoded as {got}"


@settings(max_examples=400, deadline=None)
@given(VALID, st.integers(0, 63), st.integers(1, 0xFFFF))
def test_burst_damage_of_up_to_16_bits_never_decodes_as_a_different_frame(
    frame: tuple[str, tuple[str, ...]], pos: int, burst: int
) -> None:
    verb, args = frame
    data = bytearray(encode(verb, *args))
    pos %= len(data) - 1
    data[pos] ^= burst & 0xFF
    data[pos + 1] ^= burst >> 8
    got = _decoded(bytes(data) + b"\n")
    assert all(f == Frame(verb, args) for f in got), f"{bytes(data)!r} decoded as {got}"
