"""The classic ruleset's part of the banker: its rows of the transition table, the handlers they name and
its hooks into the view (docs/flows.md, "The classic game").

The physical-dice way of playing: the unit is told only what it must know (a deed and who landed there, a
utility's dice total, a tax, a card drawn), never a token's position. This sub-package is the ruleset's
plug-in for the banker (engine/banker/plugins.py), the only part of the classic ruleset that imports the
banker. The handler modules are plain functions ``def name(ctx: Context, event: EventData)`` bound by name
to the banker's context; every completed gesture, and every tap of a build or sell gesture, is exactly
one engine command.
"""

from __future__ import annotations

from types import ModuleType

from engine.banker.table import SETTLE_FROM, RulesetRows, row
from engine.banker.table import BankerState as S
from engine.rulesets.classic.gestures import (
    actions,
    auction,
    building,
    clock,
    debt,
    debtdeeds,
    landing,
    positions,
    timers,
    trade,
)
from engine.rulesets.classic.gestures.screen import VIEW as CLASSIC_VIEW
from engine.rulesets.classic.gestures.seedrows import SEED_RULE_ROWS
from engine.rulesets.classic.gestures.seedview import with_seed_rules

PLAYER_BUTTONS = [f"press_{b}" for b in (*actions.DIRECT, *actions.TAXES, *actions.DECKS)]
"""Buttons that need a player: card-then-button (state PLAYER) or button-then-card (state ACTION)."""
CARD_FIRST = [b for b in PLAYER_BUTTONS if b != "press_end_turn"] + ["press_build", "press_sell"]
TAX_BUTTONS = [f"press_{b}" for b in actions.TAXES]
DECK_BUTTONS = [f"press_{b}" for b in actions.DECKS]

ROWS = RulesetRows(
    gestures=(
        *positions.GESTURES,  # the unit keeps the tokens (option positions): the dice first
        *SEED_RULE_ROWS,  # the seeds' remaining rules: deeds to a creditor, the action timers
        # --- a deed first: its owner, buildings and rent; then the card of the player who landed ----------
        row("tap_deed", S.IDLE, S.DEED, None, "pick_deed"),
        row("tap_player", S.DEED, S.BUY, ["known_player", "deed_unowned", "can_consider_buy"], "pick_player"),
        row("tap_player", S.DEED, S.OWN, ["known_player", "deed_own"], "pick_player"),
        row("tap_player", S.DEED, S.DICE, ["known_player", "deed_other", "deed_utility", "can_owe_rent"],
            "pick_player"),
        row("tap_player", S.DEED, S.IDLE, ["known_player", "deed_other", "can_pay_rent"],
            ["do_pay_rent", "then_settle"]),
        row("press_ok", S.BUY, S.IDLE, "can_buy", ["do_buy", "then_settle"]),
        row("press_decline", S.BUY, S.IDLE, "can_decline", ["do_decline", "then_settle"]),
        row("answer", S.DICE, S.IDLE, "can_pay_utility", ["do_pay_utility", "then_settle"]),  # the dice total
        row("press_mortgage", S.OWN, S.IDLE, "can_mortgage", ["do_mortgage", "then_settle"]),
        row("press_lift", S.OWN, S.IDLE, "can_lift", ["do_lift", "then_settle"]),
        # --- a player card first: balance, then a deed, a card or a button ---------------------------------
        row("tap_player", S.IDLE, S.PLAYER, "known_player", "pick_player"),
        row("tap_deed", S.PLAYER, S.BUY, ["deed_unowned", "can_consider_buy"], "pick_deed"),
        row("tap_deed", S.PLAYER, S.OWN, "deed_own", "pick_deed"),
        row("tap_deed", S.PLAYER, S.DICE, ["deed_other", "deed_utility", "can_owe_rent"], "pick_deed"),
        row("tap_deed", S.PLAYER, S.IDLE, ["deed_other", "can_pay_rent"], ["do_pay_rent", "then_settle"]),
        row(["press_build", "press_sell"], S.PLAYER, S.BUILD, "can_start_building", "pick_action"),
        row(TAX_BUTTONS, S.PLAYER, S.TAX, "tax_has_choice", "pick_action"),
        row(DECK_BUTTONS, S.PLAYER, S.CARD_SPACE, "card_needs_space", "pick_action"),
        row("tap_event", S.PLAYER, S.CARD_SPACE, "card_needs_space", "pick_event"),
        row("tap_event", S.PLAYER, S.IDLE, "can_act", ["do_act", "then_settle"]),
        row(PLAYER_BUTTONS, S.PLAYER, S.IDLE, "can_act", ["do_act", "then_settle"]),
        row("press_trade", [S.IDLE, S.PLAYER], S.TRADE, "in_play", "start_trade"),
        # --- a button first, then the player's card ----------------------------------------------------------
        row(CARD_FIRST, S.IDLE, S.ACTION, "in_play", "pick_action"),
        row("tap_player", S.ACTION, S.BUILD, ["action_is_building", "can_start_building"], "pick_player"),
        row("tap_player", S.ACTION, S.TAX, ["action_is_tax", "tax_has_choice"], "pick_player"),
        row("tap_player", S.ACTION, S.CARD_SPACE, ["action_is_deck", "card_needs_space"], "pick_player"),
        row("tap_player", S.ACTION, S.IDLE, "can_act", ["do_act", "then_settle"]),
        row("answer", S.TAX, S.IDLE, "can_choose_tax", ["do_choose_tax", "then_settle"]),  # flat / percent
        # --- Chance and Community Chest: a physical card, then the drawer's card (or the screen's deck) ----
        row("tap_event", S.IDLE, S.EVENT_CARD, "in_play", "pick_event"),
        row("tap_player", S.EVENT_CARD, S.CARD_SPACE, "card_needs_space", "pick_player"),
        row("tap_player", S.EVENT_CARD, S.IDLE, "can_act", ["do_act", "then_settle"]),
        row("answer", S.CARD_SPACE, S.IDLE, "can_draw_at", ["do_draw_at", "then_settle"]),  # the space's position
        # --- build or sell: one tap one building (its own command), ✓ ends --------------------------------
        row("tap_deed", S.BUILD, S.IDLE, ["building_short", "can_open_building_auction"],
            ["do_open_building_auction", "then_settle"]),
        row("tap_deed", S.BUILD, None, "can_build_step", "do_build_step"),
        row("press_ok", S.BUILD, S.IDLE, None, "then_settle"),
        row("tap_deed", S.PLACE, S.IDLE, "can_place", ["do_place", "then_settle"]),  # a building won at auction
        # --- a deal: both cards, what each gives, then one side's card proposes and the other's accepts ----
        row("tap_player", S.TRADE, None, "trade_needs_side", "add_side"),
        row("tap_player", S.TRADE, S.TRADE_OPEN, ["is_trade_side", "can_propose"], "do_propose"),
        row("tap_deed", S.TRADE, None, "can_add_deed", "toggle_deed"),
        row("tap_event", S.TRADE, None, "can_add_card", "toggle_card"),  # a Get Out of Jail Free card
        row("answer", S.TRADE, None, "deal_answer_valid", "do_deal_answer"),  # cash=SEAT:AMOUNT, card=ID
        row("tap_player", S.TRADE_OPEN, S.IDLE, ["is_partner", "can_accept"], ["do_accept", "then_settle"]),
        row(["press_cancel", "timeout"], S.TRADE_OPEN, S.IDLE, "can_cancel_trade",
            ["do_cancel_trade", "then_settle"]),
        # --- auction -------------------------------------------------------------------------------------
        row("tap_player", S.AUCTION, None, "can_join_auction", ["pick_player", "do_bid", "then_settle"]),
        row(["press_bid", "answer"], S.AUCTION, None, "can_bid", ["do_bid", "then_settle"]),
        row("countdown", S.AUCTION, S.AUCTION_WON, "has_high_bid"),
        row("countdown", S.AUCTION, S.IDLE, "can_close_auction", ["do_close_auction", "then_settle"]),
        row("tap_player", S.AUCTION_WON, S.IDLE, ["is_winner", "can_close_auction"],
            ["do_close_auction", "then_settle"]),
        # --- debt: sell or mortgage by tapping deeds, then pay; or go bankrupt ----------------------------
        row("tap_deed", S.DEBT, S.IDLE, "can_raise", ["do_raise", "then_settle"]),
        row(["press_ok", "tap_player"], S.DEBT, S.IDLE, ["is_debtor", "can_settle"], ["do_settle", "then_settle"]),
        row("press_bankrupt", S.DEBT, S.IDLE, "can_go_bankrupt", ["do_go_bankrupt", "then_settle"]),
        # --- the end of the turn; the game's clock ----------------------------------------------------------
        row("press_end_turn", S.IDLE, None, "can_end_current_turn", ["do_end_current_turn", "then_settle"]),
        row("clock", S.IDLE, S.IDLE, "time_is_up", ["do_call_time", "then_settle"]),
        row("clock", S.IDLE, None, "minute_due", "do_advance_clock"),
    ),
    phases=(
        row("settle", list(SETTLE_FROM), S.AUCTION, "phase_auction", "start_countdown"),
        row("settle", list(SETTLE_FROM), S.DEBT, "phase_debt", "forget_gesture"),
        row("settle", list(SETTLE_FROM), S.PLACE, "phase_place", "forget_gesture"),
    ),
    landings=(
        row("settle", list(SETTLE_FROM), S.TRADE_OPEN, ["phase_play", "trade_is_open"]),
        *positions.LANDINGS,
    ),
)
"""The classic ruleset's rows: deeds, rent and the utility's dice, mortgages, player actions and taxes, the
cards, building and selling, deals, the auction, debt, the end of the turn and the clock; ``settle`` to
its auction, debt and placing phases, and to an open deal."""

HANDLERS: tuple[ModuleType, ...] = (landing, actions, building, trade, auction, debt, clock, positions, debtdeeds,
                                    timers)
"""The handler modules :data:`ROWS` names."""

VIEW = with_seed_rules(positions.with_positions(CLASSIC_VIEW))
"""The classic view hooks, with the prompts of the positions mode first."""
