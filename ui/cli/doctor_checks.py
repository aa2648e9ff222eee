"""The machine's checks of ``boardbank doctor``: readers, pcscd, serial permissions, GL, fonts, sound, display.

Each check returns :class:`Check` records: a status (OK, WARN or FAIL), what it saw (``detail``) and what
to do about it (``fix``, empty when there is nothing to do). A check never raises for what it finds; its
inputs (paths, environment, the probe of a reader or of GL) are parameters, so tests can plant them.
"""

from __future__ import annotations

import glob
import grp
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

OK, WARN, FAIL = "OK", "WARN", "FAIL"
SERIAL_GLOBS = ("/dev/ttyACM*", "/dev/ttyUSB*", "/dev/serial[0-9]", "/dev/serial/by-id/*", "/dev/ttyAMA0",
                "/dev/boardbank-bridge*")
PCSCD_SOCKET = "/run/pcscd/pcscd.comm"
PI_MODEL = "/proc/device-tree/model"
SOFTWARE_GL = ("llvmpipe", "softpipe", "swrast", "software")
SOFTWARE_READERS = ("mock", "stdin")  # backends with no device to answer
PROBE_TIMEOUT_S = 2.0


@dataclass(frozen=True)
class Check:
    """The result of one check: ``status`` is OK, WARN or FAIL; ``detail`` what it saw; ``fix`` what to do."""

    name: str
    status: str
    detail: str
    fix: str = ""
    fault: str | None = None  # the installation file's checks: full, read_only, locked, missing_folder, corrupt


    def as_dict(self) -> dict[str, str | None]:
        """The JSON form: ``status`` is ``pass``, ``warn`` or ``fail``."""
        status = {OK: "pass", WARN: "warn", FAIL: "fail"}[self.status]
        return {"name": self.name, "status": status, "detail": self.detail, "fix": self.fix, "fault": self.fault}


def pi_model(path: str = PI_MODEL) -> str | None:
    """The Raspberry Pi's model string, or None on anything else."""
    try:
        model = Path(path).read_bytes().rstrip(b"\x00").decode("utf-8", errors="replace").strip()
    except OSError:
        return None
    return model if "Raspberry Pi" in model else None


# -- readers ---------------------------------------------------------------------------------------------

ProbeOutcome = tuple[bool | None, str]
"""(answered, what it said): True a device answered, False it did not, None the driver cannot probe."""


def probe_reader(cls: Any, url: str, timeout_s: float = PROBE_TIMEOUT_S) -> ProbeOutcome:
    """Ask the driver class's ``probe(url, timeout_s)`` classmethod whether a device answers at ``url``.

    The probe may return a bool or a record with ``ok`` (or ``answered``) and ``detail`` (or ``info``); a
    driver without ``probe`` gives ``(None, ...)``, and one that raises gives ``(False, the error)``.
    """
    probe = getattr(cls, "probe", None)
    if probe is None:
        return None, "not probed (this driver has no probe yet)"
    try:
        result = probe(url, timeout_s)
    except Exception as exc:  # a device's failure is a finding, not a crash of the doctor
        return False, f"{type(exc).__name__}: {exc}"
    if isinstance(result, bool):
        return result, "a device answered" if result else f"no answer within {timeout_s:g} s"
    answered = bool(getattr(result, "ok", getattr(result, "answered", False)))
    said = getattr(result, "detail", None) or getattr(result, "info", None) or str(result)
    return answered, str(said)


def check_readers(urls: Sequence[str] | None = None,
                  probe: Callable[[Any, str], ProbeOutcome] = probe_reader) -> list[Check]:
    """Every reader back-end loads, and each device (``urls``, else all the back-ends list) answers a probe.

    A reader is OK only when its device answered. Without ``urls``, a listed device that does not answer
    is a WARN (a serial port may hold something else); a reader named with ``--reader`` is a FAIL.
    """
    from reader.base import ReaderError, available_schemes, driver_class

    out: list[Check] = []
    classes: dict[str, Any] = {}
    listed: list[str] = []
    for scheme in available_schemes():
        try:
            classes[scheme] = driver_class(scheme)
        except ReaderError as exc:
            out.append(Check(f"reader {scheme}://", WARN, f"back-end does not load: {exc}",
                             "pip install 'boardbank[pcsc]' (needs libpcsclite-dev)" if scheme == "pcsc" else ""))
            continue
        if scheme in SOFTWARE_READERS or urls is not None:
            continue
        try:
            listed += classes[scheme].list_devices()
        except Exception as exc:  # no daemon, no permission: a finding
            out.append(Check(f"reader {scheme}://", WARN, f"cannot list devices: {type(exc).__name__}: {exc}",
                             "start pcscd (systemctl enable --now pcscd.socket)" if scheme == "pcsc" else ""))
    soft = [f"{s}://" for s in SOFTWARE_READERS if s in classes]
    out.insert(0, Check("reader back-ends", OK, f"loaded: {', '.join(f'{s}://' for s in classes)}"
                        + (f" ({', '.join(soft)} need no device)" if soft else "")))
    explicit = urls is not None
    targets = list(urls) if urls is not None else listed
    for url in targets:
        scheme = url.partition(":")[0]
        if scheme in SOFTWARE_READERS:
            out.append(Check(f"reader {url}", OK, "a software reader: nothing to answer"))
            continue
        cls = classes.get(scheme)
        if cls is None:
            out.append(Check(f"reader {url}", FAIL, f"no usable back-end for {scheme}://", "see `boardbank readers`"))
            continue
        answered, said = probe(cls, url)
        if answered:
            out.append(Check(f"reader {url}", OK, said))
        elif answered is None:
            out.append(Check(f"reader {url}", WARN, f"device seen; {said}",
                             "present a card: `boardbank cards enroll banker --reader URL` shows whether it reads"))
        else:
            out.append(Check(f"reader {url}", FAIL if explicit else WARN, f"no answer: {said}",
                             "check the cable, the wiring (hardware/wiring.md) and the firmware"))
    if not targets:
        out.append(Check("readers", WARN, "no card reader device found",
                         "plug a reader in (the Pico bridge appears as /dev/ttyACM0); see hardware/wiring.md"))
    return out


# -- pcscd and serial --------------------------------------------------------------------------------------

def _process_running(name: str, proc: str = "/proc") -> bool:
    for comm in glob.glob(f"{proc}/[0-9]*/comm"):
        try:
            if Path(comm).read_text(encoding="utf-8").strip() == name:
                return True
        except OSError:
            continue
    return False


def check_pcscd(socket: str = PCSCD_SOCKET, proc: str = "/proc") -> Check:
    """The PC/SC daemon: installed, its socket present, the process running (or socket-activated)."""
    if shutil.which("pcscd") is None and not Path("/usr/sbin/pcscd").exists():
        return Check("pcscd", WARN, "not installed: needed only for pcsc:// readers (e.g. ACR122U)",
                     "apt-get install pcscd libccid")
    running, has_socket = _process_running("pcscd", proc), Path(socket).exists()
    if running and has_socket:
        return Check("pcscd", OK, f"running, socket {socket}")
    if has_socket:
        return Check("pcscd", OK, f"socket {socket} present; the daemon starts on the first client")
    if running:
        return Check("pcscd", WARN, f"running, but no socket at {socket}", "systemctl restart pcscd")
    return Check("pcscd", WARN, f"installed, not running, no socket at {socket}",
                 "systemctl enable --now pcscd.socket (or run `pcscd`)")


def _group_of(path: str) -> str:
    try:
        return grp.getgrgid(os.stat(path).st_gid).gr_name
    except (KeyError, OSError):
        return "dialout"


def check_serial_group(group: str = "dialout") -> Check:
    """Whether this user is in the group that owns serial ports (root needs none)."""
    if os.geteuid() == 0:
        return Check(f"group {group}", OK, "running as root: every serial port opens")
    try:
        gid = grp.getgrnam(group).gr_gid
    except KeyError:
        return Check(f"group {group}", WARN, f"no group {group!r} on this system", "")
    if gid in os.getgroups():
        return Check(f"group {group}", OK, f"this user is in {group}")
    return Check(f"group {group}", WARN, f"this user is not in {group}: serial readers will not open",
                 f"sudo usermod -aG {group} $USER, then log in again")


def check_serial(globs: tuple[str, ...] = SERIAL_GLOBS) -> list[Check]:
    """Serial devices the reader bridge or a PN532 may use, and whether this user may open them."""
    ports = sorted({p for pattern in globs for p in glob.glob(pattern)})
    if not ports:
        return [Check("serial ports", WARN, f"none found ({', '.join(globs)})",
                      "plug the Pico bridge in (it appears as /dev/ttyACM0); for a PN532 enable the UART")]
    out = []
    for port in ports:
        if os.access(port, os.R_OK | os.W_OK):
            out.append(Check(f"serial {port}", OK, "readable and writable"))
        else:
            group = _group_of(port)
            out.append(Check(f"serial {port}", FAIL, f"no permission (owned by group {group!r})",
                             f"sudo usermod -aG {group} $USER, then log in again"))
    return out


# -- GL ------------------------------------------------------------------------------------------------------

_GL_PROBE = """
import json, os
from kivy.config import Config
Config.set("graphics", "width", "64"); Config.set("graphics", "height", "64")
from kivy.core.window import Window
from kivy.graphics.opengl import GL_RENDERER, GL_VENDOR, GL_VERSION, glGetString
text = lambda v: v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
print("GL " + json.dumps({"renderer": text(glGetString(GL_RENDERER)), "vendor": text(glGetString(GL_VENDOR)),
                          "version": text(glGetString(GL_VERSION)), "window": type(Window).__name__}))
"""


def gl_probe(env: Mapping[str, str], timeout_s: float = 60.0) -> dict[str, str]:
    """Open a 64x64 Kivy window in a child process and read GL_RENDERER/VENDOR/VERSION; raise OSError."""
    with tempfile.TemporaryDirectory(prefix="boardbank-doctor-") as home:
        child_env = dict(env, KIVY_HOME=home, KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_NO_CONSOLELOG="1")
        try:
            done = subprocess.run([sys.executable, "-c", _GL_PROBE], env=child_env, capture_output=True,
                                  text=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired as exc:
            raise OSError(f"the GL probe window did not open within {timeout_s:g} s") from exc
    for line in done.stdout.splitlines():
        if line.startswith("GL "):
            found: dict[str, str] = json.loads(line[3:])
            return found
    last = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
    raise OSError(f"no GL context: {last[:200]}")


def check_gl(env: Mapping[str, str] | None = None, probe: Callable[[Mapping[str, str]], dict[str, str]] = gl_probe,
             model: str | None = None) -> Check:
    """The GL renderer Kivy gets; a software renderer (llvmpipe, softpipe) is a WARN, more so on a Pi."""
    env = dict(os.environ if env is None else env)
    notes = []
    if not any(env.get(k) for k in ("DISPLAY", "WAYLAND_DISPLAY")) and not env.get("SDL_VIDEODRIVER"):
        env["SDL_VIDEODRIVER"] = "offscreen"  # no screen to open a window on: probe offscreen, and say so
        notes.append("probed offscreen (no display)")
    for key in ("LIBGL_ALWAYS_SOFTWARE", "GALLIUM_DRIVER", "MESA_LOADER_DRIVER_OVERRIDE"):
        if env.get(key):
            notes.append(f"{key}={env[key]}")
    try:
        gl = probe(env)
    except (OSError, ValueError) as exc:
        return Check("gl", FAIL, str(exc), "apt-get install libgl1 libegl1 libgl1-mesa-dri; on a Pi enable "
                     "dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt")
    detail = f"{gl.get('renderer', '?')} ({gl.get('vendor', '?')}, {gl.get('version', '?')})"
    detail += f"; {', '.join(notes)}" if notes else ""
    if any(word in gl.get("renderer", "").lower() for word in SOFTWARE_GL):
        if model:
            return Check("gl", WARN, f"software renderer on a {model}: {detail}",
                         "enable the GPU: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot")
        return Check("gl", WARN, f"software renderer: {detail}", "fine for tests; a kiosk needs a GPU driver")
    return Check("gl", OK, detail)


# -- fonts, sound, display -----------------------------------------------------------------------------------

def check_fonts() -> Check:
    """A CJK font for Japanese (Latin and Cyrillic come with Kivy)."""
    from ui.touch.fonts import find_cjk_font

    path = find_cjk_font()
    if path is None:
        return Check("fonts", WARN, "no CJK font: Japanese will show boxes",
                     "apt-get install fonts-ipafont-gothic (or fonts-noto-cjk)")
    return Check("fonts", OK, f"CJK font {path}")


def check_sound(asound: str = "/proc/asound/cards", env: Mapping[str, str] | None = None) -> Check:
    """The cue WAV files (generated if missing) and an output: an ALSA card or a sound server's socket."""
    from ui.touch.sounds import CUES, SOUND_DIR, sound_servers, synthesize

    env = os.environ if env is None else env
    missing = [c for c in CUES if not (SOUND_DIR / f"{c}.wav").exists()]
    if missing:
        try:
            synthesize()
        except OSError as exc:
            return Check("sound", FAIL, f"cue files {missing} missing and cannot be written: {exc}",
                         f"make {SOUND_DIR} writable, or reinstall")
    driver = env.get("SDL_AUDIODRIVER", "")
    if driver in ("dummy", "disk"):
        return Check("sound", WARN, f"SDL_AUDIODRIVER={driver}: no sound is played", "unset SDL_AUDIODRIVER")
    cards = Path(asound).read_text(encoding="utf-8", errors="replace").strip() if Path(asound).exists() else ""
    if cards and "no soundcards" not in cards:
        return Check("sound", OK, f"ALSA: {cards.splitlines()[0].strip()}")
    servers = sound_servers(env)
    if servers:
        return Check("sound", OK, f"sound server {servers[0]}")
    return Check("sound", WARN, "no sound card and no sound server: the UI runs silently",
                 "plug in a speaker (HDMI or USB audio); check `aplay -l`")


def check_display(env: Mapping[str, str] | None = None, dri: str = "/dev/dri/card*") -> Check:
    """A display for Kivy: X11/Wayland, or a KMS/DRM device (SDL's kmsdrm) for the kiosk."""
    env = os.environ if env is None else env
    for key in ("WAYLAND_DISPLAY", "DISPLAY"):
        if env.get(key):
            return Check("display", OK, f"{key}={env[key]}")
    if env.get("SDL_VIDEODRIVER") == "offscreen":
        return Check("display", WARN, "SDL_VIDEODRIVER=offscreen: rendering without a screen (tests)",
                     "unset SDL_VIDEODRIVER on the kiosk")
    devices = sorted(glob.glob(dri))
    if devices:
        return Check("display", OK, f"no X/Wayland; KMS/DRM devices {', '.join(devices)} (cage or SDL kmsdrm)")
    return Check("display", FAIL, "no display: no DISPLAY or WAYLAND_DISPLAY, and no /dev/dri/card* device",
                 "connect a screen; on a Pi enable dtoverlay=vc4-kms-v3d; for tests set SDL_VIDEODRIVER=offscreen")
