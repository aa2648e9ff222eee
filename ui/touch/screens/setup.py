"""Setup: the game first (Ultimate Banking, Classic US, UK or Russia, and Ultimate's street names), then its
rule options, the language, and the players enrolled by tapping their cards, each with a name and a token
colour. Reached at first start and from New game; the options shown are the chosen game's.

Players join by tapping their bank cards (the banker seats them); ✓ starts the game. The language is the
UI's own setting. Everything else is the banker's: a typed name, a colour chip, an option's toggle or
stepper and an edition button each send an answer (``name=SEAT:TEXT``, ``token=SEAT:COLOUR``,
``option=NAME:VALUE``, ``edition=ID``, Count it's ``count=SEAT,SEAT``: a toggle per player, "Ann counts", off
by default) and the screen shows what the banker's view says afterwards; a refused answer shows its error
and the previous value comes back. ``--edition`` and ``--option`` are only
the starting values.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp

from engine.banker.setup import default_name
from ui.setup_effects import EffectLines, Estimator, default_max_players, players_for
from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.fitlabel import FitLabel
from ui.touch.widgets.game_choice import GameChoice
from ui.touch.widgets.setup_parts import OptionPager, OptionRow, SeatRow


def option_text(presenter: Presenter, name: str, value: object) -> str:
    """An option's value for display: on/off for booleans, money for amounts, the number otherwise."""
    if name == "positions":  # the dice: at the table, or the unit keeps the tokens
        return presenter.tr("setup.dice_unit" if value else "setup.dice_table")
    if isinstance(value, bool):
        return presenter.tr("word.on" if value else "word.off")
    if isinstance(value, int) and name in MONEY_OPTIONS:
        return presenter.money(value)
    return str(value)


OPTIONS_PER_PAGE = 8
"""Rule options shown at once; ‹ and › turn the pages (every option is on one). The rows of one page are
built at a time and the others freed: the classic game's 33 rows, about 4 MiB of widgets, fonts and label
textures, made the setup screen the app's peak of memory (bench/bench_memory.py)."""

MONEY_OPTIONS: frozenset[str] = frozenset({"start_money", "go_salary", "location_fee", "jail_fee", "jail_fine", "auction_step"})
"""Options that are amounts (ints in the edition's money unit)."""


COUNT_ROW_HEIGHT = 60
"""A "counts" row's height in dp: three lines of 16 px (a long name and its words in Japanese, large text)."""

BACK_CAPTION_MAX = 40
"""Characters of Back's caption naming the players ("Back to the game of Ann, Ben and Cat"); longer, it
names the game's turn instead."""


def seat_number(player_id: str) -> int | None:
    """The seat (the bank card's number) of a player id ``p<seat>``, or None."""
    return int(player_id[1:]) if player_id.startswith("p") and player_id[1:].isdigit() else None


def real_estimates() -> Estimator:
    """The estimates of ui/estimates.py (imported with the first effect line: engine.sim stays out of a
    resumed game's process)."""
    from ui.estimates import Estimates

    return Estimates()


EFFECTS_POLL_S = 0.5
"""How often (seconds) the screen collects finished estimates, only while one is being computed."""


class SetupScreen(BankScreen):
    """Seats (names and colours) on the left; language, the game and its rule options on the right, each
    option with its effect line (what it does to a game of the players' count so far, ui/setup_effects.py)."""

    estimates_factory: Callable[[], Estimator] | None = None
    """Makes the screen's estimator (tests inject a fast stub); None: :func:`real_estimates`."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seat_rows: dict[int, SeatRow] = {}
        self.option_rows: dict[str, OptionRow] = {}
        self.count_rows: dict[int, OptionRow] = {}  # count it: seat -> its "Ann counts" toggle
        self.game_choice: GameChoice | None = None
        self._empty: FitLabel | None = None
        self.option_page = 0
        self.pager: OptionPager | None = None
        self.option_names: list[str] = []  # the options of the game shown, in page order
        self.effects = EffectLines(type(self).estimates_factory or real_estimates)
        self._effects_ev: Any = None  # the clock's interval while an estimate is being computed
        self._stop_bound = False
        self._effects_soon = Clock.create_trigger(self._effects_now, 0)

    def render(self, presenter: Presenter) -> None:
        app = self.app()
        self.ids.prompt.text = presenter.prompt()
        self.ids.edition.text = presenter.tr("setup.game_pick")
        self._render_seats(presenter)
        self._render_editions(presenter)
        self._render_counters(presenter)
        self._render_options(presenter)
        self._render_back(presenter)
        enrolment = app.enrolment
        if enrolment is not None:
            key, params = enrolment.prompt()
            self.ids.prompt.text = presenter.text(key, params)
        self.ids.enrol.text = presenter.tr("enroll.stop" if enrolment else "enroll.start")
        self.ids.enrol_skip.disabled = enrolment is None
        self.ids.enrol.disabled = app.session is None or app.session.registry is None
        super().render(presenter)

    def action_buttons(self, presenter: Presenter) -> list[tuple[str, str, bool]]:
        """The banker's setup actions; Back has its own wide button (:meth:`_render_back`)."""
        return [b for b in super().action_buttons(presenter) if b[0] != "press_back"]

    def _render_back(self, presenter: Presenter) -> None:
        """Back to the game New game left, naming it ("Back to the game of Ann, Ben and Cat"; with long names
        its turn), while the banker offers it (until the new game starts)."""
        button = self.ids.back
        params = dict(presenter.view.prompt.params)
        names = params.get("back_names")
        shown = isinstance(names, str) and "press_back" in presenter.view.actions
        button.height, button.opacity, button.disabled = (dp(48), 1, False) if shown else (0, 0, True)
        if not isinstance(names, str) or not shown:
            button.text = ""
            return
        caption = presenter.text("action.back_to_game", (("names", names),))
        if len(caption) > BACK_CAPTION_MAX:  # long names: the game's turn instead (the button stays one size)
            caption = presenter.text("action.back_to_turn", (("turn_number", params.get("back_turn", "")),))
        button.text = caption

    # -- seats ------------------------------------------------------------------------------------------
    def _render_seats(self, presenter: Presenter) -> None:
        view = presenter.view
        box = self.ids.seats
        seated = [(seat_number(p.id) or i, p) for i, p in enumerate(view.players, start=1)]
        rows = []
        for seat, player in seated:
            row = self.seat_rows.get(seat)
            if row is None:
                row = self.seat_rows[seat] = SeatRow(seat, self.send_name, self.send_token)
            taken = {p.token for p in view.players if p.id != player.id}
            default = player.name == default_name(seat)  # shown as the field's hint: typing starts afresh
            row.update(presenter.tr("setup.seat", number=seat), presenter.player_name(player.id),
                       "" if default else player.name, player.token, view.tokens or (player.token,), taken)
            rows.append(row)
        if not rows:
            if self._empty is None:
                self._empty = FitLabel(size_hint_y=None, height=dp(40), color=palette.MUTED, max_font_size=dp(16))
            self._empty.text = presenter.tr("setup.no_players")
            rows.append(self._empty)
        if list(box.children[::-1]) != rows:
            box.clear_widgets()
            for widget in rows:
                box.add_widget(widget)
            scroll = self.ids.seat_scroll
            scroll.effect_y.cancel()
            scroll.scroll_y = 1.0  # other seats: start at the top (a scroll left past the end hides them)

    def send_name(self, seat: int, name: str) -> None:
        """A name typed for ``seat`` (the banker checks and keeps it)."""
        self.app().choose(f"name={seat}:{name}")

    def send_token(self, seat: int, token: str) -> None:
        """A colour chip touched for ``seat``."""
        self.app().choose(f"token={seat}:{token}")

    # -- count it ---------------------------------------------------------------------------------------------
    def counting_seats(self, presenter: Presenter) -> list[int]:
        """The seats chosen to count in the game being registered (the banker's view says them)."""
        raw = str(dict(presenter.view.extra).get("count", ""))
        return [int(s) for s in raw.split(",") if s.strip().isdigit()]

    def _render_counters(self, presenter: Presenter) -> None:
        """Count it (docs/flows.md): a toggle per seated player, "Ann counts", on when the banker has the seat
        among the counters; none (and no title) before anyone is seated."""
        seats = [(seat_number(p.id), p) for p in presenter.view.players]
        chosen = self.counting_seats(presenter)
        title = self.ids.count_title
        title.text = presenter.tr("setup.count_title") if seats else ""
        title.height, title.opacity = (dp(44), 1) if seats else (0, 0)  # two lines of 16 px
        rows = []
        for seat, player in seats:
            if seat is None:
                continue
            row = self.count_rows.get(seat)
            if row is None:
                row = self.count_rows[seat] = OptionRow(str(seat), self.send_counts)
                row.height = row.controls.height = dp(COUNT_ROW_HEIGHT)
            on = seat in chosen
            row.update(presenter.tr("setup.counts", player=presenter.player_name(player.id)), on,
                       presenter.tr("word.on" if on else "word.off"))
            rows.append(row)
        box = self.ids.counters
        if list(box.children[::-1]) != rows:
            box.clear_widgets()
            for row in rows:
                box.add_widget(row)

    def send_counts(self, seat: str, value: str) -> None:
        """A player's "counts" toggle touched: the seats who count, that one added or taken away."""
        seats = set(self.counting_seats(self.app().presenter))
        seats = seats | {int(seat)} if value == "on" else seats - {int(seat)}
        self.app().choose("count=" + ",".join(str(s) for s in sorted(seats)))

    def count_row(self, seat: int) -> OptionRow:
        """The "counts" toggle of ``seat`` (tests touch it; KeyError: not seated)."""
        return self.count_rows[seat]

    # -- edition and options ------------------------------------------------------------------------------
    def _render_editions(self, presenter: Presenter) -> None:
        """The game first (ui/touch/widgets/game_choice.py): a card per game, Ultimate's street names."""
        view = presenter.view
        box = self.ids.editions
        if self.game_choice is None:
            self.game_choice = GameChoice(self.send_edition)
        if list(box.children) != [self.game_choice]:
            box.clear_widgets()
            box.add_widget(self.game_choice)
        editions = list(view.editions or ((view.edition,) if view.edition else ()))
        self.game_choice.update(editions, view.edition, self.app().lang, presenter.tr, self.app().edition_name)

    def send_edition(self, edition_id: str) -> None:
        """A game (or the Ultimate board's names) touched: the banker swaps to that game and its options
        (shown from their first page)."""
        self.option_page = 0
        self.app().choose(f"edition={edition_id}")

    def _render_options(self, presenter: Presenter) -> None:
        """The options of the page shown (:data:`OPTIONS_PER_PAGE`), and the pager when there is more than one."""
        values = dict(presenter.view.options) or dict(self.app().rule_options())
        names = [name for name, value in values.items() if isinstance(value, bool | int)]
        self.option_names = names
        pages = max(1, -(-len(names) // OPTIONS_PER_PAGE))
        self.option_page = min(self.option_page, pages - 1)
        start = self.option_page * OPTIONS_PER_PAGE
        shown = names[start:start + OPTIONS_PER_PAGE]
        for name in [n for n in self.option_rows if n not in shown]:  # another page's rows: freed
            del self.option_rows[name]
        box = self.ids.options
        rows: list[Any] = []
        for name in shown:
            row = self.option_rows.get(name)
            if row is None:
                row = self.option_rows[name] = OptionRow(name, self.send_option)
            value = values[name]
            row.update(presenter.tr(f"option.{name}"), value, option_text(presenter, name, value))
            rows.append(row)
        if pages > 1:
            if self.pager is None:
                self.pager = OptionPager(self.turn_options)
            self.pager.update(self.option_page, pages)
            rows.append(self.pager)
        if list(box.children[::-1]) != rows:
            box.clear_widgets()
            for row in rows:
                box.add_widget(row)
        self._effects_soon()  # after this frame: the touch's answer is drawn first (a worker's start ~50 ms)

    def _render_effects(self, presenter: Presenter, values: dict[str, Any] | None = None) -> None:
        """Each shown option row's effect line, for the players' count so far: the cached estimate's words,
        "estimating…" (the work handed to the background) or none; only the lines' texts change. While an
        estimate is being computed the clock collects it every :data:`EFFECTS_POLL_S` seconds. Run in the
        frame after a render, so the first request (the engine's hash, the worker's start) never holds up
        the frame that answers a touch."""
        edition = presenter.view.edition
        if not edition or not self.option_rows:
            return
        if values is None:
            values = dict(presenter.view.options) or dict(self.app().rule_options())
        max_players = values.get("max_players")
        ceiling = default_max_players(edition)
        players = players_for(len(presenter.view.players),
                              max_players if isinstance(max_players, int) else ceiling, ceiling)
        lang = self.app().lang
        if not self._stop_bound:  # the app's end stops the worker too
            self.app().bind(on_stop=self.stop_effects)  # bind: a weak reference, the screen can still be freed
            self._stop_bound = True
        self.effects.begin()
        for name, row in self.option_rows.items():
            row.show_effect(self.effects.line(edition, players, name, values.get(name), presenter.tr, lang,
                                              presenter.money))
        self.effects.end()  # estimates of rows no longer shown (another page, another count) are dropped
        if self.effects.busy() and self._effects_ev is None:
            self._effects_ev = Clock.schedule_interval(self._effects_tick, EFFECTS_POLL_S)

    def _effects_now(self, _dt: float) -> None:
        self._render_effects(self.app().presenter)

    def _effects_tick(self, _dt: float) -> bool | None:
        """The clock's call while an estimate is computed: finished ones update the lines; idle, it stops."""
        if self.effects.tick():
            self._render_effects(self.app().presenter)
        if not self.effects.busy():
            self._effects_ev = None
            return False
        return None

    def turn_options(self, step: int) -> None:
        """‹ or › touched: the previous or next page of options."""
        pages = max(1, -(-len(self.option_names) // OPTIONS_PER_PAGE))
        page = self.option_page + step
        if 0 <= page < pages:
            self.option_page = page
            self._render_options(self.app().presenter)

    def show_option(self, name: str) -> OptionRow:
        """Turn to the page of option ``name`` and return its row (KeyError: not an option of this game)."""
        index = self.option_names.index(name) if name in self.option_names else -1
        if index < 0:
            raise KeyError(name)
        if index // OPTIONS_PER_PAGE != self.option_page:
            self.option_page = index // OPTIONS_PER_PAGE
            self._render_options(self.app().presenter)
        return self.option_rows[name]

    def send_option(self, name: str, value: str) -> None:
        """An option's toggle or stepper was touched: its new value (``on``/``off`` or a number)."""
        self.app().choose(f"option={name}:{value}")

    def release(self) -> None:
        """Drop the rows (seats, options, the game choice): the game starts and this screen is left (the app
        frees them before it builds the table, ui/touch/screens/root.py); a render builds them again."""
        for box in (self.ids.seats, self.ids.options, self.ids.editions, self.ids.counters):
            box.clear_widgets()
        self.seat_rows.clear()
        self.option_rows.clear()
        self.count_rows.clear()
        self.game_choice = self.pager = self._empty = None
        self.stop_effects()

    def stop_effects(self, *_: Any) -> None:
        """Stop the estimates' worker (the game starts, or the app stops: an estimate under way would hold
        up the interpreter's exit until it finished); the cache keeps the finished ones."""
        self._effects_soon.cancel()
        self.effects.close()
        if self._effects_ev is not None:
            self._effects_ev.cancel()
            self._effects_ev = None

    # -- enrolment ---------------------------------------------------------------------------------------------
    def toggle_enrolment(self) -> None:
        """Start or stop enrolling cards."""
        app = self.app()
        if app.enrolment is None:
            app.start_enrolment()
        else:
            app.stop_enrolment()
