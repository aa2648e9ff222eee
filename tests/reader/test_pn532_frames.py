"""The PN532 frame codec (reader/pn532_frames.py): golden frames from UM0701-02, round trips, robustness."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader import pn532_frames as pf
from reader.pn532_frames import Ack, ErrorFrame, FrameDecoder, InfoFrame, Nack, PN532FrameError

# Golden frames, computed by hand from the manual's rules (LEN + LCS = 0, TFI + PD + DCS = 0).
GOLDEN = {
    "GetFirmwareVersion": ("00 00 FF 02 FE D4 02 2A 00", pf.encode_command(pf.CMD_GET_FIRMWARE_VERSION)),
    "SAMConfiguration normal": ("00 00 FF 05 FB D4 14 01 14 01 02 00", pf.sam_configuration()),
    "MaxRetries FF 01 00": ("00 00 FF 06 FA D4 32 05 FF 01 00 F5 00", pf.rf_max_retries(passive_activation=0)),
    "InListPassiveTarget 1 target 106A": ("00 00 FF 04 FC D4 4A 01 00 E1 00", pf.in_list_passive_target()),
    "InRelease all": ("00 00 FF 03 FD D4 52 00 DA 00", pf.in_release(0)),
    "firmware 1.6": ("00 00 FF 06 FA D5 03 32 01 06 07 E8 00", pf.encode_response(0x02, bytes([0x32, 1, 6, 7]))),
}


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_frames(name: str) -> None:
    text, encoded = GOLDEN[name]
    assert encoded == bytes.fromhex(text)
    frames = FrameDecoder().feed(encoded)
    assert len(frames) == 1 and isinstance(frames[0], InfoFrame)


def test_control_frames_decode() -> None:
    dec = FrameDecoder()
    assert dec.feed(pf.ACK + pf.NACK + pf.ERROR_FRAME) == [Ack(), Nack(), ErrorFrame()]
    assert dec.counters["garbage"] == 0 and dec.counters["bad_checksum"] == 0


def test_firmware_and_targets_parse() -> None:
    (fw,) = FrameDecoder().feed(pf.encode_response(0x02, bytes([0x32, 1, 6, 7])))
    assert isinstance(fw, InfoFrame)
    assert str(pf.parse_firmware_version(fw)) == "PN532 firmware 1.6 (support 0x07)"
    uid4, uid7 = bytes.fromhex("DEADBEEF"), bytes.fromhex("04A22B1C5D6E80")
    payload = bytes([2]) + pf.target_a_payload(1, uid4) + pf.target_a_payload(2, uid7)
    (frame,) = FrameDecoder().feed(pf.encode_response(pf.CMD_IN_LIST_PASSIVE_TARGET, payload))
    assert isinstance(frame, InfoFrame)
    targets = pf.parse_in_list_passive_target(frame)
    assert [t.uid_hex for t in targets] == ["DEADBEEF", "04A22B1C5D6E80"]
    assert targets[0].sens_res == b"\x00\x04" and targets[0].sel_res == 0x08
    assert targets[1].sens_res == b"\x00\x44" and targets[1].sel_res == 0x00


def test_iso14443_4_target_skips_its_ats() -> None:
    uid = bytes.fromhex("0811223344556677")[:7]
    ats = bytes([5, 0x75, 0x77, 0x81, 0x02])
    payload = bytes([1]) + pf.target_a_payload(1, uid, sel_res=0x20) + ats
    frame = InfoFrame(pf.TFI_CHIP, bytes([0x4B]) + payload)
    (target,) = pf.parse_in_list_passive_target(frame)
    assert target.uid == uid


def test_no_target_is_an_empty_list() -> None:
    frame = InfoFrame(pf.TFI_CHIP, bytes([0x4B, 0x00]))
    assert pf.parse_in_list_passive_target(frame) == []


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ("03 32 01 06 07", "expected the response to command 0x4a"),
        ("4B 01 01 00 04 08 05 11 22 33 44 55", "NFCIDLength 5"),
        ("4B 01 01 00 04", "truncated"),
        ("4B 03", "at most 2"),
    ],
)
def test_malformed_responses_are_value_errors(data: str, message: str) -> None:
    with pytest.raises(PN532FrameError, match=message):
        pf.parse_in_list_passive_target(InfoFrame(pf.TFI_CHIP, bytes.fromhex(data)))


def test_encoder_refuses_bad_input() -> None:
    with pytest.raises(PN532FrameError, match="TFI must be"):
        pf.encode_frame(0x00, b"")
    with pytest.raises(PN532FrameError, match="at most 264"):
        pf.encode_frame(pf.TFI_HOST, bytes(265))
    with pytest.raises(PN532FrameError, match="MaxTg"):
        pf.in_list_passive_target(3)
    with pytest.raises(PN532FrameError, match="4, 7 or 10"):
        pf.target_a_payload(1, b"\x01\x02")


def test_bad_checksums_are_counted_and_dropped() -> None:
    good = pf.encode_response(0x02, bytes([0x32, 1, 6, 7]))
    bad_dcs = bytearray(good)
    bad_dcs[-2] ^= 0x01
    bad_lcs = bytearray(good)
    bad_lcs[4] ^= 0x01
    dec = FrameDecoder()
    frames = dec.feed(bytes(bad_dcs) + bytes(bad_lcs) + good)
    assert len(frames) == 1
    assert dec.counters["bad_checksum"] == 2


def test_false_start_in_garbage_can_be_abandoned() -> None:
    # a garbage "header" announcing 200 bytes, then a real ACK: the decoder waits...
    dec = FrameDecoder()
    assert dec.feed(bytes.fromhex("00 FF C8 38 D5") + pf.ACK) == []
    # ...until the driver gives up on it after a timeout
    assert dec.abandon_partial() == [Ack()]


def test_frames_split_at_every_byte() -> None:
    stream = pf.ACK + pf.encode_response(0x4A, bytes([0])) + pf.encode_frame(pf.TFI_CHIP, bytes(260))
    dec = FrameDecoder()
    frames = [f for b in stream for f in dec.feed(bytes([b]))]
    assert frames[0] == Ack() and len(frames) == 3
    assert isinstance(frames[2], InfoFrame) and len(frames[2].data) == 260


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400), st.integers(min_value=1, max_value=64))
def test_random_bytes_never_raise_and_never_tap(noise: bytes, chunk: int) -> None:
    dec = FrameDecoder()
    frames: list[pf.Frame] = []
    for i in range(0, len(noise), chunk):
        frames += dec.feed(noise[i : i + chunk])
    frames += dec.abandon_partial()
    taps = []
    for frame in frames:
        if isinstance(frame, InfoFrame) and frame.command == 0x4B:
            with contextlib.suppress(PN532FrameError):
                taps += pf.parse_in_list_passive_target(frame)
    assert taps == []
    # every byte is accounted for: decoded, still held, or dropped
    assert dec.pending <= len(noise)
    assert dec.counters["frames"] == len(frames)


payloads = st.binary(min_size=0, max_size=pf.MAX_DATA - 1)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([pf.TFI_HOST, pf.TFI_CHIP]), payloads, st.binary(max_size=40))
def test_valid_frames_round_trip_normal_and_extended(tfi: int, data: bytes, noise: bytes) -> None:
    encoded = pf.encode_frame(tfi, data)
    assert (encoded[3:5] == b"\xff\xff") == (len(data) + 1 > 255)
    # noise without a start code in front of the frame is dropped and counted, never fatal
    noise = noise.replace(b"\x00", b"\x01")
    dec = FrameDecoder()
    assert dec.feed(noise + encoded) == [InfoFrame(tfi, data)]
    assert dec.counters["garbage"] == len(noise)
    assert dec.pending == 0
