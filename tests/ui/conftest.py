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
    from fixtures.estimates import StubEstimates
    from fixtures.session import make_session
    from ui_driver import pump

    from ui.touch.screens.root import BoardBankApp
    from ui.touch.screens.setup import SetupScreen
    from ui.touch.sounds import SoundBoard

    SetupScreen.estimates_factory = StubEstimates  # effect lines at once, no simulator process (the screens' checks see them)

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


class Installation:
    """The app run as ``boardbank run`` runs it on one installation file (ui.compose: the journal, the card
    registry and the settings in it, the mock reader, a manual clock), which :meth:`restart` quits and starts
    again on the same file with other arguments: the kiosk after a power cut, or a ``make run``."""

    def __init__(self, app: Any, db: Path) -> None:
        self.app = app
        self.db = db
        self.restarts = 0

    def start(self, *args: str) -> Any:
        """Start the app on the file with the command line's ``args`` (e.g. ``--edition classic-us``)."""
        import argparse
        from types import SimpleNamespace

        from fixtures.session import MOCK_URL
        from ui_driver import pump

        from ui.cli.console import build_parser
        from ui.touch.app import announce_resume, open_session

        parsed: argparse.Namespace = build_parser().parse_args(["run", "--db", str(self.db), *args])
        parsed.reader = parsed.reader or [MOCK_URL]
        parsed.script = "(the test's steps)"  # a manual clock: only the steps' waits move it
        session = open_session(parsed)
        self.app.set_language("en")
        self.app.attach(session)  # the running session, if any, is closed first: a quit
        self.app.test_clock = SimpleNamespace(advance=session.advance)
        announce_resume(self.app, session)  # as boardbank run does once started
        pump(2)
        return self.app

    def restart(self, *args: str) -> Any:
        """Quit and start again on the same file with ``args``."""
        from ui_driver import pump

        self.app.attach(None)
        pump(1)
        self.restarts += 1
        return self.start(*args)


@pytest.fixture
def installation(ui_app: Any, tmp_path: Path) -> Iterator[Installation]:
    """The shared app on a new installation file, started and restarted as ``boardbank run`` (Installation)."""
    place = Installation(ui_app, tmp_path / "boardbank.sqlite3")
    yield place
    ui_app.attach(None)
