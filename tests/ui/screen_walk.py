"""One walk of every screen per language and look, shared by the checks that read it.

test_screens_fit (labels fit, nothing cut or overlapping) and test_legible (no text below 16 px, no touch
target below 48 px) look at the same screens in the same languages and looks. Rendering them is what takes
the time, so each (language, look) is walked once per test session. The walk renders every screen of
``fixtures.views.SCREENS`` and the eight-player screens at 800x480. For each it notes everything the
checks look for: the layout problems and a screenshot for the screens of ``SCREENS``, and small text and
small targets for all of them. Each test then asserts its own part. The checkers are here too, with the
sizes they hold the screens to.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from fixtures.views import SCREENS, many_players_screens
from layout import _visible, problems
from looks import look, refit_all
from ui_driver import SHOTS, SIZE, pump, screenshot

MIN_PX = 16.0
"""The smallest text a player reads, in pixels of the 800x480 screen."""
BOARD_MIN_PX = 14.0
"""The smallest square name and board mark (a side square of the 40-square board is about 30 px tall)."""
TARGET_PX = 48.0
"""The smallest height of anything a finger presses (about 9 mm on the 7-inch panel)."""
KEY_PX = (64.0, 48.0)
"""The smallest keypad key, width x height."""


@dataclass(frozen=True)
class Seen:
    """What the checks found on one screen: layout problems (``None`` for a screen the fit check does not
    walk, the eight-player ones), small text and marks, small touch targets."""

    layout: tuple[str, ...] | None
    small_text: tuple[str, ...]
    small_targets: tuple[str, ...]


_WALKS: dict[tuple[str, str], dict[str, Seen]] = {}


def show(app: Any, name: str, build: Any = None) -> None:
    """Render the hand-made view of screen ``name`` (``build``, else ``SCREENS[name]``; the board as the
    user's overlay)."""
    app.overlay = None
    view = (build or SCREENS[name])()
    app.render(view)
    app.presenter.changes = {}  # no balance changes carried over from a game an earlier test played
    app.render(view)
    if name.startswith(("board", "classic_board")):
        app.show_screen("board")
    pump(3)
    from ui.touch.widgets import palette

    if palette.TEXT_SCALE != 1.0:
        refit_all(app.root)
        pump(2)


def walk(app: Any, lang: str, look_name: str) -> dict[str, Seen]:
    """Every screen in ``lang`` and look ``look_name``, walked once per session: screen name -> what the
    checks found. The screenshots land in ``out/screenshots/<lang>/`` (the standard look) or
    ``out/screenshots/<look>/<lang>/``."""
    key = (lang, look_name)
    found = _WALKS.get(key)
    if found is not None:
        return found
    found = {}
    shots = SHOTS / lang if look_name == "standard" else SHOTS / look_name / lang
    app.set_language(lang)
    try:
        with look(look_name):
            for name, build in {**SCREENS, **many_players_screens()}.items():
                show(app, name, build)
                layout = None
                if name in SCREENS:
                    screenshot(shots / f"{name}.png")
                    layout = tuple(problems(app.root, SIZE))
                found[name] = Seen(layout, tuple(small_things(app.root)), tuple(small_targets(app.root)))
    finally:
        app.set_language("en")
    _WALKS[key] = found
    return found


def small_things(root: Any) -> list[str]:
    """Every visible label drawn below :data:`MIN_PX` and every board mark smaller than it."""
    from kivy.uix.label import Label

    from ui.touch.widgets.board import CellLabel, SpaceCell, TokenDot
    from ui.touch.widgets.tray import CardTray

    found = []
    for widget in root.walk(restrict=True):
        if not _visible(widget) or _inside(widget, CardTray):  # the tray stands in for the physical cards
            continue
        floor = BOARD_MIN_PX if isinstance(widget, CellLabel | TokenDot) else MIN_PX
        if isinstance(widget, Label) and widget.text.strip() and widget.font_size < floor - 0.05:
            found.append(f"{type(widget).__name__}({widget.text!r}) at {widget.font_size:.1f} px")
        if isinstance(widget, SpaceCell):
            for kind, w, h in widget.marks():
                if min(w, h) < BOARD_MIN_PX - 0.05:
                    found.append(f"space {widget.position}: {kind} mark {w:.0f}x{h:.0f} px")
    return found


def small_targets(root: Any) -> list[str]:
    """Every visible touch target under :data:`TARGET_PX` high and every keypad key under :data:`KEY_PX`.

    Not counted: the board's squares (the board is drawn as the board; a deed is looked at by tapping its card)
    and the card tray, which stands in for the physical cards on the mock reader."""
    from kivy.uix.behaviors import ButtonBehavior

    from ui.touch.widgets.board import SpaceCell
    from ui.touch.widgets.keypad import Keypad
    from ui.touch.widgets.tray import CardTray

    found = []
    for widget in root.walk(restrict=True):
        if not isinstance(widget, ButtonBehavior) or isinstance(widget, SpaceCell) or not _visible(widget):
            continue
        if _inside(widget, CardTray):
            continue
        text = getattr(widget, "text", "")
        if _inside(widget, Keypad) and widget.size_hint_y is not None:  # a key of the grid (OK is a row)
            if widget.width < KEY_PX[0] - 0.5 or widget.height < KEY_PX[1] - 0.5:
                found.append(f"keypad key {text!r} {widget.width:.0f}x{widget.height:.0f} px")
        elif widget.height < TARGET_PX - 0.5:
            found.append(f"{type(widget).__name__}({text!r}) {widget.height:.0f} px high")
    return found


def _inside(widget: Any, kind: type) -> bool:
    w = widget.parent
    while w is not None and w is not w.parent:
        if isinstance(w, kind):
            return True
        w = w.parent
    return False
