"""``--share`` for ``boardbank run`` and ``boardbank headless``: which address, starting, and the note
``doctor`` reads.

``--share`` alone listens on the unit's LAN address, port :data:`~ui.share.address.DEFAULT_PORT`;
``--share ADDR[:PORT]`` on that one. Without
``--share`` the environment's ``BOARDBANK_SHARE`` decides (the kiosk's setting, empty: off; ``on``: as
``--share`` alone; else an address). The address it listens on is stored as ``share_listening`` while it
runs, for ``boardbank doctor``.
"""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable
from typing import Any

from ui.share.address import Address, AddressError, choose_address, parse_address

log = logging.getLogger(__name__)

OFF = ("", "0", "off", "no", "false")
ON = ("1", "on", "yes", "true", "auto")


def share_wanted(args: argparse.Namespace) -> str | None:
    """None: no share; "": the LAN address; else the address text asked for."""
    value = getattr(args, "share", None)
    if value is not None:
        return str(value)
    env = os.environ.get("BOARDBANK_SHARE", "").strip()
    if env.lower() in OFF:
        return None
    return "" if env.lower() in ON else env


def check_share(args: argparse.Namespace) -> None:
    """Refuse a malformed ``--share`` / ``BOARDBANK_SHARE`` and a missing web stack before anything is
    opened (:class:`~ui.share.address.AddressError`, a ValueError)."""
    wanted = share_wanted(args)
    if wanted is None:
        return
    if wanted:
        parse_address(wanted, allow_port_zero=True)
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise AddressError("--share needs the web server: pip install 'boardbank[share]' (aiohttp, segno)") from None


def _stored(settings: Any, key: str) -> str | None:
    if settings is None:
        return None
    value = settings.get(key, None, lambda v: isinstance(v, str) and bool(v))
    return value if isinstance(value, str) else None


def start_share(args: argparse.Namespace, built: Any, warn: Callable[[str], None]) -> Any:
    """Start the share ``args`` ask for on ``built``'s banker (None when none is asked); sets
    ``built.share``. Raises AddressError / ShareError (ValueError / OSError) with one clear line."""
    wanted = share_wanted(args)
    if wanted is None:
        return None
    from ui.share.share import Share

    address: Address = choose_address(wanted)
    if address.every_interface:
        warn(f"the share listens on EVERY network interface of this unit ({address}), not only the home network's")
    share = Share(address).start(built.banker)
    built.share = share
    if built.settings is not None:
        try:
            built.settings.save({"share_listening": f"{address.url_host()}:{share.server.port}"})
        except OSError as exc:  # the settings table is SQLite: a failed note never stops the share
            log.warning("the share's address was not noted for doctor: %s", exc)
    return share


def stop_share(built: Any) -> None:
    """Stop ``built.share`` and forget the note for doctor; idempotent."""
    share = getattr(built, "share", None)
    if share is None:
        return
    built.share = None
    share.stop()
    if built.settings is not None:
        try:
            built.settings.forget("share_listening")
        except Exception as exc:
            log.warning("the share's note was not removed: %s", exc)


def listening(settings: Any) -> str | None:
    """The ``ADDR:PORT`` a running share noted, or None."""
    return _stored(settings, "share_listening")
