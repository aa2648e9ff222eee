"""``boardbank doctor``'s share check: where the live page for phones listens, and whether it answers.

A running share notes its ``ADDR:PORT`` in the installation's settings (``share_listening``); the check
reads it without writing anything, and asks that address for ``/`` (which must answer 404 with the share's
security headers: the page itself needs the game's token, which only the unit's screen shows).
"""

from __future__ import annotations

import http.client
import json
import os
import sqlite3
from pathlib import Path

from ui.cli.doctor_checks import OK, WARN, Check
from ui.share.wiring import OFF


def noted_address(db: Path) -> str | None:
    """The ``ADDR:PORT`` a running share noted in ``db``'s settings (read-only), or None."""
    if not db.is_file():
        return None
    try:
        with sqlite3.connect(f"{db.resolve().as_uri()}?mode=ro", uri=True, timeout=2) as connection:
            row = connection.execute("SELECT value FROM settings WHERE key = 'share_listening'").fetchone()
    except sqlite3.Error:
        return None
    if row is None:
        return None
    try:
        value = json.loads(row[0])
    except ValueError:
        return None
    return value if isinstance(value, str) and value else None


def probe(address: str, timeout_s: float = 2.0) -> str | None:
    """None when the share at ``address`` (``ADDR:PORT``) answers as the share does, else what went wrong."""
    host, _, port = address.rpartition(":")
    try:
        connection = http.client.HTTPConnection(host.strip("[]"), int(port), timeout=timeout_s)
        connection.request("GET", "/")
        response = connection.getresponse()
        response.read()
        connection.close()
    except (OSError, ValueError, http.client.HTTPException) as exc:
        return f"nothing answers ({exc})"
    if response.status != 404 or "default-src 'none'" not in (response.getheader("Content-Security-Policy") or ""):
        return f"something else answers there (HTTP {response.status})"
    return None


def check_share(db: Path) -> Check:
    """OK when the share is off or answers; WARN when it was noted or asked for and does not answer."""
    noted = noted_address(db)
    asked = os.environ.get("BOARDBANK_SHARE", "").strip()
    if noted is None:
        if asked.lower() in OFF:
            return Check("share", OK, "off (the live page for phones: boardbank run --share)")
        return Check("share", WARN, f"BOARDBANK_SHARE={asked} but no share is running",
                     "start the app (boardbank run); it prints the page's address")
    failure = probe(noted)
    if failure is None:
        return Check("share", OK, f"http://{noted}/ answers (the page's own URL is the QR code on the unit)")
    return Check("share", WARN, f"http://{noted}/: {failure}",
                 "the app may have stopped without closing; start boardbank run --share again")
