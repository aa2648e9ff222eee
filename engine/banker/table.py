"""The banker's states and its ONE transition table (docs/architecture.md (conventions)).

Read a row as: *in state SOURCE, input TRIGGER, if CONDITIONS hold, go to DEST and then run AFTER*.
Conditions and after-callbacks are named by string: they are the functions of the handler modules
(:mod:`engine.banker.gestures`), bound by the :class:`~engine.banker.machine.Banker` to its context under
those names; a condition named ``can_*`` asks the engine (``Game.check``) whether the command the
gesture would issue is allowed, an ``after`` named ``do_*`` issues exactly that one command. After a
command, the internal trigger ``settle`` moves the machine to the state the engine's phase implies
(auction, event, debt, over).

Triggers are the inputs: ``tap_player``, ``tap_deed``, ``tap_event``, ``tap_banker`` (a card presented,
by its registered role), ``press_<button>`` (:data:`BUTTONS`), ``answer`` (``choose()``: an answer),
``timeout`` (a gesture left unfinished for ``timeout_s``), ``countdown`` (the auction's time ran out),
``clock`` (a minute of the game's clock passed: the classic game's time limit and rent tax) and ``settle``. This module has no logic: it is data, drawn by ``boardbank diagram``.

The table is the rows every ruleset shares (:data:`SHARED_ROWS`: setup, the banker menu behind its PIN,
leaving a gesture, following the engine's phase) with a ruleset's own rows put in their places
(:class:`RulesetRows`; today's are :data:`ULTIMATE_ROWS`) by :func:`build_table`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class BankerState(Enum):
    """What the unit is waiting for. The value is the name shown in views, scripts and the diagram."""

    SETUP = "setup"  # registering players: tap bank cards, choose names, tokens, options, edition; then ✓
    IDLE = "idle"  # a turn is under way; nothing half done
    DEED = "deed"  # a deed was tapped: its owner, level and rent are shown; waiting for a player card
    BUY = "buy"  # an unowned deed and the lander are known: ✓ buys, decline opens the auction
    PLAYER = "player"  # a player card was tapped: balance shown; waiting for a button or a card
    ACTION = "action"  # a button (GO, jail, draw, Location...) was pressed: waiting for the player's card
    LOCATION = "location"  # Location for a known player: waiting for the destination deed
    EVENT_CARD = "event_card"  # a physical event card was tapped: waiting for the drawer's card
    EVENT = "event"  # an event card waits for its choices
    AUCTION = "auction"  # bidders tap their cards and raise; the countdown runs
    AUCTION_WON = "auction_won"  # the countdown ended with a high bid: the winner confirms by a tap
    DEBT = "debt"  # the debtor taps deeds to return until the debt is covered
    OVER = "over"  # final standings
    PIN = "pin"  # the banker menu asks for its PIN
    MENU = "menu"  # the banker menu: undo, settings, new game
    SETTINGS = "settings"  # the banker's settings (timeouts, PIN)
    # -- the classic game's own (docs/flows.md, "The classic game") --------------------------------------
    OWN = "own"  # an own deed and its owner: mortgage it or lift its mortgage (amounts shown)
    DICE = "dice"  # a utility's rent: the dice total on the keypad
    BUILD = "build"  # building or selling: each deed tapped is one building, ✓ ends
    TAX = "tax"  # Income Tax with a choice: the flat amount or the share of worth
    CARD_SPACE = "card_space"  # a card that moves the token: which space of its deck the token stands on
    TRADE = "trade"  # a deal being put together: both cards, deeds, cash, jail cards
    TRADE_OPEN = "trade_open"  # one side confirmed (the offer is open): the other side's card accepts
    PLACE = "place"  # the winner of a building auction taps the street to put it on


S = BankerState

BUTTONS: dict[str, str] = {
    "ok": "✓: confirm (start the game, buy, answer a card without a choice)",
    "cancel": "X: abandon the gesture under way (nothing changes)",
    "menu": "open the banker menu (asks for the PIN)",
    "go": "pass GO: with the player's card before or after",
    "location": "use a Location space: the player's card, then the deed",
    "jail": "go to jail",
    "pay_fee": "pay the jail fee to leave",
    "roll_doubles": "a jail roll: doubles",
    "roll_no_doubles": "a jail roll: no doubles",
    "draw": "draw an event card from the screen's virtual deck",
    "end_turn": "end the turn: the next player plays",
    "decline": "do not buy the deed: the auction opens",
    "bid": "auction: raise the tapping bidder's bid by the value (20 or 100)",
    "undo": "menu: reverse the last command (asks first, naming it; ✓ confirms)",
    "settings": "menu: the banker's settings",
    "new_game": "menu: start registering players for a new game (a game still open: asks first, ✓ confirms)",
    "back": "setup: back to the game New game left (until the new game starts)",
    "build": "classic: build, one house per deed tapped (evenly; the fifth is the hotel), ✓ ends",
    "sell": "classic: sell buildings back, one per deed tapped, ✓ ends",
    "mortgage": "classic: mortgage the deed checked (its owner's card known)",
    "lift": "classic: lift the mortgage of the deed checked (mortgage + 10 %)",
    "income_tax": "classic: the player landed on Income Tax",
    "luxury_tax": "classic: the player landed on Luxury (Super) Tax",
    "chance": "classic: draw Chance from the screen's shuffled deck (optional value: the space's position)",
    "chest": "classic: draw Community Chest from the screen's deck (optional value: the space's position)",
    "use_card": "classic: leave jail with a Get Out of Jail Free card held",
    "jackpot": "classic: the Free Parking pot to the player who stopped there",
    "trade": "classic: put a deal together (both players' cards, deeds, cash, jail cards)",
    "bankrupt": "classic: the debtor gives up (bankruptcy)",
    "pay_deeds": "classic: pay a player creditor partly with deeds (option pay_debt_with_deeds)",
}
"""Every button the banker knows (``press(name)`` fires the trigger ``press_<name>``)."""

PLAYER_ACTIONS = ("go", "jail", "pay_fee", "roll_doubles", "roll_no_doubles", "draw", "end_turn")
"""Buttons that need a player: card-then-button (state PLAYER) or button-then-card (state ACTION)."""

GESTURE_STATES = (S.DEED, S.BUY, S.PLAYER, S.ACTION, S.LOCATION, S.EVENT_CARD, S.PIN, S.MENU, S.SETTINGS,
                  S.OWN, S.DICE, S.BUILD, S.TAX, S.CARD_SPACE, S.TRADE, S.TRADE_OPEN)
"""States of a gesture under way: they time out (and X cancels them) back to the engine's phase."""

PHASE_STATES = (S.SETUP, S.IDLE, S.AUCTION, S.AUCTION_WON, S.EVENT, S.DEBT, S.OVER, S.PLACE)
"""States that mirror the engine's phase (a restart restores one of them from the engine's phase)."""

SETTLE_FROM = (S.IDLE, S.AUCTION)
"""Where ``settle`` runs: every command row ends in IDLE, or stays in AUCTION (a bid) or IDLE (end turn)."""

MENU_FROM = (S.SETUP, S.IDLE, S.AUCTION, S.AUCTION_WON, S.EVENT, S.DEBT, S.OVER, S.PLACE)
"""Where the banker card or the menu button opens the PIN prompt."""

PLAYER_BUTTONS = [f"press_{b}" for b in PLAYER_ACTIONS]
CARD_FIRST_BUTTONS = [f"press_{b}" for b in PLAYER_ACTIONS if b != "end_turn"] + ["press_location"]


def row(trigger: str | list[str], source: Any, dest: Any, conditions: Any = None, after: Any = None) -> dict[str, Any]:
    row: dict[str, Any] = {"trigger": trigger, "source": source, "dest": dest}
    if conditions:
        row["conditions"] = conditions
    if after:
        row["after"] = after
    return row


Row = dict[str, Any]
"""One row: ``trigger`` (a name or a list), ``source`` (a state or a list), ``dest`` (None: stay),
``conditions`` and ``after`` (handler names, a name or a list)."""


@dataclass(frozen=True)
class RulesetRows:
    """A ruleset's own rows, each list in the place :func:`build_table` gives it among the shared rows
    (for one trigger in one state the first row whose conditions hold wins, so the places matter)."""

    gestures: tuple[Row, ...]
    """The ruleset's gestures (after setup's rows, before the banker menu's)."""
    phases: tuple[Row, ...] = ()
    """``settle`` rows to the states of the ruleset's own engine phases (after setup's, before over's)."""
    landings: tuple[Row, ...] = ()
    """``settle`` rows in play that continue a gesture (before the plain return to IDLE)."""


SETUP_ROWS: tuple[Row, ...] = (
    # --- setup: tap bank cards; answer names, tokens, options, the edition; then ✓ --------------------
    row("tap_player", S.SETUP, None, "can_seat", "do_seat"),
    row("press_ok", S.SETUP, S.IDLE, "can_start", ["do_start", "then_settle"]),
    row("press_cancel", S.SETUP, None, None, "do_clear_seats"),
    row("press_back", S.SETUP, S.IDLE, "can_go_back", "do_go_back"),  # the game New game left, until one starts
    row("answer", S.SETUP, None, "setup_answer_valid", "do_setup_answer"),  # name, token, option, edition
)

MENU_ROWS: tuple[Row, ...] = (
    # --- the banker menu behind a PIN ---------------------------------------------------------------------
    row(["tap_banker", "press_menu"], list(MENU_FROM), S.MENU, "pin_not_set", "open_pin"),
    row(["tap_banker", "press_menu"], list(MENU_FROM), S.PIN, None, "open_pin"),
    row("answer", S.PIN, S.MENU, "pin_matches"),
    # Undo and New game ask first (engine/banker/undoing.py): ✓ does it, X drops the question (the menu stays)
    row("press_undo", S.MENU, None, "can_undo", "ask_undo"),
    row("press_ok", S.MENU, S.IDLE, ["confirming_undo", "can_undo"], ["do_undo", "then_settle"]),
    row("press_new_game", S.MENU, None, "game_open", "ask_new_game"),  # a game still open: which one ends
    row("press_new_game", S.MENU, S.SETUP, None, "do_new_game"),  # no game, or it is over: at once
    row("press_ok", S.MENU, S.SETUP, "confirming_new_game", "do_new_game"),
    row("press_cancel", S.MENU, None, "confirming", "drop_question"),
    row("answer", S.MENU, S.IDLE, "correction_valid", ["do_correction", "then_settle"]),  # corrections
    row("press_settings", S.MENU, S.SETTINGS, None, "drop_question"),
    row("answer", S.SETTINGS, None, "setting_valid", "do_setting"),
    row("press_ok", S.SETTINGS, S.MENU, None, "confirm_settings"),
    # --- the standings' New game: at once without a PIN, else through the PIN and the menu ---------------
    row("press_new_game", S.OVER, S.SETUP, "pin_not_set", "do_new_game"),
    row("press_new_game", S.OVER, S.PIN, None, "open_pin"),
    # --- leaving a gesture: X, or time passing; X takes back what the gesture already applied -------------
    row("press_cancel", list(GESTURE_STATES), S.IDLE, ["cancel_undoes", "can_undo"], ["do_cancel_undo", "then_settle"]),
    row(["press_cancel", "timeout"], list(GESTURE_STATES), S.IDLE, "gesture_may_end",
        ["forget_gesture", "then_settle"]),
)

SETTLE_SETUP: tuple[Row, ...] = (
    # --- after a command: follow the engine's phase ----------------------------------------------------
    row("settle", list(SETTLE_FROM), S.SETUP, "phase_setup", "forget_gesture"),
)
SETTLE_OVER: tuple[Row, ...] = (
    row("settle", list(SETTLE_FROM), S.OVER, "phase_over", "forget_gesture"),
    # the menu's Undo of a finished auction, back to its landing: the lander buys or declines again
    row("settle", list(SETTLE_FROM), S.BUY, "undone_to_landing", "start_undone_landing"),
)
SETTLE_PLAY: tuple[Row, ...] = (row("settle", list(SETTLE_FROM), S.IDLE, "phase_play", "forget_gesture"),)

SHARED_ROWS: tuple[Row, ...] = (*SETUP_ROWS, *MENU_ROWS, *SETTLE_SETUP, *SETTLE_OVER, *SETTLE_PLAY)
"""The rows of every ruleset (their order within the table is :func:`build_table`'s)."""




def build_table(ruleset_rows: RulesetRows) -> list[Row]:
    """The whole table: the shared rows with ``ruleset_rows`` in their places, in order."""
    return [*SETUP_ROWS, *ruleset_rows.gestures, *MENU_ROWS, *SETTLE_SETUP, *ruleset_rows.phases,
            *SETTLE_OVER, *ruleset_rows.landings, *SETTLE_PLAY]


def one_trigger_rows(table: list[Row]) -> list[Row]:
    """``table`` as the ``transitions`` machine takes it (one trigger per row, order kept)."""
    return [
        {**row, "trigger": trig}
        for row in table
        for trig in (row["trigger"] if isinstance(row["trigger"], list) else [row["trigger"]])
    ]


def machine_kwargs(table: list[Row]) -> dict[str, Any]:
    """How a banker machine over ``table`` is built (the diagram builds its GraphMachine from the same)."""
    return {
        "states": BankerState,
        "transitions": one_trigger_rows(table),
        "initial": BankerState.SETUP,
        "queued": True,
        "auto_transitions": False,
        "send_event": True,
    }


def triggers(table: list[Row]) -> list[str]:
    """Every trigger of ``table`` (inputs and the internal ``settle``), sorted."""
    return sorted({r["trigger"] for r in one_trigger_rows(table)})


def input_triggers() -> list[str]:
    """The triggers an input can fire: taps, buttons, ``answer``, ``timeout``, ``countdown``."""
    taps = ["tap_player", "tap_deed", "tap_event", "tap_banker"]
    return sorted({*taps, *(f"press_{b}" for b in BUTTONS), "answer", "timeout", "countdown"})
