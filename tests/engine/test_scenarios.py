"""Data-driven rule tests: every file in tests/engine/scenarios/ is one pytest case.

Scenario format (one statement per line; ``#`` starts a comment; the first line names the source):

    # source: docs/rules.md 1.9; rulebook R5
    edition ultimate-uk                 (optional; default ultimate-uk)
    start A B C seed=1 auction=off      (players, seed and rule options; on/off or numbers)
    buy A 16 | decline A 16 | bid B 40 | close | rent B 16 | own A 16 | go A
    location A 16 [origin=7] | jail A | payjail A | roll A doubles|miss
    draw A [CARD] [origin=N] | resolve A CHOICE... | event A CARD [choose=X,Y] [origin=N]
    return A 16 | end A | undo
    expect balance A 1240       expect level 16 3 | none      expect owner 16 A | bank
    expect phase debt           expect jail A yes | no         expect tries A 2
    expect bankrupt A yes|no    expect turn B                  expect rent 16 280
    expect wealth A 1500        expect deck 3 1 2 ...          expect decktop 5
    expect auction 16 40 B      expect debt A 200 B            expect on_the_run 6
    expect standings A:1 B:2 C:2   (player:rank, best first)
    expect event TokenMoved player=A position=18   (an event of the last command, with these fields)
    expect noevent SalaryPaid                      (no such event in the last command)
    expect error rent C 99 "unknown deed"          (refused with this text; nothing changes)
    expect name 16 "Coventry Street"

After every command the runner checks ``invariants()`` is empty and that ``Game.replay`` of the events
equals the live state. Amounts are in the edition's money unit.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from engine.commands import (
    BuyDeed,
    CloseAuction,
    Command,
    DeclineDeed,
    EndTurn,
    GoToJail,
    JailRoll,
    PassGo,
    PayJailFee,
    PayRent,
    PlaceBid,
    PlayerSpec,
    StartGame,
    Undo,
)
from engine.editions import load_edition
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import Game
from engine.ledger import BANK
from engine.rulesets.ultimate.commands import DrawEvent, LandOnOwn, ResolveEvent, ReturnDeed, UseLocation

SCENARIOS = Path(__file__).with_name("scenarios")


def _value(text: str) -> int | bool | str:
    low = text.lower()
    if low in ("on", "true", "yes"):
        return True
    if low in ("off", "false", "no"):
        return False
    try:
        return int(text)
    except ValueError:
        return text


def _choice(text: str) -> str | int:
    v = _value(text)
    return v if isinstance(v, int) and not isinstance(v, bool) else text


def _split_kw(args: list[str]) -> tuple[list[str], dict[str, str]]:
    pos = [a for a in args if "=" not in a]
    kw = dict(a.split("=", 1) for a in args if "=" in a)
    return pos, kw


def parse_command(words: list[str]) -> list[Command]:
    """The command(s) one scenario line stands for (``event`` is a draw plus, maybe, a resolve)."""
    verb, args = words[0], words[1:]
    pos, kw = _split_kw(args)
    origin = int(kw["origin"]) if "origin" in kw else None
    simple: dict[str, Callable[[], Command]] = {
        "buy": lambda: BuyDeed(pos[0], int(pos[1])),
        "decline": lambda: DeclineDeed(pos[0], int(pos[1])),
        "bid": lambda: PlaceBid(pos[0], int(pos[1])),
        "close": CloseAuction,
        "rent": lambda: PayRent(pos[0], int(pos[1])),
        "own": lambda: LandOnOwn(pos[0], int(pos[1])),
        "go": lambda: PassGo(pos[0]),
        "location": lambda: UseLocation(pos[0], int(pos[1]), origin),
        "jail": lambda: GoToJail(pos[0]),
        "payjail": lambda: PayJailFee(pos[0]),
        "roll": lambda: JailRoll(pos[0], pos[1] == "doubles"),
        "draw": lambda: DrawEvent(pos[0], int(pos[1]) if len(pos) > 1 else None, origin),
        "resolve": lambda: ResolveEvent(pos[0], tuple(_choice(c) for c in pos[1:])),
        "return": lambda: ReturnDeed(pos[0], int(pos[1])),
        "end": lambda: EndTurn(pos[0]),
        "undo": Undo,
    }
    if verb == "start":
        seed = int(kw.pop("seed", "0"))
        options = {k: _value(v) for k, v in kw.items()}
        return [StartGame(tuple(PlayerSpec(p, p, "") for p in pos), options, seed)]
    if verb == "event":
        cmds: list[Command] = [DrawEvent(pos[0], int(pos[1]), origin)]
        if "choose" in kw:
            cmds.append(ResolveEvent(pos[0], tuple(_choice(c) for c in kw["choose"].split(","))))
        return cmds
    if verb not in simple:
        raise ValueError(f"unknown scenario verb {verb!r}")
    return [simple[verb]()]


class Runner:
    """Plays one scenario file against a fresh game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.game: Game | None = None
        self.edition = load_edition("ultimate-uk")
        self.last: tuple[Event, ...] = ()

    @property
    def g(self) -> Game:
        assert self.game is not None, "start the game first"
        return self.game

    def run(self) -> int:
        lines = self.path.read_text(encoding="utf-8").splitlines()
        assert lines and lines[0].startswith("# source:"), f"{self.path.name}: first line must be '# source: ...'"
        expectations = 0
        for number, raw in enumerate(lines, 1):
            line = raw.split(" #", 1)[0].strip()
            if not line or line.startswith("#"):
                continue
            where = f"{self.path.name}:{number}: {line}"
            words = shlex.split(line)
            try:
                if words[0] == "expect":
                    self.expect(words[1:], where)
                    expectations += 1
                elif words[0] == "edition":
                    self.edition = load_edition(words[1])
                else:
                    self.command(words)
            except IllegalCommand as exc:
                raise AssertionError(f"{where}: refused: {exc}") from None
            except AssertionError as exc:
                raise AssertionError(f"{where}: {exc}") from None
        return expectations

    def command(self, words: list[str]) -> None:
        if self.game is None:
            self.game = Game(self.edition)
        for cmd in parse_command(words):
            self.last = self.g.apply(cmd)
            assert self.last, "every accepted command emits at least one event"
            problems = self.g.invariants()
            assert not problems, f"invariants broken: {problems}"
            assert Game.replay(self.edition, self.g.events).state == self.g.state, "replay differs"

    def expect(self, words: list[str], where: str) -> None:
        what, args = words[0], words[1:]
        if self.game is None:
            self.game = Game(self.edition)
        s = self.g.state
        if what == "error":
            *cmd_words, text = args
            before = s.snapshot()
            n_events = len(self.g.events)
            cmds = parse_command(cmd_words)
            reason = self.g.check(cmds[-1])
            with pytest.raises(IllegalCommand) as info:
                self.g.apply(cmds[-1])
            assert text.lower() in str(info.value).lower(), f"expected {text!r} in {str(info.value)!r}"
            assert reason == str(info.value), "check() and apply() give different reasons"
            assert self.g.state.snapshot() == before, "a refused command changed the state"
            assert len(self.g.events) == n_events, "a refused command added events"
            return
        checks: dict[str, Callable[[], tuple[object, object]]] = {
            "balance": lambda: (s.balance(args[0]), int(args[1])),
            "level": lambda: (s.level.get(int(args[0])), None if args[1] == "none" else int(args[1])),
            "owner": lambda: (s.owner.get(int(args[0]), BANK), args[1]),
            "phase": lambda: (s.phase, args[0]),
            "jail": lambda: (args[0] in s.jail, args[1] == "yes"),
            "tries": lambda: (s.jail.get(args[0]), int(args[1])),
            "bankrupt": lambda: (args[0] in s.bankrupt, args[1] == "yes"),
            "turn": lambda: (s.turn, args[0]),
            "rent": lambda: (s.rent_due(int(args[0])), int(args[1])),
            "wealth": lambda: (s.wealth(args[0]), int(args[1])),
            "deck": lambda: (s.deck, tuple(int(a) for a in args)),
            "decktop": lambda: (s.deck[0], int(args[0])),
            "on_the_run": lambda: (s.on_the_run, int(args[0])),
            "name": lambda: (self.edition.deeds[int(args[0])].name, args[1]),
            "auction": lambda: (
                None if s.auction is None else (s.auction.deed, s.auction.high_bid, s.auction.high_bidder),
                None if args[0] == "none" else (int(args[0]), int(args[1]), None if args[2] == "none" else args[2]),
            ),
            "debt": lambda: (
                None if s.debt is None else (s.debt.debtor, s.debt.amount, s.debt.creditor),
                None if args[0] == "none" else (args[0], int(args[1]), args[2]),
            ),
            "standings": lambda: (
                [f"{row.player}:{row.rank}" for row in s.standings()],
                args,
            ),
        }
        if what in ("event", "noevent"):
            name, fields = args[0], dict(a.split("=", 1) for a in args[1:])
            found = [
                e for e in self.last
                if type(e).__name__ == name and all(str(getattr(e, k, None)) == v for k, v in fields.items())
            ]
            if what == "event":
                assert found, f"no {name} {fields} among {self.last}"
            else:
                assert not found, f"unexpected {found}"
            return
        if what not in checks:
            raise AssertionError(f"unknown expectation {what!r}")
        got, want = checks[what]()
        assert got == want, f"expected {want!r}, got {got!r}"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.txt")), ids=lambda p: p.stem)
def test_scenario(path: Path) -> None:
    """Each scenario runs to the end with all its expectations met."""
    assert Runner(path).run() > 0, "a scenario must expect something"


def test_scenarios_exist() -> None:
    """The folder holds the scenarios (a glob that finds nothing would pass silently)."""
    assert len(list(SCENARIOS.glob("*.txt"))) >= 20
