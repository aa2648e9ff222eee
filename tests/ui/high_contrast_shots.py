"""Run alone (a process of its own: the theme is applied before any widget is made, as ``boardbank run``
does): ``python tests/ui/high_contrast_shots.py OUT_DIR LANG...`` writes the table, the board and the menu
in the high-contrast theme with large text as OUT_DIR/<lang>-<screen>.png."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE))


def main(out: Path, langs: list[str]) -> None:
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp())
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    from ui.touch.widgets import palette

    palette.apply_theme("high_contrast", large_text=True)
    from fixtures.session import make_session
    from fixtures.views import board_view, menu_view, table_view
    from kivy.core.window import Window
    from ui_driver import SIZE, pump, screenshot

    from ui.touch.screens.root import BoardBankApp
    from ui.touch.sounds import SoundBoard

    Window.size = SIZE
    session, clock = make_session(Path(tempfile.mkdtemp()))
    app = BoardBankApp(session=session, lang="en", sounds=SoundBoard(muted=True))
    app.test_clock = clock
    app._run_prepare()
    Window.size = SIZE
    pump(3)
    for lang in langs:
        app.set_language(lang)
        for name, build in (("table", table_view), ("board", board_view), ("settings", lambda: menu_view("settings"))):
            app.overlay = None
            app.render(build())
            if name == "board":
                app.show_screen("board")
            pump(3)
            screenshot(out / f"{lang}-{name}.png")
    app.stop()
    session.close()


if __name__ == "__main__":
    main(Path(sys.argv[1]), sys.argv[2:])
