"""The one reader suite, run against every backend.

Backends come from ``harness.HARNESSES`` (mock, stdin, bridge) and from every ``harness_*.py`` module in
this folder that exposes ``HARNESSES = {"name": factory}`` (PN532, PC/SC). Every wait has a deadline.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import harness as h  # noqa: E402  (this folder is put on sys.path just above)

from reader import open_reader  # noqa: E402
from reader.base import Reader  # noqa: E402
from reader.debounce import DEFAULT_WINDOW_S  # noqa: E402
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderLost  # noqa: E402

pytestmark = pytest.mark.timeout(60)

CONNECT_S = 5.0  # seconds a backend may take to report ReaderConnected
EVENT_S = 5.0  # seconds a presentation may take to arrive (PC/SC through vpcd takes ~0.5 s)
LOST_S = 1.0  # seconds: ReaderLost must follow an unplug within this


def _broken(name: str, error: BaseException) -> h.HarnessFactory:
    def factory() -> contextlib.AbstractContextManager[h.Harness]:
        raise AssertionError(f"harness module for {name!r} failed to load: {error!r}")

    return factory


def collect_harnesses() -> dict[str, h.HarnessFactory]:
    """The built-in harnesses plus those of every ``harness_*.py`` module next to this file."""
    found: dict[str, h.HarnessFactory] = dict(h.HARNESSES)
    for path in sorted(HERE.glob("harness_*.py")):
        try:
            module = importlib.import_module(path.stem)
            found.update(module.HARNESSES)
        except Exception as exc:  # a broken module shows up as a failing backend, not a broken suite
            found[path.stem.removeprefix("harness_")] = _broken(path.stem, exc)
    return found


FACTORIES = collect_harnesses()


@pytest.fixture(params=sorted(FACTORIES))
def factory(request: pytest.FixtureRequest) -> h.HarnessFactory:
    return FACTORIES[request.param]  # a test may narrow the backends with parametrize(indirect=True)


@contextlib.contextmanager
def running(rig: h.Harness, sink: h.Sink) -> Iterator[Reader]:
    """Open and start the rig's reader into ``sink``; wait for ReaderConnected; stop it afterwards."""
    reader = open_reader(rig.url)
    reader.start(sink)
    try:
        h.wait_for(lambda: sink.of(ReaderConnected, reader.name), CONNECT_S, f"{rig.name} ReaderConnected")
        yield reader
    finally:
        reader.stop()


@pytest.fixture
def rig(factory: h.HarnessFactory) -> Iterator[tuple[h.Harness, Reader, h.Sink]]:
    sink = h.Sink()
    with factory() as harness, running(harness, sink) as reader:
        yield harness, reader, sink


def _lift(harness: h.Harness, sink: h.Sink, reader: Reader, removed_before: int) -> None:
    """Lift the card and wait until the reader would count a new presentation of the same card."""
    harness.remove()
    if harness.senses_removal:
        sink.wait_count(CardRemoved, removed_before + 1, EVENT_S, reader.name)
    else:
        time.sleep(getattr(harness, "suppression_window", DEFAULT_WINDOW_S) + 0.2)


UID_A = "04a22b1c5d6e80"  # 7 bytes, lower case on purpose: events carry the normalized form
UID_B = "DEADBEEF"


def test_a_presentation_is_exactly_one_tap_with_normalized_uid(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, reader, sink = rig
    harness.present(UID_A)
    taps = sink.wait_count(CardPresented, 1, EVENT_S)
    assert isinstance(taps[0], CardPresented)
    assert taps[0].uid == "04A22B1C5D6E80"
    assert taps[0].reader == reader.name


def test_a_card_left_on_the_reader_does_not_repeat(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, _reader, sink = rig
    harness.present(UID_B)
    sink.wait_count(CardPresented, 1, EVENT_S)
    sink.quiet(0.6)
    assert sink.taps() == [UID_B]


def test_lifted_and_presented_again_counts_again(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, reader, sink = rig
    harness.present(UID_B)
    sink.wait_count(CardPresented, 1, EVENT_S)
    _lift(harness, sink, reader, 0)
    harness.present(UID_B)
    sink.wait_count(CardPresented, 2, EVENT_S)
    assert sink.taps() == [UID_B, UID_B]


def test_removal_is_reported_where_sensed(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, reader, sink = rig
    harness.present(UID_A)
    sink.wait_count(CardPresented, 1, EVENT_S)
    harness.remove()
    if not harness.senses_removal:
        sink.quiet(0.5)
        assert sink.of(CardRemoved) == []
        return
    removed = sink.wait_count(CardRemoved, 1, EVENT_S)
    assert isinstance(removed[0], CardRemoved)
    assert (removed[0].uid, removed[0].reader) == ("04A22B1C5D6E80", reader.name)


def test_two_different_cards_in_a_row(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, _reader, sink = rig
    harness.present(UID_A)
    sink.wait_count(CardPresented, 1, EVENT_S)
    harness.remove()
    harness.present(UID_B)
    sink.wait_count(CardPresented, 2, EVENT_S)
    assert sink.taps() == ["04A22B1C5D6E80", UID_B]


# Backends that cannot be unplugged, and where their loss of the reader is tested instead.
NO_UNPLUG = {
    "stdin": "a pipe cannot be unplugged; its end of input gives ReaderLost (test_mock_stdin.py)",
    "pcsc": "vpcd readers cannot be removed; test_pcsc.py kills and restarts a private pcscd instead",
}


@pytest.mark.parametrize("name", sorted(NO_UNPLUG))
def test_backends_listed_as_not_unpluggable_really_are(name: str) -> None:
    with FACTORIES[name]() as harness:
        assert not harness.supports_unplug, f"{name} supports unplug now: remove it from NO_UNPLUG"


@pytest.mark.parametrize("factory", sorted(set(FACTORIES) - set(NO_UNPLUG)), indirect=True)
def test_unplug_is_lost_within_a_second_and_replug_resumes(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, reader, sink = rig
    assert harness.supports_unplug, f"{harness.name} cannot be unplugged: list it in NO_UNPLUG"
    harness.present(UID_A)
    sink.wait_count(CardPresented, 1, EVENT_S)
    _lift(harness, sink, reader, 0)
    unplugged_at = time.monotonic()
    harness.unplug()
    sink.wait_count(ReaderLost, 1, LOST_S + 0.5)
    lost_index = next(i for i, e in enumerate(sink.snapshot()) if isinstance(e, ReaderLost))
    assert sink.arrivals[lost_index] - unplugged_at <= LOST_S, "ReaderLost came later than 1 s after the unplug"
    connected_before = len(sink.of(ReaderConnected))
    harness.replug()
    sink.wait_count(ReaderConnected, connected_before + 1, CONNECT_S)
    harness.present(UID_B)
    sink.wait_count(CardPresented, 2, EVENT_S)
    sink.quiet(0.3)
    assert sink.taps() == ["04A22B1C5D6E80", UID_B]
    assert len(sink.of(ReaderLost)) == 1


def test_stop_is_idempotent_and_stops_events(rig: tuple[h.Harness, Reader, h.Sink]) -> None:
    harness, reader, sink = rig
    reader.stop()
    reader.stop()
    harness.present(UID_B)
    sink.quiet(0.4)
    assert sink.taps() == []


def test_several_readers_deliver_to_one_sink(factory: h.HarnessFactory) -> None:
    sink = h.Sink()
    with (
        factory() as first,
        factory() as second,
        running(first, sink) as reader1,
        running(second, sink) as reader2,
    ):
        assert reader1.name != reader2.name
        first.present(UID_A)
        second.present(UID_B)
        sink.wait_count(CardPresented, 2, EVENT_S)
        assert sink.taps(reader1.name) == ["04A22B1C5D6E80"]
        assert sink.taps(reader2.name) == [UID_B]


def test_every_design_backend_has_a_harness() -> None:
    assert {"mock", "stdin", "bridge"} <= set(FACTORIES)



# Backends on a device path: a path with nothing behind it must be a ReaderLost at once, with a reason.
DEVICE_PATH_URLS = {"bridge": "serial://{path}?baud=115200", "pn532": "pn532://{path}"}


@pytest.mark.parametrize("name", sorted(DEVICE_PATH_URLS))
def test_a_port_that_cannot_be_opened_is_reader_lost_at_once(name: str, tmp_path: Path) -> None:
    missing = str(tmp_path / "nonexistent")
    reader = open_reader(DEVICE_PATH_URLS[name].format(path=missing))
    sink = h.Sink()
    started = time.monotonic()
    reader.start(sink)
    try:
        lost = sink.wait_count(ReaderLost, 1, 1.0)
        assert sink.arrivals[0] - started < 1.0
        assert isinstance(lost[0], ReaderLost) and lost[0].reason and missing in lost[0].reason
        sink.quiet(0.5)  # once per outage, not once per retry
        assert [type(e) for e in sink.snapshot()] == [ReaderLost]
    finally:
        reader.stop()
