"""Frames on a software OpenGL renderer (Mesa's llvmpipe, softpipe): finish each one before the next.

Without a GPU, Mesa rasterises a frame on its own threads while the app goes on, and queues every frame
the app issues before the last one is drawn; each queued frame ("scene") keeps its binned commands and
data blocks allocated for the rest of the run. ``bench/bench_memory.py`` measured this at 45-90 MiB of
C heap through a scripted game at 800x480 (peak RSS 248-268 MiB with queuing, 181 MiB without). A
``glFinish`` after every buffer swap waits until the frame is drawn, so one scene is reused; it also keeps
the tap-to-screen latency what ``bench/bench_ui.py`` measures (it finishes every frame the same way).
A GPU driver (the Raspberry Pi's v3d) is left alone. ``BOARDBANK_FINISH_FRAMES=1`` or ``0`` forces it.
"""

from __future__ import annotations

import logging
import os
from typing import Any

log = logging.getLogger(__name__)

SOFTWARE_RENDERERS: tuple[str, ...] = ("llvmpipe", "softpipe", "swrast", "software rasterizer")
"""Parts of ``GL_RENDERER`` (lower case) that name a renderer drawing on the CPU."""


def is_software(renderer: str) -> bool:
    """Whether the ``GL_RENDERER`` string names a software renderer ("llvmpipe (LLVM 15.0.6, 256 bits)")."""
    name = renderer.lower()
    return any(part in name for part in SOFTWARE_RENDERERS)


def renderer_name() -> str:
    """The current OpenGL context's ``GL_RENDERER`` ("" when it cannot be read)."""
    from kivy.graphics.opengl import GL_RENDERER, glGetString

    try:
        value = glGetString(GL_RENDERER)
    except Exception as exc:  # no context (a headless test): nothing to tune
        log.debug("GL_RENDERER unreadable: %s", exc)
        return ""
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value or "")


def finish_frames(window: Any, renderer: str | None = None) -> bool:
    """Bind ``glFinish`` after every swap of ``window`` when the renderer draws on the CPU (or
    ``BOARDBANK_FINISH_FRAMES=1``); returns whether it was bound."""
    forced = os.environ.get("BOARDBANK_FINISH_FRAMES", "")
    name = renderer_name() if renderer is None else renderer
    wanted = forced == "1" or (forced != "0" and is_software(name))
    if wanted:
        from kivy.graphics.opengl import glFinish

        window.bind(on_flip=lambda *_: glFinish())
        log.info("renderer %r: every frame is finished before the next (no queued frames)", name)
    return wanted
