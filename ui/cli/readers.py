"""``boardbank readers``: every reader backend, whether it loads here, and the devices that answer.

Each backend of :mod:`reader.base` is imported in turn; one that cannot load (a missing library such
as pyscard) or cannot list its devices (pcscd not running) says why, and the others still run. Every
device a backend lists is probed (:func:`reader.base.probe`: the driver really talks to it); only the
ones that answered are listed as readers, the others are named with the reason they gave.
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass, field
from typing import TextIO

from reader.base import ReaderError, available_schemes, driver_class, probe

PROBE_S = 1.0  # seconds each device may take to answer


@dataclass
class BackendReport:
    """What ``boardbank readers`` found for one URL scheme."""

    scheme: str
    usable: bool
    devices: list[str] = field(default_factory=list)  # devices that answered a probe
    problem: str = ""
    silent: list[tuple[str, str]] = field(default_factory=list)  # (device, why it did not answer)


def survey() -> list[BackendReport]:
    """Load every backend and ask it for its devices; never raises for one backend's failure."""
    reports: list[BackendReport] = []
    for scheme in available_schemes():
        try:
            cls = driver_class(scheme)
        except ReaderError as exc:
            reports.append(BackendReport(scheme, usable=False, problem=str(exc)))
            continue
        try:
            devices = cls.list_devices()
        except Exception as exc:  # a backend's own failure (no daemon, no permission) is a finding
            reports.append(BackendReport(scheme, usable=True, problem=f"cannot list devices: {type(exc).__name__}: {exc}"))
            continue
        report = BackendReport(scheme, usable=True)
        for url in devices:
            result = probe(url, timeout_s=PROBE_S)
            if result.ok:
                report.devices.append(url)
            else:
                report.silent.append((url, result.detail))
        reports.append(report)
    return reports


def print_survey(reports: list[BackendReport], out: TextIO) -> None:
    """The human-readable listing: one block per backend."""
    for r in reports:
        if not r.usable:
            print(f"{r.scheme}://  not usable: {r.problem}", file=out)
            continue
        if r.problem:
            print(f"{r.scheme}://  loaded; {r.problem}", file=out)
            continue
        if not r.devices:
            print(f"{r.scheme}://  loaded; no reader answered" if r.silent else f"{r.scheme}://  loaded; no devices found",
                  file=out)
        else:
            print(f"{r.scheme}://  {len(r.devices)} reader(s) answered:", file=out)
            for url in r.devices:
                print(f"    {url}", file=out)
        for url, why in r.silent:
            print(f"    (not a reader: {url}: {why})", file=out)


def readers_main(args: argparse.Namespace, out: TextIO | None = None) -> int:
    """The ``boardbank readers`` subcommand; exit status 0 (a missing backend is information, not failure)."""
    print_survey(survey(), out if out is not None else sys.stdout)
    return 0
