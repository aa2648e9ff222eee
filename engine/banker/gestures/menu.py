"""The banker menu behind a PIN: the PIN itself, undo, the settings (timeouts, PIN), staged until ✓."""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.numbers import is_digits, parse_seconds


def open_pin(ctx: Context, event: EventData) -> None:
    ctx.forget_gesture()


def pin_matches(ctx: Context, event: EventData) -> bool:
    value = input_value(event)
    return value is not None and ctx.gesture.pin + str(value) == ctx.pin


def pin_partial(ctx: Context, event: EventData) -> bool:
    value = input_value(event)
    typed = ctx.gesture.pin + str(value or "")
    if is_digits(value) and len(typed) < len(ctx.pin) and ctx.pin.startswith(typed):
        return True
    ctx.refusal = Refusal("error.bad_pin")
    return False


def add_pin_digit(ctx: Context, event: EventData) -> None:
    ctx.gesture.pin += str(input_value(event))


def can_undo(ctx: Context, event: EventData) -> bool:
    return ctx.allowed(c.Undo())


def do_undo(ctx: Context, event: EventData) -> None:
    ctx.apply(c.Undo())


def setting_valid(ctx: Context, event: EventData) -> bool:
    name, sep, raw = str(input_value(event) or "").partition("=")
    ok = bool(sep) and (
        (name in ("timeout_s", "auction_s") and (parse_seconds(raw) or 0) > 0)
        or (name == "pin" and is_digits(raw, 8) and len(raw) >= 4)
    )
    if not ok:
        ctx.refusal = Refusal("error.bad_setting", {"setting": str(input_value(event))})
    return ok


def do_setting(ctx: Context, event: EventData) -> None:
    """Stage a setting: it takes effect only with ✓; X or the timeout leave the settings as they were."""
    name, _, raw = str(input_value(event)).partition("=")
    ctx.gesture.settings[name] = raw if name == "pin" else float(raw)


def confirm_settings(ctx: Context, event: EventData) -> None:
    """✓ in the settings: the staged settings take effect, and the injected ``on_settings`` gets the
    settings in force (it may save them)."""
    for name, value in ctx.gesture.settings.items():
        if name == "pin":
            ctx.pin = str(value)
        else:
            setattr(ctx, name, float(value))
    ctx.gesture.settings = {}
    if ctx.on_settings is not None:
        ctx.on_settings({"timeout_s": ctx.timeout_s, "auction_s": ctx.auction_s, "pin": ctx.pin})
