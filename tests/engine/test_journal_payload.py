"""The log rows' text: the fast encoder (orjson) writes exactly what the standard library's writes."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

import pytest

from engine.store import rows
from engine.store.rows import payload_row, payload_text

VALUES: list[Any] = [
    "plain", "a\x00\x01\x1f\x7f\n\r\t\b\f\"\\/", "\u2028\u2029é日本😀", 0, -5, 2**63 - 1, 2**64 - 1, True, False, None,
    [1, [2, []], {}], (1, 2), {"b": 1, "a": 2, "é": 3, "日": 4, "ﬀ": 5, "Z": 6},
    # where orjson writes otherwise or refuses, the standard library writes the row:
    1.5, 1e16, 1e-7, 5e-324, 1e100, -0.0, 2**64, -(2**63) - 1, "\ud800", {1: "int key"}, OrderedDict(a=1), "v1.2 3e", "re-roll",
]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_the_fast_text_is_the_standard_librarys_byte_for_byte(value: object) -> None:
    command = {"type": "Pay", "value": value}
    events: list[dict[str, Any]] = [{"type": "Paid", "seq": 1, "command": 1, "value": value}]
    text, data = payload_row(command, events)
    assert text == payload_text(command, events)
    assert data == text.encode("utf-8", "surrogatepass")


def test_without_orjson_the_standard_library_writes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rows, "_DUMPS", None)
    command, events = {"type": "Pay", "amount": 5}, [{"type": "Paid", "seq": 1, "command": 1, "amount": 5}]
    assert payload_row(command, events) == (payload_text(command, events), payload_text(command, events).encode())


def test_a_mapping_command_record_is_written_as_a_dict() -> None:
    from types import MappingProxyType

    command = MappingProxyType({"type": "Pay", "amount": 5})
    assert payload_row(command, [])[0] == '{"command":{"amount":5,"type":"Pay"},"events":[]}'
