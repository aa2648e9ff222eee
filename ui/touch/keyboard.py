"""The docked on-screen keyboard (the kiosk's ``keyboard_mode = dock``): a layout per UI language.

Kivy ships Latin layouts only, so ``ui/keyboards/`` holds ours: ``ru`` (ЙЦУКЕН with ё), ``ro`` (QWERTY with
ă â î ș ț) and ``ja`` (hiragana in the gojūon grid, a vowel per row; katakana on shift or カナ; が・ぱ gives
the next kana its dakuten or handakuten). English keeps Kivy's ``qwerty``.

:func:`install` makes the window build :class:`BoardBankVKeyboard` when a field asks for the keyboard; it
opens in the layout of the current language, :func:`use_language` follows the app's language switches, and
the keyboard's layout key cycles through :data:`CYCLE`. Docked, it spans the window's width at the bottom,
or at the top while the field being typed in is low on the screen, so the field stays in view. (Kivy's
``softinput_mode = "below_target"`` does not work with a docked keyboard: it places the keyboard by the
field's y inside its parent, e.g. a ScrollView, mostly below the window, and pans the window only after a
resize.) The JSON format is Kivy's
(``kivy/data/keyboards/*.json``): every mode's row must have the same keys' widths as the normal row.
"""

from __future__ import annotations

import weakref
from pathlib import Path
from typing import Any

from kivy.uix.vkeyboard import VKeyboard

from ui.touch import fonts

KEYBOARD_DIR = Path(__file__).with_name("keyboards")
"""Our layouts, ``<name>.json``."""
LAYOUTS: dict[str, str] = {"en": "qwerty", "ru": "ru", "ro": "ro", "ja": "ja"}
"""The layout each UI language opens the keyboard in."""
CYCLE: tuple[str, ...] = ("qwerty", "ru", "ro", "ja")
"""The order the layout key goes through."""
CJK_LAYOUTS = frozenset({"ja"})
"""Layouts whose keys need the CJK font."""
KEY_FONT = "data/fonts/DejaVuSans.ttf"
"""Kivy's key font (Latin, Cyrillic, Romanian, the key symbols ⌫ ⏎ ⇧ ⇪)."""

_state: dict[str, str] = {"lang": "en"}
_keyboards: weakref.WeakSet[Any] = weakref.WeakSet()


def layout_for(lang: str) -> str:
    """The layout name of UI language ``lang`` (``qwerty`` for a language without one of ours)."""
    return LAYOUTS.get(lang, "qwerty")


def layout_path(name: str) -> Path | None:
    """The JSON file of our layout ``name``; None for Kivy's own (``qwerty``)."""
    path = KEYBOARD_DIR / f"{name}.json"
    return path if path.is_file() else None


def font_for_layout(name: str) -> str:
    """The font the keys of layout ``name`` are drawn with: the CJK font for kana (when one is installed)."""
    if name in CJK_LAYOUTS and fonts.register_fonts() is not None:
        return fonts.CJK_FONT
    return KEY_FONT


def next_layout(current: str) -> str:
    """The layout after ``current`` in :data:`CYCLE` (the first one for a layout not in it)."""
    if current not in CYCLE:
        return CYCLE[0]
    return CYCLE[(CYCLE.index(current) + 1) % len(CYCLE)]


def show_layout(vkeyboard: Any, name: str) -> None:
    """Switch ``vkeyboard`` to layout ``name`` with its key font; it is redrawn on the next frame."""
    if vkeyboard.layout_path != str(KEYBOARD_DIR):
        vkeyboard.layout_path = str(KEYBOARD_DIR)  # adds ours to available_layouts, beside Kivy's
    if vkeyboard.have_special or vkeyboard.layout_mode == "special":
        # only ja has special (voiced kana) rows: leave that mode before another layout is drawn in it
        vkeyboard.have_special = False
        vkeyboard.layout_mode = "shift" if vkeyboard.have_shift != vkeyboard.have_capslock else "normal"
    vkeyboard.font_name = font_for_layout(name)
    vkeyboard.layout = name


def configure(vkeyboard: Any, lang: str) -> str:
    """Give ``vkeyboard`` (a VKeyboard, e.g. ``Window.request_keyboard(...).widget``) our layouts and show
    the layout of ``lang``; returns the layout name."""
    name = layout_for(lang)
    show_layout(vkeyboard, name)
    return name


def use_language(lang: str) -> None:
    """Open keyboards in ``lang``'s layout from now on, and switch the keyboards already made."""
    _state["lang"] = lang
    for vkeyboard in list(_keyboards):
        configure(vkeyboard, lang)


def install(lang: str) -> None:
    """Make the window's on-screen keyboard a :class:`BoardBankVKeyboard` in ``lang``'s layout (used when
    Kivy's ``keyboard_mode`` allows a virtual keyboard: dock on the kiosk)."""
    from kivy.core.window import Window

    Window.set_vkeyboard_class(BoardBankVKeyboard)
    use_language(lang)


class BoardBankVKeyboard(VKeyboard):
    """Kivy's VKeyboard with our layouts: it follows the UI language, its layout key goes to the next
    layout, and its が・ぱ key (``special``) toggles on a tap and voices one kana (a touch screen typed with one
    finger cannot hold a key while tapping another)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        _keyboards.add(self)
        configure(self, _state["lang"])

    def setup_mode_dock(self, *largs: Any) -> None:
        """Docked: no moving, rotating or scaling by touch; across the window's width, clear of the field."""
        self.do_translation = False
        self.do_rotation = False
        self.do_scale = False
        self.rotation = 0
        win = self.get_parent_window()
        if win is None:
            return
        win.funbind("on_resize", self._dock)
        win.fbind("on_resize", self._dock)
        self._dock(win)

    def _dock(self, win: Any, *_: Any) -> None:
        if not self.docked or self.parent is None:
            return
        self.scale = win.width / float(self.width)
        height = self.height * self.scale
        y = 0.0
        target = self.target
        if target is not None and target.get_root_window() is not None:
            bottom = target.to_window(target.x, target.y)[1]
            if bottom < height:  # the keyboard would cover the field: dock at the top instead
                y = win.height - height
        self.pos = (0, y)

    def change_layout(self) -> None:
        """The layout key: the next layout of :data:`CYCLE`."""
        show_layout(self, next_layout(self.layout))

    def process_key_on(self, touch: Any) -> None:
        voiced = self.have_special
        super().process_key_on(touch)
        pressed = touch.ud.get(self.uid, {}).get("key") if touch is not None else None
        if pressed is None:
            return
        (_label, text, code, _width), _where = pressed
        if code == "special":
            self.have_special = not voiced
        elif voiced and text is not None:
            self.have_special = False  # one voiced kana, then plain kana again

    def process_key_up(self, touch: Any) -> None:
        voiced = self.have_special
        super().process_key_up(touch)
        self.have_special = voiced  # Kivy drops ``special`` when its key is released; ours toggles
