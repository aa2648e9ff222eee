"""The engine's subcommands: ``boardbank sim``, ``boardbank replay`` and ``boardbank export``.

Each handler takes the parsed ``argparse.Namespace`` of ui/cli/console.py and returns the exit status: 0 done,
2 a file or an argument that cannot be used (the message goes to stderr). Amounts printed are ``int`` in the
edition's money unit. Timing (the wall clock) lives here, never in the engine.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
from typing import Any, TextIO

from engine.banker.board import BoardCache
from engine.banker.plugins import wealth_of
from engine.editions import load_edition
from engine.errors import EngineError
from engine.game import Game
from engine.options import parse_option_text
from engine.rulesets.registry import get_ruleset
from engine.store.durable import DurableGame
from engine.store.journal import Journal, JournalError
from ui.cli.progress import progress_bar as _progress_bar

EXIT_BAD_INPUT = 2


def _fail(message: str) -> int:
    """``message`` starts with the command's name: ``boardbank sim: ...``."""
    print(f"boardbank {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def _reader_went_away() -> int:
    """stdout was closed early (``boardbank export DB | head``): not an error; silence the final flush."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    return 0


# -- sim ---------------------------------------------------------------------------------------------

def sim_main(args: argparse.Namespace) -> int:
    """``boardbank sim``: bots play ``--games`` games; a JSON object (``--json``) or a short summary."""
    from engine.sim.runner import run_sim  # replay and export never load the simulator

    if getattr(args, "compare", None):
        from ui.cli.simcompare import compare_main

        return compare_main(args)
    try:
        edition = load_edition(args.edition)
        options = dict(parse_option_text(text) for text in args.option)
        # the options are checked here, so that a wrong name or value is reported as such and the
        # engine's own start check (run_sim) sees only options its ruleset knows
        get_ruleset(edition.ruleset).options.from_mapping(options)
        every = getattr(args, "check", "every") != "end"
        report = run_sim(edition, args.players, args.games, args.seed, jail_strategy=args.jail_strategy,
                         options=options, clock=time.perf_counter, check_invariants=every, check_end=not every,
                         turn_cap=getattr(args, "max_turns", None), progress=_progress_bar(sys.stderr))
    except (EngineError, ValueError) as exc:
        return _fail(f"sim: {exc}")
    for problem in report.problems:
        print(f"invariant violation: {problem}", file=sys.stderr)
    if getattr(args, "plot", None):
        try:
            from ui.cli.simplot import plot_report

            plot_report(report, edition, args.plot)
        except ImportError:
            return _fail("sim: --plot needs matplotlib (pip install 'boardbank[plot]')")
    if args.json:
        print(json.dumps(report.as_dict()))
        return 0
    print(f"edition {edition.id}, {args.players} players, jail strategy {args.jail_strategy}, seed {args.seed}")
    print(f"games {report.games}, completed {report.completed}, mean turns {report.turns}")
    print(f"commands {report.commands} in {report.seconds} s ({report.commands_per_second} per second)")
    print(f"invariant violations {report.invariant_violations}, sent to jail {report.in_jail}")
    print("winners by seat: " + ", ".join(f"p{i + 1}={n}" for i, n in enumerate(report.winners)))
    print("landings by position:")
    for pos, count in enumerate(report.landings):
        print(f"  {pos:2d} {edition.spaces[pos].name:<28} {count}")
    return 0


# -- replay ------------------------------------------------------------------------------------------

def _open_game(path: str, game_id: int | None) -> tuple[Journal, int]:
    journal = Journal.open(path, read_only=True)
    gid = game_id if game_id is not None else journal.latest_game()
    if gid is None:
        journal.close()
        raise JournalError(f"{path} holds no game yet")
    try:
        journal.game_edition(gid)  # one row read (journal.game counts every game's events: a scan of the file)
    except JournalError:
        try:
            journal.game(gid)  # raises, naming the games there are
        finally:
            journal.close()
        raise
    return journal, gid


def replay_state(game: Game, game_id: int) -> dict[str, Any]:
    """The rebuilt game as plain data: players, balances, deeds (owner, level, rent), phase, standings.

    Either ruleset: wealth and each deed's level (Ultimate: its rent level 1..5; classic: its buildings 0..5,
    5 a hotel), rent and mortgage are what the banker's screen shows, through the ruleset's own view hooks
    (engine/banker/plugins.py), so this names no ruleset. Amounts in the edition's money unit.
    """
    s = game.state
    ed = game.edition
    players = [
        {"id": p.id, "name": p.name, "token": p.token, "balance": p.balance, "wealth": wealth_of(game, p.id),
         "in_jail": p.in_jail, "bankrupt": p.bankrupt, "deeds": list(p.deeds)}
        for p in (s.players[pid] for pid in s.order)
    ]
    spaces = {v.deed: v for v in BoardCache().board(game, ed) if v.deed is not None}
    deeds = [
        {"deed": d.number, "name": d.name, "colour": d.colour, "price": d.price, "owner": spaces[d.number].owner,
         "level": spaces[d.number].level, "rent": spaces[d.number].rent, "mortgaged": spaces[d.number].mortgaged}
        for d in (ed.deeds[n] for n in sorted(ed.deeds))
    ]
    standings = s.standings_final or s.standings()
    events = game.events
    return {
        "game": game_id, "edition": ed.id, "ruleset": ed.ruleset, "phase": s.phase,
        "status": "over" if s.phase == "over" else "running",
        "turn": s.turn, "commands": game.commands_applied, "seq": events[-1].seq if events else 0,
        "players": players, "deeds": deeds,
        "standings": [{"rank": x.rank, "player": x.player, "cash": x.cash, "deeds_value": x.deeds_value,
                       "total": x.total} for x in standings],
    }


def _print_table(state: dict[str, Any], out: TextIO) -> None:
    out.write(f"game {state['game']} ({state['edition']}, {state['ruleset']}): phase {state['phase']}, turn {state['turn']}, "
              f"{state['commands']} commands, last event {state['seq']}\n\n")
    out.write(f"{'player':<12} {'balance':>8} {'wealth':>8}  status    deeds\n")
    for p in state["players"]:
        status = "bankrupt" if p["bankrupt"] else "in jail" if p["in_jail"] else ""
        deeds = " ".join(str(d) for d in p["deeds"])
        out.write(f"{p['name'] or p['id']:<12} {p['balance']:>8} {p['wealth']:>8}  {status:<9} {deeds}\n")
    names = {p["id"]: p["name"] or p["id"] for p in state["players"]}
    out.write(f"\n{'deed':>4} {'name':<26} {'owner':<12} {'level':>5} {'rent':>6}\n")
    for d in state["deeds"]:
        if d["owner"] is not None:
            owner = names.get(d["owner"], d["owner"])
            mark = " mortgaged" if d["mortgaged"] else ""
            out.write(f"{d['deed']:>4} {d['name']:<26} {owner:<12} {d['level']:>5} {d['rent']:>6}{mark}\n")
    out.write(f"\n{'rank':>4} {'player':<12} {'cash':>8} {'deeds':>8} {'total':>8}\n")
    for x in state["standings"]:
        player = names.get(x["player"], x["player"])
        out.write(f"{x['rank']:>4} {player:<12} {x['cash']:>8} {x['deeds_value']:>8} {x['total']:>8}\n")


def replay_main(args: argparse.Namespace) -> int:
    """``boardbank replay DB``: rebuild the game from its journal and print its state."""
    problem: str | None = None
    try:
        journal, gid = _open_game(args.db, args.game)
        with journal:
            if getattr(args, "salvage", False):
                edition_id, events, problem = journal.salvage(gid)
                game = Game.replay(load_edition(edition_id), events)
            else:
                game = DurableGame.open(journal, gid).game
    except (EngineError, OSError) as exc:
        return _fail(f"replay: {exc}")
    gc.freeze()  # the rebuilt game lives till the end: the collector need not walk its events again (60 ms at 100k)
    try:
        return _print_replay(args, game, gid, problem)
    finally:
        gc.unfreeze()  # as it was (a caller in the same process, e.g. a test, collects as before)


def _print_replay(args: argparse.Namespace, game: Game, gid: int, problem: str | None) -> int:
    state = replay_state(game, gid)
    if getattr(args, "salvage", False):
        state["salvage"] = {"intact_events": len(game.events), "damaged": problem}
        if problem is not None:
            print(f"boardbank replay: game {gid}: {len(game.events)} events are intact before the damage: "
                  f"{problem}", file=sys.stderr)
    try:
        if args.json:
            print(json.dumps(state, ensure_ascii=False))
        else:
            _print_table(state, sys.stdout)
        sys.stdout.flush()
    except BrokenPipeError:
        return _reader_went_away()
    return 0


# -- export ------------------------------------------------------------------------------------------

def export_main(args: argparse.Namespace) -> int:
    """``boardbank export DB --format jsonl|csv|story``: the game's commands and events on stdout (story: one
    sentence per entry in ``--lang``, with ``--receipts`` each amount explained; ui/story/export.py)."""
    from engine.store.export import export_csv, export_jsonl  # replay never loads the exporters

    if args.format != "story" and (getattr(args, "lang", None) or getattr(args, "receipts", False)):
        return _fail(f"export: --lang and --receipts need --format story, got --format {args.format}")
    try:
        journal, gid = _open_game(args.db, args.game)
        with journal:
            if args.format == "story":
                from ui.story.export import export_story

                export_story(DurableGame.open(journal, gid).game, getattr(args, "lang", "en") or "en", sys.stdout,
                             receipts=getattr(args, "receipts", False))
            elif args.format == "csv":
                export_csv(journal, gid, sys.stdout)
            else:
                export_jsonl(journal, gid, sys.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        return _reader_went_away()
    except (EngineError, OSError) as exc:
        return _fail(f"export: {exc}")
    return 0
