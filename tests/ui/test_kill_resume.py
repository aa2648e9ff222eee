"""The touch app SIGKILLed at moments of a scripted game (as a power cut would) resumes exactly what the
journal holds, shows it, and says the game was resumed (docs/architecture.md, section 4). The hundred-kill
run is bench/bench_kill_touch.py."""

from __future__ import annotations

from pathlib import Path

import pytest
from killing import kill_and_restart, random_moments, whole_game_s


@pytest.mark.ui
def test_kills_during_a_game_resume_what_the_journal_holds(tmp_path: Path) -> None:
    whole = whole_game_s(tmp_path)  # the game's time on this machine now (start-up is half of it or more)
    moments = random_moments(2, seed=7, longest_s=0.95 * whole, earliest_s=0.65 * whole)
    kills = [kill_and_restart(tmp_path / f"bank-{i}.db", tmp_path, s) for i, s in enumerate(moments)]
    assert all(k.problems == [] for k in kills), [k.problems for k in kills]
    assert any(k.events for k in kills)  # at least one kill came during the game, not before it
    assert all(k.resumed for k in kills if k.events)
