"""Count it at the banker's inputs: the question asked before a counting player's payment, its answers,
Skip, the timeout and another input that ends it (engine/banker/counting.py says the design).

These functions take the :class:`~engine.banker.machine.Banker` (``banker``) and use its context; the banker
calls them from its inputs. A question is asked from inside a transition (``AskFirst`` raised by the gate);
:func:`ask` puts the banker back as it was before that input (:func:`snapshot`) and keeps the input, which
:func:`release` fires again with the gate open, so its command is applied exactly once. Amounts are ints in
money units; times are seconds of the banker's injected clock.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.banker.context import Context, Refusal
from engine.banker.counting import SETUP_KEY, AskFirst, Pending, parse_seats
from engine.banker.reaction import Reaction
from engine.banker.table import BankerState
from engine.banker.viewmodel import Cue, Prompt, QuestionView, ViewModel

Banker = Any
"""The :class:`~engine.banker.machine.Banker` (not imported: it imports this module)."""
__all__ = ["AskFirst"]

Snapshot = tuple[BankerState, dict[str, Any], Any]

ASKING_ACTIONS = ("press_skip",)
"""The view's actions while a question is asked: Skip (a number is ``choose``, the ``answer`` trigger)."""
NO_QUESTION_STATES = frozenset({BankerState.SETUP, BankerState.PIN, BankerState.MENU, BankerState.SETTINGS})
"""States whose commands are the banker's (start, undo, corrections): never asked."""


def snapshot(banker: Banker) -> Snapshot | None:
    """What :func:`ask` restores: the machine's state, the context's fields, the gesture (None: nobody counts,
    or the state's commands are never asked, so no question can come)."""
    ctx = banker.ctx
    if not ctx.counting.players or ctx.counting.open_gate or banker.state in NO_QUESTION_STATES:
        return None
    return banker.state, dict(vars(ctx)), copy.deepcopy(ctx.gesture)


def ask(banker: Banker, question: QuestionView, snap: Snapshot | None, trigger: str,
        value: str | int | None) -> Reaction:
    """The gate asked first: the banker as before the input, the input kept, the question shown."""
    ctx = banker.ctx
    assert snap is not None, "a question asked without a snapshot"
    state, fields, gesture = snap
    cues = list(ctx.cues)
    vars(ctx).clear()
    vars(ctx).update(fields)
    ctx.gesture = gesture
    ctx.events, ctx.cues, ctx.refusal = [], cues, None
    banker.machine.set_state(state)
    ctx.counting.pending = Pending(question, trigger, value, ctx.clock())
    return _reacted(banker, None)


def release(banker: Banker, outcome: str) -> Reaction:
    """End the question (``outcome``: right, revealed, skipped, timeout, interrupted) and fire the kept
    input again with the gate open: its payment goes through, once."""
    counting = banker.ctx.counting
    pending = counting.pending
    assert pending is not None
    counting.end(outcome)
    counting.open_gate = True
    try:
        reaction: Reaction = banker._fire(pending.trigger, pending.value)
    finally:
        counting.open_gate = False
    if outcome == "right":
        return replace(reaction, cues=(*reaction.cues, Cue.OK))
    return reaction


def answer(banker: Banker, raw: str) -> Reaction:
    """A number typed for the question: right (praised, paid), wrong (a hint, a second try), the second
    wrong (the answer shown, paid); anything else is refused with nothing changed."""
    ctx = banker.ctx
    outcome = ctx.counting.answer(raw, ctx.clock())
    if outcome == "bad":
        ctx.cues = [Cue.ERROR]
        return _reacted(banker, Refusal("error.count_number", {"answer": raw[:20]}))
    if outcome == "wrong":
        ctx.cues = [Cue.ERROR]
        return _reacted(banker, None)
    return release(banker, outcome)


def _reacted(banker: Banker, refusal: Refusal | None) -> Reaction:
    banker._fired = False
    reaction: Reaction = banker._reaction(refusal)
    return reaction


def on_input(banker: Banker, what: tuple[Any, ...]) -> Reaction:
    """An input while a question is asked (``what``: ``("tap", uid)``, ``("press", button, value)``,
    ``("choose", value)``, ``("tick",)``): a number answers, Skip or X skips, time may end it, and any other
    input lets the payment through unasked, then is handled as usual."""
    kind = what[0] if what else ""
    if kind == "choose":
        return answer(banker, str(what[1]))
    if kind == "tick":
        return tick(banker)
    if kind == "press" and what[1] in ("skip", "cancel"):
        return release(banker, "skipped")
    input_id = banker.ctx.input_id
    if kind == "tap":
        return interrupt(banker, lambda: banker.tap(str(what[1]), input_id))
    return interrupt(banker, lambda: banker.press(str(what[1]), what[2], input_id))


def interrupt(banker: Banker, then: Callable[[], Reaction]) -> Reaction:
    """Another input while a question is asked: the payment goes through unasked (without the input's id),
    then ``then`` (the input as usual, with its id); one reaction with the events of both."""
    banker.ctx.input_id = None
    first = release(banker, "interrupted")
    second = then()
    return replace(second, events=(*first.events, *second.events), cues=(*first.cues, *second.cues))


def tick(banker: Banker) -> Reaction:
    """Time passed while a question is asked: at ``timeout_s`` since its last touch it ends (paid once);
    before, nothing changes."""
    ctx = banker.ctx
    pending = ctx.counting.pending
    assert pending is not None
    if ctx.clock() - pending.asked_at >= ctx.timeout_s:
        return release(banker, "timeout")
    return _reacted(banker, None)


def setup_answer(banker: Banker, value: str) -> Reaction | None:
    """``count=SEAT,SEAT`` in setup: who counts in the next game (empty: nobody); None for another answer."""
    ctx = banker.ctx
    key, _, raw = value.partition("=")
    if banker.state is not BankerState.SETUP or key.strip() != SETUP_KEY:
        return None
    seats = parse_seats(raw)
    if seats is None or any(s not in ctx.seats for s in seats):
        ctx.cues = [Cue.ERROR]
        return _reacted(banker, Refusal("error.not_seated", {"seat": raw[:40]}))
    ctx.counting.seats = seats
    ctx.cues = [Cue.OK]
    return _reacted(banker, None)


def decorate(view: ViewModel, banker: Banker) -> ViewModel:
    """``view`` with the question (its prompt and actions), the question just ended and the scores."""
    counting = banker.ctx.counting
    if not counting.players and counting.counted is None and not counting.seats:
        return view
    pending = counting.pending
    extra = view.extra
    if counting.seats and banker.state is BankerState.SETUP:
        extra = (*extra, ("count", ",".join(str(s) for s in counting.seats)))
    if pending is None:
        return replace(view, counted=counting.counted, scores=counting.score_views(), extra=extra)
    q = pending.question
    return replace(view, question=q, counted=counting.counted, scores=counting.score_views(), extra=extra,
                   prompt=Prompt("prompt.count_question", (("player", q.player),)), actions=ASKING_ACTIONS,
                   selected_player=q.player, selected_deed=q.deed)


def touched(ctx: Context) -> None:
    """The screen was touched (a keypad key): the question's timeout restarts."""
    if ctx.counting.pending is not None:
        ctx.counting.pending.asked_at = ctx.clock()


def follow(ctx: Context) -> None:
    """After an input: a game it started takes the counters chosen in setup (engine/banker/counting.py)."""
    started = any(type(e).__name__ == "GameStarted" for e in ctx.events)
    durable = ctx.durable
    ctx.counting.follow(durable.game_id if durable is not None else None, started,
                        durable.game.state.specs if durable is not None and started else ())


def shown(view: ViewModel, banker: Banker) -> ViewModel:
    """An input's view (:func:`decorate`): the question that ended is in it once, then forgotten."""
    decorated = decorate(view, banker)
    banker.ctx.counting.counted = None
    return decorated
