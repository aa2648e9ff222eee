"""Animations step at the frame rate (ui/touch/widgets/paced.py): under the app's clock (``KIVY_CLOCK=interrupt``)
an animation of Kivy's default step (every frame) makes the loop tick without sleeping, as fast as the CPU
allows, while a reader thread waits for the interpreter (bench/bench_ui.py: the taps after a balance flash came
10-50 ms late). Each animation the app runs, its scroll bars' fade too, must let the clock sleep between frames."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SECONDS = 0.8
"""How long the child runs its clock: longer than every animation it starts."""
MAX_TICKS_PER_S = 2000
"""Clock ticks allowed per second of running. Paced, Kivy's interrupt clock ticked 80-370 times a second here
(60 frames, and wake-ups a little early for some); every frame unpaced, 26,000-46,000 times a second without a
window (hundreds with one, each drawing a frame, every core busy)."""

CHILD = r"""
import json, os, sys, time
sys.path.insert(0, os.environ["ROOT"])
from ui.touch.app import prepare_kivy
prepare_kivy((800, 480), False)
from kivy.clock import Clock
from kivy.uix.label import Label
from ui.touch.widgets.balance import BalanceTile
from ui.touch.widgets.paced import PacedRecycleView, PacedScrollView
what = sys.argv[1]
if what == "flash":
    BalanceTile().flash((0.2, 0.8, 0.2, 1.0))
else:
    view = PacedScrollView() if what == "scroll" else PacedRecycleView()
    if what == "scroll":
        view.add_widget(Label(size_hint=(None, None), size=(100, 2000)))
    view.update_from_scroll()
ticks, begun = 0, time.perf_counter()
end = begun + float(sys.argv[2]) + 0.5  # a bar fades 0.5 s after the change
while time.perf_counter() < end:
    Clock.tick()
    ticks += 1
print(json.dumps({"ticks_per_s": ticks / (time.perf_counter() - begun),
                  "clock": type(object.__getattribute__(Clock, "_obj")).__name__}))
"""


@pytest.mark.parametrize("what", ["flash", "scroll", "recycle"])
def test_an_animation_lets_the_clock_sleep_between_frames(what: str) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("KIVY_CLOCK")}
    env.update(ROOT=str(ROOT), KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_LOG_MODE="PYTHON")
    done = subprocess.run([sys.executable, "-c", CHILD, what, str(SECONDS)], env=env, capture_output=True,
                          text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["clock"] == "ClockBaseInterrupt"  # the app's clock (ui/touch/app.py)
    assert result["ticks_per_s"] <= MAX_TICKS_PER_S, result


def test_kivy_still_fades_the_bar_through_the_method_paced_replaces() -> None:
    from kivy.uix.scrollview import ScrollView

    from ui.touch.widgets.paced import PacedBars

    assert callable(getattr(ScrollView, "_bind_inactive_bar_color", None))
    assert "_bind_inactive_bar_color" in ScrollView.update_from_scroll.__code__.co_names  # Kivy fades it so
    assert PacedBars._bind_inactive_bar_color is not ScrollView._bind_inactive_bar_color


def test_no_animation_or_scroll_view_of_the_app_steps_every_frame() -> None:
    touch = ROOT / "ui" / "touch"
    for path in touch.rglob("*.py"):
        if path.name == "paced.py":
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"\bAnimation\(", text), f"{path}: an Animation not made by paced.animation"
        assert not re.search(r"class \w+\((RecycleView|ScrollView)\)", text), f"{path}: a scroll view without PacedBars"
    for path in (touch / "kv").glob("*.kv"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^\s*(ScrollView|RecycleView):", text, re.M), f"{path}: use PacedScrollView"
