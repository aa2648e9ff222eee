"""``pcsc://[NAME-SUBSTRING]``: contactless readers through PC/SC (pcscd + pyscard), e.g. an ACR122U.

The reader is the first PC/SC reader (in name order) whose name contains NAME-SUBSTRING, case-insensitive
and percent-decoded (``pcsc://`` alone takes the first reader, ``pcsc://ACR122`` an ACR122U,
``pcsc://Virtual%20PCD%2000%2001`` one exact virtual reader). Events carry the URL as the reader name and
the PC/SC name in :class:`~reader.events.ReaderConnected`'s ``info``.

How it works: pyscard's :class:`~smartcard.ReaderMonitoring.ReaderMonitor` (reader insertion/removal,
polled every half second) and :class:`~smartcard.CardMonitoring.CardMonitor` (card insertion/removal, from
``SCardGetStatusChange``) are process-wide singletons; one :class:`_Hub` observes both once for the
whole process and dispatches to the started readers, so ``stop()`` never waits on pyscard's threads.
On a card insertion the driver connects and sends GET DATA ``FF CA 00 00 00`` (PC/SC part 3); data with
SW ``90 00`` is the UID (4, 7 or 10 bytes), anything else is logged and dropped. A removal of that card
is a :class:`~reader.events.CardRemoved`. Removal of the reader (or of pcscd itself: pyscard then lists
no reader) is a :class:`~reader.events.ReaderLost`; its return a new ReaderConnected.

ACR122U: on connect the driver turns the reader's own beep off with ``FF 00 52 00 00`` (through a direct
connection and the CCID escape control code, or on the first card when that is refused), and
``cue()`` plays its LED/buzzer with the pseudo-APDU ``FF 00 40 P2 04 T1 T2 N B`` while a card is on the
reader (the ACR122U only takes pseudo-APDUs through a card connection unless pcscd's CCID driver allows
escape commands). Other readers have no cue: ``cue()`` does nothing.
"""

from __future__ import annotations

import logging
import sys
import threading
import time
from typing import Any
from urllib.parse import unquote

from reader.base import CUES, EventSink, ProbeResult, Reader, ReaderError
from reader.events import (
    CardPresented,
    CardRemoved,
    ReaderConnected,
    ReaderEvent,
    ReaderLost,
    UidError,
    normalize_uid,
)
from reader.pcsc_memory import CardMemory

log = logging.getLogger(__name__)

GET_UID = [0xFF, 0xCA, 0x00, 0x00, 0x00]
ACR122_BEEP_OFF = [0xFF, 0x00, 0x52, 0x00, 0x00]
ACR122_NAME = "ACR122"
SW_OK = (0x90, 0x00)
READER_POLL_S = 0.5
"""Seconds between pyscard's reader-list polls (ReaderMonitor ``period``)."""

# cue -> (P2 LED state control, T1, T2 in 100 ms units, repetitions, buzzer link) of FF 00 40
# P2 bits: 0 final red, 1 final green, 2 red mask, 3 green mask, 4/5 initial red/green blink state,
# 6/7 red/green blink mask. Buzzer: 0 off, 1 during T1, 2 during T2, 3 both.
_GREEN_BLINK = 0b1010_1000
_RED_BLINK = 0b0101_0100
ACR122_CUES: dict[str, tuple[int, int, int, int, int]] = {
    "tap": (_GREEN_BLINK, 1, 1, 1, 0x01),
    "ok": (_GREEN_BLINK, 2, 1, 1, 0x01),
    "err": (_RED_BLINK, 2, 2, 3, 0x01),
    "go": (_GREEN_BLINK, 4, 1, 1, 0x01),
    "cash": (_GREEN_BLINK, 1, 1, 2, 0x03),
}


def acr122_cue_apdu(kind: str) -> list[int]:
    """The ACR122U LED/buzzer pseudo-APDU for cue ``kind`` (one of :data:`reader.base.CUES`)."""
    if kind not in ACR122_CUES:
        raise ReaderError(f"unknown cue {kind!r}; expected one of {CUES}")
    p2, t1, t2, reps, buzzer = ACR122_CUES[kind]
    return [0xFF, 0x00, 0x40, p2, 0x04, t1, t2, reps, buzzer]


def _escape_code() -> int:
    """The CCID escape control code: ``SCARD_CTL_CODE(1)`` with pcsc-lite's libccid, 3500 on Windows."""
    return 3500 if sys.platform.startswith("win") else 1


def _safe_readers() -> list[Any]:
    """pyscard's reader list, or [] when pcscd does not answer (that reads as 'every reader left')."""
    from smartcard.System import readers

    try:
        return list(readers())
    except Exception as exc:  # EstablishContextException, ListReadersException...: no service
        log.debug("pcsc: no reader list: %s", exc)
        return []


class _Hub:
    """Observes pyscard's reader and card monitors once per process; dispatches to started readers."""

    _instance: _Hub | None = None
    _instance_lock = threading.Lock()

    def __init__(self) -> None:
        from smartcard.CardMonitoring import CardMonitor, CardObserver
        from smartcard.ReaderMonitoring import ReaderMonitor, ReaderObserver

        hub = self
        self._lock = threading.RLock()
        self._clients: list[PCSCReader] = []
        self._cards: list[Any] = []  # the cards pyscard reports present now (smartcard.Card.Card)

        class _Readers(ReaderObserver):  # type: ignore[misc]
            def update(self, observable: object, handlers: tuple[list[Any], list[Any]]) -> None:
                added, removed = handlers
                hub._readers_changed([str(r) for r in added], [str(r) for r in removed])

        class _Cards(CardObserver):  # type: ignore[misc]
            def update(self, observable: object, handlers: tuple[list[Any], list[Any]]) -> None:
                added, removed = handlers
                hub._cards_changed(added, removed)

        self._card_monitor = CardMonitor()
        self._card_observer = _Cards()
        self._reader_monitor = ReaderMonitor(readerProc=_safe_readers, period=READER_POLL_S)
        self._reader_observer = _Readers()
        self._reader_monitor.addObserver(self._reader_observer)
        self._card_monitor.addObserver(self._card_observer)

    @classmethod
    def get(cls) -> _Hub:
        with cls._instance_lock:
            if cls._instance is None:
                cls._instance = _Hub()
            return cls._instance

    def attach(self, client: PCSCReader) -> None:
        """Start dispatching to ``client``, after it has bound a reader and taken the cards present now.

        Runs under the hub's lock, the lock every dispatch holds, so no change slips in between.
        """
        with self._lock:
            self._clients.append(client)
            client._initial([str(r) for r in _safe_readers()], list(self._cards))

    def detach(self, client: PCSCReader) -> None:
        with self._lock:
            if client in self._clients:
                self._clients.remove(client)

    def _readers_changed(self, added: list[str], removed: list[str]) -> None:
        with self._lock:
            # a reader that left took its card along (pyscard's card thread may not say so)
            self._cards = [c for c in self._cards if str(c.reader) not in removed]
            for client in self._clients:
                client._on_readers_changed(added, removed)
            if added and removed == [] and self._card_thread_dead():
                self._restart_card_monitor()

    def _cards_changed(self, added: list[Any], removed: list[Any]) -> None:
        with self._lock:
            self._cards = [c for c in self._cards if c not in removed] + [c for c in added if c not in self._cards]
            for client in self._clients:
                client._on_cards_changed(added, removed)

    def _card_thread_dead(self) -> bool:
        """pyscard's card thread ends for good when pcscd goes away; true once that happened."""
        from smartcard.CardMonitoring import CardMonitoringThread

        instance = CardMonitoringThread.instance
        return instance is not None and not instance.is_alive()

    def _restart_card_monitor(self) -> None:
        """After pcscd came back: a fresh card thread reporting to the same monitor."""
        log.info("pcsc: restarting pyscard's card monitor after a loss of pcscd")
        from smartcard.CardMonitoring import CardMonitoringThread

        CardMonitoringThread.instance = None
        singleton = self._card_monitor.instance
        singleton.rmthread = CardMonitoringThread(singleton)


def monitored_cards() -> list[str]:
    """Names of the PC/SC readers that hold a card as pyscard's card monitor last reported ([] before
    any pcsc:// reader started). A card lifted and another with the same ATR put down before the
    monitor notices the lift is one insertion for pyscard; waiting for a reader to leave this list
    (tests do) avoids that."""
    hub = _Hub._instance
    if hub is None:
        return []
    with hub._lock:
        return sorted({str(card.reader) for card in hub._cards})


class PCSCReader(CardMemory, Reader):
    """A PC/SC reader chosen by name substring; see the module docstring."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        rest = url.split("://", 1)[1] if "://" in url else ""
        self.selector = unquote(rest.split("?", 1)[0]).strip("/").strip()
        self._lock = threading.RLock()
        self._sink: EventSink | None = None
        self._bound: str | None = None  # the PC/SC name of the reader in use
        self._card_uid: str | None = None
        self._connection: Any = None  # the open pyscard connection to the card on the reader
        self._beep_off_done = False
        self.counters: dict[str, int] = {"uid_errors": 0, "cue_errors": 0}

    # -------------------------------------------------------------- the contract

    def start(self, sink: EventSink) -> None:
        """Attach to the process-wide monitors; ReaderConnected (or ReaderLost) follows at once."""
        try:
            import smartcard  # noqa: F401
        except ImportError as exc:
            raise ReaderError(f"pcsc:// needs pyscard (pip install pyscard): {exc}") from exc
        with self._lock:
            if self._sink is not None:
                raise ReaderError(f"{self.url}: start() called twice")
            self._sink = sink
        _Hub.get().attach(self)

    def _initial(self, readers: list[str], cards: list[Any]) -> None:
        """Called once by the hub on start: bind a reader (or report none) and read a card lying there."""
        with self._lock:
            if self._sink is None or self._bound is not None:
                return
            if not self._bind(readers):
                self._emit(ReaderLost(self.url, time.monotonic(), f"no PC/SC reader matches {self.selector!r}"))
                return
            for card in cards:
                if str(card.reader) == self._bound:
                    self._read_card(card)

    def stop(self) -> None:
        """Detach from the monitors and release the card connection; idempotent, returns at once."""
        with self._lock:
            self._sink = None
            self._drop_connection()
            self._bound = None
            self._card_uid = None
        hub = _Hub._instance
        if hub is not None:
            hub.detach(self)

    def cue(self, kind: str) -> None:
        """On an ACR122U with a card on it: blink and beep for ``kind``; otherwise, or for a kind not in
        :data:`reader.base.CUES`, nothing (like every reader). I/O errors are counted, never raised."""
        with self._lock:
            if kind not in ACR122_CUES or not self.is_acr122 or self._connection is None:
                return
            self._transmit_quietly(acr122_cue_apdu(kind), "cue")

    @classmethod
    def list_devices(cls) -> list[str]:
        """``pcsc://<reader name>`` for every PC/SC reader pcscd lists now."""
        try:
            return [f"pcsc://{r}" for r in sorted(str(r) for r in _safe_readers())]
        except ImportError:
            return []

    @classmethod
    def probe(cls, url: str, timeout_s: float = 1.0) -> ProbeResult:
        """pcscd's reader list (:func:`reader.probes.probe_pcsc`); ok only if it has a reader this URL selects."""
        from reader.probes import probe_pcsc
        return probe_pcsc(cls(url), timeout_s)

    # -------------------------------------------------------------- helpers

    @property
    def is_acr122(self) -> bool:
        """True when the bound reader is an ACS ACR122U (it has an LED and a buzzer)."""
        return self._bound is not None and ACR122_NAME in self._bound.upper()

    def matches(self, name: str) -> bool:
        """True if the PC/SC reader ``name`` is selected by this URL."""
        return self.selector.lower() in name.lower()

    def _emit(self, event: ReaderEvent) -> None:
        sink = self._sink
        if sink is not None:
            sink(event)

    def _bind(self, names: list[str]) -> bool:
        """Take the first matching reader of ``names``; True if one was found."""
        for name in sorted(names):
            if self.matches(name):
                self._bound = name
                self._beep_off_done = False
                if self.is_acr122:
                    self._beep_off_direct()
                self._emit(ReaderConnected(self.url, time.monotonic(), info=name))
                return True
        return False

    def _on_readers_changed(self, added: list[str], removed: list[str]) -> None:
        with self._lock:
            if self._sink is None:
                return
            if self._bound is not None and self._bound in removed:
                name, uid = self._bound, self._card_uid
                self._drop_connection()
                self._bound, self._card_uid = None, None
                now = time.monotonic()
                if uid is not None:
                    self._emit(CardRemoved(uid, self.url, now))
                self._emit(ReaderLost(self.url, now, f"PC/SC reader removed: {name}"))
            if self._bound is None and added:
                self._bind(added)

    def _on_cards_changed(self, added: list[Any], removed: list[Any]) -> None:
        with self._lock:
            if self._sink is None or self._bound is None:
                return
            for card in removed:
                if str(card.reader) == self._bound and self._card_uid is not None:
                    uid, self._card_uid = self._card_uid, None
                    self._drop_connection()
                    self._emit(CardRemoved(uid, self.url, time.monotonic()))
            for card in added:
                if str(card.reader) == self._bound:
                    self._read_card(card)

    def _read_card(self, card: Any) -> None:
        """Connect to a new card, read its UID with FF CA, emit CardPresented (once per presentation:
        the card already reported on this reader is not reported again; another one ends it first)."""
        previous, self._card_uid = self._card_uid, None
        self._drop_connection()
        try:
            connection = card.createConnection()
            connection.connect()
            data, sw1, sw2 = connection.transmit(GET_UID)
        except Exception as exc:  # the card left during the exchange, or pcscd hiccupped
            self.counters["uid_errors"] += 1
            log.warning("pcsc %s: cannot read the UID: %s", self._bound, exc)
            self._ended(previous)
            return
        if (sw1, sw2) != SW_OK:
            self.counters["uid_errors"] += 1
            log.warning("pcsc %s: GET DATA (UID) answered SW %02X %02X, expected 90 00", self._bound, sw1, sw2)
            self._close(connection)
            self._ended(previous)
            return
        try:
            uid = normalize_uid(bytes(data).hex())
        except UidError as exc:
            self.counters["uid_errors"] += 1
            log.warning("pcsc %s: %s", self._bound, exc)
            self._close(connection)
            self._ended(previous)
            return
        self._connection, self._card_uid = connection, uid
        if self.is_acr122 and not self._beep_off_done:
            self._beep_off_done = self._transmit_quietly(ACR122_BEEP_OFF, "beep off")
        if uid == previous:
            return
        self._ended(previous)
        self._emit(CardPresented(uid, self.url, time.monotonic(), self._read_record(connection, uid)))

    def _ended(self, uid: str | None) -> None:
        """The presentation of ``uid`` (if any) is over: CardRemoved."""
        if uid is not None:
            self._emit(CardRemoved(uid, self.url, time.monotonic()))

    def _transmit_quietly(self, apdu: list[int], what: str) -> bool:
        """Send a pseudo-APDU on the card connection; True on SW 90 00, errors only counted and logged."""
        try:
            _data, sw1, sw2 = self._connection.transmit(apdu)
        except Exception as exc:
            self.counters["cue_errors"] += 1
            log.info("pcsc %s: %s failed: %s", self._bound, what, exc)
            return False
        if (sw1, sw2) != SW_OK:
            self.counters["cue_errors"] += 1
            log.info("pcsc %s: %s answered SW %02X %02X", self._bound, what, sw1, sw2)
            return False
        return True

    def _beep_off_direct(self) -> None:
        """Turn the ACR122U's own beep off without a card (direct connection + CCID escape)."""
        try:
            from smartcard.pcsc.PCSCReader import PCSCReader as ScardReader
            from smartcard.scard import SCARD_CTL_CODE, SCARD_SHARE_DIRECT

            connection = ScardReader(self._bound).createConnection()
            connection.connect(mode=SCARD_SHARE_DIRECT, disposition=0)
            try:
                response = connection.control(SCARD_CTL_CODE(_escape_code()), ACR122_BEEP_OFF)
            finally:
                self._close(connection)
            self._beep_off_done = list(response[-2:]) == [0x90, 0x00] or response == []
        except Exception as exc:  # escape commands are off in the CCID driver by default
            log.info("pcsc %s: beep off through a direct connection refused (%s); will use the first card", self._bound, exc)

    def _drop_connection(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            self._close(connection)

    @staticmethod
    def _close(connection: Any) -> None:
        try:
            connection.disconnect()
        except Exception as exc:  # the card or the reader is already gone
            log.debug("pcsc: disconnect: %s", exc)
