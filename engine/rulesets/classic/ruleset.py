"""The classic ruleset as the registry hands it out (engine/rulesets/registry.py), laid out as every ruleset
is (engine/rulesets/api.py ``ruleset_in``: its simulator and receipts loaded only when used)."""

from __future__ import annotations

from engine.rulesets.api import ruleset_in
from engine.rulesets.classic.commands import CLASSIC_COMMANDS
from engine.rulesets.classic.edition import SPACE_KINDS, parse_edition
from engine.rulesets.classic.events import CLASSIC_EVENTS
from engine.rulesets.classic.fold import FOLD
from engine.rulesets.classic.invariants import check_invariants
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.rules import RULES, rules_of
from engine.rulesets.classic.state import ClassicState

REFUSAL_KEYS: frozenset[str] = frozenset({
    "wrong_phase", "unknown_player", "player_bankrupt", "player_in_jail", "unknown_deed", "bad_option",
    "bad_player_count", "duplicate_players", "bad_player_id", "bad_player_text", "bad_seed", "not_your_turn",
    "deed_owned", "not_enough_cash", "deed_not_yours", "deed_unowned", "deed_is_own", "not_a_bidder",
    "bid_over_cash", "not_in_jail", "not_enough_cash_jail_fee", "bad_doubles", "not_the_debtor",
    # the classic ruleset's own keys
    "bad_minute", "not_timed", "wrong_rent_command", "rent_not_claimed", "bad_dice", "not_a_street",
    "set_incomplete", "set_mortgaged", "hotel_built", "build_unevenly", "not_the_winner", "wrong_building",
    "bank_out_of_buildings", "no_buildings", "sell_unevenly", "already_mortgaged",
    "set_has_buildings", "not_mortgaged", "bad_building_kind", "no_shortage", "not_a_card_space",
    "no_jail_card", "not_a_tax_space", "no_tax_choice", "no_jackpot", "pot_empty", "bad_offer",
    "card_not_yours", "trade_open", "no_trade", "not_the_partner", "can_pay", "card_not_in_deck", "positions_off",
    "not_on_square", "go_paid_by_move", "jail_roll_by_dice", "short_of_cash", "bid_below_minimum", "bad_dice_total",
    # the seeds' remaining rules (engine/rulesets/classic/variants.py, turnlimits.py)
    "option_off", "creditor_is_bank", "value_over_debt", "bad_action", "not_timed_player", "mortgaged_not_sold",
    "deals_before_roll", "build_before_roll", "one_house_per_set",
})
"""Every refusal key the classic rules use (the shared ones they reuse, then their own)."""

RULESET = ruleset_in(
    "engine.rulesets.classic", runner="ClassicRunner", options=Options, new_state=ClassicState,
    rules=RULES, rules_for=rules_of, fold=FOLD, invariants=check_invariants,
    parse_edition=parse_edition, space_kinds=SPACE_KINDS, commands=CLASSIC_COMMANDS, events=CLASSIC_EVENTS,
    refusal_keys=REFUSAL_KEYS)
