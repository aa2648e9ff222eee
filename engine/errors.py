"""The engine's exception family: everything the engine raises on bad input derives from :class:`EngineError`.

Each concrete error also subclasses the built-in that fits it (``ValueError`` for a bad command, a bad
option, a broken edition file or a malformed record), so callers may catch either.

A refused command's reason is a :class:`Refusal`: the English sentence (a ``str``, unchanged for developers,
logs and the CLI) that also carries a stable translation ``key`` and its ``params`` (JSON-safe values the
sentence uses), so a screen can show it in any language. ``REFUSAL_KEYS`` lists every key
(docs/engine-api.md, "Refusals").
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ILLEGAL = "illegal"  # the key of an IllegalCommand built from a plain message

REFUSAL_KEYS: frozenset[str] = frozenset({
    ILLEGAL,
    # engine/game.py
    "unknown_command", "nothing_to_undo", "game_over", "game_not_started", "malformed_command",
    "replay_nothing_to_undo", "replay_undo_mismatch",
    # engine/rulesets/ultimate/base.py
    "wrong_phase", "unknown_player", "player_bankrupt", "player_in_jail", "unknown_deed",
    # engine/rulesets/ultimate/turns.py
    "bad_option", "bad_player_count", "duplicate_players", "bad_player_id", "bad_player_text", "bad_seed",
    "not_your_turn",
    # engine/rulesets/ultimate/levels.py
    "deed_owned", "not_enough_cash", "deed_not_yours", "deed_unowned", "deed_is_own", "not_a_location_space",
    "not_enough_cash_location_fee",
    # engine/rulesets/ultimate/auction.py
    "not_a_bidder", "bid_too_low", "bid_over_cash",
    # engine/rulesets/ultimate/jail.py
    "not_in_jail", "jail_roll_done", "bad_doubles",
    # engine/rulesets/ultimate/moves.py
    "positions_off", "bad_dice", "go_paid_by_move", "jail_roll_by_dice",
    # engine/rulesets/ultimate/cards.py
    "unknown_card", "not_an_event_space", "not_the_drawer", "malformed_choice", "bad_choice",
    # engine/rulesets/ultimate/debt.py
    "not_the_debtor",
    # engine/corrections.py
    "bad_correction",
})


class Refusal(str):
    """Why a command is refused: the English sentence itself, plus ``key`` and ``params`` for translation.

    ``key`` is one of :data:`REFUSAL_KEYS`; ``params`` maps names to ``str`` or ``int`` (deed numbers, player
    ids, amounts, phases, command names). Equal to, and usable as, the plain sentence."""

    key: str
    params: Mapping[str, str | int]

    def __new__(cls, text: str, key: str, params: Mapping[str, str | int]) -> Refusal:
        self = super().__new__(cls, text)
        self.key = key
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Refusal, (str(self), self.key, dict(self.params)))


def param(value: object) -> str | int:
    """``value`` as a JSON-safe parameter: a ``str`` or ``int`` as is, anything else as its ``repr``."""
    t = type(value)
    return value if t is str or t is int else repr(value)  # type: ignore[return-value]


def refuse(key: str, text: str, **params: object) -> Refusal:
    """A :class:`Refusal` with the English ``text``, ``key`` and ``params`` (made JSON-safe by :func:`param`).

    Only called on the refusal path: accepting a command builds nothing."""
    return Refusal(text, key, {name: param(value) for name, value in params.items()})


class EngineError(Exception):
    """Root of the engine's exceptions."""


class IllegalCommand(EngineError, ValueError):
    """A command the rules refuse; the game is unchanged. The message says what was expected.

    ``key`` and ``params`` come from the :class:`Refusal` it was raised with (``key`` is ``"illegal"`` and
    ``params`` empty for a plain message)."""

    key: str
    params: Mapping[str, str | int]

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        reason = args[0] if args else None
        if isinstance(reason, Refusal):
            self.key, self.params = reason.key, reason.params
        else:
            self.key, self.params = ILLEGAL, {}


class EditionError(EngineError, ValueError):
    """An edition file that cannot be loaded; the message names the file and the field."""


class OptionError(EngineError, ValueError):
    """An unknown rule option or a value of the wrong type or range."""


class RecordError(EngineError, ValueError):
    """A JSON record that is not a known event or command (journal import, corrupt data)."""


class LedgerError(EngineError, ValueError):
    """A transfer the ledger cannot post: a negative amount, an unknown account, a player's overdraft."""
