"""A touch meant for a screen the clock just closed is never delivered to the screen underneath, and every
touch restarts the banker's gesture timeout (docs/flows.md, "Nothing is taken from under the family's
hands")."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.banker.viewmodel import ViewModel
from ui.touch.screens import router
from ui.touch.screens.router import Controller


@dataclass
class _Reaction:
    view: ViewModel
    cues: tuple[str, ...] = ()
    error: str | None = None


@dataclass
class FakeBanker:
    """The dice screen (a utility's keypad) until a tick closes it; records what reaches it."""

    view: ViewModel = field(default_factory=lambda: ViewModel(state="dice", edition="classic-us", currency="M"))
    pressed: list[str] = field(default_factory=list)
    touches: int = 0

    def tap(self, uid: str) -> Any:
        return _Reaction(self.view)

    def press(self, button: str, value: str | None = None) -> Any:
        self.pressed.append(button)
        return _Reaction(self.view)

    def choose(self, value: str) -> Any:
        self.pressed.append(f"choose {value}")
        return _Reaction(self.view)

    def tick(self) -> Any:
        self.view = ViewModel(state="idle", edition="classic-us", currency="M")  # the timeout closed it
        return _Reaction(self.view)

    def touch(self) -> Any:
        self.touches += 1
        return _Reaction(self.view)

    def may(self, trigger: str) -> bool:
        return True


def test_a_press_right_after_the_clock_closed_the_screen_is_dropped(monkeypatch: Any) -> None:
    now = [100.0]
    monkeypatch.setattr(router.time, "monotonic", lambda: now[0])
    banker = FakeBanker()
    controller = Controller(banker, lambda r: None, lambda fn: fn())
    assert router.screen_for(banker.view) == "dice"
    controller.tick()  # the screen changed under the family's finger
    now[0] += 0.2
    assert controller.press("luxury_tax") is None and controller.choose("7") is None
    assert banker.pressed == []
    now[0] += router.SWALLOW_S
    controller.press("end_turn")
    assert banker.pressed == ["end_turn"]


def test_every_touch_restarts_the_banker_timeout() -> None:
    banker = FakeBanker()
    controller = Controller(banker, lambda r: None, lambda fn: fn())
    controller.touch()
    controller.touch()
    assert banker.touches == 2
