"""The builder's documents in hardware/ against the code: every protocol frame they tell a builder to type
or expect decodes with both codecs (reader/protocol.py and the firmware's hardware/firmware/protocol.py),
the bench check is protocol v2 and answers what the firmware says, the parts list counts the wires the
wiring uses, and the two UART notes give one advice."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from firmware_sim.bridge import load_firmware_module
from reader.protocol import PROTOCOL_VERSION, decode, encode

HARDWARE = Path(__file__).resolve().parents[2] / "hardware"
FRAME = re.compile(r"`(\$[A-Z?]+(?: [^`*]+)?\*[0-9A-F]{2,4})`")
DOCS = ("wiring.md", "firmware/README.md", "pn532.md", "bom.md")
fw = load_firmware_module("protocol")
app = load_firmware_module("bridge_app")


def _frames(name: str) -> list[str]:
    return FRAME.findall((HARDWARE / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", DOCS)
def test_documented_frames_decode(name: str) -> None:
    for text in _frames(name):
        frame = decode(text.encode())
        assert encode(frame.verb, *frame.args).strip() == text.encode(), text
        assert fw.decode(text.encode())[0] == frame.verb


def test_bench_check_is_v2() -> None:
    """wiring.md's bench check: `$VER?*8F5E` answered by `$HELLO bridge 2 2.0.0*9434` (the firmware's own
    protocol and firmware versions)."""
    frames = _frames("wiring.md")
    assert "$VER?*8F5E" in frames
    hello = encode("HELLO", "bridge", PROTOCOL_VERSION, app.FIRMWARE_VERSION).strip().decode()
    assert hello == "$HELLO bridge 2 2.0.0*9434" and hello in frames
    assert "$HELLO bridge 2 2.0.0*9434" in _frames("firmware/README.md")
    assert not [f for f in frames if re.search(r"\*[0-9A-F]{2}$", f)], "a v1 frame (two check digits) is left"


def test_main_docstring_says_v2() -> None:
    doc = (HARDWARE / "firmware" / "main.py").read_text(encoding="utf-8").split('"""')[1]
    assert f"protocol v{PROTOCOL_VERSION}" in doc and "protocol v1" not in doc


def test_bom_counts_the_wiring() -> None:
    """13 wires (7 RC522 -> Pico female-female, 6 Pico -> breadboard female-male) and the maintenance jumper."""
    wiring = (HARDWARE / "wiring.md").read_text(encoding="utf-8")
    rc522 = wiring.split("| RC522 board pin |")[1].split("\n\n")[0]
    wired = [row for row in rc522.splitlines()[2:] if row.startswith("|") and "| — |" not in row]
    assert len(wired) == 7
    assert "That is 13 wires" in wiring
    bom = (HARDWARE / "bom.md").read_text(encoding="utf-8")
    ff = re.search(r"female–female, 10 cm \| [^|]+\| (\d+) \|", bom)
    fm = re.search(r"female–male, 10 cm \| [^|]+\| (\d+) \|", bom)
    assert ff and fm and (int(ff.group(1)), int(fm.group(1))) == (7 + 1, 6)
    for part in ("SC0917", "MFRC522", "PN532", "ACR122U", "NTAG213", "25 mm", "220 Ω", "buzzer", "header",
                 "breadboard", "Card stock"):
        assert part in bom, part


def test_one_uart_advice() -> None:
    """pn532.md and wiring.md: both say dtoverlay=disable-bt on a Pi 3 or 4, nothing on a Pi 5."""
    for name in ("pn532.md", "wiring.md"):
        text = " ".join((HARDWARE / name).read_text(encoding="utf-8").split()).replace("On a Pi", "on a Pi")
        assert "on a Pi 3 or 4" in text and "`dtoverlay=disable-bt`" in text, name
        assert "Pi 5" in text and "nothing to add" in text, name
        assert "Pi 3/4/5" not in text, name


def test_update_steps_use_the_maintenance_jumper() -> None:
    readme = (HARDWARE / "firmware" / "README.md").read_text(encoding="utf-8")
    steps = readme.split("Update")[1]
    assert "maintenance jumper" in steps and "GP22" in steps and "GND" in steps
