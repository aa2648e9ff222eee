"""systemd's notification protocol (``sd_notify``) in a few lines: ``READY=1`` and the watchdog's ``WATCHDOG=1``.

The kiosk's unit (``hardware/kiosk/boardbank-kiosk.service``) is ``Type=notify`` with ``WatchdogSec=30``:
systemd puts ``NOTIFY_SOCKET`` (a socket path, or ``@name`` for an abstract socket) and ``WATCHDOG_USEC``
(the watchdog period in microseconds) into the environment; the app sends one datagram per
notification. The app runs as a child of the ``cage`` compositor, so the unit says ``NotifyAccess=all``
and ``WATCHDOG_PID`` (cage's pid) is not required to be ours.

:func:`kivy_heartbeat` runs on Kivy's main thread once the app has started (``ui/touch/app.py``): it says
``READY=1`` and then ``WATCHDOG=1`` every half period from Kivy's clock, so a main loop that hangs stops
the pings and systemd restarts the unit. Outside systemd (no ``NOTIFY_SOCKET``) nothing happens.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Mapping

Schedule = Callable[[Callable[[float], object], float], object]
"""``schedule_interval(callback(dt), seconds)``, e.g. Kivy's ``Clock.schedule_interval``."""


def notify(state: str, env: Mapping[str, str] | None = None) -> bool:
    """Send ``state`` (e.g. ``"READY=1"``, ``"WATCHDOG=1"``, ``"STATUS=..."``) to systemd.

    Returns True when the datagram was sent, False when not run by systemd or the socket is unreachable
    (never raises: a missing supervisor must not stop the banker).
    """
    address = (os.environ if env is None else env).get("NOTIFY_SOCKET", "")
    if address.startswith("@"):
        address = "\0" + address[1:]  # an abstract socket
    elif not address.startswith("/"):
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(address)
            sock.sendall(state.encode("utf-8"))
    except OSError:
        return False
    return True


def watchdog_interval_s(env: Mapping[str, str] | None = None) -> float | None:
    """Seconds between two ``WATCHDOG=1``: half of ``WATCHDOG_USEC``; None when there is no watchdog."""
    text = (os.environ if env is None else env).get("WATCHDOG_USEC", "")
    try:
        usec = int(text)
    except ValueError:
        return None
    return usec / 2e6 if usec > 0 else None


def start_heartbeat(schedule_interval: Schedule, env: Mapping[str, str] | None = None) -> bool:
    """Say ``READY=1`` now and schedule ``WATCHDOG=1`` every half watchdog period; False outside systemd."""
    if not notify("READY=1", env):
        return False
    interval = watchdog_interval_s(env)
    if interval is not None:
        schedule_interval(lambda _dt: notify("WATCHDOG=1", env), interval)
    return True


def kivy_heartbeat() -> None:
    """:func:`start_heartbeat` on Kivy's clock (call it on the main thread once the app has started)."""
    from kivy.clock import Clock

    start_heartbeat(Clock.schedule_interval)
