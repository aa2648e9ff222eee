"""``boardbank run``: the kiosk touch UI (Kivy). It shows the banker's view-model and sends its actions.

:func:`main` prepares Kivy from the command line (window size, full screen, logging), opens the session
(banker, readers, registry, journal) through ``ui.compose`` and runs
:class:`~ui.touch.screens.root.BoardBankApp`, which hands reader events to the main thread
(``Clock.schedule_once``), ticks the banker every 0.1 s and re-renders the screen after every reaction.
It never decides a rule.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import sys
import tempfile
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)



DEFAULT_SIZE = (800, 480)
"""The window without ``--size``: the 7-inch Raspberry Pi touch screen the layout is drawn for."""


IMAGE_PROVIDERS = "tex,dds,sdl2"
"""Kivy's image providers the app loads (``KIVY_IMAGE``; Kivy's own list adds ``pil`` and ``ffpyplayer``)."""


class AppError(ValueError):
    """A bad ``boardbank run`` argument (the message shows what was expected)."""


def parse_size(text: str | None) -> tuple[int, int] | None:
    """``"800x480"`` -> (800, 480); None stays None."""
    if text is None:
        return None
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise AppError(f"--size expects WIDTHxHEIGHT such as 800x480, got {text!r}") from None
    if width < 320 or height < 240:
        raise AppError(f"--size must be at least 320x240, got {text!r}")
    return width, height


def prepare_kivy(size: tuple[int, int] | None, fullscreen: bool) -> None:
    """Set Kivy's environment and window configuration; must run before Kivy is imported."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "MIXED")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_CLOCK", "interrupt")  # a reader thread's event wakes the loop at once
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # SDL's own clipboard: no probing for xclip (a traceback)
    # Images (Kivy's theme atlas, PNG screenshots) through SDL2_image: Pillow is never imported (~2 MiB RSS)
    os.environ.setdefault("KIVY_IMAGE", IMAGE_PROVIDERS)
    from ui.touch.sounds import audio_driver

    driver = audio_driver(os.environ)  # no sound server: ALSA, without probing PulseAudio first
    if driver is not None:
        os.environ["SDL_AUDIODRIVER"] = driver
    from kivy.config import Config

    if size is None and not fullscreen:
        size = DEFAULT_SIZE
    if size is not None:
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "show_cursor", "0")
        # the kiosk's touch screen has no physical keyboard: name fields get Kivy's docked on-screen keyboard
        Config.set("kivy", "keyboard_mode", "dock")
    else:
        Config.set("kivy", "keyboard_mode", "system")  # a desktop keeps its own keyboard
    Config.set("kivy", "exit_on_escape", "0")
    # No multisample anti-aliasing: flat tiles do not need it, and on software GL (no GPU) it costs
    # a large share of every frame, i.e. of the tap-to-screen latency.
    Config.set("graphics", "multisamples", "0")
    logging.getLogger("transitions").setLevel(logging.WARNING)  # one DEBUG line per trigger otherwise
    Config.set("input", "mouse", "mouse,multitouch_on_demand")


@dataclass
class Session:
    """What the app runs: the banker, its readers, the card registry, the rule options and a closer.

    ``mock_urls`` are the ``mock://`` readers the on-screen card tray taps on; ``advance`` moves the
    banker's clock for scripts' ``wait`` steps (None: the banker reads the real monotonic clock).
    """

    banker: Any
    readers: list[Any] = field(default_factory=list)
    registry: Any = None
    edition: Any = None
    options: Mapping[str, object] = field(default_factory=dict)
    mock_urls: list[str] = field(default_factory=list)
    advance: Callable[[float], None] | None = None
    closer: Callable[[], None] | None = None
    settings: Any = None  # the installation's ui.settings.SettingsStore (None: nothing is remembered)
    asked: str = ""  # the --edition that the resumed game did not obey ("" when none or the same)
    share: Any = None  # the live page for phones (``--share``, ui/share), else None

    def close(self) -> None:
        """Stop the readers and close the journal; idempotent."""
        for reader in self.readers:
            try:
                reader.stop()
            except OSError as exc:
                log.warning("reader %s did not stop cleanly: %s", getattr(reader, "url", reader), exc)
        self.readers = []
        if self.closer is not None:
            closer, self.closer = self.closer, None
            closer()


def open_session(args: argparse.Namespace) -> Session:
    """Build the banker, readers, registry and journal from the ``boardbank run`` arguments (ui.compose)."""
    from ui import compose
    from ui.share.wiring import check_share, start_share

    check_share(args)
    built = compose.build(args)
    try:
        start_share(args, built, lambda text: print(f"boardbank run: {text}", file=sys.stderr))
    except BaseException:
        built.close()
        raise
    return Session(
        banker=built.banker,
        readers=list(getattr(built, "readers", [])),
        registry=getattr(built, "registry", None),
        edition=getattr(built, "edition", None),
        options=dict(getattr(built, "options", {}) or {}),
        mock_urls=[r.url for r in getattr(built, "readers", []) if str(r.url).startswith("mock:")],
        advance=getattr(built, "advance", None),
        closer=getattr(built, "close", None),
        settings=getattr(built, "settings", None),
        asked=getattr(args, "edition", None) or "" if getattr(built, "notice", "") else "",
        share=getattr(built, "share", None),
    )


def announce_resume(app: Any, session: Session) -> None:
    """After a restart (a power cut, a crash, ``make run``), say that the game goes on where it was: one
    line on stderr and a message on the screen; when ``--edition`` named another game, that it was not
    obeyed (the saved game decides; ``--edition`` is for the next new game)."""
    resumed = getattr(getattr(session.banker, "ctx", None), "durable", None)
    if resumed is None:
        return
    print(f"boardbank run: resumed game {resumed.game_id} at event {len(resumed.game.events)}", file=sys.stderr)
    if session.asked:
        print(f"boardbank run: --edition {session.asked}: game {resumed.game_id} is {resumed.game.edition.id} "
              f"and resumes as saved; {session.asked} is the edition of the next new game", file=sys.stderr)
        app.notice(app.t("info.resumed_other", game=resumed.game_id, edition=app.edition_name(resumed.game.edition.id),
                        asked=app.edition_name(session.asked)))
    else:
        app.notice(app.t("info.resumed", game=resumed.game_id))


def choose_language(asked: str | None, edition: Any, stored: str | None = None) -> str:
    """``--lang``, else the ``stored`` language (the last one chosen on this unit), else the edition's own
    language when the UI speaks it (ultimate-ru: ru), else English."""
    from ui.i18n import LANGUAGES

    if asked:
        return asked
    if stored in LANGUAGES:
        return str(stored)
    own = getattr(edition, "language", None)
    return own if own in LANGUAGES else "en"


def main(args: argparse.Namespace) -> int:
    """Run the kiosk UI with the ``boardbank run`` arguments; returns the exit status."""
    try:
        size = parse_size(getattr(args, "size", None))
    except AppError as exc:
        print(f"boardbank run: {exc}", file=sys.stderr)
        return 2
    if getattr(args, "screenshots", None) and not getattr(args, "script", None):
        print("boardbank run: --screenshots needs --script FILE", file=sys.stderr)
        return 2
    shots = getattr(args, "screenshots", None)
    if shots and Path(shots).exists() and not Path(shots).is_dir():
        print(f"boardbank run: --screenshots {shots}: expected a folder, this is a file", file=sys.stderr)
        return 2
    if getattr(args, "speak", False) or getattr(args, "speak_to", None):
        from ui.story.speech import SpeechError, check_speak_to, espeak_installed

        try:
            if getattr(args, "speak_to", None):
                check_speak_to(args.speak_to)
            elif not espeak_installed():
                raise SpeechError("--speak: espeak-ng is not installed (scripts/install-system-deps.sh run)")
        except SpeechError as exc:
            print(f"boardbank run: {exc}", file=sys.stderr)
            return 2
    with script_database(args):
        return _run(args, size)


@contextlib.contextmanager
def script_database(args: argparse.Namespace) -> Iterator[None]:
    """A scripted run (``--script``) without ``--db`` or ``$BOARDBANK_DB`` plays on a journal, card registry
    and settings of its own in a temporary folder, removed afterwards: the installation's file (the
    family's enrolled cards, their game) is never touched by a script."""
    if not getattr(args, "script", None) or getattr(args, "db", None) or os.environ.get("BOARDBANK_DB"):
        yield
        return
    with tempfile.TemporaryDirectory(prefix="boardbank-script-") as tmp:
        args.db = str(Path(tmp) / "boardbank.sqlite3")
        try:
            yield
        finally:
            args.db = None


def _run(args: argparse.Namespace, size: tuple[int, int] | None) -> int:
    prepare_kivy(size, bool(getattr(args, "fullscreen", False)))
    try:
        session = open_session(args)
    except (OSError, ValueError) as exc:
        print(f"boardbank run: {exc}", file=sys.stderr)
        return 2
    from ui.i18n import LANGUAGES
    from ui.touch.sounds import SoundBoard

    stored = session.settings
    lang = choose_language(getattr(args, "lang", None), session.edition,
                           stored.language(LANGUAGES) if stored is not None else None)
    sounds = SoundBoard() if stored is None else SoundBoard(volume=stored.volume(0.8), muted=stored.muted())
    if stored is not None:  # before any widget is made: the kv rules read the palette then
        from ui.touch.widgets import palette

        palette.apply_theme(stored.theme(), stored.large_text())
    from ui.touch.fonts import missing_font_message

    message = missing_font_message(lang)
    if message:
        print(f"boardbank run: {message}", file=sys.stderr)
    from ui.touch.screens.root import BoardBankApp
    from ui.touch.voice import make_voice

    voice = make_voice(args, lang, stored, lambda: sounds.volume,
                       lambda text: print(f"boardbank run: speech: {text}", file=sys.stderr))
    app = BoardBankApp(session=session, lang=lang, sounds=sounds, voice=voice)
    if session.share is not None:  # --share: every reaction to the phones too, the QR code on screen
        from ui.touch.share_hook import follow

        follow(app, session.share, session.banker)
        print(f"boardbank run: the table on every phone: {session.share.url}", file=sys.stderr)
    app.after_start(lambda: announce_resume(app, session))
    if getattr(args, "script", None):
        from ui.touch.script import ScriptRunner

        try:
            runner = ScriptRunner.from_file(app, args.script, getattr(args, "screenshots", None))
        except (OSError, ValueError) as exc:
            print(f"boardbank run: {exc}", file=sys.stderr)
            session.close()
            return 2
        app.after_start(runner.start)
    from ui.watchdog import kivy_heartbeat

    app.after_start(kivy_heartbeat)  # systemd's READY=1 and watchdog pings (the kiosk unit); else nothing
    from ui.touch import button_dump

    app.after_start(lambda: button_dump.install(app))  # tests only: $BOARDBANK_TEST_BUTTONS (else nothing)
    try:
        app.run()
    finally:
        session.close()
    return app.exit_status
