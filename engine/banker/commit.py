"""The end of an input: its commands and the banker's record committed together.

Every input of the banker (a tap, a press, a choice, a tick) opens the store's input (``begin_input``);
the commands it applies join one transaction, and at its end the banker's record
(:func:`engine.banker.resume.record_of`, the state and gesture the players are in) is written into that
transaction and committed with it (``finish_input``): one fsync for a committing tap, and a kill at any
moment leaves the journal and the record in step, so a restart resumes the prompt of the last durable
input exactly. An input that applied no command writes its record, when it changed, without waiting for the
disk (engine/store/writes.py). A store without ``finish_input`` (a test's) saves the record on its own
after the input, as before.
"""

from __future__ import annotations

from typing import Any

from engine.banker import resume
from engine.banker.context import Context
from engine.banker.table import BankerState
from engine.banker.view import wealth_history
from engine.errors import EngineError


def finish_input(ctx: Context, state: BankerState, saved: dict[str, Any] | None
                 ) -> tuple[dict[str, Any] | None, EngineError | None]:
    """Commit the input that left the banker in ``state``; (the record on disk now, the error that lost
    the input's commands or None). ``saved``: the record on disk before; an unchanged one is not written."""
    store = ctx.store
    finish = getattr(store, "finish_input", None)
    save = getattr(store, "save_record", None)
    if finish is None and save is None:
        return saved, None
    record = resume.record_of(ctx, state)
    changed = resume.needs_saving(record, saved)
    if finish is not None:
        try:
            written = finish(record if changed else None)
        except EngineError as exc:
            return saved, exc
        return (record if changed and written else saved), None
    elif changed and save is not None and not resume.follows_journal(ctx, state):
        try:
            save(record)
        except EngineError:  # the journal has every command: a restart then resumes from it alone
            return saved, None
    return (record if changed else saved), None


def rebuild(ctx: Context, saved: dict[str, Any] | None) -> BankerState | None:
    """After a failed commit: the game as the journal has it (a game this input created is gone with it),
    the input's id forgotten (resent, it is applied), the history and last seq from the journal's events,
    and what the players were in the middle of from ``saved`` (the record on disk) when it is current; the
    state to put the machine in (None: the state of the game's phase)."""
    ctx.latest_game = getattr(ctx.store, "latest_game", lambda: None)()
    durable = ctx.durable
    try:
        if durable is not None:
            durable.reload()
    except EngineError:
        try:
            ctx.durable = ctx.store.resume()
        except EngineError:
            ctx.durable = None
    if ctx.input_id is not None:
        ctx.ids.forget(ctx.input_id)
    if ctx.durable is not None:
        ctx.ids.use_game(ctx.durable.game_id, getattr(ctx.store, "input_ids", lambda g: {})(ctx.durable),
                         getattr(ctx.store, "input_firsts", lambda g: {})(ctx.durable))
        events = ctx.durable.game.events
        ctx.last_seq = events[-1].seq if events else 0
        ctx.history = wealth_history(ctx.durable.game.edition, events)
    ctx.events = []
    if saved is None or not resume.is_current(saved, ctx.latest_game, ctx.last_seq if ctx.durable else 0):
        return None
    if saved.get("game") is None:
        ctx.durable = None  # a new game was being registered
    return resume.apply_current(ctx, saved)
