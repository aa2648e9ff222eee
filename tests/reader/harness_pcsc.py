"""The PC/SC harness of the one reader suite: pcscd with vsmartcard's two virtual readers.

``present(uid)`` connects a :class:`vcard.VirtualCard` with that UID to the harness's vpcd port,
``remove()`` closes it and waits until pcscd has seen the card leave (so a following ``present`` is a
new insertion, not a card swap pcscd might never notice). Two harnesses can run at once (the suite's
two-reader test): each takes one of the two virtual readers, with a lock that also keeps other test
processes on this machine off it. A vpcd reader cannot be unplugged (its driver is loaded from
reader.conf and pcscd does not remove serial readers on a hotplug rescan; restarting the shared pcscd
would be slow and would disturb every other PC/SC user), so ``supports_unplug`` is False here; ``test_pcsc.py`` tests reader loss with a private pcscd instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pcscd import require_pcscd
from vcard import VPCD_READERS, VirtualCard, claim_port, wait_card_state


class PcscHarness:
    """One vpcd reader and the virtual card on it."""

    name = "pcsc"
    senses_removal = True
    supports_unplug = False

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader = VPCD_READERS[port]
        self.url = f"pcsc://{self.reader}"
        self.card: VirtualCard | None = None

    def present(self, uid: str) -> None:
        if self.card is not None:
            self.remove()
        self.card = VirtualCard(uid, self.port)
        self.card.insert()

    def remove(self) -> None:
        card, self.card = self.card, None
        if card is not None:
            card.remove()
            wait_card_state(self.reader, present=False)

    def unplug(self) -> None:
        """A vpcd reader cannot be unplugged (supports_unplug is False)."""

    def replug(self) -> None:
        """A vpcd reader cannot be unplugged (supports_unplug is False)."""


@contextlib.contextmanager
def pcsc_harness() -> Iterator[PcscHarness]:
    require_pcscd()
    with claim_port() as port:
        rig = PcscHarness(port)
        try:
            wait_card_state(rig.reader, present=False)  # a previous test's card has left
            yield rig
        finally:
            rig.remove()


HARNESSES = {"pcsc": pcsc_harness}
