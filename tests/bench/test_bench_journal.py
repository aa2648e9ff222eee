"""The journal benchmark runs end to end on a few small interleaved batches and prints every figure it
promises: each side's median rate, the median per-round ratios with their spread (against the bare loop,
like for like, and without idle checkpoints), pages per command and the checkpoints' cost.
source: bench/bench_journal.py's docstring (the journal issue's bench figures)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_journal_bench_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_journal.py"), "--rounds", "4", "--batch", "5"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, check=True).stdout
    assert re.search(r"4 rounds of 5, median rates: durable [\d,]+/s, bare [\d,]+/s, bare, reused WAL [\d,]+/s, "
                     r"durable, grown WAL [\d,]+/s", out), out
    for label in ("median of the rounds", "its WAL only grows", "both WALs only grow"):
        ratio = re.search(re.escape(label) + r"\)?: ([\d.]+) \(10th-90th percentile ([\d.]+)-([\d.]+)\)", out)
        assert ratio is not None and float(ratio[2]) <= float(ratio[1]) <= float(ratio[3]), (label, out)
    assert re.search(r"like for like \(the same rows committed bare, the same idle checkpoints: both reuse their "
                     r"WAL\), median of the rounds: [\d.]+ ", out), out
    former = re.search(r"the former definition \(a tiny row per bare commit, the same idle checkpoints\): ([\d.]+) "
                       r"\(10th-90th percentile ([\d.]+)-([\d.]+)\)", out)
    assert former is not None and float(former[2]) <= float(former[1]) <= float(former[3]), out
    assert re.search(r"hash chain .*: [\d.]+ us of CPU per command .* [\d.]+% of a durable command", out), out
    pages = re.search(r"WAL pages written per command: ([\d.]+)", out)
    assert pages is not None and 1.0 <= float(pages[1]) < 3.0  # one transaction each, a page or so
    assert re.search(r"idle checkpoints between the table's batches: 4, median [\d.]+ ms", out), out
    assert re.search(r"checkpoint of a whole run's WAL \(\d+ pages, 20 commands\): [\d.]+ ms", out), out
