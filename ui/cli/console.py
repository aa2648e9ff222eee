"""``boardbank``: the one console script (the command-line contract of shared/DESIGN.md).

This module only parses arguments and hands them to the module that owns each subcommand; it
imports that module lazily, so ``boardbank sim`` never loads Kivy and ``boardbank run`` never loads
the simulator. Each handler is ``handler(args: argparse.Namespace) -> int`` (the exit status).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence

# subcommand -> "module:function"
HANDLERS: dict[str, str] = {
    "run": "ui.touch.app:main",
    "headless": "ui.cli.headless:main",
    "sim": "ui.cli.games:sim_main",
    "replay": "ui.cli.games:replay_main",
    "export": "ui.cli.games:export_main",
    "readers": "ui.cli.readers:readers_main",
    "cards": "ui.cli.cards:cards_main",
    "diagram": "ui.cli.diagram:main",
    "doctor": "ui.cli.doctor:main",
}


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reader", action="append", default=None, metavar="URL",
                   help="a reader URL (mock://, stdin://, serial://PATH?baud=N, pn532://PATH, pcsc://[NAME]); repeatable")
    p.add_argument("--edition", default=None, help="edition id, e.g. ultimate-uk, ultimate-us, ultimate-ru")
    p.add_argument("--db", default=None, metavar="PATH",
                   help="the installation's SQLite file (default: the platform's data directory)")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option for a new game, e.g. max_players=6; repeatable")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardbank", description="The electronic banker for board games.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("run", help="the kiosk touch UI")
    _add_game_options(p)
    p.add_argument("--lang", default=None, choices=["en", "ru", "ro", "ja"], help="user-interface language")
    p.add_argument("--fullscreen", action="store_true", help="fill the screen (the kiosk)")
    p.add_argument("--size", default=None, metavar="WxH", help="window size, e.g. 800x480")
    p.add_argument("--script", default=None, metavar="FILE", help="play a tap script through the mock reader")
    p.add_argument("--screenshots", default=None, metavar="DIR", help="save a screenshot after each script step")

    p = sub.add_parser("headless", help="the banker without a screen: lines on stdin, JSON lines on stdout")
    _add_game_options(p)

    p = sub.add_parser("sim", help="bots play whole games through the engine's commands")
    p.add_argument("--edition", default="ultimate-uk")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--jail-strategy", choices=["short", "long"], default="short")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--check", choices=["every", "end"], default="every",
                   help="invariants after every command (default) or at each game's end")
    p.add_argument("--max-turns", type=int, default=None, metavar="N",
                   help="stop a game after N turns (reason cap; default: the ruleset's, 1000 for classic)")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="draw landing shares on the board and the game lengths (needs the 'plot' extra)")

    p = sub.add_parser("replay", help="rebuild a game from its journal and print the state")
    p.add_argument("db", metavar="DB")
    p.add_argument("--game", type=int, default=None, help="game id (default: the latest)")
    p.add_argument("--json", action="store_true")

    p = sub.add_parser("export", help="export a game's journal as JSON lines or CSV")
    p.add_argument("db", metavar="DB")
    p.add_argument("--game", type=int, default=None)
    p.add_argument("--format", choices=["jsonl", "csv"], default="jsonl")

    sub.add_parser("readers", help="list reader backends and the devices each sees")

    p = sub.add_parser("cards", help="the card registry: list, enroll, forget")
    p.add_argument("action", choices=["list", "enroll", "forget"])
    p.add_argument("args", nargs="*", help="enroll: ROLE [VALUE] (e.g. player 1, deed 16, event 7, banker); forget: UID")
    p.add_argument("--reader", action="append", default=None, metavar="URL")
    p.add_argument("--db", default=None, metavar="PATH")
    p.add_argument("--edition", default=None)
    p.add_argument("--json", action="store_true")
    p.add_argument("--uid", default=None, help="enroll: the card's UID instead of waiting for a tap")
    p.add_argument("--timeout", type=float, default=30.0, help="enroll: seconds to wait for a tap")
    p.add_argument("--replace", action="store_true", help="enroll: take the role from the card holding it")

    p = sub.add_parser("diagram", help="write the banker state machine's diagram (Mermaid; PNG/SVG with Graphviz)")
    p.add_argument("--out", default="docs", metavar="DIR")

    p = sub.add_parser("doctor", help="check a kiosk: readers, pcscd, serial permissions, fonts, sound, display, journal")
    p.add_argument("--db", default=None, metavar="PATH")
    return parser


def _handler(command: str) -> Callable[[argparse.Namespace], int]:
    module_name, _, func = HANDLERS[command].partition(":")
    module = importlib.import_module(module_name)
    handler: Callable[[argparse.Namespace], int] = getattr(module, func)
    return handler


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return _handler(args.command)(args)
    except BrokenPipeError:
        # the reader of our output went away (e.g. `| head`): not an error of ours, and no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


if __name__ == "__main__":
    sys.exit(main())
