"""``boardbank doctor [--json]``: checks a kiosk and says what to fix.

Checks (``ui/cli/doctor_checks.py`` and ``ui/cli/doctor_journal.py``): the reader back-ends and whether a
device answers, the PC/SC daemon, serial-port permissions, the GL renderer, fonts (the CJK font for
Japanese), sound, the voices that speak each language, the display, free space where the journal lives, the journal itself (``quick_check``)
and its WAL, whether a menu PIN was set, and the live page for phones (the address a running share noted,
and whether it answers). Each check gives OK, WARN or FAIL with what it saw and the
fix; ``--json`` prints them as one object::

    {"db": PATH, "checks": [{"name": ..., "status": "pass" | "warn" | "fail", "detail": TEXT, "fix": TEXT,
                             "fault": null | "full" | "read_only" | "locked" | "missing_folder" | "corrupt"}],
     "summary": {"pass": N, "warn": N, "fail": N}}

``fault`` names what is wrong with the installation file (the ``space``, ``journal`` and ``writer``
checks; null for the others and when nothing is): each has its own fix.

Exit status: 0 when nothing FAILed, 1 when a check FAILed, 2 when the installation file is damaged or
not boardbank's (it is refused, left byte-identical, and ``boardbank doctor: ...`` says why on stderr).
This is an administrator's tool: its output is English, like the other subcommands.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TextIO

from engine.store.faults import classify
from engine.store.schema import JournalError
from ui.cli.dbfile import refuse_unusable
from ui.cli.doctor_checks import (
    FAIL,
    OK,
    PCSCD_SOCKET,
    SERIAL_GLOBS,
    WARN,
    Check,
    check_display,
    check_fonts,
    check_gl,
    check_pcscd,
    check_readers,
    check_serial,
    check_serial_group,
    check_sound,
    pi_model,
)
from ui.cli.doctor_journal import journal_checks
from ui.paths import resolve_db

__all__ = ["FAIL", "OK", "PCSCD_SOCKET", "SERIAL_GLOBS", "WARN", "Check", "check_display", "check_pcscd",
           "check_serial", "check_sound", "main", "run_checks"]


def _gl(args: argparse.Namespace) -> Check:
    if getattr(args, "no_gl", False):
        return Check("gl", WARN, "not probed (--no-gl)", "run boardbank doctor without --no-gl")
    return check_gl(model=pi_model())


def _share(db: Path) -> Check:
    from ui.share.doctor import check_share

    return check_share(db)


def check_voices() -> list[Check]:
    """Which voice the unit has for each language (a Piper model's, espeak-ng's); a WARN for none, or for a
    Piper model that nothing can run."""
    from ui.story.speech import voices

    checks = []
    for lang, said in voices().items():
        if not said:
            checks.append(Check(f"voice {lang}", WARN, "no voice: the unit cannot speak this language",
                                "apt-get install espeak-ng (scripts/install-system-deps.sh run)"))
        elif "piper-tts is not installed" in said:  # a Piper model on disk that nothing can run
            checks.append(Check(f"voice {lang}", WARN, said, "pip install 'boardbank[piper]' (or put the piper "
                                                             "command on PATH), or remove the model"))
        else:
            checks.append(Check(f"voice {lang}", OK, said))
    return checks


def run_checks(args: argparse.Namespace) -> list[Check]:
    """All checks, in the order they are printed."""
    steps: list[Callable[[], Check | list[Check]]] = [
        lambda: check_readers(getattr(args, "reader", None)), check_pcscd, check_serial_group, check_serial,
        lambda: _gl(args), check_fonts, check_sound, check_voices, check_display,
        lambda: journal_checks(resolve_db(getattr(args, "db", None)),
                               bool(getattr(args, "db", None) or os.environ.get("BOARDBANK_DB"))),
        lambda: _share(resolve_db(getattr(args, "db", None))),
    ]
    checks: list[Check] = []
    for step in steps:
        result = step()
        checks.extend(result if isinstance(result, list) else [result])
    return checks


def print_plain(checks: list[Check], out: TextIO) -> None:
    """One line a check: status, name, what it saw (and the fix, for a WARN or a FAIL)."""
    width = max(len(c.name) for c in checks)
    for c in checks:
        fix = f" (fix: {c.fix})" if c.fix and c.status != OK else ""
        out.write(f"{c.status:<4}  {c.name:<{width}}  {c.detail}{fix}\n")


def main(args: argparse.Namespace) -> int:
    """Print every check; exit status 2 for a refused installation file, 1 if a check FAILed, else 0."""
    db = resolve_db(getattr(args, "db", None))
    try:
        refuse_unusable(db)
        refused = None
    except JournalError as exc:  # damaged or foreign: exit 2; a full disk or a read-only mount is a FAIL
        refused = str(exc) if classify(exc, db).kind not in ("full", "read_only", "missing_folder", "locked") else None
    checks = run_checks(args)
    failed = [c for c in checks if c.status == FAIL]
    warned = sum(c.status == WARN for c in checks)
    if getattr(args, "json", False):
        summary = {"pass": len(checks) - len(failed) - warned, "warn": warned, "fail": len(failed)}
        print(json.dumps({"db": str(db), "checks": [c.as_dict() for c in checks], "summary": summary},
                         ensure_ascii=False, indent=1))
    else:
        print_plain(checks, sys.stdout)
        print(f"{len(checks)} checks: {len(failed)} failed, {warned} warnings",
              file=sys.stderr if failed and refused is None else sys.stdout)
    if refused is not None:
        print(f"boardbank doctor: {refused}", file=sys.stderr)
        return 2
    return 1 if failed else 0
