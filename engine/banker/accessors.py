"""What the banker's context holds, as read-only properties of the :class:`~engine.banker.machine.Banker`
for its callers (the screens, headless mode, tests)."""

from __future__ import annotations

from engine.banker.context import Context, Gesture
from engine.editions import Edition
from engine.game import Game
from engine.options import RuleOptions
from engine.store.durable import DurableGame
from engine.store.gamestore import GameStore


class ContextViews:
    """The banker's context (``ctx``) seen from outside."""

    ctx: Context

    # -- what the context holds, for callers ------------------------------------------------------------
    @property
    def store(self) -> GameStore:
        """Where games are started and resumed."""
        return self.ctx.store

    @property
    def durable(self) -> DurableGame | None:
        """The durable game being banked (None while registering the first players)."""
        return self.ctx.durable

    @property
    def game(self) -> Game | None:
        """The engine game (read-only use), or None."""
        return self.ctx.game

    @property
    def seats(self) -> tuple[int, ...]:
        """Seats registered so far in setup."""
        return tuple(self.ctx.seats)

    @property
    def gesture(self) -> Gesture:
        """The gesture under way."""
        return self.ctx.gesture

    @property
    def last_seq(self) -> int:
        """Sequence number of the last durable event of the game (0 before any)."""
        return self.ctx.last_seq

    @property
    def timeout_s(self) -> float:
        """Seconds before a half-done gesture returns to idle."""
        return self.ctx.timeout_s

    @property
    def auction_s(self) -> float:
        """Seconds of the auction countdown."""
        return self.ctx.auction_s

    @property
    def setup_edition(self) -> Edition:
        """The edition the next game will use."""
        return self.ctx.setup_edition

    @property
    def chosen_options(self) -> dict[str, object]:
        """The options the next game's ``StartGame`` carries (``--option``, then the table's changes)."""
        return dict(self.ctx.options)

    def setup_options(self) -> RuleOptions:
        """The options in force for the next game."""
        return self.ctx.setup_options()

    @property
    def _probing(self) -> bool:  # whether conditions are being probed (``may``): they record no refusal
        return self.ctx.probing

    @_probing.setter
    def _probing(self, value: bool) -> None:
        self.ctx.probing = value
