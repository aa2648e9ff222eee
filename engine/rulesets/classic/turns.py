"""Starting the game, GO, the clock and passing the turn (docs/rules-classic.md 1, 3, 10).

``StartGame`` registers 2..``max_players`` players with unique ids, records the options in force (the
classic defaults, the edition's ``[options]``, then the command's), shuffles Chance and Community Chest with
``random.Random(seed)`` (``GameStarted.deck`` holds the Chance order then the Community Chest order) and,
in the short and the time-limited game, deals two deeds to each player, paid for at once (seed 000). GO pays
``go_salary`` (nothing from minute 46 with ``late_game_rent_tax``, seed 002). ``AdvanceClock`` records the
minute the caller's clock shows; ``CallTime`` ends a time-limited game. Amounts in money units. The
start's checks, the turn order and the End turn check are both rulesets' (engine/turns.py).
"""

from __future__ import annotations

import random
from typing import Final

from engine import events as ev
from engine.commands import EndTurn, PassGo, StartGame
from engine.editions import Edition
from engine.errors import Refusal, refuse
from engine.ledger import BANK
from engine.rulesets.classic import events as cev
from engine.rulesets.classic.base import Table, check_phase, check_turn
from engine.rulesets.classic.commands import AdvanceClock, CallTime
from engine.rulesets.classic.options import Options
from engine.rulesets.classic.standings import compute_standings
from engine.rulesets.classic.state import POT, ClassicState
from engine.turns import check_start as check_game_start
from engine.turns import end_turn, start_options

LATE_GO_MINUTE: Final = 46  # from this minute GO pays nothing with late_game_rent_tax (seed 002)


def check_start(s: ClassicState, ed: Edition, cmd: StartGame) -> Refusal | None:
    """StartGame: phase setup, valid options, 2..max_players unique ids (none the pot's), an int seed
    (engine/turns.py); in the short and the time-limited game, start money for the two dearest deeds."""

    def deal_two_paid(opts: Options) -> Refusal | None:
        if not opts.deal_two:
            return None
        dearest = sum(sorted((d.price for d in ed.deeds.values()), reverse=True)[:2])
        if opts.start_money < dearest:
            return refuse("bad_option", f"StartGame: the short and the time-limited game deal two deeds paid "
                          f"at once; expected start_money >= {dearest}, got {opts.start_money}",
                          command="StartGame", error="start_money")
        return None

    return check_game_start(s, ed, cmd, Options, more=deal_two_paid, reserved=(BANK, POT))


def do_start(t: Table, cmd: StartGame) -> None:
    """Record players, options and both shuffled decks; deal two deeds each in the short/timed game."""
    ed = t.edition
    opts = start_options(ed, cmd, Options)
    rng = random.Random(cmd.seed)
    chance = [c.id for c in ed.events if c.deck == "chance"]
    chest = [c.id for c in ed.events if c.deck == "chest"]
    rng.shuffle(chance)
    rng.shuffle(chest)
    t.emit(ev.GameStarted, ed.id, tuple(cmd.players), opts.as_dict(), cmd.seed, (*chance, *chest))
    if opts.deal_two:
        deeds = sorted(ed.deeds)
        rng.shuffle(deeds)
        for i, spec in enumerate(cmd.players):
            for deed in sorted(deeds[2 * i:2 * i + 2]):
                t.emit(ev.DeedBought, spec.id, deed, ed.deeds[deed].price)
    elif opts.deal_all_lots:  # seed 001 l. 123: every deed dealt, free, in turn order from the shuffle
        deeds = sorted(ed.deeds)
        rng.shuffle(deeds)
        n = len(cmd.players)
        for i, spec in enumerate(cmd.players):
            t.emit(cev.LotsDealt, spec.id, tuple(sorted(deeds[i::n])))


def check_end_turn(s: ClassicState, ed: Edition, cmd: EndTurn) -> Refusal | None:
    """EndTurn: the player whose turn it is, in phase play."""
    return check_turn(s, cmd.player, "EndTurn")


def do_end_turn(t: Table, cmd: EndTurn) -> None:
    """Pass the turn to the next active player in registration order (engine/turns.py)."""
    end_turn(t, cmd.player)
    if t.state.options.positions:  # the unit keeps the tokens: the next player rolls afresh (moves.py)
        t.emit(cev.RollsReset, t.state.turn)


def salary(s: ClassicState) -> int:
    """What GO pays now, in money units."""
    if s.options.late_game_rent_tax and s.minute >= LATE_GO_MINUTE:
        return 0
    return s.options.go_salary


def check_pass_go(s: ClassicState, ed: Edition, cmd: PassGo) -> Refusal | None:
    """PassGo: the player whose turn it is passed or reached GO; refused when the unit keeps the tokens
    (option ``positions``: the roll that passes GO pays it, so a second salary would be money invented)."""
    if s.options.positions:
        return refuse("go_paid_by_move", "PassGo: the unit moves the tokens in this game and pays GO itself",
                      command="PassGo", player=str(cmd.player))
    reason = check_turn(s, cmd.player, "PassGo")
    if reason is None and cmd.player in s.jail:  # seed 000 l. 47, seed 002 l. 239: no salary in jail
        return refuse("player_in_jail", f"PassGo: {cmd.player} is in jail and collects no salary", command="PassGo",
                      player=cmd.player)
    return reason


def do_pass_go(t: Table, cmd: PassGo) -> None:
    """Pay the salary (0 late in a game with the rent tax)."""
    t.emit(ev.SalaryPaid, cmd.player, salary(t.state))


def check_clock(s: ClassicState, ed: Edition, cmd: AdvanceClock) -> Refusal | None:
    """AdvanceClock: a whole minute not before the last one recorded."""
    what = "AdvanceClock"
    m = cmd.minute
    if isinstance(m, bool) or not isinstance(m, int) or m < s.minute:
        return refuse("bad_minute", f"{what}: expected a minute >= {s.minute}, got {m!r}", command=what,
                      minute=m, last=s.minute)
    return None


def do_clock(t: Table, cmd: AdvanceClock) -> None:
    """Record the minute."""
    t.emit(cev.ClockAdvanced, cmd.minute)


def check_call_time(s: ClassicState, ed: Edition, cmd: CallTime) -> Refusal | None:
    """CallTime: a time-limited game in phase play."""
    what = "CallTime"
    if s.options.time_limit <= 0:
        return refuse("not_timed", f"{what}: expected a time-limited game (option time_limit), it has none",
                      command=what)
    return check_phase(s, "play", what)


def do_call_time(t: Table, cmd: CallTime) -> None:
    """End the game: the richest player wins (standings.py)."""
    t.emit(ev.GameEnded, compute_standings(t.state))

