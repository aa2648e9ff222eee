"""The installation's settings (ui/settings.py): stored as JSON in the ``settings`` table of the SQLite
file shared with the journal and the card registry; bad stored values are ignored, other tables untouched."""

from __future__ import annotations

import argparse
import logging
import sqlite3
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from engine.banker.pin import hash_pin, matches
from engine.store.journal import Journal
from reader.registry import CardRegistry
from ui.compose import build
from ui.i18n import LANGUAGES
from ui.settings import SettingsStore
from ui.touch.app import choose_language


def test_round_trip_with_defaults(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    store = SettingsStore.open(db)
    assert store.banker() == {"timeout_s": 10.0, "auction_s": 10.0, "pin_hash": None, "pin_failures": 0, "pin_locked_s": 0.0, "names": {}}  # no PIN until the family sets one
    assert store.volume(0.8) == 0.8 and store.muted() is False and store.language(LANGUAGES) is None
    record = hash_pin("4321", b"salt-of-16-bytes")
    store.save({"timeout_s": 15.0, "auction_s": 12, "pin_hash": record, "pin_failures": 2, "pin_locked_s": 60.0,
                "volume": 0.25, "muted": True, "lang": "ja"})
    store.close()
    again = SettingsStore.open(db)
    assert again.banker() == {"timeout_s": 15.0, "auction_s": 12.0, "pin_hash": record, "pin_failures": 2,
                              "pin_locked_s": 60.0, "names": {}}
    assert again.volume() == 0.25 and again.muted() is True and again.language(LANGUAGES) == "ja"
    again.close()
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert dict(conn.execute("SELECT key, value FROM settings"))["lang"] == '"ja"'


@pytest.mark.parametrize(("key", "raw"), [
    ("timeout_s", "-3"), ("timeout_s", '"fast"'), ("auction_s", "true"), ("pin_hash", '"1234"'),
    ("pin_hash", '"scrypt$1$8$1$00$00"'), ("pin_failures", "-1"), ("pin_locked_s", '"soon"'), ("volume", "1.5"),
    ("muted", '"yes"'), ("lang", '"de"'), ("volume", "{not json"),
])
def test_a_bad_stored_value_is_ignored_with_one_log_line(
        tmp_path: Path, key: str, raw: str, caplog: pytest.LogCaptureFixture) -> None:
    db = tmp_path / "bb.sqlite3"
    SettingsStore.open(db).close()
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO settings VALUES (?, ?)", (key, raw))
    store = SettingsStore.open(db)
    with caplog.at_level(logging.WARNING, logger="ui.settings"):
        assert store.banker() == {"timeout_s": 10.0, "auction_s": 10.0, "pin_hash": None, "pin_failures": 0, "pin_locked_s": 0.0, "names": {}}
        assert (store.volume(0.8), store.muted(), store.language(LANGUAGES, "en")) == (0.8, False, "en")
    assert len([r for r in caplog.records if key in r.getMessage()]) == 1
    store.close()


def test_other_tables_untouched_and_the_journal_opens_the_file_either_way(tmp_path: Path) -> None:
    # settings first: the journal adopts a file holding only card_registry / settings
    db = tmp_path / "first.sqlite3"
    registry = CardRegistry.open(db)
    registry.enroll("000000A1", "player", 1)
    store = SettingsStore.open(db)
    store.save({"pin": "4321"})
    journal = Journal.open(db)
    journal.close()
    store.save({"pin": "9876"})
    store.close()
    assert [c.uid for c in registry.cards()] == ["000000A1"]
    registry.close()
    with sqlite3.connect(db) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        assert {"settings", "card_registry", "meta", "games", "log"} <= tables
        assert conn.execute("SELECT value FROM settings WHERE key='pin'").fetchone()[0] == '"9876"'
    # the journal first: the settings live next to its tables, and it still opens the file afterwards
    db = tmp_path / "second.sqlite3"
    Journal.open(db).close()
    before = sqlite3.connect(db).execute("SELECT key, value FROM meta ORDER BY key").fetchall()
    store = SettingsStore.open(db)
    store.save({"volume": 0.5})
    store.close()
    Journal.open(db).close()
    assert sqlite3.connect(db).execute("SELECT key, value FROM meta ORDER BY key").fetchall() == before


def test_compose_loads_the_banker_settings_and_saves_them_when_confirmed(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    args = argparse.Namespace(db=str(db), reader=None, edition=None, option=None, script=None)
    built = build(args, default_readers=[], manual_clock=True)
    banker = built.banker
    assert (banker.timeout_s, banker.auction_s) == (10.0, 10.0)
    assert banker.press("menu").view.state == "menu"  # no PIN yet
    banker.press("settings")
    for answer in ("timeout_s=15", "auction_s=12", "pin=4321"):
        assert banker.choose(answer).error is None
    assert built.settings is not None and built.settings.banker()["pin_hash"] is None  # not yet confirmed
    assert banker.press("ok").view.state == "menu"
    stored = sqlite3.connect(db).execute("SELECT value FROM settings WHERE key = 'pin_hash'").fetchone()[0]
    assert stored.startswith('"scrypt$') and "4321" not in stored  # only the salted hash is kept
    built.close()
    built = build(args, default_readers=[], manual_clock=True)
    assert (built.banker.timeout_s, built.banker.auction_s) == (15.0, 12.0)
    built.banker.press("menu")
    assert built.banker.choose("1234").error == "error.bad_pin"
    assert built.banker.choose("4321").view.state == "menu"
    built.close()


def test_a_plain_pin_of_an_earlier_version_becomes_its_hash(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    SettingsStore.open(db).save({"pin": "2468"})
    store = SettingsStore.open(db)
    record = store.banker()["pin_hash"]
    assert matches("2468", record) and not matches("1234", record)
    rows = dict(sqlite3.connect(db).execute("SELECT key, value FROM settings").fetchall())
    assert "pin" not in rows and "2468" not in rows["pin_hash"]
    store.close()


def test_the_pin_lock_survives_a_restart(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Five wrong entries lock the PIN for a minute, and a restart does not lift the lock; the lock runs on
    real (monotonic) time, which the banker's ``wait`` (``advance``) does not move."""
    real = [1000.0]
    monkeypatch.setattr("ui.compose.time.monotonic", lambda: real[0])
    db = tmp_path / "bb.sqlite3"
    args = argparse.Namespace(db=str(db), reader=None, edition=None, option=None, script=None)
    built = build(args, default_readers=[], manual_clock=True)
    built.banker.press("menu")
    built.banker.press("settings")
    built.banker.choose("pin=2580")
    built.banker.press("ok")
    built.banker.press("cancel")
    built.banker.press("menu")
    for _ in range(5):
        reaction = built.banker.choose("1111")
    assert reaction.error == "error.pin_locked"
    built.close()
    built = build(args, default_readers=[], manual_clock=True)
    built.banker.press("menu")
    assert built.banker.choose("2580").error == "error.pin_locked"
    built.advance(61.0)  # a `wait 61` line: the lock stays
    built.banker.press("menu")
    assert built.banker.choose("2580").error == "error.pin_locked"
    real[0] += 61.0  # a real minute
    built.banker.press("menu")
    assert built.banker.choose("2580").view.state == "menu"
    built.close()


def test_names_are_remembered_per_bank_card_from_game_to_game(tmp_path: Path) -> None:
    """Each bank card (its seat) keeps the name it had in the last game, and setup can still change it."""
    db = tmp_path / "bb.sqlite3"
    args = argparse.Namespace(db=str(db), reader=None, edition=None, option=None, script=None)
    built = build(args, default_readers=[], manual_clock=True)
    built.registry.enroll("000000A1", "player", 1)
    built.registry.enroll("000000A3", "player", 3)
    for step in ("tap 000000A1", "tap 000000A3", "choose name=3:Анна", "press ok"):
        verb, _, rest = step.partition(" ")
        getattr(built.banker, {"tap": "tap", "choose": "choose", "press": "press"}[verb])(rest)
    assert {p.id: p.name for p in built.banker.view.players} == {"p1": "Player 1", "p3": "Анна"}
    built.close()
    built = build(args, default_readers=[], manual_clock=True)
    built.banker.press("menu")
    built.banker.press("new_game")
    built.banker.press("ok")  # (the game is still open: New game asks first)
    built.banker.tap("000000A3")
    built.banker.tap("000000A1")
    assert {p.id: p.name for p in built.banker.view.players} == {"p1": "Player 1", "p3": "Анна"}  # remembered
    built.banker.choose("name=3:Ann")
    assert {p.id: p.name for p in built.banker.view.players}["p3"] == "Ann"
    built.close()


def test_the_command_line_language_wins_over_the_stored_one() -> None:
    ru = SimpleNamespace(language="ru")
    assert choose_language("ro", ru, "ja") == "ro"
    assert choose_language(None, ru, "ja") == "ja"
    assert choose_language(None, ru, None) == "ru"


def test_the_ui_remembers_volume_mute_and_language(fresh_session: Any, tmp_path: Path) -> None:
    from ui_driver import pump, touch, wait_for

    app = fresh_session
    store = SettingsStore.open(tmp_path / "ui-test.sqlite3")  # the session's installation file
    app.session.settings = store
    try:
        menu = app.screen("menu")
        app.open_menu()
        app.choose("1234")
        pump(2)
        assert menu.ids.pages.current == "open"
        muted = app.sounds.muted
        touch(menu.ids.mute)
        menu.ids.volume.value = 0.3
        app.set_language("ro")
        assert store.language(LANGUAGES) is None  # written after a short delay, not on every slider step
        wait_for(lambda: store.language(LANGUAGES) == "ro", timeout=5.0)
        assert store.muted() is (not muted) is app.sounds.muted and store.volume() == pytest.approx(0.3)
        app.set_language("en")
        touch(menu.ids.mute)
        app.save_settings()  # also done at stop and when another session is attached
        assert store.language(LANGUAGES) == "en" and store.muted() is muted
    finally:
        app.session.settings = None
        store.close()


def test_the_settings_page_shows_the_values_and_save_is_its_one_confirmation(fresh_session: Any) -> None:
    """Each banker setting's button shows its value; the keypad has no OK of its own: Save stages what is
    typed and confirms it."""
    from test_app import seat_players
    from ui_driver import pump, touch

    app = fresh_session
    seat_players(app)
    app.press("menu")
    app.choose("1234")
    app.press("settings")
    screen = app.screen("menu")
    pump(2)
    assert app.controller.view.state == "settings"
    assert screen.ids.set_timeout_s.text == "Gesture timeout (s): 10"
    pad = screen.ids.settings_pad
    assert not pad.show_ok and pad.title == "Gesture timeout (s)"
    for key in "15":
        pad.press(key)
    touch(screen.ids.settings_save)
    assert app.controller.view.state == "menu"
    assert dict(app.controller.view.extra)["timeout_s"] == "15"
