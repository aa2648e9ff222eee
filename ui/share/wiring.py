"""``--share`` for ``boardbank run`` and ``boardbank headless``: which address, starting, and the note
``doctor`` reads.

``--share`` alone listens on the unit's LAN address, port :data:`~ui.share.address.DEFAULT_PORT`;
``--share ADDR[:PORT]`` on that one. Without
``--share`` the environment's ``BOARDBANK_SHARE`` decides (the kiosk's setting, empty: off; ``on``: as
``--share`` alone; else an address). The address it listens on is stored as ``share_listening`` while it
runs, for ``boardbank doctor``. The address is taken (bound) by :func:`check_share`, before the
installation file is opened, so a share that cannot start leaves nothing in it.
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


RESERVED = "share_reserved"
"""The attribute of the parsed arguments that holds the share :func:`check_share` bound."""


def check_share(args: argparse.Namespace) -> None:
    """Refuse a malformed ``--share`` / ``BOARDBANK_SHARE`` and a missing web stack, and take the address
    (bind its socket), before anything is opened: a port in use or an address that is not the unit's is
    one clear line (:class:`~ui.share.address.AddressError`, a ValueError, or
    :class:`~ui.share.server.ShareError`, an OSError) and the installation file is not even opened. The
    bound share waits on ``args`` for :func:`start_share` (:func:`release_share` gives it back)."""
    wanted = share_wanted(args)
    if wanted is None:
        return
    if wanted:
        parse_address(wanted, allow_port_zero=True)
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        raise AddressError("--share needs the web server: pip install 'boardbank[share]' (aiohttp, segno)") from None
    from ui.share.share import Share

    release_share(args)
    setattr(args, RESERVED, Share(choose_address(wanted)).bind())


def release_share(args: argparse.Namespace) -> None:
    """Give back the address :func:`check_share` took when the program does not go on to serve it."""
    reserved = getattr(args, RESERVED, None)
    if reserved is not None:
        setattr(args, RESERVED, None)
        reserved.release()


def _stored(settings: Any, key: str) -> str | None:
    if settings is None:
        return None
    value = settings.get(key, None, lambda v: isinstance(v, str) and bool(v))
    return value if isinstance(value, str) else None


def reach_note(share: Any) -> str:
    """What to say about where phones reach a share listening on every interface ("" otherwise)."""
    address: Address = share.address
    if not address.every_interface:
        return ""
    if share.reachable is None:
        return (f"serving on all addresses ({address}), but this unit has no local network address: no phone "
                f"can reach the page until it has one (on this unit: {share.url})")
    return f"serving on all addresses ({address}); phones use {share.url}"


def start_share(args: argparse.Namespace, built: Any, warn: Callable[[str], None]) -> Any:
    """Start the share ``args`` ask for on ``built``'s banker (None when none is asked): the one
    :func:`check_share` bound, else a new one; sets ``built.share``. Raises AddressError / ShareError
    (ValueError / OSError) with one clear line."""
    wanted = share_wanted(args)
    if wanted is None:
        return None
    from ui.share.share import Share

    share = getattr(args, RESERVED, None)
    setattr(args, RESERVED, None)
    if share is None:
        share = Share(choose_address(wanted))
    try:
        share.start(built.banker)
    except BaseException:
        share.release()
        raise
    built.share = share
    address: Address = share.address
    if note := reach_note(share):
        warn(note)
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
