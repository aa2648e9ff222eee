"""The short message over the screen (an error says why the prompt's step failed): where it goes and how long
it stays. Mixed into the touch app (ui/touch/screens/root.py)."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock

TOAST_S = 3.0  # seconds an error stays on screen


class ToastMixin:
    """The app's toast: ``self.root.ids.toast`` shown over the prompt line for :data:`TOAST_S` seconds."""

    root: Any
    _toast_ev: Any = None

    def toast(self, text: str) -> None:
        """Show a short message over the screen (errors)."""
        if self.root is None:
            return
        label = self.root.ids.toast
        label.text = text
        self._place_toast(label)
        label.opacity = 1.0
        if self._toast_ev is not None:
            self._toast_ev.cancel()
        self._toast_ev = Clock.schedule_once(lambda dt: setattr(label, "opacity", 0.0), TOAST_S)

    def _place_toast(self, label: Any) -> None:
        """Over the current screen's prompt line (the error says why the prompt's step failed), else at the
        top bar (the banker menu): never over the buttons."""
        screen = self.root.ids.sm.current_screen
        prompt = screen.ids.get("prompt") if screen is not None else None
        parent = label.parent
        if parent is None:
            return
        target = prompt if prompt is not None and prompt.width >= 200 else self.root.ids.bar  # menu: the bar
        x, y = parent.to_widget(*target.to_window(target.x, target.y))
        label.pos_hint, label.size_hint = {}, (None, None)
        label.pos, label.size = (x, y), (target.width, max(target.height, self._toast_height))

    @property
    def _toast_height(self) -> float:
        from kivy.metrics import dp

        return float(dp(44))
