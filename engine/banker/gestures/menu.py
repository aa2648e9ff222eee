"""The banker menu behind a PIN (none until one is set): the PIN entry, undo, the settings (timeouts,
PIN), staged until ✓."""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.banker.pin import is_pin, is_record
from engine.banker.setup import player_id
from engine.banker.undoing import new_game_question, undo_plan


def open_pin(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()


def pin_not_set(ctx: Context, event: EventData) -> bool:
    """No PIN yet: the menu opens without asking (the settings offer to set one)."""
    return ctx.pin.record is None


def pin_matches(ctx: Context, event: EventData) -> bool:
    """A whole PIN entry (an answer): checked as a whole, never digit by digit; wrong entries are counted
    and the fifth in a row locks the PIN for a minute (engine/banker/pin.py)."""
    if ctx.probing:
        return False  # may() never checks a PIN, nor counts a failure
    entry = str(input_value(event) or "")
    now = ctx.pin.now()  # the lock's own clock: no input (a `wait` line) shortens the lock
    before = ctx.pin.stored(now)
    result = ctx.pin.check(entry, now)
    if result == "locked":
        ctx.refusal = Refusal("error.pin_locked", {"seconds": int(ctx.pin.locked_for(now) + 0.999)})
    elif result == "bad":
        ctx.refusal = Refusal("error.bad_pin")
    after = ctx.pin.stored(now)
    if ctx.on_settings is not None and after != before:
        ctx.on_settings({k: after[k] for k in ("pin_failures", "pin_locked_s")})
    return result == "ok"


def can_undo(ctx: Context, event: EventData) -> bool:
    return ctx.allowed(c.Undo())


def ask_undo(ctx: Context, event: EventData) -> None:
    """Undo in the menu asks first: the question names what ✓ will take back (engine/banker/undoing.py)."""
    plan = undo_plan(ctx.durable.game, ctx.undo_group, ctx.last_seq) if ctx.durable is not None else None
    if plan is not None:
        ctx.gesture.confirm, ctx.question = "undo", plan.question


def confirming_undo(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.confirm == "undo"


def do_undo(ctx: Context, event: EventData) -> None:
    """✓ on Undo's question: undo the last command, or the last group of commands confirmed as one step (a
    build's or a sale's buildings, ✓ together) when nothing came after it, or a finished auction whole,
    back to its landing (engine/banker/undoing.py)."""
    assert ctx.durable is not None
    plan = undo_plan(ctx.durable.game, ctx.undo_group, ctx.last_seq)
    ctx.undo_group = None
    for _ in range(plan.count if plan is not None else 1):
        ctx.apply(c.Undo())
    ctx.relanding = plan.landing if plan is not None else None  # settle asks the lander again (this input only)


def game_open(ctx: Context, event: EventData) -> bool:
    """A game is under way and not over: New game asks first."""
    return ctx.durable is not None and ctx.durable.game.state.phase not in ("over", "setup")


def ask_new_game(ctx: Context, event: EventData) -> None:
    """New game in a game still open asks first, naming the game it ends; the game stays resumable from
    setup until the new one starts (``press back``)."""
    assert ctx.durable is not None
    ctx.gesture.confirm, ctx.question = "new_game", new_game_question(ctx.durable.game)


def confirming_new_game(ctx: Context, event: EventData) -> bool:
    return ctx.gesture.confirm == "new_game"


def confirming(ctx: Context, event: EventData) -> bool:
    """A question of the menu is on the screen (X drops it and the menu stays)."""
    return bool(ctx.gesture.confirm)


def drop_question(ctx: Context, event: EventData) -> None:
    ctx.gesture.confirm, ctx.question = "", None


def setting_valid(ctx: Context, event: EventData) -> bool:
    name, sep, raw = str(input_value(event) or "").partition("=")
    ok = bool(sep) and (
        (name in ("timeout_s", "auction_s") and _seconds(raw) is not None)
        or (name == "pin" and (is_pin(raw) or raw == ""))
    )
    if not ok:
        ctx.refusal = Refusal("error.bad_setting", {"setting": str(input_value(event))[:40]})
    return ok


def _seconds(raw: str) -> float | None:
    """A timeout in seconds: ASCII digits with at most one point, 1..600 (None otherwise)."""
    digits = raw.replace(".", "", 1)
    if not (digits.isascii() and digits.isdigit()) or len(raw) > 8:
        return None
    value = float(raw)
    return value if 1 <= value <= 600 else None


def do_setting(ctx: Context, event: EventData) -> None:
    """Stage a setting: it takes effect only with ✓; X or the timeout leave the settings as they were.
    ``pin=`` (empty) removes the PIN. A new PIN is staged as its salted hash, never as typed (the staged
    settings are in the banker's record, on disk while the page is open)."""
    name, _, raw = str(input_value(event)).partition("=")
    if name == "pin":
        ctx.gesture.settings[name] = ctx.pin.new_record(raw) if raw else ""
    else:
        ctx.gesture.settings[name] = float(raw)


def confirm_settings(ctx: Context, event: EventData) -> None:
    """✓ in the settings: the staged settings take effect, and the injected ``on_settings`` gets the
    settings in force (it may save them: the PIN only as its salted hash)."""
    for name, value in ctx.gesture.settings.items():
        if name == "pin":
            ctx.pin.record = str(value) if is_record(value) else None
            ctx.pin.failures, ctx.pin.locked_until = 0, None
        else:
            setattr(ctx, name, float(value))
    ctx.gesture.settings = {}
    if ctx.on_settings is not None:
        ctx.on_settings({"timeout_s": ctx.timeout_s, "auction_s": ctx.auction_s, **ctx.pin.stored(ctx.pin.now())})


def _party(text: str) -> str | None:
    """``bank`` or a seat number (ASCII digits) -> the engine's account id."""
    if text == "bank":
        return "bank"
    return player_id(int(text)) if text.isascii() and text.isdigit() and len(text) <= 2 else None


def _correction(raw: str) -> c.Command | None:
    """``correct=money:FROM:TO:AMOUNT:REASON`` or ``correct=deed:DEED:TO:REASON`` (FROM/TO a seat or bank)."""
    name, sep, rest = raw.partition("=")
    if name != "correct" or not sep:
        return None
    kind, _, fields = rest.partition(":")
    if kind == "money":
        parts = fields.split(":", 3)
        if len(parts) == 4 and parts[2].isascii() and parts[2].isdigit() and len(parts[2]) <= 9:
            payer, payee = _party(parts[0]), _party(parts[1])
            if payer and payee:
                return c.CorrectMoney(payer, payee, int(parts[2]), parts[3])
    if kind == "deed":
        parts = fields.split(":", 2)
        if len(parts) == 3 and parts[0].isascii() and parts[0].isdigit() and len(parts[0]) <= 3:
            to = _party(parts[1])
            if to:
                return c.CorrectDeed(int(parts[0]), to, parts[2])
    return None


def correction_valid(ctx: Context, event: EventData) -> bool:
    """A correction answer in the menu (behind the PIN): well formed, and the engine accepts it."""
    raw = str(input_value(event) or "")
    if not raw.startswith("correct="):
        return False
    cmd = _correction(raw)
    if cmd is None:
        ctx.refusal = Refusal("error.bad_correction", {"answer": raw[:60]})
        return False
    return ctx.allowed(cmd)


def do_correction(ctx: Context, event: EventData) -> None:
    cmd = _correction(str(input_value(event)))
    assert cmd is not None
    ctx.apply(cmd)
