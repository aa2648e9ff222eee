"""A family's sheet of stickers: enrol each card once with ``cards enroll --write`` (the record naming it goes
on the sticker, hardware/cards.md), then a NEW installation file plays a whole game on the same stickers
with no enrolment at all: each card names itself on its first tap (ui/cardrecord.py) through the reader
(reader/mock.py's sticker memory) and headless (ui/cli/headless.py, Headless.on_card). Then the same with
a sticker whose record lies: where the registry knows the card, the tap is refused with both named.

The game is tests/engine/taps/whole_game.tap (docs/rules.md 1.3-1.9, 6.2), its `card` lines being the box
to enrol and its `tap` lines cards put on the reader."""

from __future__ import annotations

import argparse
import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from reader import mock
from reader.events import CardPresented, ReaderEvent
from reader.registry import CardRegistry
from ui.cardrecord import decode, encode, record_for
from ui.cli.console import main
from ui.cli.headless import Headless
from ui.compose import build

URL = "mock://family"
SCRIPT = Path(__file__).parents[1] / "engine" / "taps" / "whole_game.tap"


@pytest.fixture(autouse=True)
def fresh_stickers() -> Iterator[None]:
    mock.forget_records()
    yield
    mock.forget_records()


class TapOnPrompt(io.StringIO):
    """Standard error that puts ``uid`` on the mock reader when ``cards enroll`` asks for the card."""

    def __init__(self, uid: str) -> None:
        super().__init__()
        self.uid = uid

    def write(self, text: str) -> int:
        if text.startswith("tap "):
            assert mock.present(URL, self.uid) == 1
        return super().write(text)


def box() -> tuple[list[tuple[str, str, int | None]], dict[str, str], list[str]]:
    """(the cards to enrol, the aliases, the other lines) of the whole-game script."""
    cards, aliases, lines = [], {}, []
    for raw in SCRIPT.read_text().splitlines():
        line = raw.split("#")[0].strip()
        words = line.split()
        if not words:
            continue
        if words[0] == "card":
            cards.append((words[1], words[2], int(words[3]) if len(words) > 3 else None))
        else:
            if words[0] == "alias":
                aliases[words[1]] = words[2]
            lines.append(line)
    return cards, aliases, lines


def enrol_with_writing(db: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    cards, _aliases, _lines = box()
    for uid, kind, value in cards:
        monkeypatch.setattr("sys.stderr", TapOnPrompt(uid))
        role = [kind] + ([str(value)] if value is not None else [])
        assert main(["cards", "enroll", *role, "--reader", URL, "--write", "--db", str(db), "--timeout", "5"]) == 0
        out = capsys.readouterr().out
        assert f"wrote ultimate-uk {kind}" in out or f"wrote {kind}" in out, out
        stored = mock.stored_record(uid)
        assert stored is not None and not stored[1]  # written, not locked (no --lock)
        assert decode(stored[0]) == record_for("ultimate-uk", kind, value)


def play(db: Path, lying: dict[str, bytes] | None = None) -> list[dict[str, object]]:
    """The whole game on ``db`` through Headless: taps as cards put on the mock reader."""
    _cards, aliases, lines = box()
    for uid, message in (lying or {}).items():
        mock.store_record(uid, message)
    args = argparse.Namespace(reader=[URL], db=str(db), edition="ultimate-uk", option=[], script=None)
    built = build(args, default_readers=[], manual_clock=True)
    out = io.StringIO()
    h = Headless(built, out)
    reader = built.readers[0]
    reader.set_known(lambda uid: built.registry.lookup(uid) is not None)

    def sink(event: ReaderEvent) -> None:
        if isinstance(event, CardPresented):
            h.on_card(event)

    reader.start(sink)
    try:
        for n, line in enumerate(lines, 1):
            words = line.split()
            if words[0] == "tap":
                uid = aliases.get(words[1].lstrip("@"), words[1])
                assert mock.present(URL, uid) == 1
                mock.remove(URL)
            else:
                h.handle_line(line, n)
    finally:
        reader.stop()
        built.close()
    return [json.loads(x) for x in out.getvalue().splitlines()]


def test_a_whole_game_on_stickers_a_new_installation_never_enrolled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    enrol_with_writing(tmp_path / "first.sqlite3", monkeypatch, capsys)
    fresh = tmp_path / "new-sd-card.sqlite3"
    lines = play(fresh)
    expects = [x for x in lines if x["type"] == "expect"]
    assert len(expects) == 18 and all(x["ok"] for x in expects), [x for x in expects if not x["ok"]]
    assert any(x["type"] == "event" and x["event"]["type"] == "GameEnded" for x in lines)  # type: ignore[index]
    _cards, aliases, script = box()
    tapped = {aliases.get(w[1].lstrip("@"), w[1]) for w in (x.split() for x in script) if w[0] == "tap"}
    known = [x["uid"] for x in lines if x["type"] == "card_known"]
    assert sorted(known) == sorted(tapped)  # each card the game used named itself once, on its first tap
    registry = CardRegistry.open(fresh)
    try:
        assert {c.uid for c in registry.cards()} == tapped  # and the new installation's registry learnt it
    finally:
        registry.close()
    assert not [x for x in lines if x.get("error") == "error.unknown_card"]


def test_a_lying_record_is_refused_with_both_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Where the registry gives the role to another card, a record claiming it is refused, both named: in
    the installation that enrolled the box (a new sticker claiming deed 16), and in a new one, where deed
    3's sticker claims deed 16 and is believed first (no registry to know better), so deed 16's own sticker
    is refused, naming the card the registry has learnt; the game goes on with the other cards."""
    first = tmp_path / "first.sqlite3"
    enrol_with_writing(first, monkeypatch, capsys)
    lie = encode(record_for("ultimate-uk", "deed", 16))
    mock.store_record("04BADBADBADBAD", lie)
    args = argparse.Namespace(reader=[URL], db=str(first), edition="ultimate-uk", option=[], script=None)
    built = build(args, default_readers=[], manual_clock=True)
    out = io.StringIO()
    h = Headless(built, out)
    try:
        h.on_card(CardPresented("04BADBADBADBAD", URL, 0.0, lie))
        h.on_card(CardPresented("00000116", URL, 0.0, None))  # the registry's own deed 16: no read needed
    finally:
        built.close()
    lines = [json.loads(x) for x in out.getvalue().splitlines()]
    assert lines[0] == {"type": "error", "error": "error.sticker_role_taken",
                        "params": {"uid": "04BADBADBADBAD", "kind_key": "cardrole.deed", "number": "16",
                                   "holder": "00000116"}}
    assert not [x for x in lines[1:] if x.get("error") == "error.sticker_role_taken"]
    mock.forget_records()
    enrol_with_writing(tmp_path / "again.sqlite3", monkeypatch, capsys)
    lines = play(tmp_path / "new-sd-card.sqlite3", {"00000103": lie})
    refused = [x for x in lines if x.get("error") == "error.sticker_role_taken"]
    assert refused and refused[0]["params"] == {"uid": "00000116", "kind_key": "cardrole.deed", "number": "16",
                                                "holder": "00000103"}
