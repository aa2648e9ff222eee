"""The vocabulary of the table's setup: seats and player ids, default names and tokens, setup answers.

While registering (state SETUP) the table may answer (``choose()``, trigger ``answer``):

- ``name=SEAT:TEXT``: the name of a seated player (1..24 printable characters once trimmed; unique at the
  table, compared without case);
- ``token=SEAT:COLOUR``: a token colour from :data:`TOKEN_PALETTE`, unique at the table;
- ``option=NAME:VALUE``: a rule option of the edition's ruleset (its options class, e.g. the classic
  game's ``income_tax_choice``; ``VALUE`` a whole number or ``on``/``off``), checked with its
  ``from_mapping`` over the edition's defaults;
- ``edition=ID``: one of :func:`playable_editions`, of either game (Ultimate Banking or the classic game):
  the game is chosen first, then its options; an edition of the same ruleset keeps the options chosen (its
  own option defaults apply under them), another ruleset's starts from its own defaults, and the banker
  swaps its table for that ruleset's (engine/banker/machine.py).

The gestures that check and apply them are in :mod:`engine.banker.gestures.setup`. This module has no
state: the UI reads it too (default names).
"""

from __future__ import annotations

from functools import cache

from engine.editions import edition_ruleset, list_editions
from engine.numbers import is_digits
from engine.rulesets.registry import RULESETS, WITH_GESTURES

TOKENS = ("red", "green", "blue", "white", "yellow", "black", "orange", "purple")
"""Default token colour of each seat (the four of the box first)."""

TOKEN_PALETTE: tuple[str, ...] = TOKENS
"""The token colours a player may take (one per player at a table); seat ``n`` defaults to the ``n``-th."""

NAME_MAX = 24
"""Longest player name, in characters (after trimming)."""


def player_id(seat: int) -> str:
    """The engine's id of the player at ``seat`` (``3`` -> ``"p3"``)."""
    return f"p{seat}"


def seat_of(pid: str | None) -> int | str:
    """The seat number of a player id (``"p3"`` -> 3); the id itself if it is not a seat id."""
    if pid is None:
        return "none"
    return int(pid[1:]) if pid.startswith("p") and is_digits(pid[1:]) else pid


def default_name(seat: int) -> str:
    """The untranslated default name of a seat (the UI shows it translated)."""
    return f"Player {seat}"


def default_seat(name: str, player_id: str) -> int | None:
    """The seat of player ``player_id`` when ``name`` is no name or the seat's untranslated default name (a
    screen, the story and the phone page then say the default name in their language); None for a name the
    table gave."""
    seat = player_id[1:] if player_id.startswith("p") and is_digits(player_id[1:]) else ""
    if not seat or (name and name != default_name(int(seat))):
        return None
    return int(seat)


def parse_setup_answer(text: str) -> tuple[str, str, str] | None:
    """``"name=2:Ana"`` -> ``("name", "2", "Ana")``; ``"edition=ultimate-us"`` -> ``("edition", "", "...")``.

    None when ``text`` is not one of the setup answers (``name``, ``token``, ``option``, ``edition``).
    """
    kind, sep, rest = text.partition("=")
    kind = kind.strip().lower()
    if not sep or kind not in ("name", "token", "option", "edition"):
        return None
    if kind == "edition":
        return kind, "", rest.strip()
    key, sep, value = rest.partition(":")
    if not sep or not key.strip():
        return None
    return kind, key.strip(), value


@cache
def playable_editions() -> tuple[str, ...]:
    """Every built-in edition a table can choose: those of the rulesets that bring gestures for the banker,
    in the registry's order of rulesets (read once: the files do not change while the unit runs). Only each
    file's ``ruleset`` is read (:func:`~engine.editions.edition_ruleset`): no edition is loaded, no ruleset
    imported."""
    order = list(RULESETS)
    editions = [e for e in list_editions() if edition_ruleset(e) in WITH_GESTURES]
    return tuple(sorted(editions, key=lambda e: (order.index(edition_ruleset(e)), e)))
