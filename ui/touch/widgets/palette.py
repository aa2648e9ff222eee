"""Colours of the UI: the theme, token colours and deed colour bands (RGBA tuples, 0.0-1.0)."""

from __future__ import annotations

RGBA = tuple[float, float, float, float]

BACKGROUND: RGBA = (0.09, 0.11, 0.16, 1.0)
PANEL: RGBA = (0.15, 0.18, 0.25, 1.0)
PANEL_LIGHT: RGBA = (0.22, 0.26, 0.35, 1.0)
TEXT: RGBA = (0.95, 0.96, 0.98, 1.0)
MUTED: RGBA = (0.68, 0.72, 0.80, 1.0)
ACCENT: RGBA = (0.18, 0.62, 0.42, 1.0)
WARNING: RGBA = (0.90, 0.55, 0.15, 1.0)
DANGER: RGBA = (0.82, 0.22, 0.22, 1.0)
OK: RGBA = (0.22, 0.72, 0.40, 1.0)
NEUTRAL: RGBA = (0.36, 0.39, 0.46, 1.0)
"""Cancel, Back: leave the step, nothing changes (grey, lighter than an ordinary button)."""
DECLINE: RGBA = (0.70, 0.45, 0.10, 1.0)
"""Decline an offer (the deed goes to auction): amber, apart from Cancel's grey and an error's red."""
NOTICE: RGBA = (0.24, 0.34, 0.50, 1.0)
"""A notice's band (a game resumed, enrolment done): calm blue-grey, never the red of an error."""
HOUSE: RGBA = (0.30, 0.88, 0.42, 1.0)
"""A house on the classic board (a small green block on the colour band)."""
HOTEL: RGBA = (0.90, 0.16, 0.16, 1.0)
"""A hotel on the classic board (a red block)."""

TOKENS: dict[str, RGBA] = {
    "red": (0.86, 0.20, 0.20, 1.0),
    "green": (0.20, 0.70, 0.30, 1.0),
    "blue": (0.22, 0.45, 0.90, 1.0),
    "white": (0.92, 0.92, 0.92, 1.0),
    "yellow": (0.95, 0.80, 0.15, 1.0),
    "orange": (0.95, 0.55, 0.15, 1.0),
    "purple": (0.60, 0.35, 0.80, 1.0),
    "black": (0.30, 0.30, 0.32, 1.0),
    "pink": (0.93, 0.45, 0.70, 1.0),
    "cyan": (0.20, 0.75, 0.85, 1.0),
}
"""Token colours a player may take, by name (the view-model's ``PlayerView.token``)."""

DEED_COLOURS: dict[str, RGBA] = {
    "brown": (0.55, 0.33, 0.18, 1.0),
    "light_blue": (0.60, 0.82, 0.95, 1.0),
    "pink": (0.85, 0.30, 0.60, 1.0),
    "orange": (0.95, 0.58, 0.15, 1.0),
    "red": (0.88, 0.15, 0.15, 1.0),
    "yellow": (0.98, 0.90, 0.20, 1.0),
    "green": (0.15, 0.65, 0.30, 1.0),
    "dark_blue": (0.12, 0.25, 0.65, 1.0),
}

SPACE_KINDS: dict[str, RGBA] = {
    "go": (0.85, 0.25, 0.25, 1.0),
    "event": (0.55, 0.35, 0.85, 1.0),
    "location": (0.20, 0.65, 0.70, 1.0),
    "jail": (0.95, 0.55, 0.15, 1.0),
    "parking": (0.40, 0.70, 0.35, 1.0),
    "go_to_jail": (0.60, 0.20, 0.20, 1.0),
}


def norm(name: str | None) -> str:
    """``"Light blue"`` / ``"light-blue"`` -> ``"light_blue"``."""
    return (name or "").strip().lower().replace(" ", "_").replace("-", "_")


def token_rgba(token: str | None) -> RGBA:
    """The colour of a token name (grey for an unknown one)."""
    return TOKENS.get(norm(token), (0.5, 0.5, 0.5, 1.0))


def deed_rgba(colour: str | None) -> RGBA:
    """The colour band of a deed colour name (grey for an unknown one)."""
    return DEED_COLOURS.get(norm(colour), (0.5, 0.5, 0.5, 1.0))


def text_on(rgba: RGBA) -> RGBA:
    """Black or white, whichever reads better on ``rgba``."""
    r, g, b, _ = rgba
    return (0.05, 0.05, 0.05, 1.0) if 0.299 * r + 0.587 * g + 0.114 * b > 0.6 else TEXT


def mix(base: RGBA, over: RGBA) -> RGBA:
    """``over`` laid on ``base`` with ``over``'s alpha (one colour instead of two layers to draw)."""
    a = over[3]
    return (base[0] * (1 - a) + over[0] * a, base[1] * (1 - a) + over[1] * a,
            base[2] * (1 - a) + over[2] * a, base[3])
