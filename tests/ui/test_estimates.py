"""House rules you can see: the estimates' cache, the background worker, and their words in four languages."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.errors import OptionError
from engine.sim.compare import MEASURES, Effect, Estimate
from engine.sim.results import SimError
from engine.sim.stats import Interval
from ui import estimates as est
from ui.estimate_text import effect_lines, pending_text, turns_text
from ui.i18n import LANGUAGES, Translator, load_catalog

pytestmark = pytest.mark.timeout(120)
DEADLINE_S = 90  # the worker is a fresh interpreter on a busy machine


@pytest.fixture
def estimates(tmp_path: Path) -> Iterator[est.Estimates]:
    e = est.Estimates(tmp_path, games=4)
    yield e
    e.close()


def _wait(e: est.Estimates, until: float = DEADLINE_S) -> list[Estimate]:
    deadline = time.monotonic() + until
    while time.monotonic() < deadline:
        got = e.poll()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError("no estimate before the deadline")


def test_a_request_returns_at_once_then_the_estimate_arrives_by_poll_and_is_cached(
        estimates: est.Estimates, tmp_path: Path) -> None:
    ready: list[Estimate] = []
    started = time.monotonic()
    assert estimates.request("ultimate-uk", 3, {"start_money": 2000}, ready.append) is None
    assert estimates.request("ultimate-uk", 3, {"start_money": 2000, "auction": True}) is None  # the same key
    assert time.monotonic() - started < 2.0  # no game played here (the worker starts in the background)
    assert estimates.pending() == 1
    (got,) = _wait(estimates)
    assert ready == [got] and got.games == 4 and got.options == {"start_money": 2000}
    assert estimates._proc is None  # idle: the worker has gone, its memory with it
    assert estimates.request("ultimate-uk", 3, {"start_money": 2000}) is got
    again = est.Estimates(tmp_path)  # a new session reads the file
    assert again.request("ultimate-uk", 3, {"start_money": 2000}) == got
    assert again.pending() == 0
    assert [p.suffix for p in tmp_path.iterdir()] == [".json"]


def test_the_worker_runs_at_a_lower_priority(tmp_path: Path) -> None:
    slow = est.Estimates(tmp_path, games=2000)  # still running while its priority is read
    try:
        assert slow.request("ultimate-uk", 4, {"start_money": 1800}) is None
        assert slow._proc is not None
        pid, want = slow._proc.pid, os.nice(0) + est.NICENESS
        deadline = time.monotonic() + DEADLINE_S
        while os.getpriority(os.PRIO_PROCESS, pid) != want and time.monotonic() < deadline:
            time.sleep(0.02)
        assert os.getpriority(os.PRIO_PROCESS, pid) == want
    finally:
        slow.close()


def test_settings_that_cannot_be_played_are_refused_and_nothing_starts(estimates: est.Estimates) -> None:
    with pytest.raises(OptionError, match="nope"):
        estimates.request("classic-uk", 4, {"nope": 1})
    with pytest.raises(SimError, match="max_players=6"):
        estimates.request("ultimate-uk", 6, {})
    assert estimates.pending() == 0 and estimates._proc is None


def test_the_key_is_the_canonical_option_set_and_the_engine_version(
        estimates: est.Estimates, monkeypatch: pytest.MonkeyPatch) -> None:
    a = estimates.key("classic-uk", 4, {"start_money": 2000, "free_parking_jackpot": False})
    assert a == estimates.key("classic-uk", 4, {"start_money": 2000})
    assert a != estimates.key("classic-uk", 5, {"start_money": 2000, "max_players": 6})
    assert a[3] == est.engine_version() and len(a[3]) == 16
    monkeypatch.setattr(est, "engine_version", lambda: "another-engine")
    assert estimates.key("classic-uk", 4, {"start_money": 2000}) != a


def _estimate(turns: Interval, first: Interval, money: Interval) -> Estimate:
    base = Interval(100.0, 95.0, 105.0)
    diffs = {"turns": turns, "first_wins": first, "money": money, "capped": Interval(0, 0, 0)}
    return Estimate("classic-uk", 4, {"free_parking_jackpot": True}, 500,
                    {m: Effect(base, base, diffs[m]) for m in MEASURES})


def test_a_damaged_or_foreign_cache_file_is_not_read(tmp_path: Path) -> None:
    key = est.cache_key("classic-uk", 4, {"start_money": 2000})
    e = _estimate(Interval(1, 0.5, 1.5), Interval(0, 0, 0), Interval(0, 0, 0))
    est.write_cached(key, e, tmp_path)
    assert est.read_cached(key, tmp_path) == e
    est.cache_file(key, tmp_path).write_text("{not json", encoding="utf-8")
    assert est.read_cached(key, tmp_path) is None
    other = est.cache_key("classic-uk", 3, {})
    est.write_cached(other, e, tmp_path)
    est.cache_file(other, tmp_path).replace(est.cache_file(key, tmp_path))
    assert est.read_cached(key, tmp_path) is None


TR = Translator("en")


def test_clear_effects_are_said_in_every_language() -> None:
    e = _estimate(Interval(12.2, 9.0, 15.4), Interval(0.031, 0.01, 0.05), Interval(-250, -300, -200))
    assert turns_text(e, TR, "en") == "+12 turns"
    assert effect_lines(e, TR, "en") == ["games 12 % longer", "first player wins 3 points more often",
                                         "250 less money on the table at the end"]
    assert effect_lines(e, TR, "ru") == ["партии на 12 % длиннее", "первый игрок выигрывает чаще на 3 п. п.",
                                         "в конце игры на столе на 250 меньше денег"]
    for lang in LANGUAGES:
        lines = effect_lines(e, TR, lang, money=lambda n: f"M{n}")
        assert len(lines) == 3 and "M250" in lines[2] and "12" in lines[0] and "3" in lines[1]


def test_effects_whose_interval_holds_zero_are_not_said() -> None:
    e = _estimate(Interval(2.0, -1.0, 5.0), Interval(0.02, -0.01, 0.05), Interval(30, -10, 70))
    assert turns_text(e, TR, "en") is None
    assert effect_lines(e, TR, "ja") == ["はっきりした違いはない"]
    shorter = _estimate(Interval(-1.0, -1.5, -0.5), Interval(-0.04, -0.06, -0.02), Interval(0, 0, 0))
    assert turns_text(shorter, TR, "en") == "\u22121 turn"
    assert effect_lines(shorter, TR, "ro") == ["partide cu 1 % mai scurte", "primul jucător câștigă mai rar, cu 4 p.p."]


def test_the_effect_words_are_in_every_catalog() -> None:
    keys = {k for k in load_catalog("en") if k.startswith("effect.")}
    assert len(keys) == 10
    for lang in LANGUAGES:
        assert keys <= set(load_catalog(lang)), lang
        assert pending_text(TR, lang)


def test_a_failed_estimate_is_dropped_and_asked_again_is_tried_again(estimates: est.Estimates,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    from concurrent.futures import Future

    key = estimates.key("classic-uk", 4, {"start_money": 2000})
    failed: Future[dict[str, object]] = Future()
    failed.set_exception(RuntimeError("the worker went away"))
    called: list[Estimate] = []
    estimates._pending[key] = failed
    estimates._waiting[key] = [called.append]
    assert estimates.poll() == [] and called == [] and estimates.pending() == 0
    assert "the worker went away" in caplog.text
    assert estimates.request("classic-uk", 4, {"start_money": 2000}) is None and estimates.pending() == 1
    assert _wait(estimates)[0].options == {"start_money": 2000}


def test_queued_estimates_not_wanted_any_more_are_dropped(tmp_path: Path) -> None:
    slow = est.Estimates(tmp_path, games=2000)  # long enough to still be queued when dropped
    try:
        for money in (1600, 1700, 1800, 1900, 2000):
            assert slow.request("ultimate-uk", 4, {"start_money": money}) is None
        wanted = [("ultimate-uk", 4, {"start_money": 2000})]
        dropped = slow.cancel_except(wanted)
        assert dropped >= 2 and slow.pending() == 5 - dropped  # one running and one handed over may finish
        assert slow.key(*wanted[0]) in slow._pending
    finally:
        slow.close()


def test_a_worker_that_dies_fails_its_estimate_and_asked_again_another_worker_computes_it(
        estimates: est.Estimates, caplog: pytest.LogCaptureFixture) -> None:
    assert estimates.request("classic-uk", 4, {"start_money": 1700}) is None
    assert estimates._proc is not None
    estimates._proc.kill()
    deadline = time.monotonic() + DEADLINE_S
    while estimates.pending() and time.monotonic() < deadline:
        assert estimates.poll() == []
        time.sleep(0.02)
    assert estimates.pending() == 0 and estimates._proc is None and "worker exited" in caplog.text
    assert estimates.request("classic-uk", 4, {"start_money": 1700}) is None
    assert _wait(estimates)[0].options == {"start_money": 1700}


def test_estimating_leaves_no_multiprocessing_and_no_thread_in_the_app(tmp_path: Path) -> None:
    script = f"""
import sys, threading, time
from pathlib import Path
from ui.estimates import Estimates
e = Estimates(Path({str(tmp_path)!r}), games=4)
e.request("classic-uk", 4, {{"start_money": 1900}})
deadline = time.monotonic() + {DEADLINE_S}
while not e.poll() and time.monotonic() < deadline:
    time.sleep(0.05)
assert e.pending() == 0, "no estimate"
e.close()
print(sorted(m for m in sys.modules if m.startswith(("multiprocessing", "concurrent.futures.process", "pickle"))),
      threading.active_count())
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=DEADLINE_S,
                         env={**os.environ, "PYTHONPATH": str(Path(est.__file__).parents[1])}, check=False)
    assert out.stdout.split() == ["[]", "1"], out.stdout + out.stderr
