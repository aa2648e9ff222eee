"""The kiosk's docked on-screen keyboard: our layouts (ru, ro, ja) are complete, each UI language opens its
own, and real touches on the keys type Cyrillic, Romanian letters and kana into a player's name field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from kivy.tests.common import UnitTestTouch
from ui_driver import SHOTS, pump, screenshot, touch, wait_for

from ui.touch import fonts
from ui.touch.keyboard import (
    CYCLE,
    KEY_FONT,
    KEYBOARD_DIR,
    BoardBankVKeyboard,
    layout_for,
    layout_path,
    next_layout,
)

pytestmark = pytest.mark.ui

SPECIAL_KEYS = {"backspace", "tab", "capslock", "enter", "shift", "layout", "escape", "spacebar", "special"}


@pytest.mark.parametrize("name", ["ru", "ro", "ja"])
def test_layout_file_is_complete_and_its_modes_line_up(name: str) -> None:
    path = layout_path(name)
    assert path is not None and path.parent == KEYBOARD_DIR
    layout = json.loads(path.read_text(encoding="utf-8"))
    assert layout["title"] and layout["description"]
    modes = ["normal", "shift"] + (["special"] if "special_1" in layout else [])
    for row in range(1, layout["rows"] + 1):
        normal = layout[f"normal_{row}"]
        assert sum(key[3] for key in normal) <= layout["cols"], f"{name} row {row} is wider than its cols"
        for mode in modes:
            keys = layout[f"{mode}_{row}"]
            # Kivy lays every mode out on the normal row's key widths
            assert [key[3] for key in keys] == [key[3] for key in normal], f"{name} {mode}_{row}"
            for label, text, code, _width in keys:
                assert label and (text is not None or code in SPECIAL_KEYS), (name, mode, row, label)
    codes = {key[2] for mode in modes for row in range(1, layout["rows"] + 1) for key in layout[f"{mode}_{row}"]}
    assert {"backspace", "enter", "shift", "layout", "escape", "spacebar"} <= codes


def test_each_language_opens_its_own_layout_and_the_layout_key_cycles() -> None:
    assert [layout_for(lang) for lang in ("en", "ru", "ro", "ja")] == ["qwerty", "ru", "ro", "ja"]
    assert layout_path("qwerty") is None  # Kivy's own
    assert [next_layout(name) for name in CYCLE] == ["ru", "ro", "ja", "qwerty"]
    assert next_layout("azerty") == "qwerty"


def test_the_layouts_hold_the_letters_names_need() -> None:
    def typed(name: str) -> str:
        layout = json.loads(layout_path(name).read_text(encoding="utf-8"))  # type: ignore[union-attr]
        return "".join(key[1] or "" for k, row in layout.items() if "_" in k for key in row)

    assert set("ёйцукенгшщзхъфывапролджэячсмитьбюЁЙЦУКЕНГШЩЗХЪФЫВАПРОЛДЖЭЯЧСМИТЬБЮ") <= set(typed("ru"))
    assert set("ăâîșțĂÂÎȘȚqwxyQWXY") <= set(typed("ro"))
    gojuon = "あいうえおかきくけこさしすせそたちつてとなにぬねのはひふへほまみむめもやゆよらりるれろわをん"
    voiced = "がぎぐげござじずぜぞだぢづでどばびぶべぼぱぴぷぺぽゔ"
    assert set(gojuon + voiced + "ぁぃぅぇぉっゃゅょゎー") <= set(typed("ja"))
    assert set("アイウエオカタナハマヤラワヲンッャュョー") <= set(typed("ja"))  # katakana on shift


# -- the docked keyboard on the setup screen ---------------------------------------------------------------
def tap_card(app: Any, uid: str) -> None:
    """Touch a card on the tray: the mock reader seats its player."""
    tray = app.root.ids.tray
    pump(2)
    tray.scroll_to_card(uid)
    pump(3)
    seated = len(app.controller.view.players)
    touch(tray.button_for(uid))
    wait_for(lambda: len(app.controller.view.players) == seated + 1)


@pytest.fixture
def docked(fresh_session: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """The kiosk's keyboard mode (``prepare_kivy(fullscreen=True)``: dock) on the shared test window, with a
    seated player; yields the app. The window read its mode when it was made, so its flags are set here."""
    from kivy.config import Config
    from kivy.core.window import Window

    mode = Config.get("kivy", "keyboard_mode")
    Config.set("kivy", "keyboard_mode", "dock")
    monkeypatch.setattr(Window, "allow_vkeyboard", True)
    monkeypatch.setattr(Window, "use_syskeyboard", False)
    monkeypatch.setattr(Window, "docked_vkeyboard", True)
    app = fresh_session
    tap_card(app, "BB000001")
    try:
        yield app
    finally:
        for row in app.screen("setup").seat_rows.values():
            row.name_input.focus = False
        Window.release_all_keyboards()
        pump(2)
        Config.set("kivy", "keyboard_mode", mode)
        app.set_language("en")


def open_keyboard(app: Any, seat: int = 1) -> tuple[Any, Any]:
    """Touch a seat's name field; returns the field and the docked keyboard it brought up."""
    from kivy.core.window import Window

    screen = app.screen("setup")
    row = screen.seat_rows[seat]
    scroll = screen.ids.seats.parent
    if screen.ids.seats.height > scroll.height:
        scroll.scroll_to(row, animate=False)  # a low seat may be below the fold
    field = row.name_input
    touch(field)
    assert field.focus
    keyboards = [w for w in Window.children if isinstance(w, BoardBankVKeyboard)]
    assert len(keyboards) == 1, Window.children
    vkeyboard = keyboards[0]
    pump(2)
    assert vkeyboard.docked and vkeyboard.target is field
    # across the window's width, wholly on screen at its bottom or top, and clear of the field typed in
    assert vkeyboard.width * vkeyboard.scale == pytest.approx(Window.width) and vkeyboard.x == 0
    height = vkeyboard.height * vkeyboard.scale
    assert vkeyboard.y in (0, pytest.approx(Window.height - height))
    bottom = field.to_window(field.x, field.y)[1]
    assert bottom >= vkeyboard.y + height or bottom + field.height <= vkeyboard.y
    return field, vkeyboard


def drawn_labels(vkeyboard: Any) -> list[str]:
    return sorted(label.text for label in vkeyboard.children)


def layout_labels(vkeyboard: Any) -> list[str]:
    layout = vkeyboard.available_layouts[vkeyboard.layout]
    mode = vkeyboard.layout_mode
    return sorted(key[0] for row in range(1, layout["rows"] + 1) for key in layout[f"{mode}_{row}"])


def tap_key(vkeyboard: Any, label: str) -> None:
    """A real touch on the key showing ``label`` in the keyboard's current mode."""
    pump(1)
    layout = vkeyboard.available_layouts[vkeyboard.layout]
    for row in range(1, layout["rows"] + 1):
        for index, key in enumerate(layout[f"{vkeyboard.layout_mode}_{row}"]):
            if key[0] == label:
                (x, y), (w, h) = vkeyboard.layout_geometry[f"LINE_{row}"][index]
                wx, wy = vkeyboard.to_window(x + w / 2, y + h / 2, initial=False)  # a scatter
                t = UnitTestTouch(wx, wy)
                t.touch_down()
                pump(1)
                t.touch_up()
                pump(2)
                return
    raise AssertionError(f"no key {label!r} in {vkeyboard.layout} ({vkeyboard.layout_mode})")


def type_keys(vkeyboard: Any, labels: list[str]) -> None:
    for label in labels:
        tap_key(vkeyboard, label)


def test_english_keeps_kivys_qwerty(docked: Any) -> None:
    field, vkeyboard = open_keyboard(docked)
    assert vkeyboard.layout == "qwerty" and vkeyboard.font_name == KEY_FONT
    type_keys(vkeyboard, ["\u21ea", "A", "\u21ea", "n", "a"])
    assert field.text == "Ana" and field.focus  # a key does not take the focus from the field


def test_russian_keys_type_cyrillic(docked: Any) -> None:
    docked.set_language("ru")
    field, vkeyboard = open_keyboard(docked)
    assert vkeyboard.layout == "ru"
    assert drawn_labels(vkeyboard) == layout_labels(vkeyboard)  # every key drawn, none left over
    type_keys(vkeyboard, ["\u21ea", "П", "\u21ea", "ё", "т", "р", "пробел", "ж", "ю", "\u232b", "ю"])
    assert field.text == "Пётр жю"
    screenshot(SHOTS / "keyboard-ru.png")
    tap_key(vkeyboard, "\u23ce")  # Enter: the name goes to the banker
    assert [p.name for p in docked.controller.view.players] == ["Пётр жю"]


def test_romanian_keys_type_comma_below_letters(docked: Any) -> None:
    docked.set_language("ro")
    field, vkeyboard = open_keyboard(docked)
    assert vkeyboard.layout == "ro"
    assert drawn_labels(vkeyboard) == layout_labels(vkeyboard)
    type_keys(vkeyboard, ["\u21ea", "Ș", "\u21ea", "t", "e", "f", "ă", "n", "i", "ț", "ă", "spațiu", "î", "â"])
    assert field.text == "Ștefăniță îâ"
    assert "\u0218" in field.text and "\u021b" in field.text and not {"\u015e", "\u0163"} & set(field.text)  # not Ş ţ


def test_japanese_keys_type_kana_with_dakuten_and_katakana(docked: Any) -> None:
    docked.set_language("ja")
    field, vkeyboard = open_keyboard(docked)
    assert vkeyboard.layout == "ja"
    if fonts.find_cjk_font() is not None:
        assert vkeyboard.font_name == fonts.CJK_FONT
        assert {label.font_name for label in vkeyboard.children} == {fonts.CJK_FONT}
    assert drawn_labels(vkeyboard) == layout_labels(vkeyboard)
    type_keys(vkeyboard, ["や", "ま", "が・ぱ"])
    assert vkeyboard.layout_mode == "special"
    assert "だ" in drawn_labels(vkeyboard) and "ぱ" in drawn_labels(vkeyboard)
    type_keys(vkeyboard, ["だ"])  # one voiced kana, then plain kana again
    pump(2)
    assert vkeyboard.layout_mode == "normal"
    type_keys(vkeyboard, ["空白", "カナ", "タ", "ロ", "ー", "カナ", "空白", "が・ぱ", "ぽ", "ち"])
    assert field.text == "やまだ タロー ぽち"
    screenshot(SHOTS / "keyboard-ja.png")


def test_a_low_name_field_gets_the_keyboard_at_the_top(docked: Any) -> None:
    for uid in ("BB000002", "BB000003", "BB000004"):
        tap_card(docked, uid)
    field, vkeyboard = open_keyboard(docked, seat=4)
    assert vkeyboard.y > 0  # the bottom would cover seat 4's field
    type_keys(vkeyboard, ["z", "o", "e"])
    assert field.text == "zoe"
    field.focus = False
    pump(2)
    field, vkeyboard = open_keyboard(docked, seat=1)  # the same keyboard, back at the bottom
    assert vkeyboard.y == 0


def test_the_layout_key_and_a_language_switch_change_the_open_keyboard(docked: Any) -> None:
    docked.set_language("ru")
    field, vkeyboard = open_keyboard(docked)
    seen = []
    for _ in CYCLE:
        tap_key(vkeyboard, {"ja": "切替"}.get(vkeyboard.layout, "\u2b12"))
        pump(2)
        seen.append(vkeyboard.layout)
        assert drawn_labels(vkeyboard) == layout_labels(vkeyboard)
    assert seen == ["ro", "ja", "qwerty", "ru"] and field.focus
    tap_key(vkeyboard, "й")
    docked.set_language("ja")  # the language button while the keyboard is open
    pump(2)
    assert vkeyboard.layout == "ja" and drawn_labels(vkeyboard) == layout_labels(vkeyboard)
    tap_key(vkeyboard, "が・ぱ")
    docked.set_language("en")  # leaves the voiced-kana mode: qwerty has none
    pump(2)
    assert vkeyboard.layout == "qwerty" and vkeyboard.layout_mode == "normal"
    assert drawn_labels(vkeyboard) == layout_labels(vkeyboard)
    tap_key(vkeyboard, "\u2a2f")  # the keyboard's close key leaves the field
    assert not field.focus
    assert field.text == "й"
