"""``boardbank headless`` offers the slips' answers the way it offers every button: New game's question (its
prompt line names the game), ✓ to confirm, and setup's ``press back`` (in the prompt's ``actions``, the game
left named in its params), also after a restart (docs/flows.md, "Undo and New game ask first")."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.test_resume_ruleset import errors, headless

START = ["enroll 000000A1 player 1", "enroll 000000A2 player 2", "enroll 00000103 deed 3",
         "tap 000000A1", "tap 000000A2", "choose name=1:Ann", "choose name=2:Ben", "press ok",
         "tap 00000103", "tap 000000A1", "press ok"]


def prompts(lines: list[dict[str, object]]) -> list[dict[str, object]]:
    return [line for line in lines if line["type"] == "prompt"]


def test_new_game_asks_and_setup_offers_the_game_back_across_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    rc, lines, err = headless(db, [*START, "press menu", "press new_game"])
    assert rc == 0 and not errors(lines), err
    asked = prompts(lines)[-1]
    assert asked["state"] == "menu" and asked["key"] == "prompt.confirm_new_game"
    assert asked["params"] == {"names": "Ann\nBen", "turn_number": 1}
    assert "press_ok" in asked["actions"] and "press_cancel" in asked["actions"]  # type: ignore[operator]
    rc, lines, err = headless(db, ["press menu", "press new_game", "press ok", "tap 000000A2"])
    assert rc == 0 and not errors(lines), err
    setup = prompts(lines)[-1]
    assert setup["state"] == "setup" and "press_back" in setup["actions"]  # type: ignore[operator]
    assert setup["params"]["back_names"] == "Ann\nBen"  # type: ignore[index]
    rc, lines, err = headless(db, ["expect state setup", "press back", "expect state idle", "expect owner 3 1",
                                   "expect name 1 Ann"])  # a restart in setup: the offer stays
    assert rc == 0 and not errors(lines), (err, lines[-3:])
