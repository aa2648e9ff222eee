"""The cards side of the app: the mock card tray, enrolment on the setup screen, and deed spaces touched
on the board in place of a lost card. A mixin of :class:`ui.touch.screens.root.BoardBankApp`; it only moves
cards to the reader or the registry, the banker decides what a tap means."""

from __future__ import annotations

import logging

from engine.banker.viewmodel import ViewModel
from ui.touch.screens.enrol import Enrolment
from ui.touch.widgets import palette

log = logging.getLogger(__name__)

VIRTUAL_DEED_PREFIX = "FD0000"
"""UIDs of the virtual deed cards made when a deed space is touched and no card holds that deed."""
KIND_ORDER = {"player": 0, "deed": 1, "event": 2, "banker": 3}
"""The order of the cards on the tray."""


class CardsMixin:
    """Tray, enrolment and lost deed cards; expects the app's ``session``, ``controller``, ``presenter``,
    ``sounds``, ``t``, ``toast``, ``notice``, ``render`` and ``root``."""

    enrolment: Enrolment | None
    _next_blank: int

    def tap_card(self, card_uid: str) -> None:
        """The tray: tap ``card_uid`` on the mock reader (it comes back as a reader event)."""
        from reader import mock

        for url in self.session.mock_urls:
            mock.present(url, card_uid)
            mock.remove(url)

    def touch_deed(self, deed: int) -> None:
        """A deed space on the board: what tapping its deed card does (for a lost card).

        A deed with no enrolled card gets a virtual one (``FD0000nn``) so the banker can be asked.
        """
        registry = self.session.registry if self.session is not None else None
        if registry is None or self.controller is None:
            self.sounds.play("err")
            self.toast(self.t("error.no_deed_card", deed=self.presenter.deed_name(deed)))
            return
        card_uid = registry.holder("deed", deed)
        if card_uid is None:
            card_uid = f"{VIRTUAL_DEED_PREFIX}{deed:02X}"
            registry.enroll(card_uid, "deed", deed, replace=True)
            log.info("deed %d has no card: enrolled the virtual card %s", deed, card_uid)
        self.controller.tap(card_uid)  # an open board stays open: its centre shows what the banker says

    # -- card enrolment (setup) -----------------------------------------------------------------------
    def start_enrolment(self) -> None:
        """Enrol the box's cards: each tap gives the next role (bank cards, deeds, events, banker)."""
        if self.session is None or self.session.registry is None:
            return
        names: dict[tuple[str, int | None], str] = {}
        for space in self.presenter.view.board:
            if space.deed is not None:
                names[("deed", space.deed)] = space.name
        enrolment = Enrolment(self.session.registry, names, edition=self.presenter.view.edition or None)
        if enrolment.done:
            self.notice(self.t("enroll.done"))
        else:
            self.enrolment = enrolment
        self.render(self.presenter.view)

    def skip_enrolment(self) -> None:
        """Leave the current role without a card."""
        if self.enrolment is not None:
            self.enrolment.skip()
            if self.enrolment.done:
                self.enrolment = None
            self.render(self.presenter.view)

    def stop_enrolment(self) -> None:
        """End the enrolment; taps go to the banker again."""
        self.enrolment = None
        self.render(self.presenter.view)

    def _enrol_tap(self, card_uid: str) -> bool:
        if self.enrolment is None:
            return False
        if self.enrolment.offer(card_uid):
            self.sounds.play("ok")
            if self.enrolment.done:
                self.enrolment = None
        else:
            self.sounds.play("err")
            self.toast(self.t("error.enrol", uid=card_uid))
        self.render(self.presenter.view)
        return True

    def tap_blank_card(self) -> None:
        """The tray's blank card: a new card UID (not enrolled yet) is tapped on the mock reader."""
        registry = self.session.registry if self.session is not None else None
        while True:
            card_uid = f"CA{self._next_blank:06X}"
            self._next_blank += 1
            if registry is None or registry.lookup(card_uid) is None:
                break
        self.tap_card(card_uid)

    def update_tray(self, view: ViewModel) -> None:
        """Show the registry's cards on the tray (only with a mock reader)."""
        if not self.show_tray or self.session is None or self.session.registry is None:
            return
        players, others = [], []
        for card in sorted(self.session.registry.cards(), key=lambda c: (KIND_ORDER.get(c.kind, 4), c.value or 0)):
            if card.kind == "player":
                p = self.presenter.player(f"p{card.value}")
                caption = self.presenter.player_name(p.id) if p else self.t("card.player", number=card.value)
                rgba = palette.token_rgba(p.token) if p else palette.TOKENS["white"]
            elif card.kind == "deed":
                space = self.presenter.space_for_deed(card.value)
                caption = self.presenter.deed_name(card.value)
                rgba = palette.deed_rgba(space.colour if space else None)
            elif card.kind == "event":
                caption = self.t("card.event", number=card.value)
                rgba = palette.SPACE_KINDS["event"]
            else:
                caption = self.t("card.banker")
                rgba = palette.WARNING
            (players if card.kind == "player" else others).append((card.uid, caption, rgba))
        self.root.ids.tray.show(players, others, self.t("card.blank") if self.enrolment is not None else None)
