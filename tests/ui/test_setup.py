"""The setup screen through real touches and typed text: names, colours, an option and the edition go to
the banker as answers, the screen shows the banker's view, and ✓ starts the game with them."""

from __future__ import annotations

from typing import Any

import pytest
from ui_driver import pump, touch, type_text, wait_for

from engine.events import GameStarted

pytestmark = pytest.mark.ui


def tap_card(app: Any, uid: str) -> None:
    """Touch a card on the tray (the mock reader brings it back as a reader event)."""
    tray = app.root.ids.tray
    pump(2)
    tray.scroll_to_card(uid)
    pump(3)
    seated = len(app.controller.view.players)
    touch(tray.button_for(uid))
    wait_for(lambda: len(app.controller.view.players) == seated + 1)


def test_names_colours_an_option_and_the_edition_go_into_start_game(fresh_session: Any) -> None:
    app = fresh_session
    tap_card(app, "BB000001")
    tap_card(app, "BB000002")
    screen = app.screen("setup")
    first, second = screen.seat_rows[1], screen.seat_rows[2]
    assert first.name_input.text == "" and first.name_input.hint_text == "Player 1"  # the default, as a hint

    type_text(first.name_input, "Ana")
    assert not first.name_input.focus
    assert [p.name for p in app.controller.view.players] == ["Ana", "Player 2"]
    type_text(second.name_input, "山田 太郎")
    assert [p.name for p in app.controller.view.players] == ["Ana", "山田 太郎"]
    type_text(second.name_input, "ana")  # names are unique at the table: refused, the old one comes back
    assert app.controller.last_reaction.error == "error.name_taken"
    assert app.root.ids.toast.opacity == 1.0
    assert second.name_input.text == "山田 太郎"

    touch(first.chip_for("purple"))
    assert [p.token for p in app.controller.view.players] == ["purple", "green"]
    assert first.chip_for("purple").selected and second.chip_for("purple").taken
    touch(second.chip_for("purple"))  # one colour per player
    assert app.controller.last_reaction.error == "error.token_taken"
    assert [p.token for p in app.controller.view.players] == ["purple", "green"]

    money = screen.show_option("start_money")  # its page of options (ui/touch/screens/setup.py)
    pump(2)  # the page laid out
    screen.ids.right_scroll.scroll_to(money, animate=False)  # under the game choice: scroll, as a finger would
    touch(money.plus)
    touch(money.plus)
    assert dict(app.controller.view.options)["start_money"] == 1700
    assert money.value_label.text == "M1,700"
    auction = screen.show_option("auction")
    pump(2)  # the page laid out
    screen.ids.right_scroll.scroll_to(auction, animate=False)  # below the fold: scroll, as a finger would
    touch(auction.toggle)
    assert dict(app.controller.view.options)["auction"] is False
    players = screen.show_option("max_players")
    pump(2)  # the page laid out
    screen.ids.right_scroll.scroll_to(players, animate=False)
    for _ in range(2):
        touch(players.minus)  # 4 -> 3 -> 2: accepted; then below the 2 seated players: refused
    assert dict(app.controller.view.options)["max_players"] == 2
    touch(players.minus)
    assert app.controller.last_reaction.error == "error.bad_option"
    assert dict(app.controller.view.options)["max_players"] == 2

    names = screen.game_choice.name_buttons["ultimate-us"]  # Ultimate Banking's board with US street names
    screen.ids.right_scroll.scroll_to(names, animate=False)
    touch(names)
    assert app.controller.view.edition == "ultimate-us"
    assert app.root.ids.title.text == app.edition_name("ultimate-us")

    touch(screen.ids.actions.button_for("press_ok"))
    wait_for(lambda: app.controller.view.phase == "play")
    game = app.controller.banker.game
    started = next(e for e in game.events if isinstance(e, GameStarted))
    assert started.edition == "ultimate-us"
    assert [(p.id, p.name, p.token) for p in started.players] == [("p1", "Ana", "purple"),
                                                                   ("p2", "山田 太郎", "green")]
    assert started.options["start_money"] == 1700 and started.options["auction"] is False
    assert started.options["max_players"] == 2
    assert game.state.balance("p1") == 1700
    assert [p.name for p in app.controller.view.players] == ["Ana", "山田 太郎"]


def test_the_kiosk_gets_the_docked_on_screen_keyboard(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--fullscreen`` (the kiosk's touch screen) docks Kivy's keyboard; a desktop window keeps its own."""
    from kivy.config import Config

    from ui.touch.app import prepare_kivy

    calls: dict[tuple[str, str], str] = {}
    monkeypatch.setattr(Config, "set", lambda section, key, value: calls.__setitem__((section, key), value))
    prepare_kivy(None, fullscreen=True)
    assert calls[("kivy", "keyboard_mode")] == "dock"
    prepare_kivy((800, 480), fullscreen=False)
    assert calls[("kivy", "keyboard_mode")] == "system"


def test_the_window_is_800x480_without_size(monkeypatch: pytest.MonkeyPatch) -> None:
    """No ``--size``: the 7-inch screen's 800x480, as the README says; ``--size`` and full screen win."""
    from kivy.config import Config

    from ui.touch.app import prepare_kivy

    calls: dict[tuple[str, str], str] = {}
    monkeypatch.setattr(Config, "set", lambda section, key, value: calls.__setitem__((section, key), value))
    prepare_kivy(None, fullscreen=False)
    assert (calls[("graphics", "width")], calls[("graphics", "height")]) == ("800", "480")
    calls.clear()
    prepare_kivy((1024, 600), fullscreen=False)
    assert (calls[("graphics", "width")], calls[("graphics", "height")]) == ("1024", "600")
    calls.clear()
    prepare_kivy(None, fullscreen=True)
    assert ("graphics", "width") not in calls


def test_every_seat_and_every_option_can_be_scrolled_into_view_at_800x480(ui_app: Any) -> None:
    """Eight seats with long names and every rule option: each row is reached by scrolling its panel, and is
    then wholly inside the panel, never under the buttons or off the screen."""
    from fixtures.views import LONG_NAMES, setup_view
    from ui_driver import SIZE, pump

    from ui.touch.screens.setup import OPTIONS_PER_PAGE

    ui_app.overlay = None
    ui_app.render(setup_view(LONG_NAMES))
    pump(3)
    screen = ui_app.screen("setup")
    panels = ((screen.ids.seat_scroll, [screen.seat_rows[s] for s in range(1, 9)]),
              (screen.ids.right_scroll, [*screen.game_choice.cards.values(),
                                         *screen.game_choice.name_buttons.values(), *screen.option_names]))
    assert len(panels[1][1]) == 4 + 3 + len(dict(setup_view().options))  # 4 games, Ultimate's 3 names
    assert len(screen.option_names) > OPTIONS_PER_PAGE and screen.pager is not None  # the options have pages
    for scroll, rows in panels:
        assert scroll.children[0].height > scroll.height  # more than fits: the panel scrolls
        for row in rows:
            if isinstance(row, str):  # an option: on its page (‹ ›), then scrolled to
                row = screen.show_option(row)
                pump(2)
            scroll.scroll_to(row, padding=0, animate=False)
            pump(2)
            _, y0 = scroll.to_window(scroll.x, scroll.y)
            _, ry = row.to_window(row.x, row.y)
            assert y0 - 1 <= ry and ry + row.height <= y0 + scroll.height + 1, f"{row} is not wholly in view"
            assert ry >= 0 and ry + row.height <= SIZE[1]


def test_a_name_the_fonts_cannot_draw_is_refused_at_entry(fresh_session: Any) -> None:
    """An emoji would show as an empty box (no UI font has it): it is left out, and the toast says so; Cyrillic,
    Romanian and Japanese names are kept whole."""
    from ui.touch import fonts

    app = fresh_session
    assert fonts.can_draw("Екатерина") and fonts.can_draw("Ștefăniță") and fonts.can_draw("山田 太郎")
    assert not fonts.can_draw("Ann \U0001F600") and fonts.undrawable("Ann \U0001F600\U0001F600") == "\U0001F600"
    tap_card(app, "BB000001")
    row = app.screen("setup").seat_rows[1]

    type_text(row.name_input, "Ann\U0001F600")
    assert row.name_input.text == "Ann"
    assert "U+1F600" in app.root.ids.toast.text and app.root.ids.toast.opacity == 1.0
    wait_for(lambda: app.controller.view.players[0].name == "Ann")


def test_every_amount_option_of_both_rulesets_is_shown_as_money(ui_app: Any) -> None:
    """An option that is an amount shows its currency (the classic jail fine showed a bare '50'); counts,
    percentages and minutes stay numbers, their captions say the unit."""
    from engine.rulesets.registry import get_ruleset
    from ui.touch.screens.setup import MONEY_OPTIONS, option_text

    amounts = {"start_money", "go_salary", "location_fee", "jail_fee", "jail_fine", "auction_step"}
    presenter = ui_app.presenter
    for ruleset in ("ultimate", "classic"):
        for name, value in get_ruleset(ruleset).options.from_mapping({}).as_dict().items():
            if isinstance(value, bool) or not isinstance(value, int):
                continue
            shown = option_text(presenter, name, value)
            assert (shown == presenter.money(value)) == (name in amounts), (ruleset, name, shown)
    assert amounts == MONEY_OPTIONS


def touch_in_view(screen: Any, widget: Any) -> None:
    """Scroll the setup's right panel to ``widget`` and touch it, as a finger would."""
    screen.ids.right_scroll.scroll_to(widget, padding=0, animate=False)
    pump(2)
    touch(widget)


def test_the_game_is_chosen_first_and_the_options_are_its_own(fresh_session: Any) -> None:
    """Setup shows the four games with a line each; touching Classic US makes it the next game (the banker
    swaps its table), the options shown are the classic game's, and ✓ starts a classic game whose table has
    the classic buttons. Every card and button of the choice is at least 48 px high, its text 16 px or more."""
    app = fresh_session
    tap_card(app, "BB000001")
    tap_card(app, "BB000002")
    screen = app.screen("setup")
    choice = screen.game_choice
    pump(3)
    assert list(choice.cards) == ["ultimate", "classic-us", "classic-uk", "classic-ru"]
    assert choice.cards["ultimate"].title.text == "Ultimate Banking"
    assert "location_fee" in screen.option_names and screen.show_option("location_fee").parent is not None
    pump(3)  # the option's page laid out
    touch_in_view(screen, choice.cards["classic-us"])
    assert app.controller.view.edition == "classic-us"
    pump(3)
    assert choice.cards["classic-us"].line.text.startswith("The classic board")
    assert {"jail_fine", "even_build", "free_parking_jackpot"} <= set(screen.option_names)
    assert "location_fee" not in screen.option_names and "location_fee" not in screen.option_rows
    assert all(screen.show_option(name).parent is not None for name in ("jail_fine", "even_build"))
    screen.turn_options(-99)  # back to the first page
    pump(3)
    widgets = [*choice.cards.values(), *(b for b in choice.name_buttons.values() if b.parent is not None)]
    assert all(w.height >= 48 for w in widgets), [w.height for w in widgets]
    labels = [lab for card in choice.cards.values() for lab in (card.title, card.line)]
    assert all(lab.font_size >= 16 and not lab.shorten for lab in labels), [(lab.text, lab.font_size) for lab in labels]
    touch_in_view(screen, choice.cards["ultimate"])  # back to Ultimate Banking: its board's street names come with it
    assert app.controller.view.edition == "ultimate-uk"
    pump(3)
    assert choice.name_buttons["ultimate-us"].parent is not None
    touch_in_view(screen, choice.cards["classic-us"])
    touch(screen.ids.actions.button_for("press_ok"))
    wait_for(lambda: app.controller.view.phase == "play")
    assert app.controller.banker.game.edition.ruleset == "classic"
    assert "press_build" in app.controller.view.actions or app.controller.banker.may("press_build")


def test_the_options_come_one_page_at_a_time(ui_app: Any) -> None:
    """The rule options are shown a page at a time (the setup screen was the app's memory peak,
    bench/bench_memory.py): ‹ and › reach every option, and only the rows of the page shown are built."""
    from fixtures.views import setup_view

    from ui.touch.screens.setup import OPTIONS_PER_PAGE

    ui_app.overlay = None
    ui_app.render(setup_view())
    pump(3)
    screen = ui_app.screen("setup")
    screen.turn_options(-99)
    pump(2)
    pager = screen.pager
    assert pager is not None and pager.back.disabled and pager.page_label.text.startswith("1 / ")
    seen: list[str] = []
    while True:
        shown = [name for name, row in screen.option_rows.items() if row.parent is not None]
        assert 0 < len(screen.option_rows) <= OPTIONS_PER_PAGE and shown == list(screen.option_rows)
        seen += shown
        if pager.forward.disabled:
            break
        screen.ids.right_scroll.scroll_to(pager, animate=False)
        pump(2)
        touch(pager.forward)
        pump(2)
    assert seen == screen.option_names  # every option, each once, in order
    assert pager.height >= 48 and pager.back.width >= 48
    touch(pager.back)
    pump(2)
    pages = -(-len(seen) // OPTIONS_PER_PAGE)
    assert pages > 1 and pager.page_label.text == f"{pages - 1} / {pages}"
    assert list(screen.option_rows) == seen[(pages - 2) * OPTIONS_PER_PAGE:(pages - 1) * OPTIONS_PER_PAGE]


def test_the_rule_options_before_the_first_view_are_the_sessions_rulesets() -> None:
    """Before the banker's first view, the app's rule options are the defaults of the resumed or chosen
    game's ruleset, then its edition's, then ``--option``: a classic table reads classic's (8 players, a jail
    fine), never Ultimate's defaults (it imported Ultimate's options module in a classic game)."""
    from types import SimpleNamespace

    from engine.editions import load_edition
    from engine.rulesets.classic.options import Options as ClassicOptions
    from ui.touch.screens.root import BoardBankApp

    edition = load_edition("classic-us")
    fake = SimpleNamespace(presenter=SimpleNamespace(view=SimpleNamespace(options={})),
                           session=SimpleNamespace(edition=edition, options={"start_money": 2000}))
    options = BoardBankApp.rule_options(fake)  # type: ignore[arg-type]
    assert set(options) == set(ClassicOptions().as_dict())
    assert options["start_money"] == 2000 and options["jail_fine"] == ClassicOptions().jail_fine
    assert options["max_players"] == ClassicOptions().max_players
    fake.session = SimpleNamespace(edition=None, options={})
    assert BoardBankApp.rule_options(fake) == {}  # type: ignore[arg-type]
