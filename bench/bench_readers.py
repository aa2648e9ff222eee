"""Reader latency: from the simulator writing a card report to CardPresented at the sink.

For the bridge (``serial://`` against firmware_sim.bridge on a pty) the clock starts when the simulated
firmware writes the ``TAP`` frame to the pty; for the PN532 (if its backend exists) when the card is put
on the simulated chip, at a random moment within the driver's polling period, so its number includes
the wait for the next poll; for the whole firmware (``serial://`` against firmware_sim.firmware: main.py
and its MFRC522 driver on the simulated chip) likewise, with its 30 ms poll. 1,000 taps each (a
different card each time, lifted before the next). The cards are known (enrolled, as at the table:
``Reader.set_known``), so no reader reads their memory; ``firmware-new`` is the whole firmware with cards
it does not know, NTAG213 stickers carrying a boardbank record, each presented once its record is read
through the bridge's READ verb (five requests of four pages, hardware/protocol.md), a first tap on a new
installation; ``firmware-classic-new`` the same with MIFARE Classic 1K cards carrying the record in the
NFC Forum layout (eight MREAD requests: the MAD's two blocks, two NDEF sectors' three; hardware/cards.md).
Requirement: bridge p99 under 20 ms.

Run: ``.venv/bin/python bench/bench_readers.py [--taps N]``; exit status 1 if the requirement fails.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import statistics
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from typing import Any

from firmware_sim.device import SimDevice
from reader import CardPresented, CardRemoved, ReaderConnected, ReaderEvent, open_reader

P99_LIMIT_MS = 20.0


class LatencySink:
    """Records when each CardPresented / CardRemoved arrives (time.perf_counter seconds)."""

    def __init__(self) -> None:
        self.presented: dict[str, float] = {}
        self.got_tap = threading.Event()
        self.got_removal = threading.Event()
        self.connected = threading.Event()

    def __call__(self, event: ReaderEvent) -> None:
        now = time.perf_counter()
        if isinstance(event, CardPresented):
            self.presented[event.uid] = now
            self.got_tap.set()
        elif isinstance(event, CardRemoved):
            self.got_removal.set()
        elif isinstance(event, ReaderConnected):
            self.connected.set()


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


def measure(device: SimDevice, url: str, taps: int, started: Callable[[str], float | None],
            jitter_s: float = 0.0, known: bool = True, card: Callable[[int], Any] | None = None) -> list[float]:
    """Latencies in milliseconds of ``taps`` presentations on ``device`` read through ``url``.

    ``jitter_s``: wait a random 0..jitter_s seconds (seeded) before each tap, so taps on a polled reader
    do not lock to the phase of its polling (each removal is seen just after a poll). ``card(i)``: the
    simulated card object of tap ``i``, put on the MFRC522 simulator (else a card with UID 04000000 + i).
    """
    rng = random.Random(1)
    sink = LatencySink()
    reader = open_reader(url)
    reader.set_known(lambda _uid: known)
    reader.start(sink)
    try:
        if not sink.connected.wait(10.0):
            raise SystemExit(f"{url}: no ReaderConnected within 10 s")
        latencies: list[float] = []
        for i in range(taps):
            tag = card(i) if card is not None else None
            uid = tag.uid.hex().upper() if tag is not None else f"{0x04000000 + i:08X}"
            sink.got_tap.clear()
            sink.got_removal.clear()
            if jitter_s:
                time.sleep(rng.uniform(0.0, jitter_s))
            t_call = time.perf_counter()
            if tag is not None:
                device.chip.remove()  # type: ignore[attr-defined]
                device.chip.insert(tag)  # type: ignore[attr-defined]
            else:
                device.tap(uid)
            if not sink.got_tap.wait(5.0):
                raise SystemExit(f"{url}: tap {i} ({uid}) never arrived")
            t0 = started(uid) or t_call
            latencies.append((sink.presented[uid] - t0) * 1000.0)
            device.remove()
            if not sink.got_removal.wait(5.0):
                raise SystemExit(f"{url}: removal {i} never arrived")
        return latencies
    finally:
        reader.stop()


def report(name: str, latencies: list[float]) -> float:
    p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
    print(f"{name:8s} taps={len(latencies)}  p50={p50:.2f} ms  p99={p99:.2f} ms  "
          f"mean={statistics.fmean(latencies):.2f} ms  max={max(latencies):.2f} ms")
    return p99


def bench_bridge(taps: int, tmp: str) -> float:
    from firmware_sim.bridge import BridgeDevice

    written: dict[str, float] = {}
    device = BridgeDevice(link=os.path.join(tmp, "ttyBRIDGE"))
    original_write = device.write

    def timed_write(data: bytes) -> None:  # stamp the moment the firmware writes a TAP frame
        if data.startswith(b"$TAP "):
            written[data[5:].split(b"*")[0].decode()] = time.perf_counter()
        original_write(data)

    device.write = timed_write  # type: ignore[method-assign]
    device.app.send = timed_write
    device.start()
    try:
        return report("bridge", measure(device, f"serial://{device.path}?baud=115200", taps, written.get))
    finally:
        device.stop()


def bench_pn532(taps: int, tmp: str) -> None:
    try:
        module: Any = importlib.import_module("firmware_sim.pn532")
        importlib.import_module("reader.pn532")
    except ImportError as exc:
        print(f"pn532    skipped: the PN532 backend is not here ({exc})")
        return
    device = module.PN532Device(link=os.path.join(tmp, "ttyPN532"))
    device.start()
    try:
        poll_s = float(getattr(importlib.import_module("reader.pn532"), "POLL_PERIOD_S", 0.05))
        report("pn532", measure(device, f"pn532://{device.path}", taps, lambda _uid: None, jitter_s=poll_s))
    finally:
        device.stop()


RECORD = b"\xd2\x1e\x13application/vnd.boardbank.card1 classic-uk deed 3"


def _sticker(i: int) -> Any:
    from firmware_sim.mfrc522_cards import NtagCard

    tag = NtagCard(bytes.fromhex(f"04{i:06X}5D6E80"))
    tag.store_ndef(RECORD)
    return tag


def _classic_card(i: int) -> Any:
    from firmware_sim.classic_blocks import access_bits
    from firmware_sim.mfrc522_cards import ClassicCard
    from reader import classic

    tag = ClassicCard(bytes.fromhex(f"{0xA0000000 + i:08X}"))
    tlv = b"\x03" + bytes([len(RECORD)]) + RECORD + b"\xfe"
    tlv += bytes(96 - len(tlv))
    tag.blocks[1][:], tag.blocks[2][:] = classic.mad_blocks(range(1, 3))
    tag.blocks[3][:] = classic.MAD_TRAILER
    for n, sector in enumerate((1, 2)):
        for b in range(3):
            tag.blocks[sector * 4 + b][:] = tlv[n * 48 + b * 16:n * 48 + b * 16 + 16]
        tag.blocks[sector * 4 + 3][:] = classic.NDEF_TRAILER
    assert access_bits(classic.NDEF_TRAILER, 0) == 0
    return tag


def bench_firmware(taps: int, tmp: str) -> None:
    """The whole firmware (main.py on the simulated MFRC522): the clock starts when the card is put on the
    antenna, at a random moment of the firmware's 30 ms polling period."""
    from firmware_sim.firmware import FirmwareDevice

    device = FirmwareDevice(link=os.path.join(tmp, "ttyFIRMWARE"))
    device.start()
    try:
        report("firmware", measure(device, f"serial://{device.path}?baud=115200", taps, lambda _uid: None,
                                   jitter_s=0.030))
        report("firmware-new", measure(device, f"serial://{device.path}?baud=115200", max(10, taps // 20),
                                       lambda _uid: None, jitter_s=0.030, known=False, card=_sticker))
        report("firmware-classic-new", measure(device, f"serial://{device.path}?baud=115200",
                                               max(10, taps // 20), lambda _uid: None, jitter_s=0.030,
                                               known=False, card=_classic_card))
    finally:
        device.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=1000)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="bb-bench-") as tmp:
        p99 = bench_bridge(args.taps, tmp)
        bench_pn532(args.taps, tmp)
        bench_firmware(args.taps, tmp)
    verdict = "OK" if p99 < P99_LIMIT_MS else "TOO SLOW"
    print(f"bridge p99 {p99:.2f} ms vs limit {P99_LIMIT_MS:.0f} ms: {verdict}")
    return 0 if p99 < P99_LIMIT_MS else 1


if __name__ == "__main__":
    sys.exit(main())
