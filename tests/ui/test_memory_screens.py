"""Screens are built when shown and dropped when left (ui/touch/screens/root.py ``SCREENS``,
``RESIDENT_SCREENS``): a game shows every screen, and a screen kept after it is left holds its widgets and
label textures in memory for the rest of the game (bench/bench_memory.py measured the classic whole game's
peak at 197 MiB with every screen kept, 191 MiB with this). A screen built again shows the same view-model;
the screen under the board or the banker menu is kept (they close back to it).
"""

from __future__ import annotations

import gc
import weakref
from pathlib import Path
from typing import Any

import pytest
from fixtures.views import SCREENS as VIEWS
from ui_driver import pump, wait_for

from ui.touch import memory
from ui.touch.screens.root import GIVE_BACK_AFTER_S, RESIDENT_AFTER_S, RESIDENT_SCREENS, SCREENS

pytestmark = pytest.mark.ui


def show(app: Any, name: str) -> None:
    """Render the hand-made view of the screen ``name``."""
    app.overlay = None
    app.render(VIEWS[name]())
    pump(2)


def test_every_screen_name_has_a_class_and_the_router_names_only_those(ui_app: Any) -> None:
    from kivy.factory import Factory

    from ui.touch.screens.root import OVERLAY_SCREENS, STATE_SCREENS
    from ui.touch.screens.router import CLASSIC_SCREENS

    routed = {"standings", "auction", "dice", "debt", "card", "event", "setup", "table"}
    routed |= {screen for _, screen in CLASSIC_SCREENS} | set(STATE_SCREENS.values()) | OVERLAY_SCREENS
    assert routed <= set(SCREENS)
    assert set(RESIDENT_SCREENS) <= set(SCREENS)
    for cls in SCREENS.values():
        assert getattr(Factory, cls) is not None


def test_a_screen_left_is_dropped_and_a_resident_one_is_kept(ui_app: Any) -> None:
    sm = ui_app.root.ids.sm
    show(ui_app, "table")
    wait_for(lambda: all(sm.has_screen(name) for name in RESIDENT_SCREENS), timeout=RESIDENT_AFTER_S + 4.0)
    show(ui_app, "debt")
    assert sm.current == "debt" and sm.has_screen("debt")
    debt = weakref.ref(sm.get_screen("debt"))
    show(ui_app, "auction")
    assert not sm.has_screen("debt")  # left: dropped
    assert all(sm.has_screen(name) for name in RESIDENT_SCREENS)
    show(ui_app, "table")
    assert not sm.has_screen("auction")
    pump(2)
    memory.give_back()  # the app's full pass (the objects kept out of the automatic passes too, memory.keep)
    assert debt() is None, "the dropped debt screen is still held by something"


def test_a_screen_built_again_shows_the_same_view(ui_app: Any) -> None:
    sm = ui_app.root.ids.sm
    show(ui_app, "debt")
    first = sm.get_screen("debt")
    texts = [w.text for w in first.walk(restrict=True) if hasattr(w, "text")]
    show(ui_app, "table")
    show(ui_app, "debt")
    again = sm.get_screen("debt")
    assert again is not first
    assert [w.text for w in again.walk(restrict=True) if hasattr(w, "text")] == texts
    assert any(texts)


def test_asking_for_a_screen_builds_it_and_an_unknown_name_is_refused(ui_app: Any) -> None:
    sm = ui_app.root.ids.sm
    show(ui_app, "table")
    assert not sm.has_screen("tax")
    assert ui_app.screen("tax").name == "tax" and sm.has_screen("tax")
    assert sm.current == "table"  # built, not shown
    with pytest.raises(KeyError):
        ui_app.screen("no-such-screen")


def test_the_resident_screens_are_not_built_while_the_setup_screen_is_up() -> None:
    """The setup screen and the board together were the game's peak of memory: the resident screens are
    built only once another screen is shown (a game resumed at the table builds them at once)."""
    import subprocess
    import sys

    script = ("import os; os.environ['KIVY_NO_ARGS'] = '1'\n"
              "from ui.touch.screens import root\n"
              "from ui.touch.app import prepare_kivy\n"
              "prepare_kivy((800, 480), False)\n"
              "from kivy.clock import Clock\n"
              "from kivy.base import EventLoop\n"
              "from fixtures.views import SCREENS as VIEWS\n"
              "app = root.BoardBankApp(lang='en')\n"
              "seen = []\n"
              "def look(dt):\n"
              "    app.render(VIEWS['setup']()); [EventLoop.idle() for _ in range(3)]\n"
              "    seen.append(sorted(app.root.ids.sm.screen_names)); app.stop()\n"
              "Clock.schedule_once(look, 0.3)\n"
              "app.run()\n"
              "print(seen)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=True,
                         cwd=Path(__file__).resolve().parent)
    assert out.stdout.strip().splitlines()[-1] == "[['setup']]", out.stdout[-500:] + out.stderr[-500:]


def test_the_screen_under_the_board_or_the_menu_is_kept(ui_app: Any) -> None:
    """The board and the banker menu open on top of the banker's screen and close back to it: what is
    under them is not built again (the setup screen takes 70-150 ms to build)."""
    sm = ui_app.root.ids.sm
    show(ui_app, "debt")
    under = sm.get_screen("debt")
    ui_app.show_screen("board")
    pump(1)
    assert sm.current == "board" and sm.has_screen("debt")
    show(ui_app, "menu")
    assert sm.current == "menu" and sm.get_screen("debt") is under
    show(ui_app, "debt")
    assert sm.get_screen("debt") is under
    assert not sm.has_screen("menu")  # the menu itself is dropped once the banker's screen is back



def test_a_dropped_screen_is_freed_once_the_next_frame_is_drawn(ui_app: Any) -> None:
    """The screens left go with the short pass right after the frame that shows the next one, not 0.3 s
    later: a game of quick taps held several dropped screens at once (bench/bench_memory.py's classic game,
    about 1.5 MiB of its peak)."""
    sm = ui_app.root.ids.sm
    show(ui_app, "table")
    wait_for(lambda: all(sm.has_screen(name) for name in RESIDENT_SCREENS), timeout=RESIDENT_AFTER_S + 4.0)
    show(ui_app, "debt")
    debt = weakref.ref(sm.get_screen("debt"))
    gc.disable()  # only the app's own pass may free it
    try:
        show(ui_app, "table")  # two frames
        assert debt() is None, "the dropped debt screen waits for a later pass"
    finally:
        gc.enable()

def test_the_setup_screen_is_freed_once_left_after_a_name_was_typed(ui_app: Any) -> None:
    """A name field scrolls its text to the cursor through Kivy's TextInput._adjust_viewport, a trigger
    shared by every text field that keeps its last arguments: it held the last field typed in, and with it
    the whole setup screen (~7 MiB at 800x480), for the rest of the game. Our fields have their own. And
    Kivy's transition keeps the screen it moved out: let go once the screen is dropped."""
    from ui.touch.widgets.setup_parts import NameInput

    sm = ui_app.root.ids.sm
    show(ui_app, "setup")
    field = next(w for w in sm.get_screen("setup").walk(restrict=True) if isinstance(w, NameInput))
    field.text = "Ana"
    field.cursor = (3, 0)  # what typing does: the viewport follows the cursor
    pump(2)
    setup = weakref.ref(sm.get_screen("setup"))
    del field
    show(ui_app, "table")
    wait_for(lambda: gc.collect() >= 0 and setup() is None, timeout=GIVE_BACK_AFTER_S + 4.0)


def test_setup_rows_are_freed_before_the_next_screen_is_built(ui_app: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaving setup (the game starts), its seat and option rows are dropped before the table is built: the
    two screens are never in memory together (the classic game's peak, bench/bench_memory.py: 105 MiB
    without the renderer's mappings with both, 102-103 MiB without)."""
    from kivy.factory import Factory

    sm = ui_app.root.ids.sm
    for name in [n for n in SCREENS if n != "setup" and sm.has_screen(n)]:
        sm.remove_widget(sm.get_screen(name))
    show(ui_app, "setup")
    setup = sm.get_screen("setup")
    assert setup.option_rows and setup.game_choice is not None
    rows = [weakref.ref(row) for row in setup.option_rows.values()]
    seen: dict[str, Any] = {}
    table_class = getattr(Factory, SCREENS["table"])

    def built(**kwargs: Any) -> Any:
        gc.collect()
        seen["rows_alive"] = sum(ref() is not None for ref in rows)
        return table_class(**kwargs)

    monkeypatch.setattr(Factory, SCREENS["table"], built)
    show(ui_app, "table")
    assert sm.current == "table" and seen == {"rows_alive": 0}
    show(ui_app, "setup")  # a new game: the setup screen shows its rows again
    assert sm.get_screen("setup").option_rows and sm.get_screen("setup").game_choice is not None


def test_the_setup_screen_itself_is_freed_before_the_table_is_built_though_kept(ui_app: Any,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The app keeps its heap out of the collector's way at start (memory.Keeper.keep), the setup screen with
    it: once left, the screen itself (not only its rows) is gone before the table is built, without waiting
    for a quiet table (a game of quick taps never gave one: bench/bench_memory.py's classic game kept it)."""
    from kivy.factory import Factory

    sm = ui_app.root.ids.sm
    for name in [n for n in SCREENS if n != "setup" and sm.has_screen(n)]:
        sm.remove_widget(sm.get_screen(name))
    show(ui_app, "setup")
    setup = weakref.ref(sm.get_screen("setup"))
    ui_app.keeper.keep(sm.screen_names)  # as at start: the setup screen kept with the rest
    seen: dict[str, Any] = {}
    table_class = getattr(Factory, SCREENS["table"])

    def built(**kwargs: Any) -> Any:
        seen["setup_alive"] = setup() is not None
        return table_class(**kwargs)

    monkeypatch.setattr(Factory, SCREENS["table"], built)
    try:
        show(ui_app, "table")
    finally:
        gc.unfreeze()
    assert sm.current == "table" and seen == {"setup_alive": False}
    assert not sm.has_screen("setup")
    show(ui_app, "setup")  # a new game: the setup screen is built again
    assert sm.current == "setup" and sm.get_screen("setup").option_rows


def test_the_resident_screens_are_built_just_after_the_first_frame_of_the_table(ui_app: Any) -> None:
    """Not at a fixed time later, where it fell on the family's taps (bench/bench_ui.py: 60-140 ms late)."""
    sm = ui_app.root.ids.sm
    show(ui_app, "debt")
    if sm.has_screen("board"):
        sm.remove_widget(sm.get_screen("board"))
    ui_app._residents_due = False  # as in a fresh app: the first screen other than setup is still to come
    ui_app.overlay = None
    ui_app.render(VIEWS["table"]())
    assert not sm.has_screen("board")  # not with the table's own frame...
    pump(3)
    assert sm.has_screen("board")  # ...but in the frames right after it
