"""What the table sees at 800x480: the error toast goes as soon as the right card is tapped, a notice is not red,
the players' bank cards stay in sight on the tray while its deeds scroll (and a swipe stops), whose turn it is is
marked on the balance tile without colour alone, Cancel and Decline look different, the standings' legend never
looks like a player, Ultimate's standings have no buildings, the setup's seat label stays on one line, and the
debt screen asks for no deeds when nothing is short."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest
from ui_driver import pump

from ui.i18n import LANGUAGES
from ui.touch.widgets import bars, palette

pytestmark = pytest.mark.ui


def lab(rgba: palette.RGBA) -> tuple[float, float, float]:
    """CIELAB (D65) of an sRGB colour."""
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(c) for c in rgba[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return 116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z))


def delta_e(a: palette.RGBA, b: palette.RGBA) -> float:
    """The CIE76 colour difference (about 2.3: just noticeable; 30 and more: another colour)."""
    return math.dist(lab(a), lab(b))


# -- toasts -------------------------------------------------------------------------------------------------
def player_card(app: Any, seat: int) -> str:
    uid = app.session.registry.holder("player", seat)
    assert uid is not None
    return str(uid)


def test_the_error_toast_goes_as_soon_as_the_right_card_is_tapped(fresh_session: Any) -> None:
    app = fresh_session
    toast = app.root.ids.toast
    app.controller.tap(player_card(app, 1))
    app.test_clock.advance(2.0)  # past the second-read window: a deliberate second tap
    app.controller.tap(player_card(app, 1))  # the same card again: refused
    pump(1)
    assert toast.opacity == 1.0 and app.toast_kind == "error"
    assert toast.band == palette.DANGER
    app.controller.tap(player_card(app, 2))  # the right card: no clock advanced, no frame waited
    assert toast.opacity == 0.0 and app.toast_kind == ""


def test_the_clocks_tick_leaves_the_error_toast_its_time(fresh_session: Any) -> None:
    app = fresh_session
    app.controller.tap(player_card(app, 1))
    app.test_clock.advance(2.0)  # past the second-read window
    app.controller.tap(player_card(app, 1))
    from types import SimpleNamespace

    app.on_reaction(SimpleNamespace(cues=(), error=None, view=app.presenter.view))  # a tick's reaction
    assert app.root.ids.toast.opacity == 1.0
    app.clear_toast()


def test_a_notice_is_not_red(ui_app: Any) -> None:
    ui_app.notice(ui_app.t("info.resumed", game=3))
    pump(1)
    toast = ui_app.root.ids.toast
    try:
        assert toast.opacity == 1.0 and ui_app.toast_kind == "notice"
        assert delta_e(toast.band, palette.DANGER) > 40, toast.band
        assert toast.band[0] <= max(toast.band[1], toast.band[2]), toast.band  # not a red
    finally:
        ui_app.clear_toast()


def test_the_resumed_game_is_said_as_a_notice(installation: Any) -> None:
    app = installation.start("--edition", "classic-us")
    app.controller.tap(player_card(app, 1))
    app.controller.tap(player_card(app, 2))
    app.controller.press("ok")  # a game begins: the restart resumes it
    assert app.presenter.view.state != "setup"
    app = installation.restart()
    assert app.toast_kind == "notice", app.root.ids.toast.text
    app.clear_toast()


# -- the tray -----------------------------------------------------------------------------------------------
def test_the_players_cards_stay_in_sight_while_the_deeds_scroll(classic_session: Any) -> None:
    from kivy.core.window import Window

    app = classic_session
    tray = app.root.ids.tray
    pump(3)
    players = [player_card(app, seat) for seat in (1, 2, 3, 4)]
    deeds = [uid for uid in tray.uids() if uid not in players and uid]
    assert len(deeds) >= 20, "a classic box: 28 deeds, Chance and Community Chest"
    for scroll in (0.0, 0.5, 1.0):  # the deeds' row at its start, middle and end
        tray.ids.rv.scroll_x = scroll
        pump(2)
        for uid in players:
            button = tray.button_for(uid)
            assert button is not None, f"player card {uid} out of sight with the deeds at {scroll}"
            x, _ = button.to_window(button.x, button.y)
            assert x >= 0 and x + button.width <= Window.width + 1, (uid, x)
        assert not any(tray.button_for(uid) is not None and tray.button_for(uid).parent is tray.ids.players_box
                       for uid in deeds), "a deed among the players' cards"


def test_a_swipe_on_the_tray_stops_near_where_the_finger_left() -> None:
    from kivy.effects.dampedscroll import DampedScrollEffect

    from ui.touch.widgets.tray import TrayScrollEffect

    def coast(effect: Any) -> float:
        """Pixels the row moves on its own after a quick 300 px swipe in 0.1 s is let go."""
        effect.min, effect.max = -5000, 5000
        effect.start(0, t=0.0)
        for i in range(1, 11):
            effect.update(-30 * i, t=0.01 * i)
        effect.stop(-300, t=0.1)
        released = effect.value
        for _ in range(600):  # ten seconds of frames
            effect.update_velocity(1 / 60)
        return abs(effect.value - released)

    ours, kivys = coast(TrayScrollEffect()), coast(DampedScrollEffect())
    assert ours < 0.3 * kivys, (ours, kivys)
    assert ours < 400, ours  # about three cards at most
    assert not isinstance(TrayScrollEffect(), DampedScrollEffect)  # no bounce past the ends


# -- who is playing -----------------------------------------------------------------------------------------
def show(app: Any, view: Any) -> None:
    app.overlay = None
    app.render(view)
    app.presenter.changes = {}
    app.render(view)
    pump(3)


@pytest.mark.parametrize("lang", ("en", "ru", "ja"))
def test_whose_turn_it_is_is_marked_on_the_tile_by_a_border_and_a_word(ui_app: Any, lang: str) -> None:
    from fixtures.views import table_view

    ui_app.set_language(lang)
    try:
        view = replace(table_view(), turn="p3")
        show(ui_app, view)
        screen = ui_app.screen("table")
        marked, other = screen.tile_for("p3"), screen.tile_for("p1")
        word = ui_app.t("tile.turn")
        assert marked.active and word in marked.badge
        assert not other.active and word not in other.badge
        from kivy.graphics import Line

        def border_alpha(tile: Any) -> float:
            colour = None
            for instruction in tile.canvas.before.children:
                if isinstance(instruction, Line):
                    return float(colour.a)
                colour = instruction if type(instruction).__name__ == "Color" else colour
            raise AssertionError("no border on the tile")

        assert border_alpha(marked) == 1.0 and border_alpha(other) == 0.0
    finally:
        ui_app.set_language("en")


def test_cancel_and_decline_look_different(ui_app: Any) -> None:
    from fixtures.views import table_view

    show(ui_app, table_view())
    actions = ui_app.screen("table").ids.actions
    cancel, decline = actions.button_for("press_cancel"), actions.button_for("press_decline")
    if cancel is None or decline is None:  # behind a group on some tables: the colours are the row's own
        from ui.touch.widgets.actions import trigger_colour

        cancel_bg, decline_bg = trigger_colour("press_cancel"), trigger_colour("press_decline")
    else:
        cancel_bg, decline_bg = tuple(cancel.bg), tuple(decline.bg)
    assert delta_e(cancel_bg, decline_bg) > 30, (cancel_bg, decline_bg)
    assert delta_e(cancel_bg, palette.DANGER) > 30, "Cancel is neutral, not red"
    assert delta_e(decline_bg, palette.DANGER) > 20, "Decline has its own colour"
    r, g, b, _ = cancel_bg
    assert max(r, g, b) - min(r, g, b) < 0.15, f"Cancel is a grey: {cancel_bg}"


def test_the_standings_legend_never_looks_like_a_player() -> None:
    for part in bars.SEGMENTS:
        for token, rgba in palette.TOKENS.items():
            assert delta_e(part, rgba) >= 30, f"{part} looks like the {token} token ({delta_e(part, rgba):.1f})"
    for a, b in ((bars.CASH, bars.DEEDS), (bars.CASH, bars.BUILDINGS), (bars.DEEDS, bars.BUILDINGS)):
        assert delta_e(a, b) >= 25, (a, b)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_ultimates_standings_show_no_buildings_and_the_classic_ones_do(ui_app: Any, lang: str) -> None:
    from fixtures.classic_views import standings_view as classic_standings
    from fixtures.views import standings_view

    ui_app.set_language(lang)
    try:
        show(ui_app, standings_view())
        legend = ui_app.screen("standings").ids.legend_buildings
        assert legend.text == "" and legend.opacity == 0 and legend.height == 0
        cash, deeds = (ui_app.screen("standings").ids[name] for name in ("legend_cash", "legend_deeds"))
        bars_widget = ui_app.screen("standings").ids.bars
        for label in (cash, deeds):  # the two lines left stand under the bars, each its own line
            assert label.top <= bars_widget.y + 1 and label.height >= 16, (label.text, label.y, bars_widget.y)
        assert deeds.top <= cash.y + 1
        show(ui_app, classic_standings())
        legend = ui_app.screen("standings").ids.legend_buildings
        assert legend.text == ui_app.t("standings.buildings") and legend.opacity == 1 and legend.height > 10
    finally:
        ui_app.set_language("en")


# -- setup and debt -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_seat_label_stays_on_one_line(ui_app: Any, lang: str) -> None:
    from fixtures.views import setup_view

    ui_app.set_language(lang)
    try:
        show(ui_app, setup_view())
        rows = ui_app.screen("setup").seat_rows
        assert rows
        for row in rows.values():
            label = row.label
            shown = getattr(label, "_display", None) or label.text
            line = label.font_size * 1.6
            assert "\n" not in shown and label.texture_size[1] <= line, (label.text, label.texture_size)
            assert not label.shorten, label.text
    finally:
        ui_app.set_language("en")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_debt_screen_asks_for_no_deeds_when_nothing_is_short(ui_app: Any, lang: str) -> None:
    from fixtures.views import debt_view

    from engine.banker.viewmodel import DebtView

    ui_app.set_language(lang)
    try:
        view = debt_view()
        rich = replace(view, players=(replace(view.players[0], balance=5000), *view.players[1:]),
                       debt=DebtView("p1", "p3", 1160))
        show(ui_app, rich)
        text = ui_app.screen("debt").ids.prompt.text
        assert text == ui_app.t("debt.cash_enough", cash=ui_app.presenter.money(5000)), text
        show(ui_app, view)  # short of M1,590: deeds raise the rest
        assert ui_app.screen("debt").ids.prompt.text.startswith(ui_app.t("debt.cash", cash="\0").split("\0")[0])
    finally:
        ui_app.set_language("en")


def test_a_deed_then_its_player_are_two_touches_on_the_tray_with_no_scroll_between(classic_session: Any) -> None:
    """The deed at the far end of the row, then the player: the player's card is in sight at once, and the
    banker takes the pair as one gesture (the buyer's offer), well within its timeout."""
    from ui_driver import touch, wait_for

    app = classic_session
    tray = app.root.ids.tray
    for seat in (1, 2):
        app.controller.tap(player_card(app, seat))
    app.controller.press("ok")
    pump(3)
    assert app.presenter.view.state == "idle", app.presenter.view.state
    deed = max((c for c in app.session.registry.cards() if c.kind == "deed"), key=lambda c: c.value or 0).uid
    tray.scroll_to_card(deed)
    pump(3)
    before = app.controller.handled
    touch(tray.button_for(deed))
    wait_for(lambda: app.controller.handled > before)
    pump(2)
    button = tray.button_for(player_card(app, int(str(app.presenter.view.turn)[1:])))
    assert button is not None, "the player's card is out of sight after the deed"
    before = app.controller.handled
    touch(button)
    wait_for(lambda: app.controller.handled > before)
    pump(2)
    assert app.presenter.view.prompt.key in ("prompt.buy", "prompt.buy_short"), app.presenter.view.prompt


@pytest.mark.parametrize("height", (92, 115, 160))
def test_the_turn_word_leaves_the_balance_as_large_as_on_the_other_tiles(ui_app: Any, height: int) -> None:
    """The badge line (whose turn, jail) came out of the balance's room: with the Landed on… group open the
    tiles are short and the player whose turn it was had the smallest balance on the table."""
    from ui.touch.widgets.balance import BalanceTile

    tiles = []
    for badge in ("", ui_app.t("tile.turn")):
        tile = BalanceTile(size_hint=(None, None), size=(390, height))
        tile.update(player_id="p1", name="Player 1", balance=1470, balance_text="M1,470", token="red", badge=badge,
                    active=bool(badge))
        ui_app.root.add_widget(tile)
        tiles.append(tile)
    try:
        pump(3)
        plain, marked = (t.children[0] for t in tiles)  # the balance: the box's last child
        assert plain.text == marked.text == "M1,470"
        assert marked.height >= 0.9 * plain.height, (marked.height, plain.height)
    finally:
        for tile in tiles:
            ui_app.root.remove_widget(tile)


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Alexandra Constantinescu owes Bob M1,100 for rent"),
    ("ru", "Alexandra Constantinescu должен M1 100 за аренду, получатель: Bob"),
    ("ro", "Alexandra Constantinescu datorează M1.100 pentru chirie către Bob"),
    ("ja", "Alexandra ConstantinescuはBobにM1,100の支払いが必要（家賃）")])
def test_the_debt_screen_says_what_the_debt_is_for_inside_its_sentence(ui_app: Any, lang: str, said: str) -> None:
    """The reason was glued after the sentence: «…, получатель: Ana за аренду», 「…の支払いが必要 家賃」."""
    from fixtures.classic_views import debt_view

    ui_app.set_language(lang)
    try:
        show(ui_app, debt_view())
        assert ui_app.screen("debt").ids.summary.text.replace("\u00a0", " ").replace("\u202f", " ") == said
    finally:
        ui_app.set_language("en")
