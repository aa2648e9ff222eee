"""The touch player: a whole game of a tap script played on the running app by touches alone.

Every step that a family does with a finger is found on the screen as drawn (tests/ui/touch_player.py: live,
enabled, not covered) and touched by :class:`~touch_player.Finger`: the tray's cards, the action buttons (a table
group opened first), the auction's raises, the answers of an event card, a Chance card, the dice pad or the dice
totals, the build and debt screens' deeds, the trade's cash keypad, the setup's colour chips and option steppers
(its pages turned), Count it's "Ann counts" toggles and the question screen's keypad and Skip (each question
answered by the next of :attr:`TouchGame.policies`). Names are typed on a keyboard into a field focused by a touch. Enrolling the script's cards is
the box's setup, not a touch. A card off the tray's row, or an option below the setup's fold, is scrolled into
sight in code (a swipe through software GL's slow frames costs ~2 s; tests/ui/test_xwindow.py swipes the real one).
The banker's clock follows the frame clock (the countdowns redraw the screens as they do for a family); a ``wait``
step moves it on at once. The player also records every kind of live button each screen showed, and which kinds it
touched (:attr:`TouchGame.seen`, :attr:`TouchGame.touched`).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from touch_player import Finger, _parents, aim, live_buttons, run_frames, run_until, shown, start_mouse

from engine.banker.tapscript import Alias, Card, Choose, Expect, Press, Tap, Wait, check_expectation

STEP_TIMEOUT_S = 20.0
"""Seconds a step may take before the game fails (a loaded two-core machine)."""
POLICIES = ("right", "wrong_right", "wrong_wrong", "skip", "timeout")
"""How a Count it question is answered, in turn: right; wrong then right; wrong twice (the answer shown);
Skip; left until the timeout."""


def app_marker(app: Any) -> object:
    """What changes when the app reacts to a touch: the banker's last reaction (its time), the cards the
    reader handed over, the screen, overlay, language, focus and toast."""
    controller = app.controller
    screen = app.root.ids.sm.current_screen
    focus = tuple(id(w) for w in screen.walk() if getattr(w, "focus", False)) if screen.name == "setup" else ()
    return (getattr(controller, "last_input", None), getattr(controller, "handled", None), app.root.ids.sm.current,
            app.overlay, app.lang, focus, app.root.ids.toast.text)


def kind_of(app: Any, widget: Any) -> str:
    """A button's kind: the screen (or bar, tray) and what it does, without the values it carries."""
    from ui.touch.widgets.tray import CardButton

    widget = widget.__self__
    if isinstance(widget, CardButton):
        role = app.session.registry.lookup(widget.card_uid) if widget.card_uid else None
        return f"tray:{role[0] if role else 'blank'}"
    for name in ("lang_button", "board_button", "menu_button"):
        if app.root.ids[name].__self__ is widget:
            return f"bar:{name}"
    screen = app.root.ids.sm.current
    trigger = getattr(widget, "trigger", "")
    if trigger:
        return f"{screen}:{trigger.partition(':')[0] if trigger.startswith('group:') else trigger}"
    ids = app.screen(screen).ids
    named = next((n for n, w in ids.items() if w.__self__ is widget), None)
    return f"{screen}:{named or type(widget).__name__}"


class TouchGame:
    """Plays tap-script steps on ``app`` by touches (``seed``: the finger's moments, holds and drift)."""

    def __init__(self, app: Any, seed: int) -> None:
        from kivy.clock import Clock

        start_mouse()
        self.app = app
        self.finger = Finger(random.Random(seed), marker=lambda: app_marker(app))
        self.seen: dict[str, set[str]] = defaultdict(set)  # screen -> kinds of live buttons shown
        self.touched: set[str] = set()
        self.screens: set[str] = set()
        self.last_error: str | None = None
        self.policies: Iterator[str] | None = None  # count it: how each question is answered (POLICIES)
        self.answered: list[tuple[str, str]] = []  # (the question's rule, the policy it was answered by)
        self._clock = Clock.schedule_interval(self._follow, 0)

    def _follow(self, dt: float) -> None:
        """The banker's clock moves with the frames' (a family's seconds)."""
        clock = getattr(self.app, "test_clock", None)
        if clock is not None:
            clock.advance(dt)

    def close(self) -> None:
        self._clock.cancel()

    # -- looking ------------------------------------------------------------------------------------
    def look(self) -> list[Any]:
        """The live buttons now; their kinds are recorded as seen on the current screen."""
        buttons = live_buttons()
        screen = self.app.root.ids.sm.current
        self.screens.add(screen)
        self.seen[screen].update(kind_of(self.app, b) for b in buttons)
        return buttons

    def touch(self, widget: Any, local: bool = False) -> None:
        """Touch a live button (after the 0.6 s in which the app drops a press meant for a screen the clock
        just closed, as a person's eyes need too) and record its kind."""
        controller = self.app.controller
        run_until(lambda: controller is None or not controller.swallowed(), 2.0, "the swallow time")
        kind = kind_of(self.app, widget)
        self.touched.add(kind)
        self.finger.touch(widget, kind, local=local)

    def find(self, test: Any, what: str, timeout: float = 3.0) -> Any:
        """The first live button ``test(button)`` accepts, waiting frames for it (AssertionError: none)."""
        found: list[Any] = []

        def ready() -> bool:
            found[:] = [b for b in self.look() if test(b)]
            return bool(found)

        try:
            if not ready():
                run_until(ready, timeout, what)
        except AssertionError:
            live = [f"{kind_of(self.app, b)} {getattr(b, 'text', '')!r}" for b in self.look()]
            raise AssertionError(f"no live button for {what} on the {self.app.root.ids.sm.current} screen; "
                                 f"live: {live}") from None
        return found[0]

    # -- the steps ----------------------------------------------------------------------------------
    def play(self, step: Any) -> None:
        """One tap-script step done as a family does it."""
        app = self.app
        if isinstance(step, Alias):
            return
        if isinstance(step, Card):
            app.session.registry.enroll(step.uid, step.kind, step.value, replace=True)
            app.render(app.controller.view)
            run_frames(1)
            return
        if isinstance(step, Expect):
            check_expectation(step, app.session.banker.view, self.last_error)
            return
        if isinstance(step, Wait):
            app.test_clock.advance(step.seconds)
            app._tick(0.0)
            run_frames(2)
            return
        before = app.controller.last_reaction
        if isinstance(step, Tap):
            self.tap_card(step.uid)
            run_until(lambda: app.controller.last_reaction is not before, STEP_TIMEOUT_S, f"the tap of {step.uid}")
        elif isinstance(step, Press):
            self.press(step.button, step.value)
        elif isinstance(step, Choose):
            self.choose(step.value)
        elif isinstance(step, tuple) and step[0] == "touch":
            self.touch_deed(int(step[1]))
        reaction = app.controller.last_reaction
        self.last_error = reaction.error if reaction is not None else None
        while self.policies is not None and app.controller.view.question is not None:
            self.answer_question(next(self.policies))

    # -- count it -----------------------------------------------------------------------------------
    def answer_question(self, policy: str) -> None:
        """Answer the question on the screen by ``policy`` (:data:`POLICIES`) on its keypad, Skip or the
        clock, and wait until it has ended."""
        app = self.app
        run_until(lambda: app.root.ids.sm.current == "question", STEP_TIMEOUT_S, "the question screen")
        q = app.controller.view.question
        self.answered.append((q.rule, policy))
        if policy == "skip":
            self.touch(self.find(lambda b: getattr(b, "trigger", "") == "press_skip", "Skip"))
        elif policy == "timeout":
            app.test_clock.advance(app.session.banker.ctx.timeout_s + 1)
            app._tick(0.0)
        else:
            first = {"right": q.amount, "wrong_right": q.amount + 1, "wrong_wrong": q.amount + 1}[policy]
            self.type_answer(first)
            if policy != "right":
                run_until(lambda: app.controller.view.question is None or app.controller.view.question.tries == 1,
                          STEP_TIMEOUT_S, "the hint")
                self.type_answer(q.amount if policy == "wrong_right" else q.amount + 2)
        run_until(lambda: app.controller.view.question is None or (app.controller.view.question != q and
                  app.controller.view.question.tries == 0), STEP_TIMEOUT_S, f"the question answered ({policy})")

    def type_answer(self, amount: int) -> None:
        """``amount`` typed on the question screen's keypad, then its OK."""
        screen = self.app.screen("question")
        grid = screen.ids.keypad.ids.grid
        for digit in str(amount):
            self.touch(next(k for k in grid.children if k.text == digit))
        self.touch(screen.ids.keypad.ok_button())

    def set_counters(self, raw: str) -> None:
        """Touch the setup's "counts" toggles until the seats of ``raw`` (``1,3``) count, and only they."""
        setup = self.app.screen("setup")
        wanted = {int(s) for s in raw.split(",") if s.strip()}
        for _ in range(20):
            chosen = set(setup.counting_seats(self.app.presenter))
            if chosen == wanted:
                return
            seat = min(chosen ^ wanted)
            self.touch(self.in_sight(setup.count_row(seat).toggle))
        raise AssertionError(f"the counters never became {raw}")

    def tap_card(self, card_uid: str) -> None:
        """Bring the card into sight on the tray and touch it. The row is scrolled in code (where a swipe
        leaves it): swipes through software GL's slow frames cost ~2 s each, a whole game minutes."""
        tray = self.app.root.ids.tray
        assert card_uid in tray.uids(), f"card {card_uid} is not on the tray"
        if self.app.root.ids.sm.current == "board":  # the tray steps aside for the board: back to the table
            board = self.app.screen("board").ids.back.__self__
            self.touch(self.find(lambda b: b is board, "the board's back button"))
        button = tray.button_for(card_uid)
        if button is None or not shown(button) or aim(button) is None:
            tray.scroll_to_card(card_uid)
            run_until(lambda: tray.button_for(card_uid) is not None and aim(tray.button_for(card_uid)) is not None,
                      3.0, f"card {card_uid} in sight")
        self.touch(tray.button_for(card_uid))

    def press(self, button: str, value: str | None) -> None:
        """Touch the button that sends ``press_<button>`` (its table group opened first)."""
        app = self.app
        screen = app.root.ids.sm.current_screen
        if button == "bid":
            widget = screen.ids.bid_large if value == "100" else screen.ids.bid_small
        elif button == "menu":
            widget = app.root.ids.menu_button
        else:
            group = screen.group_of(f"press_{button}") if hasattr(screen, "group_of") else None
            if group is not None and screen.ids.actions.button_for(f"press_{button}") is None:
                self.touch(self.find(lambda b: getattr(b, "trigger", "") == f"group:{group}", f"group {group}"))
            widget = self.find(lambda b: getattr(b, "trigger", "") == f"press_{button}", f"press_{button}")
        self.touch(widget)

    def choose(self, value: str) -> None:
        """An answer: on setup a name, a colour or an option; the trade's cash; else the button carrying it."""
        app = self.app
        current = app.root.ids.sm.current
        kind, _, rest = value.partition("=")
        if current == "setup" and kind in ("name", "token", "option", "count"):
            if kind == "count":
                self.set_counters(rest)
            elif kind == "option":
                self.set_option(*rest.split(":", 1))
            elif kind == "token":
                seat, _, colour = rest.partition(":")
                self.touch(app.screen("setup").seat_rows[int(seat)].chip_for(colour))
            else:
                seat, _, text = rest.partition(":")
                self.type_name(app.screen("setup").seat_rows[int(seat)].name_input, text)
            return
        if kind == "cash" and current == "trade":
            self.trade_cash(rest)
            return
        if not any(getattr(b, "value", None) == value for b in self.look()) and current == "table":
            self.touch(app.root.ids.board_button)  # the dice pad is on the board
        self.touch(self.find(lambda b: getattr(b, "value", None) == value, f"the answer {value!r}"))

    def set_option(self, name: str, wanted: str) -> None:
        """Turn the setup's option pages to ``name`` and touch its toggle or stepper until it shows ``wanted``."""
        from ui.touch.screens.setup import OPTIONS_PER_PAGE

        def value() -> str:
            raw = dict(self.app.presenter.view.options).get(name)
            return ("on" if raw else "off") if isinstance(raw, bool) else str(raw)

        if value() == wanted:  # already so (the command line's --option): nothing to touch
            return
        setup = self.app.screen("setup")
        for _ in range(12):
            row = setup.option_rows.get(name)
            if row is not None and row.parent is not None:
                break
            index, page = setup.option_names.index(name), setup.option_page
            self.touch(self.in_sight(setup.pager.forward if index // OPTIONS_PER_PAGE > page else setup.pager.back))
        else:
            raise AssertionError(f"the setup never showed option {name}")

        for _ in range(200):
            if value() == wanted:
                return
            button = row.toggle if row.toggle is not None else row.plus if int(wanted) > int(value()) else row.minus
            self.touch(self.in_sight(button))
        raise AssertionError(f"option {name} never reached {wanted}")

    def in_sight(self, widget: Any) -> Any:
        """``widget``, its scroll view scrolled (in code, as for the tray) until a touch can reach it."""
        from kivy.uix.scrollview import ScrollView

        view = next((p for p in _parents(widget) if isinstance(p, ScrollView)), None)
        if view is not None and aim(widget) is None:
            view.scroll_to(widget, animate=False)
            run_until(lambda: aim(widget) is not None, 3.0, f"{widget} in sight")
        return widget

    def type_name(self, field: Any, text: str) -> None:
        """Focus the name field with a touch, clear it and type ``text`` on the keyboard, then Enter."""
        from kivy.core.window import Window

        if not field.focus:
            self.finger.touch(field, "setup:name", events=("focus",))
            self.touched.add("setup:name")
        field.cursor = (len(field.text), 0)
        for _ in range(len(field.text)):
            Window.dispatch("on_key_down", 8, 42, None, [])  # backspace
            Window.dispatch("on_key_up", 8, 42)
        Window.dispatch("on_textinput", text)
        run_frames(1)
        Window.dispatch("on_key_down", 13, 40, "\r", [])  # Enter
        Window.dispatch("on_key_up", 13, 40)
        run_frames(2)

    def trade_cash(self, rest: str) -> None:
        """The cash of one side of the deal, on the trade's keypad."""
        seat, _, amount = rest.partition(":")
        screen = self.app.screen("trade")
        trade = self.app.presenter.view.trade
        index = 0 if trade.first.player == f"p{seat}" else 1
        self.touch((screen.ids.cash_left, screen.ids.cash_right)[index], local=True)  # may be the side already
        grid = screen.ids.keypad.ids.grid
        for digit in amount:
            self.touch(next(k for k in grid.children if k.text == digit))
        self.touch(screen.ids.keypad.ok_button())

    def touch_deed(self, deed: int) -> None:
        """A deed's button on the build or debt screen."""
        self.touch(self.find(lambda b: int(getattr(b, "deed", 0) or 0) == deed, f"deed {deed}"))
