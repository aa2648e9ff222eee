"""JSON records of events and commands: exact round trips, clear refusals of malformed records."""

from __future__ import annotations

import json

import pytest

from engine import commands as c
from engine import events as ev
from engine import records
from engine.errors import RecordError
from engine.records import (
    command_from_record,
    command_to_record,
    event_from_record,
    event_to_record,
    record_types,
)
from engine.rulesets.ultimate import commands as uc
from engine.rulesets.ultimate import events as uev

EVENT_TYPES, COMMAND_TYPES = record_types("ultimate")

SAMPLE_EVENTS: list[ev.Event] = [
    ev.GameStarted(1, 1, "ultimate-uk", (c.PlayerSpec("A", "Ann", "red"), c.PlayerSpec("B")),
                   {"auction": False, "go_salary": 150}, 42, (3, 1, 2)),
    uev.EventResolved(2, 2, "A", 15, (1, 22)),
    uev.EventResolved(3, 3, "A", 1, ("pink",)),
    uev.ChoiceRequested(4, 4, "A", 1, None),
    ev.GameEnded(5, 5, (ev.Standing(1, "A", 100, 400, 500, 400), ev.Standing(2, "B", 0, 0, 0, 0))),
    ev.DebtOpened(6, 6, "A", "bank", 200, "highway_tax"),
    ev.CommandUndone(7, 7, 6),
]

SAMPLE_COMMANDS: list[c.Command] = [
    c.StartGame((c.PlayerSpec("A"), c.PlayerSpec("B")), {"max_players": 6}, 3),
    uc.ResolveEvent("A", ("B",)), uc.ResolveEvent("A", (3, 16)), uc.DrawEvent("A"), uc.DrawEvent("A", 5, 29),
    uc.UseLocation("A", 16, 7), c.JailRoll("A", True), c.CloseAuction(), c.Undo(), c.PlaceBid("A", 40),
]


@pytest.mark.parametrize("event", SAMPLE_EVENTS, ids=lambda e: type(e).__name__)
def test_event_round_trip(event: ev.Event) -> None:
    record = json.loads(json.dumps(event_to_record(event)))
    assert record["type"] == type(event).__name__
    assert event_from_record(record) == event


@pytest.mark.parametrize("command", SAMPLE_COMMANDS, ids=lambda x: type(x).__name__)
def test_command_round_trip(command: c.Command) -> None:
    record = json.loads(json.dumps(command_to_record(command)))
    assert command_from_record(record) == command
    assert records.command_from_record(records.command_to_record(command)) == command


def test_every_event_type_has_a_decoder() -> None:
    """Building the decoders of all types finds no unsupported field type."""
    for name, cls in EVENT_TYPES.items():
        with pytest.raises(RecordError, match=f"{name} record lacks field"):
            event_from_record({"type": name})
        assert cls.__name__ == name


@pytest.mark.parametrize(("record", "message"), [
    ({"type": "Nope"}, "unknown event type 'Nope'"),
    ({"seq": 1}, "unknown event type None"),
    ({"type": "SalaryPaid", "seq": 1, "command": 1, "player": "A"}, "lacks field 'amount'"),
    ({"type": "SalaryPaid", "seq": 1, "command": 1, "player": "A", "amount": "200"}, "amount: expected int"),
    ({"type": "SalaryPaid", "seq": True, "command": 1, "player": "A", "amount": 2}, "seq: expected int"),
    ({"type": "EventResolved", "seq": 1, "command": 1, "player": "A", "card": 1, "choice": "pink"},
     "choice: expected a list"),
    ({"type": "EventResolved", "seq": 1, "command": 1, "player": "A", "card": 1, "choice": [1.5]},
     r"choice\[0\]"),
])
def test_malformed_records(record: dict[str, object], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        event_from_record(record)


def test_malformed_command_record() -> None:
    with pytest.raises(RecordError, match="unknown command type 'Fly'"):
        command_from_record({"type": "Fly"})
    with pytest.raises(RecordError, match="expected a command record"):
        command_from_record([1, 2])  # type: ignore[arg-type]
