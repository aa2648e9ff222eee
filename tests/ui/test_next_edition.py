"""``--edition`` chooses the next new game's edition: kept in the installation's settings and lit on every
path to a new game (the menu's New game, the standings', after a restart), while the saved game decides
its own (docs/flows.md, "The saved game decides")."""

from __future__ import annotations

import argparse
from pathlib import Path

from ui.compose import Built, build
from ui.settings import SettingsStore


def _start(db: Path, edition: str | None) -> Built:
    args = argparse.Namespace(db=str(db), reader=None, edition=edition, option=None, script=None)
    return build(args, default_readers=[], manual_clock=True)


def test_the_asked_edition_is_lit_by_new_game_and_kept_across_restarts(tmp_path: Path) -> None:
    db = tmp_path / "bb.sqlite3"
    built = _start(db, "classic-us")
    built.registry.enroll("000000A1", "player", 1)
    built.registry.enroll("000000A2", "player", 2)
    for uid in ("000000A1", "000000A2"):
        built.banker.tap(uid)
        built.advance(2.0)
    built.banker.press("ok")
    assert built.banker.game is not None and built.banker.game.edition.id == "classic-us"
    built.close()

    built = _start(db, "ultimate-uk")  # the classic game resumes as saved; ultimate-uk is for the next game
    assert built.notice and built.banker.game is not None and built.banker.game.edition.id == "classic-us"
    built.banker.press("menu")
    built.banker.press("new_game")
    built.banker.press("ok")
    assert built.banker.state_name == "setup" and built.banker.view.edition == "ultimate-uk"
    built.banker.press("back")  # the family goes back: the classic game and its table, as saved
    assert built.banker.state_name == "idle" and built.banker.view.edition == "classic-us"
    assert built.banker.may("press_build")  # the classic table again
    built.close()
    settings = SettingsStore.open(db)
    assert settings.next_edition() == "ultimate-uk"
    settings.close()

    built = _start(db, None)  # the kiosk passes no --edition: the kept choice is still lit
    built.banker.press("menu")
    built.banker.press("new_game")
    built.banker.press("ok")
    assert built.banker.view.edition == "ultimate-uk"
    built.banker.choose("edition=classic-uk")  # the table chooses another while registering...
    built.close()
    built = _start(db, "ultimate-us")  # ...and a restart asks for one: the asked edition is lit
    assert built.banker.state_name == "setup" and built.banker.view.edition == "ultimate-us"
    built.close()
