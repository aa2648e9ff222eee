"""Rule options of the classic ruleset (docs/rules.md 6.3, docs/rules-classic.md 2), as data.

The values in force are recorded in the ``GameStarted`` event, so a replay never depends on today's
defaults. Amounts are ``int`` in the edition's money unit (M, or thousands of rubles); shares are whole
percent; ``time_limit`` is in minutes of play.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import OptionError
from engine.options import RuleOptions


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

    @property
    def houses_per_hotel(self) -> int:
        """Houses a hotel needs before it (and returns to the Bank): 3 in the short game, else 4."""
        return 3 if self.short_game else 4

    @property
    def deal_two(self) -> bool:
        """Whether two deeds are dealt to each player at the start (short game, time-limited game)."""
        return self.short_game or self.time_limit > 0
