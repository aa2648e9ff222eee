"""UI tests share one Kivy window (Kivy makes one per process) at 800x480, the smallest supported size.

The ``ui_app`` fixture starts :class:`ui.touch.screens.root.BoardBankApp` without its main loop; tests drive
frames with ``driver.pump`` and real touches with ``driver.touch``. ``fresh_session`` gives the app a new
real banker (temporary journal, in-memory registry, mock reader, manual clock).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))


@pytest.fixture(scope="session")
def ui_app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kivy.config import Config

    Config.set("graphics", "width", "800")  # before the window exists (ui_driver.SIZE)
    Config.set("graphics", "height", "480")
    from ui_driver import SIZE

    Config.set("graphics", "resizable", "1")
    from kivy.core.window import Window

    Window.size = SIZE
    from fixtures.session import make_session
    from ui_driver import pump

    from ui.touch.screens.root import BoardBankApp
    from ui.touch.sounds import SoundBoard

    session, clock = make_session(tmp_path_factory.mktemp("ui-app"))
    app = BoardBankApp(session=session, lang="en", sounds=SoundBoard(muted=True))
    app.test_clock = clock
    app._run_prepare()
    Window.size = SIZE
    pump(3)
    yield app
    app.stop()
    if app.session is not None:
        app.session.close()


def _attached(ui_app: Any, tmp_path: Path, **edition: str) -> Iterator[Any]:
    """The shared app with a new real banker attached (``edition=``: of new games), language English."""
    from fixtures.session import make_session
    from ui_driver import pump

    session, clock = make_session(tmp_path, **edition)
    ui_app.set_language("en")
    ui_app.attach(session)
    ui_app.test_clock = clock
    pump(2)
    yield ui_app
    ui_app.attach(None)


@pytest.fixture
def fresh_session(ui_app: Any, tmp_path: Path) -> Iterator[Any]:
    """Attach a new real banker to the shared app; yields the app, language reset to English."""
    yield from _attached(ui_app, tmp_path)


@pytest.fixture
def classic_session(ui_app: Any, tmp_path: Path) -> Iterator[Any]:
    """The shared app with a classic-us banker and the mock reader."""
    yield from _attached(ui_app, tmp_path, edition="classic-us")
