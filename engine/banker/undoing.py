"""The banker menu's questions: what Undo would take back, and what New game would end (docs/flows.md,
"Undo and New game ask first").

Undo names the step it takes back before it does anything ("Undo: Ann's bid M160 in the auction for Park
Lane?"), and ✓ confirms. One step is one command, except:

- a build or sale confirmed with ✓ (the banker's ``undo_group``): all its buildings;
- a **finished auction**: its outcome is undone whole, back to the landing: the close, every bid, and the
  command that opened it (a declined deed: the lander is asked to buy or decline again). Undoing only the
  close would reopen an auction whose countdown had ended, with a high bid nobody is bidding on.

New game says which game it ends ("This ends the game of Ann, Ben and Cat (turn 23)"). Amounts are ``int``
in the edition's money unit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine import events as ev
from engine.banker.board import last_transaction
from engine.banker.plugins import view_part
from engine.banker.viewmodel import Prompt
from engine.game import Game

NAMES_SEPARATOR = "\n"
"""Between the players' names in a ``names`` parameter (a name never holds a line break); a screen joins
them in its language ("Ann, Ben and Cat")."""


@dataclass(frozen=True)
class UndoPlan:
    """What the menu's Undo takes back now: ``count`` commands (the last first), the ``question`` naming
    them, and ``landing``: (player, deed) to ask again after an auction undone back to its landing."""

    count: int
    question: Prompt
    landing: tuple[str, int] | None = None


def undo_plan(game: Game, group: tuple[int, int] | None, last_seq: int) -> UndoPlan | None:
    """The plan of the menu's Undo in ``game`` (None: nothing to undo). ``group``: the banker's
    ``undo_group`` (last seq, n: the last n commands confirmed as one step), used while ``last_seq`` is its
    seq."""
    stack = game.in_force()
    if not stack:
        return None
    number, last = stack[-1]
    if group is not None and group[0] == last_seq and group[1] > 1:
        player = _field(last, "player")
        return UndoPlan(min(group[1], len(stack)), Prompt("prompt.undo_steps", (
            ("count", min(group[1], len(stack))), ("player", player or ""))))
    closed = next((e for e in last if _closes(e)), None)
    if closed is not None:
        return _auction_plan(stack, closed)
    bid = next((e for e in last if isinstance(e, ev.BidPlaced)), None)
    if bid is not None:
        opening = next((e for _, events in reversed(stack) for e in events if _opens(e)), None)
        if isinstance(opening, ev.AuctionOpened):
            return UndoPlan(1, Prompt("prompt.undo_bid", (("player", bid.player), ("bid", bid.amount),
                                                          ("deed", opening.deed))))
        return UndoPlan(1, Prompt("prompt.undo_bid_plain", (("player", bid.player), ("bid", bid.amount))))
    return UndoPlan(1, _question(game, number, last))


def _closes(event: ev.Event) -> bool:
    """Whether ``event`` closes an auction (a deed's, or a ruleset's own such as the classic game's
    building auctions: its event's name ends the same way)."""
    name = type(event).__name__
    return name.endswith(("AuctionWon", "AuctionEnded"))


def _opens(event: ev.Event) -> bool:
    return type(event).__name__.endswith("AuctionOpened")


def _auction_plan(stack: Sequence[tuple[int, tuple[ev.Event, ...]]], closed: ev.Event) -> UndoPlan:
    """A finished auction undone whole: back to the command that opened it (inclusive); when that command
    closed an auction before it (a bankrupt player's deeds auctioned in turn), back to that one's opening
    too, so that no auction is left open with its countdown over."""
    count = 1  # the opening not in force (it cannot be undone): only the close
    landing: tuple[str, int] | None = None
    for depth, (_, events) in enumerate(reversed(stack), start=1):
        if any(_opens(e) for e in events):
            declined = next((e for e in events if isinstance(e, ev.DeedDeclined)), None)
            landing = (declined.player, declined.deed) if declined is not None else None
            count = depth
            if not any(_closes(e) for e in events):
                break
    deed = getattr(closed, "deed", None)
    won, unsold = (("prompt.undo_auction_won", "prompt.undo_auction_unsold") if isinstance(deed, int)
                   else ("prompt.undo_building_auction_won", "prompt.undo_building_auction_unsold"))
    params: list[tuple[str, str | int]] = [("count", count)]
    if isinstance(deed, int):
        params.append(("deed", deed))
    winner, amount = getattr(closed, "player", None), getattr(closed, "amount", None)
    if isinstance(winner, str) and isinstance(amount, int):
        params += [("winner", winner), ("amount", amount)]
        return UndoPlan(count, Prompt(won, tuple(params)), landing)
    return UndoPlan(count, Prompt(unsold, tuple(params)), landing)


def _field(events: Sequence[ev.Event], name: str) -> str | int | None:
    for e in events:
        value = getattr(e, name, None)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return value
    return None


def _question(game: Game, number: int, events: Sequence[ev.Event]) -> Prompt:
    """The question naming one command by its events."""
    for e in events:
        if isinstance(e, ev.DeedBought):
            return Prompt("prompt.undo_buy", (("player", e.player), ("deed", e.deed), ("price", e.price)))
        if isinstance(e, ev.RentPaid):
            return Prompt("prompt.undo_rent", (("payer", e.payer), ("payee", e.owner), ("deed", e.deed),
                                               ("amount", e.amount)))
        if isinstance(e, ev.GameStarted):
            return Prompt("prompt.undo_start", ())
    if any(type(e).__name__ == "LocationUsed" for e in events):  # (the Ultimate ruleset's own event)
        return Prompt("prompt.undo_location", (("player", str(_field(events, "player") or "")),
                                               ("deed", int(_field(events, "deed") or 0))))
    tx = last_transaction(events, view_part(game.edition.ruleset).money)
    if tx is not None:
        return Prompt("prompt.undo_money", (("amount", tx.amount), ("payer", tx.payer or "bank"),
                                            ("payee", tx.payee or "bank")))
    player = _field(events, "player")
    if isinstance(player, str) and player in getattr(game.state, "specs", {}):
        return Prompt("prompt.undo_step_of", (("player", player), ("number", number)))
    return Prompt("prompt.undo_step", (("number", number),))


def game_names(game: Game) -> str:
    """The players of ``game`` in seat order, their names joined by :data:`NAMES_SEPARATOR`."""
    st = game.state
    return NAMES_SEPARATOR.join(st.players[pid].name for pid in st.order)


def turn_number(game: Game) -> int:
    """The turn being played: 1 + the turns ended so far (commands in force)."""
    return 1 + sum(1 for _, events in game.in_force() for e in events if isinstance(e, ev.TurnEnded))


def new_game_question(game: Game) -> Prompt:
    """"This ends the game of Ann, Ben and Cat (turn 23)": the question of New game in a game still open."""
    return Prompt("prompt.confirm_new_game", (("names", game_names(game)), ("turn_number", turn_number(game))))
