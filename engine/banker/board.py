"""The board the screen shows and the last money movement: kept by the banker's context between inputs.

Amounts are ``int`` in the edition's money unit; player ids are ``"p<seat>"``.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine import events as ev
from engine.banker.hooks import Money
from engine.banker.plugins import view_part
from engine.banker.viewmodel import SpaceView, TransactionView
from engine.editions import Edition
from engine.events import Event
from engine.game import Game


class BoardCache:
    """The last board built, kept with the game object and its command count (the board changes only then)."""

    def __init__(self) -> None:
        self._game: Game | None = None
        self._key: tuple[int, str] = (-2, "")
        self._board: tuple[SpaceView, ...] = ()

    def board(self, game: Game | None, edition: Edition) -> tuple[SpaceView, ...]:
        """The 36 spaces with owner, level and rent (money units)."""
        key = (game.commands_applied if game else -1, edition.id)
        if game is not self._game or key != self._key:
            self._game, self._key, self._board = game, key, _build_board(game, edition)
        return self._board


_STATIC_BOARDS: dict[str, tuple[SpaceView, ...]] = {}


def _static_board(edition: Edition) -> tuple[SpaceView, ...]:
    """The board of an edition with nobody owning anything (built once per edition)."""
    board = _STATIC_BOARDS.get(edition.id)
    if board is None:
        spaces: list[SpaceView] = []
        for space in edition.spaces:
            if space.deed is None:
                spaces.append(SpaceView(space.position, space.kind, space.name))
            else:
                deed = edition.deeds[space.deed]
                spaces.append(SpaceView(space.position, space.kind, space.name, deed.number, deed.colour,
                                        deed.price))
        _STATIC_BOARDS[edition.id] = board = tuple(spaces)
    return board


def _build_board(game: Game | None, edition: Edition) -> tuple[SpaceView, ...]:
    board = _static_board(edition)
    if game is None or not game.state.owner:
        return board
    state = game.state
    spaces = list(board)
    hook = view_part(edition.ruleset).space
    for number, owner in state.owner.items():
        position = edition.deeds[number].position
        base = spaces[position]
        if hook is not None:
            spaces[position] = hook(state, edition, number, base)
            continue
        spaces[position] = SpaceView(base.position, base.kind, base.name, base.deed, base.colour, base.price,
                                     owner, state.level[number], state.rent_due(number))
    return tuple(spaces)


def last_transaction(events: Sequence[Event], money: Money | None = None) -> TransactionView | None:
    """The latest money movement among ``events`` (for the screen's animation), or None.

    ``amount`` in money units from ``payer`` to ``payee``; None stands for the Bank. The shared events are
    read here; ``money`` (the ruleset's view hook, engine/banker/hooks.py) reads the ruleset's own.
    """
    for e in reversed(events):
        kind = type(e).__name__
        row: tuple[int, str | None, str | None] | None = None
        if isinstance(e, ev.RentPaid):
            row = (e.amount, e.payer, e.owner)
        elif isinstance(e, ev.MoneyTransferred):
            row = (e.amount, e.payer, e.payee)
        elif isinstance(e, ev.SalaryPaid):
            row = (e.amount, None, e.player)
        elif isinstance(e, ev.DeedBought):
            row = (e.price, e.player, None)
        elif isinstance(e, ev.AuctionWon):
            row = (e.amount, e.player, None)
        elif money is not None:
            row = money(e)
        if row is None:  # a ruleset's own event may say the money it moved: (amount, payer, payee)
            row = getattr(e, "money", None)
        if row is not None:
            amount, payer, payee = row
            return TransactionView(e.seq, kind, amount, None if payer == "bank" else payer,
                                   None if payee == "bank" else payee, e.command)
    return None
