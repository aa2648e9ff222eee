"""``boardbank cards enroll all``: the guided walk of one edition's box, driven through the CLI by the mock
reader (ui/cli/cards.py, reader/registry.py; the classic box of engine/editions/board-classic.toml and
docs/rules-classic.md: 28 title deeds, 16 Chance and 16 Community Chest cards)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from engine.store.journal import Journal
from reader import mock
from reader.registry import CardRegistry
from ui.cli.console import main
from ui.settings import SettingsStore

URL = "mock://enrol-cli"


class TapOnPrompt(io.StringIO):
    """Standard error that answers each "tap ..." prompt by presenting the next UID on the mock reader (the
    reader delivers at once, so the card is waiting when the CLI starts waiting); ``None`` in ``uids``
    presents nothing (the step times out)."""

    def __init__(self, uids: list[str | None]) -> None:
        super().__init__()
        self.uids = list(uids)
        self.prompts: list[str] = []

    def write(self, text: str) -> int:
        if text.startswith("tap "):
            self.prompts.append(text.split(" (")[0])
            uid = self.uids.pop(0) if self.uids else None
            if uid is not None:
                assert mock.present(URL, uid) == 1
        return super().write(text)


class Terminal(io.StringIO):
    """Standard input on a terminal, holding the answers typed."""

    def isatty(self) -> bool:
        return True


def fresh_uids() -> list[str | None]:
    return [f"0C{n:06X}" for n in range(1, 200)]


def enroll(monkeypatch: pytest.MonkeyPatch, db: Path, *args: str, uids: list[str | None] | None = None,
           stdin: io.StringIO | None = None) -> tuple[int, TapOnPrompt, str]:
    err = TapOnPrompt(fresh_uids() if uids is None else uids)
    out = io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", stdin if stdin is not None else io.StringIO(""))
    status = main(["cards", "enroll", "all", *args, "--reader", URL, "--db", str(db), "--timeout", "0.3"])
    return status, err, out.getvalue()


def roles(db: Path) -> list[tuple[str, int | None]]:
    reg = CardRegistry.open(db)
    try:
        return [c.role for c in reg.cards()]
    finally:
        reg.close()


CLASSIC_DEEDS = [("deed", n) for n in range(1, 29)]
CLASSIC_CARDS = [("event", n) for n in range(1, 33)]


def test_whole_classic_box_with_cards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    status, err, out = enroll(monkeypatch, db, "2", "--edition", "classic-us", "--with-cards")
    assert status == 0, err.getvalue()
    assert roles(db) == [("player", 1), ("player", 2), *CLASSIC_DEEDS, *CLASSIC_CARDS, ("banker", None)]
    assert len(err.prompts) == 2 + 28 + 32 + 1
    assert err.prompts[2] == "tap title deed 1 — Mediterranean Avenue"
    assert err.prompts[29] == "tap title deed 28 — Boardwalk"
    # board-classic.toml [[cards]]: id 3 is the third Chance card, id 23 the seventh Community Chest card
    assert err.prompts[30 + 2] == "tap Chance card 3 — Trip to Illinois Avenue"
    assert err.prompts[30 + 22] == "tap Community Chest card 7 — Holiday savings"
    assert err.prompts[-1] == "tap the banker card"
    counts = [int(line.split(" (")[1].split()[0]) for line in err.getvalue().splitlines() if line.startswith("tap ")]
    assert counts == list(range(63, 0, -1))  # "(N to go)" counts the whole walk down, cards included
    assert "enrolled 0C000035 as event 23 (Community Chest card 7 — Holiday savings)" in out
    assert mock.live(URL) == []  # the readers are stopped afterwards


def test_classic_box_without_cards_when_not_asked(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Not a terminal and no --with-cards: the deck is left out, said in one line, the banker card follows."""
    db = tmp_path / "bb.sqlite3"
    status, err, _ = enroll(monkeypatch, db, "3", "--edition", "classic-uk")
    assert status == 0, err.getvalue()
    assert roles(db) == [("player", 1), ("player", 2), ("player", 3), *CLASSIC_DEEDS, ("banker", None)]
    assert err.prompts[3] == "tap title deed 1 — Old Kent Road"
    assert ("the 32 Chance and Community Chest cards are left out (--with-cards enrolls them too)\n"
            in err.getvalue())


@pytest.mark.parametrize(("answer", "with_cards"), [("y\n", True), ("YES\n", True), ("n\n", False), ("\n", False),
                                                    ("", False)])
def test_terminal_asks_whether_to_enroll_the_cards(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, answer: str,
                                                   with_cards: bool) -> None:
    db = tmp_path / "bb.sqlite3"
    status, err, _ = enroll(monkeypatch, db, "2", "--edition", "classic-us", stdin=Terminal(answer))
    assert status == 0, err.getvalue()
    assert "enroll the 32 Chance and Community Chest cards too? [y/N] " in err.getvalue()
    expected = [("player", 1), ("player", 2), *CLASSIC_DEEDS, *(CLASSIC_CARDS if with_cards else []),
                ("banker", None)]
    assert roles(db) == expected


def test_enrolled_cards_are_skipped(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    assert main(["cards", "enroll", "deed", "5", "--uid", "0A000005", "--db", str(db)]) == 0
    assert main(["cards", "enroll", "event", "3", "--uid", "0A000003", "--db", str(db)]) == 0
    status, err, _ = enroll(monkeypatch, db, "2", "--edition", "classic-us", "--with-cards")
    assert status == 0, err.getvalue()
    assert len(err.prompts) == 2 + 27 + 31 + 1
    assert not any(p.startswith(("tap title deed 5 ", "tap Chance card 3 ")) for p in err.prompts)
    assert "tap title deed 6 — Connecticut Avenue" in err.prompts
    assert len(roles(db)) == 2 + 28 + 32 + 1


def test_uid_of_another_card_refused_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Deed 2 offered the card just enrolled as deed 1: one line, nothing written, deed 2 asked again."""
    db = tmp_path / "bb.sqlite3"
    uids: list[str | None] = ["0B000001", "0C000001", "0C000001", *fresh_uids()[1:]]
    status, err, _ = enroll(monkeypatch, db, "1", "--edition", "classic-us", uids=uids)
    assert status == 0, err.getvalue()
    refusals = [line for line in err.getvalue().splitlines() if "already enrolled" in line]
    assert refusals == ["boardbank cards: card 0C000001 is already enrolled as deed 1; forget it before "
                        "enrolling it as deed 2"]
    assert err.prompts[2:4] == ["tap title deed 2 — Baltic Avenue"] * 2
    assert roles(db) == [("player", 1), *CLASSIC_DEEDS, ("banker", None)]


def test_timeout_stops_and_keeps_what_was_enrolled(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    status, err, _ = enroll(monkeypatch, db, "2", "--edition", "classic-us", uids=["0B000001", None])
    assert status == 3 and "no card presented within 0.3 s; stopping" in err.getvalue()
    assert roles(db) == [("player", 1)]


@pytest.mark.parametrize("args", [["--edition", "monopoly-mars"], ["--edition", "classic"],
                                  ["x"], ["0"], ["9"], ["+2"], ["\u0662"], ["2", "3"]])
def test_bad_request_refused_in_one_line_and_nothing_written(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                             args: list[str]) -> None:
    db = tmp_path / "bb.sqlite3"
    status, err, _ = enroll(monkeypatch, db, *args)
    assert status == 2
    lines = err.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("boardbank cards: "), lines
    assert "unknown edition" in lines[0] or "PLAYERS" in lines[0] or "expected: cards enroll all" in lines[0]
    assert not db.exists() and err.prompts == []


def test_unknown_edition_names_the_known_ones(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    status, err, _ = enroll(monkeypatch, tmp_path / "bb.sqlite3", "--edition", "monopoly-mars")
    assert status == 2
    assert err.getvalue().startswith("boardbank cards: unknown edition 'monopoly-mars'; expected one of [")
    assert "'classic-us'" in err.getvalue() and "'ultimate-uk'" in err.getvalue()


def test_default_edition_is_the_latest_games(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    with Journal.open(db) as journal:
        journal.create_game("ultimate-us", 1, {})
        journal.create_game("classic-uk", 2, {})
    status, err, _ = enroll(monkeypatch, db, "1")
    assert status == 0, err.getvalue()
    assert err.prompts[1] == "tap title deed 1 — Old Kent Road" and len(err.prompts) == 1 + 28 + 1


def test_default_edition_without_a_game_is_ultimate_uk(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """As before this edition-aware walk: 22 deeds and the 23 event cards, always part of the walk."""
    db = tmp_path / "bb.sqlite3"
    status, err, _ = enroll(monkeypatch, db, "2")
    assert status == 0, err.getvalue()
    assert roles(db) == [("player", 1), ("player", 2), *(("deed", n) for n in range(1, 23)),
                         *(("event", n) for n in range(1, 24)), ("banker", None)]
    assert err.prompts[2] == "tap title deed 1 — Old Kent Road"
    assert err.prompts[24].startswith("tap event card 1 — ")


def test_prompts_in_the_editions_language(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """classic-ru speaks Russian: its board names and card texts; its decks as its board spaces say them."""
    db = tmp_path / "bb.sqlite3"
    status, err, _ = enroll(monkeypatch, db, "1", "--edition", "classic-ru", "--with-cards")
    assert status == 0, err.getvalue()
    assert err.prompts[1] == "tap title deed 1 — Житная улица"
    assert err.prompts[29] == "tap Шанс card 1 — Прогулка: Улица Арбат"
    assert err.prompts[29 + 16] == "tap Общественная казна card 1 — На старт"


def test_prompts_in_the_installations_language(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The unit is set to English: classic-ru's English board names, and the card texts of the built-in
    edition with the same English board (classic-uk)."""
    db = tmp_path / "bb.sqlite3"
    store = SettingsStore.open(db)
    store.save({"lang": "en"})
    store.close()
    status, err, _ = enroll(monkeypatch, db, "1", "--edition", "classic-ru", "--with-cards")
    assert status == 0, err.getvalue()
    assert err.prompts[1] == "tap title deed 1 — Old Kent Road"
    assert err.prompts[29] == "tap Chance card 1 — Stroll to Mayfair"
    assert err.prompts[29 + 16 + 6] == "tap Community Chest card 7 — Holiday savings"


def test_edition_narrows_a_single_enrolment(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    db = str(tmp_path / "bb.sqlite3")
    assert main(["cards", "enroll", "deed", "25", "--uid", "0A000001", "--db", db, "--edition", "ultimate-uk"]) == 2
    assert "ultimate-uk has deed cards 1..22, got deed 25" in capsys.readouterr().err
    assert main(["cards", "enroll", "deed", "25", "--uid", "0A000001", "--db", db, "--edition", "classic-us"]) == 0
    assert main(["cards", "enroll", "event", "32", "--uid", "0A000002", "--db", db, "--edition", "classic-us"]) == 0
    assert roles(tmp_path / "bb.sqlite3") == [("deed", 25), ("event", 32)]



def test_enroll_write_and_lock_put_the_record_on_the_card(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """``cards enroll deed 3 --write --lock``: the card is enrolled and carries the NDEF record naming it
    (ui/cardrecord.py), locked only because it was asked; without --write nothing is written."""
    from ui.cardrecord import decode, record_for

    mock.forget_records()
    db = tmp_path / "bb.sqlite3"
    monkeypatch.setattr("sys.stderr", TapOnPrompt(["00000103"]))
    assert main(["cards", "enroll", "deed", "3", "--reader", URL, "--write", "--lock", "--edition", "ultimate-uk",
                 "--db", str(db), "--timeout", "5"]) == 0
    assert "wrote ultimate-uk deed 3 on 00000103 (locked)" in capsys.readouterr().out
    stored = mock.stored_record("00000103")
    assert stored is not None and stored[1] and decode(stored[0]) == record_for("ultimate-uk", "deed", 3)
    monkeypatch.setattr("sys.stderr", TapOnPrompt(["00000104"]))
    assert main(["cards", "enroll", "deed", "4", "--reader", URL, "--db", str(db), "--timeout", "5"]) == 0
    assert mock.stored_record("00000104") is None
    mock.forget_records()


def test_the_guided_walk_writes_every_card_with_write(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """``cards enroll all 2 --edition classic-us --with-cards --write``: every card of the box also carries
    the record naming it (bank cards and the banker card as shared, '-'), none locked."""
    from ui.cardrecord import decode, record_for

    mock.forget_records()
    db = tmp_path / "bb.sqlite3"
    uids = fresh_uids()
    status, err, out = enroll(monkeypatch, db, "2", "--edition", "classic-us", "--with-cards", "--write", uids=uids)
    assert status == 0, err.getvalue()
    reg = CardRegistry.open(db)
    try:
        cards = reg.cards()
    finally:
        reg.close()
    assert len(cards) == 2 + 28 + 32 + 1 and out.count("wrote ") == len(cards)
    for card in cards:
        stored = mock.stored_record(card.uid)
        assert stored is not None and not stored[1]
        assert decode(stored[0]) == record_for("classic-us", card.kind, card.value)
    mock.forget_records()


def test_enroll_write_on_a_mifare_classic_card_through_the_pn532(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """``cards enroll player 2 --write`` with a MIFARE Classic 1K on a PN532 (the simulator): the card carries
    the same record in the NFC Forum Classic layout (hardware/cards.md: the MAD in sector 0 with AID 03E1, the
    TLV from sector 1), which a new installation's reader reads on the card's first tap."""
    import os
    import threading

    from firmware_sim.pn532 import PN532Device
    from reader import classic, open_reader
    from reader.events import CardPresented
    from ui.cardrecord import decode, record_for

    device = PN532Device(link=os.path.join(tmp_path, "ttyPN532"), seed=3)
    device.start()
    try:
        device.tap("A1B2C3D4")
        db = tmp_path / "bb.sqlite3"
        assert main(["cards", "enroll", "player", "2", "--reader", f"pn532://{device.path}", "--write",
                     "--db", str(db), "--timeout", "5"]) == 0
        assert "wrote player 2 on A1B2C3D4" in capsys.readouterr().out
        card = device.chip.card
        assert card is not None and card.blocks is not None
        assert bytes(card.blocks.blocks[1][2:4]) == classic.NDEF_AID
        got: list[CardPresented] = []
        came = threading.Event()
        reader = open_reader(f"pn532://{device.path}")
        reader.set_known(lambda _uid: False)  # a new installation: no registry entry

        def sink(event: object) -> None:
            if isinstance(event, CardPresented):
                got.append(event)
                came.set()

        reader.start(sink)
        try:
            assert came.wait(5.0)
        finally:
            reader.stop()
        assert got[0].record is not None and decode(got[0].record) == record_for("-", "player", 2)
    finally:
        device.stop()
