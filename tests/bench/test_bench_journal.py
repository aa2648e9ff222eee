"""The journal benchmark runs end to end on a few small interleaved batches and prints every figure it
promises: each side's median rate, the median per-pair ratio with its spread, pages per command and the
checkpoint's cost. source: bench/bench_journal.py's docstring (the journal issue's bench figures)
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_journal_bench_prints_its_figures() -> None:
    out = subprocess.run([sys.executable, str(ROOT / "bench" / "bench_journal.py"), "--pairs", "4", "--batch", "5"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300, check=True).stdout
    assert re.search(r"4 pairs of 5: durable [\d,]+ commands/s \(median\), bare commit loop [\d,]+ commits/s", out)
    ratio = re.search(r"median of the pairs: ([\d.]+) \(10th-90th percentile ([\d.]+)-([\d.]+)", out)
    assert ratio is not None and float(ratio[2]) <= float(ratio[1]) <= float(ratio[3])
    pages = re.search(r"WAL pages written per command: ([\d.]+)", out)
    assert pages is not None and 1.0 <= float(pages[1]) < 3.0  # one transaction each, a page or so
    assert re.search(r"checkpoint of the run's WAL \(\d+ pages, 20 commands\): [\d.]+ ms", out)
