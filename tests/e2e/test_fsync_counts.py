"""One fsync per input that commits a command, none for an input that commits nothing: the commands and the
banker's record after them are one transaction (engine/store/writes.py), counted with strace by
bench/bench_fsync.py (before: 11 calls for the six inputs of two purchases, every input that changed the
record synced it on its own and a committing tap synced twice)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[2] / "bench"))

from bench_fsync import count

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace (install-system-deps.sh test)")


@pytest.mark.parametrize("game", ["ultimate", "classic"])
def test_one_fsync_per_committing_input_and_none_for_the_others(tmp_path: Path, game: str) -> None:
    counts = count(game, tmp_path)
    committing = [calls for _, done, calls in counts.inputs if done]
    other = [calls for _, done, calls in counts.inputs if not done]
    assert len(committing) >= 2 and len(other) >= 4, counts.inputs
    assert other == [0] * len(other), counts.inputs
    # the process's first commit also syncs the folder of the WAL file it just created
    assert committing[0] in (1, 2) and committing[1:] == [1] * (len(committing) - 1), counts.inputs
