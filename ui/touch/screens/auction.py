"""The auction: the deed (or, in the classic game, a house or hotel), the high bid and bidder, the countdown, and bid buttons (steps or the keypad)."""

from __future__ import annotations

from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette
from ui.touch.widgets.setmark import attach_mark

BUILDING_KEYS: dict[str, str] = {"house": "auction.building_house", "hotel": "auction.building_hotel"}
"""The classic game's building auctions: the lot's name by its kind."""
BID_STEPS: tuple[int, ...] = (20, 100)
"""The bid buttons' increments in money units (docs/rules.md 6.2: steps of 20 and 100)."""


class AuctionScreen(BankScreen):
    """Deed, high bid, countdown, the bidder; bid buttons send ``press("bid", raise)``."""

    high_bid = 0  # the high bid shown, in money units

    def render(self, presenter: Presenter) -> None:
        view = presenter.view
        auction = view.auction
        self.ids.prompt.text = presenter.prompt()
        if auction is not None:
            space = presenter.space_for_deed(auction.deed)
            kind = getattr(auction, "kind", "deed")
            if kind in ("house", "hotel"):  # the classic game: a building the Bank is short of
                self.ids.deed.text = presenter.tr(BUILDING_KEYS[kind])
                self.ids.band.bg = palette.HOTEL if kind == "hotel" else palette.HOUSE
                attach_mark(self.ids.band, None)
            else:
                self.ids.deed.text = presenter.deed_name(auction.deed)
                self.ids.band.bg = palette.deed_rgba(space.colour if space else None)
                attach_mark(self.ids.band, space.colour if space else None)
            self.ids.high.text = presenter.tr(
                "auction.high_bid", amount=presenter.money(auction.high_bid),
                player=presenter.player_name(auction.high_bidder) if auction.high_bidder else presenter.tr("auction.no_bid"))
            self.ids.countdown.text = presenter.tr("auction.seconds", seconds=max(0, round(auction.seconds_left)))
            bidder = dict(view.prompt.params).get("bidder") or view.selected_player
            self.ids.bidders.text = presenter.tr("auction.bidder", player=presenter.player_name(str(bidder or "")))
            self.ids.bid_small.text = presenter.tr("auction.raise", amount=presenter.money(BID_STEPS[0]))
            self.ids.bid_large.text = presenter.tr("auction.raise", amount=presenter.money(BID_STEPS[1]))
            self.high_bid = auction.high_bid
        can_bid = self.app().may("press_bid")
        self.ids.bid_small.disabled = not can_bid
        self.ids.bid_large.disabled = not can_bid
        self.ids.keypad.disabled = not can_bid
        super().render(presenter)

    def action_buttons(self, presenter: Presenter) -> list[tuple[str, str, bool]]:
        """The context actions without ``bid``: the raise buttons and the keypad send bids."""
        return [a for a in super().action_buttons(presenter) if a[0] not in ("press_bid", "bid")]

    def raise_by(self, step: int) -> None:
        """Raise the tapping bidder's bid by ``step`` money units (the banker's ``press bid STEP``)."""
        self.app().press("bid", str(step))

    def bid_amount(self, value: str) -> None:
        """A whole bid typed on the keypad (money units): sent as the raise over the high bid."""
        if value.isdigit() and int(value) > self.high_bid:
            self.app().press("bid", str(int(value) - self.high_bid))
        elif value:
            self.app().sounds.play("err")
