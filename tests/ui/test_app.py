"""The app around the screens: language switching, fonts, the reader chip, lost cards, enrolment, the PIN
menu, error toasts and sound cues, all through real touches on the shared window."""

from __future__ import annotations

from typing import Any

import pytest
from ui_driver import pump, touch, wait_for

from reader import mock
from ui.i18n import LANGUAGES
from ui.touch import fonts

pytestmark = pytest.mark.ui


def seat_players(app: Any, seats: int = 2) -> None:
    """Tap the mock deck's first bank cards and press OK: a game is running."""
    for n in range(1, seats + 1):
        app.controller.tap(f"BB0000{n:02X}")
    touch(app.screen("setup").ids.actions.button_for("press_ok"))
    assert app.controller.view.phase == "play"


def test_the_language_button_cycles_languages_and_fonts(fresh_session: Any) -> None:
    app = fresh_session
    seen = []
    for _ in LANGUAGES:
        seen.append((app.lang, app.root.ids.board_button.text))
        touch(app.root.ids.lang_button)
    assert [lang for lang, _ in seen] == list(LANGUAGES)
    assert app.lang == "en"
    captions = [caption for _, caption in seen]
    assert len(set(captions)) == 4, captions
    wait_for(lambda: app.root.ids.reader_chip.ok)
    chip_en = app.root.ids.reader_chip.text
    app.set_language("ja")
    pump(2)
    assert app.root.ids.reader_chip.text == app.t("reader.connected", "ja") != chip_en
    assert app.root.ids.board_button.font_name == fonts.CJK_FONT
    assert app.screen("setup").ids.prompt.font_name == fonts.CJK_FONT
    app.set_language("ru")
    pump(2)
    assert app.root.ids.board_button.font_name == fonts.UI_FONT


def test_the_reader_chip_shows_a_lost_reader(fresh_session: Any) -> None:
    app = fresh_session
    chip = app.root.ids.reader_chip
    wait_for(lambda: chip.ok)
    connected = chip.text
    mock.unplug(app.session.mock_urls[0])
    wait_for(lambda: not chip.ok)
    assert chip.text != connected
    mock.replug(app.session.mock_urls[0])
    wait_for(lambda: chip.ok)


def test_touching_a_deed_on_the_board_is_tapping_its_card(fresh_session: Any) -> None:
    app = fresh_session
    seat_players(app)
    touch(app.root.ids.board_button)
    assert app.root.ids.sm.current == "board"
    cell = app.screen("board").ids.board.cell_for_deed(16)
    touch(cell)
    assert app.controller.view.state == "deed"
    assert dict(app.controller.view.prompt.params)["deed"] == 16
    app.press("cancel")
    registry = app.session.registry
    registry.forget(registry.holder("deed", 5))  # the card of deed 5 is lost
    touch(app.root.ids.board_button)
    touch(app.screen("board").ids.board.cell_for_deed(5))
    assert dict(app.controller.view.prompt.params)["deed"] == 5
    assert registry.holder("deed", 5) == "FD000005"


def test_enrolling_a_new_card_from_the_tray(fresh_session: Any) -> None:
    app = fresh_session
    registry = app.session.registry
    for card in list(registry.cards()):
        if card.kind == "player" and card.value == 1:
            registry.forget(card.uid)
    touch(app.screen("setup").ids.enrol)
    assert app.enrolment is not None
    key, params = app.enrolment.prompt()
    assert key == "enroll.tap_player" and dict(params)["value"] == 1
    tray = app.root.ids.tray
    pump(2)
    tray.scroll_to_card("")
    pump(2)
    blank = tray.button_for("")
    assert blank is not None
    before = len(registry)
    touch(blank)
    wait_for(lambda: len(registry) == before + 1)
    assert registry.holder("player", 1) is not None
    assert app.enrolment is None  # that was the only card missing: enrolment is over
    touch(app.screen("setup").ids.enrol)
    assert app.enrolment is None  # nothing left to enrol
    assert app.root.ids.toast.text == app.t("enroll.done")


def test_the_banker_menu_needs_the_pin(fresh_session: Any) -> None:
    app = fresh_session
    seat_players(app)
    touch(app.root.ids.menu_button)
    assert app.controller.view.state == "pin"
    assert app.root.ids.sm.current == "menu"
    menu = app.screen("menu")
    pad = menu.ids.pin_pad
    digits = {b.text: b for b in pad.ids.grid.children}
    for d in "9999":
        touch(digits[d])
    assert pad.shown == "\u25cf" * 4
    ok = next(c for c in pad.children if getattr(c, "text", None) == app.t("keypad.ok"))
    touch(ok)
    assert app.controller.last_reaction.error == "error.bad_pin"
    assert app.root.ids.toast.opacity == 1.0
    assert app.root.ids.toast.text == app.t("error.bad_pin")
    for d in "1234":
        touch(digits[d])
    touch(ok)
    assert app.controller.view.state == "menu"
    assert menu.ids.pages.current == "open"
    touch(menu.ids.settings)
    assert app.controller.view.state == "settings"
    assert menu.ids.pages.current == "settings"


def test_cues_are_played_for_taps_and_errors(fresh_session: Any) -> None:
    app = fresh_session
    app.sounds.played.clear()
    app.controller.tap("BB000001")
    app.test_clock.advance(2.0)  # (at once, the same card would be a second read of one tap: ignored)
    app.controller.tap("BB000001")  # the same seat twice: refused
    pump(1)
    assert "tap" in app.sounds.played
    assert app.sounds.played[-1] == "err"
    reader = app.session.readers[0]
    assert reader.cues[-1] == "err"  # the reader beeps too (the mock records it)


def test_every_catalog_character_has_a_glyph(ui_app: Any) -> None:
    """Each text is drawn with the font chosen for it; no character may come out as an empty box."""
    from kivy.core.text import Label as CoreLabel

    from ui.i18n import load_catalog
    from ui.money import MINUS

    def pixels(ch: str, font: str) -> tuple[Any, bytes]:
        label = CoreLabel(text=ch, font_size=24, font_name=font)
        label.refresh()
        return label.texture.size, bytes(label.texture.pixels)

    pairs: set[tuple[str, str, str]] = set()
    for lang in LANGUAGES:
        for text in [*load_catalog(lang).values(), MINUS]:
            font = fonts.font_for_text(text)
            pairs |= {(font, ch, lang) for ch in set(text) - {" ", "\u00a0", "{", "}"}}
    tofu = {font: pixels("\ue000", font) for font in {f for f, _, _ in pairs}}  # private use: never drawn
    drawn: dict[tuple[str, str], bool] = {}
    for font, ch, _ in pairs:
        if (font, ch) not in drawn:
            drawn[(font, ch)] = pixels(ch, font) != tofu[font]
    missing = sorted((lang, font, ch) for font, ch, lang in pairs if not drawn[(font, ch)])
    assert len(drawn) > 300
    assert not missing, missing
