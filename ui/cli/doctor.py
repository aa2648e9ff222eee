"""``boardbank doctor``: checks a kiosk and says what to fix.

Checks: reader back-ends and the devices they see, the PC/SC daemon, serial-port permissions, fonts
(the CJK font for Japanese), sound (the cue files and an audio device), the display, and the journal's
location. Each check gives OK, WARN or FAIL with a one-line detail; the exit status is 1 if any check
FAILs. This is an administrator's command-line tool: its output is English, like the other subcommands.
"""

from __future__ import annotations

import argparse
import glob
import grp
import os
import shutil
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

OK, WARN, FAIL = "OK", "WARN", "FAIL"
SERIAL_GLOBS = ("/dev/ttyACM*", "/dev/ttyUSB*", "/dev/serial0", "/dev/ttyAMA0")
PCSCD_SOCKET = "/run/pcscd/pcscd.comm"


@dataclass(frozen=True)
class Check:
    """The result of one check: ``status`` is OK, WARN or FAIL."""

    name: str
    status: str
    detail: str


def check_readers() -> list[Check]:
    """Every reader back-end: importable, and the devices it lists."""
    from reader.base import ReaderError, available_schemes, driver_class

    out = []
    for scheme in available_schemes():
        try:
            devices = driver_class(scheme).list_devices()
        except ReaderError as exc:
            out.append(Check(f"reader {scheme}://", WARN, str(exc)))
            continue
        except OSError as exc:
            out.append(Check(f"reader {scheme}://", WARN, f"cannot list devices: {exc}"))
            continue
        detail = ", ".join(devices) if devices else "no device found"
        out.append(Check(f"reader {scheme}://", OK if devices else WARN, detail))
    return out


def check_pcscd(socket: str = PCSCD_SOCKET) -> Check:
    """The PC/SC daemon: installed and running (its socket exists)."""
    if shutil.which("pcscd") is None and not Path("/usr/sbin/pcscd").exists():
        return Check("pcscd", WARN, "not installed (apt-get install pcscd): needed only for pcsc:// readers")
    if Path(socket).exists():
        return Check("pcscd", OK, f"running ({socket})")
    return Check("pcscd", WARN, f"installed but not running: start it with `pcscd` (no {socket})")


def check_serial(globs: tuple[str, ...] = SERIAL_GLOBS) -> list[Check]:
    """Serial devices the reader bridge may use, and whether this user may open them."""
    ports = sorted({p for pattern in globs for p in glob.glob(pattern)})
    if not ports:
        return [Check("serial ports", WARN, "none found (the Pico bridge appears as /dev/ttyACM0)")]
    out = []
    for port in ports:
        if os.access(port, os.R_OK | os.W_OK):
            out.append(Check(f"serial {port}", OK, "readable and writable"))
        else:
            group = _group_of(port)
            out.append(Check(f"serial {port}", FAIL,
                             f"no permission: add the user to group {group!r} (sudo usermod -aG {group} $USER)"))
    return out


def _group_of(path: str) -> str:
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (KeyError, OSError):
        return "dialout"


def check_fonts() -> Check:
    """A CJK font for Japanese (Latin and Cyrillic come with Kivy)."""
    from ui.touch.fonts import find_cjk_font

    path = find_cjk_font()
    if path is None:
        return Check("fonts", WARN, "no CJK font: Japanese will not display (apt-get install fonts-ipafont-gothic)")
    return Check("fonts", OK, f"CJK font {path}")


def check_sound(asound: str = "/proc/asound/cards") -> Check:
    """The cue WAV files (generated if missing) and an ALSA sound card."""
    from ui.touch.sounds import CUES, SOUND_DIR, synthesize

    missing = [c for c in CUES if not (SOUND_DIR / f"{c}.wav").exists()]
    if missing:
        try:
            synthesize()
        except OSError as exc:
            return Check("sound", FAIL, f"cue files {missing} missing and cannot be written: {exc}")
    cards = Path(asound).read_text(encoding="utf-8", errors="replace").strip() if Path(asound).exists() else ""
    if not cards or "no soundcards" in cards:
        return Check("sound", WARN, "no sound card: the UI will run silently")
    return Check("sound", OK, cards.splitlines()[0].strip())


def check_display() -> Check:
    """A display for Kivy: X11/Wayland, or a KMS/framebuffer device for the kiosk."""
    if os.environ.get("WAYLAND_DISPLAY") or os.environ.get("DISPLAY"):
        return Check("display", OK, f"DISPLAY={os.environ.get('DISPLAY') or os.environ.get('WAYLAND_DISPLAY')}")
    if os.environ.get("SDL_VIDEODRIVER") == "offscreen":
        return Check("display", WARN, "SDL_VIDEODRIVER=offscreen: rendering without a screen (tests)")
    devices = glob.glob("/dev/dri/card*") + glob.glob("/dev/fb*")
    if devices:
        return Check("display", OK, f"no X server; KMS/framebuffer devices: {', '.join(sorted(devices))}")
    return Check("display", FAIL, "no display: no DISPLAY/WAYLAND_DISPLAY and no /dev/dri or /dev/fb device")


def check_journal(db: str | None) -> Check:
    """Where the installation's SQLite file lives and whether it can be written."""
    from ui.paths import resolve_db

    path = resolve_db(db)
    folder = path.parent
    probe = folder
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if path.exists():
        ok = os.access(path, os.R_OK | os.W_OK) and os.access(folder, os.W_OK)
        size = path.stat().st_size
        return Check("journal", OK if ok else FAIL,
                     f"{path} ({size} bytes)" + ("" if ok else ": not writable (the WAL needs the folder too)"))
    if os.access(probe, os.W_OK):
        return Check("journal", OK, f"{path} (will be created)")
    return Check("journal", FAIL, f"{path}: cannot be created, {probe} is not writable")


def run_checks(args: argparse.Namespace) -> list[Check]:
    """All checks, in the order they are printed."""
    checks: list[Check] = []
    steps: list[Callable[[], Check | list[Check]]] = [
        check_readers, check_pcscd, check_serial, check_fonts, check_sound, check_display,
        lambda: check_journal(getattr(args, "db", None)),
    ]
    for step in steps:
        result = step()
        checks.extend(result if isinstance(result, list) else [result])
    return checks


def main(args: argparse.Namespace) -> int:
    """Print every check; exit status 1 if one FAILed."""
    checks = run_checks(args)
    width = max(len(c.name) for c in checks)
    for c in checks:
        print(f"{c.status:<4}  {c.name:<{width}}  {c.detail}")
    failed = [c for c in checks if c.status == FAIL]
    print(f"{len(checks)} checks: {len(failed)} failed, "
          f"{sum(c.status == WARN for c in checks)} warnings", file=sys.stderr if failed else sys.stdout)
    return 1 if failed else 0
