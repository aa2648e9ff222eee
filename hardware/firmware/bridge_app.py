# MicroPython code: %-formatting and explicit loops are kept on purpose (small, fast on the Pico).
# ruff: noqa: UP031
"""The bridge firmware's logic, free of hardware: protocol v2 in, card reports out.

main.py wires this to the Pico's USB serial, the MFRC522, the buzzer and the LED; the simulator
(firmware_sim/bridge.py) wires it to a pseudo-terminal. Everything the host can observe of the firmware
is decided here, so the simulator is the executable spec (hardware/protocol.md).

Runs under MicroPython and CPython: no typing, no dataclasses, %-formatting.
"""

import protocol as _p

FIRMWARE_VERSION = "2.0.0"
DEVICE_KIND = "bridge"
MISSES_FOR_GONE = 3  # consecutive empty polls (of about 30 ms each) before a card counts as lifted
REPEAT_POLLS = 4  # polls (about 120 ms) between repeats of a TAP the host has not acknowledged
# the public MIFARE Classic keys MREAD / MWRITE name (hardware/protocol.md): no key crosses the wire
CLASSIC_KEYS = {
    "M": b"\xa0\xa1\xa2\xa3\xa4\xa5",  # the MAD's key A (NXP AN10787)
    "N": b"\xd3\xf7\xd3\xf7\xd3\xf7",  # the NFC Forum NDEF sectors' key A (NXP AN1304)
    "T": b"\xff\xff\xff\xff\xff\xff",  # a new card's transport key
}


class BridgeApp:
    """Reacts to host frames and card polls; ``send(bytes)`` writes to the host.

    ``beep(kind)`` and ``led(colour)`` drive the buzzer and the LED (no-ops by default).
    ``counters`` holds frames_in, frames_out, bad_frames, unknown_verbs, overlong, taps, gones, beeps,
    repeats (TAPs sent again for want of an ACK), acks (ACKs that ended the repeats).

    A TAP is repeated every REPEAT_POLLS polls (or :meth:`repeat_tap` calls) until the host answers
    ``ACK <uid>`` or the card is lifted, so a TAP damaged on the way is not a lost tap.
    """

    def __init__(self, send, beep=None, led=None, version=FIRMWARE_VERSION, memory=None, classic=None):
        self.send = send
        self.beep = beep
        self.led = led
        self.memory = memory  # memory(op, uid, page, data): "read" -> 16 bytes, "write" -> True; None: failed
        self.classic = classic  # classic(op, uid, block, key_b, key, data): the same for a MIFARE Classic
        self.version = version
        self.splitter = _p.Splitter()
        self.card = None  # the UID (upper-case hex) on the reader, or None
        self.misses = 0
        self.unacked = None  # the UID whose TAP the host has not acknowledged yet, or None
        self.since_tap = 0  # polls since that TAP was (last) sent
        self.corrupt_next = False  # fault injection: the next frame goes out with a wrong checksum
        self.last_card_frame = b""
        self.counters = {
            "frames_in": 0, "frames_out": 0, "bad_frames": 0, "unknown_verbs": 0,
            "overlong": 0, "taps": 0, "gones": 0, "beeps": 0, "repeats": 0, "acks": 0,
        }

    # ------------------------------------------------------------------ output

    def frame(self, verb, args=()):
        """Encode and send one frame (with a wrong checksum if a fault was asked for); return it."""
        data = _p.encode(verb, args)
        if self.corrupt_next:
            self.corrupt_next = False
            # flip the low bit of the CRC's last hex digit: still hex, now wrong
            last = data[-2]
            swapped = b"0123456789ABCDEF"[(b"0123456789ABCDEF".index(bytes([last])) ^ 1)]
            data = data[:-2] + bytes([swapped]) + b"\n"
        self.counters["frames_out"] += 1
        self.send(data)
        return data

    def boot(self):
        """Announce ourselves: HELLO bridge <protocol version> <firmware version>, then our card state.

        The state report is ``TAP <uid>`` right after the HELLO if a card lies on the reader, ``EMPTY``
        otherwise, so a host that reconnects learns what is there without counting it as a new tap, and
        a card put down just after the HELLO is never taken for the state report.
        """
        self.frame("HELLO", (DEVICE_KIND, _p.PROTOCOL_VERSION, self.version))
        if self.card is not None:
            self.send_tap()
        else:
            self.frame("EMPTY")
        if self.led is not None:
            self.led("blue")

    def error(self, code, text):
        self.frame("ERR", (code, text) if text else (code,))

    # ------------------------------------------------------------------ cards

    def card_seen(self, uid):
        """A poll found card ``uid``: TAP it if it is new (a swapped card first gets its GONE)."""
        self.misses = 0
        if uid == self.card:
            return
        if self.card is not None:
            self.card_absent()
        self.card = uid
        self.counters["taps"] += 1
        self.send_tap()

    def send_tap(self):
        """TAP the card on the reader; it is repeated until the host acknowledges it."""
        self.unacked = self.card
        self.since_tap = 0
        self.last_card_frame = self.frame("TAP", (self.card,))

    def tick(self):
        """One poll period passed with the card still there: repeat its TAP every REPEAT_POLLS if unacknowledged."""
        if self.unacked is None:
            return False
        self.since_tap += 1
        if self.since_tap < REPEAT_POLLS:
            return False
        return self.repeat_tap()

    def repeat_tap(self):
        """Send the TAP again if the host has not acknowledged it; True if it was sent."""
        if self.unacked is None or self.unacked != self.card:
            return False
        self.counters["repeats"] += 1
        self.send_tap()
        return True

    def card_absent(self):
        """The card left: GONE <uid>."""
        self.misses = 0
        if self.card is None:
            return
        uid, self.card = self.card, None
        self.unacked = None
        self.counters["gones"] += 1
        self.last_card_frame = self.frame("GONE", (uid,))

    def poll(self, uid):
        """One poll's result (a UID or None); a card counts as lifted after MISSES_FOR_GONE empty polls."""
        if uid is not None:
            if uid == self.card:
                self.misses = 0
                self.tick()  # the same card still there: count towards repeating its TAP
            else:
                self.card_seen(uid)
            return
        if self.card is not None:
            self.misses += 1
            if self.misses >= MISSES_FOR_GONE:
                self.card_absent()

    # ------------------------------------------------------------------ input

    def card_memory(self, verb, args):
        """READ uid page: DATA uid page <4 pages in hex>; WRITE uid page <4 bytes in hex>: DONE uid page;
        ERR 6 when the card is not on the reader or refuses (hardware/protocol.md, card memory)."""
        uid, page = args[0], int(args[1])
        if len(uid) > 14:  # a 10-byte UID is no NTAG, and its DATA frame would not fit 64 bytes
            self.error(_p.E_MEMORY, "%s: no NTAG" % verb)
            return
        if verb == "READ":
            data = self.memory("read", uid, page, None)
            if data is not None and len(data) == 16:
                self.frame("DATA", (uid, page, "".join("%02X" % b for b in data)))
                return
        else:
            data = bytes(int(args[2][i:i + 2], 16) for i in range(0, 8, 2))
            if self.memory("write", uid, page, data):
                self.frame("DONE", (uid, page))
                return
        self.error(_p.E_MEMORY, "%s %s %d failed" % (verb, uid, page))

    def classic_memory(self, verb, args):
        """MREAD uid block key: DATA uid block <16 bytes in hex>; MWRITE uid block key <16 bytes in hex>:
        DONE uid block; ``key`` A or B then M, N or T (CLASSIC_KEYS); ERR 6 when it fails."""
        uid, block, key = args[0], int(args[1]), args[2] if len(args) > 2 else ""
        secret = CLASSIC_KEYS.get(key[1:]) if len(key) == 2 and key[0] in "AB" else None
        if secret is None or block > 63 or len(uid) != 8 or (verb == "MWRITE" and len(args) < 4):
            self.error(_p.E_MEMORY, "%s: no such block or key" % verb)
            return
        if verb == "MREAD":
            data = self.classic("read", uid, block, key[0] == "B", secret, None)
            if data is not None and len(data) == 16:
                self.frame("DATA", (uid, block, "".join("%02X" % b for b in data)))
                return
        else:
            data = bytes(int(args[3][i:i + 2], 16) for i in range(0, 32, 2))
            if self.classic("write", uid, block, key[0] == "B", secret, data):
                self.frame("DONE", (uid, block))
                return
        self.error(_p.E_MEMORY, "%s %s %d failed" % (verb, uid, block))

    def feed(self, data):
        """Bytes from the host: answer every complete frame."""
        overlong = self.splitter.overlong
        for line in self.splitter.feed(data):
            self.handle(line)
        if self.splitter.overlong > overlong:
            self.counters["overlong"] += self.splitter.overlong - overlong
            self.error(_p.E_OVERLONG, "overlong line")

    def handle(self, line):
        """Act on one candidate frame from the host."""
        try:
            verb, args = _p.decode(line)
        except _p.ProtocolError as exc:
            self.counters["bad_frames"] += 1
            if exc.kind == "checksum":
                self.error(_p.E_CHECKSUM, "bad checksum")
            elif exc.kind == "overlong":
                self.error(_p.E_OVERLONG, "overlong line")
            else:
                self.error(_p.E_BAD_ARGS, "bad frame")
            return
        self.counters["frames_in"] += 1
        if verb == "PING":
            self.frame("PONG", (args[0],))
        elif verb == "VER?":
            self.boot()
        elif verb == "BEEP":
            self.counters["beeps"] += 1
            if self.beep is not None:
                self.beep(args[0])
        elif verb == "LED":
            if self.led is not None:
                self.led(args[0])
        elif verb == "ACK":
            if args[0] == self.unacked:
                self.unacked = None
                self.counters["acks"] += 1
        elif verb in ("READ", "WRITE") and self.memory is not None:
            self.card_memory(verb, args)
        elif verb in ("MREAD", "MWRITE") and self.classic is not None:
            self.classic_memory(verb, args)
        else:
            self.counters["unknown_verbs"] += 1
            self.error(_p.E_UNKNOWN_VERB, "unknown verb %s" % verb[:24])
