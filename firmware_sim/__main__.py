"""``python -m firmware_sim bridge|firmware|pn532 [--link PATH]``: a simulated reader on a pseudo-terminal.

``bridge`` runs the bridge firmware's protocol logic; ``firmware`` (alias ``mfrc522``) runs the whole
firmware, ``hardware/firmware/main.py`` unmodified, with its MFRC522 driver on a simulated MFRC522;
``pn532`` is an NXP PN532 on its UART.

Prints the device's path as the first line (open it with ``serial://PATH?baud=115200`` or
``pn532://PATH``), then reads commands on stdin, one per line::

    tap UID      a card arrives and stays        remove      the card leaves
    tap UID KIND [CONTENT] [locked]               a card with memory (firmware_sim/sim_cards.py): KIND
                 ntag213/ntag215/ntag216/classic; CONTENT blank, "1 classic-us deed 7" (a boardbank
                 record's text) or ndef:HEX; "tap UID" again brings it back with what was written on it
    unplug       the pty vanishes                 replug      a new pty behind the same link
    garbage N    N random bytes to the host       dup         repeat the last card report
    stall MS     silent and deaf for MS ms        badsum      the next frame has a wrong checksum
    counters     print the device's counters      quit        stop (so does end of input)

An unknown or malformed command prints one ``error: ...`` line on stdout and the simulator goes on.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from typing import TextIO

from firmware_sim.device import SimDevice
from firmware_sim.sim_cards import parse_tap

DEVICES: dict[str, str] = {
    "bridge": "firmware_sim.bridge:BridgeDevice",
    "pn532": "firmware_sim.pn532:PN532Device",
    "firmware": "firmware_sim.firmware:FirmwareDevice",
    "mfrc522": "firmware_sim.firmware:FirmwareDevice",
}


def build_device(kind: str, link: str | None) -> SimDevice:
    """Import (lazily) and construct the simulated device ``kind``."""
    module_name, _, class_name = DEVICES[kind].partition(":")
    cls = getattr(importlib.import_module(module_name), class_name)
    device = cls(link=link)
    assert isinstance(device, SimDevice)
    return device


def _int_arg(words: list[str], what: str) -> int:
    if len(words) != 2 or not words[1].isdigit():
        raise ValueError(f"{words[0]} needs one non-negative integer ({what}), got {' '.join(words)!r}")
    return int(words[1])


def execute(device: SimDevice, line: str, out: TextIO) -> bool:
    """Run one command line on ``device``; False when the simulator should quit. Errors are printed."""
    words = line.split()
    if not words or words[0].startswith("#"):
        return True
    verb = words[0].lower()
    simple: dict[str, Callable[[], None]] = {
        "remove": device.remove,
        "unplug": device.unplug,
        "replug": device.replug,
        "dup": device.dup,
        "badsum": device.badsum,
    }
    try:
        if verb == "quit":
            return False
        if verb == "tap":
            device.present(parse_tap(line))
        elif verb == "garbage":
            device.garbage(_int_arg(words, "a byte count"))
        elif verb == "stall":
            device.stall(_int_arg(words, "milliseconds"))
        elif verb == "counters":
            print(" ".join(f"{k}={v}" for k, v in sorted(device.counters.items())), file=out, flush=True)
        elif verb in simple and len(words) == 1:
            simple[verb]()
        else:
            known = ("tap UID [KIND [CONTENT] [locked]], remove, unplug, replug, garbage N, dup, stall MS, badsum, "
                     "counters, quit")
            raise ValueError(f"unknown command {line.strip()!r}; expected one of: {known}")
    except ValueError as exc:
        print(f"error: {exc}", file=out, flush=True)
    return True


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the simulator until ``quit`` or end of input; returns the exit status."""
    doc = __doc__ or ""
    commands = doc[doc.index("Prints the device"):] if "Prints the device" in doc else ""
    parser = argparse.ArgumentParser(prog="python -m firmware_sim", description=doc.splitlines()[0],
                                     epilog=commands.replace("``", "").replace("::", ":"),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("device", choices=sorted(DEVICES), help="which device to simulate")
    parser.add_argument("--link", default=None, metavar="PATH", help="a stable symlink to the pty (survives replug)")
    args = parser.parse_args(argv)
    inp = stdin if stdin is not None else sys.stdin
    out = stdout if stdout is not None else sys.stdout
    try:
        device = build_device(args.device, args.link)
    except ImportError as exc:
        print(f"error: the {args.device} simulator is not available: {exc}", file=sys.stderr)
        return 2
    device.start()
    try:
        print(device.path, file=out, flush=True)
        for line in inp:
            if not execute(device, line, out):
                break
    except KeyboardInterrupt:
        pass
    finally:
        device.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
