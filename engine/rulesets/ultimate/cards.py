"""The 23 event cards (docs/rules.md 1.11, 6.2).

Deck model: ``state.deck`` is the virtual deck, top first, shuffled at the start with the game's seed.
``DrawEvent(player)`` takes the top card; ``DrawEvent(player, card=id)`` (a physical card read by the reader)
takes that card from wherever it is in the order. Either way the drawn card goes to the bottom at once.

A card that asks a choice waits in phase ``event`` for ``ResolveEvent``; a card that asks none, or whose
target does not exist (e.g. "one of your deeds" when you own none), takes effect (or does nothing) at once.
Decisions (docs/rules.md 6.2): "level to 1" hits any owned deed; HOUSE PARTY / IT'S A BOY raise one of yours and
lower the nearest deed on each side by deed number, wrapping (1 <-> 22); only owned deeds have levels, so an
unowned neighbour is unchanged. Swapped deeds keep their levels. ON THE RUN lasts 2 x active players
``EndTurn`` commands (levels still rise). TOTAL GRIDLOCK moves every active player not in jail to Free
Parking. PICK YOUR OWN jails another active player not already in jail. Jumps pay no GO salary unless
``jump_collects_go`` is on and the jump passes GO. Amounts are in money units.
"""

from __future__ import annotations

from engine import events as ev
from engine.editions import SIDE_NAMES, Edition, EventCard
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.ultimate import events as uev
from engine.rulesets.ultimate import jail
from engine.rulesets.ultimate.base import Table, check_phase, check_play, space_position
from engine.rulesets.ultimate.commands import DrawEvent, ResolveEvent
from engine.rulesets.ultimate.debt import charge
from engine.rulesets.ultimate.levels import jump, raise_level, set_level
from engine.rulesets.ultimate.state import GameState

Choice = tuple[str | int, ...]

CHOICE_TEXT = {
    "colour_set": "a colour set where you own a deed",
    "side": "a board side (A-D) where you own a deed",
    "own_deed": "the number of one of your deeds",
    "any_owned_deed": "the number of an owned deed",
    "other_player": "the id of another player",
    "own_and_opponent_deed": "one of your deeds and one of an opponent's",
    "any_deed": "a deed number",
}


def _own(s: GameState, player: str) -> list[int]:
    """Deed numbers ``player`` owns, ascending."""
    return sorted(d for d, o in s.owner.items() if o == player)


def targets(s: GameState, ed: Edition, player: str, card: EventCard) -> list[Choice]:
    """Every valid answer to ``card`` for ``player`` now (empty: the card does nothing)."""
    kind = card.choice
    if kind == "none":
        return [()]
    mine = _own(s, player)
    if kind == "colour_set":
        return [(c,) for c, members in ed.colour_sets.items() if any(d in mine for d in members)]
    if kind == "side":
        return [(name,) for name, members in zip(SIDE_NAMES, ed.sides, strict=False) if any(d in mine for d in members)]
    if kind == "own_deed":
        return [(d,) for d in mine]
    if kind == "any_owned_deed":
        return [(d,) for d in sorted(s.owner)]
    if kind == "other_player":
        others = [p for p in s.active_players() if p != player]
        if card.effect == "send_to_jail":
            others = [p for p in others if p not in s.jail]
        return [(p,) for p in others]
    if kind == "own_and_opponent_deed":
        theirs = sorted(d for d, o in s.owner.items() if o != player)
        return [(a, b) for a in mine for b in theirs]
    if kind == "any_deed":
        return [(d,) for d in ed.deeds]
    raise AssertionError(f"unknown choice kind {kind!r}")


def _valid_choice(s: GameState, ed: Edition, player: str, card: EventCard, choice: Choice) -> bool:
    """Whether ``choice`` answers ``card`` (faster than listing every target for the deed-pair cards)."""
    kind = card.choice
    if kind == "own_and_opponent_deed":
        if len(choice) != 2:
            return False
        a, b = choice
        return s.owner.get(a) == player and s.owner.get(b) not in (None, player)  # type: ignore[arg-type]
    return choice in targets(s, ed, player, card)


def check_draw(s: GameState, ed: Edition, cmd: DrawEvent) -> Refusal | None:
    """DrawEvent: phase play, an active player not in jail, a known card id or None, an Event-space origin."""
    what = "DrawEvent"
    reason = check_play(s, cmd.player, what)
    if reason:
        return reason
    if cmd.card is not None and (type(cmd.card) is not int or cmd.card not in s.deck):
        return refuse("unknown_card", f"{what}: unknown event card {cmd.card!r}; expected an id 1..{len(ed.events)} or none",
                      command=what, card=cmd.card, cards=len(ed.events))
    if cmd.origin is not None:
        spots = [sp.position for sp in ed.spaces if sp.kind == "event"]
        if type(cmd.origin) is not int or cmd.origin not in spots:
            return refuse("not_an_event_space", f"{what}: origin {cmd.origin!r} is not an Event space; expected one of {spots} or none",
                          command=what, origin=cmd.origin, spaces=", ".join(map(str, spots)))
    return None


def do_draw(t: Table, cmd: DrawEvent) -> None:
    """Draw (the card goes to the bottom), then resolve at once or wait for the choice."""
    s = t.state
    card_id = s.deck[0] if cmd.card is None else cmd.card
    t.emit(uev.EventDrawn, cmd.player, card_id)
    card = t.edition.card(card_id)
    options = targets(s, t.edition, cmd.player, card)
    if card.choice == "none" or not options:
        t.emit(uev.EventResolved, cmd.player, card_id, ())
        if card.choice == "none":
            _effect(t, cmd.player, card, (), cmd.origin)
        return
    t.emit(uev.ChoiceRequested, cmd.player, card_id, cmd.origin)


def check_resolve(s: GameState, ed: Edition, cmd: ResolveEvent) -> Refusal | None:
    """ResolveEvent: the drawer answers the pending card with one of its valid choices."""
    what = "ResolveEvent"
    reason = check_phase(s, "event", what)
    if reason:
        return reason
    pending = s.pending
    assert pending is not None
    if cmd.player != pending.player:
        return refuse("not_the_drawer", f"{what}: expected the drawer {pending.player}, got {cmd.player!r}",
                      command=what, drawer=pending.player, player=cmd.player)
    card = ed.card(pending.card)
    choice = tuple(cmd.choice)
    if not all(type(c) is str or type(c) is int for c in choice):
        return refuse("malformed_choice", f"{what}: expected a choice of names and numbers, got {choice!r}",
                      command=what, choice=choice)
    if not _valid_choice(s, ed, cmd.player, card, choice):
        sample = targets(s, ed, cmd.player, card)[:6]
        return refuse("bad_choice", f"{what}: {card.name} expects {CHOICE_TEXT[card.choice]}, such as {sample}, got {choice!r}",
                      command=what, card=card.id, card_key=card.key, expects=card.choice, examples=str(sample),
                      choice=choice)
    return None


def do_resolve(t: Table, cmd: ResolveEvent) -> None:
    """Apply the pending card with the chosen target."""
    pending = t.state.pending
    assert pending is not None
    card = t.edition.card(pending.card)
    choice = tuple(cmd.choice)
    t.emit(uev.EventResolved, cmd.player, card.id, choice)
    _effect(t, cmd.player, card, choice, pending.origin)


def _shift_owned(t: Table, deeds: tuple[int, ...], steps: int) -> None:
    """Move the level of each owned deed among ``deeds`` by ``steps`` (clamped to 1..5)."""
    for d in deeds:
        if d in t.state.owner:
            raise_level(t, d, steps)


def _effect(t: Table, player: str, card: EventCard, choice: Choice, origin: int | None) -> None:
    """Emit what ``card`` does for ``player`` with the (already validated) ``choice``."""
    s = t.state
    ed = t.edition
    effect = card.effect
    if effect in ("set_level_up", "set_level_down"):
        _shift_owned(t, ed.colour_sets[str(choice[0])], 1 if effect == "set_level_up" else -1)
    elif effect in ("side_level_up", "side_level_down"):
        side = ed.sides[SIDE_NAMES.index(str(choice[0]))]
        _shift_owned(t, side, 1 if effect == "side_level_up" else -1)
    elif effect == "deed_to_level_5":
        set_level(t, int(choice[0]), 5)
    elif effect == "deed_to_level_1":
        set_level(t, int(choice[0]), 1)
    elif effect == "raise_lower_neighbours":
        deed = int(choice[0])
        n = len(ed.deeds)
        raise_level(t, deed, 1)
        _shift_owned(t, ((deed - 2) % n + 1, deed % n + 1), -1)  # the neighbours, wrapping 1 <-> n
    elif effect == "bonus_with_other":
        t.emit(ev.MoneyTransferred, BANK, player, card.amount, "event_bonus")
        t.emit(ev.MoneyTransferred, BANK, str(choice[0]), card.amount, "event_bonus")
    elif effect == "swap_deeds":
        mine, theirs = int(choice[0]), int(choice[1])
        t.emit(uev.DeedsSwapped, player, mine, s.owner[theirs], theirs)
    elif effect == "send_to_jail":
        jail.send_to_jail(t, str(choice[0]))
    elif effect == "move_to_deed":
        jump(t, player, ed.deeds[int(choice[0])].position, origin)
    elif effect == "highway_tax":
        charge(t, player, BANK, card.amount * len(_own(s, player)), "highway_tax")
    elif effect == "on_the_run":
        t.emit(uev.OnTheRunStarted, 2 * len(s.active_players()))
    elif effect == "gridlock":
        parking = space_position(ed, "parking")
        for p in s.active_players():
            if p not in s.jail:
                t.emit(ev.TokenMoved, p, parking)
    else:
        raise AssertionError(f"unknown event effect {effect!r}")
