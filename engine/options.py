"""Rule options as data: the base every ruleset's options class builds on, and the ``NAME=VALUE`` parser.

Each ruleset has its own options (e.g. engine/rulesets/ultimate/options.py, docs/rules.md 6.2).

The values in force are recorded in the ``GameStarted`` event, so a replay never depends on today's
defaults. All amounts are ``int`` in the edition's money unit (M, or thousands of rubles).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Self

from engine.errors import OptionError


class RuleOptions:
    """Base of a ruleset's options: a frozen dataclass of flat ``int``/``bool`` fields with defaults.

    A ruleset subclasses it (``@dataclass(frozen=True, slots=True)``) and adds ``validate`` for ranges.
    Amounts are ``int`` in the edition's money unit; counts are plain numbers.
    """

    __slots__ = ()
    max_players: int  # every ruleset has it: how many players may sit at the table (the banker's setup asks)

    @classmethod
    def from_mapping(cls, values: Mapping[str, object]) -> Self:
        """Build options from ``values`` (missing names take their defaults); raise :class:`OptionError`."""
        known = {f.name: f for f in fields(cls)}  # type: ignore[arg-type]
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
        opts = cls(**kwargs)
        opts.validate()
        return opts

    def validate(self) -> None:
        """Raise :class:`OptionError` for a value out of range (a ruleset's subclass says which)."""

    def as_dict(self) -> dict[str, int | bool]:
        """All options with their values (JSON-safe). Flat fields only, so no deep copy (``asdict``)
        is needed: this runs for every screen update."""
        return {f.name: getattr(self, f.name) for f in fields(self)}  # type: ignore[arg-type]


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
