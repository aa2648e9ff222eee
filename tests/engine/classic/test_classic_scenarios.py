"""Data-driven classic rule tests: every file in tests/engine/classic/scenarios/ is one pytest case.

Scenario format (one statement per line; ``#`` starts a comment; the first line names the source):

    # source: seed 000, the Russian rules, standard text (...); docs/rules.md 3.1
    edition classic-ru                  (optional; default classic-us)
    start A B C seed=1 top=chance:5,chest:21 short_game=on   (players, seed, deck tops wanted, options)
    buy A 1 | decline A 1 | bid B 40 | close | rent B 1 | urent B 12 7 | go A | end A | undo
    jail A | payjail A | roll A doubles|miss | usecard A | draw A 7 | tax A 4 [percent] | jackpot A
    build A 1 | sell A 1 | mortgage A 1 | lift A 1 | bauction house|hotel
    propose A B give=1,3 givecash=50 givecards=9 take=2 takecash=0 takecards= | accept B | canceltrade A
    settle A | bankrupt A | clock 61 | calltime | paydeeds A 1,3 120 | timeout A roll|pay|deal
    expect balance A 1240      expect owner 1 A|bank      expect level 1 3      expect mortgaged 1 yes|no
    expect phase debt          expect jail A yes|no       expect tries A 2      expect bankrupt A yes|no
    expect turn B              expect rent 1 4 [dice]     expect pot 150        expect houses 30 | hotels 11
    expect held 9 A|deck       expect decktop chance 5    expect debt A 200 B | none
    expect auction 1 40 B | none | house 0 none            expect standings A:1 B:2
    expect event RentPaid amount=8    expect noevent SalaryPaid    expect error rent C 99 "unknown deed"

``top=chance:N`` picks the first seed (from ``seed``) whose shuffle puts card N on top of Chance (and so on),
so card scenarios stay replayable. After every command the runner checks the invariants, that
``Game.replay`` of the events equals the live state, and that every event survives its JSON record.
Amounts are in the edition's money unit.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import pytest

from engine import commands as c
from engine.commands import Command
from engine.editions import Edition, load_edition
from engine.errors import IllegalCommand
from engine.events import Event
from engine.game import Game
from engine.ledger import BANK
from engine.records import event_from_record, event_to_record
from engine.rulesets.classic import commands as cc
from engine.rulesets.classic.base import rent_for
from engine.rulesets.classic.building import hotels_left, houses_left

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


def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split(",") if x)


def _seed_for(edition: Edition, players: tuple[c.PlayerSpec, ...], options: dict[str, object], seed: int,
              tops: str) -> int:
    wanted = [(deck, int(card)) for deck, card in (t.split(":") for t in tops.split(","))]
    for candidate in range(seed, seed + 20000):
        g = Game(edition)
        g.apply(c.StartGame(players, options, candidate))
        if all((g.state.chance if d == "chance" else g.state.chest)[0] == card for d, card in wanted):
            return candidate
    raise AssertionError(f"no seed puts {tops} on top")


def parse_command(words: list[str], edition: Edition) -> Command:
    """The command one scenario line stands for."""
    verb, args = words[0], words[1:]
    pos = [a for a in args if "=" not in a]
    kw = dict(a.split("=", 1) for a in args if "=" in a)
    if verb == "start":
        seed = int(kw.pop("seed", "0"))
        tops = kw.pop("top", "")
        options: dict[str, object] = {k: _value(v) for k, v in kw.items()}
        players = tuple(c.PlayerSpec(p, p, "") for p in pos)
        if tops:
            seed = _seed_for(edition, players, options, seed, tops)
        return c.StartGame(players, options, seed)
    if verb == "propose":
        return cc.ProposeTrade(pos[0], pos[1], _ints(kw.get("give", "")), int(kw.get("givecash", "0")),
                               _ints(kw.get("givecards", "")), _ints(kw.get("take", "")),
                               int(kw.get("takecash", "0")), _ints(kw.get("takecards", "")))
    simple: dict[str, Callable[[], Command]] = {
        "buy": lambda: c.BuyDeed(pos[0], int(pos[1])),
        "decline": lambda: c.DeclineDeed(pos[0], int(pos[1])),
        "bid": lambda: c.PlaceBid(pos[0], int(pos[1])),
        "close": c.CloseAuction,
        "rent": lambda: c.PayRent(pos[0], int(pos[1])),
        "urent": lambda: cc.PayUtilityRent(pos[0], int(pos[1]), int(pos[2])),
        "go": lambda: c.PassGo(pos[0]),
        "end": lambda: c.EndTurn(pos[0]),
        "undo": c.Undo,
        "jail": lambda: c.GoToJail(pos[0]),
        "payjail": lambda: c.PayJailFee(pos[0]),
        "roll": lambda: c.JailRoll(pos[0], pos[1] == "doubles"),
        "usecard": lambda: cc.UseJailCard(pos[0]),
        "draw": lambda: cc.DrawCard(pos[0], int(pos[1])),
        "tax": lambda: cc.PayTax(pos[0], int(pos[1]), len(pos) > 2 and pos[2] == "percent"),
        "jackpot": lambda: cc.CollectJackpot(pos[0]),
        "build": lambda: cc.BuildHouse(pos[0], int(pos[1])),
        "sell": lambda: cc.SellBuilding(pos[0], int(pos[1])),
        "mortgage": lambda: cc.MortgageDeed(pos[0], int(pos[1])),
        "lift": lambda: cc.LiftMortgage(pos[0], int(pos[1])),
        "bauction": lambda: cc.OpenBuildingAuction(pos[0]),
        "accept": lambda: cc.AcceptTrade(pos[0]),
        "canceltrade": lambda: cc.CancelTrade(pos[0]),
        "settle": lambda: cc.SettleDebt(pos[0]),
        "bankrupt": lambda: cc.DeclareBankruptcy(pos[0]),
        "clock": lambda: cc.AdvanceClock(int(pos[0])),
        "calltime": cc.CallTime,
        "paydeeds": lambda: cc.PayWithDeeds(pos[0], _ints(pos[1]), int(pos[2])),
        "timeout": lambda: cc.TimeOut(pos[0], pos[1]),
    }
    if verb not in simple:
        raise ValueError(f"unknown scenario verb {verb!r}")
    return simple[verb]()


class Runner:
    """Plays one classic scenario file against a fresh game."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.edition = load_edition("classic-us")
        self.game: Game | None = None
        self.last: tuple[Event, ...] = ()

    @property
    def g(self) -> Game:
        if self.game is None:
            self.game = Game(self.edition)
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
                    self.expect(words[1:])
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
        self.last = self.g.apply(parse_command(words, self.edition))
        assert self.last, "every accepted command emits at least one event"
        problems = self.g.invariants()
        assert not problems, f"invariants broken: {problems}"
        assert Game.replay(self.edition, self.g.events).state == self.g.state, "replay differs"
        for e in self.last:
            assert event_from_record(event_to_record(e), "classic") == e, f"record round-trip changed {e!r}"

    def expect(self, words: list[str]) -> None:
        what, args = words[0], words[1:]
        s = self.g.state
        if what == "error":
            *cmd_words, text = args
            before = s.snapshot()
            n_events = len(self.g.events)
            cmd = parse_command(cmd_words, self.edition)
            reason = self.g.check(cmd)
            with pytest.raises(IllegalCommand) as info:
                self.g.apply(cmd)
            assert text.lower() in str(info.value).lower(), f"expected {text!r} in {str(info.value)!r}"
            assert reason == str(info.value), "check() and apply() give different reasons"
            assert self.g.state.snapshot() == before, "a refused command changed the state"
            assert len(self.g.events) == n_events, "a refused command added events"
            return
        if what in ("event", "noevent"):
            name, fields = args[0], dict(a.split("=", 1) for a in args[1:])
            found = [e for e in self.last
                     if type(e).__name__ == name and all(str(getattr(e, k, None)) == v for k, v in fields.items())]
            if what == "event":
                assert found, f"no {name} {fields} among {self.last}"
            else:
                assert not found, f"unexpected {found}"
            return
        ed = self.edition
        checks: dict[str, Callable[[], tuple[object, object]]] = {
            "balance": lambda: (s.balance(args[0]), int(args[1])),
            "owner": lambda: (s.owner.get(int(args[0]), BANK), args[1]),
            "level": lambda: (s.level.get(int(args[0]), 0), int(args[1])),
            "mortgaged": lambda: (int(args[0]) in s.mortgaged, args[1] == "yes"),
            "phase": lambda: (s.phase, args[0]),
            "jail": lambda: (args[0] in s.jail, args[1] == "yes"),
            "tries": lambda: (s.jail.get(args[0]), int(args[1])),
            "bankrupt": lambda: (args[0] in s.bankrupt, args[1] == "yes"),
            "turn": lambda: (s.turn, args[0]),
            "rent": lambda: (rent_for(s, ed, int(args[0]), int(args[2]) if len(args) > 2 else 0), int(args[1])),
            "pot": lambda: (s.pot, int(args[0])),
            "houses": lambda: (houses_left(s), int(args[0])),
            "hotels": lambda: (hotels_left(s), int(args[0])),
            "held": lambda: (s.held.get(int(args[0]), "deck"), args[1]),
            "decktop": lambda: ((s.chance if args[0] == "chance" else s.chest)[0], int(args[1])),
            "minute": lambda: (s.minute, int(args[0])),
            "debt": lambda: (None if s.debt is None else (s.debt.debtor, s.debt.amount, s.debt.creditor),
                             None if args[0] == "none" else (args[0], int(args[1]), args[2])),
            "debts": lambda: (len(s.debts), int(args[0])),
            "auction": lambda: (None if s.auction is None else (
                str(s.auction.deed) if s.auction.kind == "deed" else s.auction.kind, s.auction.high_bid,
                s.auction.high_bidder or "none"),
                None if args[0] == "none" else (args[0], int(args[1]), args[2])),
            "bidders": lambda: (None if s.auction is None else list(s.auction.bidders), args),
            "standings": lambda: ([f"{row.player}:{row.rank}" for row in s.standings()], args),
            "total": lambda: (next(r.total for r in s.standings() if r.player == args[0]), int(args[1])),
            "name": lambda: (ed.spaces[int(args[0])].name, args[1]),
            "lots": lambda: (list(s.lots), [int(a) for a in args]),
            "deeds": lambda: (list(s.deeds_of(args[0])), [int(a) for a in args[1].split(",") if a]),
            "count": lambda: (len(s.deeds_of(args[0])), int(args[1])),
        }
        if what not in checks:
            raise AssertionError(f"unknown expectation {what!r}")
        got, want = checks[what]()
        assert got == want, f"expected {want!r}, got {got!r}"


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.txt")), ids=lambda p: p.stem)
def test_classic_scenario(path: Path) -> None:
    """Each scenario runs to the end with all its expectations met."""
    assert Runner(path).run() > 0, "a scenario must expect something"


def test_classic_scenarios_exist() -> None:
    """The folder holds the scenarios (a glob that finds nothing would pass silently)."""
    assert len(list(SCENARIOS.glob("*.txt"))) >= 30


def test_income_tax_as_a_share_of_nothing_is_settled_at_zero() -> None:
    """docs/rules-classic.md, taxes (income_tax_choice): 10 % of a worth of 0 is 0. The command is still one
    event in the journal (a transfer of 0 to the Bank), so every accepted command says what it did; found by
    tests/engine/classic/test_classic_hypothesis.py."""
    ed = load_edition("classic-us")
    game = Game(ed)
    game.apply(c.StartGame((c.PlayerSpec("A", "A"), c.PlayerSpec("B", "B")),
                           {"income_tax_choice": True, "start_money": 0}, 1))
    before = game.state.ledger.balances["A"]
    events = game.apply(cc.PayTax("A", 4, True))
    assert [(type(e).__name__, e.payer, e.payee, e.amount) for e in events] == [
        ("MoneyTransferred", "A", BANK, 0)]
    assert game.state.ledger.balances["A"] == before == 0
    assert Game.replay(ed, game.events).state == game.state
    assert not game.invariants()
