"""Rule options of the Ultimate Banking ruleset (docs/rules.md 6.2), as data.

The values in force are recorded in the ``GameStarted`` event, so a replay never depends on today's
defaults. All amounts are ``int`` in the edition's money unit (M, or thousands of rubles).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import OptionError
from engine.options import RuleOptions


@dataclass(frozen=True, slots=True)
class Options(RuleOptions):
    """The options of one game. Amounts in money units; counts are plain numbers."""

    max_players: int = 4  # players allowed (2..8)
    start_money: int = 1500  # money units each player gets at the start
    go_salary: int = 200  # money units for passing or landing on GO
    colour_set_bonus: bool = True  # +1/+2 levels when the last unowned deed of a set is acquired
    location_fee: int = 100  # money units paid to the Bank to use a Location space
    jump_collects_go: bool = False  # a Location/event jump that passes GO pays go_salary
    jail_fee: int = 100  # money units to leave jail
    jailed_owner_collects_rent: bool = False  # off: a jailed owner gets no rent and the level stays
    auction: bool = True  # a declined deed is auctioned
    auction_step: int = 20  # money units: bids are multiples of this
    jail_max_tries: int = 3  # rolls for doubles before the fee is charged
    positions: bool = False  # the unit keeps the tokens: dice entered or rolled, the landing follows

    def validate(self) -> None:
        """Raise :class:`OptionError` for a value out of range."""
        if not 2 <= self.max_players <= 8:
            raise OptionError(f"option max_players expects 2..8, got {self.max_players!r}")
        for name in ("start_money", "go_salary", "location_fee", "jail_fee"):
            value = getattr(self, name)
            if value < 0:
                raise OptionError(f"option {name} expects an amount >= 0, got {value!r}")
        if self.auction_step < 1:
            raise OptionError(f"option auction_step expects an amount >= 1, got {self.auction_step!r}")
        if self.jail_max_tries < 1:
            raise OptionError(f"option jail_max_tries expects >= 1, got {self.jail_max_tries!r}")
