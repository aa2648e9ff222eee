"""``boardbank cards enroll ... --write``: what the sticker holds is read first; a locked sticker or one naming
another card is refused ("locked", not a page number), a failed write exits non-zero, and in each case
nothing is written to the registry (ui/cli/cards_write.py, reader.base.check_overwrite; hardware/cards.md)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from reader import mock
from reader.base import ReaderError
from reader.registry import CardRegistry
from ui.cardrecord import decode, encode, record_for
from ui.cli.console import main
from ui.settings import SettingsStore

URL = "mock://write-cli"
UID = "04A1B2C3D4E5F6"


class TapOnPrompt(io.StringIO):
    """Standard error that presents ``uid`` on the mock reader when the CLI asks for a tap."""

    def __init__(self, uid: str) -> None:
        super().__init__()
        self.uid = uid

    def write(self, text: str) -> int:
        if text.startswith("tap "):
            assert mock.present(URL, self.uid) == 1
        return super().write(text)


def enroll(monkeypatch: pytest.MonkeyPatch, db: Path, *words: str, uid: str = UID) -> tuple[int, str, str]:
    err, out = TapOnPrompt(uid), io.StringIO()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr("sys.stdout", out)
    status = main(["cards", "enroll", *words, "--reader", URL, "--write", "--db", str(db), "--timeout", "5"])
    return status, out.getvalue(), err.getvalue()


def roles(db: Path) -> list[tuple[str, str, int | None]]:
    registry = CardRegistry.open(db)
    try:
        return [(c.uid, c.kind, c.value) for c in registry.cards()]
    finally:
        registry.close()


@pytest.fixture(autouse=True)
def blank_stickers() -> object:
    mock.forget_records()
    yield None
    mock.forget_records()


def test_a_locked_sticker_naming_another_card_is_refused_as_locked(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bb.sqlite3"
    theirs = encode(record_for("classic-us", "deed", 7))
    mock.store_record(UID, theirs, lock=True)
    for force in ((), ("--force",)):
        status, out, err = enroll(monkeypatch, db, "deed", "3", "--edition", "ultimate-uk", *force)
        assert status == 2
        assert "is locked" in err and "deed 7 of “The classic game (US)”" in err and "page" not in err
        assert "--force cannot change a locked card" in err and "enrolled" not in out
        assert mock.stored_record(UID) == (theirs, True) and roles(db) == []


def test_a_sticker_naming_another_card_is_refused_without_force(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bb.sqlite3"
    theirs = encode(record_for("ultimate-uk", "deed", 7))
    mock.store_record(UID, theirs)
    status, out, err = enroll(monkeypatch, db, "deed", "3", "--edition", "ultimate-uk")
    assert status == 2 and "already carries another record (deed 7 of “Ultimate Banking (UK)”)" in err
    assert mock.stored_record(UID) == (theirs, False) and roles(db) == []
    status, out, err = enroll(monkeypatch, db, "deed", "3", "--edition", "ultimate-uk", "--force")
    assert status == 0, err
    assert out.splitlines() == [f"wrote ultimate-uk deed 3 on {UID}", f"enrolled {UID} as deed 3"]
    stored = mock.stored_record(UID)
    assert stored is not None and decode(stored[0]) == record_for("ultimate-uk", "deed", 3)
    assert roles(db) == [(UID, "deed", 3)]


def test_another_apps_data_is_not_written_over_without_force(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    import ndef

    db = tmp_path / "bb.sqlite3"
    url = b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org")]))
    mock.store_record(UID, url)
    status, _out, err = enroll(monkeypatch, db, "player", "2")
    assert status == 2 and "another app's data" in err and roles(db) == []


def test_the_same_record_already_there_is_enrolled_and_left_alone(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bb.sqlite3"
    mine = encode(record_for("ultimate-uk", "player", 2))
    mock.store_record(UID, mine, lock=True)
    status, _out, err = enroll(monkeypatch, db, "player", "2")
    assert status == 0, err
    assert mock.stored_record(UID) == (mine, True) and roles(db) == [(UID, "player", 2)]


def test_a_failed_write_exits_non_zero_and_enrolls_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(self: object, uid: str, message: bytes, *, lock: bool = False, replace: bool = False) -> None:
        raise ReaderError("the tag did not answer")

    monkeypatch.setattr(mock.MockReader, "write_record", broken)
    db = tmp_path / "bb.sqlite3"
    status, out, err = enroll(monkeypatch, db, "deed", "3", "--edition", "ultimate-uk")
    assert status == 4 and "could not be written (the tag did not answer); it was not enrolled" in err
    assert "enrolled" not in out and roles(db) == []


def test_a_role_the_registry_refuses_writes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    db = tmp_path / "bb.sqlite3"
    assert main(["cards", "enroll", "deed", "3", "--uid", "0A000003", "--db", str(db)]) == 0
    status, _out, err = enroll(monkeypatch, db, "deed", "3", "--edition", "ultimate-uk")
    assert status == 2 and "deed 3 is already card 0A000003" in err
    assert mock.stored_record(UID) is None and roles(db) == [("0A000003", "deed", 3)]


@pytest.mark.parametrize(("lang", "locked"), [("ru", "заблокирована"), ("ro", "este blocat"),
                                              ("ja", "ロックされています")])
def test_the_refusal_is_said_in_the_installations_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           lang: str, locked: str) -> None:
    db = tmp_path / "bb.sqlite3"
    store = SettingsStore.open(db)
    store.save({"lang": lang})
    store.close()
    mock.store_record(UID, encode(record_for("classic-us", "deed", 7)), lock=True)
    status, _out, err = enroll(monkeypatch, db, "deed", "3", "--edition", "ultimate-uk")
    assert status == 2 and locked in err and "locked" not in err and roles(db) == []


def test_the_guided_walk_asks_again_after_a_refused_sticker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``cards enroll all 1 --write``: a locked sticker is refused and the same step asks again; the next card
    is written and enrolled; the refused one never is."""
    db = tmp_path / "bb.sqlite3"
    mock.store_record("0000AAAA", encode(record_for("ultimate-uk", "deed", 9)), lock=True)
    uids = ["0000AAAA", *[f"0D{n:06X}" for n in range(1, 60)]]
    err, out = io.StringIO(), io.StringIO()

    class Walk(io.StringIO):
        def write(self, text: str) -> int:
            if text.startswith("tap ") and uids:
                assert mock.present(URL, uids.pop(0)) == 1
            return err.write(text)

    monkeypatch.setattr("sys.stderr", Walk())
    monkeypatch.setattr("sys.stdout", out)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    status = main(["cards", "enroll", "all", "1", "--edition", "ultimate-uk", "--reader", URL, "--write",
                   "--db", str(db), "--timeout", "5"])
    assert status == 0, err.getvalue()
    assert "card 0000AAAA is locked" in err.getvalue()
    assert err.getvalue().count("tap the bank card of player 1") == 2
    assert all(uid != "0000AAAA" for uid, _kind, _value in roles(db)) and len(roles(db)) == 1 + 22 + 23 + 1


@pytest.mark.timeout(60)
@pytest.mark.parametrize("kind", ["bridge", "firmware"])
def test_through_the_simulated_bridge_a_locked_sticker_is_said_locked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                      kind: str) -> None:
    """End to end: the simulator presents a locked NTAG213 whose record names another card (``tap UID ntag213
    "..." locked``); ``cards enroll --write`` through ``serial://`` reads it first and says "locked" (not a
    page number), exits 2, and the registry and the sticker stay as they were. A blank sticker then takes
    the record and is enrolled."""
    from firmware_sim.__main__ import build_device, execute
    from firmware_sim.sim_cards import boardbank_record

    def run(line: str, *words: str) -> tuple[int, str, dict[str, object]]:
        """One ``cards enroll`` on a fresh simulator, the ``tap`` line sent when the CLI asks for the card."""
        device = build_device(kind, str(tmp_path / "ttyBB"))
        device.start()
        err = io.StringIO()

        class Prompt(io.StringIO):
            def write(self, text: str) -> int:
                if text.startswith("tap "):
                    assert execute(device, line, io.StringIO())
                return err.write(text)

        monkeypatch.setattr("sys.stderr", Prompt())
        monkeypatch.setattr("sys.stdout", io.StringIO())
        try:
            status = main(["cards", "enroll", *words, "--reader", f"serial://{device.path}", "--write",
                           "--db", str(tmp_path / "bb.sqlite3"), "--timeout", "10"])
        finally:
            device.stop()
        shelf = device.shelf if kind == "bridge" else device._shelf  # type: ignore[attr-defined]
        return status, err.getvalue(), shelf.cards

    status, err, cards = run(f'tap {UID} ntag213 "1 classic-us deed 7" locked', "deed", "3", "--edition", "ultimate-uk")
    assert status == 2 and "is locked" in err and "page" not in err, err
    assert roles(tmp_path / "bb.sqlite3") == []
    assert boardbank_record("1 classic-us deed 7") in b"".join(bytes(p) for p in cards[UID].pages)  # type: ignore[attr-defined]
    status, err, cards = run("tap 04C0FFEE000001 ntag213", "deed", "3", "--edition", "ultimate-uk")
    assert status == 0, err
    assert roles(tmp_path / "bb.sqlite3") == [("04C0FFEE000001", "deed", 3)]
    pages = cards["04C0FFEE000001"].pages  # type: ignore[attr-defined]
    assert boardbank_record("1 ultimate-uk deed 3") in b"".join(bytes(p) for p in pages)
