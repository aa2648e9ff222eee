"""What one input to the banker produced (:class:`Reaction`), returned by every input of the Banker."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.banker.viewmodel import Cue, Prompt, ViewModel
from engine.events import Event


@dataclass(frozen=True)
class Reaction:
    """What one input produced: durable events, cues, the next prompt, a refusal key and the new view."""

    events: tuple[Event, ...]  # durable engine events produced by this input (already on disk)
    cues: tuple[Cue, ...]  # sounds / reader beeps
    prompt: Prompt  # what to do next
    error: str | None  # a translation key when the input was refused, else None
    view: ViewModel  # the new snapshot
    params: dict[str, str | int] = field(default_factory=dict)  # details of the refusal, e.g. "reason"
    input_id: str | None = None  # the id the driver gave the input (engine/banker/inputs.py)
    duplicate: bool = False  # the id was known: answered (events from the journal), not applied again
