"""The NDEF record that names a card (ui/cardrecord.py, hardware/cards.md "What a card says"), and what a
tap resolves to: the registry first, the record where the registry has nothing, both named when they
disagree."""

from __future__ import annotations

import ndef
import pytest
from hypothesis import given
from hypothesis import strategies as st

from reader.registry import KIND_LIMITS, CardRegistry
from ui.cardrecord import RECORD_TYPE, CardRecord, CardRecordError, decode, encode, record_for, resolve


def test_the_documented_bytes() -> None:
    """hardware/cards.md: one MIME record, type application/vnd.boardbank.card, payload '1 EDITION KIND N'."""
    message = encode(record_for("classic-uk", "deed", 3))
    assert message == bytes([0xD2, len(RECORD_TYPE), 19]) + RECORD_TYPE.encode() + b"1 classic-uk deed 3"
    assert encode(record_for("classic-uk", "player", 2)).endswith(b"1 - player 2")
    assert encode(record_for("ultimate-ru", "banker", None)).endswith(b"1 - banker")
    assert len(encode(record_for("ultimate-uk", "event", 23))) < 144 - 3  # fits an NTAG213 with its TLV


@given(st.sampled_from(["deed", "event", "player"]), st.integers(1, 8), st.sampled_from(["ultimate-uk", "classic-ru"]))
def test_round_trip(kind: str, number: int, edition: str) -> None:
    record = record_for(edition, kind, min(number, KIND_LIMITS[kind] or number))
    assert decode(encode(record)) == record


def test_other_apps_records_and_garbage() -> None:
    url = b"".join(ndef.message_encoder([ndef.UriRecord("https://example.org")]))
    assert decode(url) is None
    assert decode(b"\x00\x01garbage") is None
    bad = b"".join(ndef.message_encoder([ndef.Record(RECORD_TYPE, "", b"1 classic-uk deed 99")]))
    with pytest.raises(CardRecordError):
        decode(bad)


def test_resolution() -> None:
    registry = CardRegistry.in_memory()
    registry.enroll("00000103", "deed", 3)
    deed3, deed16 = encode(record_for("ultimate-uk", "deed", 3)), encode(record_for("ultimate-uk", "deed", 16))
    assert resolve("00000103", None, registry, "ultimate-uk").role == ("deed", 3)  # known: no read needed
    assert resolve("00000103", deed3, registry, "ultimate-uk").source == "registry"
    lie = resolve("00000103", deed16, registry, "ultimate-uk")
    assert lie.role is None and lie.refusal == "error.sticker_disagrees"
    assert dict(lie.params) == {"uid": "00000103", "kind_key": "cardrole.deed", "number": "16",
                                "known_kind_key": "cardrole.deed", "known_number": "3"}
    claim = resolve("04AA0000000001", deed3, registry, "ultimate-uk")  # another sticker claims deed 3
    assert claim.refusal == "error.sticker_role_taken" and dict(claim.params)["holder"] == "00000103"
    new = resolve("00000116", deed16, registry, "ultimate-uk")
    assert new.role == ("deed", 16) and new.source == "record" and registry.lookup("00000116") == ("deed", 16)
    other = resolve("00000999", encode(record_for("classic-us", "deed", 5)), registry, "ultimate-uk")
    assert other.refusal == "error.sticker_other_edition"
    shared = resolve("04AA0000000002", encode(record_for("classic-us", "player", 1)), registry, "ultimate-uk")
    assert shared.role == ("player", 1)  # bank cards serve every edition
    assert resolve("00000777", None, registry, "ultimate-uk") == resolve("00000777", b"", registry, "ultimate-uk")
    assert CardRecord("-", "banker", None).label() == "banker"


def test_the_touch_controller_resolves_records_before_the_banker() -> None:
    """ui/touch/screens/router.py's Controller with ui/cardrecord.card_resolver (as root.py wires it): a record
    contradicting the registry is refused on the screen (the err cue, both named) and the banker never sees
    the tap; a card known only by its record is enrolled and tapped."""
    from types import SimpleNamespace

    from engine.banker.viewmodel import Cue
    from reader.events import CardPresented
    from ui.cardrecord import card_resolver
    from ui.touch.screens.router import Controller

    registry = CardRegistry.in_memory()
    registry.enroll("00000103", "deed", 3)
    taps: list[str] = []
    banker = SimpleNamespace(view=SimpleNamespace(prompt="prompt", edition="ultimate-uk"),
                             tap=lambda uid: taps.append(uid) or "tapped")
    reactions: list[object] = []
    controller = Controller(banker, reactions.append, lambda f: f())  # type: ignore[arg-type]
    controller.resolve = card_resolver(banker, registry)
    lie = encode(record_for("ultimate-uk", "deed", 3))
    controller.reader_sink(CardPresented("04BADBADBADBAD", "mock://", 0.0, lie))
    refusal = reactions[-1]
    assert refusal.error == "error.sticker_role_taken" and refusal.cues == (Cue.ERROR,)
    assert refusal.params == {"uid": "04BADBADBADBAD", "kind_key": "cardrole.deed", "number": "3",
                              "holder": "00000103"}
    assert taps == []
    controller.reader_sink(CardPresented("00000116", "mock://", 0.0, encode(record_for("ultimate-uk", "deed", 16))))
    assert taps == ["00000116"] and registry.lookup("00000116") == ("deed", 16)
