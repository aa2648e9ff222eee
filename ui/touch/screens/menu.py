"""The banker menu behind the PIN: the banker's own states ``pin``, ``menu`` and ``settings``.

``pin``: a masked keypad; OK sends the typed PIN as one answer (the banker checks it). ``menu``: undo,
settings, new game (each enabled by ``may_press_*``; Undo and New game in a game still open ask first: the
page ``confirm`` shows the banker's question, Yes presses ✓, No presses X), plus the UI's own settings (language, volume,
mute, the voice, the look: high contrast and large text, applied in place) and the readers' status. ``settings``: pick a banker setting, type its value, OK sends
``name=value`` (staged by the banker); each setting's button shows its value, and Save, the page's one
confirming button, sends what is typed and confirms (``press ok``).
"""

from __future__ import annotations

from kivy.properties import StringProperty

from ui.i18n import LANGUAGES
from ui.touch.screens.base import BankScreen
from ui.touch.screens.present import Presenter
from ui.touch.widgets import palette

BANKER_SETTINGS: tuple[str, ...] = ("timeout_s", "auction_s", "pin")
"""The settings the banker accepts as ``choose("name=value")``."""
PAGES: dict[str, str] = {"pin": "locked", "menu": "open", "settings": "settings"}


QUESTIONS: frozenset[str] = frozenset({
    "prompt.undo_bid", "prompt.undo_buy", "prompt.undo_rent", "prompt.undo_start", "prompt.undo_location",
    "prompt.undo_money", "prompt.undo_step_of", "prompt.undo_step", "prompt.undo_steps",
    "prompt.undo_auction_won", "prompt.undo_auction_unsold", "prompt.undo_bid_plain",
    "prompt.undo_building_auction_won", "prompt.undo_building_auction_unsold", "prompt.confirm_new_game"})
"""The banker's questions in its menu (engine/banker/undoing.py): ✓ does it, X drops it and the menu stays."""


def is_question(prompt_key: str) -> bool:
    """Whether the menu's prompt is one of the banker's :data:`QUESTIONS`."""
    return prompt_key in QUESTIONS


class MenuScreen(BankScreen):
    """Three pages, chosen by the banker's state."""

    setting = "timeout_s"
    setting_title = StringProperty("")
    """The caption over the settings keypad: the setting being typed."""

    def render(self, presenter: Presenter) -> None:
        app = self.app()
        view = presenter.view
        page = PAGES.get(view.state, "open")
        if view.state == "menu" and is_question(view.prompt.key):  # Undo and New game ask first
            page = "confirm"
            self.ids.question.text = presenter.prompt()
        self.ids.pages.current = page
        # the PIN is typed on this keypad and sent whole, so the banker's "digits typed" count stays 0
        self.ids.pin_message.text = presenter.tr("menu.enter_pin")
        self.ids.undo.disabled = not app.may("press_undo")
        self.ids.settings.disabled = not app.may("press_settings")
        self.ids.new_game.disabled = not app.may("press_new_game")
        status = app.controller.readers if app.controller else None
        lines = []
        for name, ok in sorted((status.connected if status else {}).items()):
            key = "reader.connected" if ok else "reader.lost"
            reason = status.reasons.get(name, "") if status else ""
            lines.append(f"{name}: {presenter.tr(key)}" + (f" ({reason})" if reason else ""))
        self.ids.readers.text = "\n".join(lines) if lines else presenter.tr("reader.none")
        self.ids.mute.text = presenter.tr("menu.unmute" if app.sounds.muted else "menu.mute")
        self.ids.volume.value = app.sounds.volume
        self.speech_row(presenter)
        self.look_row(presenter)
        for lang in LANGUAGES:
            self.ids[f"lang_{lang}"].state = "down" if lang == app.lang else "normal"
        extra = dict(view.extra)
        for name in BANKER_SETTINGS:
            button = self.ids[f"set_{name}"]
            button.state = "down" if name == self.setting else "normal"
            caption = presenter.tr(f"settings.{name}")
            value = extra.get(name)  # the banker shows timeout_s and auction_s (staged on this page); never the PIN
            button.text = presenter.tr("settings.current", name=caption, value=value) if value is not None else caption
        self.setting_title = presenter.tr(f"settings.{self.setting}")

    def speech_row(self, presenter: Presenter) -> None:
        """The voice's row: on/off and what it says unasked (hidden when the unit has no voice)."""
        voice, row = self.app().voice, self.ids.speech_row
        row.size_hint_y, row.opacity, row.disabled = (1, 1, False) if voice.available else (0.001, 0, True)
        self.ids.speech.text = presenter.tr("speech.on" if voice.on else "speech.off")
        for topic in ("payments", "turns"):
            button = self.ids[f"speech_{topic}"]
            button.text = presenter.tr(f"speech.{topic}")
            button.bg = palette.ACCENT if voice.on and topic in voice.topics else palette.PANEL_LIGHT
            button.disabled = not voice.on or not voice.available

    def look_row(self, presenter: Presenter) -> None:
        """The look's toggles: high contrast and large text, each saying on or off (ui/touch/screens/looks.py)."""
        app = self.app()
        for look, key in (("contrast", "menu.high_contrast"), ("large", "menu.large_text")):
            on = app.look_on(look)
            button = self.ids[f"look_{look}"]
            button.text = presenter.tr("settings.current", name=presenter.tr(key),
                                       value=presenter.tr("word.on" if on else "word.off"))
            button.bg = palette.ACCENT if on else palette.PANEL_LIGHT

    def send_pin(self, pin: str) -> None:
        """OK on the PIN pad: the banker checks the PIN."""
        if pin:
            self.app().choose(pin)

    def pick_setting(self, name: str) -> None:
        """Choose which banker setting the keypad sets (a value typed for the previous one is staged first)."""
        self.stage_typed()
        self.setting = name
        self.render(self.app().presenter)

    def stage_typed(self) -> bool:
        """Send the typed value as ``name=value`` (the banker stages it); False when the banker refused it."""
        pad = self.ids.settings_pad
        value, pad.value = pad.value, ""
        if not value:
            return True
        reaction = self.app().choose(f"{self.setting}={value}")
        return not getattr(reaction, "error", None)

    def save_settings(self) -> None:
        """Save: stage what is typed, then confirm the page (a refused value keeps the page open)."""
        if self.stage_typed():
            self.app().press("ok")

    def toggle_mute(self) -> None:
        """Mute or unmute the sounds (the UI's own setting)."""
        app = self.app()
        app.sounds.muted = not app.sounds.muted
        app.remember(muted=app.sounds.muted)
        self.render(app.presenter)

    def set_volume(self, value: float) -> None:
        """Set the volume (0.0-1.0) from the slider."""
        app = self.app()
        volume = max(0.0, min(1.0, float(value)))
        if volume != app.sounds.volume:
            app.sounds.volume = volume
            app.remember(volume=volume)
