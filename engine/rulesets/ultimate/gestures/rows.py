"""The Ultimate Banking ruleset's rows of the banker's transition table and the handler modules they name
(docs/flows.md); the package (``__init__``) hands them out when the banker asks for them."""

from __future__ import annotations

from types import ModuleType

from engine.banker.table import CARD_FIRST_BUTTONS, PLAYER_BUTTONS, SETTLE_FROM, RulesetRows, row
from engine.banker.table import BankerState as S
from engine.rulesets.ultimate.gestures import actions, auction, cards, debt, deeds, positions

ROWS = RulesetRows(
    gestures=(
        # --- a deed: check it, then the lander's card decides --------------------------------------------
        row("tap_deed", S.IDLE, S.DEED, None, "pick_deed"),
        row("tap_player", S.DEED, S.BUY, ["is_lander", "deed_unowned", "can_consider_buy"], "pick_player"),
        row("tap_player", S.DEED, S.IDLE, ["is_lander", "deed_own", "can_land_own"], ["do_land_own", "then_settle"]),
        row("tap_player", S.DEED, S.IDLE, ["is_lander", "deed_other", "can_pay_rent"], ["do_pay_rent", "then_settle"]),
        row("press_ok", S.BUY, S.IDLE, "can_buy", ["do_buy", "then_settle"]),
        row("press_decline", S.BUY, S.IDLE, "can_decline", ["do_decline", "then_settle"]),
        # --- a player card first: balance, then a button or a deed / event card ----------------------------
        row("tap_player", S.IDLE, S.PLAYER, "known_player", "pick_player"),
        row("tap_deed", S.PLAYER, S.BUY, ["deed_unowned", "can_consider_buy"], "pick_deed"),
        row("tap_deed", S.PLAYER, S.IDLE, ["deed_own", "can_land_own"], ["do_land_own", "then_settle"]),
        row("tap_deed", S.PLAYER, S.IDLE, ["deed_other", "can_pay_rent"], ["do_pay_rent", "then_settle"]),
        row("tap_event", S.PLAYER, S.IDLE, "can_draw_card", ["do_draw", "then_settle"]),
        row("press_location", S.PLAYER, S.LOCATION, None, "pick_action"),
        row(PLAYER_BUTTONS, S.PLAYER, S.IDLE, "can_act", ["do_act", "then_settle"]),
        # --- a button first, then the player's card ------------------------------------------------------
        row(CARD_FIRST_BUTTONS, S.IDLE, S.ACTION, "in_play", "pick_action"),
        row("tap_player", S.ACTION, S.LOCATION, "action_is_location", "pick_player"),
        row("tap_player", S.ACTION, S.IDLE, ["is_lander", "can_act"], ["do_act", "then_settle"]),
        row("tap_event", S.ACTION, S.IDLE, ["action_is_draw", "can_draw_landed"], ["do_draw_landed", "then_settle"]),
        # --- Location: pay the fee and jump; ``settle`` then starts the landing (BUY, or DEED for a card) --
        row("tap_deed", S.LOCATION, S.IDLE, "can_locate", ["do_locate", "then_settle"]),
        # --- a physical event card, then the drawer's card ---------------------------------------------------
        row("tap_event", S.IDLE, S.EVENT_CARD, None, "pick_event"),
        row("tap_player", S.EVENT_CARD, S.IDLE, "can_draw_card", ["do_draw", "then_settle"]),
        # --- an event's choices (a deed or player card may answer too) -------------------------------------
        row(["answer", "tap_deed", "tap_player", "press_ok"], S.EVENT, S.IDLE, "choice_completes",
           ["do_resolve", "then_settle"]),
        row(["answer", "tap_deed", "tap_player"], S.EVENT, None, "choice_partial", "add_choice"),
        # --- auction ------------------------------------------------------------------------------------
        row("tap_player", S.AUCTION, None, "is_high_bidder", "pick_player"),  # their own bid stands
        row("tap_player", S.AUCTION, None, "can_join_auction", ["pick_player", "do_bid", "then_settle"]),  # one touch
        row("press_bid", S.AUCTION, None, "can_bid", ["do_bid", "then_settle"]),
        row("countdown", S.AUCTION, S.AUCTION_WON, "has_high_bid"),
        row("countdown", S.AUCTION, S.IDLE, "can_close_auction", ["do_close_auction", "then_settle"]),
        row("tap_player", S.AUCTION_WON, S.IDLE, ["is_winner", "can_close_auction"],
           ["do_close_auction", "then_settle"]),
        # --- debt: return deeds until covered ---------------------------------------------------------------
        row("tap_deed", S.DEBT, S.IDLE, "can_return", ["do_return", "then_settle"]),
        # --- the unit keeps the tokens: two dice on the pad, or the unit's roll ----------------------------
        row("answer", S.IDLE, None, ["dice_complete", "can_roll"], ["do_roll", "take_roll_landing", "then_settle"]),
        row("answer", S.IDLE, None, "die_partial", "add_die"),
        row(["press_cancel", "timeout"], S.IDLE, None, "die_held", "clear_die"),
        # --- end of turn: the current player is known -------------------------------------------------------
        row("press_end_turn", S.IDLE, None, "can_end_current_turn", ["do_end_current_turn", "then_settle"]),
    ),
    phases=(
        row("settle", list(SETTLE_FROM), S.AUCTION, "phase_auction", "start_countdown"),
        row("settle", list(SETTLE_FROM), S.EVENT, "phase_event", "forget_gesture"),
        row("settle", list(SETTLE_FROM), S.DEBT, "phase_debt", "forget_gesture"),
    ),
    landings=(
        row("settle", list(SETTLE_FROM), S.BUY, ["phase_play", "landing_unowned"], "start_landing"),
        row("settle", list(SETTLE_FROM), S.DEED, ["phase_play", "landing_owned"], "start_landing"),
        row("settle", list(SETTLE_FROM), S.ACTION, ["phase_play", "landed_event"], "start_draw"),
        row("settle", list(SETTLE_FROM), S.LOCATION, ["phase_play", "landed_location"], "start_location"),
    ),
)
"""The Ultimate Banking ruleset's rows: deeds and levels, player actions, Location, event cards, the
auction, debt, the dice when the unit keeps the tokens, and the end of the turn; ``settle`` to its auction,
event and debt phases, the landing after a jump, and the landing after a roll."""

HANDLERS: tuple[ModuleType, ...] = (deeds, actions, cards, auction, debt, positions)
"""The handler modules :data:`ROWS` names."""
