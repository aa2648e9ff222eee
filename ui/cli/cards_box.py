"""The box the guided enrolment (``boardbank cards enroll all``) walks: one edition's cards, each named in
the installation's language where the edition has the names (:mod:`ui.cli.cards`)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.editions import Edition, list_editions, load_edition
from reader.registry import EnrollStep, Role


def _card_names(edition: Edition, lang: str) -> dict[int, str]:
    """Event card id -> its short text (``name``) in ``lang``: the edition's own when it speaks ``lang``,
    else those of a built-in edition of the same ruleset in ``lang`` whose board names in ``lang`` are the
    same (classic-ru in English: classic-uk's), else the edition's own."""
    own = {card.id: card.name for card in edition.events}
    board = edition.names.get(lang)
    if lang == edition.language or board is None:
        return own
    for other_id in list_editions():
        other = load_edition(other_id)
        if other.language != lang or other.ruleset != edition.ruleset or other.names.get(lang) != board:
            continue
        by_key = {card.key: card.name for card in other.events}
        if all(card.key in by_key for card in edition.events):
            return {card.id: by_key[card.key] for card in edition.events}
    return own


@dataclass(frozen=True, slots=True)
class Box:
    """One edition's box as the guided enrolment walks it: ``names`` says each card in the prompts,
    ``decks`` the names of its card decks (none for Ultimate Banking's single pile of event cards)."""

    edition: Edition
    players: int
    names: dict[Role, str]
    decks: tuple[str, ...] = ()

    @classmethod
    def of(cls, edition: Edition, players: int, lang: str) -> Box:
        """The box of ``edition`` with ``players`` bank cards, its cards named in ``lang`` where it can:
        deeds by the board's names, the classic cards as "<deck> card <n> — <short text>"."""
        spaces = edition.names.get(lang, tuple(space.name for space in edition.spaces))
        deck_names = {s.kind: spaces[s.position] for s in reversed(edition.spaces)}  # the first space's
        names: dict[Role, str] = {("deed", n): spaces[d.position] for n, d in edition.deeds.items()}
        texts = _card_names(edition, lang)
        counted: dict[str, int] = {}
        for card in edition.events:
            label = f"event card {card.id}"
            if card.deck:
                counted[card.deck] = counted.get(card.deck, 0) + 1
                label = f"{deck_names.get(card.deck, card.deck.title())} card {counted[card.deck]}"
            names[("event", card.id)] = f"{label} — {texts[card.id]}"
        decks = tuple(deck_names.get(deck, deck.title()) for deck in counted)
        return cls(edition, players, names, decks)

    @property
    def optional_cards(self) -> bool:
        """Whether the event cards come in named decks (the classic Chance and Community Chest): those are
        enrolled only when wanted; Ultimate Banking's event cards are always part of the walk."""
        return bool(self.decks)


def step_text(step: EnrollStep, names: dict[Role, str]) -> str:
    name = names.get((step.kind, step.value))
    if step.kind == "player":
        return f"the bank card of player {step.value}"
    if step.kind == "deed":
        return f"title deed {step.value}" + (f" — {name}" if name else "")
    if step.kind == "event":
        return name or f"event card {step.value}"
    return "the banker card"
