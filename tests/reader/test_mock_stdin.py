"""mock:// and stdin:// beyond the shared suite: their own options and error handling."""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from harness import Sink, wait_for

from reader import mock, open_reader
from reader.base import ReaderError
from reader.events import CardPresented, CardRemoved, ReaderConnected, ReaderLost, UidError
from reader.mock import MockReader
from reader.stdin import StdinReader


def kinds(sink: Sink) -> list[tuple[str, str]]:
    return [(type(e).__name__, getattr(e, "uid", "")) for e in sink.snapshot()]


def test_mock_present_delivers_synchronously_and_in_order() -> None:
    r = MockReader("mock://tray", clock=lambda: 7.0)
    sink = Sink()
    r.start(sink)
    r.present("de:ad:be:ef")
    r.present("DEADBEEF")  # the same card again: a new presentation (the old one is lifted first)
    r.tap("04A22B1C")
    assert kinds(sink) == [
        ("ReaderConnected", ""),
        ("CardPresented", "DEADBEEF"),
        ("CardRemoved", "DEADBEEF"),
        ("CardPresented", "DEADBEEF"),
        ("CardRemoved", "DEADBEEF"),
        ("CardPresented", "04A22B1C"),
        ("CardRemoved", "04A22B1C"),
    ]
    assert {e.t for e in sink.snapshot()} == {7.0}
    r.stop()


def test_mock_rejects_a_bad_uid_and_a_second_start() -> None:
    r = MockReader("mock://x")
    r.start(Sink())
    with pytest.raises(UidError, match="'xyz'"):
        r.present("xyz")
    with pytest.raises(UidError):
        mock.present("mock://x", "12")
    with pytest.raises(ReaderError, match="already started"):
        r.start(Sink())
    r.stop()
    r.stop()


def test_mock_by_url_reaches_started_readers_only() -> None:
    sink = Sink()
    r = open_reader("mock://by-url")
    assert mock.present("mock://by-url", "04A22B1C") == 0  # not started yet
    r.start(sink)
    assert mock.live("mock://by-url") == [r]
    assert mock.present("mock://by-url", "04A22B1C") == 1
    mock.unplug("mock://by-url")
    mock.present("mock://by-url", "DEADBEEF")  # unplugged: nothing
    mock.replug("mock://by-url")
    r.stop()
    assert mock.live("mock://by-url") == []
    assert [type(e) for e in sink.snapshot()] == [ReaderConnected, CardPresented, ReaderLost, ReaderConnected]


def test_mock_records_cues() -> None:
    r = MockReader()
    r.start(Sink())
    r.cue("ok")
    r.cue("err")
    assert r.cues == ["ok", "err"]
    r.stop()


def test_stdin_reads_a_text_stream_and_reports_bad_lines() -> None:
    errors = io.StringIO()
    stream = io.StringIO("# a comment\n\ntap 04 a2 2b 1c\nremove\nDEADBEEF\nbogus line here\ntap 12\nremove\n")
    r = StdinReader("stdin://", stream=stream, errors=errors)
    sink = Sink()
    r.start(sink)
    wait_for(lambda: sink.of(ReaderLost), 5.0, "end of input")
    r.stop()
    assert kinds(sink) == [
        ("ReaderConnected", ""),
        ("CardPresented", "04A22B1C"),
        ("CardRemoved", "04A22B1C"),
        ("CardPresented", "DEADBEEF"),
        ("CardRemoved", "DEADBEEF"),
        ("ReaderLost", ""),
    ]
    assert r.bad_lines == 2
    assert "'bogus line here'" in errors.getvalue()
    assert "'12'" in errors.getvalue()
    lost = sink.of(ReaderLost)[0]
    assert isinstance(lost, ReaderLost) and lost.reason == "end of input"


def test_stdin_a_tap_while_a_card_is_down_lifts_it_first() -> None:
    r = StdinReader("stdin://", stream=io.StringIO("tap DEADBEEF\ntap 04A22B1C\n"))
    sink = Sink()
    r.start(sink)
    wait_for(lambda: sink.of(ReaderLost), 5.0, "end of input")
    assert next(e for e in sink.snapshot() if isinstance(e, CardRemoved)).uid == "DEADBEEF"
    assert sink.taps() == ["DEADBEEF", "04A22B1C"]
    r.stop()


def test_stdin_url_with_a_bad_fd_is_refused() -> None:
    with pytest.raises(ReaderError, match="fd=abc"):
        open_reader("stdin://?fd=abc")


def test_list_devices() -> None:
    assert MockReader.list_devices() == ["mock://"]
    assert StdinReader.list_devices() == ["stdin://"]


def test_readers_cli_lists_backends_and_says_why_one_cannot_load(monkeypatch: pytest.MonkeyPatch) -> None:
    import reader.base
    from ui.cli.readers import readers_main

    drivers = dict(reader.base._DRIVERS, broken="reader.no_such_driver:Nothing")
    monkeypatch.setattr(reader.base, "_DRIVERS", drivers)
    out = io.StringIO()
    assert readers_main(argparse.Namespace(command="readers"), out=out) == 0
    text = out.getvalue()
    assert "mock://  1 reader(s) answered:\n    mock://\n" in text
    assert "stdin://  1 reader(s) answered:" in text
    assert "broken://  not usable: reader backend 'broken' is not usable here: No module named 'reader.no_such_driver'" in text
