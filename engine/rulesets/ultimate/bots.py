"""Simple bots: the decisions a player makes at the table, read from the game state.

A bot never touches the game; it only answers questions (buy or not, how much to bid, where to jump, which
target an event card gets, which deed to give back). The simulator (engine/sim/runner.py) turns the answers into
engine commands, so bots play through exactly the rules a human does. All amounts are ``int`` in the
edition's money unit. Bots are deterministic: the same state gives the same answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.editions import SIDE_NAMES, Edition, EventCard
from engine.rulesets.ultimate.base import MAX_LEVEL
from engine.rulesets.ultimate.state import GameState

Choice = tuple[str | int, ...]

# event effects that help the drawer on the chosen target, and those that hurt whoever owns it
_RAISING = frozenset({"set_level_up", "side_level_up", "deed_to_level_5", "raise_lower_neighbours"})
_LOWERING = frozenset({"set_level_down", "side_level_down", "deed_to_level_1"})


@dataclass(frozen=True, slots=True)
class Bot:
    """A cautious, greedy player. ``reserve``: cash (money units) it keeps after buying or bidding;
    ``max_bid_ratio``: at most this multiple of the printed price at an auction."""

    player: str
    reserve: int = 150
    max_bid_ratio: float = 1.0

    # -- buying and auctions ---------------------------------------------------------------------
    def wants_to_buy(self, s: GameState, ed: Edition, deed: int) -> bool:
        """Buy ``deed`` at its printed price? Yes if the reserve stays, or it completes a set for us."""
        price = ed.deeds[deed].price
        cash = s.ledger.balances[self.player]
        if cash < price:
            return False
        return cash - price >= self.reserve or self._completes_set(s, ed, deed)

    def bid_limit(self, s: GameState, ed: Edition, deed: int) -> int:
        """The most (money units, a multiple of the auction step) this bot pays for ``deed`` at auction."""
        step = s.options.auction_step
        cash = s.ledger.balances[self.player]
        limit = min(cash - self.reserve, int(ed.deeds[deed].price * self.max_bid_ratio))
        if self._completes_set(s, ed, deed):
            limit = min(cash, ed.deeds[deed].price)
        return max(0, limit - limit % step)

    def _completes_set(self, s: GameState, ed: Edition, deed: int) -> bool:
        members = ed.colour_sets[ed.deeds[deed].colour]
        return all(s.owner.get(d) == self.player for d in members if d != deed)

    # -- Location and move cards -----------------------------------------------------------------
    def jump_target(self, s: GameState, ed: Edition, cost: int) -> int | None:
        """The deed to jump to (a Location costing ``cost`` money units, or a free move card), or None.

        An unowned deed it can buy keeping its reserve (the one that builds the biggest set share first,
        then the dearest); otherwise its own deed with the highest next rent that can still rise.
        """
        cash = s.ledger.balances[self.player] - cost
        if cash < self.reserve:
            return None
        buyable = [d for d in ed.deeds if d not in s.owner and cash - ed.deeds[d].price >= self.reserve]
        if buyable:
            return max(buyable, key=lambda d: (self._set_share(s, ed, d), ed.deeds[d].price, -d))
        own = [d for d, o in s.owner.items() if o == self.player and s.level[d] < MAX_LEVEL]
        if own:
            return max(own, key=lambda d: (ed.deeds[d].rents[s.level[d]], -d))
        return None

    def _set_share(self, s: GameState, ed: Edition, deed: int) -> int:
        members = ed.colour_sets[ed.deeds[deed].colour]
        return sum(1 for d in members if s.owner.get(d) == self.player)

    # -- events ------------------------------------------------------------------------------------
    def event_choice(self, s: GameState, ed: Edition, card: EventCard, options: Sequence[Choice]) -> Choice:
        """The best of the legal ``options`` for ``card`` (``options`` is never empty)."""
        effect = card.effect
        if effect in _RAISING:
            return max(options, key=lambda c: (self._mine_in(s, ed, card, c), self._value(ed, c)))
        if effect in _LOWERING:
            return max(options, key=lambda c: (-self._mine_in(s, ed, card, c), self._value(ed, c)))
        if effect == "swap_deeds":
            return max(options, key=lambda c: (ed.deeds[int(c[1])].price - ed.deeds[int(c[0])].price, c))
        if effect in ("send_to_jail", "bonus_with_other"):
            richest = effect == "send_to_jail"
            return max(options, key=lambda c: ((1 if richest else -1) * s.wealth(str(c[0])), str(c[0])))
        if effect == "move_to_deed":
            target = self.jump_target(s, ed, 0)
            return (target,) if target is not None and (target,) in options else options[0]
        return options[0]

    def _deeds_in(self, ed: Edition, card: EventCard, choice: Choice) -> tuple[int, ...]:
        kind = card.choice
        if kind == "colour_set":
            return ed.colour_sets[str(choice[0])]
        if kind == "side":
            return ed.sides[SIDE_NAMES.index(str(choice[0]))]
        return tuple(int(c) for c in choice)

    def _mine_in(self, s: GameState, ed: Edition, card: EventCard, choice: Choice) -> int:
        """Own deeds the choice touches minus opponents' deeds it touches."""
        score = 0
        for d in self._deeds_in(ed, card, choice):
            owner = s.owner.get(d)
            if owner == self.player:
                score += 1
            elif owner is not None:
                score -= 1
        return score

    def _value(self, ed: Edition, choice: Choice) -> int:
        return sum(ed.deeds[c].price for c in choice if isinstance(c, int) and c in ed.deeds)

    # -- debt and jail -----------------------------------------------------------------------------
    def deed_to_return(self, s: GameState, ed: Edition) -> int:
        """The deed to give back to the Bank while in debt: the cheapest first (then the lowest number)."""
        own = [d for d, o in s.owner.items() if o == self.player]
        return min(own, key=lambda d: (ed.deeds[d].price, d))
