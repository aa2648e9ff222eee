"""Make sure pcscd runs with vsmartcard's virtual readers, for the PC/SC tests.

Only one pcscd runs per machine, so all tests share it. :func:`ensure_pcscd` starts
``pcscd --foreground`` in the background when none answers (removing the socket a dead daemon left in
``/run/pcscd``), waits until the ``Virtual PCD`` readers are listed, and returns a :class:`Pcscd` whose
``stop()`` ends the daemon only if this process started it. CI is a fresh machine where no daemon runs
before the tests (it runs as root with ``scripts/install-system-deps.sh``'s packages); locally the tests
may skip, with :attr:`Pcscd.problem` as the reason, only if pcscd cannot be started at all.

Tests call :func:`require_pcscd` (the PC/SC harness does it in its factory): the daemon is ensured on
first use and, when these helpers started it, ended at exit by the last test process using it (lock
files in the temporary directory coordinate test processes running at once on one machine). Tests
also take one vpcd port at a time with :func:`vcard.claim_port`.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field

import pytest

RUN_DIR = "/run/pcscd"
VIRTUAL_PREFIX = "Virtual PCD"
START_TIMEOUT_S = 10.0
VPCD_DRIVER = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"


def _pcscd_binary() -> str | None:
    """The pcscd executable (``/usr/sbin`` may be missing from PATH), or None."""
    return shutil.which("pcscd") or ("/usr/sbin/pcscd" if os.path.exists("/usr/sbin/pcscd") else None)


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
        _stop_card_monitor_thread()
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


def _stop_card_monitor_thread() -> None:
    """End pyscard's card-monitor thread before its daemon goes (it prints a traceback otherwise).

    The thread blocks in SCardGetStatusChange; SCardCancel makes that return 'cancelled', which the
    thread takes quietly before it sees its stop event.
    """
    if "smartcard.CardMonitoring" not in sys.modules:
        return
    from smartcard import scard
    from smartcard.CardMonitoring import CardMonitoringThread

    thread = CardMonitoringThread.instance
    if thread is None or not thread.is_alive():
        return
    thread.stopEvent.set()
    deadline = time.monotonic() + 2.0
    while thread.is_alive() and time.monotonic() < deadline:
        request = getattr(thread, "cardrequest", None)
        context = getattr(getattr(request, "pcsccardrequest", None), "hcontext", None)
        if context is not None:
            scard.SCardCancel(context)
        thread.join(timeout=0.1)


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
    binary = _pcscd_binary()
    if binary is None:
        return Pcscd(problem="pcscd is not installed (scripts/install-system-deps.sh installs it)")
    if not os.path.exists(VPCD_DRIVER):
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


_shared: Pcscd | None = None
_shared_lock = threading.Lock()
_users_fd: int | None = None


def _lock_file(name: str) -> int:
    """An open descriptor of the lock file ``boardbank-NAME.lock`` in the temporary directory."""
    return os.open(os.path.join(tempfile.gettempdir(), f"boardbank-{name}.lock"), os.O_RDWR | os.O_CREAT, 0o666)


PID_FILE = os.path.join(tempfile.gettempdir(), "boardbank-pcscd.pid")
"""Holds the pid of a pcscd started by these helpers, so the last test process using it ends it."""


def shared_pcscd() -> Pcscd:
    """The machine's pcscd for this process, ensured once.

    Several test processes may run at once on a developer machine: starting is serialised with a lock
    file, every process holds a shared lock while it uses the daemon, and at exit the last one ends a
    daemon these helpers started (:func:`_release`); a daemon that ran before is never touched.
    """
    global _shared, _users_fd
    with _shared_lock:
        if _shared is None:
            start_fd = _lock_file("pcscd-start")
            try:
                fcntl.flock(start_fd, fcntl.LOCK_EX)
                _shared = ensure_pcscd()
                if _shared.process is not None:
                    with open(PID_FILE, "w", encoding="ascii") as f:
                        f.write(str(_shared.process.pid))
                _users_fd = _lock_file("pcscd-users")
                fcntl.flock(_users_fd, fcntl.LOCK_SH)
            finally:
                os.close(start_fd)
            atexit.register(_release)
        return _shared


def _release() -> None:
    """At exit: if no other test process uses the daemon, end it when these helpers started it."""
    global _users_fd
    fd, _users_fd = _users_fd, None
    if fd is None:
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return  # another test process still uses it; the last one ends it
        if _shared is not None and _shared.process is not None:
            _shared.stop()
        else:
            _end_recorded_daemon()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(PID_FILE)
    finally:
        os.close(fd)


def _end_recorded_daemon() -> None:
    """End the pcscd recorded in :data:`PID_FILE` by a test process that has exited meanwhile."""
    try:
        with open(PID_FILE, encoding="ascii") as f:
            pid = int(f.read().strip())
        with open(f"/proc/{pid}/comm", encoding="ascii") as f:
            if f.read().strip() != "pcscd":
                return
    except (OSError, ValueError):
        return
    _stop_card_monitor_thread()
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGTERM)


def require_pcscd() -> Pcscd:
    """:func:`shared_pcscd` for a test: skip with the reason if PC/SC is impossible here (fail in CI)."""
    daemon = shared_pcscd()
    if daemon.problem:
        # CI (root, scripts/install-system-deps.sh's packages) must run these tests: a machine that
        # could start pcscd but did not is a failure, not a reason to skip
        capable = os.geteuid() == 0 and os.path.exists(VPCD_DRIVER) and _pcscd_binary() is not None
        if os.environ.get("CI") or capable:
            pytest.fail(f"PC/SC tests must run on this machine (root, pcscd and vpcd installed): {daemon.problem}")
        pytest.skip(f"PC/SC unavailable here: {daemon.problem}")
    return daemon


# ---------------------------------------------------------------------------------------------- a private daemon


PRIVATE_PORT = 0x8CA0
"""TCP port (36000) of the private daemon's first vpcd slot; the second slot listens on the next port."""
PRIVATE_NAME = "Boardbank Private PCD"


class PrivatePcscd:
    """A second pcscd that the tests may kill and restart, to see readers vanish and come back.

    pcscd always binds ``/run/pcscd/pcscd.comm``; this one runs in its own mount namespace
    (``unshare -m``, root only) with a private directory bound over ``/run/pcscd``, and loads only a
    vpcd reader named :data:`PRIVATE_NAME` on port :data:`PRIVATE_PORT`. A client reaches it with
    ``PCSCLITE_CSOCK_NAME`` set to :attr:`socket` (see :attr:`env`), in its own process, since
    libpcsclite reads that variable once.
    """

    def __init__(self, workdir: str) -> None:
        self.workdir = workdir
        self.conf_dir = os.path.join(workdir, "reader.conf.d")
        self.run_dir = os.path.join(workdir, "run")
        self.socket = os.path.join(self.run_dir, "pcscd.comm")
        self.process: subprocess.Popen[bytes] | None = None
        os.makedirs(self.conf_dir, exist_ok=True)
        os.makedirs(self.run_dir, exist_ok=True)
        with open(os.path.join(self.conf_dir, "vpcd"), "w", encoding="ascii") as f:
            f.write(
                f'FRIENDLYNAME "{PRIVATE_NAME}"\n'
                f"DEVICENAME   /dev/null:{PRIVATE_PORT:#06x}\n"
                "LIBPATH      /usr/lib/pcsc/drivers/serial/libifdvpcd.so\n"
                f"CHANNELID    {PRIVATE_PORT:#06x}\n"
            )

    @property
    def env(self) -> dict[str, str]:
        """The environment of a client process that talks to this daemon."""
        return {**os.environ, "PCSCLITE_CSOCK_NAME": self.socket}

    @staticmethod
    def unavailable() -> str:
        """Why a private daemon cannot run here ('' if it can)."""
        if os.geteuid() != 0:
            return "a private pcscd needs root (a mount namespace)"
        for tool in ("unshare", "mount", "pcscd"):
            if shutil.which(tool) is None and not os.path.exists(f"/usr/sbin/{tool}"):
                return f"{tool} is not installed"
        probe = subprocess.run(["unshare", "-m", "true"], capture_output=True, timeout=10, check=False)
        if probe.returncode != 0:
            return f"unshare -m is not permitted here: {probe.stderr.decode(errors='replace').strip()}"
        return ""

    def start(self, timeout: float = START_TIMEOUT_S) -> None:
        """Start the daemon; return once its socket exists."""
        for stale in ("pcscd.comm", "pcscd.pid"):
            with contextlib.suppress(FileNotFoundError):
                os.unlink(os.path.join(self.run_dir, stale))
        script = f'mount --bind "{self.run_dir}" /run/pcscd && exec pcscd --foreground -c "{self.conf_dir}"'
        self.process = subprocess.Popen(
            ["unshare", "-m", "sh", "-c", script],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while not os.path.exists(self.socket):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the private pcscd did not start (status {self.process.poll()})")
            time.sleep(0.02)

    def stop(self) -> None:
        """Kill the daemon (its readers vanish for every client); idempotent."""
        proc, self.process = self.process, None
        if proc is not None and proc.poll() is None:
            proc.terminate()
            try:
                proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(timeout=5)
