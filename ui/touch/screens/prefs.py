"""The UI settings the app keeps for the family (language, volume, mute, the voice's choices): written to the
installation's settings half a second after the last change, so a dragged slider writes once, and at stop."""

from __future__ import annotations

import logging
from typing import Any

from kivy.clock import Clock

log = logging.getLogger(__name__)
SAVE_DELAY_S = 0.5  # seconds after the last change of a UI setting before it is written


class PrefsMixin:
    """``remember`` and ``save_settings`` of the app (``session.settings`` is the store; none: nothing kept)."""

    session: Any
    _unsaved: dict[str, object]
    _save_trigger: Any

    def remember(self, **values: object) -> None:
        """Keep UI settings (``lang``, ``volume``, ``muted``) in the installation's settings: written half a
        second after the last change (a dragged slider writes once), and at stop."""
        if getattr(self.session, "settings", None) is None:
            return
        self._unsaved.update(values)
        if self._save_trigger is None:
            self._save_trigger = Clock.create_trigger(lambda _dt: self.save_settings(), SAVE_DELAY_S)
        self._save_trigger()

    def save_settings(self) -> None:
        """Write the UI settings changed since the last write (a failed write is logged)."""
        store = getattr(self.session, "settings", None)
        values, self._unsaved = self._unsaved, {}
        if store is None or not values:
            return
        try:
            store.save(values)
        except OSError as exc:
            log.warning("the UI settings were not saved: %s", exc)

