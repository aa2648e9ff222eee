"""``boardbank``: the one console script (the command-line contract of docs/architecture.md).

This module only parses arguments and hands them to the module that owns each subcommand; it
imports that module lazily, so ``boardbank sim`` never loads Kivy and ``boardbank run`` never loads
the simulator. Each handler is ``handler(args: argparse.Namespace) -> int`` (the exit status).

Every option's help shows its default. Every error is one line, ``boardbank COMMAND: ...``, with exit
status 2 for input that cannot be used (argparse's own errors included).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Callable, Sequence
from typing import NoReturn

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
    "backup": "ui.cli.backup:backup_main",
    "restore": "ui.cli.backup:restore_main",
}

DB_HELP = "the installation's SQLite file (default: $BOARDBANK_DB, else boardbank.sqlite3 in the platform's data directory)"

HEADLESS_EPILOG = """\
input lines: tap UID, press BUTTON [VALUE], choose VALUE, wait SECONDS, enroll UID ROLE [VALUE],
alias NAME UID, expect ...; output: one JSON object per line (events once they are on disk, prompts;
with --share, {"type": "share", "url": ...} at the start and at each new game's page).

the game: the first line, {"type": "ready", ...}, names the resumed game's edition and ruleset (a saved
game always comes back as it was saved; a different --edition is a "notice" there and on stderr); while
registering, `choose edition=ID` chooses the game (either ruleset), then `choose option=NAME:VALUE` its
options.

the clock: when stdin is piped (a script) and no --reader is given, the banker runs on a manual clock
that only `wait SECONDS` lines move, so a script replays the same however loaded the machine is; at a
terminal, or with a --reader, it follows real time. BOARDBANK_CLOCK=manual or =real overrides that."""


def version() -> str:
    """The installed package's version (the source tree's when it is not installed)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("boardbank")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked (importlib.metadata costs every other
    command a tenth of a second at start)."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(f"{parser.prog} {version()}")
        parser.exit()


def editions_help() -> str:
    """Every built-in edition, by ruleset (for ``--help``: read only when help is shown)."""
    from engine.editions import list_editions, load_edition

    by_ruleset: dict[str, list[str]] = {}
    for edition_id in list_editions():
        by_ruleset.setdefault(load_edition(edition_id).ruleset, []).append(edition_id)
    return "; ".join(f"{', '.join(ids)} ({name})" for name, ids in by_ruleset.items())


class Formatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """Each option's help ends with its default (unless it has none, or says it already); the
    description and epilog keep their lines as written."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = (action.help or "").replace("{editions}", editions_help())
        if "%(default)" in text or "(default:" in text or action.default in (None, [], False, argparse.SUPPRESS):
            return text
        return (super()._get_help_string(action) or text).replace("{editions}", editions_help())


class Parser(argparse.ArgumentParser):
    """argparse with the one error form: ``boardbank COMMAND: message`` (after the usage), exit status 2."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {message}\n")


def _add_game_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--reader", action="append", default=None, metavar="URL",
                   help="a reader URL (mock://, stdin://, serial://PATH?baud=N, pn532://PATH, pcsc://[NAME]); "
                        "repeatable (run: mock:// with the on-screen card tray; headless: none)")
    p.add_argument("--edition", default=None,
                   help="the edition of a NEW game: {editions}. A saved game always resumes with its own "
                        "edition, ruleset and options, whatever this says (a different one is said in one "
                        "line). Default: the latest game's edition on this file, else ultimate-uk; the "
                        "setup screen chooses the game too")
    p.add_argument("--db", default=None, metavar="PATH", help=DB_HELP)
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option for a new game, e.g. max_players=6; repeatable")
    p.add_argument("--share", nargs="?", const="", default=None, metavar="ADDR[:PORT]",
                   help="serve the read-only live page for phones on the home network (docs/share.md): on "
                        "ADDR[:PORT], else the unit's LAN address, port 8024; "
                        "default: $BOARDBANK_SHARE (off when empty)")


def _env_on(name: str) -> bool:
    """Whether the environment variable ``name`` switches something on (1, yes, on, true)."""
    return os.environ.get(name, "").strip().lower() in ("1", "yes", "on", "true")


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(prog="boardbank", description="The electronic banker for board games.")
    parser.add_argument("--version", action=_Version, nargs=0, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND", parser_class=Parser)

    p = sub.add_parser("run", help="the kiosk touch UI")
    _add_game_options(p)
    p.add_argument("--lang", default=None, choices=["en", "ru", "ro", "ja"],
                   help="user-interface language (default: the one chosen last on this unit, else the edition's)")
    p.add_argument("--fullscreen", action="store_true", help="fill the screen (the kiosk)")
    p.add_argument("--size", default=None, metavar="WxH", help="window size, e.g. 800x480 (default: Kivy's)")
    p.add_argument("--script", default=None, metavar="FILE", help="play a tap script through the mock reader")
    p.add_argument("--screenshots", default=None, metavar="DIR", help="save a screenshot after each script step")
    p.add_argument("--speak", action="store_true", default=_env_on("BOARDBANK_SPEAK"),
                   help="say each payment, whose turn it is and the standings through the sound output "
                        "(espeak-ng, or Piper where its model is installed; default: $BOARDBANK_SPEAK, on when 1)")
    p.add_argument("--speak-to", default=None, metavar="DIR",
                   help="keep every utterance in DIR as NNNN.wav with NNNN.txt (docs/story.md)")

    p = sub.add_parser("headless", help="the banker without a screen: lines on stdin, JSON lines on stdout",
                       description="The banker without a screen: tap-script lines on stdin, JSON lines on stdout.",
                       epilog=HEADLESS_EPILOG)
    _add_game_options(p)
    p.add_argument("--lang", default=None, choices=["en", "ru", "ro", "ja"],
                   help="the language the unit speaks with --speak-to (default: the edition's)")
    p.add_argument("--speak-to", default=None, metavar="DIR",
                   help="say each payment, whose turn it is and the standings into DIR as NNNN.wav with "
                        "NNNN.txt (espeak-ng, or Piper where its model is installed; docs/story.md)")

    p = sub.add_parser("sim", help="bots play whole games through the engine's commands")
    p.add_argument("--edition", default="ultimate-uk", help="edition id: {editions}")
    p.add_argument("--players", type=int, default=4, help="bots at the table (2..8)")
    p.add_argument("--games", type=int, default=100, help="games to play")
    p.add_argument("--seed", type=int, default=1, help="the run's seed (game i plays a seed derived from it)")
    p.add_argument("--jail-strategy", choices=["short", "long"], default="short",
                   help="short: the bots pay the fee to leave jail at once; long: they stay and roll for doubles")
    p.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                   help="a rule option, e.g. max_players=6; repeatable")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--check", choices=["every", "end"], default="every",
                   help="invariants after every command (default) or at each game's end")
    p.add_argument("--max-turns", type=int, default=None, metavar="N",
                   help="stop a game after N turns (reason cap; default: the ruleset's, 1000 for classic)")
    p.add_argument("--plot", default=None, metavar="FILE.png",
                   help="draw landing shares on the board and the game lengths (needs the 'plot' extra)")
    p.add_argument("--compare", nargs="+", default=None, metavar="OPTION=VALUE",
                   help="play the baseline (the --option values) and each variant (NAME=VALUE, several joined "
                        "by commas) on the same seeds; print them side by side with 95 %% intervals")

    p = sub.add_parser("replay", help="rebuild a game from its journal and print the state")
    p.add_argument("db", metavar="DB", help="the installation's SQLite file")
    p.add_argument("--game", type=int, default=None, help="game id (default: the latest)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--salvage", action="store_true",
                   help="a damaged journal: show the game as it was before the first damaged record (read only)")

    p = sub.add_parser("export", help="export a game's journal as JSON lines or CSV, or tell it as a story")
    p.add_argument("db", metavar="DB", help="the installation's SQLite file")
    p.add_argument("--game", type=int, default=None, help="game id (default: the latest)")
    p.add_argument("--format", choices=["jsonl", "csv", "story"], default="jsonl",
                   help="output format; story: one sentence per entry in --lang (docs/story.md)")
    p.add_argument("--lang", default=None, choices=["en", "ru", "ro", "ja"], help="story: the language (default en)")
    p.add_argument("--receipts", action="store_true",
                   help="story: after each payment, how its amount was reached (rule, arithmetic, source)")

    sub.add_parser("readers", help="list reader backends and the devices each sees")

    p = sub.add_parser("cards", help="the card registry: list, enroll, forget; print a card set")
    p.add_argument("action", choices=["list", "enroll", "forget", "print"], help="what to do")
    p.add_argument("args", nargs="*",
                   help="enroll: ROLE [VALUE] (e.g. player 1, deed 16, event 7, banker) or all [PLAYERS]; forget: UID")
    p.add_argument("--reader", action="append", default=None, metavar="URL",
                   help="enroll: read the card from this reader; repeatable")
    p.add_argument("--db", default=None, metavar="PATH", help=DB_HELP)
    p.add_argument("--edition", default=None,
                   help="enroll: the edition's box (default: the latest game's edition, else ultimate-uk)")
    p.add_argument("--with-cards", action="store_true",
                   help="enroll all: the classic Chance and Community Chest cards too (no question asked)")
    p.add_argument("--json", action="store_true", help="print JSON lines")
    p.add_argument("--uid", default=None, help="enroll: the card's UID instead of waiting for a tap")
    p.add_argument("--timeout", type=float, default=30.0, help="enroll: seconds to wait for a tap")
    p.add_argument("--replace", action="store_true", help="enroll: take the role from the card holding it")
    p.add_argument("--write", action="store_true",
                   help="enroll: also write the NDEF record naming the card on it (NTAG21x, MIFARE Classic)")
    p.add_argument("--lock", action="store_true", help="enroll --write: make the record read-only for good")
    p.add_argument("--force", action="store_true",
                   help="enroll --write: write over another record the card carries (never a locked one)")
    p.add_argument("--lang", default=None, help="print: the language of the cards, en/ru/ro/ja (default: the edition's)")
    p.add_argument("--paper", default="a4", help="print: the paper size, a4 or letter")
    p.add_argument("--out", default=None, metavar="FILE.pdf", help="print: the PDF to write")

    p = sub.add_parser("diagram", help="the banker state machines' diagrams (Mermaid; PNG/SVG with Graphviz)",
                       description="Each ruleset has its own banker machine (the shared rows and its own). "
                                   "Without --out: print the Mermaid source on stdout (every ruleset's, each "
                                   "after a '%% ruleset: NAME' line, or the one --ruleset names). With --out "
                                   "DIR: write DIR/banker.mmd (Ultimate Banking) and DIR/banker-classic.mmd "
                                   "(and banker.svg/png with Graphviz) and update DIR/flows.md.")
    p.add_argument("--ruleset", default="all", metavar="NAME",
                   help="without --out: the machine to print, ultimate or classic, or all")
    p.add_argument("--out", default=None, metavar="DIR",
                   help="the folder to write into, e.g. docs (default: print Mermaid on stdout, write nothing)")

    p = sub.add_parser("doctor", help="check a kiosk: readers, pcscd, serial, GL, fonts, sound, display, space, journal, PIN")
    p.add_argument("--db", default=None, metavar="PATH", help=DB_HELP)
    p.add_argument("--reader", action="append", default=None, metavar="URL",
                   help="probe this reader (repeatable; default: every device the backends list)")
    p.add_argument("--json", action="store_true", help="print one JSON object: every check's status, detail and fix")
    p.add_argument("--no-gl", action="store_true", help="skip the GL probe (it opens a small offscreen window)")

    p = sub.add_parser("backup", help="copy the installation file through SQLite's online backup (safe while a game runs)")
    p.add_argument("dest", metavar="DEST", help="the backup file to write")
    p.add_argument("--db", default=None, metavar="PATH", help=DB_HELP)
    p.add_argument("--force", action="store_true", help="replace DEST if it exists")

    p = sub.add_parser("restore", help="put a backup back as the installation file (stop the kiosk first)")
    p.add_argument("source", metavar="BACKUP", help="a file written by boardbank backup")
    p.add_argument("--db", default=None, metavar="PATH", help=DB_HELP)
    p.add_argument("--force", action="store_true",
                   help="replace an existing installation file (a damaged one is moved aside, never deleted)")
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
