"""The classic editions as data: the board, the deeds, the decks, the names and the checks on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.editions import load_edition, load_edition_file
from engine.errors import EditionError
from engine.rulesets.classic.edition import cards, taxes

BOARD = Path(__file__).resolve().parents[3] / "engine" / "editions" / "board-classic.toml"


@pytest.mark.parametrize("edition_id", ["classic-us", "classic-uk", "classic-ru"])
def test_board_deeds_and_decks(edition_id: str) -> None:
    """docs/rules.md 3.1-3.4: 40 spaces, 28 deeds (22 streets, 4 railroads, 2 utilities), 16 cards a deck."""
    ed = load_edition(edition_id)
    assert ed.ruleset == "classic" and len(ed.spaces) == 40 and len(ed.deeds) == 28
    kinds = [d.kind for d in ed.deeds.values()]
    assert (kinds.count("street"), kinds.count("railroad"), kinds.count("utility")) == (22, 4, 2)
    assert sum(d.price for d in ed.deeds.values()) == 5690
    assert ed.deeds[28].rents == (50, 200, 600, 1400, 1700, 2000) and ed.deeds[28].house_cost == 200
    assert all(d.mortgage * 2 == d.price for d in ed.deeds.values())
    assert [c.deck for c in ed.events].count("chance") == 16 and len(ed.events) == 32
    assert sum(1 for c in ed.events if c.effect == "jail_card") == 2
    assert dict(taxes(ed)) == {4: ("income", 200), 38: ("luxury", 100)}
    assert cards(ed)[7].params == {"kind": "utility", "rule": "tenfold"}


def test_names_and_money() -> None:
    ru, uk, us = load_edition("classic-ru"), load_edition("classic-uk"), load_edition("classic-us")
    assert ru.currency == "RUB_K" and ru.spaces[39].name == "Улица Арбат" and ru.spaces[27].name == "Новинский бульвар"
    assert uk.spaces[39].name == "Mayfair" and us.spaces[39].name == "Boardwalk"
    assert "Mayfair" in uk.events[0].name and "тыс." in ru.card(8).text


def test_a_broken_card_names_the_field(tmp_path: Path) -> None:
    text = BOARD.read_text(encoding="utf-8").replace('effect = "back"', 'effect = "teleport"', 1)
    bad = tmp_path / "board-classic.toml"
    bad.write_text(text, encoding="utf-8")
    edition = tmp_path / "classic-x.toml"
    edition.write_text((BOARD.parent / "classic-us.toml").read_text(encoding="utf-8").replace("classic-us", "classic-x"),
                       encoding="utf-8")
    with pytest.raises(EditionError, match=r"cards\[9\]\.effect"):
        load_edition_file(edition)


def test_a_street_needs_six_rents(tmp_path: Path) -> None:
    text = BOARD.read_text(encoding="utf-8").replace("rents = [2, 10, 30, 90, 160, 250]", "rents = [2, 10]", 1)
    (tmp_path / "board-classic.toml").write_text(text, encoding="utf-8")
    edition = tmp_path / "classic-x.toml"
    edition.write_text((BOARD.parent / "classic-us.toml").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(EditionError, match=r"deeds\[0\]\.rents"):
        load_edition_file(edition)
