"""Edition data: the shipped files match docs/rules.md 1.7/1.8/1.11, and broken files are refused by name."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.editions import EDITIONS_DIR, SIDE_NAMES, list_editions, load_edition, load_edition_file
from engine.errors import EditionError

BOARD = (EDITIONS_DIR / "board-ultimate.toml").read_text(encoding="utf-8")
UK = (EDITIONS_DIR / "ultimate-uk.toml").read_text(encoding="utf-8")


def test_the_three_editions_ship() -> None:
    assert list_editions() == ["classic-ru", "classic-uk", "classic-us", "ultimate-ru", "ultimate-uk", "ultimate-us"]
    ru = load_edition("ultimate-ru")
    assert (ru.language, ru.currency) == ("ru", "RUB_K")
    assert load_edition("ultimate-us").currency == "M"


@pytest.mark.parametrize("edition_id", ["ultimate-uk", "ultimate-us", "ultimate-ru"])
def test_board_shape(edition_id: str) -> None:
    """36 spaces with corners at 0/9/18/27, 22 deeds, 6 Event and 4 Location spaces (docs/rules.md 1.7)."""
    ed = load_edition(edition_id)
    assert len(ed.spaces) == 36
    kinds = [s.kind for s in ed.spaces]
    assert (kinds[0], kinds[9], kinds[18], kinds[27]) == ("go", "jail", "parking", "go_to_jail")
    assert [s.position for s in ed.spaces if s.kind == "location"] == [7, 16, 25, 34]
    assert [s.position for s in ed.spaces if s.kind == "event"] == [2, 4, 11, 20, 29, 32]
    assert sorted(ed.deeds) == list(range(1, 23))
    assert all(ed.spaces[d.position].deed == d.number for d in ed.deeds.values())
    assert len(ed.events) == 23 and [c.id for c in ed.events] == list(range(1, 24))
    assert ed.sides[0] == (1, 2, 3, 4, 5) and ed.sides[3] == (18, 19, 20, 21, 22)
    assert ed.side_of(16) == "C" and len(SIDE_NAMES) == len(ed.sides)


def test_rents_and_prices_match_rules_table() -> None:
    """Prices and the five rents of every deed, read from the table in docs/rules.md 1.8."""
    rules = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    ed = load_edition("ultimate-uk")
    rows = re.findall(r"^\| (\d+) \| (\d+) \| ([^|]+) \| [^|]+ \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$",
                      rules.read_text(encoding="utf-8"), re.M)
    assert len(rows) == 22
    for number, pos, name, price, *rents in rows:
        deed = ed.deeds[int(number)]
        assert (deed.position, deed.name, deed.price) == (int(pos), name.strip(), int(price))
        assert deed.rents == tuple(int(r) for r in rents)
    assert ed.deeds[16].rents[1] == 280  # rulebook R5
    assert ed.colour_sets["brown"] == (1, 2) and ed.colour_sets["dark_blue"] == (21, 22)
    assert len(ed.colour_sets) == 8


def test_event_cards() -> None:
    """The 23 cards of docs/rules.md 1.11 in order, FORECLOSED as the third "level to 1" card."""
    ed = load_edition("ultimate-uk")
    names = [c.name for c in ed.events]
    assert names[:4] == ["STARGAZING", "CRIME DOWN", "ON THE MAP", "'TIS THE SEASON"]
    assert names[7:10] == ["DEMOLISHED", "TORNADO ALLEY", "FORECLOSED"]
    assert names[-1] == "TOTAL GRIDLOCK"
    effects = [c.effect for c in ed.events]
    assert effects.count("set_level_up") == 3 and effects.count("deed_to_level_1") == 3
    assert effects.count("move_to_deed") == 3 and effects.count("swap_deeds") == 2
    assert ed.card(21).amount == 50 and ed.card(13).amount == 200
    assert all(c.text and c.key for c in ed.events)


def test_names_per_language() -> None:
    assert load_edition("ultimate-uk").deeds[22].name == "Mayfair"
    assert load_edition("ultimate-us").deeds[22].name == "Boardwalk"
    ru = load_edition("ultimate-ru")
    assert ru.deeds[1].name == "Житная улица" and ru.spaces[0].name == "Старт"
    assert set(ru.names) == {"ru"}


def test_unknown_edition() -> None:
    with pytest.raises(EditionError, match="unknown edition 'ultimate-xx'"):
        load_edition("ultimate-xx")


def _write(tmp_path: Path, board: str, edition: str = UK) -> Path:
    (tmp_path / "board-ultimate.toml").write_text(board, encoding="utf-8")
    path = tmp_path / "my-city.toml"
    path.write_text(edition, encoding="utf-8")
    return path


def test_user_edition_file(tmp_path: Path) -> None:
    """A user adds an edition by adding a file; the board next to it wins over the built-in one."""
    board = BOARD.replace("price = 400, rents = [300", "price = 450, rents = [300")
    path = _write(tmp_path, board, UK.replace('id = "ultimate-uk"', 'id = "my-city"'))
    ed = load_edition_file(path)
    assert ed.id == "my-city" and ed.deeds[22].price == 450


def test_inline_board(tmp_path: Path) -> None:
    """An edition file may carry the board tables itself (no ``board =`` line)."""
    path = tmp_path / "solo.toml"
    head, names = UK.replace('board = "ultimate"\n', "").replace('id = "ultimate-uk"', 'id = "solo"').split("[names]")
    path.write_text(head + BOARD + "\n[names]" + names, encoding="utf-8")
    assert load_edition_file(path).id == "solo"


BROKEN = [
    ("missing field", lambda b, e: (b, e.replace('currency = "M"\n', "")), "missing field currency"),
    ("four rents", lambda b, e: (b.replace("rents = [70, 130, 220, 370, 750] },\n  { number = 2",
                                           "rents = [70, 130, 220, 370] },\n  { number = 2"), e),
     "deeds[0].rents: expected 5 positive"),
    ("duplicate deed", lambda b, e: (b.replace("number = 2,", "number = 1,"), e), "duplicate deed 1"),
    ("unknown colour", lambda b, e: (b.replace('colour = "pink", price = 160', 'colour = "violet", price = 160'), e),
     "deeds[7].colour"),
    ("falling rents", lambda b, e: (b.replace("[70, 130, 220, 370, 750] },\n  { number = 2",
                                              "[70, 30, 220, 370, 750] },\n  { number = 2"), e), "rising"),
    ("bad space kind", lambda b, e: (b.replace('"go", "deed", "event"', '"go", "deed", "chance"'), e), "spaces[2]"),
    ("deed off a deed space", lambda b, e: (b.replace("number = 1, position = 1,", "number = 1, position = 2,"), e),
     "deeds[0].position"),
    ("short names", lambda b, e: (b, e.replace('"GO", ', "")), "names.en"),
    ("unknown effect", lambda b, e: (b.replace('effect = "gridlock"', 'effect = "earthquake"'), e), "events[22].effect"),
    ("wrong choice", lambda b, e: (b.replace('effect = "gridlock"\nchoice = "none"', 'effect = "gridlock"\nchoice = "side"'), e),
     "events[22].choice"),
    ("no amount", lambda b, e: (b.replace("amount = 50\n", ""), e), "events[20].amount"),
    ("ids out of order", lambda b, e: (b.replace("id = 23\n", "id = 24\n"), e), "events[22].id"),
    ("sides", lambda b, e: (b.replace("[18, 19, 20, 21, 22]]", "[18, 19, 20, 21]]"), e), "sides"),
    ("not toml", lambda b, e: (b + "\n[[[", e), "not valid TOML"),
    ("no board", lambda b, e: (b, e.replace('board = "ultimate"', 'board = "nowhere"')), "board-nowhere.toml"),
    ("price text", lambda b, e: (b.replace("price = 60,", 'price = "60",', 1), e), "deeds[0].price"),
]


@pytest.mark.parametrize(("label", "breaker", "message"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_names_file_and_field(tmp_path: Path, label: str, breaker, message: str) -> None:  # type: ignore[no-untyped-def]
    board, edition = breaker(BOARD, UK)
    assert (board, edition) != (BOARD, UK), f"the {label} breaker did not change anything"
    path = _write(tmp_path, board, edition)
    with pytest.raises(EditionError) as info:
        load_edition_file(path)
    text = str(info.value)
    assert message in text, text
    assert "my-city.toml" in text or "board-ultimate.toml" in text or str(path) in text


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(EditionError, match="cannot read"):
        load_edition_file(tmp_path / "nope.toml")


def test_shipped_files_are_valid_toml() -> None:
    for path in EDITIONS_DIR.glob("*.toml"):
        tomllib.loads(path.read_text(encoding="utf-8"))


def test_edition_option_defaults(tmp_path: Path) -> None:
    """An edition's ``[options]`` table sets its defaults; the command's options still win."""
    from engine.commands import PlayerSpec, StartGame
    from engine.game import Game

    path = _write(tmp_path, BOARD, UK + "\n[options]\nstart_money = 2000\nauction = false\n")
    ed = load_edition_file(path)
    assert dict(ed.options) == {"start_money": 2000, "auction": False}
    game = Game(ed)
    game.apply(StartGame((PlayerSpec("A"), PlayerSpec("B")), {"auction": True}, 1))
    assert game.state.balance("A") == 2000 and game.state.options.auction is True
    assert load_edition("ultimate-uk").options == {}


def test_edition_with_a_bad_option(tmp_path: Path) -> None:
    path = _write(tmp_path, BOARD, UK + "\n[options]\nauction_steps = 10\n")
    with pytest.raises(EditionError, match=r"my-city.toml \(with board-ultimate.toml\): field options: unknown rule option 'auction_steps'"):
        load_edition_file(path)


@pytest.mark.parametrize("edition_id", list_editions())
def test_every_edition_gives_its_deeds_a_short_name_for_the_board(edition_id: str) -> None:
    """The board's labels (``[short_names]``, docs/architecture.md): one per space in the edition's language,
    ``""`` where the name itself is short enough, never longer than the name."""
    ed = load_edition(edition_id)
    short = ed.short_names[ed.language]
    names = ed.names[ed.language]
    assert len(short) == len(ed.spaces)
    for position, (label, name) in enumerate(zip(short, names, strict=True)):
        assert len(label) <= len(name), (position, label, name)
        if ed.spaces[position].deed is not None and len(name) > 12:  # a long name has a short one
            assert label, (position, name)


def test_short_names_are_optional_and_checked(tmp_path: Path) -> None:
    """A user's edition needs none; a list of the wrong length is refused by file and field."""
    plain = re.sub(r"\n# The board's labels.*?\n\[short_names\]\nen = \[[^\n]*\]\n", "\n", UK, flags=re.S)
    assert "[short_names]" not in plain
    assert load_edition_file(_write(tmp_path, BOARD, plain)).short_names == {}
    broken = plain + '\n[short_names]\nen = ["GO"]\n'
    with pytest.raises(EditionError, match=r"my-city.toml \(with board-ultimate.toml\): field short_names.en"):
        load_edition_file(_write(tmp_path, BOARD, broken))


def test_edition_ruleset_without_loading() -> None:
    """Each built-in edition's ruleset as read alone equals the loaded edition's; the registry's rulesets
    with gestures are exactly those whose ``RULESET`` names them (the setup's list reads no more)."""
    from engine.editions import edition_ruleset
    from engine.rulesets.registry import RULESETS, WITH_GESTURES, get_ruleset

    for edition_id in list_editions():
        assert edition_ruleset(edition_id) == load_edition(edition_id).ruleset
    assert {name for name in RULESETS if get_ruleset(name).gestures} == WITH_GESTURES
    with pytest.raises(EditionError, match="unknown edition"):
        edition_ruleset("nope")


def test_a_classic_setup_imports_no_ultimate_module() -> None:
    """Listing the playable editions imports no ruleset (a fresh interpreter: this one has both)."""
    import subprocess
    import sys

    code = ("import sys; from engine.banker.setup import playable_editions; e = playable_editions(); "
            "assert 'classic-us' in e and 'ultimate-us' in e, e; "
            "print(sorted(m for m in sys.modules if m.startswith('engine.rulesets.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert "ultimate" not in out and "classic." not in out, out
