"""Every tap script in tests/engine/taps/ played through a real Banker over a journal on disk.

Each script names its rule source (``# source:``); after every command the engine's invariants must hold.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.banker.machine import Banker
from engine.banker.tapscript import CardTable, ManualClock, Step, parse_file, run_script
from engine.store.gamestore import JournalStore
from engine.store.journal import Journal

TAPS = sorted((Path(__file__).parent / "taps").glob("*.tap"))


def play(path: Path, tmp_path: Path) -> Banker:
    script = parse_file(path)
    assert script.sources, f"{path.name} must name its rule source with '# source:'"
    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock = ManualClock()
    cards = CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 7)

    def healthy(step: Step, reaction: object) -> None:
        game = banker.game
        if game is not None:
            assert game.invariants() == [], f"{path.name} line {step.line}: {game.invariants()}"

    run_script(script.steps, banker, clock, cards.enroll, on_step=healthy)
    return banker


def test_there_are_scripts() -> None:
    assert len(TAPS) >= 12


@pytest.mark.parametrize("path", TAPS, ids=[p.stem for p in TAPS])
def test_script(path: Path, tmp_path: Path) -> None:
    play(path, tmp_path)


def test_parser_returns_typed_steps() -> None:
    from engine.banker.tapscript import Alias, Card, Choose, Expect, Press, Tap, Wait, parse

    script = parse("# source: docs/rules.md 1.9\ncard 04A22B1C deed 16  # a deed\nalias d16 04A22B1C\n\ntap @d16\n"
                   "press bid 100\npress go\nchoose brown\nwait 2.5\nexpect owner 16 none\ncard 0A0B0C0D banker\n"
                   "choose name=2:Ana  María   # a name with spaces\nexpect name 2 Ana  María\n")
    assert script.sources == ("docs/rules.md 1.9",)
    assert script.steps == (
        Card(2, "04A22B1C", "deed", 16), Alias(3, "d16", "04A22B1C"), Tap(5, "04A22B1C"),
        Press(6, "bid", "100"), Press(7, "go", None), Choose(8, "brown"), Wait(9, 2.5),
        Expect(10, "owner", ("16", "none")), Card(11, "0A0B0C0D", "banker", None),
        Choose(12, "name=2:Ana  María"), Expect(13, "name", ("2", "Ana  María")),
    )


@pytest.mark.parametrize(("line", "match"), [
    ("jump 3", "unknown verb 'jump'"), ("tap", "expected 'tap UID'"), ("tap @nobody", "unknown alias"),
    ("card 01020304 deed x", "must be an integer"), ("wait soon", "seconds as a number"),
    ("wait -1", ">= 0"), ("expect colour 3 red", "expected 'expect"), ("expect balance 1", "takes 2"),
    ("press", "expected 'press BUTTON"), ("choose", "expected 'choose VALUE'"),
    ("alias x", "expected 'alias NAME UID'"),
])
def test_parser_errors_name_the_line(line: str, match: str) -> None:
    from engine.banker.tapscript import TapScriptError, parse

    with pytest.raises(TapScriptError, match=match) as info:
        parse(f"# header\n{line}\n")
    assert str(info.value).startswith("line 2:")


def test_a_failed_expectation_names_the_line(tmp_path: Path) -> None:
    from engine.banker.tapscript import ExpectationFailed, parse

    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 7)
    script = parse("card 000000A1 player 1\ntap 000000A1\nexpect state idle\n")
    with pytest.raises(ExpectationFailed, match=r"line 3: expected state idle, got 'setup'"):
        run_script(script.steps, banker, clock, cards.enroll)


def test_the_table_s_choices_reach_the_journal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """setup_choices.tap names the players, picks their colours, an option and the edition; ``boardbank
    replay`` (a rebuild from the journal alone) shows them."""
    import json

    from ui.cli import main as cli_main

    banker = play(Path(__file__).parent / "taps" / "setup_choices.tap", tmp_path)
    assert banker.durable is not None
    banker.durable.journal.close()
    assert cli_main(["replay", str(tmp_path / "bb.sqlite3"), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["edition"] == "ultimate-us"
    assert [(p["id"], p["name"], p["token"]) for p in out["players"]] == [
        ("p1", "Ana", "purple"), ("p2", "Boris", "orange")]
    assert [p["balance"] for p in out["players"]] == [1980, 1920]  # start_money 2000, a purchase, a rent
    assert cli_main(["replay", str(tmp_path / "bb.sqlite3")]) == 0
    table = capsys.readouterr().out
    assert "Ana" in table and "Boris" in table


def test_the_interpreter_s_hooks_see_every_step(tmp_path: Path) -> None:
    """One interpreter for tests, ``boardbank headless`` and ``boardbank run --script``: its hooks."""
    from engine.banker.tapscript import ExpectationFailed, Interpreter

    journal = Journal.open(tmp_path / "bb.sqlite3")
    clock, cards = ManualClock(), CardTable()
    banker = Banker(JournalStore(journal), cards, clock, seed_source=lambda: 7)
    seen: list[tuple[str, object]] = []
    interpreter = Interpreter(
        banker, on_enroll=lambda uid, kind, value: cards.enroll(uid, kind, value) or uid,
        on_wait=clock.advance, on_reaction=lambda step, reaction: seen.append(("reaction", step.line)),
        on_expect=lambda step, failure: seen.append(("expect", failure is None)))
    lines = ["card 000000A1 player 1", "alias a 000000A1", "tap @a", "wait 2", "tap @a",
             "expect error error.already_seated", "wait 1", "expect error error.already_seated",
             "expect state idle", "", "# a comment"]
    outcomes = [interpreter.line(text, n) for n, text in enumerate(lines, start=1)]
    assert outcomes[0] is not None and outcomes[0].enrolled == "000000A1"
    assert outcomes[-2:] == [None, None]
    assert seen == [("reaction", 3), ("reaction", 4), ("reaction", 5), ("expect", True), ("reaction", 7),
                    ("expect", True), ("expect", False)]
    failed = outcomes[8]
    assert failed is not None and isinstance(failed.failure, ExpectationFailed)
    assert clock.now == 3.0 and interpreter.last_error == "error.already_seated"
