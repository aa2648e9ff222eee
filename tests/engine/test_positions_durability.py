"""The tokens' positions survive a power cut: SIGKILL a writer playing in positions mode, reopen, compare.

A child process (this file run as a script: ``python test_positions_durability.py DB SEED EDITION``) plays
games with option ``positions`` through a DurableGame: dice from a ``random.Random`` seeded per game, the
landing resolved as the banker would (buy or decline and close the auction, rent, own deed, debts by
returned deeds in Ultimate). It prints ``GAME COMMAND`` after each command's ``apply`` returned. The test
kills it at random moments, reopens the journal and checks that every acknowledged command is there, that
re-applying the stored commands gives exactly the stored events, and that the rebuilt state (positions and
the turn's roll included) equals that replay. Source: docs/flows.md "Across a power cut".
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from engine import commands as c
from engine.editions import Edition, load_edition
from engine.game import Game
from engine.records import command_from_record
from engine.store.durable import DurableGame
from engine.store.journal import Journal

KILLS = 6
MAX_SECONDS = 20.0
COMMAND_CAP = 600  # commands per game before the child starts the next one


def next_command(game: Game, rng: random.Random) -> c.Command | None:
    """What the table does next in positions mode (None: the game is over)."""
    s, ed = game.state, game.edition
    if s.phase == "over":
        return None
    if s.phase == "auction":
        return c.CloseAuction()
    if s.phase == "debt":
        debtor = s.debt.debtor
        if ed.ruleset == "ultimate":
            from engine.rulesets.ultimate.commands import ReturnDeed

            return ReturnDeed(debtor, min(s.deeds_of(debtor), key=lambda d: ed.deeds[d].price))
        from engine.rulesets.classic.commands import DeclareBankruptcy

        return DeclareBankruptcy(debtor)
    player = _roller(game)
    at = s.position.get(player, 0)
    deed = ed.spaces[at].deed
    last = game.events[-1]
    if deed is not None and type(last).__name__ in ("DiceRolled", "SalaryPaid") and last.player == player:
        owner = s.owner.get(deed)
        if owner is None:
            buy = c.BuyDeed(player, deed)
            return buy if game.check(buy) is None else c.DeclineDeed(player, deed)
        rent = c.PayRent(player, deed)
        if owner != player and game.check(rent) is None:
            return rent
    return c.RollDice(_roller(game), 1 + int(rng.random() * 6), 1 + int(rng.random() * 6))


def _roller(game: Game) -> str:
    if game.edition.ruleset == "ultimate":
        from engine.rulesets.ultimate.moves import roller as ultimate_roller

        return ultimate_roller(game.state)
    from engine.rulesets.classic.moves import roller as classic_roller

    return classic_roller(game.state)


def play(durable: DurableGame, rng: random.Random, acknowledge: bool) -> None:
    """Play ``durable``'s game on to its end (or the cap), printing each acknowledged command."""
    game = durable.game
    while len(game.events) and game.events[-1].command < COMMAND_CAP:
        cmd = next_command(game, rng)
        if cmd is None:
            return
        events = durable.apply(cmd)
        if acknowledge:
            print(durable.game_id, events[0].command, flush=True)


def child(db: str, seed: int, edition_id: str) -> int:
    edition = load_edition(edition_id)
    journal = Journal.open(db)
    print("ready", flush=True)
    deadline = time.monotonic() + MAX_SECONDS
    index = 0
    while time.monotonic() < deadline:
        gid = journal.latest_game()
        durable = DurableGame.open(journal, gid) if gid is not None else None
        if durable is None or durable.game.state.phase == "over" or durable.game.events[-1].command >= COMMAND_CAP:
            # one transaction, as the banker starts a game: a kill leaves no game or a started one (a game
            # recorded and then started in two steps was left empty by a kill between them)
            durable = DurableGame.start(journal, edition, c.StartGame(
                (c.PlayerSpec("p1"), c.PlayerSpec("p2"), c.PlayerSpec("p3")), {"positions": True}, seed * 100 + index))
            gid = durable.game_id
        index += 1
        play(durable, random.Random(f"{seed}:{gid}:{len(durable.game.events)}"), acknowledge=True)
    return 0


def _verify(db: Path, edition: Edition, acked: dict[int, int]) -> None:
    with Journal.open(db) as journal:
        for info in journal.games():
            assert info.commands >= acked.get(info.id, 0), f"game {info.id} lost acknowledged commands"
            rebuilt = DurableGame.open(journal, info.id).game
            fresh = Game(edition)
            replayed = []
            for record in journal.command_records(info.id):
                record.pop("number")
                replayed.extend(fresh.apply(command_from_record(record, edition.ruleset)))
            assert replayed == journal.load(info.id)[1]
            assert fresh.state == rebuilt.state and rebuilt.invariants() == []
            assert rebuilt.state.snapshot()["position"] == fresh.state.snapshot()["position"]


@pytest.mark.parametrize("edition_id", ["ultimate-uk", "classic-uk"])
def test_positions_survive_sigkill(tmp_path: Path, edition_id: str) -> None:
    edition = load_edition(edition_id)
    db = tmp_path / "bank.db"
    rng = random.Random(20261201)
    acked: dict[int, int] = {}
    moved = 0
    for i in range(KILLS):
        proc = subprocess.Popen([sys.executable, __file__, str(db), str(i + 1), edition_id],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None
        assert proc.stdout.readline() == b"ready\n"
        assert proc.stdout.readline()  # at least one command acknowledged
        time.sleep(rng.uniform(0.05, 0.4))
        os.kill(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate(timeout=30)
        for line in out.split(b"\n")[:-1]:
            gid, number = map(int, line.split())
            acked[gid] = max(acked.get(gid, 0), number)
        _verify(db, edition, acked)
    with Journal.open(db) as journal:
        for info in journal.games():
            state = DurableGame.open(journal, info.id).game.state
            moved += sum(1 for p in state.position.values() if p)
    assert moved > 0 and sum(acked.values()) > 50


if __name__ == "__main__":
    sys.exit(child(sys.argv[1], int(sys.argv[2]), sys.argv[3]))
