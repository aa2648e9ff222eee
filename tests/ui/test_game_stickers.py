"""The whole game of tests/ui/game.tap on the screen, on stickers this installation never enrolled: each
card's sticker carries the NDEF record naming it (written by `cards enroll --write` elsewhere,
hardware/cards.md), the card is put on the reader (the mock reader's sticker memory), the controller
resolves it by its record (ui/cardrecord.card_resolver, wired by root.py) and enrols it; then the game goes
as with enrolled cards. A sticker whose record claims a card the registry gives to another is refused on
screen, both named, and the game goes on."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_game import play_step
from ui_driver import pump, wait_for

from engine.banker.tapscript import Alias, Card, Choose, Expect, Press, Tap, check_expectation, parse_file
from reader import mock
from ui.cardrecord import encode, record_for

pytestmark = pytest.mark.ui
GAME = Path(__file__).with_name("game.tap")
MOCK_URL = "mock://ui-test"


@pytest.fixture(autouse=True)
def stickers() -> Iterator[None]:
    mock.forget_records()
    yield
    mock.forget_records()


def put_on_reader(app: Any, uid: str, record: bytes | None = None) -> None:
    """The card put on the reader and lifted (not the tray: the tray lists enrolled cards only)."""
    if record is not None:
        mock.store_record(uid, record)
    before = app.controller.handled
    assert mock.present(MOCK_URL, uid) == 1
    mock.remove(MOCK_URL)
    wait_for(lambda: app.controller.handled > before, timeout=5)
    pump(1)


def test_whole_game_on_stickers_never_enrolled_here(fresh_session: Any) -> None:
    app = fresh_session
    script = parse_file(GAME)
    banker = app.session.banker
    edition = banker.view.edition
    registry = app.session.registry
    for card in registry.cards():  # the tray's mock deck enrolled at attach: this installation knows nothing
        registry.forget(card.uid)
    assert len(registry) == 0
    last_error: str | None = None
    learnt = 0
    for step in script.steps:
        if isinstance(step, Alias):
            continue
        if isinstance(step, Card):  # not enrolled: the sticker says what it is
            mock.store_record(step.uid, encode(record_for(edition, step.kind, step.value)))
            continue
        if isinstance(step, Tap):
            known = registry.lookup(step.uid) is not None
            put_on_reader(app, step.uid)
            learnt += 0 if known else 1
            assert registry.lookup(step.uid) is not None
        else:
            play_step(app, step)
        if isinstance(step, Tap | Press | Choose):
            last_error = app.controller.last_reaction.error
        if isinstance(step, Expect):
            check_expectation(step, banker.view, last_error)
    assert banker.view.phase == "over"
    assert learnt == len(registry) > 0
    # a sticker that claims player 1's card, which the registry now gives to another card
    lie = encode(record_for(edition, "player", 1))
    put_on_reader(app, "04BADBADBADBAD", lie)
    refusal = app.controller.last_reaction
    assert refusal.error == "error.sticker_role_taken"
    assert refusal.params["kind_key"] == "cardrole.player" and refusal.params["number"] == "1"
    assert refusal.params["holder"] == registry.holder("player", 1)
    assert registry.lookup("04BADBADBADBAD") is None
