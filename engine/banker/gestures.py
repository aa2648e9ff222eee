"""The banker's gesture callbacks: deeds and landings, player actions, event cards, auction, debt, turn.

Conditions ``can_*`` build the one command the gesture would issue and ask ``Game.check`` (a refusal is
recorded for the banker to report); ``do_*`` apply exactly that command through the durable game. The
methods are named in :data:`engine.banker.table.TABLE`; each receives the transitions ``EventData``.
Amounts are ``int`` in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import commands as c
from engine.banker.context import Gesture, Refusal, input_value
from engine.banker.setup import BankerSetup
from engine.banker.view import choices_needed, event_card, player_id, seat_of
from engine.errors import IllegalCommand
from engine.rulesets.ultimate import commands as uc


class BankerCallbacks(BankerSetup):
    """The conditions and callbacks of the table's gesture rows."""

    # -- deeds and landings ---------------------------------------------------------------------------
    def pick_deed(self, event: Any) -> None:
        self._gesture.deed = int(input_value(event))

    def pick_player(self, event: Any) -> None:
        self._gesture.player = player_id(int(input_value(event)))

    def known_player(self, event: Any) -> bool:
        pid = self._input_player(event)
        if self._durable is None or (pid is not None and pid not in self._st().specs):
            self._refusal = Refusal("error.not_playing", {"seat": seat_of(pid)})
            return False
        return True

    def in_play(self, event: Any) -> bool:
        return self._durable is not None and self._st().phase == "play"

    def is_lander(self, event: Any) -> bool:
        """After a Location or a move card the lander is known: only their card completes the landing."""
        expected, tapped = self._gesture.player, self._input_player(event)
        if expected is None or tapped is None or tapped == expected:
            return True
        self._refusal = Refusal("error.wrong_player", {"expected": seat_of(expected), "seat": seat_of(tapped)})
        return False

    def deed_unowned(self, event: Any) -> bool:
        deed = self._input_deed(event)
        return deed is not None and self._durable is not None and self._owner(deed) is None

    def deed_own(self, event: Any) -> bool:
        owner = self._owner(self._input_deed(event))
        return owner is not None and owner == self._input_player(event)

    def deed_other(self, event: Any) -> bool:
        owner = self._owner(self._input_deed(event))
        player = self._input_player(event)
        return owner is not None and (player is None or owner != player)

    def _pair(self, event: Any) -> tuple[str, int] | None:
        player, deed = self._input_player(event), self._input_deed(event)
        if self._probing and (player is None or deed is None):
            return None
        if player is None or deed is None:
            self._refusal = Refusal("error.incomplete")
            return None
        return player, deed

    def can_consider_buy(self, event: Any) -> bool:
        pair = self._pair(event)
        if pair is None:
            return self._probing
        if self._durable is not None and self._durable.game.check(c.DeclineDeed(*pair)) is None:
            return True
        return self._allowed(c.BuyDeed(*pair))

    def can_buy(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.BuyDeed(*pair))

    def do_buy(self, event: Any) -> None:
        self._apply(c.BuyDeed(*self._require_pair(event)))

    def can_decline(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.DeclineDeed(*pair))

    def do_decline(self, event: Any) -> None:
        self._apply(c.DeclineDeed(*self._require_pair(event)))

    def can_land_own(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(uc.LandOnOwn(*pair))

    def do_land_own(self, event: Any) -> None:
        self._apply(uc.LandOnOwn(*self._require_pair(event)))

    def can_pay_rent(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(c.PayRent(*pair))

    def do_pay_rent(self, event: Any) -> None:
        self._apply(c.PayRent(*self._require_pair(event)))

    def _require_pair(self, event: Any) -> tuple[str, int]:
        pair = self._pair(event)
        if pair is None:
            raise IllegalCommand("a deed gesture needs both a player card and a deed card")
        return pair

    def landing_unowned(self, event: Any) -> bool:
        return self._landing is not None and self._owner(self._landing[1]) is None

    def landing_owned(self, event: Any) -> bool:
        return self._landing is not None and self._owner(self._landing[1]) is not None

    def start_landing(self, event: Any) -> None:
        assert self._landing is not None
        self._gesture = Gesture(player=self._landing[0], deed=self._landing[1])
        self._landing = None

    # -- player actions (card then button, or button then card) -----------------------------------------
    def pick_action(self, event: Any) -> None:
        self._gesture.action = event.event.name.removeprefix("press_")

    def action_is_location(self, event: Any) -> bool:
        return self._gesture.action == "location" and self.known_player(event)

    def _action_command(self, event: Any) -> c.Command | None:
        name = event.event.name
        action = name.removeprefix("press_") if name.startswith("press_") else self._gesture.action
        player = self._input_player(event)
        if player is None or action is None:
            return None
        table: dict[str, Callable[[str], c.Command]] = {
            "go": c.PassGo, "jail": c.GoToJail, "pay_fee": c.PayJailFee, "end_turn": c.EndTurn,
            "roll_doubles": lambda p: c.JailRoll(p, True), "roll_no_doubles": lambda p: c.JailRoll(p, False),
            "draw": lambda p: uc.DrawEvent(p, None),
        }
        return table[action](player) if action in table else None

    def can_act(self, event: Any) -> bool:
        cmd = self._action_command(event)
        return self._probing if cmd is None else self._allowed(cmd)

    def do_act(self, event: Any) -> None:
        cmd = self._action_command(event)
        assert cmd is not None
        self._apply(cmd)

    def can_locate(self, event: Any) -> bool:
        pair = self._pair(event)
        return self._probing if pair is None else self._allowed(uc.UseLocation(*pair))

    def do_locate(self, event: Any) -> None:
        pair = self._require_pair(event)
        self._apply(uc.UseLocation(*pair))
        self._landing = pair

    # -- event cards --------------------------------------------------------------------------------------
    def pick_event(self, event: Any) -> None:
        self._gesture.event_card = int(input_value(event))

    def _draw_command(self, event: Any) -> uc.DrawEvent | None:
        player = self._input_player(event)
        card = int(input_value(event)) if event.event.name == "tap_event" and input_value(event) is not None \
            else self._gesture.event_card
        return None if player is None else uc.DrawEvent(player, card)

    def can_draw_card(self, event: Any) -> bool:
        cmd = self._draw_command(event)
        return self._probing if cmd is None else self._allowed(cmd)

    def do_draw(self, event: Any) -> None:
        cmd = self._draw_command(event)
        assert cmd is not None
        self._apply(cmd)

    def _answer(self, event: Any) -> tuple[str | int, ...] | None:
        name, value = event.event.name, input_value(event)
        if name == "press_ok":
            return tuple(self._gesture.choices)
        if value is None:
            return None
        item: str | int
        if name == "tap_player":
            item = player_id(int(value))
        elif name == "tap_deed" or (isinstance(value, str) and value.isdigit()):
            item = int(value)
        else:
            item = str(value)
        return (*self._gesture.choices, item)

    def choice_completes(self, event: Any) -> bool:
        if self._durable is None or self._st().pending is None:
            return False
        pending = self._st().pending
        assert pending is not None
        answer = self._answer(event)
        if answer is None:
            return self._probing
        if len(answer) != choices_needed(self._durable.game.edition, pending.card):
            return False
        return self._allowed(uc.ResolveEvent(pending.player, answer), "error.bad_choice")

    def choice_partial(self, event: Any) -> bool:
        if self._durable is None or self._st().pending is None:
            return False
        pending = self._st().pending
        assert pending is not None
        answer = self._answer(event)
        if answer is None or len(answer) >= choices_needed(self._durable.game.edition, pending.card):
            return False
        last = answer[-1]
        if not isinstance(last, int) or self._st().owner.get(last) != pending.player:
            self._refusal = Refusal("error.bad_choice", {"reason": f"first choose one of your own deeds, not {last!r}"})
            return False
        return True

    def add_choice(self, event: Any) -> None:
        answer = self._answer(event)
        assert answer is not None
        self._gesture.choices = list(answer)

    def do_resolve(self, event: Any) -> None:
        pending = self._st().pending
        answer = self._answer(event)
        assert pending is not None and answer is not None
        assert self._durable is not None
        card = event_card(self._durable.game.edition, pending.card)
        self._apply(uc.ResolveEvent(pending.player, answer))
        if card.effect == "move_to_deed" and answer and isinstance(answer[0], int):
            self._landing = (pending.player, answer[0])

    # -- auction ----------------------------------------------------------------------------------------
    def _bid_amount(self, event: Any) -> int:
        st = self._st()
        raise_by = input_value(event)
        step = int(raise_by) if isinstance(raise_by, str) and raise_by.isdigit() else st.options.auction_step
        return (st.auction.high_bid if st.auction else 0) + step

    def can_join_auction(self, event: Any) -> bool:
        pid = self._input_player(event)
        if pid is None:
            return self._probing
        return self._allowed(c.PlaceBid(pid, self._bid_amount(event)), "error.not_bidder")

    def can_bid(self, event: Any) -> bool:
        if self._gesture.player is None:
            if not self._probing:
                self._refusal = Refusal("error.tap_bidder_first")
            return self._probing
        return self._allowed(c.PlaceBid(self._gesture.player, self._bid_amount(event)))

    def do_bid(self, event: Any) -> None:
        assert self._gesture.player is not None
        self._apply(c.PlaceBid(self._gesture.player, self._bid_amount(event)))

    def has_high_bid(self, event: Any) -> bool:
        auction = self._st().auction if self._durable else None
        return auction is not None and auction.high_bidder is not None

    def is_winner(self, event: Any) -> bool:
        auction = self._st().auction if self._durable else None
        pid = self._input_player(event)
        if auction is None or (pid is not None and pid != auction.high_bidder):
            self._refusal = Refusal("error.not_winner", {"winner": seat_of(auction.high_bidder if auction else None)})
            return False
        return True

    def can_close_auction(self, event: Any) -> bool:
        return self._allowed(c.CloseAuction())

    def do_close_auction(self, event: Any) -> None:
        self._apply(c.CloseAuction())

    def start_countdown(self, event: Any) -> None:
        if event.transition.source != self.state.AUCTION.name:
            self.forget_gesture(event)
        self._deadline = self._clock() + self.auction_s

    # -- debt and turn -----------------------------------------------------------------------------------
    def _return_command(self, event: Any) -> uc.ReturnDeed | None:
        debt = self._st().debt if self._durable else None
        deed = self._input_deed(event)
        return None if debt is None or deed is None else uc.ReturnDeed(debt.debtor, deed)

    def can_return(self, event: Any) -> bool:
        cmd = self._return_command(event)
        return self._probing if cmd is None else self._allowed(cmd)

    def do_return(self, event: Any) -> None:
        cmd = self._return_command(event)
        assert cmd is not None
        self._apply(cmd)

    def can_end_current_turn(self, event: Any) -> bool:
        turn = self._st().turn if self._durable else None
        if turn is None:
            self._refusal = Refusal("error.no_game")
            return False
        return self._allowed(c.EndTurn(turn))

    def do_end_current_turn(self, event: Any) -> None:
        turn = self._st().turn
        assert turn is not None
        self._apply(c.EndTurn(turn))
