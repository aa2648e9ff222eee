"""Low vision: the ``theme`` and ``large_text`` settings, the high-contrast theme and the larger text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fixtures.views import table_view
from looks import look, refit_all
from ui_driver import pump

from ui.settings import SettingsStore
from ui.touch.widgets import palette


def test_theme_and_large_text_settings_round_trip_and_refuse_bad_values(tmp_path: Path) -> None:
    store = SettingsStore.open(tmp_path / "s.sqlite3")
    assert (store.theme(), store.large_text()) == ("standard", False)
    store.save({"theme": "high_contrast", "large_text": True})
    assert (store.theme(), store.large_text()) == ("high_contrast", True)
    store.save({"theme": "neon", "large_text": "yes"})
    assert (store.theme(), store.large_text()) == ("standard", False)
    store.close()


def test_the_high_contrast_theme_puts_white_text_on_near_black_and_goes_back() -> None:
    from colourvision import delta_e

    standard = palette.PANEL
    try:
        palette.apply_theme("high_contrast", large_text=True)
        assert palette.TEXT == (1.0, 1.0, 1.0, 1.0) and max(palette.BACKGROUND[:3]) == 0.0
        assert palette.TEXT_SCALE == palette.LARGE_TEXT_SCALE
        for key in ("PANEL", "PANEL_LIGHT", "ACCENT", "DANGER", "OK", "NEUTRAL", "DECLINE", "NOTICE"):
            colour = getattr(palette, key)
            assert palette.text_on(colour) == palette.TEXT, key  # every button colour carries white text
            assert _contrast(palette.TEXT, colour) >= 4.5, (key, _contrast(palette.TEXT, colour))
        assert delta_e(palette.TEXT[:3], palette.PANEL[:3]) > 90
    finally:
        palette.apply_theme("standard")
    assert standard == palette.PANEL and palette.TEXT_SCALE == 1.0
    palette.apply_theme("no such theme")
    assert palette.THEME == "standard"


def _contrast(a: palette.RGBA, b: palette.RGBA) -> float:
    """WCAG 2 contrast ratio of two colours."""

    def lum(c: palette.RGBA) -> float:
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in c[:3]]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


@pytest.mark.ui
def test_large_text_draws_the_table_larger(ui_app: Any) -> None:
    from ui.touch.widgets.fitlabel import FitMixin

    ui_app.overlay = None
    ui_app.render(table_view())
    pump(3)

    def sizes() -> list[float]:
        return [float(w.font_size) for w in ui_app.root.walk(restrict=True)
                if isinstance(w, FitMixin) and getattr(w, "text", "").strip()]

    refit_all(ui_app.root)
    before = sizes()
    with look("high_contrast_large"):
        refit_all(ui_app.root)
        pump(2)
        after = sizes()
    grown = sum(a > b for a, b in zip(after, before, strict=True))
    assert grown >= len(before) // 4, (grown, len(before))
    assert all(a >= b for a, b in zip(after, before, strict=True))
    assert sizes() == before


def test_the_high_contrast_theme_is_what_a_fresh_unit_draws(tmp_path: Path) -> None:
    """A unit started with the theme (its own process) draws its panels near-black and the board on black: screenshots in
    ``out/screenshots/high_contrast/``."""
    import os
    import subprocess
    import sys

    import numpy as np
    from PIL import Image
    from ui_driver import SHOTS

    out = SHOTS / "high_contrast"
    env = {**os.environ, "KIVY_HOME": str(tmp_path)}
    subprocess.run([sys.executable, str(Path(__file__).parent / "high_contrast_shots.py"), str(out), "en", "ru", "ja"],
                   check=True, timeout=120, env=env)
    table = np.asarray(Image.open(out / "en-table.png").convert("RGB"))
    board = np.asarray(Image.open(out / "en-board.png").convert("RGB"))
    assert tuple(int(v) for v in table[2, 2]) == tuple(round(v * 255) for v in palette.HIGH_CONTRAST["PANEL"][:3])
    assert tuple(int(v) for v in board[300, 400]) == (0, 0, 0)  # the board's free centre: the background
