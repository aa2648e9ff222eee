"""The classic invariants, rewritten for speed (each built colour set looked at once per check, the decks'
card ids once per edition), report exactly what the plain definition below reports, sentence for sentence,
on healthy states from bot games and on the same states broken at random (buildings, owners, mortgages,
jail cards, decks)."""

from __future__ import annotations

import random

from engine.editions import Edition, load_edition
from engine.game import Game
from engine.rulesets.classic.building import height
from engine.rulesets.classic.edition import cards
from engine.rulesets.classic.invariants import _buildings, deck_problems
from engine.rulesets.classic.sim import ClassicRunner
from engine.rulesets.classic.state import HOTEL, ClassicState


def plain_buildings(s: ClassicState, ed: Edition) -> list[str]:
    """The definition (as it was written before the speed work)."""
    out: list[str] = []
    houses, hotels = s.houses_used(), s.hotels_used()
    if houses > s.options.houses_in_bank or hotels > s.options.hotels_in_bank:
        out.append(f"{houses} houses and {hotels} hotels built, the Bank has {s.options.houses_in_bank} and "
                   f"{s.options.hotels_in_bank}")
    for deed, level in s.level.items():
        d = ed.deeds[deed]
        members = ed.colour_sets[d.colour]
        owner = s.owner.get(deed)
        if d.kind != "street" or not 1 <= level <= HOTEL or (level != HOTEL and level > s.options.houses_per_hotel):
            out.append(f"deed {deed} ({d.kind}) has level {level}")
        if owner is None or any(s.owner.get(m) != owner for m in members):
            out.append(f"deed {deed} has buildings but its {d.colour} set is not one owner's")
        if any(m in s.mortgaged for m in members):
            out.append(f"deed {deed} has buildings but its {d.colour} set has a mortgaged deed")
        if s.options.even_build:
            heights = [height(s, s.level.get(m, 0)) for m in members]
            if max(heights) - min(heights) > 1:
                out.append(f"the {d.colour} set is built unevenly: {heights}")
    return out


def plain_cards(s: ClassicState, ed: Edition) -> list[str]:
    out: list[str] = []
    for deck_name, deck in (("chance", s.chance), ("chest", s.chest)):
        ids = sorted(c.id for c in ed.events if c.deck == deck_name)
        present = sorted([*deck, *(c for c in s.held if cards(ed)[c].deck == deck_name)])
        if present != ids:
            out.append(f"the {deck_name} cards in the deck and in hands {present} are not each card once {ids}")
    for card, holder in s.held.items():
        if cards(ed)[card].effect != "jail_card":
            out.append(f"card {card} is held but is not a Get Out of Jail Free card")
        if holder not in s.specs or holder in s.bankrupt:
            out.append(f"jail card {card} held by {holder!r}, not an active player")
    return out


def _break(s: ClassicState, ed: Edition, rng: random.Random) -> None:
    deeds, players = sorted(ed.deeds), [*s.order, "ghost"]
    for _ in range(rng.randint(1, 4)):
        what, deed = rng.randrange(6), rng.choice(deeds)
        if what == 0:
            s.level[deed] = rng.choice([0, 1, 2, 3, 4, 5, 6, HOTEL])
        elif what == 1:
            s.owner[deed] = rng.choice(players)
        elif what == 2:
            s.owner.pop(deed, None)
        elif what == 3:
            s.mortgaged = s.mortgaged | {deed}
        elif what == 4:
            s.held[rng.choice(list(cards(ed)))] = rng.choice(players)
        else:
            s.chance = s.chance[1:] if rng.random() < 0.5 else (*s.chance, s.chance[0] if s.chance else 1)


def test_fast_invariants_say_what_the_definition_says() -> None:
    rng = random.Random(22)
    compared = broken = 0
    for edition in ("classic-us", "classic-uk"):
        ed = load_edition(edition)
        for seed in range(4):
            game = Game(ed)
            states: list[ClassicState] = []

            def keep(cmd: object, game: Game = game, states: list[ClassicState] = states) -> object:
                events = game.apply(cmd)  # type: ignore[arg-type]
                if rng.random() < 0.05:
                    states.append(game.state.copy())
                return events

            ClassicRunner(ed, 4, seed, game=game, apply=keep, check_invariants=False).play()  # type: ignore[arg-type]
            for s in states:
                assert _buildings(s, ed) == plain_buildings(s, ed) == []
                assert deck_problems(s, ed) == plain_cards(s, ed) == []
                for _ in range(3):
                    b = s.copy()
                    _break(b, ed, rng)
                    assert _buildings(b, ed) == plain_buildings(b, ed)
                    assert deck_problems(b, ed) == plain_cards(b, ed)
                    compared += 1
                    broken += bool(plain_buildings(b, ed) or plain_cards(b, ed))
    assert compared > 300 and broken > compared // 2
