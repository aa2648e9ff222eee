"""Rule options of the classic ruleset (docs/rules.md 6.3, docs/rules-classic.md 2), as data.

The values in force are recorded in the ``GameStarted`` event, so a replay never depends on today's
defaults. Amounts are ``int`` in the edition's money unit (M, or thousands of rubles); shares are whole
percent; ``time_limit`` is in minutes of play.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from engine.errors import OptionError
from engine.options import RuleOptions

_MADE: Final[dict[tuple[object, ...], Options]] = {}  # (class, *(name, type, value)) -> options (from_mapping)
_MADE_MAX: Final = 512  # mappings kept at most

PRESETS: Final[dict[str, dict[str, int | bool]]] = {
    # seed 000's second text (l. 146-166) = seed 002 l. 71-91: houses and deals only before rolling, one house
    # per set per turn, no sale of mortgaged lots, the Bank's bankruptcy, redemption at full value + 10 %,
    # no double rent on a set with a mortgaged lot, the decliner out of the auction, buildings back at cost
    "second_text": {"deals_before_roll": True, "build_before_roll": True, "one_house_per_set": True,
                    "sell_mortgaged": False, "bank_pays_creditor": True, "lift_at_full_value": True,
                    "mortgaged_set_double_rent": False, "decliner_may_bid": False, "house_sell_price": 100},
    # seed 000's standard text read to the letter (l. 31, 73): no double rent on a set with a mortgaged lot,
    # a debtor may hand lots to a player creditor (the default too), rent forfeited unless claimed before the
    # next roll
    "standard_text": {"mortgaged_set_double_rent": False, "pay_debt_with_deeds": True,
                      "rent_must_be_claimed": True},
    # the online edition of seed 002 (l. 280-283): the late-game rent tax, also on Chance payouts, and timers
    "online_edition": {"late_game_rent_tax": True, "rent_tax_on_cards": True, "action_timers": True},
}
"""Presets: a bool option named here turns on the group of options one seed's text carries at once (an
option named explicitly in the same mapping wins over its preset's value)."""
ACTION_SECONDS: Final[dict[str, int]] = {"roll": 90, "pay": 90, "deal": 30}
"""Seconds the table gives each timed action with ``action_timers`` (seed 002 l. 283)."""


@dataclass(frozen=True, slots=True)
class Options(RuleOptions):
    """The options of one classic game. Amounts in money units; shares in percent; counts plain numbers."""

    max_players: int = 8  # players allowed (2..8, seed 001 and the deluxe set of seed 002)
    start_money: int = 1500  # money units each player gets at the start
    go_salary: int = 200  # money units for passing or landing on GO
    jail_fine: int = 50  # money units to leave jail
    jail_max_turns: int = 3  # turns of trying for doubles; after the last failure the fine is paid
    income_tax_choice: bool = False  # on: Income Tax is the flat amount or income_tax_percent of worth
    income_tax_percent: int = 10  # percent of total worth when income_tax_choice is on
    decliner_may_bid: bool = True  # the player who declined a deed may bid in its auction
    house_sell_price: int = 50  # percent of a building's cost the Bank pays back (50 half, 100 full)
    free_parking_jackpot: bool = False  # taxes, fines and card payments to the Bank go to a pot
    mortgage_transfer_fee: int = 10  # percent of the mortgage value a receiver pays at once
    rent_must_be_claimed: bool = False  # on: rent is charged only during the lander's own turn
    even_build: bool = True  # build and sell evenly across a colour set
    houses_in_bank: int = 32  # the Bank's houses
    hotels_in_bank: int = 12  # the Bank's hotels
    short_game: bool = False  # two deeds dealt each, hotel after three houses, ends at the 2nd bankruptcy
    time_limit: int = 0  # minutes agreed for a time-limited game (0 = no time limit); two deeds dealt
    late_game_rent_tax: bool = False  # GO pays nothing from minute 46; rent is taxed from minute 61
    positions: bool = False  # the unit keeps the tokens: dice entered or rolled, the landing follows
    # --- the seeds' remaining rules (docs/rules-classic.md 2, 13); defaults = the game as before, except
    # pay_debt_with_deeds, on where every seed that speaks of it agrees ---
    mortgaged_set_double_rent: bool = True  # on: a whole set's unmortgaged bare streets double (seed 001 l. 53)
    sell_mortgaged: bool = True  # deals may hand over mortgaged deeds (seed 000 l. 66); off: l. 161
    deals_before_roll: bool = False  # deals only in the turn player's first stage, before rolling
    build_before_roll: bool = False  # buildings bought only by the turn player before rolling
    one_house_per_set: bool = False  # at most one building per colour set per turn
    pay_debt_with_deeds: bool = True  # a debtor may hand bare deeds to a player creditor at an agreed value;
    # on: every seed text that speaks of it allows it (seed 000 l. 73, 419, seed 002 l. 184), seed 001 is silent
    bank_pays_creditor: bool = False  # second text: a bankrupt's all goes to the Bank, which pays the creditor
    deal_all_lots: bool = False  # every deed dealt free among the players at the start (seed 001 l. 123)
    action_timers: bool = False  # timed actions (ACTION_SECONDS); a timeout bankrupts the player
    lift_at_full_value: bool = False  # lifting a mortgage costs the printed price + 10 % (second text)
    rent_tax_on_cards: bool = False  # the late-game rent tax also cuts Chance payouts (seed 002 l. 282)
    second_text: bool = False  # preset (PRESETS)
    standard_text: bool = False  # preset (PRESETS)
    online_edition: bool = False  # preset (PRESETS)

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> Options:
        """As :meth:`RuleOptions.from_mapping`, after a preset named on in ``values`` filled in its options.
        Options are frozen values: the same mapping gives the same options, made once (``_MADE``; a
        simulator's game starts from the same few mappings, three times each)."""
        try:
            key: tuple[object, ...] | None = (cls, *((k, type(v), v) for k, v in values.items()))  # True is not 1
            found = _MADE.get(key)  # type: ignore[arg-type]
        except TypeError:  # a value that cannot be hashed: no memo, and the checks below say what is wrong
            key = found = None
        if found is not None:
            return found
        made = cls._from_mapping(values)
        if key is not None and len(_MADE) < _MADE_MAX:
            _MADE[key] = made
        return made

    @classmethod
    def _from_mapping(cls, values: Mapping[str, object]) -> Options:
        merged = dict(values)
        for name, settings in PRESETS.items():
            if merged.get(name) is True:
                for key, value in settings.items():
                    merged.setdefault(key, value)
        return super(Options, cls).from_mapping(merged)

    def validate(self) -> None:
        """Raise :class:`OptionError` for a value out of range."""
        if not 2 <= self.max_players <= 8:
            raise OptionError(f"option max_players expects 2..8, got {self.max_players!r}")
        for name in ("start_money", "go_salary", "jail_fine", "houses_in_bank", "hotels_in_bank", "time_limit"):
            value = getattr(self, name)
            if value < 0:
                raise OptionError(f"option {name} expects a number >= 0, got {value!r}")
        for name in ("income_tax_percent", "house_sell_price", "mortgage_transfer_fee"):
            value = getattr(self, name)
            if not 0 <= value <= 100:
                raise OptionError(f"option {name} expects a percent 0..100, got {value!r}")
        if self.jail_max_turns < 1:
            raise OptionError(f"option jail_max_turns expects >= 1, got {self.jail_max_turns!r}")
        if self.deal_all_lots and self.deal_two:
            raise OptionError("option deal_all_lots deals every deed; it cannot go with short_game or time_limit, "
                              "which deal two each")

    @property
    def marks_turn(self) -> bool:
        """Whether the rules need to know that the turn's player has rolled (the second text's limits)."""
        return self.deals_before_roll or self.build_before_roll

    @property
    def houses_per_hotel(self) -> int:
        """Houses a hotel needs before it (and returns to the Bank): 3 in the short game, else 4."""
        return 3 if self.short_game else 4

    @property
    def deal_two(self) -> bool:
        """Whether two deeds are dealt to each player at the start (short game, time-limited game)."""
        return self.short_game or self.time_limit > 0
