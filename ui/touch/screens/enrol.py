"""Enrolling cards from the setup screen: a guided walk through the box's cards, and the mock deck.

While enrolment runs, taps go to the :class:`~reader.registry.EnrollmentGuide` instead of the banker
(the registry stores uid -> role; no rule is involved). The walk is the box of the game's edition: its
bank cards, its title deeds by number (22 in Ultimate Banking, 28 in the classic game), its event cards
(Ultimate Banking's 23; the classic 32 Chance and Community Chest cards as ``event`` 1..32, the edition's
card ids) and the banker card; Skip leaves a card out. With ``mock://`` and an empty registry the app
enrols :func:`mock_deck` so a whole game can be played from the on-screen card tray.
"""

from __future__ import annotations

import logging
from typing import Any

from engine.editions import Edition, load_edition
from engine.errors import EditionError
from reader.registry import EnrollmentGuide, RegistryError

log = logging.getLogger(__name__)

DECK_PREFIX: dict[str, str] = {"player": "BB0000", "deed": "DD0000", "event": "EE0000", "banker": "BA0000"}
"""UID prefixes of the mock deck (4-byte UIDs: prefix + two hex digits of the card's number)."""


def box_size(edition: Edition | str | None) -> tuple[int, int]:
    """(deeds, event cards) of an edition (an :class:`Edition` or its id); Ultimate Banking's 22 and 23
    when it is None or unknown."""
    if isinstance(edition, str):
        try:
            edition = load_edition(edition)
        except EditionError:
            edition = None
    if edition is None:
        return 22, 23
    return len(edition.deeds), len(edition.events)


def mock_deck(players: int = 4, deeds: int = 22, events: int = 23) -> list[tuple[str, str, int | None]]:
    """(uid, kind, value) of a full box: bank cards, deeds, event cards and the banker card."""
    cards: list[tuple[str, str, int | None]] = []
    cards += [(f"{DECK_PREFIX['player']}{n:02X}", "player", n) for n in range(1, players + 1)]
    cards += [(f"{DECK_PREFIX['deed']}{n:02X}", "deed", n) for n in range(1, deeds + 1)]
    cards += [(f"{DECK_PREFIX['event']}{n:02X}", "event", n) for n in range(1, events + 1)]
    cards.append((f"{DECK_PREFIX['banker']}01", "banker", None))
    return cards


def enrol_mock_deck(registry: Any, players: int = 4, edition: Edition | str | None = None) -> int:
    """Enrol the mock deck of ``edition``'s box (:func:`box_size`) where role and UID are both free;
    returns how many were enrolled."""
    count = 0
    for uid, kind, value in mock_deck(players, *box_size(edition)):
        if registry.holder(kind, value) is not None or registry.lookup(uid) is not None:
            continue
        registry.enroll(uid, kind, value)
        count += 1
    return count


class Enrolment:
    """A guided enrolment in progress; :meth:`offer` takes a tapped UID."""

    def __init__(self, registry: Any, names: dict[tuple[str, int | None], str], players: int = 4,
                 edition: Edition | str | None = None) -> None:
        deeds, events = box_size(edition)
        self.guide = EnrollmentGuide.box(registry, players=players, deeds=deeds, events=events, names=names)
        self.last_error: str | None = None

    @property
    def done(self) -> bool:
        return self.guide.done

    def prompt(self) -> tuple[str, tuple[tuple[str, str | int], ...]]:
        """The translation key and parameters of what to tap now."""
        step = self.guide.step()
        if step is None:
            return "enroll.done", ()
        return step.prompt, step.params

    def offer(self, uid: str) -> bool:
        """Enrol ``uid`` for the current role; False (and ``last_error`` set) when the registry refuses."""
        try:
            self.guide.offer(uid)
        except RegistryError as exc:
            self.last_error = str(exc)
            log.info("enrolment refused %s: %s", uid, exc)
            return False
        self.last_error = None
        return True

    def skip(self) -> None:
        """Leave the current role without a card."""
        self.guide.skip()
