"""Probes (``Reader.probe``): ok only when the device itself answers, against the simulators and a silent pty."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from v1device import V1BridgeDevice

from firmware_sim.bridge import BridgeDevice
from firmware_sim.pn532 import PN532Device
from reader.base import ProbeResult, probe
from reader.bridge import BridgeReader
from reader.bridge_handshake import LEGACY_REASON
from reader.pn532 import PN532Reader

pytestmark = pytest.mark.timeout(30)


@pytest.fixture
def silent_pty() -> Iterator[str]:
    """A serial port with nothing on it: a pty whose master is open and never answers."""
    master, slave = os.openpty()
    try:
        yield os.ttyname(slave)
    finally:
        os.close(slave)
        os.close(master)


def test_pn532_probe_asks_the_chip_for_its_firmware() -> None:
    with PN532Device(seed=1) as chip:
        result = PN532Reader.probe(f"pn532://{chip.path}", timeout_s=1.0)
        assert result == ProbeResult(True, f"PN532 firmware 1.6 (support 0x07) on {chip.path}")
        assert chip.counters["commands"] == 2  # SAMConfiguration, GetFirmwareVersion


def test_pn532_probe_of_a_silent_port_says_no_answer(silent_pty: str) -> None:
    result = probe(f"pn532://{silent_pty}", timeout_s=0.5)
    assert not result.ok
    assert result.detail.startswith(f"no PN532 answers on {silent_pty}") and "0x14" in result.detail
    assert "\n" not in result.detail


def test_bridge_probe_waits_for_hello() -> None:
    with BridgeDevice(seed=1) as device:
        result = BridgeReader.probe(f"serial://{device.path}", timeout_s=1.0)
        assert result == ProbeResult(True, f"bridge fw 2.0.0+sim protocol 2 on {device.path}")


def test_bridge_probe_of_a_silent_port_says_no_hello(silent_pty: str) -> None:
    result = probe(f"serial://{silent_pty}", timeout_s=0.4)
    assert result == ProbeResult(False, f"no bridge answers on {silent_pty}: no HELLO to VER? within 0.4 s")


def test_bridge_probe_names_v1_firmware() -> None:
    with V1BridgeDevice() as device:
        result = probe(f"serial://{device.path}", timeout_s=1.0)
        assert not result.ok and LEGACY_REASON in result.detail


def test_probe_of_a_missing_port_fails_with_the_reason(tmp_path: Path) -> None:
    for url in (f"serial://{tmp_path}/none", f"pn532://{tmp_path}/none"):
        result = probe(url, timeout_s=0.3)
        assert not result.ok and "No such file" in result.detail, result


def test_mock_and_stdin_are_always_there_and_bad_urls_are_failed_probes() -> None:
    assert probe("mock://x").ok and probe("stdin://").ok
    assert probe("nfc://x") == ProbeResult(False, "unknown reader URL scheme 'nfc'; expected one of "
                                           "['mock', 'pcsc', 'pn532', 'serial', 'stdin']")
    assert not probe("serial://").ok
    assert BridgeReader.probe("serial://") == ProbeResult(
        False, "expected serial://PATH[?baud=N], e.g. serial:///dev/ttyACM0?baud=115200, got 'serial://'")
    assert not PN532Reader.probe("pn532://").ok  # never raises, even for a bad URL


def test_pcsc_probe_reports_only_a_matching_reader() -> None:
    result = probe("pcsc://no-such-reader-name-anywhere", timeout_s=0.5)
    assert not result.ok
    assert result.detail.startswith(("no PC/SC reader matches 'no-such-reader-name-anywhere'",
                                     "PC/SC is not answering"))


def test_pcsc_probe_names_the_virtual_reader() -> None:
    from harness_pcsc import pcsc_harness

    with pcsc_harness() as rig:
        assert probe(rig.url, timeout_s=0.5) == ProbeResult(True, rig.reader)
