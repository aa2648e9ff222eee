"""The card reader unplugged and plugged in again during a game (our bridge simulated on a pseudo-terminal):
the reader chip shows it, the game goes on, and no tap is lost or counted twice (docs/architecture.md,
section 1; hardware/protocol.md)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from ui_driver import pump, wait_for

from engine.banker.machine import Banker
from engine.banker.tapscript import ManualClock
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal
from firmware_sim.bridge import BridgeDevice
from reader.base import open_reader
from reader.registry import CardRegistry
from ui.touch.app import Session

P1, P2, DEED16 = "04A10000000001", "04A10000000002", "0A0B0C16"


@pytest.fixture
def bridge_session(ui_app: Any, tmp_path: Path) -> Iterator[tuple[Any, BridgeDevice, Journal]]:
    device = BridgeDevice(str(tmp_path / "ttyBRIDGE"), seed=3)
    device.start()
    journal = Journal.open(tmp_path / "bank.sqlite3")
    registry = CardRegistry.in_memory()
    for uid, kind, value in ((P1, "player", 1), (P2, "player", 2), (DEED16, "deed", 16)):
        registry.enroll(uid, kind, value)
    clock = ManualClock()
    banker = Banker(JournalStore(journal), registry.lookup, clock, seed_source=lambda: 5)
    reader = open_reader(f"serial://{device.path}")

    def close() -> None:
        registry.close()
        journal.close()

    session = Session(banker=banker, readers=[reader], registry=registry, mock_urls=[], advance=clock.advance,
                      closer=close)
    ui_app.set_language("en")
    ui_app.attach(session)
    pump(2)
    try:
        yield ui_app, device, journal
    finally:
        ui_app.attach(None)
        device.stop()


def test_unplugging_the_reader_mid_game_loses_and_doubles_nothing(bridge_session: tuple[Any, BridgeDevice, Journal]) -> None:
    app, device, journal = bridge_session
    chip = app.root.ids.reader_chip
    wait_for(lambda: chip.ok, timeout=10)
    assert chip.text == app.t("reader.connected")
    for seated, uid in enumerate((P1, P2), start=1):
        device.tap(uid)
        wait_for(lambda n=seated: len(app.controller.view.players) == n, timeout=10)
        device.remove()
        pump(5)
    app.press("ok")
    wait_for(lambda: app.controller.view.state == "idle", timeout=10)
    device.unplug()
    wait_for(lambda: not chip.ok, timeout=10)
    assert chip.text == app.t("reader.lost")
    device.replug()
    wait_for(lambda: chip.ok, timeout=15)
    device.tap(DEED16)
    wait_for(lambda: app.controller.view.state == "deed", timeout=10)
    device.remove()
    pump(5)
    device.tap(P1)
    wait_for(lambda: app.controller.view.state == "buy", timeout=10)
    device.remove()
    pump(5)
    app.press("ok")
    wait_for(lambda: app.controller.view.state == "idle", timeout=10)
    balances = {p.id: p.balance for p in app.controller.view.players}
    assert balances == {"p1": 1240, "p2": 1500}
    gid = journal.latest_game()
    assert gid is not None
    bought = [e for e in journal.load(gid)[1] if type(e).__name__ == "DeedBought"]
    assert len(bought) == 1  # one tap, one purchase: nothing doubled by the reconnection
