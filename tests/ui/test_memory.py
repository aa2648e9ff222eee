"""The touch app's memory on a software OpenGL renderer: every frame is finished before the next, so Mesa
does not queue frames (each queued frame keeps its memory: bench/bench_memory.py measured 246 MiB peak
with queuing, 181 MiB without); a GPU driver is left alone. And the memory bench's own parsing.
source: the memory issue (the touch app under 150 MiB RSS through a whole game), ui/touch/frames.py
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from ui.touch import frames

ROOT = Path(__file__).resolve().parents[2]


class FakeWindow:
    def __init__(self) -> None:
        self.bound: dict[str, Any] = {}

    def bind(self, **handlers: Any) -> None:
        self.bound.update(handlers)


@pytest.mark.parametrize(("renderer", "software"), [
    ("llvmpipe (LLVM 15.0.6, 256 bits)", True), ("softpipe", True), ("Software Rasterizer", True),
    ("V3D 4.2", False), ("Mali-G52 (Panfrost)", False), ("", False)])
def test_software_renderers_are_recognised(renderer: str, software: bool) -> None:
    assert frames.is_software(renderer) is software


def test_frames_are_finished_on_llvmpipe_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BOARDBANK_FINISH_FRAMES", raising=False)
    cpu, gpu = FakeWindow(), FakeWindow()
    assert frames.finish_frames(cpu, "llvmpipe (LLVM 15.0.6, 256 bits)") is True
    assert "on_flip" in cpu.bound
    assert frames.finish_frames(gpu, "V3D 4.2") is False
    assert gpu.bound == {}


def test_the_variable_forces_either_way(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOARDBANK_FINISH_FRAMES", "0")
    assert frames.finish_frames(FakeWindow(), "llvmpipe") is False
    monkeypatch.setenv("BOARDBANK_FINISH_FRAMES", "1")
    window = FakeWindow()
    assert frames.finish_frames(window, "V3D 4.2") is True and "on_flip" in window.bound


def _bench() -> Any:
    spec = importlib.util.spec_from_file_location("bench_memory", ROOT / "bench" / "bench_memory.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_memory"] = module
    spec.loader.exec_module(module)
    return module


def test_the_bench_splits_a_processes_rss() -> None:
    bench = _bench()
    parts = bench.breakdown(os.getpid())
    rss = bench.status(os.getpid(), "VmRSS")
    assert parts["other files"] > 0 and parts.get("anonymous", 0) + parts.get("C heap", 0) > 0
    assert abs(sum(parts.values()) - rss) < max(8.0, 0.2 * rss)  # smaps and status agree (sampled apart)


def test_the_bench_reads_the_renderer_from_kivys_log() -> None:
    bench = _bench()
    log = "[INFO   ] [GL          ] OpenGL renderer <b'llvmpipe (LLVM 15.0.6, 256 bits)'>\n"
    assert bench.renderer(log) == "llvmpipe (LLVM 15.0.6, 256 bits)"
    assert bench.renderer("no GL here") == "?"


def test_the_bench_plays_a_whole_game_of_each_ruleset() -> None:
    """The issue's "through a whole game" holds for both rulesets: the bench plays one script per ruleset,
    on an edition of that ruleset (no --edition: the default edition)."""
    from engine.editions import load_edition
    from ui.compose import DEFAULT_EDITION

    bench = _bench()
    played = set()
    for ruleset, args, script in bench.GAMES:
        edition = args[args.index("--edition") + 1] if "--edition" in args else DEFAULT_EDITION
        assert load_edition(edition).ruleset == ruleset
        assert script.is_file()
        played.add(ruleset)
    assert played == {"ultimate", "classic"}


def test_the_app_loads_images_without_pillow() -> None:
    """Kivy's image providers stop at SDL2_image: the app never imports Pillow (bench_memory: ~2 MiB)."""
    script = ("import os, sys; os.environ.pop('KIVY_IMAGE', None); from ui.touch.app import prepare_kivy; "
              "prepare_kivy((800, 480), False); from kivy.core.image import ImageLoader; "
              "print(os.environ['KIVY_IMAGE'], 'PIL' in sys.modules, "
              "sorted(p.__name__ for p in ImageLoader.loaders))")
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_LOG_MODE="PYTHON")
    env.pop("KIVY_IMAGE", None)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                         check=True, timeout=120).stdout.split()
    assert out[0] == "tex,dds,sdl2" and out[1] == "False", out
    assert "ImageLoaderSDL2" in " ".join(out[2:]), out


LEFT_OUT = ("ndef", "engine.sim.estimate", "engine.sim.runner", "engine.rulesets.classic.sim",
            "engine.rulesets.classic.bots", "engine.rulesets.ultimate.sim", "engine.rulesets.ultimate.bots",
            "aiohttp", "segno", "ui.share.server", "matplotlib", "reportlab", "graphviz", "PIL", "ui.story.speech",
            "babel.numbers")
"""Packages and modules ``boardbank run`` does not import at the table (sharing off, cards without NDEF
records, no voice): ndeflib (~1 MiB), the simulator's game loop and its bots, the share's web stack, the
plotting, PDF and diagram libraries, the speech module, Babel's number formats (the money's grouping is a
table of Babel's values, ui/money.py; Babel's catalog tools still come in where the translations are compiled,
at the first start of an installation or here, on a fresh cache). The setup screen's effect lines (ui/setup_effects.py) need engine.sim's compare,
results and stats in the app's process (the estimate's type, its key's options and its intervals: ~0.7 MiB
traced); the games themselves are played in the estimates' worker, a process of its own."""


def test_the_table_side_app_leaves_out_what_it_does_not_use(tmp_path: Path) -> None:
    """The start of a classic game through the real app (registration and the first turns, a script on
    the mock reader): none of :data:`LEFT_OUT` is in ``sys.modules`` when it exits (bench/bench_memory.py:
    the kiosk's memory budget). A future import of one of them at the table turns this red."""
    whole = (ROOT / "tests" / "engine" / "taps" / "classic" / "whole_game.tap").read_text(encoding="utf-8")
    (tmp_path / "start.tap").write_text("\n".join(whole.splitlines()[:60]) + "\n", encoding="utf-8")
    code = ("import atexit, sys\n"
            "atexit.register(lambda: print('MODULES', ' '.join(sorted(sys.modules)), flush=True))\n"
            "from ui.cli.console import main\n"
            "sys.exit(main(sys.argv[1:]))\n")
    env = dict(os.environ, KIVY_NO_ARGS="1", KIVY_NO_FILELOG="1", KIVY_LOG_MODE="PYTHON", KIVY_HOME=str(tmp_path / "kivy"),
               BOARDBANK_DB=str(tmp_path / "bb.sqlite3"), SDL_VIDEODRIVER=os.environ.get("SDL_VIDEODRIVER", "offscreen"))
    env.pop("BOARDBANK_SHARE", None)
    done = subprocess.run([sys.executable, "-c", code, "run", "--script", str(tmp_path / "start.tap"), "--size",
                           "800x480", "--edition", "classic-us"], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    modules = next(line for line in done.stdout.splitlines() if line.startswith("MODULES ")).split()[1:]
    assert "ui.touch.screens.root" in modules and "engine.rulesets.classic.ruleset" in modules
    loaded = sorted(m for m in modules if any(m == name or m.startswith(name + ".") for name in LEFT_OUT))
    assert loaded == [], f"imported at the table: {loaded}"


APP_SHARE_MIB = 31.0
"""What the app may add to a one-label Kivy window, both without the software renderer's mappings, at the
peak of the classic whole game (MiB). Measured: 43 before the setup screen's options came a page at a
time, the fonts on a ladder, Babel's global table dropped and setup's rows freed before the table is built;
28-30 since; 31-33 with the later features (the story's words, the voice, Count it, set marks, estimates);
29-31 once the setup screen itself went before the table and the money's grouping left Babel's modules out
(one-label window 73 MiB, the game's peak 102-104); 26-29 with the estimates' worker a plain child process and
the dropped screens freed after the next frame (the game's peak 98.5-102). A difference of two figures of the same machine and
renderer, so the guard does not move with the machine's Kivy, SDL or Mesa."""


def test_the_classic_game_stays_within_its_share_of_memory() -> None:
    """bench/bench_memory.py's own measure: the classic whole game's peak RSS without the software
    renderer's mappings, minus the one-label window's; a regression of a few MiB turns this red."""
    bench = _bench()
    _, label_bare = bench.one_label({})
    ruleset, edition, script = next(game for game in bench.GAMES if game[0] == "classic")
    _peak, _end, _parts, _seconds, bare = bench.game({}, edition, script)
    assert bare - label_bare < APP_SHARE_MIB, (
        f"{ruleset} game peak {bare:.0f} MiB, one-label window {label_bare:.0f} MiB: the app holds "
        f"{bare - label_bare:.0f} MiB (at most {APP_SHARE_MIB:.0f})")


def test_babel_lets_go_of_its_global_table_and_still_formats_every_language() -> None:
    """ui/money.py: Babel's global table (~2 MiB) is dropped once a language's number data is loaded;
    Babel reads it again by itself for the next language, and every language keeps its own grouping."""
    import babel.core

    from ui.money import group_digits

    assert group_digits(1500, "en") == "1,500"
    assert babel.core._global_data is None
    assert group_digits(1500, "ru") == "1\xa0500" and group_digits(1500, "ro") == "1.500"
    assert group_digits(1500, "ja") == "1,500" and group_digits(2500, "en") == "2,500"
    assert babel.core._global_data is None
    assert babel.core.get_global("zone_aliases")  # the table itself comes back when asked for


def test_the_language_pickers_read_each_name_without_keeping_its_catalog() -> None:
    """The setup and settings pickers name each language in itself from its catalog, and only the catalogs
    of the languages the UI speaks stay in memory (ui/i18n.py native_name)."""
    from ui.i18n import LANGUAGES, load_catalog, native_name

    load_catalog.cache_clear()
    native_name.cache_clear()
    names = [native_name(lang) for lang in LANGUAGES]
    assert names == [load_catalog(lang)[f"lang.{lang}"] for lang in LANGUAGES]
    assert names == ["English", "Русский", "Română", "日本語"]
    load_catalog.cache_clear()
    native_name.cache_clear()
    native_name("ja")
    assert load_catalog.cache_info().currsize == 0
