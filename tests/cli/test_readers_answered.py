"""``boardbank readers`` lists as readers only the devices that answered (a serial port with nothing on
it is named, with the reason, but not called a reader)."""

from __future__ import annotations

import argparse
import io
import os

import pytest

from reader.pn532 import PN532Reader
from ui.cli.readers import readers_main


def test_a_silent_serial_port_is_not_a_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    master, slave = os.openpty()  # a port with nothing behind it
    try:
        url = f"pn532://{os.ttyname(slave)}"
        monkeypatch.setattr(PN532Reader, "list_devices", classmethod(lambda cls: [url]))
        out = io.StringIO()
        assert readers_main(argparse.Namespace(command="readers"), out=out) == 0
        text = out.getvalue()
        assert "pn532://  loaded; no reader answered" in text
        assert f"(not a reader: {url}: no PN532 answers" in text
    finally:
        os.close(master)
        os.close(slave)
