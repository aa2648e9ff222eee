"""The Kivy application: the root layout (status bar, screens, card tray), language switching, sounds,
and the loop that sends actions to the banker and re-renders the screen after every reaction.

Reader events reach the banker only on the main thread (:class:`~ui.touch.screens.router.Controller` hands
them over with ``Clock.schedule_once``); the banker is ticked every :data:`TICK_S` seconds.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.label import Label

from engine.banker.viewmodel import ViewModel
from ui.cardrecord import card_resolver
from ui.countit import counted_notice
from ui.i18n import LANGUAGES, Translator
from ui.touch import fonts, frames, keyboard, memory
from ui.touch.screens.cards import CardsMixin
from ui.touch.screens.enrol import Enrolment, enrol_mock_deck
from ui.touch.screens.looks import LooksMixin
from ui.touch.screens.prefs import PrefsMixin
from ui.touch.screens.present import Presenter
from ui.touch.screens.router import Controller, screen_for
from ui.touch.screens.telling import TellingMixin
from ui.touch.screens.toast import ToastMixin
from ui.touch.sounds import CUES, SoundBoard
from ui.touch.widgets import paced, palette

log = logging.getLogger(__name__)
GIVE_BACK_AFTER_S = 0.0  # seconds after a screen is dropped that its memory is given back (ui/touch/memory.py);
# 0: Kivy's clock calls it once the next frame is drawn (0.3 s let a game of quick taps hold several)
TICK_S = 0.1  # seconds between banker ticks (gesture timeouts, the auction countdown)
STATE_SCREENS: dict[str, str] = {"pin": "menu", "menu": "menu", "settings": "menu"}
"""Banker states shown by a screen of their own (the PIN prompt and the banker menu)."""
OVERLAY_SCREENS = frozenset({"board"})
"""Screens the user opens on top of the banker's screen (the banker does not choose them)."""
SCREENS: dict[str, str] = {
    "setup": "SetupScreen", "table": "TableScreen", "board": "BoardScreen", "event": "EventScreen",
    "auction": "AuctionScreen", "debt": "DebtScreen", "standings": "StandingsScreen", "menu": "MenuScreen",
    "build": "BuildScreen", "mortgage": "MortgageScreen", "trade": "TradeScreen", "card": "CardScreen",
    "tax": "TaxScreen", "dice": "DiceScreen", "question": "QuestionScreen"}
"""Every screen: its name and its class (kv rule). A screen is built when it is first shown."""
RESIDENT_SCREENS: tuple[str, ...] = ("table", "board")
"""Screens kept once built: the one a turn goes back to, and the board players open from it (built in 70-290
ms here, too slow to build at each opening). Any other screen is dropped once a banker screen replaces it and
built again when next shown: its widgets and textures leave memory (bench/bench_memory.py; it shows a view)."""
RESIDENT_AFTER_S = 0
"""The resident screens are built (and the heap kept) just after the first frame of the first screen other than
setup (setup's rows are gone by then: ``Keeper.release``): as the table appears after Start, or at start-up,
never at a fixed time later, when it landed on the family's taps (60-140 ms late, bench/bench_ui.py)."""
ON_TOP_SCREENS = OVERLAY_SCREENS | {"menu"}
"""Screens opened on top of the banker's screen and closed back to it: the screen under them is kept."""

DESIGN_SIZE = (800, 480)
"""The screen the layout is drawn for (the 7-inch Raspberry Pi display); larger windows scale it up."""


def scale_to_window(size: tuple[int, int]) -> float:
    """Scale dp units so that the 800x480 layout fills a larger window (1920x1080: x2.25); returns it."""
    from kivy.metrics import Metrics

    scale = max(1.0, min(size[0] / DESIGN_SIZE[0], size[1] / DESIGN_SIZE[1]))
    if scale > 1.0:
        Metrics.density = scale
    return scale


class BoardBankApp(PrefsMixin, LooksMixin, TellingMixin, CardsMixin, ToastMixin, App):
    """The touch UI. ``lang`` is the UI language (switchable at run time)."""

    lang = StringProperty("en")
    show_tray = BooleanProperty(False)
    board_open = BooleanProperty(False)
    """The board is the screen shown (the card tray steps aside for its squares)."""
    title = StringProperty("")

    def __init__(self, session: Any = None, lang: str = "en", sounds: SoundBoard | None = None,
                 **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.session = session
        self.translator = Translator(lang)
        self.lang = lang
        self.presenter = Presenter(self.translator)
        self.sounds = sounds or SoundBoard()
        self.controller: Controller | None = None
        self.overlay: str | None = None
        self.exit_status = 0
        self.rendered, self.last_render_t = 0, 0.0  # renders done (the bench and the scripts wait on it), last
        self._after_start: list[Callable[[], None]] = []
        self.enrolment: Enrolment | None = None
        self._next_blank, self.keeper = 1, memory.Keeper()
        self._unsaved: dict[str, object] = {}  # UI settings not yet written (see remember)
        self._residents_due = False  # the resident screens' build is scheduled (RESIDENT_AFTER_S)
        self._save_trigger: Any = None

    def t(self, key: str, lang: str | None = None, **params: object) -> str:
        """Translate ``key`` in ``lang`` (kv passes ``app.lang`` so the text follows the language)."""
        return self.translator.text(key, lang or self.lang, **params)

    def build(self) -> Any:
        from kivy.core.window import Window
        from kivy.factory import Factory

        from ui.touch.kvload import load_kv

        self.title = self.t("app.title")
        scale_to_window(Window.size)
        load_kv()
        fonts.use_language(self.lang)
        keyboard.install(self.lang)  # the docked keyboard (kiosk): the language's layout, clear of the field
        Window.clearcolor = palette.BACKGROUND
        frames.finish_frames(Window)  # software GL: no queued frames (memory, latency)
        paced.use_software_rate(frames.is_software(frames.renderer_name()))  # the CPU draws: animations at 30 Hz
        root = Factory.RootLayout()
        self.root = root
        root.ids.tray.on_card = self.tap_card
        root.ids.tray.on_blank = self.tap_blank_card
        self._show_readers(None)
        return root

    def on_start(self) -> None:
        session, self.session = self.session, None
        self.attach(session)
        Clock.schedule_interval(self._tick, TICK_S)
        from kivy.core.window import Window
        Window.bind(on_touch_down=self._touched)  # every touch, a keypad key too, restarts the gesture timeout
        if fonts.missing_font_message(self.lang):
            self.notice(self.t("warn.no_cjk_font", "en"))
        for callback in [*self._after_start, lambda: self.keeper.keep(self.root.ids.sm.screen_names)]:  # the heap kept
            Clock.schedule_once(lambda dt, cb=callback: cb(), 0)

    def _touched(self, *_: Any) -> None:
        if self.controller is not None:
            self.controller.touch()

    def _tick(self, _dt: float) -> None:
        if self.controller is not None:
            self.controller.tick()

    def attach(self, session: Any) -> None:
        """Run ``session`` (its banker, readers and registry); a previous session is closed first."""
        self.save_settings()
        if self.session is not None and self.session is not session:
            self.session.close()
        self.session = session
        self.start_story(session)  # the transaction line's sentences, the receipts (ui/touch/voice.py)
        self.controller = None
        self.enrolment = None
        self.overlay = None
        if session is None or session.banker is None:
            self.show_tray = False
            return
        self.controller = Controller(session.banker, self.on_reaction, self._schedule)
        self.controller.on_readers = self._show_readers
        self.controller.intercept = self._enrol_tap
        self.show_tray = bool(session.mock_urls)
        registry = session.registry
        if self.show_tray and registry is not None and len(registry) == 0:
            players = int(str(self.rule_options().get("max_players", 4)))
            log.info("mock reader and no enrolled card: enrolled a mock deck of %d cards",
                     enrol_mock_deck(registry, players, self.controller.view.edition or None))
        if registry is not None:
            self.controller.resolve = card_resolver(session.banker, registry, lambda: self.enrolment is not None)
        for reader in list(session.readers):
            if registry is not None:
                reader.set_known(lambda uid, r=registry: r.lookup(uid) is not None)
            reader.start(self.controller.reader_sink)
        self.render(self.controller.view)

    def on_stop(self) -> None:
        self.save_settings()
        self.voice.close()
        if self.session is not None:
            self.session.close()

    def after_start(self, callback: Callable[[], None]) -> None:
        """Run ``callback`` on the main thread once the app has started."""
        self._after_start.append(callback)

    @staticmethod
    def _schedule(fn: Callable[[], None]) -> None:
        Clock.schedule_once(lambda dt: fn(), 0)

    # -- actions from the screens --------------------------------------------------------------------
    def press(self, button: str, value: str | None = None) -> None:
        """A button on screen: ``press_<button>`` on the banker."""
        self.sounds.play("tap")
        if self.controller is not None:
            self.controller.press(button.removeprefix("press_"), value)

    def choose(self, value: str) -> Any:
        """An answer on screen; returns the banker's reaction (None without a banker)."""
        self.sounds.play("tap")
        if self.controller is not None:
            return self.controller.choose(value)
        return None

    def may(self, trigger: str) -> bool:
        """Whether the banker accepts ``trigger`` now (``press_go``, ``answer``...); buttons use it."""
        if self.controller is None:
            return False
        name = trigger if trigger.startswith(("press_", "tap_")) or trigger == "answer" else f"press_{trigger}"
        return self.controller.may(name)

    def open_menu(self) -> None:
        """The menu button: the banker asks for its PIN."""
        self.press("menu")

    def show_screen(self, name: str) -> None:
        """Open a user screen (the board) on top of the banker's screen."""
        self.overlay = name if name in OVERLAY_SCREENS else None
        self._switch(name)
        self.screen(name).show(self.presenter)

    def go_back(self) -> None:
        """Leave the board, or close the banker menu."""
        if self.overlay is not None:
            self.overlay = None
            self.render(self.presenter.view)
        elif self.presenter.view.state in ("pin", "menu", "settings"):
            self.press("cancel")
        else:
            self.render(self.presenter.view)

    def set_language(self, lang: str) -> None:
        """Switch the UI language (and its font) and re-render everything."""
        if lang not in LANGUAGES:
            return
        if fonts.missing_font_message(lang):
            self.notice(self.t("warn.no_cjk_font", "en"))  # in English: the missing font could not draw it
        fonts.use_language(lang)
        keyboard.use_language(lang)
        self.translator.set_language(lang)
        self.voice.set_language(lang)
        if lang != self.lang:
            self.remember(lang=lang)
        self.lang = lang
        if self.root is not None:
            widgets = list(self.root.walk(restrict=False))
            for screen in self.root.ids.sm.screens:
                widgets += list(screen.walk(restrict=True))
            for widget in widgets:  # labels resolve the new font file when they re-render
                if hasattr(widget, "refit"):
                    widget.refit()
                elif isinstance(widget, Label):
                    widget.texture_update()
            self._show_readers(self.controller.readers if self.controller is not None else None)
            self.render(self.presenter.view)

    def next_language(self) -> None:
        """The language button in the bar: en -> ru -> ro -> ja -> en."""
        self.set_language(LANGUAGES[(LANGUAGES.index(self.lang) + 1) % len(LANGUAGES)])

    # -- data for the screens ------------------------------------------------------------------------
    def edition_name(self, edition_id: str) -> str:
        """An edition's display name."""
        key = f"edition.{edition_id}"
        return self.t(key) if self.translator.has(key, "en") else edition_id

    def rule_options(self) -> Mapping[str, object]:
        """The rule options in force as the banker shows them (before its first view: the defaults of the
        session's ruleset, then the edition's, then ``--option``; none without an edition)."""
        edition = getattr(self.session, "edition", None)
        if self.presenter.view.options or edition is None:
            return dict(self.presenter.view.options)
        from engine.rulesets.registry import ruleset_of

        values = {**ruleset_of(edition).options().as_dict(), **(getattr(edition, "options", None) or {})}
        return {**values, **self.session.options}

    # -- reactions -----------------------------------------------------------------------------------
    def on_reaction(self, reaction: Any) -> None:
        """Tell its new entries (the line's sentence, the voice), play its cues, show its error, render its view."""
        self.tell(reaction)
        for cue in getattr(reaction, "cues", ()):
            if str(cue) in CUES:
                self.sounds.play(str(cue))
                self._reader_cue(str(cue))
        self.toast_reaction(reaction)  # its error, or the error it answered goes
        if (praise := counted_notice(reaction.view, self.presenter.tr)) and not reaction.error:
            self.notice(praise)  # count it: the question ended (ui/countit.py)
        self.render(reaction.view)

    def _reader_cue(self, cue: str) -> None:
        """Let readers with a buzzer or LED play the cue too (the mock records it)."""
        for reader in list(self.session.readers) if self.session is not None else []:
            try:
                reader.cue(cue)
            except OSError as exc:
                log.info("reader %s could not play %s: %s", getattr(reader, "url", reader), cue, exc)

    def render(self, view: ViewModel) -> None:
        """Show ``view`` on the screen the banker's state calls for (or the open overlay)."""
        self.presenter.show(view)
        if self.root is None:
            return
        title = self.edition_name(view.edition) if view.edition else self.t("app.title")
        running = self.presenter.on_the_run_text()  # ON THE RUN takes the title while it lasts
        self.root.ids.title.text = running or title
        self.root.ids.title.color = palette.WARNING if running else palette.TEXT
        name = STATE_SCREENS.get(view.state) or screen_for(view)
        if self.overlay is not None and name == "table":
            name = self.overlay
        elif name != "table":
            self.overlay = None
        self._switch(name)
        self.screen(name).show(self.presenter)
        self.update_tray(view)
        self.rendered += 1
        self.last_render_t = time.monotonic()

    def settle_animations(self) -> None:
        """Finish the current screen's animations now (before a screenshot)."""
        settle = getattr(self.root.ids.sm.current_screen, "settle", None)
        if settle is not None:
            settle()

    def screen(self, name: str) -> Any:
        """The screen called ``name``, built now if it is not (a name outside :data:`SCREENS`: KeyError)."""
        sm = self.root.ids.sm
        if not sm.has_screen(name):
            from kivy.factory import Factory

            sm.add_widget(getattr(Factory, SCREENS[name])(name=name))
        return sm.get_screen(name)

    def _switch(self, name: str) -> None:
        sm = self.root.ids.sm
        if sm.current == "setup" and name not in ON_TOP_SCREENS | {"setup"} and not sm.has_screen(name):
            self.keeper.release(sm, "setup")  # setup and its rows go before the table is built
        self.screen(name)
        self.board_open = name == "board"
        if name != "setup" and not self._residents_due:
            self._residents_due = True
            Clock.schedule_once(lambda _dt: self.build_residents(), RESIDENT_AFTER_S)
        if sm.current == name:
            return
        sm.current = name
        if name in ON_TOP_SCREENS:
            return
        dropped = False
        for screen in list(sm.screens):  # the screens left behind: built again when next shown
            if screen.name != name and screen.name not in RESIDENT_SCREENS:
                sm.remove_widget(screen)
                self.keeper.dropped(screen.name)
                dropped = True
        if dropped:  # after the next frame is drawn, not before it
            Clock.schedule_once(lambda _dt: self._give_back(), GIVE_BACK_AFTER_S)

    def build_residents(self) -> None:
        """Build the :data:`RESIDENT_SCREENS` not built yet."""
        for resident in RESIDENT_SCREENS:
            self.screen(resident)
        self.keeper.keep(self.root.ids.sm.screen_names)  # the residents live till the end: kept with the rest

    def _give_back(self) -> None:
        """Free the dropped screens (Kivy's transition keeps the one it last moved out: it is replaced by the one
        shown, no None allowed), give the memory back; a kept one waits for a quiet table (ui/touch/memory.py)."""
        sm = self.root.ids.sm if self.root is not None else None
        transition = getattr(sm, "transition", None)
        if transition is not None and not transition.is_active and transition.screen_out not in sm.screens:
            transition.screen_out = transition.screen_in
        quiet = self.controller is None or time.monotonic() - self.controller.last_input >= memory.QUIET_S
        if self.keeper.give_back(sm.screen_names if sm is not None else (), quiet):
            Clock.schedule_once(lambda _dt: self._give_back(), memory.QUIET_S)

    def _show_readers(self, status: Any) -> None:
        chip = self.root.ids.reader_chip if self.root is not None else None
        if chip is None:
            return
        connected = status.connected if status is not None else {}
        if not connected:
            chip.ok = False
            chip.text = self.t("reader.none")
        else:
            chip.ok = all(connected.values())
            chip.text = self.t("reader.connected" if chip.ok else "reader.lost")
