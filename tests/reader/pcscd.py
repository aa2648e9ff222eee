"""Make sure pcscd runs with vsmartcard's virtual readers, for the PC/SC tests.

Only one pcscd runs per machine, so all tests share it. :func:`ensure_pcscd` starts
``pcscd --foreground`` in the background when none answers (removing the socket a dead daemon left in
``/run/pcscd``), waits until the ``Virtual PCD`` readers are listed, and returns a :class:`Pcscd` whose
``stop()`` ends the daemon only if this process started it. CI is a fresh machine where no daemon runs
before the tests (it runs as root with ``scripts/install-system-deps.sh``'s packages); locally the tests
may skip, with :attr:`Pcscd.problem` as the reason, only if pcscd cannot be started at all.

Use it through the session fixture of the test modules::

    @pytest.fixture(scope="session")
    def pcscd() -> Iterator[Pcscd]:
        yield from pcscd_session()
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest

RUN_DIR = "/run/pcscd"
VIRTUAL_PREFIX = "Virtual PCD"
START_TIMEOUT_S = 10.0


def list_readers() -> list[str]:
    """PC/SC reader names as pyscard sees them now; [] if pcscd does not answer."""
    from smartcard.System import readers

    try:
        return [str(r) for r in readers()]
    except Exception:  # no service, no context: nothing is listed
        return []


def virtual_readers() -> list[str]:
    """The names of vpcd's readers (``Virtual PCD 00 00``, ``Virtual PCD 00 01``) currently listed."""
    return sorted(r for r in list_readers() if r.startswith(VIRTUAL_PREFIX))


def _pcscd_running() -> bool:
    """True if some pcscd process exists (ours or not)."""
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as f:
                stat = f.read()
        except OSError:  # the process ended meanwhile
            continue
        # "PID (comm) STATE ...": a zombie (Z) is not running
        name, _, rest = stat.partition(") ")
        if name.endswith("(pcscd") and not rest.startswith("Z"):
            return True
    return False


@dataclass
class Pcscd:
    """The shared pcscd: ``readers`` found, ``problem`` (why PC/SC is unusable) or ''."""

    readers: list[str] = field(default_factory=list)
    problem: str = ""
    process: subprocess.Popen[bytes] | None = None

    @property
    def started_here(self) -> bool:
        """True if this process started the daemon (and stop() will end it)."""
        return self.process is not None

    def stop(self) -> None:
        """End the daemon if this process started it; leave anyone else's alone."""
        proc, self.process = self.process, None
        if proc is None or proc.poll() is not None:
            return
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _wait_for_virtual_readers(timeout: float) -> list[str]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = virtual_readers()
        if len(found) >= 2:
            return found
        time.sleep(0.05)
    return virtual_readers()


def ensure_pcscd(timeout: float = START_TIMEOUT_S) -> Pcscd:
    """Return the running pcscd with its virtual readers, starting one if needed."""
    try:
        import smartcard  # noqa: F401  (pyscard is needed to see anything)
    except ImportError as exc:
        return Pcscd(problem=f"pyscard is not installed: {exc}")
    found = virtual_readers()
    if found:
        return Pcscd(readers=found)
    if _pcscd_running():
        found = _wait_for_virtual_readers(timeout)
        if found:
            return Pcscd(readers=found)
        return Pcscd(problem=f"a pcscd runs but lists no '{VIRTUAL_PREFIX}' reader: is vsmartcard-vpcd installed?")
    binary = shutil.which("pcscd") or ("/usr/sbin/pcscd" if os.path.exists("/usr/sbin/pcscd") else None)
    if binary is None:
        return Pcscd(problem="pcscd is not installed (scripts/install-system-deps.sh installs it)")
    if not os.path.exists("/usr/lib/pcsc/drivers/serial/libifdvpcd.so"):
        return Pcscd(problem="vsmartcard-vpcd is not installed (scripts/install-system-deps.sh installs it)")
    # a daemon killed earlier leaves its socket and pid file behind; a new one refuses to start then
    for stale in ("pcscd.comm", "pcscd.pid"):
        with contextlib.suppress(FileNotFoundError, PermissionError):
            os.unlink(os.path.join(RUN_DIR, stale))
    try:
        proc = subprocess.Popen(
            [binary, "--foreground"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError as exc:
        return Pcscd(problem=f"cannot start {binary}: {exc}")
    found = _wait_for_virtual_readers(timeout)
    if proc.poll() is not None:
        return Pcscd(problem=f"{binary} --foreground exited with status {proc.returncode} (not root?)")
    if not found:
        result = Pcscd(process=proc, problem=f"pcscd started but listed no '{VIRTUAL_PREFIX}' reader in {timeout} s")
        result.stop()
        return result
    return Pcscd(readers=found, process=proc)


def pcscd_session() -> Iterator[Pcscd]:
    """Body of a session fixture: ensure pcscd, skip with the reason if impossible, stop it at the end."""
    daemon = ensure_pcscd()
    if daemon.problem:
        if os.environ.get("CI"):
            pytest.fail(f"PC/SC tests must run in CI: {daemon.problem}")
        pytest.skip(f"PC/SC unavailable here: {daemon.problem}")
    try:
        yield daemon
    finally:
        daemon.stop()
