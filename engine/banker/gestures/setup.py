"""Setup: seating players by their bank cards, the table's choices (names, tokens, options, edition) and
the start of the game.

The answers are described in :mod:`engine.banker.setup`. A bad answer is refused with an error key and
changes nothing. ✓ puts all of it in the ``StartGame`` command: ``PlayerSpec(id, name, token)`` per seat,
the options chosen, and the edition passed to the store's ``new_game``. Amounts in options are ``int`` in
the edition's money unit. The menu's "new game" goes back here.
"""

from __future__ import annotations

from transitions import EventData

from engine import commands as c
from engine.banker.context import Context, Refusal, input_value
from engine.banker.plugins import wealth_of
from engine.banker.setup import NAME_MAX, TOKEN_PALETTE, parse_setup_answer, playable_editions, player_id
from engine.banker.undoing import game_names, turn_number
from engine.banker.view import wealth_history
from engine.banker.viewmodel import Cue
from engine.editions import load_edition
from engine.errors import OptionError
from engine.game import Game
from engine.numbers import parse_count, parse_int
from engine.options import parse_option_text
from engine.rulesets.registry import ruleset_of
from engine.store.durable import DurableGame

# -- seating -------------------------------------------------------------------------------------------


def can_seat(ctx: Context, event: EventData) -> bool:
    seat = input_value(event)
    limit = ctx.setup_options().max_players
    if seat is not None and int(seat) in ctx.seats:
        ctx.refusal = Refusal("error.already_seated", {"seat": int(seat)})
        return False
    if len(ctx.seats) >= limit:
        ctx.refusal = Refusal("error.too_many_players", {"max": limit})
        return False
    return True


def do_seat(ctx: Context, event: EventData) -> None:
    seat = int(input_value(event))
    ctx.seats.append(seat)
    taken = {ctx.tokens[s] for s in ctx.seats if s in ctx.tokens}
    preferred = TOKEN_PALETTE[(seat - 1) % len(TOKEN_PALETTE)]
    free = [t for t in TOKEN_PALETTE if t not in taken]
    ctx.tokens[seat] = preferred if preferred not in taken else (free[0] if free else preferred)


def do_clear_seats(ctx: Context, event: EventData | None) -> None:
    ctx.seats.clear()
    ctx.names.clear()
    ctx.tokens.clear()


# -- the table's answers ---------------------------------------------------------------------------------


def setup_answer_valid(ctx: Context, event: EventData) -> bool:
    """Condition of ``answer`` in SETUP: a well-formed, acceptable choice (the refusal says why not)."""
    value = input_value(event)
    if value is None:
        return ctx.probing
    parsed = parse_setup_answer(str(value))
    if parsed is None:
        ctx.refusal = Refusal("error.bad_setup", {"answer": str(value)})
        return False
    kind, key, raw = parsed
    refusal = _CHECKS[kind](ctx, key, raw)
    if refusal is not None:
        ctx.refusal = refusal
        return False
    return True


def do_setup_answer(ctx: Context, event: EventData) -> None:
    parsed = parse_setup_answer(str(input_value(event)))
    assert parsed is not None
    kind, key, raw = parsed
    if kind == "name":
        ctx.names[int(key)] = raw.strip()
    elif kind == "token":
        ctx.tokens[int(key)] = raw.strip().lower()
    elif kind == "option":
        name, value = parse_option_text(f"{key}={raw}")
        ctx.options[name] = value
    else:
        choose_edition(ctx, raw)


def _seated(ctx: Context, key: str) -> int | Refusal:
    seat = parse_count(key)
    if seat is None or seat not in ctx.seats:
        return Refusal("error.not_seated", {"seat": key[:40]})
    return seat


def _check_name(ctx: Context, key: str, raw: str) -> Refusal | None:
    seat = _seated(ctx, key)
    if isinstance(seat, Refusal):
        return seat
    name = raw.strip()
    if not 1 <= len(name) <= NAME_MAX or not name.isprintable():
        return Refusal("error.bad_name", {"name": raw, "max": NAME_MAX})
    for other in ctx.seats:
        if other != seat and ctx.seat_name(other).casefold() == name.casefold():
            return Refusal("error.name_taken", {"name": name, "seat": other})
    return None


def _check_token(ctx: Context, key: str, raw: str) -> Refusal | None:
    seat = _seated(ctx, key)
    if isinstance(seat, Refusal):
        return seat
    token = raw.strip().lower()
    if token not in TOKEN_PALETTE:
        return Refusal("error.bad_token", {"token": raw, "expected": ", ".join(TOKEN_PALETTE)})
    for other in ctx.seats:
        if other != seat and ctx.seat_token(other) == token:
            return Refusal("error.token_taken", {"token": token, "seat": other})
    return None


def _check_option(ctx: Context, key: str, raw: str) -> Refusal | None:
    text = raw.strip().lower()
    if text not in ("true", "false", "on", "off", "yes", "no") and parse_int(text) is None:
        return Refusal("error.bad_option", {"option": key[:40], "reason": f"option {key[:40]} expects a whole "
                                            f"number in ASCII digits or on/off, got {raw[:40]!r}"})
    try:
        name, value = parse_option_text(f"{key}={raw}")
        opts = ruleset_of(ctx.setup_edition).options.from_mapping({**ctx.setup_edition.options, **ctx.options, name: value})
    except OptionError as exc:
        return Refusal("error.bad_option", {"option": key, "reason": str(exc)})
    if opts.max_players < len(ctx.seats):
        return Refusal("error.bad_option", {
            "option": key, "reason": f"option max_players expects at least the {len(ctx.seats)} seated "
                                     f"players, got {opts.max_players}"})
    return None


def _check_edition(ctx: Context, key: str, raw: str) -> Refusal | None:
    editions = playable_editions()  # either game: the banker swaps its table for the one chosen
    if raw not in editions:
        return Refusal("error.bad_edition", {"edition": raw, "expected": ", ".join(editions)})
    edition = load_edition(raw)
    if edition.ruleset != ctx.setup_edition.ruleset:
        return None  # another game: its own options start from its defaults (do_setup_answer)
    try:
        ruleset_of(edition).options.from_mapping({**edition.options, **ctx.options})
    except OptionError as exc:
        return Refusal("error.bad_option", {"option": "edition", "reason": str(exc)})
    return None


def choose_edition(ctx: Context, edition_id: str) -> None:
    """The next game's edition; another game's keeps none of this game's options (``--option`` are the
    store's edition's: they come back with a game of its ruleset)."""
    ruleset = load_edition(edition_id).ruleset
    if ruleset != ctx.setup_edition.ruleset:
        ctx.options = dict(ctx.store.options) if ruleset == ctx.store.edition.ruleset else {}
    ctx.edition_id = edition_id


_CHECKS = {"name": _check_name, "token": _check_token, "option": _check_option, "edition": _check_edition}

# -- starting ----------------------------------------------------------------------------------------------


def _start_command(ctx: Context) -> c.StartGame:
    specs = tuple(c.PlayerSpec(player_id(s), ctx.seat_name(s), ctx.seat_token(s)) for s in sorted(ctx.seats))
    return c.StartGame(specs, dict(ctx.options), 0)


def can_start(ctx: Context, event: EventData) -> bool:
    if len(ctx.seats) < 2:
        ctx.refusal = Refusal("error.need_players", {"min": 2, "seated": len(ctx.seats)})
        return False
    names = [ctx.seat_name(s).casefold() for s in ctx.seats]
    if len(set(names)) != len(names):
        dup = next(ctx.seat_name(s) for s in ctx.seats if names.count(ctx.seat_name(s).casefold()) > 1)
        ctx.refusal = Refusal("error.name_taken", {"name": dup, "seat": ""})
        return False
    reason = Game(ctx.setup_edition).check(_start_command(ctx))
    if reason is not None:
        ctx.refusal = Refusal("error.rule", {"reason": reason, "command": "StartGame"})
        return False
    return True


def remember_names(ctx: Context) -> None:
    """The names of this game's bank cards (their seats), for the next game's setup; the caller keeps them
    through ``on_settings`` (``names``: seat -> name)."""
    ctx.remembered.update({seat: ctx.seat_name(seat) for seat in ctx.seats if seat in ctx.names})
    if ctx.on_settings is not None and ctx.remembered:
        ctx.on_settings({"names": {str(seat): name for seat, name in sorted(ctx.remembered.items())}})


def do_start(ctx: Context, event: EventData) -> None:
    cmd = _start_command(ctx)
    seed = ctx.seed_source()
    if ctx.input_id is None:
        ctx.durable = ctx.store.new_game(ctx.setup_edition.id, cmd.players, cmd.options, seed)
    else:  # the id of the input that started the game is journaled with its StartGame
        ctx.durable = ctx.store.new_game(ctx.setup_edition.id, cmd.players, cmd.options, seed,
                                         input_id=ctx.input_id)
    ctx.ids.use_game(ctx.durable.game_id, {})
    ctx.latest_game = ctx.durable.game_id
    if ctx.input_id is not None:
        ctx.ids.remember(ctx.input_id, ctx.durable.game_id, 1)
    started = ctx.store.events(ctx.durable)
    ctx.events.extend(started)
    ctx.note(started)
    leave_previous(ctx, None)  # the game New game left is no longer offered once this one started
    started_edition = ctx.durable.game.edition.id
    if started_edition != ctx.next_edition:  # the family's game: the next New game lights it (written only
        ctx.next_edition = started_edition  # when it changes, once the game is on disk)
        if ctx.on_settings is not None:
            ctx.on_settings({"next_edition": started_edition})
    remember_names(ctx)
    ctx.cues.append(Cue.OK)
    do_clear_seats(ctx, event)
    ctx.history = {}
    game = ctx.durable.game
    for pid in game.state.order:
        ctx.history[pid] = [wealth_of(game, pid)]


def leave_previous(ctx: Context, durable: DurableGame | None) -> None:
    """Keep ``durable`` (a game still open) as the game setup offers to go back to, or forget it (None)."""
    open_game = durable is not None and durable.game.state.phase not in ("over", "setup")
    ctx.previous = durable if open_game else None
    ctx.previous_label = (game_names(durable.game), turn_number(durable.game)) if durable and open_game else None


def can_go_back(ctx: Context, event: EventData) -> bool:
    """``press back`` in setup: the game New game left is still the journal's latest (none started since)."""
    previous = ctx.previous
    return previous is not None and ctx.latest_game == previous.game_id


def do_go_back(ctx: Context, event: EventData) -> None:
    """Back to the game New game left, exactly as it was (the banker then restores its phase's state); what
    was chosen for a new game is dropped."""
    durable = ctx.previous
    assert durable is not None
    leave_previous(ctx, None)
    do_clear_seats(ctx, event)
    ctx.durable = durable
    ctx.edition_id = durable.game.edition.id
    input_ids = getattr(ctx.store, "input_ids", None)
    ctx.ids.use_game(durable.game_id, input_ids(durable) if input_ids is not None else {})
    past = ctx.store.events(durable)
    ctx.history = wealth_history(durable.game.edition, past)
    ctx.note(past)
    ctx.cues.append(Cue.OK)


def do_new_game(ctx: Context, event: EventData) -> None:
    """To setup: the game left stays resumable from there (``press back``) until a new one starts; the
    edition lit is the next game's (``--edition``'s, or the family's last), with the options kept for a game
    of the same ruleset."""
    leave_previous(ctx, ctx.durable)
    ctx.durable = None
    if ctx.next_edition != ctx.edition_id:
        choose_edition(ctx, ctx.next_edition)
    ctx.ids.use_game(None, {})
    ctx.last_tx = None
    ctx.last_seq = 0
    do_clear_seats(ctx, event)
    ctx.history = {}
    ctx.forget_gesture()
