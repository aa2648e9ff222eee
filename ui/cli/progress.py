"""A one-line progress bar for the long commands (``boardbank sim``, ``sim --compare``) on a terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import TextIO


def progress_bar(stream: TextIO) -> Callable[[int, int], None] | None:
    """A one-line progress bar on ``stream`` when it is a terminal (None otherwise)."""
    if not stream.isatty():
        return None

    def show(done: int, total: int) -> None:
        if done == total or done % max(1, total // 200) == 0:
            filled = 30 * done // max(1, total)
            stream.write(f"\r[{'#' * filled}{'.' * (30 - filled)}] {done}/{total} games")
            if done == total:
                stream.write("\n")
            stream.flush()

    return show
