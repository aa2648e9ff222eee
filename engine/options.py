"""Rule options of the Ultimate Banking ruleset (shared/RULES.md 6.2), as data.

The values in force are recorded in the ``GameStarted`` event, so a replay never depends on today's
defaults. All amounts are ``int`` in the edition's money unit (M, or thousands of rubles).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from engine.errors import OptionError


@dataclass(frozen=True, slots=True)
class Options:
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

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> Options:
        """Build options from ``values`` (missing names take their defaults); raise :class:`OptionError`."""
        known = {f.name: f for f in fields(cls)}
        defaults = cls()
        kwargs: dict[str, object] = {}
        for name, value in values.items():
            if name not in known:
                raise OptionError(f"unknown rule option {name!r}; expected one of {sorted(known)}")
            expected = type(getattr(defaults, name))
            if expected is bool:
                if not isinstance(value, bool):
                    raise OptionError(f"option {name} expects true/false, got {value!r}")
            elif isinstance(value, bool) or not isinstance(value, int):
                raise OptionError(f"option {name} expects a whole number, got {value!r}")
            kwargs[name] = value
        opts = cls(**kwargs)  # type: ignore[arg-type]
        opts.validate()
        return opts

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

    def as_dict(self) -> dict[str, int | bool]:
        """All options with their values (JSON-safe). Flat fields only, so no deep copy (``asdict``)
        is needed: this runs for every screen update."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def parse_option_text(text: str) -> tuple[str, int | bool]:
    """Parse ``NAME=VALUE`` from the command line (``--option max_players=6``) into a typed pair."""
    name, sep, raw = text.partition("=")
    name = name.strip()
    if not sep or not name:
        raise OptionError(f"expected NAME=VALUE, got {text!r}")
    raw = raw.strip().lower()
    value: int | bool
    if raw in ("true", "on", "yes"):
        value = True
    elif raw in ("false", "off", "no"):
        value = False
    else:
        try:
            value = int(raw)
        except ValueError:
            raise OptionError(f"option {name} expects a number or on/off, got {text!r}") from None
    return name, value
