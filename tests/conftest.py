"""Test-wide set-up: Kivy must be told how to behave before anything imports it."""

import os
import tempfile

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
os.environ.setdefault("KIVY_WINDOW", "sdl2")
os.environ.setdefault("SDL_VIDEODRIVER", "offscreen")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("BOARDBANK_CACHE", tempfile.mkdtemp(prefix="boardbank-cache-"))  # compiled catalogs: not in ~
