"""The reader contract: UIDs and the URL registry."""

import pytest

from reader import ReaderError, available_schemes, normalize_uid, open_reader
from reader.events import UidError


@pytest.mark.parametrize(
    ("text", "uid"),
    [("04:a2:2b:1c", "04A22B1C"), ("04 A2 2B 1C 5D 6E 80", "04A22B1C5D6E80"), ("0102030405060708090a", "0102030405060708090A")],
)
def test_uid_is_normalized(text: str, uid: str) -> None:
    assert normalize_uid(text) == uid


@pytest.mark.parametrize("bad", ["", "zz112233", "010203", "0102030405", "123"])
def test_bad_uid_is_refused_with_the_input_shown(bad: str) -> None:
    with pytest.raises(UidError, match="UID"):
        normalize_uid(bad)


def test_unknown_scheme_is_a_clear_error() -> None:
    with pytest.raises(ReaderError, match="unknown reader URL scheme 'nfc'"):
        open_reader("nfc://x")
    with pytest.raises(ReaderError, match="needs a scheme"):
        open_reader("/dev/ttyACM0")


def test_all_design_schemes_are_registered() -> None:
    assert set(available_schemes()) >= {"mock", "stdin", "serial", "pn532", "pcsc"}
