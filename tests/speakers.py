"""A stand-in speaker for the table's voice (ui/story/speech.py's ``Speaker`` as TableVoice uses it): it keeps
what it was asked to say, and ``<hush>`` where it was told to stop, instead of speaking."""

from __future__ import annotations


class Said:
    """Records each text said (and ``<hush>``) in ``texts``; speaks in ``lang``; no sink."""

    def __init__(self) -> None:
        self.texts: list[str] = []
        self.lang = "en"
        self.sink = None

    def say(self, text: str) -> None:
        self.texts.append(text)

    def hush(self) -> None:
        self.texts.append("<hush>")

    def close(self, timeout_s: float) -> bool:
        return True
