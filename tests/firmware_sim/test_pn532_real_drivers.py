"""Third-party PN532 drivers against the simulator: libnfc 1.8 (``nfc-list``, ``nfc-poll``), nfcpy 1.0.4 and
Adafruit's CircuitPython driver. If the simulator answered anything they send differently from the chip,
they would refuse it. The tools come from Debian (``libnfc-bin``, ``libnfc-examples``) and PyPI (the
``dev`` extra); without them these tests skip, except under CI (``CI`` set), where they must be there.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from typing import Any

import pytest

from firmware_sim.pn532 import PN532Device

pytestmark = pytest.mark.timeout(60)

UID4, UID7 = "04A22B1C", "04A22B1C5D6E80"


def require_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        message = f"{name} is not installed (Debian libnfc-bin / libnfc-examples; scripts/install-system-deps.sh)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def require_module(name: str) -> Any:
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"{name} is not installed (pip install -e '.[dev]'): {exc}")
        pytest.skip(f"{name} is not installed: {exc}")


@pytest.fixture
def chip() -> Iterator[PN532Device]:
    with PN532Device(seed=9) as device:
        yield device


def libnfc_env(device: PN532Device) -> dict[str, str]:
    """libnfc opens the device named by LIBNFC_DEFAULT_DEVICE; no configuration file, no scanning."""
    return dict(os.environ, LIBNFC_DEFAULT_DEVICE=f"pn532_uart:{device.path}", LIBNFC_AUTO_SCAN="false",
                LIBNFC_INTRUSIVE_SCAN="false", LIBNFC_LOG_LEVEL="1")


# ---------------------------------------------------------------------------------------------- libnfc


@pytest.mark.parametrize(("uid", "atqa", "sak"), [(UID4, "00  04", "08"), (UID7, "00  44", "00")])
def test_nfc_list_reads_the_uid(chip: PN532Device, uid: str, atqa: str, sak: str) -> None:
    tool = require_tool("nfc-list")
    chip.tap(uid)
    done = subprocess.run([tool], env=libnfc_env(chip), capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    spaced = "  ".join(uid[i : i + 2].lower() for i in range(0, len(uid), 2))
    assert "1 ISO14443A passive target(s) found" in done.stdout
    assert f"UID (NFCID1): {spaced}" in done.stdout
    assert f"ATQA (SENS_RES): {atqa}" in done.stdout and f"SAK (SEL_RES): {sak}" in done.stdout
    assert chip.counters["cmd_00"] == 1 and chip.counters["syntax_errors"] <= 1  # see firmware_sim/README.md


def test_nfc_list_with_an_empty_field_lists_nothing(chip: PN532Device) -> None:
    tool = require_tool("nfc-list")
    done = subprocess.run([tool], env=libnfc_env(chip), capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passive target(s) found" not in done.stdout and "NFC device:" in done.stdout


def test_nfc_poll_reports_a_tapped_card_and_its_removal(chip: PN532Device) -> None:
    tool = require_tool("nfc-poll")
    proc = subprocess.Popen([tool], env=libnfc_env(chip), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 5.0
        while chip.counters["cmd_60"] == 0:  # InAutoPoll: it is waiting for a card
            assert time.monotonic() < deadline and proc.poll() is None, "nfc-poll never started polling"
            time.sleep(0.02)
        chip.tap(UID7)
        time.sleep(0.5)
        chip.remove()
        out, err = proc.communicate(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "UID (NFCID1): 04  a2  2b  1c  5d  6e  80" in out, out + err
    assert "Waiting for card removing...done." in out
    assert chip.counters["cmd_40"] >= 1  # it pinged the tag with InDataExchange READ until it left


# ---------------------------------------------------------------------------------------------- nfcpy


@contextlib.contextmanager
def nfcpy_frontend() -> Iterator[tuple[Any, PN532Device]]:
    """A PN532Device and nfcpy's ContactlessFrontend on it. nfcpy finds ``tty:NAME`` only in /dev, so the
    simulator's link goes there when /dev is writable (root, as in CI); otherwise the frontend is built
    from nfcpy's own TTY transport and PN532 driver, which is the same code past the path lookup."""
    nfc = require_module("nfc")
    from nfc.clf import pn532, transport

    name = f"ttyBBSIM{os.getpid()}x{time.monotonic_ns() % 100000}"
    link = f"/dev/{name}"
    if not os.access("/dev", os.W_OK):
        link = os.path.join(tempfile.mkdtemp(prefix="bb-nfcpy-"), name)
    with PN532Device(link=link, seed=10) as device:
        if link.startswith("/dev/"):
            clf = nfc.ContactlessFrontend(f"tty:{name}:pn532")
        else:
            clf = nfc.ContactlessFrontend()
            clf.device = pn532.init(transport.TTY(link))
        try:
            yield clf, device
        finally:
            clf.close()


def test_nfcpy_opens_senses_both_uids_and_activates_a_type_2_tag() -> None:
    with nfcpy_frontend() as (clf, device):
        import nfc
        from nfc.clf import RemoteTarget

        assert clf.device.chipset_name == "PN532v1.6"
        assert clf.sense(RemoteTarget("106A"), iterations=1) is None
        device.tap(UID4)
        target = clf.sense(RemoteTarget("106A"), iterations=2, interval=0.05)
        assert target is not None and target.sdd_res.hex().upper() == UID4 and target.sel_res == b"\x08"
        device.tap(UID7)
        target = clf.sense(RemoteTarget("106A"), iterations=2, interval=0.05)
        assert target is not None and target.sdd_res.hex().upper() == UID7
        tag = nfc.tag.activate(clf, target)
        assert tag is not None and tag.type == "Type2Tag" and tag.product == "NXP NTAG213"
        assert tag.identifier.hex().upper() == UID7
        assert tag.ndef is not None and tag.ndef.length == 0  # the empty NDEF message of a new tag
        assert device.counters["cmd_00"] == 1 and device.counters["cmd_10"] >= 1  # line test, baud rate


def test_nfcpy_initiator_data_selects_only_the_card_asked_for() -> None:
    with nfcpy_frontend() as (clf, device):
        from nfc.clf import RemoteTarget

        device.tap(UID7)
        other = bytearray.fromhex("04A22B1C5D6E81")
        assert clf.sense(RemoteTarget("106A", sel_req=other), iterations=1) is None
        target = clf.sense(RemoteTarget("106A", sel_req=bytearray.fromhex(UID7)), iterations=1)
        assert target is not None and target.sdd_res.hex().upper() == UID7


# ---------------------------------------------------------------------------------------------- Adafruit


def test_adafruits_circuitpython_driver_reads_uids_and_a_block(chip: PN532Device) -> None:
    uart_module = require_module("adafruit_pn532.uart")
    import serial

    port = serial.Serial(chip.path, 115200, timeout=0.1)
    try:
        pn532 = uart_module.PN532_UART(port, debug=False)
        assert pn532.firmware_version == (0x32, 1, 6, 7)
        pn532.SAM_configuration()
        assert pn532.read_passive_target(timeout=0.2) is None
        chip.tap(UID4)
        assert bytes(pn532.read_passive_target(timeout=0.5)).hex().upper() == UID4
        chip.tap(UID7)
        assert bytes(pn532.read_passive_target(timeout=0.5)).hex().upper() == UID7
        assert pn532.ntag2xx_read_block(3) == bytes.fromhex("E1101200")
    finally:
        port.close()


def test_these_tools_are_present_in_ci() -> None:
    """Under CI the drivers above must be installed (scripts/install-system-deps.sh, the dev extra)."""
    if not os.environ.get("CI"):
        pytest.skip("only checked under CI")
    for tool in ("nfc-list", "nfc-poll"):
        assert shutil.which(tool), tool
    for module in ("nfc", "adafruit_pn532.uart"):
        importlib.import_module(module)
    assert sys.version_info >= (3, 11)
