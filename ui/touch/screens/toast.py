"""The short message over the screen: an error says why the prompt's step failed, a notice says something the
table should know (a game resumed, enrolment done). Where it goes, how it looks and how long it stays. Mixed into
the touch app (ui/touch/screens/root.py)."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock

from ui.touch.widgets import palette

TOAST_S = 3.0  # seconds a message stays on screen
KINDS: dict[str, palette.RGBA] = {"error": palette.DANGER, "notice": palette.NOTICE}
"""The band behind each kind of message: red for an error only; a notice is calm blue-grey."""


class ToastMixin:
    """The app's toast: ``self.root.ids.toast`` shown over the prompt line for :data:`TOAST_S` seconds."""

    root: Any
    presenter: Any
    _toast_ev: Any = None
    toast_kind: str = ""
    """The kind of the message shown (``error`` or ``notice``); "" when none is."""
    _toast_answerable = False
    """The message shown is the banker's refusal of a step (not the screen's own error, such as a name's
    undrawable characters): the next input the banker takes answers it."""

    def toast(self, text: str, kind: str = "error") -> None:
        """Show a short message over the screen: ``kind`` is ``error`` (red) or ``notice`` (neutral)."""
        if self.root is None:
            return
        label = self.root.ids.toast
        label.text = text
        label.band = KINDS.get(kind, palette.DANGER)
        self._place_toast(label)
        label.opacity = 1.0
        self.toast_kind, self._toast_answerable = kind, False
        if self._toast_ev is not None:
            self._toast_ev.cancel()
        self._toast_ev = Clock.schedule_once(lambda dt: self.clear_toast(), TOAST_S)

    def notice(self, text: str) -> None:
        """Show a notice (not an error): the same place, a neutral band."""
        self.toast(text, kind="notice")

    def clear_toast(self, kind: str | None = None) -> None:
        """Take the message away now (only if it is of ``kind``, when given)."""
        if self.root is None or (kind is not None and kind != self.toast_kind):
            return
        if self._toast_ev is not None:
            self._toast_ev.cancel()
            self._toast_ev = None
        self.root.ids.toast.opacity = 0.0
        self.toast_kind = ""

    def toast_reaction(self, reaction: Any) -> None:
        """The banker's reaction: its error as a toast; without one, if it took a tap, a button or an answer
        (not the clock's tick), the error toast shown before goes now, not seconds after the right card came."""
        error = getattr(reaction, "error", None)
        if error:
            params = getattr(reaction, "params", {}) or {}
            self.toast(self.presenter.text(error, tuple(params.items())))
            self._toast_answerable = True  # the banker refused a step: the right input answers it
            return
        cues = {str(cue) for cue in getattr(reaction, "cues", ())}
        controller = getattr(self, "controller", None)
        from_input = controller is not None and reaction is getattr(controller, "last_reaction", None)
        if self._toast_answerable and "err" not in cues and (from_input or cues):
            self.clear_toast("error")

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
